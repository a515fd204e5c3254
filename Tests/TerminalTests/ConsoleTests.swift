import Glibc
import PlayerCore
import Testing
@testable import Terminal

/// The console while Tab's completion is under way off the main loop: every key is answered
/// meanwhile, and a completion is applied only to the text it was asked for.
struct ConsoleTests {
    final class Completions {
        var asked: [String] = []
        var answers: [(Console.Completion) -> Void] = []
    }

    static func console() -> (Console, Completions) {
        let console = Console(screen: Screen(fd: open("/dev/null", O_WRONLY | O_CLOEXEC)), showsStatus: true)
        let completions = Completions()
        console.complete = { text, done in
            completions.asked.append(text)
            completions.answers.append(done)
        }
        return (console, completions)
    }

    static let tab: [UInt8] = [0x09]
    static let enter: [UInt8] = [0x0D]

    @Test func keysAreAnsweredWhileACompletionIsUnderWay() {
        let (console, completions) = Self.console()
        #expect(console.commands(from: Array("lmus".utf8)).isEmpty)
        #expect(console.commands(from: Self.tab).isEmpty)
        #expect(completions.asked == ["mus"])
        // The listing has not come back: the prompt still edits, Enter still loads.
        #expect(console.commands(from: Array("ic".utf8)).isEmpty)
        #expect(console.commands(from: Self.enter) == [.load("music")])
        // And with the prompt closed, keys are commands again.
        #expect(console.commands(from: Array(" n".utf8)) == [.toggle, .next])
        // The late answer changes nothing.
        completions.answers[0](Console.Completion(text: "musicians/"))
        #expect(console.promptText == nil)
        #expect(console.commands(from: Array("s".utf8)) == [.stop])
    }

    @Test func aCompletionIsAppliedToTheTextItWasAskedFor() {
        let (console, completions) = Self.console()
        _ = console.commands(from: Array("lal".utf8) + Self.tab)
        completions.answers[0](Console.Completion(text: "album/", choices: []))
        #expect(console.promptText == "album/")
        // Typed on since: the answer is moot.
        _ = console.commands(from: Array("x".utf8) + Self.tab + Array("y".utf8))
        completions.answers[1](Console.Completion(text: "album/xylophone.mp3"))
        #expect(console.promptText == "album/xy")
    }
}
