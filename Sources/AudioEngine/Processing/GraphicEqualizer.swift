import Foundation

/// The listener's 10-band graphic equaliser, in the processing stage, for every format: one
/// peaking filter a band (RBJ's cookbook biquad, an octave wide) at the ISO octave centres from
/// 31 Hz to 16 kHz, in 64-bit float, on samples of any encoding. Flat or off, the samples pass
/// untouched. A full-scale tone never clips: the whole is lowered by the filters' highest gain
/// at any frequency (neighbouring bands' boosts add up: all ten at +12 dB peak near +19.6 dB; a
/// transient may overshoot that steady gain by a little, and is clipped). A change
/// of bands, or turning it on or off, cross-fades from the old filters' output to the new ones'
/// over 10 ms (the new ones started from the old ones' state where they are the same bands), so
/// it never clicks; a change during a cross-fade fades from what was heard then (the old and the
/// new filters in the mix they had reached) to the newest.
struct GraphicEqualizer {
    /// The bands' centres, in Hz.
    static let centres: [Double] = [31.25, 62.5, 125, 250, 500, 1000, 2000, 4000, 8000, 16000]
    /// The most a band boosts or cuts, in dB.
    static let range = -12.0...12.0

    /// One band's filter: its coefficients, and each channel's last two inputs and outputs.
    struct Biquad {
        var b0 = 1.0, b1 = 0.0, b2 = 0.0, a1 = 0.0, a2 = 0.0

        /// A peaking filter of `decibels` at `centre` Hz, `octaves` wide, at `rate`.
        init(centre: Double, decibels: Double, rate: Double, octaves: Double = 1) {
            let amplitude = pow(10, decibels / 40)
            let omega = 2 * Double.pi * centre / rate
            let alpha = sin(omega) * sinh(log(2) / 2 * octaves * omega / sin(omega))
            let a0 = 1 + alpha / amplitude
            b0 = (1 + alpha * amplitude) / a0
            b1 = -2 * cos(omega) / a0
            b2 = (1 - alpha * amplitude) / a0
            a1 = -2 * cos(omega) / a0
            a2 = (1 - alpha / amplitude) / a0
        }

        private init(b0: Double, b1: Double, b2: Double, a1: Double, a2: Double) {
            (self.b0, self.b1, self.b2, self.a1, self.a2) = (b0, b1, b2, a1, a2)
        }

        /// `input` through `filters` in turn, each with its x1, x2, y1, y2 in `state` from `base` on.
        @inline(__always)
        static func cascade(_ input: Double, through filters: UnsafeBufferPointer<Biquad>, state: UnsafeMutableBufferPointer<Double>,
                            from base: Int) -> Double {
            var value = input
            var at = base
            for filter in filters {
                let output = filter.b0 * value + filter.b1 * state[at] + filter.b2 * state[at + 1]
                    - filter.a1 * state[at + 2] - filter.a2 * state[at + 3]
                state[at + 1] = state[at]
                state[at] = value
                state[at + 3] = state[at + 2]
                state[at + 2] = output
                value = output
                at += 4
            }
            return value
        }

        /// A low shelf of `decibels` below `corner` Hz at `rate` (RBJ's, slope 1).
        static func lowShelf(corner: Double, decibels: Double, rate: Double) -> Biquad {
            let amplitude = pow(10, decibels / 40)
            let omega = 2 * Double.pi * corner / rate
            let alpha = sin(omega) / 2 * 2.0.squareRoot()
            let root = 2 * amplitude.squareRoot() * alpha
            let (plus, minus) = (amplitude + 1, amplitude - 1)
            let a0 = plus + minus * cos(omega) + root
            return Biquad(b0: amplitude * (plus - minus * cos(omega) + root) / a0,
                          b1: 2 * amplitude * (minus - plus * cos(omega)) / a0,
                          b2: amplitude * (plus - minus * cos(omega) - root) / a0,
                          a1: -2 * (minus + plus * cos(omega)) / a0,
                          a2: (plus + minus * cos(omega) - root) / a0)
        }
    }

    /// A set of filters for one setting and one format, with its channels' state.
    struct Chain {
        let filters: [Biquad]
        /// Each filter's band centre.
        let centres: [Double]
        /// The level after the filters: down by their highest gain.
        let headroom: Double
        /// Each channel's x1, x2, y1, y2 for each filter, in one array: (channel × filters + filter) × 4.
        var state: [Double]

        init(gains: [Double], rate: Int, channels: Int) {
            var filters: [Biquad] = []
            var centres: [Double] = []
            for (centre, gain) in zip(GraphicEqualizer.centres, gains) where gain != 0 && centre < Double(rate) * 0.45 {
                filters.append(Biquad(centre: centre, decibels: gain, rate: Double(rate)))
                centres.append(centre)
            }
            self.filters = filters
            self.centres = centres
            headroom = 1 / max(Self.highestGain(filters, rate: Double(rate)), 1)
            state = [Double](repeating: 0, count: filters.count * 4 * channels)
        }

