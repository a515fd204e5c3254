import Files
import Glibc
import PlayerCore

/// A file that `-w` writes: WAV, AU or raw PCM, written by tplayer itself, so that writing a
/// file never loads libao and its plugins (a third of a short run's start-up).
///
/// WAV has the 44-byte header mpg123 writes (`tplayer -w` and `mpg123 -w` give the same bytes),
/// or WAVE_FORMAT_EXTENSIBLE's where `flac -d` writes it (more than 16 bits or two channels);
/// AU is Sun's, big-endian; raw is the samples as they are. Where the file cannot be rewound
/// (a pipe), the header keeps the sizes it was written with, as in mpg123.
final class FileOutput: AudioOutput {
    enum Kind: String {
        case wav, au, raw
    }

    let path: Path
    let kind: Kind
    private let overwrite: Bool

    init(path: Path, kind: Kind, overwrite: Bool) {
        self.path = path
        self.kind = kind
        self.overwrite = overwrite
    }

    var name: String { "\(path)" }
    var isFile: Bool { true }
    var pacing: Pacing { .none }

    /// Its writes wait until there is room: nothing to wake.
    func wakes(_ wake: @escaping @Sendable () -> Void) {}
    func settleName() {}

    func open(_ format: PCMFormat) throws(OutputFailure) -> AudioSink {
        switch FileSystem.openOutput(path, overwrite: overwrite) {
        case .success(let file):
            let sink = FileSink(file: file, kind: kind, format: format)
            if let error = sink.writeHeader() {
                throw OutputFailure(message: "cannot write to the file: \(error.reason)")
            }
            return sink
        case .failure(let error):
            throw OutputFailure(message: Self.reason(error, path: path))
        }
    }

    /// Why the file cannot be written, as the rest of a line that starts with its path.
    static func reason(_ error: FileSystem.OutputFileError, path: Path) -> String {
        switch error {
        case .exists: "file exists; add --force to overwrite it"
        case .isDirectory: "is a folder; name a file in it, e.g. -w folder/out.wav"
        case .refused(.isRead(let input)):
            "that is the same file as \(input), which this run reads; writing would destroy it: name a new file"
        case .refused(.isOwnDescriptor):
            "that names a descriptor tplayer itself uses (a song it reads or a pipe of its own); name a file"
        case .system(let error) where error.isMissing && !FileSystem.isDirectory(path.directory):
            "cannot create the file: its folder does not exist"
        case .system(let error) where error.isMissing: "cannot create the file there: no such file or descriptor"
        case .system(let error): "cannot create the file: \(error.reason)"
        }
    }
}

final class FileSink: BlockingSink {
    let format: PCMFormat
    private let file: OpenFile
    private let kind: FileOutput.Kind
    private var dataBytes = 0
    /// Where the header was written, if it can be written again there with the final sizes.
    private var headerPosition: Int?
    private var finished = false
    /// For AU: the samples swapped to big-endian.
    private var swapped: [UInt8] = []

    init(file: OpenFile, kind: FileOutput.Kind, format: PCMFormat) {
        self.file = file
        self.kind = kind
        self.format = format
    }

    deinit { try? close() }

    func writeHeader() -> SystemError? {
        headerPosition = file.rewritablePosition()
        let header = Self.header(kind, format: format, dataBytes: nil)
        return header.isEmpty ? nil : header.withUnsafeBytes { file.write($0) }
    }

    /// The header for `dataBytes` of samples (`nil`: not known yet).
    static func header(_ kind: FileOutput.Kind, format: PCMFormat, dataBytes: Int?) -> [UInt8] {
        let frameBytes = format.bytesPerFrame
        switch kind {
        case .raw:
            return []
        case .wav:
            // mpg123 writes the header for no data until it knows, and sizes over 4 GiB as the
            // most 32 bits hold.
            let extensible = usesExtensibleWAV(format)
            let fmtBytes: UInt32 = extensible ? 40 : 16
            let data = UInt32(clamping: min(dataBytes ?? 0, Int(UInt32.max) - 21 - Int(fmtBytes)))
            var bytes: [UInt8] = []
            bytes.reserveCapacity(68)
            // A data chunk of an odd size (8 or 24 bits, an odd count) is followed by a pad byte,
            // counted in the RIFF size, not in the chunk's (as RIFF asks and `flac -d` writes).
            bytes += Array("RIFF".utf8) + le32(data + 20 + fmtBytes + (data & 1)) + Array("WAVEfmt ".utf8) + le32(fmtBytes)
            // Bounded by `PlayableFormat` (768 kHz × 64 channels × 4 bytes fits); clamped all the same.
            let tag: UInt16 = extensible ? 0xFFFE : format.encoding == .float32 ? 3 : 1
            bytes += le16(tag) + le16(UInt16(clamping: format.channels)) + le32(UInt32(clamping: format.rate))
            bytes += le32(UInt32(clamping: format.rate * frameBytes)) + le16(UInt16(clamping: frameBytes))
            bytes += le16(UInt16(clamping: format.bytesPerSample * 8))
            if extensible {
                bytes += le16(22) + le16(UInt16(clamping: format.bits)) + le32(channelMask(format.channels))
                // KSDATAFORMAT_SUBTYPE_PCM or _IEEE_FLOAT.
                bytes += le16(format.encoding == .float32 ? 3 : 1) + [0, 0, 0, 0, 0x10, 0, 0x80, 0, 0, 0xAA, 0, 0x38, 0x9B, 0x71]
            }
            bytes += Array("data".utf8) + le32(data)
            return bytes
        case .au:
            let data = dataBytes.map { UInt32(clamping: $0) } ?? UInt32.max  // ~0: unknown
            // 28 bytes: the 24 of the fields and the 4 an annotation needs at least.
            return Array(".snd".utf8) + be32(28) + be32(data) + be32(auEncoding(format.encoding)) + be32(UInt32(clamping: format.rate))
                + be32(UInt32(clamping: format.channels)) + [0, 0, 0, 0]
        }
    }

