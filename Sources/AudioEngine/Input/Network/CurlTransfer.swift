import CCurl
import Files
import Glibc
import PlayerCore

/// libcurl, loaded once, the first time a stream opens (curl_global_init runs then, once).
enum CurlLibrary {
    /// Its functions, kept for the life of the process (the wrappers take them by pointer).
    nonisolated(unsafe) static let api: UnsafePointer<tp_curl>? = {
        let api = UnsafeMutablePointer<tp_curl>.allocate(capacity: 1)
        api.initialize(to: tp_curl())
        guard tp_curl_load(api) == 0 else {
            api.deallocate()
            return nil
        }
        return UnsafePointer(api)
    }()
}

/// One HTTP(S) request of a stream and its answer, on the stream's network thread: the easy
/// handle set as every request of tplayer's is (http and https only, redirects included; at
/// most `StreamLimits.redirects` of them; TLS verified; `Icy-MetaData: 1`; a connect timeout;
/// headers bounded), its headers gathered, and its body handed to `body` as it comes. libcurl
/// calls back into it on the thread that runs the multi handle, never another.
final class CurlTransfer {
    let api: UnsafePointer<tp_curl>
    let handle: UnsafeMutableRawPointer
    private var headerList: UnsafeMutablePointer<curl_slist>?
    /// The final answer's headers (a redirect's are dropped when the next answer starts), and
    /// all the header bytes seen, against `StreamLimits.headerBytes`.
    private(set) var headers: [(name: String, value: [UInt8])] = []
    private var headerBytes = 0
    /// Why this side stopped the transfer, where it did (headers too long).
    private(set) var refusal: String?
    /// Called with each piece of the body; false pauses the transfer (no room: the same bytes
    /// come again once `resume` is called).
    var body: (UnsafeRawBufferPointer) -> Bool = { _ in true }
    private(set) var isPaused = false

