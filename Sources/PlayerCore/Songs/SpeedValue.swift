/// A speed as a listener writes it (`--speed 1.5`, `speed = 0.8` in the settings, a script's
/// `speed 1.25`): a number from 0.25 to 4, `x` or `×` after it allowed.
public enum SpeedValue {
    /// What to give, said where one cannot be read.
    public static let hint = "give a speed from 0.25 to 4 (1: the song's own), e.g. 1.5"

    /// The speed `text` names, to the hundredth; `nil` when it is not one played.
    public static func parse(_ text: String) -> Double? {
        var text = Substring(text)
        if text.hasSuffix("x") || text.hasSuffix("×") { text = text.dropLast() }
        guard text.count <= 16, let value = Double(text), value.isFinite,
              (EngineCall.slowestSpeed...EngineCall.fastestSpeed).contains(value) else { return nil }
        return played(value)
    }

    /// `value` as it is played: within the speeds played, to the hundredth (a key's steps of
    /// 1.1 come back to 1 exactly).
    public static func played(_ value: Double) -> Double {
        (EngineCall.speed(value) * 100).rounded() / 100
    }
}
