import PlayerCore

/// Script pacing: how much audio the playback thread may still play.
///
/// Unlimited unless `limit(true)`; then nothing plays until a `grant`, and each grant is used
/// up by the frames played under it. A chunk is allowed under one grant (`allowance` hands out a
/// ticket naming it) and charged to that grant when it has played (`consume`), so a grant that
/// replaces it while the chunk decodes is not charged for it: a script's wait gets exactly the
/// audio it asked for.
struct PlaybackBudget: Equatable, Sendable {
    /// What is left of the current grant; `nil` when playback is not limited.
    private(set) var left: AudioTime?
    /// The current grant's id (0 before the first).
    private(set) var grantID = 0
    /// Whether the current grant's end has been reported (once per grant).
    private var reported = true

    /// Permission to play `frames` frames at `rate`, drawn from grant `grant`.
    struct Ticket: Equatable, Sendable {
        let grant: Int
        let frames: Int
        let rate: Int
    }

    var isLimited: Bool { left != nil }

    /// Limits playback to granted time (nothing granted yet), or lifts the limit.
    mutating func limit(_ on: Bool) {
        left = on ? .zero : nil
        reported = true
    }

    /// Replaces what is left with `time`, as grant `id`. Ignored when playback is not limited.
    mutating func grant(_ time: AudioTime, id: Int) {
        guard left != nil else { return }
        left = max(time, .zero)
        grantID = id
        reported = false
    }

    /// Takes back what is left of the current grant (it is then never reported) and returns it.
    mutating func revoke() -> AudioTime {
        guard let remaining = left else { return .zero }
        left = .zero
        reported = true
        return remaining
    }

    /// Applies `call` if it is about pacing (limit, grant, revoke); false for any other call,
    /// which is the playback thread's.
    mutating func apply(_ call: EngineCall) -> Bool {
        switch call {
        case .limitPlayback(let on): limit(on)
        case .grant(let time, let id): grant(time, id: id)
        case .revokeGrant: _ = revoke()
        case .stop, .skip, .open, .play, .seek, .setVolume, .setPitch, .setOutputEnabled, .setSpeed, .setReplayGain, .setEqualizer, .setGraphicEqualizer, .cue, .setCrossfade:
            return false
        }
        return true
    }

    /// What is left of the current grant; `.zero` when there is none or playback is free.
    var grantLeft: AudioTime { left ?? .zero }

    /// Up to `wanted` frames at `rate` that may be played now (zero frames: hold).
    func allowance(frames wanted: Int, rate: Int) -> Ticket {
        guard let left else { return Ticket(grant: grantID, frames: wanted, rate: rate) }
        return Ticket(grant: grantID, frames: Int(min(Int64(wanted), left.frames(rate: rate))), rate: rate)
    }

    /// Charges `count` frames played under `ticket` to the grant it came from. Returns that
    /// grant's id when this used it up, the first time it does.
    mutating func consume(_ ticket: Ticket, frames count: Int) -> Int? {
        guard let remaining = left, ticket.grant == grantID, !reported else { return nil }
        let after = max(remaining - AudioTime(frames: Int64(count), rate: ticket.rate), .zero)
        left = after
        guard after.frames(rate: ticket.rate) == 0 else { return nil }
        reported = true
        return grantID
    }

    /// Whether a frame at `rate` may be played now.
    func allows(rate: Int) -> Bool {
        left.map { $0.frames(rate: rate) > 0 } ?? true
    }
}
