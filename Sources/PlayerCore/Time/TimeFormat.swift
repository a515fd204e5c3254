/// Formats audio time for people.
public enum TimeFormat {
    /// `m:ss` below an hour, `h:mm:ss` from an hour on; negative and non-finite times show as 0:00.
    public static func clock(_ seconds: Double) -> String {
        // Beyond any song (a damaged header's length), held where an Int keeps it.
        let total = seconds.isFinite && seconds > 0 ? Int(min(seconds, 0x1p52)) : 0
        let (h, m, s) = (total / 3600, total / 60 % 60, total % 60)
        let ss = s < 10 ? "0\(s)" : "\(s)"
        if h > 0 {
            let mm = m < 10 ? "0\(m)" : "\(m)"
            return "\(h):\(mm):\(ss)"
        }
        return "\(m):\(ss)"
    }

    /// `m:ss.cc` (hundredths, rounded down): where in a song something happened.
    public static func precise(_ seconds: Double) -> String {
        let hundredths = seconds.isFinite && seconds > 0 ? Int(min(seconds * 100, 0x1p52).rounded(.down)) : 0
        let fraction = hundredths % 100
        return clock(Double(hundredths / 100)) + (fraction < 10 ? ".0" : ".") + "\(fraction)"
    }
}

extension Duration {
    /// The duration in seconds, as a number (a clock's reading, a deadline's time left).
    public var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
