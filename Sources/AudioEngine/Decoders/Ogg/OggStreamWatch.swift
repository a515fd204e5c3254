import PlayerCore

/// What the Ogg decoders (`VorbisDecoder`, `OpusDecoder`) keep between reads: where the stream
/// is, in frames, by the library's own count (vorbisfile's and opusfile's, which follow the
/// pages' granule positions), what it has said, and PCM held back while something is said first.
///
/// Both libraries drop a page whose CRC fails and report the hole (OV_HOLE, OP_HOLE); their count
/// of frames goes on from before the hole until the next page that carries a granule position,
/// where it jumps by what was lost. The jump is the skip's length, said as `.skipped` before the
/// samples that follow it (so within a page of the damage, not on its very sample).
struct OggStreamWatch {
    /// The frame the next sample given out is, by the library's count.
    private(set) var position: Int64 = 0
    /// A hole was reported and its length is not known yet.
    private var holeOpen = false
    /// Holes reported in a row with no sample between: a file of nothing but damage ends.
    private var holesInARow = 0
    /// Samples decoded and held back while a `.skipped` or `.newFormat` is said first.
    private var held: [UInt8] = []
    private var heldTaken = 0

    /// Starts over at `frame` (after opening or a seek).
    mutating func restart(at frame: Int64) {
        position = frame
        holeOpen = false
        holesInARow = 0
        held = []
        heldTaken = 0
    }

    /// The library reported a hole; false when there were too many in a row to go on.
    mutating func hole() -> Bool {
        holeOpen = true
        holesInARow += 1
        return holesInARow < 10_000
    }

    /// Gives out held-back samples, if any, into `buffer`.
    mutating func giveHeld(into buffer: UnsafeMutableRawPointer, capacity: Int, bytesPerFrame: Int) -> DecodeResult? {
        guard heldTaken < held.count else { return nil }
        let bytes = min(held.count - heldTaken, capacity / bytesPerFrame * bytesPerFrame)
        held.withUnsafeBytes { bytesHeld in
            if let base = bytesHeld.baseAddress { buffer.copyMemory(from: base + heldTaken, byteCount: bytes) }
        }
        heldTaken += bytes
        if heldTaken == held.count { held = [] }
        return .data(bytes: bytes)
    }

    /// `bytes` were just decoded into `buffer` (`frames` frames) and the library now counts
    /// `tell`: what to say. A new format or a skip is said first, the samples held back for the
    /// next read.
    mutating func decoded(_ buffer: UnsafeMutableRawPointer, bytes: Int, frames: Int64, tell: Int64,
                          formatChange: PCMFormat?, rate: Int) -> DecodeResult {
        holesInARow = 0
        let expected = position + frames
        position = tell >= 0 ? tell : expected
        var said: DecodeResult?
        if let formatChange {
            said = .newFormat(formatChange)
        } else if holeOpen, tell > expected {
            holeOpen = false
            said = .skipped(seconds: Double(tell - expected) / Double(rate))
        }
        guard let said else { return .data(bytes: bytes) }
        held = Array(UnsafeRawBufferPointer(start: buffer, count: bytes))
        heldTaken = 0
        return said
    }
}

/// The NAME=value comments of a Vorbis comment header as vorbisfile and opusfile hold them
/// (`count` entries, each `lengths[i]` bytes), copied and bounded: a hostile file's tags cannot
/// take memory.
func oggComments(_ entries: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, lengths: UnsafeMutablePointer<Int32>?,
                 count: Int32) -> [[UInt8]] {
    guard let entries, let lengths, count > 0 else { return [] }
    var comments: [[UInt8]] = []
    var total = 0
    for index in 0..<min(Int(count), 512) {
        let length = Int(lengths[index])
        guard let entry = entries[index], length >= 0, total + length <= 1 << 20 else { continue }
        total += length
        comments.append(entry.withMemoryRebound(to: UInt8.self, capacity: length) { Array(UnsafeBufferPointer(start: $0, count: length)) })
    }
    return comments
}
