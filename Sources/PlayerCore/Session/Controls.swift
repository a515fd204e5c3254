/// Who asked for a command: the front-ends, each turning its own input into `Command`s.
public enum Origin: Sendable, Equatable, CustomStringConvertible {
    /// A person at the terminal (a key, the load prompt).
    case keys
    /// The scripted playlist file.
    case script
    /// mpg123's remote protocol (`-R`, `--fifo`).
    case remote
    /// MPRIS on D-Bus: media keys, desktop widgets, `playerctl`.
    case mpris
    /// An MPD client (`--mpd`): mpc, ncmpcpp, a phone.
    case mpd

    public var description: String {
        switch self {
        case .keys: "a key was pressed"
        case .script: "the script"
        case .remote: "a remote command came"
        case .mpris: "an MPRIS call came (media keys, playerctl)"
        case .mpd: "an MPD client sent a command"
        }
    }
}

/// The one door for commands: every front-end hands its commands here, and the same rules apply
/// to all of them. A command from anyone but the script takes over from a running script (the
/// rest of it is dropped and playback is free); then the session performs it.
public final class Controls {
    public let session: Session
    public let script: ScriptRunner?

    public init(session: Session, script: ScriptRunner? = nil) {
        self.session = session
        self.script = script
        script?.submit = { [weak self, weak session] command in
            if let self { self.submit(command, from: .script) } else { session?.perform(command) }
        }
    }

    public func submit(_ command: Command, from origin: Origin) {
        if origin != .script { script?.takeOver(by: origin) }
        session.perform(command)
    }

    public func submit(_ commands: [Command], from origin: Origin) {
        commands.forEach { submit($0, from: origin) }
    }

    /// `load` for a front-end that answers its caller once the load is known to play or not.
    public func load(_ path: Path, from origin: Origin, answer: @escaping (Session.LoadAnswer) -> Void) {
        if origin != .script { script?.takeOver(by: origin) }
        session.load(path, answer: answer)
    }
}
