import Testing
@testable import PlayerCore

/// A frame libmpg123 does not hand out (`SYLT`) found in a file's ID3v2 tag: past a large
/// picture, in a tag unsynchronised whole (2.2, 2.3) or frame by frame (2.4), with a data length
/// indicator; a compressed one passed over.
struct ID3FrameTests {
    static func syncsafe(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(value >> ($0 / 8 * 7) & 0x7F) } }
    static func plain(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(value >> $0 & 0xFF) } }

    static func frame(_ id: String, _ body: [UInt8], major: UInt8, flags: UInt8 = 0) -> [UInt8] {
        Array(id.utf8) + (major == 4 ? syncsafe(body.count) : plain(body.count)) + [0, flags] + body
    }

    static func tag(_ frames: [UInt8], major: UInt8, flags: UInt8 = 0) -> [UInt8] {
        Array("ID3".utf8) + [major, 0, flags] + syncsafe(frames.count) + frames
    }

    /// The SYLT frame of a file holding `tag` and some audio, read as `pread` would read it (the
    /// walk over a file on disk is the end-to-end tests').
    func found(_ tag: [UInt8]) throws -> [UInt8]? {
        let file = tag + [UInt8](repeating: 0xAA, count: 100)
        return ID3Frame.content("SYLT") { offset, count in
            offset >= 0 && count >= 0 && offset + count <= file.count ? Array(file[offset..<offset + count]) : nil
        }
    }

    static let body: [UInt8] = [3] + Array("eng".utf8) + [2, 1, 0] + Array("line".utf8) + [0, 0, 0, 0x03, 0xE8]

    @Test func aFrameIsFoundPastAPictureInEitherVersion() throws {
        for major: UInt8 in [3, 4] {
            let picture = Self.frame("APIC", [UInt8](repeating: 0x11, count: 300_000), major: major)
            let tag = Self.tag(Self.frame("TIT2", [3] + Array("T".utf8), major: major) + picture + Self.frame("SYLT", Self.body, major: major)
                               + [UInt8](repeating: 0, count: 64), major: major)
            #expect(try found(tag) == Self.body, "2.\(major)")
        }
    }

    @Test func unsynchronisationAndTheDataLengthAreUndone() throws {
        // FF E0 in the content is written FF 00 E0.
        let content: [UInt8] = Self.body + [0xFF, 0xE0]
        let written: [UInt8] = Self.body + [0xFF, 0x00, 0xE0]
        // 2.3: the frame's size is its content's; the whole tag is written unsynchronised.
        let whole = Self.tag(Array("SYLT".utf8) + Self.plain(content.count) + [0, 0] + written, major: 3, flags: 0x80)
        #expect(try found(whole) == content, "2.3: the whole tag")
        let perFrame = Self.tag(Self.frame("SYLT", Self.syncsafe(content.count) + written, major: 4, flags: 0x03), major: 4)
        #expect(try found(perFrame) == content, "2.4: the frame, with its data length indicator")
    }

    /// 2.4's tag flag only says every frame is unsynchronised (sizes count the written bytes); a
    /// group byte comes before the content.
    @Test func version4sTagFlagAndAGroupByteAreRead() throws {
        let content: [UInt8] = Self.body + [0xFF, 0xE0]
        let written: [UInt8] = Self.body + [0xFF, 0x00, 0xE0]
        let flagged = Self.tag(Self.frame("TIT2", [3, 0x41], major: 4) + Self.frame("SYLT", written, major: 4, flags: 0x02), major: 4, flags: 0x80)
        #expect(try found(flagged) == content)
        #expect(try found(Self.tag(Self.frame("SYLT", [7] + Self.body, major: 4, flags: 0x40), major: 4)) == Self.body)
        #expect(try found(Self.tag(Self.frame("SYLT", [7] + Self.body, major: 3, flags: 0x20), major: 3)) == Self.body)
    }

    /// ID3v2.2 (older iTunes): three-letter names and sizes, no frame flags; SYLT is `SLT`.
    @Test func version2sSLTIsFoundPastAPictureAndUnsynchronised() throws {
        func frame(_ id: String, _ body: [UInt8]) -> [UInt8] { Array(id.utf8) + Array(Self.plain(body.count).dropFirst()) + body }
        let picture = frame("PIC", [0] + Array("PNG".utf8) + [3, 0] + [UInt8](repeating: 0x11, count: 70_000))
        #expect(try found(Self.tag(frame("TT2", [0, 0x41]) + picture + frame("SLT", Self.body) + [0, 0, 0, 0], major: 2)) == Self.body)
        // Unsynchronised whole, as 2.3 is.
        let content: [UInt8] = Self.body + [0xFF, 0xE0]
        let written = Array("SLT".utf8) + Array(Self.plain(content.count).dropFirst()) + Self.body + [0xFF, 0x00, 0xE0]
        #expect(try found(Self.tag(written, major: 2, flags: 0x80)) == content)
        // A 2.2 tag flagged compressed is passed over; a later name is not 2.2's.
        #expect(try found(Self.tag(frame("SLT", Self.body), major: 2, flags: 0x40)) == nil)
        #expect(try found(Self.tag(Array("SYLT".utf8) + [0, 0, UInt8(Self.body.count)] + Self.body, major: 2)) == nil)
    }

    /// A reader that gives fewer bytes than asked for (a file cut short) is at the file's end.
    @Test func aShortReadIsTheEnd() {
        let tag = Self.tag(Self.frame("TIT2", [3, 0x41], major: 3) + Self.frame("SYLT", Self.body, major: 3), major: 3)
        for cut in [3, 10, 15, 20, 25, tag.count - 1] {
            #expect(ID3Frame.content("SYLT") { offset, count in
                offset >= 0 && offset < cut ? Array(tag[offset..<min(offset + count, cut)]) : nil
            } == nil, "cut at \(cut)")
        }
    }

    @Test func aCompressedFrameAHostileSizeOrNoTagIsNone() throws {
        #expect(try found(Self.tag(Self.frame("SYLT", Self.body, major: 4, flags: 0x08), major: 4)) == nil)
        var huge = Self.tag(Self.frame("SYLT", Self.body, major: 3), major: 3)
        huge.replaceSubrange(14..<18, with: Self.plain(Int(Int32.max)))
        #expect(try found(huge) == nil)
        #expect(try found(Array("not a tag at all".utf8)) == nil)
        #expect(try found(Self.tag(Self.frame("TIT2", [3, 0x41], major: 4), major: 4)) == nil)
    }
}
