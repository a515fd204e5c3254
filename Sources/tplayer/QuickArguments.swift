import PlayerCore

/// Reads the usual command lines without the argument parser.
///
/// The argument parser learns tplayer's options by reflecting on `TPlayer`, and every
/// reflected type costs the Swift runtime a scan of the binary's 6,000 protocol conformances:
/// half of a start-up's CPU time. This reads only forms whose meaning is plain (each option by
/// its own name, once; `--name value`, `--name=value`, `-o value`; inputs that do not start with
/// `-`) and gives up, returning nil, on anything else: help, `--version`, a repeated or joined
/// option, `--`, a value the parser might read differently. What it gives up on, the argument
/// parser reads, with its messages; what it reads, it reads as the argument parser does (a test
/// holds the two to the same values).
enum QuickArguments {
    static func parse(_ arguments: [String]) -> Invocation? {
        var invocation = Invocation()
        var seen: [CommandOption] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("-") else {
                // `help` may be the argument parser's own word for help.
                guard argument != "help" else { return nil }
                invocation.inputs.append(argument)
                continue
            }
            var name = argument
            var attached: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                attached = String(argument[argument.index(after: equals)...])
                guard attached?.isEmpty == false else { return nil }
            } else if !argument.hasPrefix("--"), argument.utf8.count != 2 {
                return nil  // `-`, `-qR`, `-opulse`: the argument parser's to read
            }
            guard let option = CommandOption(name: name), !seen.contains(option) else { return nil }
            seen.append(option)
            if option.isFlag {
                guard attached == nil else { return nil }
                _ = option.set(nil, in: &invocation)
                continue
            }
            // The value: after `=`, else the next argument when it is not an option.
            var text = attached
            if text == nil, index < arguments.count, !arguments[index].hasPrefix("-") {
                text = arguments[index]
                index += 1
            }
            guard text != nil, option.set(text, in: &invocation) else { return nil }
        }
        return invocation
    }
}
