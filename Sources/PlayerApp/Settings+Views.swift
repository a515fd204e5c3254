import PlayerCore
import Terminal

extension Settings {
    /// The now-playing view's options these settings give, in the terminal `environment` describes
    /// and whose screen draws `colours` or not. Without colours (NO_COLOR, `colours = off`), the
    /// cover is drawn in the symbols' shapes alone, unless the settings name a terminal's graphics,
    /// and the line sung is marked by glyphs.
    public func nowPlaying(_ environment: [String: String], colours: Bool = true) -> NowPlayingView.Options {
        let style: CoverStyle? = switch cover {
        case .auto: colours ? CoverStyle.detect(environment) : .symbols(.monochrome(environment))
        case .symbols: .symbols(colours ? CoverColours.detect(environment) : .monochrome(environment))
        case .kitty: .kitty
        case .sixel: .sixel
        case .iterm: .iterm
        case .off: nil
        }
        var spectrum = spectrum
        spectrum?.glyphs = spectrumGlyphs
        var options = NowPlayingView.Options(cover: style, spectrum: spectrum)
        options.plain = !colours
        return options
    }
}