    /// A request for `url`'s body from byte `from` on (a range request when it is not 0).
    init?(url: String, limits: StreamLimits, from: Int64 = 0) {
        guard let api = CurlLibrary.api, let handle = api.pointee.easy_init() else { return nil }
        self.api = api
        self.handle = handle
        self.limits = limits
        let context = Unmanaged.passUnretained(self).toOpaque()
        _ = url.withCString { tp_curl_set_pointer(api, handle, CURLOPT_URL, $0) }
        setString(CURLOPT_PROTOCOLS_STR, "http,https")
        setString(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        setLong(CURLOPT_FOLLOWLOCATION, 1)
        setLong(CURLOPT_MAXREDIRS, limits.redirects)
        setLong(CURLOPT_CONNECTTIMEOUT_MS, Int(limits.connectTimeout * 1000))
        setLong(CURLOPT_NOSIGNAL, 1)
        setLong(CURLOPT_FAILONERROR, 1)
        setLong(CURLOPT_SSL_VERIFYPEER, 1)
        setLong(CURLOPT_SSL_VERIFYHOST, 2)
        setString(CURLOPT_USERAGENT, "tplayer")
        if from > 0 { setString(CURLOPT_RANGE, "\(from)-") }
        headerList = api.pointee.slist_append(nil, "Icy-MetaData: 1")
        _ = tp_curl_set_pointer(api, handle, CURLOPT_HTTPHEADER, UnsafeRawPointer(headerList))
        _ = tp_curl_set_data_function(api, handle, CURLOPT_HEADERFUNCTION) { data, size, count, context in
            guard let data, let context else { return 0 }
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
            return transfer.header(UnsafeRawBufferPointer(start: data, count: size * count)) ? size * count : 0
        }
        _ = tp_curl_set_pointer(api, handle, CURLOPT_HEADERDATA, context)
        _ = tp_curl_set_data_function(api, handle, CURLOPT_WRITEFUNCTION) { data, size, count, context in
            guard let data, let context else { return 0 }
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
            guard transfer.body(UnsafeRawBufferPointer(start: data, count: size * count)) else {
                transfer.isPaused = true
                return Int(CURL_WRITEFUNC_PAUSE)
            }
            return size * count
        }
        _ = tp_curl_set_pointer(api, handle, CURLOPT_WRITEDATA, context)
    }

    private let limits: StreamLimits

    deinit {
        api.pointee.easy_cleanup(handle)
        api.pointee.slist_free_all(headerList)
    }

    private func setLong(_ option: CURLoption, _ value: Int) {
        _ = tp_curl_set_long(api, handle, option, value)
    }

    private func setString(_ option: CURLoption, _ value: String) {
        // libcurl copies strings it is given (since 7.17).
        _ = value.withCString { tp_curl_set_pointer(api, handle, option, $0) }
    }

    /// One header line of an answer (a status line starts a new answer: a redirect's headers are
    /// forgotten). False stops the transfer: the headers ran past their bound.
    private func header(_ line: UnsafeRawBufferPointer) -> Bool {
        headerBytes += line.count
        guard headerBytes <= limits.headerBytes, headers.count < 200 else {
            refusal = "the server's headers run past \(limits.headerBytes / 1024) KiB"
            return false
        }
        var bytes = Array(line)
        while let last = bytes.last, last == 0x0A || last == 0x0D { bytes.removeLast() }
        if bytes.starts(with: Array("HTTP/".utf8)) || bytes.starts(with: Array("ICY ".utf8)) {
            headers.removeAll()
        } else if let colon = bytes.firstIndex(of: UInt8(ascii: ":")) {
            let name = String(decoding: bytes[..<colon], as: UTF8.self)
            headers.append((name, Array(bytes[(colon + 1)...])))
        }
        return true
    }

    /// The value of the final answer's header `name` (any case), as text.
    func header(named name: String) -> String? {
        headers.first { $0.name.lowercased() == name }.map { IcyMetadata.text($0.value.drop { $0 == 0x20 }) }
    }

    /// Goes on with a paused transfer (its body has room again).
    func resume() {
        guard isPaused else { return }
        isPaused = false
        _ = api.pointee.easy_pause(handle, CURLPAUSE_CONT)
    }

    /// The answer's HTTP status (0 before one came).
    var status: Int {
        var code = 0
        _ = tp_curl_get_long(api, handle, CURLINFO_RESPONSE_CODE, &code)
        return code
    }

    /// Where the last redirect pointed, when one was refused (a `file://` URL).
    var redirect: String? {
        var text: UnsafeMutablePointer<CChar>?
        guard tp_curl_get_string(api, handle, CURLINFO_REDIRECT_URL, &text) == CURLE_OK, let text else { return nil }
        return String(cString: text)
    }

    /// The body's length as the answer states it (`Content-Length`), if it does.
    /// The URL the answer came from, redirects followed.
    var effectiveURL: String? {
        var text: UnsafeMutablePointer<CChar>?
        guard tp_curl_get_string(api, handle, CURLINFO_EFFECTIVE_URL, &text) == CURLE_OK, let text else { return nil }
        return String(cString: text)
    }

    var contentLength: Int64? {
        var length: curl_off_t = -1
        guard tp_curl_get_offset(api, handle, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length) == CURLE_OK, length >= 0 else { return nil }
        return Int64(length)
    }

    /// libcurl's words for `code`.
    private func words(_ code: CURLcode) -> String {
        api.pointee.easy_strerror(code).map { String(cString: $0) } ?? "libcurl error \(code.rawValue)"
    }

    /// Why libcurl ended the transfer, in words, or nil for success.
    func reason(for code: CURLcode) -> String? {
        guard code != CURLE_OK else { return nil }
        if let refusal { return refusal }
        switch code {
        case CURLE_HTTP_RETURNED_ERROR: return "the server answered \(status)"
        case CURLE_UNSUPPORTED_PROTOCOL:
            return (redirect ?? header(named: "location")).map { "it redirects to \($0), and only http and https are followed" }
                ?? "only http and https streams play"
        case CURLE_TOO_MANY_REDIRECTS: return "more than \(limits.redirects) redirects"
        case CURLE_PARTIAL_FILE: return "the server closed the connection"
        case CURLE_COULDNT_RESOLVE_HOST: return "no such host"
        case CURLE_COULDNT_CONNECT: return "the connection was refused"
        case CURLE_OPERATION_TIMEDOUT: return "no answer within \(Int(limits.connectTimeout)) s"
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE:
            return "its TLS certificate cannot be verified (\(words(code)))"
        default: return words(code)
        }
    }
}

/// The bounds of a stream's network side (see README, "Internet radio").
struct StreamLimits: Sendable {
    /// The network buffer in front of the decoder: what a stall of the network may last.
    var bufferBytes = StreamURL.bufferBytes
    /// What is kept behind what the decoder read (it reads the first bytes twice: the format's
    /// sniff, then the decoder).
    var historyBytes = 256 << 10
    /// Bytes buffered before the first sound (mpv's cache waits for some too).
    var prebufferBytes = 64 << 10
    /// At most this long after the first byte, though fewer have come.
    var prebufferSeconds = 2.0
    var connectTimeout = 10.0
    /// No byte for this long while there is room: the connection is dropped and made again.
    var stallTimeout = 10.0
    var redirects = 5
    var headerBytes = 64 << 10
    /// ICY titles held until the decoder reaches them; past this, the oldest is dropped.
    static let titlesHeld = 64
    /// Reconnections tried in a row before the stream is given up; the waits between them.
    var reconnectTries = 10
    /// Half a second at first (a server restarted is back within a second of it), then
    /// longer: a minute in all before the tenth try.
    static let backoff = [0.5, 0.5, 0.5, 1, 1, 2, 4, 8, 16, 30]
}
