import Glibc
import PlayerCore

/// MPD's regular expressions as POSIX extended ones (glibc's `regcomp`, `regexec`): its
/// matcher runs in time polynomial in the value for any pattern without back-references, which
/// are refused, so a client's pattern cannot hold the main loop up. Each pattern is compiled
/// once for as long as this lives (one command).
public final class PosixPatterns: MpdPatterns {
    private var compiled: [String: UnsafeMutablePointer<regex_t>?] = [:]

    public init() {}

    deinit {
        for case let regex? in compiled.values {
            regfree(regex)
            regex.deallocate()
        }
    }

    private func regex(_ pattern: String, foldCase: Bool) -> UnsafeMutablePointer<regex_t>? {
        let key = (foldCase ? "i" : "c") + pattern
        if let known = compiled[key] { return known }
        var made: UnsafeMutablePointer<regex_t>?
        // A back-reference makes glibc's matcher backtrack without bound; a NUL ends the text.
        if !pattern.contains("\0"), !(1...9).contains(where: { pattern.contains("\\\($0)") }), pattern.utf8.count <= 1024 {
            let regex = UnsafeMutablePointer<regex_t>.allocate(capacity: 1)
            if regcomp(regex, pattern, REG_EXTENDED | REG_NOSUB | (foldCase ? REG_ICASE : 0)) == 0 {
                made = regex
            } else {
                regex.deallocate()
            }
        }
        compiled[key] = made
        return made
    }

    public func isValid(_ pattern: String) -> Bool {
        regex(pattern, foldCase: false) != nil
    }

    public func matches(_ pattern: String, _ text: String, foldCase: Bool) -> Bool {
        guard let regex = regex(pattern, foldCase: foldCase), !text.contains("\0") else { return false }
        return regexec(regex, text, 0, nil, 0) == 0
    }
}