    /// Whether a WAV of `format` needs WAVE_FORMAT_EXTENSIBLE, as `flac -d` and ffmpeg decide:
    /// more than two channels, more than 16 bits, or fewer bits than the samples hold (20 in 24).
    /// Otherwise the 44-byte header mpg123 writes.
    static func usesExtensibleWAV(_ format: PCMFormat) -> Bool {
        format.channels > 2 || format.bytesPerSample > 2 || format.bits != format.bytesPerSample * 8
    }

    /// The speakers of `channels` channels, in WAV's order, as `flac -d` names them (FLAC's
    /// channel order: 5.1 is FL FR FC LFE SL SR).
    static func channelMask(_ channels: Int) -> UInt32 {
        switch channels {
        case 1: 0x4
        case 2: 0x3
        case 3: 0x7
        case 4: 0x33
        case 5: 0x607
        case 6: 0x60F
        case 7: 0x70F
        case 8: 0x63F
        default: 0
        }
    }

    /// Sun's encoding number: 8-, 16-, 24-, 32-bit linear, or 32-bit float.
    static func auEncoding(_ encoding: SampleEncoding) -> UInt32 {
        switch encoding {
        case .u8: 2
        case .s16: 3
        case .s24: 4
        case .s32: 5
        case .float32: 6
        }
    }

    private static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xff), UInt8(value >> 8)] }
    private static func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xff) } }
    private static func be32(_ value: UInt32) -> [UInt8] { le32(value).reversed() }

    func write(_ bytes: UnsafeRawBufferPointer) throws(OutputFailure) -> Bool {
        let error: SystemError?
        if kind == .au {
            // Big-endian; AU's 8-bit samples are signed.
            swapped.removeAll(keepingCapacity: true)
            swapped.reserveCapacity(bytes.count)
            let size = format.bytesPerSample
            var index = 0
            while index + size <= bytes.count {
                if size == 1 {
                    swapped.append(bytes[index] ^ 0x80)
                } else {
                    for offset in stride(from: size - 1, through: 0, by: -1) { swapped.append(bytes[index + offset]) }
                }
                index += size
            }
            error = swapped.withUnsafeBytes { file.write($0) }
        } else {
            error = file.write(bytes)
        }
        if let error {
            keepWholeFrames()
            throw OutputFailure(message: "cannot write to the file: \(error.reason)")
        }
        dataBytes += bytes.count
        return false
    }

    /// After a write that failed partway (a full disk, a size limit): what reached the file is
    /// counted, cut to whole frames, so that the final header says exactly what is there.
    private func keepWholeFrames() {
        guard let headerPosition, let end = file.rewritablePosition() else { return }
        let headerLength = Self.header(kind, format: format, dataBytes: nil).count
        let frameBytes = format.bytesPerFrame
        dataBytes = max(end - headerPosition - headerLength, 0) / frameBytes * frameBytes
        _ = file.truncate(to: headerPosition + headerLength + dataBytes)
    }

    /// Writes the final header where the file can be rewound (not a pipe, not a file opened for
    /// appending) and closes it.
    func close() throws(OutputFailure) {
        guard !finished else { return }
        finished = true
        var failure: SystemError?
        if kind == .wav, dataBytes % 2 == 1 {
            failure = [UInt8(0)].withUnsafeBytes { file.write($0) }
        }
        if kind != .raw, let headerPosition, failure == nil {
            let header = Self.header(kind, format: format, dataBytes: dataBytes)
            failure = header.withUnsafeBytes { file.write($0, at: headerPosition) }
        }
        // No longer the file being written: its identity may be another file's once it is gone
        // (a test process writes and deletes many; inodes are reused).
        OpenedFiles.shared.releaseOutput(file)
        if let error = file.close(), failure == nil { failure = error }
        if let failure {
            throw OutputFailure(message: "could not finish the file: \(failure.reason)")
        }
    }
}
