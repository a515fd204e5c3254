import PlayerCore

/// Several outputs (`output = pulse, snapcast`) as the song's details show them: their names,
/// and, while the details (`i`) are open, a digit turns that output on or off (the details
/// stay open and show it done).
struct OutputSwitches {
    /// The outputs' names, the first first; fewer than two: nothing to switch.
    var names: [String] = []
    var detailsOpen = false

    /// The command for `key`, when it is a digit naming one of several outputs while the
    /// details are open.
    func command(for key: Key) -> Command? {
        guard detailsOpen, names.count > 1, case .character(let character) = key, let digit = character.wholeNumberValue,
              (1...min(names.count, 9)).contains(digit) else { return nil }
        return .setOutput(digit - 1, nil)
    }

    /// Each output's name and whether it is on, those in `off` not, for the details.
    func listed(off: Set<Int>) -> [(name: String, on: Bool)] {
        names.enumerated().map { ($1, !off.contains($0)) }
    }
}
