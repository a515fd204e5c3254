/// One legal transition: in state `from`, event `on` (when `when` holds) moves to `to`, making
/// `calls` on the engine in order, and then asks the session for `then`.
public struct Transition: Equatable, Sendable {
    public let from: StateID
    public let on: PlayerEvent.Kind
    public let when: Condition
    public let to: StateID
    public let calls: [EngineCall.Kind]
    public let then: FollowUp?

    /// What a row needs beyond its state and event: what was asked while a song was loading.
    public enum Condition: Equatable, Sendable, CustomStringConvertible {
        case always
        /// Whether a `play` (so the song plays at once) and seeks (made before it plays) were
        /// asked for while it was loading.
        case asked(play: Bool, seek: Bool)

        func holds(in state: PlayerState) -> Bool {
            switch self {
            case .always: return true
            case .asked(let play, let seek):
                guard case .loading(let loading) = state else { return false }
                return loading.startsPlaying == play && !loading.pendingSeeks.isEmpty == seek
            }
        }

        public var description: String {
            switch self {
            case .always: ""
            case .asked(false, false): "nothing asked"
            case .asked(true, false): "play asked"
            case .asked(false, true): "seek asked"
            case .asked(true, true): "play and seek asked"
            }
        }
    }

    /// What the session does after the transition: the table's word for what is not the
    /// engine's business.
    public enum FollowUp: String, Equatable, Sendable {
        /// Nothing is loaded: open the list's current entry (or the next one that opens) to play.
        case startList = "start the list"
    }
}

/// Every legal transition of the player, in one place.
///
/// The context runs from this table (each row's calls are the only engine calls it makes), the
/// tests walk it, `tplayer --print-states` prints it and the README shows that print. A (state,
/// event) pair that is not here is a harmless no-op: play while playing does nothing, so a state
/// is never applied twice.
public enum TransitionTable {
    public static let rows: [Transition] = {
        var rows: [Transition] = []
        func add(_ from: StateID, _ on: PlayerEvent.Kind, _ to: StateID, _ calls: [EngineCall.Kind] = [],
                 when: Transition.Condition = .always, then: Transition.FollowUp? = nil) {
            rows.append(Transition(from: from, on: on, when: when, to: to, calls: calls, then: then))
        }
        // Loading is legal everywhere: the song playing stops and the new one opens on the
        // playback thread, while keys keep working. From a song playing, the stop is a skip's
        // (which may fade into the song opened).
        for state in StateID.allCases {
            add(state, .load, .loading, [state == .play ? .skip : .stop, .open])
        }
        // While loading, play / stop / toggle / seek are remembered for when the song is open,
        // and the song opens into what they asked for.
        add(.loading, .opened, .prepare, when: .asked(play: false, seek: false))
        add(.loading, .opened, .prepare, [.seek], when: .asked(play: false, seek: true))
        add(.loading, .opened, .play, [.play], when: .asked(play: true, seek: false))
        add(.loading, .opened, .play, [.seek, .play], when: .asked(play: true, seek: true))
        add(.loading, .openFailed, .idle)
        add(.loading, .served, .idle)
        // A stop reaches the engine too: a skip's fade plays the new song while it opens.
        add(.loading, .play, .loading)
        add(.loading, .stop, .loading, [.stop])
        add(.loading, .toggle, .loading, [.stop])
        add(.loading, .seek, .loading)
        // Nothing loaded: a seek waits for the next song; play starts the list.
        add(.idle, .seek, .idle)
        add(.idle, .play, .idle, then: .startList)
        add(.idle, .toggle, .idle, then: .startList)
        add(.prepare, .play, .play, [.play])
        add(.prepare, .toggle, .play, [.play])
        add(.play, .stop, .stop, [.stop])
        add(.play, .toggle, .stop, [.stop])
        add(.play, .ended, .prepare, [.rewind])
        add(.play, .deviceLost, .deviceLost)
        add(.stop, .play, .play, [.play])
        add(.stop, .toggle, .play, [.play])
        add(.deviceLost, .deviceRestored, .play, [.play])
        add(.deviceLost, .stop, .stop, [.stop])
        add(.deviceLost, .toggle, .stop, [.stop])
        // Seeking keeps the state: a stopped song stays stopped at the new position.
        for state in [StateID.prepare, .play, .stop, .deviceLost] {
            add(state, .seek, state, [.seek])
        }
        return rows
    }()

    /// The row for `event` in `state`, or `nil` when the event is not legal there.
    public static func transition(from state: PlayerState, on event: PlayerEvent.Kind) -> Transition? {
        rows.first { $0.from == state.id && $0.on == event && $0.when.holds(in: state) }
    }

    /// The table as Markdown, followed by a Mermaid diagram of the same rows.
    public static func markdown() -> String {
        var lines = [
            "| From | Event | To | Engine calls | Then |",
            "| --- | --- | --- | --- | --- |",
        ]
        for row in rows {
            let calls = row.calls.isEmpty ? "–" : row.calls.map(\.rawValue).joined(separator: ", ")
            lines.append("| \(row.from.rawValue) | \(label(row)) | \(row.to.rawValue) | \(calls) | \(row.then?.rawValue ?? "–") |")
        }
        lines.append("")
        lines.append("Any other (state, event) pair is ignored: the state stays as it is. An engine report about")
        lines.append("an earlier song (its token is not the current one) is ignored too. A seek in Idle or Loading")
        lines.append("is remembered, and the song that opens makes those seeks, in order, as one seek call. Idle")
        lines.append("keeps why the last load failed.")
        lines.append("")
        lines.append("```mermaid")
        lines.append("stateDiagram-v2")
        lines.append("    [*] --> Idle")
        for row in rows {
            lines.append("    \(row.from.rawValue) --> \(row.to.rawValue): \(label(row))")
        }
        lines.append("```")
        return lines.joined(separator: "\n") + "\n"
    }

    private static func label(_ row: Transition) -> String {
        row.when == .always ? row.on.rawValue : "\(row.on.rawValue), \(row.when)"
    }
}
