/// The last audio written to a sound server's stream, as it was before the equaliser and the
/// volume (after the fades and the speed), in one format to one stream, with the equaliser's
/// state before each write (`SampleStage.Snapshot`): what a new volume, gain or equaliser setting
/// writes again, once the server has dropped what it held, so that it is heard at once and
/// nothing is decoded twice. It holds a little more than the server's buffer
/// (`PulseOutput.bufferSeconds`), at most `maximumBytes`: where what the server holds is more than
/// it has, a change is heard once that has played.
final class UnheardTail {
    static let seconds = PulseOutput.bufferSeconds + 0.5
    static let maximumBytes = 16 << 20

    private var storage: UnsafeMutableRawPointer?
    private var capacity = 0
    /// Bytes recorded since the last reset (more than `capacity` once it has wrapped).
    private var recorded = 0
    /// What it holds audio of: the stream written to, and its format.
    private var stream: ObjectIdentifier?
    private(set) var format: PCMFormat?
    /// The equaliser's state before the bytes from `at` on, oldest first (one a write).
    private var snapshots: [(at: Int, state: SampleStage.Snapshot)] = []

    deinit {
        storage?.deallocate()
    }

    /// Forgets everything recorded (what the server held was dropped, or another song plays).
    func reset() {
        recorded = 0
        stream = nil
        format = nil
        snapshots.removeAll(keepingCapacity: true)
    }

    /// The oldest byte it still holds.
    private var oldest: Int { recorded - min(recorded, capacity) }

    /// Records `bytes` of `format`, written to `sink`, the equaliser being in `state` before
    /// them; a new sink or format starts it anew.
    func record(_ bytes: UnsafeRawBufferPointer, format: PCMFormat, to sink: AudioSink, state: SampleStage.Snapshot) {
        let identity = ObjectIdentifier(sink)
        if identity != stream || format != self.format {
            let bytesPerSecond = Double(format.rate) * Double(format.bytesPerFrame)
            let wanted = min(Int(min(Self.seconds * bytesPerSecond, Double(Self.maximumBytes))), Self.maximumBytes)
            let size = max(wanted / format.bytesPerFrame, 1) * format.bytesPerFrame
            if size != capacity {
                storage?.deallocate()
                storage = .allocate(byteCount: size, alignment: 16)
                capacity = size
            }
            recorded = 0
            stream = identity
            self.format = format
            snapshots.removeAll(keepingCapacity: true)
        }
        guard let storage, var source = bytes.baseAddress, !bytes.isEmpty else { return }
        snapshots.append((recorded, state))
        var left = bytes.count
        // Only the last `capacity` bytes matter.
        if left > capacity {
            source += left - capacity
            recorded += left - capacity
            left = capacity
        }
        while left > 0 {
            let at = recorded % capacity
            let piece = min(left, capacity - at)
            (storage + at).copyMemory(from: source, byteCount: piece)
            source += piece
            left -= piece
            recorded += piece
        }
        // A snapshot is of use while the bytes after it are held.
        if let usable = snapshots.lastIndex(where: { $0.at <= oldest }), usable > 0 { snapshots.removeFirst(usable) }
        if let first = snapshots.first, first.at < oldest { snapshots.removeFirst() }
    }

    /// The bytes from `start` to `end` of those recorded, in at most two pieces.
    private func pieces(from start: Int, to end: Int) -> [UnsafeRawBufferPointer] {
        guard let storage, start < end else { return [] }
        let begin = start % capacity
        let first = min(end - start, capacity - begin)
        var pieces = [UnsafeRawBufferPointer(start: storage + begin, count: first)]
        if end - start > first { pieces.append(UnsafeRawBufferPointer(start: storage, count: end - start - first)) }
        return pieces
    }

    /// What to write again the last `frames` frames written to `sink` from: the equaliser's
    /// state at a write before them, the frames from there to them (`lead`: heard already, to
    /// bring the equaliser to where they start) and the frames themselves, oldest first. `nil`
    /// where it does not hold them all.
    func replay(_ frames: Int, of sink: AudioSink) -> (state: SampleStage.Snapshot, lead: [UnsafeRawBufferPointer], unheard: [UnsafeRawBufferPointer])? {
        guard let format, stream == ObjectIdentifier(sink), frames >= 0 else { return nil }
        let (bytes, overflow) = frames.multipliedReportingOverflow(by: format.bytesPerFrame)
        guard !overflow, bytes <= recorded - oldest else { return nil }
        let heard = recorded - bytes
        guard let snapshot = snapshots.last(where: { $0.at <= heard && $0.at >= oldest }) else { return nil }
        return (snapshot.state, pieces(from: snapshot.at, to: heard), pieces(from: heard, to: recorded))
    }

    /// The last `frames` frames were written again from `state`: the snapshots after where they
    /// start are of what was dropped.
    func restarted(_ frames: Int, with state: SampleStage.Snapshot) {
        guard let format else { return }
        let heard = recorded - frames * format.bytesPerFrame
        snapshots.removeAll { $0.at >= heard }
        snapshots.append((heard, state))
    }
}
