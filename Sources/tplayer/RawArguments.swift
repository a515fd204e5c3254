import PlayerCore

/// The command line as the kernel gave it: bytes.
///
/// A file name need not be UTF-8, but the argument parser works on Swift strings, which
/// would repair such a name into a different one (U+FFFD) that names no file. So each argument
/// that is not valid UTF-8 is handed to the parser with its bytes escaped into private-use
/// characters (each byte `b` of an invalid sequence becomes U+10FF00 + `b`), and `path(_:)` turns
/// what the parser gives back into the exact bytes. Arguments that are valid UTF-8, the usual
/// case, pass through untouched.
enum RawArguments {
    /// The escaped form of every argument that was not valid UTF-8; written once, before
    /// anything else runs, and only read after.
    nonisolated(unsafe) private static var escaped: [String] = []

    /// The arguments (without the program name) for the parser.
    static func prepare(argc: Int32, argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> [String] {
        var arguments: [String] = []
        for index in 1..<Int(max(argc, 1)) {
            guard let pointer = argv[index] else { continue }
            let bytes = Path(cString: pointer).bytes
            if let text = String(validating: bytes, as: UTF8.self) {
                arguments.append(text)
            } else {
                let text = escape(bytes)
                escaped.append(text)
                arguments.append(text)
            }
        }
        return arguments
    }

    /// The path an argument names, with its original bytes. An option's value (`-wX`,
    /// `--write=X`) is the end of its argument, so a suffix match finds it.
    static func path(_ argument: String) -> Path {
        guard escaped.contains(where: { $0.hasSuffix(argument) }) else { return Path(argument) }
        return Path(bytes: unescape(argument))
    }

    private static let base: UInt32 = 0x10_FF00

    /// Valid sequences as themselves; the bytes of invalid ones, and of valid ones that encode
    /// the escape range itself, as U+10FF00 + byte.
    static func escape(_ bytes: [UInt8]) -> String {
        var text = String.UnicodeScalarView()
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            let length = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0
            if length > 0, index + length <= bytes.count,
               let decoded = String(validating: bytes[index..<(index + length)], as: UTF8.self)?.unicodeScalars,
               decoded.count == 1, let scalar = decoded.first, scalar.value < base + 0x80 {
                text.append(scalar)
                index += length
            } else {
                text.append(Unicode.Scalar(base + UInt32(lead)) ?? "\u{FFFD}")
                index += 1
            }
        }
        return String(text)
    }

    static func unescape(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        for scalar in text.unicodeScalars {
            if scalar.value >= base + 0x80 {
                bytes.append(UInt8(scalar.value - base))
            } else {
                bytes += String(scalar).utf8
            }
        }
        return bytes
    }
}
