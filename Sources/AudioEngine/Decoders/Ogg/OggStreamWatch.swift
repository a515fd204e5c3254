import PlayerCore

/// One call of vorbisfile's or opusfile's read, as the Ogg decoders give it to `OggStreamWatch`.
enum OggStep {
    /// `bytes` decoded, in `format` (the current link's), the library now counting `tell`.
    case data(bytes: Int, format: PCMFormat, tell: Int64)
    case end
    /// A page was dropped (its CRC failed): OV_HOLE, OP_HOLE.
    case hole
    case failed(String)
}

/// What the Ogg decoders (`VorbisDecoder`, `OpusDecoder`) share: filling the buffer from the
/// library's reads, which give one packet at a time (a few kilobytes: the engine's buffer is
/// filled from several, so that the pipeline is not crossed per packet), where the stream is,
/// what has been said, and the PCM held back while something is said first.
///
/// Both libraries drop a page whose CRC fails and report the hole; their count of frames (from
/// the pages' granule positions) goes on from before the hole until the next page that carries a
/// granule position, where it jumps by what was lost. The jump is the skip's length, said as
/// `.skipped` before the samples that follow it (so within a page of the damage, not on its very
/// sample).
struct OggStreamWatch {
    /// The format said last: a link in another format is said (`.newFormat`) before its samples.
    var format = PCMFormat(rate: 44100, channels: 2)
    /// The frame the next sample given out is, by the library's count.
    private(set) var position: Int64 = 0
    /// A hole was reported and its length is not known yet.
    private var holeOpen = false
    /// Holes reported in a row with no sample between: a file of nothing but damage ends.
    private var holesInARow = 0
    /// What is said at the next read, before the samples held back.
    private var toSay: DecodeResult?
    private var held: [UInt8] = []
    private var heldTaken = 0

    /// Starts over at `frame` (after opening or a seek).
    mutating func restart(at frame: Int64) {
        position = frame
        holeOpen = false
        holesInARow = 0
        toSay = nil
        held = []
        heldTaken = 0
    }

    /// Fills `buffer` with whole frames from `step` (one library read into the pointer, with
    /// room for the bytes given), or says what comes first.
    mutating func read(into buffer: UnsafeMutableRawPointer, capacity: Int,
                       step: (UnsafeMutableRawPointer, Int) -> OggStep) -> DecodeResult {
        if let said = toSay {
            toSay = nil
            return said
        }
        if heldTaken < held.count {
            let bytes = min(held.count - heldTaken, capacity / format.bytesPerFrame * format.bytesPerFrame)
            held.withUnsafeBytes { bytesHeld in
                if let base = bytesHeld.baseAddress { buffer.copyMemory(from: base + heldTaken, byteCount: bytes) }
            }
            heldTaken += bytes
            if heldTaken == held.count { held = [] }
            return .data(bytes: bytes)
        }
        var filled = 0
        // The libraries give whole frames, none when fewer bytes than a frame are asked for
        // (which they would say as the end): room for a frame of the widest link (8 channels).
        while capacity - filled >= 16 {
            switch step(buffer + filled, capacity - filled) {
            case .data(let bytes, let now, let tell):
                holesInARow = 0
                // A granule position is the file's word: it may sit just under Int64.max.
                let expected = position.addingReportingOverflow(Int64(bytes / now.bytesPerFrame)).overflow
                    ? Int64.max : position + Int64(bytes / now.bytesPerFrame)
                position = tell >= 0 ? tell : expected
                var said: DecodeResult?
                if now != format {
                    format = now
                    said = .newFormat(now)
                } else if holeOpen, tell > expected {
                    holeOpen = false
                    said = .skipped(seconds: Double(tell - expected) / Double(now.rate))
                }
                guard let said else {
                    filled += bytes
                    continue
                }
                held = Array(UnsafeRawBufferPointer(start: buffer + filled, count: bytes))
                heldTaken = 0
                guard filled > 0 else { return said }
                toSay = said
                return .data(bytes: filled)
            case .end:
                if filled == 0 { return .done }
                return .data(bytes: filled)  // and `.done` at the next read, the library at its end
            case .hole:
                holeOpen = true
                holesInARow += 1
                if holesInARow >= 10_000 { return .damaged(bytes: filled, reason: "nothing but damage after it") }
            case .failed(let reason):
                return .damaged(bytes: filled, reason: reason)
            }
        }
        return .data(bytes: filled)
    }
}

/// The NAME=value comments of a Vorbis comment header as vorbisfile and opusfile hold them
/// (`count` entries, each `lengths[i]` bytes), copied and bounded (2 MB in all): a hostile file's
/// tags cannot take memory.
func oggComments(_ entries: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, lengths: UnsafeMutablePointer<Int32>?,
                 count: Int32) -> [[UInt8]] {
    guard let entries, let lengths, count > 0 else { return [] }
    var comments: [[UInt8]] = []
    var total = 0
    for index in 0..<min(Int(count), TagText.fieldLimit) {
        guard let entry = entries[index], lengths[index] >= 0 else { continue }
        let stored = Int(lengths[index])
        let kept: [UInt8] = entry.withMemoryRebound(to: UInt8.self, capacity: stored) { start in
            let all = UnsafeBufferPointer(start: start, count: stored)
            // What `TagText` keeps of a name and its value (lyrics longer), and a byte more of
            // each to see the cut.
            let head = all.prefix(TagText.valueBytes + 1)
            let name = head.firstIndex(of: UInt8(ascii: "=")).map { TagText.value(head[..<$0]) } ?? ""
            return Array(all.prefix(TagText.valueBytes + 1 + TagText.limit(forField: name) + 1))
        }
        guard total + kept.count <= 2 << 20 else { continue }
        total += kept.count
        comments.append(kept)
    }
    return comments
}

/// Which link of a chained Ogg stream is read now, and the title of one begun since last asked:
/// a radio sends each song as the next link, its comments its title (`takeLinkTitle`).
struct OggLinkTitles {
    private var link: Int32 = -1
    private var pending: String?

    /// Link `link` is being read; `comments` gives its comments, asked when it is a new one.
    mutating func reading(_ link: Int32, comments: () -> [[UInt8]]?) {
        guard link != self.link else { return }
        self.link = link
        pending = comments().flatMap { VorbisComments(raw: $0).tags.streamTitle }
    }

    /// The title of the link begun since last asked, if any (taken).
    mutating func take() -> String? {
        defer { pending = nil }
        return pending
    }

    /// A new song: no link read yet.
    mutating func reset() {
        (link, pending) = (-1, nil)
    }
}
