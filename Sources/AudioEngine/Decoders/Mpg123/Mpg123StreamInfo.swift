import CMpg123
import PlayerCore

/// What libmpg123 says of the song open on a handle, read where it is kept: the first frame's
/// header (and a VBR song's average rate), the frame read last, the tags as stored.
enum Mpg123StreamInfo {
    /// What the first frame says: MPEG version, layer, bitrate, CBR / VBR / ABR, channel mode.
    /// For VBR the average rate too: the audio's bytes (from the first frame on, so not a tag
    /// with cover art in front) over its length; the first frame's rate says little.
    static func stream(_ handle: OpaquePointer, length bytes: Int64?, rate: Int) -> SongInfo.Stream? {
        var frame = mpg123_frameinfo2()
        guard mpg123_info2(handle, &frame) == MPG123_OK.rawValue else { return nil }
        let bitrate = frame.vbr == 2 /* ABR */ ? Int(frame.abr_rate) : Int(frame.bitrate)
        var stream = SongInfo.Stream(layer: Int(frame.layer), bitrate: bitrate)
        stream.header.version = Int(frame.version)
        stream.header.mode = Int(frame.mode)
        stream.header.modeExtension = Int(frame.mode_ext)
        stream.header.frameSize = Int(frame.framesize)
        stream.header.crc = frame.flags & Int32(MPG123_CRC.rawValue) != 0
        stream.header.copyright = frame.flags & Int32(MPG123_COPYRIGHT.rawValue) != 0
        stream.header.privateBit = frame.flags & Int32(MPG123_PRIVATE.rawValue) != 0
        stream.header.emphasis = Int(frame.emphasis)
        stream.header.vbr = Int(frame.vbr)
        let frames = tp_mpg123_framelength(handle)
        stream.frameCount = frames >= 0 ? Int64(frames) : nil
        let length = tp_mpg123_length(handle)
        if stream.header.vbr == 1, length > 0, let bytes {
            let audioBytes = bytes - max(Int64(tp_mpg123_framepos(handle)), 0)
            let seconds = Double(length) / Double(rate)
            stream.averageBitrate = Int((Double(audioBytes) * 8 / seconds / 1000).rounded())
        }
        return stream
    }

    /// The frame libmpg123 read last: where it starts, its length, its header's format.
    static func frame(_ handle: OpaquePointer) -> SkipWatch.Frame? {
        var frame = mpg123_frameinfo2()
        guard mpg123_info2(handle, &frame) == MPG123_OK.rawValue else { return nil }
        let position = Int64(tp_mpg123_framepos(handle))
        guard position >= 0 else { return nil }
        // libmpg123's frame size holds the header already (it was counted twice: every frame
        // seemed to end 4 bytes past where the next one starts).
        return SkipWatch.Frame(position: position, size: Int64(frame.framesize),
                               native: PCMFormat(rate: frame.rate, channels: frame.mode == MPG123_M_MONO.rawValue ? 1 : 2))
    }

    /// The tags as stored, for the remote protocol's `@I` lines and `TAG`.
    static func id3(_ handle: OpaquePointer) -> SongInfo.ID3 {
        var v1: UnsafeMutablePointer<mpg123_id3v1>?
        var v2: UnsafeMutablePointer<mpg123_id3v2>?
        guard mpg123_id3(handle, &v1, &v2) == MPG123_OK.rawValue else { return SongInfo.ID3() }
        var found = SongInfo.ID3()
        if let tag = v1?.pointee {
            var fields: [UInt8] = []
            withUnsafeBytes(of: tag.title) { fields += $0 }
            withUnsafeBytes(of: tag.artist) { fields += $0 }
            withUnsafeBytes(of: tag.album) { fields += $0 }
            withUnsafeBytes(of: tag.year) { fields += $0 }
            withUnsafeBytes(of: tag.comment) { fields += $0 }
            found.v1 = SongInfo.ID3.V1(fields: fields, genre: tag.genre)
        }
        if let tag = v2?.pointee {
            var fields = SongInfo.ID3.V2()
            fields.title = text(tag.title)
            fields.artist = text(tag.artist)
            fields.album = text(tag.album)
            fields.year = text(tag.year)
            fields.comment = text(tag.comment)
            fields.genre = text(tag.genre)
            var kept = TagText.Song()
            func frames(_ list: UnsafeMutablePointer<mpg123_text>?, _ count: Int, described: Bool, language: Bool) -> [SongInfo.ID3.Frame] {
                UnsafeBufferPointer(start: list, count: list == nil ? 0 : min(count, TagText.fieldLimit)).map { item in
                    var item = item
                    let id = withUnsafeBytes(of: item.id) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                    let lang = withUnsafeBytes(of: item.lang) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                    let description = withUnsafeMutablePointer(to: &item.description) { text($0) } ?? ""
                    let body = withUnsafeMutablePointer(to: &item.text) { text($0) { kept.value($0, field: id) } } ?? ""
                    return SongInfo.ID3.Frame(id: id, language: language ? lang : nil,
                                              description: described ? description : nil, text: body)
                }
            }
            fields.frames = frames(tag.text, tag.texts, described: false, language: false)
                + frames(tag.extra, tag.extras, described: true, language: false)
                + frames(tag.comment_list, tag.comments, described: true, language: true)
            if fields != SongInfo.ID3.V2() { found.v2 = fields }
        }
        return found
    }

    /// A text as `TagText` keeps it (a 16 MB title is read no further than its cap), or as `read`
    /// keeps it (a frame's, within the song's budget for lyrics): every value of the frame, the
    /// NULs between ID3v2.4's several kept (`fill` counts them, and the closing NULs that go).
    private static func text(_ string: UnsafeMutablePointer<mpg123_string>?,
                             read: (UnsafeBufferPointer<UInt8>) -> String = { TagText.value($0) }) -> String? {
        guard let string = string?.pointee, let bytes = string.p, string.fill > 0, string.fill <= string.size else { return nil }
        var count = string.fill
        while count > 0, bytes[count - 1] == 0 { count -= 1 }
        let value = bytes.withMemoryRebound(to: UInt8.self, capacity: count) { read(UnsafeBufferPointer(start: $0, count: count)) }
        return value.isEmpty ? nil : value
    }
}
