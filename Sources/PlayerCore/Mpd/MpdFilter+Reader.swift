extension MpdFilter {
    /// Reads one expression, as `SongFilter::ParseExpression` does: `(`, then a nested
    /// expression (one, or several joined by `AND`), `!(…)`, or `NAME OPERATOR 'VALUE'`, then `)`.
    struct Reader {
        private let bytes: [UInt8]
        private let patterns: any MpdPatterns
        private var at = 0
        /// How deep the expressions nest: a client cannot make the reader recurse without end.
        private var depth = 0
        static let deepest = 64

        init(_ bytes: [UInt8], patterns: some MpdPatterns) {
            self.bytes = bytes
            self.patterns = patterns
        }

        var atEnd: Bool { at >= bytes.count }
        private var current: UInt8 { at < bytes.count ? bytes[at] : 0 }
        private func peek(_ offset: Int) -> UInt8 { at + offset < bytes.count ? bytes[at + offset] : 0 }

        private mutating func skipSpaces() {
            while at < bytes.count, (1...0x20).contains(bytes[at]) { at += 1 }
        }

        private static func isWordByte(_ byte: UInt8) -> Bool {
            (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x5F || byte == 0x2D
        }

        private mutating func word() -> Result<String, Problem> {
            let start = at
            while at < bytes.count, Self.isWordByte(bytes[at]) { at += 1 }
            guard at > start else { return .failure(Problem("Word expected")) }
            let text = String(decoding: bytes[start..<at], as: UTF8.self)
            skipSpaces()
            return .success(text)
        }

        private mutating func quoted() -> Result<String, Problem> {
            let quote = current
            guard quote == 0x22 || quote == 0x27 else { return .failure(Problem("Quoted string expected")) }
            at += 1
            var value: [UInt8] = []
            while atEnd || current != quote {
                if current == 0x5C { at += 1 }  // a backslash takes the next byte as it is
                guard !atEnd else { return .failure(Problem("Closing quote not found")) }
                value.append(current)
                at += 1
                guard value.count < 4096 else { return .failure(Problem("Quoted value is too long")) }
            }
            at += 1
            skipSpaces()
            return .success(String(decoding: value, as: UTF8.self))
        }

        private mutating func closing() -> Result<Void, Problem> {
            guard current == 0x29 else { return .failure(Problem("')' expected")) }
            at += 1
            skipSpaces()
            return .success(())
        }

        private func startsWith(_ text: String) -> Bool {
            let expected = Array(text.utf8)
            guard at + expected.count <= bytes.count else { return false }
            return zip(bytes[at..<at + expected.count], expected).allSatisfy { a, b in
                (a | (Self.isLetter(a) ? 0x20 : 0)) == (b | (Self.isLetter(b) ? 0x20 : 0))
            }
        }

        private static func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }

        mutating func expression(foldCase: Bool) -> Result<MpdFilter, Problem> {
            depth += 1
            defer { depth -= 1 }
            guard depth <= Self.deepest else { return .failure(Problem("Expression too deep")) }
            at += 1  // the `(`
            skipSpaces()
            if current == 0x28 {
                var items: [MpdFilter] = []
                while true {
                    switch expression(foldCase: foldCase) {
                    case .failure(let problem): return .failure(problem)
                    case .success(let item): items.append(item)
                    }
                    if current == 0x29 {
                        at += 1
                        return .success(items.count == 1 ? items[0] : .and(items))
                    }
                    guard case .success(let joiner) = word(), joiner == "AND" else { return .failure(Problem("'AND' expected")) }
                    guard current == 0x28 else { return .failure(Problem("'(' expected")) }
                }
            }
            if current == 0x21 {
                at += 1
                skipSpaces()
                guard current == 0x28 else { return .failure(Problem("'(' expected")) }
                return expression(foldCase: foldCase).flatMap { inner in closing().map { .not(inner) } }
            }
            let name: String
            switch word() {
            case .failure(let problem): return .failure(problem)
            case .success(let found): name = found
            }
            guard let field = Field(name) else { return .failure(Problem("Unknown filter type: \(name)")) }
            switch field {
            case .modifiedSince:
                return quoted().flatMap { value in
                    guard let time = MpdTime.parse(value) else { return .failure(Problem("Date/time expected")) }
                    return closing().map { .modifiedSince(time) }
                }
            case .base:
                return quoted().flatMap { value in closing().map { .base(value) } }
            case .audioFormat:
                let mask: Bool
                if current == 0x3D, peek(1) == 0x3D { mask = false } else if current == 0x3D, peek(1) == 0x7E { mask = true } else {
                    return .failure(Problem("'==' or '=~' expected"))
                }
                at += 2
                skipSpaces()
                return quoted().flatMap { value in closing().map { .audioFormat(value, mask: mask) } }
            case .file, .any, .tag:
                return match(foldCase: foldCase).flatMap { match in
                    closing().map {
                        switch field {
                        case .file: .file(match)
                        case .tag(let tag): .tag(tag, match)
                        case .any, .base, .modifiedSince, .audioFormat: .tag(nil, match)
                        }
                    }
                }
            }
        }

        /// An operator and its value (`ParseStringFilter`).
        private mutating func match(foldCase: Bool) -> Result<StringMatch, Problem> {
            var match = StringMatch(value: "", foldCase: foldCase, substring: false, negated: false)
            for (word, negated, prefix) in [("contains ", false, false), ("!contains ", true, false), ("starts_with ", false, true)]
                where startsWith(word) {
                at += word.utf8.count
                skipSpaces()
                (match.substring, match.negated, match.prefix) = (!prefix, negated, prefix)
                return quoted().map { value in
                    match.value = value
                    return match
                }
            }
            if (current == 0x21 || current == 0x3D), peek(1) == 0x7E {
                match.negated = current == 0x21
                match.regex = true
                at += 2
                skipSpaces()
                return quoted().flatMap { value in
                    guard patterns.isValid(value) else { return .failure(Problem("Invalid regular expression: \(value)")) }
                    match.value = value
                    return .success(match)
                }
            }
            if current == 0x21, peek(1) == 0x3D {
                match.negated = true
            } else if current != 0x3D || peek(1) != 0x3D {
                return .failure(Problem("'==' or '!=' expected"))
            }
            at += 2
            skipSpaces()
            return quoted().map { value in
                match.value = value
                return match
            }
        }
    }
}
