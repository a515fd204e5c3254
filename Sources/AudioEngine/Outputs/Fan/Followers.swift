import PlayerCore

/// The outputs after the first (`output = pulse, snapcast`): each is given what the first is,
/// converted to its own format (`FollowerConverter`), and keeps its own clock; the first alone
/// keeps the player's time (what is shown, what a pause or a seek takes back). Only outputs
/// that never hold the playback thread follow (a Snapcast stream, an Icecast broadcast: their
/// writes never wait); a sound device comes first.
///
/// One that fails is said once and the others play on; it is opened again a few seconds later.
/// Each can be turned off and on while playing (`setEnabled`): off, its sink is closed (a
/// broadcast ends, snapserver's stream goes idle); on, it opens at the next write.
/// Everything here runs on the playback thread.
final class Followers {
    struct Member {
        let output: AudioOutput
        var sink: AudioSink?
        var converter: FollowerConverter?
        var enabled = true
        /// When it last failed: it is opened again `retry` seconds later.
        var failedAt: Double?
    }

    private(set) var members: [Member]
    private var notices: [String] = []
    /// The song written now: told to a follower when it opens.
    private var playing: SongInfo?
    private let clock = MonotonicClock()
    static let retry = 5.0

    init(_ outputs: [AudioOutput]) {
        members = outputs.map { Member(output: $0) }
    }

    var names: [String] { members.map(\.output.name) }

    /// Hands `bytes` (in `format`, what the first output was given) to every follower on.
    func write(_ bytes: UnsafeRawBufferPointer, format: PCMFormat) {
        for index in members.indices where members[index].enabled {
            guard let sink = sink(index, for: format), let converter = members[index].converter else { continue }
            do throws(OutputFailure) {
                let out = converter.passes ? bytes : converter.convert(bytes)
                _ = try sink.write(out)
            } catch {
                fail(index, error.message)
            }
            if let notice = members[index].output.takeNotice() { say(notice) }
        }
    }

    /// The follower's sink, opened (with its converter from `format`) where it is not yet.
    private func sink(_ index: Int, for format: PCMFormat) -> AudioSink? {
        let member = members[index]
        let output = member.output
        let target = output.fixedFormat ?? format
        if let sink = member.sink, member.converter?.input == format, sink.format == target { return sink }
        if let failedAt = member.failedAt, clock.now - failedAt < Self.retry { return nil }
        if let sink = member.sink, sink.format != target {
            // Its one format changed (snapserver's stream, asked again): opened anew for it.
            try? sink.close()
            members[index].sink = nil
        }
        do {
            let converter = try FollowerConverter(from: format, to: target)
            let sink = try members[index].sink ?? output.open(target)
            members[index].sink = sink
            members[index].converter = converter
            members[index].failedAt = nil
            if sink !== member.sink, let playing { sink.nowPlaying(playing) }
            return sink
        } catch let failure as OutputFailure {
            fail(index, failure.message)
        } catch {
            fail(index, "\(error)")
        }
        return nil
    }

    private func fail(_ index: Int, _ message: String) {
        if members[index].failedAt == nil { say("output \(members[index].output.name): \(message); the other outputs play on") }
        members[index].failedAt = clock.now
        if let sink = members[index].sink { try? sink.close() }
        members[index].sink = nil
        members[index].converter = nil
    }

    /// What is written from now on is `info`'s.
    func nowPlaying(_ info: SongInfo) {
        playing = info
        for member in members where member.enabled { member.sink?.nowPlaying(info) }
    }

    /// Turns follower `index` on or off; off closes it. Whether there is such a follower.
    func setEnabled(_ index: Int, _ enabled: Bool) -> Bool {
        guard members.indices.contains(index) else { return false }
        members[index].enabled = enabled
        if !enabled, let sink = members[index].sink {
            members[index].sink = nil
            members[index].converter = nil
            try? sink.close()  // not waited for: the other followers play on meanwhile
        }
        if enabled { members[index].failedAt = nil }
        return true
    }

    /// Closes each, all within `seconds` together.
    func close(within seconds: Double) {
        let deadline = clock.now + seconds
        for index in members.indices {
            guard let sink = members[index].sink else { continue }
            if let converter = members[index].converter, !converter.passes { _ = try? sink.write(converter.flush()) }
            members[index].sink = nil
            try? sink.close(within: max(deadline - clock.now, 0))
        }
    }

    private func say(_ notice: String) {
        if notices.count < 8 { notices.append(notice) }
    }

    func takeNotice() -> String? {
        notices.isEmpty ? nil : notices.removeFirst()
    }
}
