/// One legal transition: in state `from`, event `on` moves to `to`, making `calls` on the
/// engine in order.
public struct Transition: Equatable, Sendable {
    public let from: StateID
    public let on: PlayerEvent.Kind
    public let to: StateID
    public let calls: [EngineCall.Kind]
}

/// Every legal transition of the player, in one place.
///
/// The context runs from this table, the tests walk it, `tplayer --print-states` prints it and the
/// README shows that print. A (state, event) pair that is not here is a harmless no-op: play while
/// playing does nothing, so a state is never applied twice.
public enum TransitionTable {
    public static let rows: [Transition] = {
        var rows: [Transition] = []
        func add(_ from: StateID, _ on: PlayerEvent.Kind, _ to: StateID, _ calls: [EngineCall.Kind] = []) {
            rows.append(Transition(from: from, on: on, to: to, calls: calls))
        }
        // Loading is legal everywhere: the song playing stops and the new one opens on the
        // playback thread, while keys keep working.
        for state in StateID.allCases {
            add(state, .load, .loading, [.stop, .open])
        }
        add(.loading, .opened, .prepare, [.seek])
        add(.loading, .openFailed, .idle)
        // While loading, play / stop / toggle / seek are remembered for when the song is open.
        for event in [PlayerEvent.Kind.play, .stop, .toggle, .seek] {
            add(.loading, event, .loading)
        }
        add(.idle, .seek, .idle)
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

    /// The transition for `event` in `state`, or `nil` when the event is not legal there.
    public static func transition(from state: StateID, on event: PlayerEvent.Kind) -> Transition? {
        rows.first { $0.from == state && $0.on == event }
    }

    /// The table as Markdown, followed by a Mermaid diagram of the same rows.
    public static func markdown() -> String {
        var lines = [
            "| From | Event | To | Engine calls |",
            "| --- | --- | --- | --- |",
        ]
        for row in rows {
            let calls = row.calls.isEmpty ? "–" : row.calls.map(\.rawValue).joined(separator: ", ")
            lines.append("| \(row.from.rawValue) | \(row.on.rawValue) | \(row.to.rawValue) | \(calls) |")
        }
        lines.append("")
        lines.append("Any other (state, event) pair is ignored: the state stays as it is. An engine report about")
        lines.append("an earlier song (its token is not the current one) is ignored too. In Idle and Loading, a")
        lines.append("seek is remembered, and `opened` makes those seeks; `play` while Loading plays the song as")
        lines.append("soon as it is open.")
        lines.append("")
        lines.append("```mermaid")
        lines.append("stateDiagram-v2")
        lines.append("    [*] --> Idle")
        for row in rows {
            lines.append("    \(row.from.rawValue) --> \(row.to.rawValue): \(row.on.rawValue)")
        }
        lines.append("```")
        return lines.joined(separator: "\n") + "\n"
    }
}