        /// The cascade's highest gain (as a factor) over the audible band, on 240 frequencies
        /// spaced evenly in octaves from 16 Hz to 20 kHz (or near Nyquist).
        static func highestGain(_ filters: [Biquad], rate: Double) -> Double {
            let top = min(20000, rate * 0.49)
            var highest = 1.0
            for step in 0..<240 {
                highest = max(highest, gain(filters, at: 16 * pow(top / 16, Double(step) / 239), rate: rate))
            }
            return highest
        }

        /// The cascade's gain (as a factor) at `frequency`.
        static func gain(_ filters: [Biquad], at frequency: Double, rate: Double) -> Double {
            let omega = 2 * Double.pi * frequency / rate
            let (c1, s1, c2, s2) = (cos(omega), -sin(omega), cos(2 * omega), -sin(2 * omega))
            var gain = 1.0
            for filter in filters {
                let numerator = hypot(filter.b0 + filter.b1 * c1 + filter.b2 * c2, filter.b1 * s1 + filter.b2 * s2)
                let denominator = hypot(1 + filter.a1 * c1 + filter.a2 * c2, filter.a1 * s1 + filter.a2 * s2)
                gain *= numerator / max(denominator, 1e-12)
            }
            return gain
        }

        /// One sample of `channel` through every filter.
        mutating func process(_ input: Double, channel: Int) -> Double {
            let base = channel * filters.count * 4
            let value = filters.withUnsafeBufferPointer { filters in
                state.withUnsafeMutableBufferPointer { Biquad.cascade(input, through: filters, state: $0, from: base) }
            }
            return value * headroom
        }
    }

    /// Each band's gain in dB (10), or `nil`: off.
    private(set) var gains: [Double]?
    private var chain: Chain?
    /// What the last change fades from: the chains before it, each with its share of the mix
    /// (one, unless a change came during a cross-fade); and the frames of the fade left.
    private var fading: [(chain: Chain, share: Double)] = []
    /// The most chains a fade mixes: changes faster than that drop the smallest share.
    static let mostFading = 4
    private var fadeLeft = 0
    private var fadeLength = 0
    /// The format the chains are for.
    private var rate = 0
    private var channels = 0

    /// Whether the samples pass untouched (off or flat, and nothing fading).
    var isBypassed: Bool { chain == nil && fading.isEmpty }

    /// New bands (`nil`: off), heard from the next samples on, cross-faded.
    mutating func set(_ gains: [Double]?) {
        let clamped = gains.map { $0.map { $0.isFinite ? min(max($0, Self.range.lowerBound), Self.range.upperBound) : 0 } }
        guard clamped != self.gains else { return }
        self.gains = clamped
        guard rate > 0 else { return }  // made for the first samples
        rebuild(fade: true)
    }

    private mutating func rebuild(fade: Bool) {
        var next = gains.flatMap { $0.contains { $0 != 0 } ? Chain(gains: $0, rate: rate, channels: channels) : nil }
        if fade {
            // The new filters start where the old ones are, so the cross-fade starts smooth.
            if var made = next, let old = chain, made.centres == old.centres, made.state.count == old.state.count {
                made.state = old.state
                next = made
            }
            let current = chain ?? Chain(gains: [Double](repeating: 0, count: 10), rate: rate, channels: channels)
            if fadeLeft > 0 {
                // Mid-fade: what is heard now is the mix reached, which the new fade starts from.
                let reached = Double(fadeLength - fadeLeft) / Double(fadeLength)
                fading = fading.map { ($0.chain, $0.share * (1 - reached)) } + [(current, reached)]
                if fading.count > Self.mostFading, let smallest = fading.indices.min(by: { fading[$0].share < fading[$1].share }) {
                    fading.remove(at: smallest)
                    let total = fading.reduce(0) { $0 + $1.share }
                    fading = fading.map { ($0.chain, $0.share / max(total, 1e-12)) }
                }
            } else {
                fading = [(current, 1)]
            }
            fadeLength = max(Int(Double(rate) * Fader.seconds), 1)
            fadeLeft = fadeLength
        } else {
            fading = []
            fadeLeft = 0
        }
        chain = next
    }

    /// Equalises `bytes` of `format` in `buffer`, in place; 16- and 8-bit samples dithered by
    /// `dither` before they are rounded.
    mutating func process(_ buffer: UnsafeMutableRawPointer, bytes: Int, format: PCMFormat, dither: inout TPDFDither) {
        if format.rate != rate || format.channels != channels {
            rate = format.rate
            channels = format.channels
            rebuild(fade: false)
        }
        guard !isBypassed else { return }
        let encoding = format.encoding
        let scale = encoding.fullScale
        let frames = bytes / format.bytesPerFrame
        for frame in 0..<frames {
            let fade = fadeLeft > 0 ? Double(fadeLength - fadeLeft) / Double(fadeLength) : 1
            for channel in 0..<channels {
                let index = frame * channels + channel
                let input = encoding.sample(buffer, index) / scale
                var output = input
                if chain != nil { output = chain!.process(input, channel: channel) }
                if fadeLeft > 0 {
                    var old = 0.0
                    for index in fading.indices { old += fading[index].share * fading[index].chain.process(input, channel: channel) }
                    output = old + (output - old) * fade
                }
                encoding.storeDithered(output * scale, buffer, index, dither: &dither)
            }
            if fadeLeft > 0 {
                fadeLeft -= 1
                if fadeLeft == 0 { fading = [] }
            }
        }
    }
}
