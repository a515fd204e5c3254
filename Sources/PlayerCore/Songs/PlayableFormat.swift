/// The formats tplayer plays and writes: 1 Hz to 768 kHz (twice DXD's rate), 1 to 64 channels.
/// Every rate and channel count a decoder gives is checked against these before anything is
/// multiplied by it (buffer sizes, a file's header, a device's format, a pitch).
public enum PlayableFormat {
    public static let rates = 1...768_000
    public static let channels = 1...64

    public static func contains(rate: Int, channels count: Int) -> Bool {
        rates.contains(rate) && channels.contains(count)
    }

    public static let description = "1 Hz to 768 kHz, 1 to 64 channels"
}
