import PlayerCore

/// Several outputs (`output = pulse, snapcast`) in the song's details: while `i` is open, a
/// digit turns that output on or off, and the details stay open to show it.
extension Console {
    /// The command for `key`, when it is a digit naming one of several outputs while the
    /// details are open.
    func outputToggle(_ key: Key) -> Command? {
        guard detailsOpen, outputNames.count > 1, case .character(let character) = key, let digit = character.wholeNumberValue,
              (1...min(outputNames.count, 9)).contains(digit) else { return nil }
        return .setOutput(digit - 1, nil)
    }
}
