import Foundation
import Testing

/// Every end-to-end suite has a time limit: a test that hangs (a pane that never shows its
/// line, a process that never ends) fails in minutes and says which, where it held the run until
/// CI's own limit killed it with nothing said.
@Suite(.timeLimit(.minutes(10)))
struct SuiteLimitsTests {
    @Test func everyEndToEndSuiteHasATimeLimit() throws {
        let folder = Harness.root.appendingPathComponent("Tests/EndToEndTests")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
        var limited = Set<String>(), tested: [String: String] = [:]
        let declaration = /^(?:@Suite\(.*\)\s*)?(?:final )?(?:struct|class|extension) (\w+)/
        for file in files {
            let lines = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            var current: String?
            for (number, line) in lines.enumerated() {
                if let match = line.firstMatch(of: declaration) {
                    current = String(match.1)
                    let traits = (number > 0 && lines[number - 1].hasPrefix("@Suite") ? lines[number - 1] : "") + line
                    if traits.contains(".timeLimit(") { limited.insert(String(match.1)) }
                } else if line.trimmingCharacters(in: .whitespaces).hasPrefix("@Test"), let current {
                    tested[current] = file
                }
            }
        }
        #expect(tested.count > 40, "\(tested.count) suites found: the search went wrong")
        let unlimited = tested.filter { !limited.contains($0.key) }.map { "\($0.value): \($0.key)" }.sorted()
        #expect(unlimited.isEmpty, "suites with no time limit (@Suite(.timeLimit(.minutes(N)))): \(unlimited)")
    }
}
