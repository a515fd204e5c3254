/// How the spectrum is drawn (`spectrum = 32` bars; `spectrum-style = blocks` or `ascii`).
public struct SpectrumStyle: Equatable, Sendable {
    public enum Glyphs: String, Equatable, Sendable, CaseIterable {
        /// `▁▂▃▄▅▆▇█`: eighths of a row.
        case blocks
        /// `.:|`: for a terminal or font without block symbols.
        case ascii
    }

    public var bars: Int
    public var glyphs: Glyphs

    public static let barRange = 4...256

    public init(bars: Int = 32, glyphs: Glyphs = .blocks) {
        self.bars = min(max(bars, Self.barRange.lowerBound), Self.barRange.upperBound)
        self.glyphs = glyphs
    }
}
