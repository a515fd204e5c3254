import CPulse

extension SampleEncoding {
    /// The server's name for these samples, little-endian as tplayer keeps them.
    var pulseFormat: pa_sample_format_t {
        switch self {
        case .u8: PA_SAMPLE_U8
        case .s16: PA_SAMPLE_S16LE
        case .s24: PA_SAMPLE_S24LE
        case .s32: PA_SAMPLE_S32LE
        case .float32: PA_SAMPLE_FLOAT32LE
        }
    }
}
