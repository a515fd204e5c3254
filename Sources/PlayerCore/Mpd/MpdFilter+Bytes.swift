/// A filter's string matched against a tag's UTF-8 bytes as they lie in the catalog, without a
/// `String` made or a reference counted for each of the 100,000 songs a `find` looks at: bytes
/// compared as MPD's `strcmp` compares them, letter case folded byte by byte where both are
/// ASCII, and as Swift folds it (with a `String` made) where either is not.
extension MpdFilter.StringMatch {
    /// The value's bytes, kept with the match: as given, and folded when it is all ASCII.
    struct Needle: Equatable, Sendable {
        let bytes: [UInt8]
        /// `bytes` with A–Z as a–z; `nil` when the value is not all ASCII.
        let foldedASCII: [UInt8]?

        init(_ value: String) {
            bytes = Array(value.utf8)
            foldedASCII = bytes.allSatisfy { $0 < 0x80 } ? bytes.map(Self.fold) : nil
        }

        static func fold(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte | 0x20 : byte }
    }

    /// Whether the text `haystack` holds matches, negation aside (`matches(_:_:)` on bytes).
    public func matches(bytes haystack: UnsafeBufferPointer<UInt8>, _ patterns: some MpdPatterns) -> Bool {
        if regex { return matches(String(decoding: haystack, as: UTF8.self), patterns) }
        if !foldCase { return Self.find(needle.bytes, in: haystack, prefix: prefix, substring: substring, fold: false) }
        guard let folded = needle.foldedASCII, !haystack.contains(where: { $0 >= 0x80 }) else {
            return matches(String(decoding: haystack, as: UTF8.self), patterns)
        }
        return Self.find(folded, in: haystack, prefix: prefix, substring: substring, fold: true)
    }

    /// `needle` at the start of `haystack` (`prefix`), anywhere in it (`substring`), or as the
    /// whole of it; each byte of `haystack` folded first with `fold`.
    static func find(_ needle: [UInt8], in haystack: UnsafeBufferPointer<UInt8>, prefix: Bool, substring: Bool, fold: Bool) -> Bool {
        needle.withUnsafeBufferPointer { needle in
            let (count, length) = (needle.count, haystack.count)
            guard count <= length else { return false }
            func same(at offset: Int) -> Bool {
                var index = 0
                while index < count {
                    let byte = haystack[offset + index]
                    if (fold ? Needle.fold(byte) : byte) != needle[index] { return false }
                    index += 1
                }
                return true
            }
            if prefix { return same(at: 0) }
            if !substring { return count == length && same(at: 0) }
            guard let first = needle.first else { return true }
            var offset = 0
            while offset <= length - count {
                let byte = haystack[offset]
                if (fold ? Needle.fold(byte) : byte) == first, same(at: offset) { return true }
                offset += 1
            }
            return false
        }
    }
}
