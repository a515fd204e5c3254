import PlayerCore
import Testing
@testable import AudioEngine

struct PlaybackBudgetTests {
    @Test func unlimitedAllowsEverythingAndReportsNothing() {
        var budget = PlaybackBudget()
        let ticket = budget.allowance(frames: 1102, rate: 44100)
        #expect(ticket.frames == 1102)
        #expect(budget.consume(ticket, frames: 1102) == nil)
        #expect(budget.allows(rate: 44100))
        #expect(budget.revoke() == .zero)
    }

    @Test func limitedHoldsUntilAGrantAndReportsItsEndOnce() {
        var budget = PlaybackBudget()
        budget.limit(true)
        #expect(budget.allowance(frames: 1102, rate: 44100).frames == 0)
        #expect(!budget.allows(rate: 44100))
        budget.grant(AudioTime(frames: 1500, rate: 44100), id: 7)
        let first = budget.allowance(frames: 1102, rate: 44100)
        #expect(first.frames == 1102)
        #expect(budget.consume(first, frames: 1102) == nil)
        let second = budget.allowance(frames: 1102, rate: 44100)
        #expect(second.frames == 398, "the grant runs out mid-chunk: only what is left")
        #expect(budget.consume(second, frames: 398) == 7)
        #expect(budget.consume(second, frames: 0) == nil, "reported once")
        #expect(!budget.allows(rate: 44100))
    }

    @Test func aChunkIsChargedToTheGrantItWasAllowedUnderNotToOneGrantedSince() {
        var budget = PlaybackBudget()
        budget.limit(true)
        budget.grant(AudioTime(frames: 1102, rate: 44100), id: 1)
        let ticket = budget.allowance(frames: 1102, rate: 44100)
        // While that chunk decodes, the script's first wait is revoked and a new one granted.
        _ = budget.revoke()
        budget.grant(.seconds(1), id: 2)
        #expect(budget.consume(ticket, frames: 1102) == nil)
        #expect(budget.left == .seconds(1), "the new wait gets all of its second")
    }

    @Test func revokingReturnsWhatIsLeftAndNeverReportsIt() {
        var budget = PlaybackBudget()
        budget.limit(true)
        budget.grant(.seconds(2), id: 3)
        let ticket = budget.allowance(frames: 44100, rate: 44100)
        _ = budget.consume(ticket, frames: 44100)
        #expect(budget.revoke() == .seconds(1))
        #expect(budget.consume(budget.allowance(frames: 10, rate: 44100), frames: 0) == nil)
        budget.limit(false)
        #expect(budget.allows(rate: 8000) && !budget.isLimited)
    }

    @Test func timeCountsExactlyAcrossRates() {
        var budget = PlaybackBudget()
        budget.limit(true)
        budget.grant(.seconds(1), id: 1)
        let at44 = budget.allowance(frames: 22050, rate: 44100)
        _ = budget.consume(at44, frames: 22050)
        // Half a second left, now counted at 22.05 kHz (a song of another rate).
        #expect(budget.allowance(frames: 100_000, rate: 22050).frames == 11025)
    }
}
