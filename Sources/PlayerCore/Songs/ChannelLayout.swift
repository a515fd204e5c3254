/// How a count of channels is said to a person: "mono", "stereo", "6 channels".
public enum ChannelLayout {
    public static func name(_ channels: Int) -> String {
        channels == 1 ? "mono" : channels == 2 ? "stereo" : "\(channels) channels"
    }
}
