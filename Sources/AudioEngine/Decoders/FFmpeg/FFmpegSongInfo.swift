import CAv
import Glibc
import PlayerCore

/// What FFmpeg says of a song it opened: its tags (the container's and the stream's metadata,
/// whatever their origin: MP4 atoms, APE, ASF, RIFF INFO, Vorbis comments), its ReplayGain, a
/// short name of its codec and container, its length, and where its audio ends.
struct FFmpegSongInfo {
    /// The tags as name and value, their names as Vorbis comments spell them.
    var comments = VorbisComments()
    var replayGain = ReplayGain()
    /// "AAC (MP4)", "ALAC (MP4)", "WAV, 16 bits"…
    var codec: String
    /// Bits a sample as stored, when the codec keeps them (ALAC, WAV, AIFF…).
    var bits: Int?
    /// The length in samples when the container says it (not an estimate from the bitrate).
    var totalFrames: Int64?
    /// Where the samples end, when the container says so exactly: an MP4's edit list or its
    /// iTunSMPB (the encoder's padding after it is not the song).
    var end: Int64?


    init(api: tp_av, context: UnsafeMutablePointer<AVFormatContext>, stream index: Int, rate: Int32) {
        let container = context.pointee.iformat.map { String(cString: $0.pointee.name) } ?? ""
        let stream = context.pointee.streams[index]
        let parameters = stream?.pointee.codecpar?.pointee
        let codecName = parameters.flatMap { api.codec_name?($0.codec_id) }.map { String(cString: $0) } ?? "?"
        let bits = Int(parameters.map { $0.bits_per_raw_sample > 0 ? $0.bits_per_raw_sample : $0.bits_per_coded_sample } ?? 0)
        codec = Self.name(codec: codecName, container: container, bits: bits)
        self.bits = (1...64).contains(bits) && parameters?.bits_per_raw_sample ?? 0 > 0 ? bits : nil

        var kept = TagText.Song()
        comments.fields = Self.fields(api, context.pointee.metadata, kept: &kept)
        comments.fields += Self.fields(api, stream?.pointee.metadata, kept: &kept)
        replayGain = comments.replayGain
        if replayGain.isEmpty, let stream { replayGain = Self.sideDataGain(api, stream) }

        if let stream, stream.pointee.duration != Int64(bitPattern: 0x8000_0000_0000_0000), stream.pointee.duration > 0,
           context.pointee.duration_estimation_method != AVFMT_DURATION_FROM_BITRATE {
            totalFrames = api.rescale_q?(stream.pointee.duration, stream.pointee.time_base, AVRational(num: 1, den: rate))
        }
        if container.hasPrefix("mov") {
            // A length past what the container holds (a second of slack for the priming) is not the song's.
            let claimed = Self.iTunesLength(comments.first("iTunSMPB")).flatMap { samples in
                samples <= (totalFrames ?? 1 << 40).addingReportingOverflow(Int64(rate)).partialValue ? samples : nil
            }
            end = claimed ?? totalFrames
            if let end { totalFrames = end }
        }
    }

    /// Every entry of `dictionary`, bounded (lyrics within the song's budget, `kept`), as UTF-8
    /// repaired; the names FFmpeg gives the common tags turned into the Vorbis comments' names.
    static func fields(_ api: tp_av, _ dictionary: OpaquePointer?, kept: inout TagText.Song) -> [(name: String, value: String)] {
        guard let dictionary, let get = api.dict_get else { return [] }
        var fields: [(name: String, value: String)] = []
        var entry = get(dictionary, "", nil, AV_DICT_IGNORE_SUFFIX)
        while let current = entry, fields.count < TagText.fieldLimit {
            if let key = current.pointee.key, let value = current.pointee.value {
                let name = TagText.value(cString: key)
                let renamed = ["album_artist": "ALBUMARTIST", "track": "TRACKNUMBER"][name.lowercased()] ?? name
                fields.append((renamed, kept.value(cString: value, field: name)))
            }
            entry = get(dictionary, "", current, AV_DICT_IGNORE_SUFFIX)
        }
        return fields
    }

    /// The gain FFmpeg itself read into the stream's side data (AVReplayGain: gains in
    /// 1/100,000 dB, peaks in 1/100,000 of full scale; unknown gains are INT32_MIN, peaks 0).
    static func sideDataGain(_ api: tp_av, _ stream: UnsafeMutablePointer<AVStream>) -> ReplayGain {
        var size = 0
        guard let data = api.stream_side_data?(stream, AV_PKT_DATA_REPLAYGAIN, &size),
              size >= MemoryLayout<AVReplayGain>.size else { return ReplayGain() }
        let gain = UnsafeRawPointer(data).loadUnaligned(as: AVReplayGain.self)
        // Bounded as tags are (a gain of ±21,474 dB would be silence or full-scale noise).
        func decibels(_ value: Int32) -> Double? { value == Int32.min ? nil : ReplayGain.sane(gain: Double(value) / 100_000) }
        func peak(_ value: UInt32) -> Double? { ReplayGain.sane(peak: Double(value) / 100_000) }
        return ReplayGain(trackGain: decibels(gain.track_gain), trackPeak: peak(gain.track_peak),
                          albumGain: decibels(gain.album_gain), albumPeak: peak(gain.album_peak))
    }

    /// The song's length in an iTunSMPB tag (" 00000000 00000840 000001CA 00000000003F31F6 …":
    /// the priming, the padding, the samples), when it is there and sane.
    static func iTunesLength(_ tag: String?) -> Int64? {
        guard let words = tag?.split(separator: " "), words.count >= 4, let samples = Int64(words[3], radix: 16),
              samples > 0 else { return nil }
        return samples
    }

    /// "AAC (MP4)", "WAV, 24 bits", "Monkey's Audio", "FLAC (Matroska)": the codec's name, and
    /// the container's when it is not the codec's own; uncompressed audio by its container.
    static func name(codec: String, container: String, bits: Int) -> String {
        let containers = ["mov": "MP4", "matroska": "Matroska", "asf": "ASF", "ogg": "Ogg", "caf": "CAF", "wav": "WAV",
                          "aiff": "AIFF", "au": "AU", "w64": "Wave64", "aac": "ADTS", "avi": "AVI"]
        let box = containers.first { container.hasPrefix($0.key) }?.value
        if codec.hasPrefix("pcm_") {
            let kind = box ?? container.uppercased()
            return bits > 0 ? "\(kind), \(bits) bits" : kind
        }
        let codecs = ["aac": "AAC", "alac": "ALAC", "ape": "Monkey's Audio", "wavpack": "WavPack", "wmav1": "WMA",
                      "wmav2": "WMA", "wmapro": "WMA Pro", "wmalossless": "WMA Lossless", "tta": "TTA",
                      "musepack7": "Musepack", "musepack8": "Musepack", "vorbis": "Vorbis", "opus": "Opus",
                      "flac": "FLAC", "mp3": "MP3", "ac3": "AC-3", "eac3": "E-AC-3", "dts": "DTS"]
        let name = codecs[codec] ?? codec.uppercased()
        return box.map { "\(name) (\($0))" } ?? name
    }
}
