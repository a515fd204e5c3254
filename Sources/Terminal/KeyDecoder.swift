/// A key press, decoded from the bytes a terminal sends.
public enum Key: Hashable, Sendable {
    case character(Character)
    /// Ctrl and a letter (`control("n")`: Ctrl-N), but those a terminal gives other meanings:
    /// Ctrl-H is Backspace, Ctrl-I Tab, Ctrl-J and Ctrl-M Enter, and Ctrl-C, Ctrl-Z and Ctrl-    /// are signals.
    case control(Character)
    /// Alt (Meta) and a character: the terminal sends ESC, then the character.
    case alt(Character)
    /// F1 to F12.
    case function(Int)
    case enter
    case escape
    case backspace
    case tab
    case up, down, left, right
    case home, end, delete
    case pageUp, pageDown
    /// An arrow, Home, End, PgUp, PgDn, Delete or a function key with Shift, Alt or Ctrl held.
    indirect case modified(Key, Modifiers)
    /// A control or escape sequence tplayer does not use.
    case other

    /// Shift, Alt and Ctrl, as xterm's `ESC [ 1 ; N X` sequences give them (N - 1 is the sum).
    public struct Modifiers: OptionSet, Hashable, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        public static let shift = Modifiers(rawValue: 1)
        public static let alt = Modifiers(rawValue: 2)
        public static let control = Modifiers(rawValue: 4)
    }
}

/// Decodes terminal input bytes into keys: UTF-8 text, control keys and escape sequences in both
/// the forms terminals send (`ESC [ C` and `ESC O C` for →, `ESC [ 1 ~`, `ESC [ H` and `ESC O H`
/// for Home, with or without modifiers).
///
/// Bytes may arrive split across reads; an incomplete sequence waits for the next call. A lone
/// ESC at the end of a read is the Escape key, since terminals send a sequence in one write.
/// Every key of a read is decoded, however many: keys typed faster than the screen redraws are
/// never lost.
public struct KeyDecoder {
    private var pending: [UInt8] = []

    public init() {}

    public mutating func decode(_ bytes: some Sequence<UInt8>) -> [Key] {
        pending.append(contentsOf: bytes)
        var keys: [Key] = []
        var index = 0
        while index < pending.count {
            guard let (key, length) = Self.key(at: index, in: pending) else { break }
            keys.append(key)
            index += length
        }
        pending.removeFirst(index)
        return keys
    }

    /// The key starting at `start` and its length in bytes, or nil when more bytes are needed.
    private static func key(at start: Int, in bytes: [UInt8]) -> (Key, Int)? {
        let byte = bytes[start]
        switch byte {
        case 0x0D, 0x0A: return (.enter, 1)
        case 0x7F, 0x08: return (.backspace, 1)
        case 0x09: return (.tab, 1)
        case 0x1B: return escapeSequence(at: start, in: bytes)
        // Ctrl and a letter: 0x01 is Ctrl-A (those that are Backspace, Tab and Enter are above).
        case 0x01...0x1A: return (.control(Character(Unicode.Scalar(byte + 0x60))), 1)
        case 0x00..<0x20: return (.other, 1)
        case 0x20..<0x80: return (.character(Character(Unicode.Scalar(byte))), 1)
        default: return utf8(at: start, in: bytes)
        }
    }

    private static func escapeSequence(at start: Int, in bytes: [UInt8]) -> (Key, Int)? {
        guard start + 1 < bytes.count else { return (.escape, 1) }
        let introducer = bytes[start + 1]
        guard introducer == UInt8(ascii: "[") || introducer == UInt8(ascii: "O") else {
            // ESC and a character sent together: Alt and that character.
            guard introducer != 0x1B, let (key, length) = Self.key(at: start + 1, in: bytes) else { return (.escape, 1) }
            guard case .character(let character) = key else { return (.escape, 1) }
            return (.alt(character), 1 + length)
        }
        // Parameters and intermediates run until a final byte in 0x40...0x7E.
        var end = start + 2
        while end < bytes.count, !(0x40...0x7E).contains(bytes[end]) { end += 1 }
        guard end < bytes.count else { return nil }
        // `ESC [ 3 ~` names its key by number; `ESC [ 1 ; 5 C` is → with a modifier (5 - 1: Ctrl).
        let fields = bytes[(start + 2)..<end].split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false)
        let number = fields.first.flatMap { Int(String(decoding: $0, as: UTF8.self)) }
        let modifier = fields.count > 1 ? Int(String(decoding: fields[1], as: UTF8.self)).map { $0 - 1 } : nil
        let functionKeys = [11: 1, 12: 2, 13: 3, 14: 4, 15: 5, 17: 6, 18: 7, 19: 8, 20: 9, 21: 10, 23: 11, 24: 12]
        var key: Key = switch bytes[end] {
        case UInt8(ascii: "A"): .up
        case UInt8(ascii: "B"): .down
        case UInt8(ascii: "C"): .right
        case UInt8(ascii: "D"): .left
        case UInt8(ascii: "H"): .home
        case UInt8(ascii: "F"): .end
        // F1 to F4 as xterm sends them (`ESC O P`), and with a modifier (`ESC [ 1 ; 2 P`).
        case UInt8(ascii: "P"): .function(1)
        case UInt8(ascii: "Q"): .function(2)
        case UInt8(ascii: "R"): .function(3)
        case UInt8(ascii: "S"): .function(4)
        case UInt8(ascii: "~") where number == 1 || number == 7: .home
        case UInt8(ascii: "~") where number == 4 || number == 8: .end
        case UInt8(ascii: "~") where number == 3: .delete
        case UInt8(ascii: "~") where number == 5: .pageUp
        case UInt8(ascii: "~") where number == 6: .pageDown
        case UInt8(ascii: "~"): number.flatMap { functionKeys[$0] }.map { .function($0) } ?? .other
        default: .other
        }
        if let modifier, (1...7).contains(modifier), key != .other {
            key = .modified(key, Key.Modifiers(rawValue: modifier))
        }
        return (key, end - start + 1)
    }

    private static func utf8(at start: Int, in bytes: [UInt8]) -> (Key, Int)? {
        let lead = bytes[start]
        let length: Int
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return (.other, 1)  // a stray continuation byte or an impossible lead
        }
        // Wait for the rest only while what has come is still a valid continuation.
        let available = bytes[(start + 1)..<min(start + length, bytes.count)]
        guard available.allSatisfy({ $0 & 0xC0 == 0x80 }) else { return (.other, 1) }
        guard start + length <= bytes.count else { return nil }
        guard let text = String(validating: bytes[start..<(start + length)], as: UTF8.self),
              let character = text.first
        else { return (.other, 1) }
        return (.character(character), length)
    }
}
