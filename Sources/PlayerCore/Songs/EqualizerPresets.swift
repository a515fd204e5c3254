/// The graphic equaliser's ready-made settings, by name: each band's gain in dB, 31 Hz to
/// 16 kHz (the settings' `equalizer-preset =`, a script's `equalizer rock`).
public enum EqualizerPresets {
    public static let all: [(name: String, gains: [Double])] = [
        ("flat", [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
        ("rock", [5, 4, 3, 1, -1, -1, 1, 3, 4, 5]),
        ("pop", [-1, 1, 3, 4, 4, 3, 1, 0, -1, -1]),
        ("jazz", [3, 2, 1, 2, -1, -1, 0, 1, 2, 3]),
        ("classical", [4, 3, 2, 1, -1, -1, 0, 2, 3, 4]),
        ("bass", [6, 5, 4, 2, 0, 0, 0, 0, 0, 0]),
        ("treble", [0, 0, 0, 0, 0, 1, 2, 4, 5, 6]),
        ("vocal", [-2, -2, -1, 1, 3, 4, 3, 1, 0, -1]),
    ]

    public static var names: [String] { all.map(\.name) }

    /// The preset called `name` (any case).
    public static func gains(_ name: String) -> [Double]? {
        all.first { $0.name == name.lowercased() }?.gains
    }

    /// Ten gains in dB (`"4 3 2 0 0 0 0 1 2 3"`, `dB` after a number allowed), each from -12 to
    /// 12; `nil` when the text is not that.
    public static func parse(_ text: String) -> [Double]? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
        let numbers = words.compactMap { word -> Double? in
            let number = word.lowercased().hasSuffix("db") ? word.dropLast(2) : word[...]
            return Double(number).flatMap { $0.isFinite && (-12...12).contains($0) ? $0 : nil }
        }
        return words.count == 10 && numbers.count == 10 ? numbers : nil
    }
}
