import PlayerCore

/// The interactive terminal: keys in, commands out; the status line, the load prompt and
/// messages on the screen. It decides nothing about playback: that is the session's job.
public final class Console {
    private let screen: Screen
    private let showsStatus: Bool
    private var decoder = KeyDecoder()
    private var prompt: PromptLine?
    private var lastStatus: StatusSnapshot?

    /// `showsStatus: false` is `--quiet`: keys still work, but no status line is drawn.
    public init(screen: Screen = Screen(), showsStatus: Bool) {
        self.screen = screen
        self.showsStatus = showsStatus
    }

    /// The commands that `bytes` typed mean. Keys typed while the prompt is open edit it.
    public func commands(from bytes: [UInt8]) -> [Command] {
        var commands: [Command] = []
        for key in decoder.decode(bytes) {
            if var open = prompt {
                switch open.apply(key) {
                case .editing: prompt = open
                case .cancelled: prompt = nil
                case .submitted(let path):
                    prompt = nil
                    if !path.isEmpty { commands.append(.load(Path(path))) }
                }
                redraw()
                continue
            }
            guard case .character(let character) = key, let command = KeyBindings.command(for: character) else {
                continue
            }
            switch command {
            case .promptLoad:
                prompt = PromptLine(label: "Load: ")
                redraw()
            case .help:
                screen.print("Keys:")
                KeyBindings.helpLines.forEach(screen.print)
            default:
                commands.append(command)
            }
        }
        return commands
    }

    /// Shows `status` on the bottom line (unless the prompt has it).
    public func show(_ status: StatusSnapshot) {
        lastStatus = status
        redraw()
    }

    public func print(_ message: String) {
        screen.print(message)
    }

    /// The terminal was resized.
    public func resized() {
        screen.measure()
        redraw()
    }

    /// Leaves the bottom line empty and the cursor visible.
    public func close() {
        screen.close()
    }

    private func redraw() {
        if let prompt {
            screen.draw(prompt.rendered(width: screen.width - 1))
        } else if showsStatus, let lastStatus {
            screen.draw(StatusLine.render(lastStatus, width: screen.width))
        } else {
            screen.draw("")
        }
    }
}
