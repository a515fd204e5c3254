import Files
import PlayerCore

/// The outputs a target names with the ones that follow it (`output = pulse, snapcast`), and
/// the two that can follow.
extension OutputChoice {
    /// The outputs that can follow the first: they never hold the playback thread.
    static let followerNames = ["snapcast", "icecast"]

    /// `target`'s output, followed by `setup.also`'s.
    static func choosing(_ target: OutputTarget, setup: OutputSetup) throws(OutputError) -> OutputChoice {
        let choice = try OutputChoice(target, setup: setup)
        guard !setup.also.isEmpty else { return choice }
        let named = [target.name] + setup.also
        guard Set(named).count == named.count else {
            throw OutputError(message: "-o \(named.joined(separator: ",")): name each output once")
        }
        if target.isFile {
            throw OutputError(message: "-w writes a file alone: leave the other outputs (\(setup.also.joined(separator: ", "))) out")
        }
        var outputs: [AudioOutput] = []
        for name in setup.also {
            switch name {
            case "snapcast": outputs.append(try snapcast(setup.snapcast.pipe, setup: setup, named: "snapcast-pipe"))
            case "icecast": outputs.append(try icecast(setup))
            default:
                throw OutputError(message: "output \(name): only \(followerNames.joined(separator: " and ")) can play beside the first output "
                                    + "(a sound device keeps the time: name it first)")
            }
        }
        let followers = Followers(outputs)
        let feed = try FollowerFeed(followers)
        var fanned = OutputChoice(primary: FanOutput(main: choice.primary, followers: followers, feed: feed),
                                  fallback: choice.fallback.map { FanOutput(main: $0, followers: followers, feed: feed) })
        fanned.notice = choice.notice
        return fanned
    }

    /// A Snapcast output to `device` (snapserver's pipe, or `tcp://HOST:PORT`). A path that is
    /// there and is not a named pipe is refused: a user's file is never written into.
    static func snapcast(_ device: String?, setup: OutputSetup, named label: String = "-a") throws(OutputError) -> SnapcastOutput {
        let destination = try SnapcastOutput.Destination.parse(device).get()
        if case .pipe(let path) = destination, case .success(let status) = FileSystem.status(of: path), status.kind != .fifo {
            throw OutputError(message: "\(label) \(path): \(OutboundPipe.Failure.notAPipe)")
        }
        return SnapcastOutput(destination: destination, setup: setup.snapcast)
    }

    /// An Icecast output to the settings' mount.
    static func icecast(_ setup: OutputSetup) throws(OutputError) -> IcecastOutput {
        guard let mount = setup.icecast.mount else {
            throw OutputError(message: "-o icecast: set where to broadcast in the settings: icecast = http://source:PASSWORD@HOST:PORT/MOUNT")
        }
        return IcecastOutput(mount: mount, setup: setup.icecast)
    }
}
