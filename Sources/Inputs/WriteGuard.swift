import Files
import PlayerCore

/// Decides whether `-w PATH` may be written, before anything is created or changed.
///
/// `-w` writes decoded audio, so its path must never be a song, a playlist or a script: not by
/// its name (`tplayer -w a.mp3 b.mp3` is a forgotten output name, and writing would destroy
/// a.mp3), and not by identity (a hard link, a symbolic link, `./b.mp3`, or a file a playlist or a
/// folder leads to). Both hold even with `--force`; `--force` only allows replacing some other
/// existing file.
public enum WriteGuard {
    /// Names `-w` refuses whatever `--force` says: audio, playlists and scripts.
    public static let inputExtensions: [String: String] = [
        "mp3": "song", "mp2": "song", "mp1": "song", "mpga": "song",
        "m3u": "playlist", "m3u8": "playlist", "pls": "playlist", "tps": "script",
    ]

    /// Why writing to `output` must be refused, as one line (without the `tplayer: ` prefix);
    /// `nil` when it may be written. `inputs` are the paths as typed; `reads` is everything
    /// the run reads: the inputs, the playlists and script read, the songs they lead to.
    public static func refusal(output: Path, overwrite: Bool, inputs: [Path], reads: [Path]) -> Refusal? {
        if let ext = output.lowercasedExtension, let kind = inputExtensions[ext] {
            guard FileSystem.exists(output) else {
                return .usage("-w \(output): tplayer writes WAV, AU or raw audio, not .\(ext); name the output e.g. out.wav")
            }
            // `-w a.mp3 b.mp3` means a.mp3 was meant as an input too, unless it is one already.
            let meant = inputs.contains(output) ? inputs : [output] + inputs
            return .usage("-w \(output): that is a \(kind), not an output file, and writing would destroy it; "
                + "did you forget the output name? e.g. tplayer -w out.wav " + preview(meant))
        }
        guard case .success(let target) = FileSystem.status(of: output) else { return nil }
        if let read = reads.first(where: { (try? FileSystem.status(of: $0).get().id) == target.id }) {
            return .usage("-w \(output): that is the same file as the input \(read); writing would destroy it: "
                + "name a new file, e.g. tplayer -w out.wav" + (inputs.isEmpty ? "" : " " + preview(inputs)))
        }
        if !overwrite {
            return .exists("\(output): file exists; add --force to overwrite it")
        }
        return nil
    }

    /// Why `-w` is refused: a mistake in the command line (exit 64), or an existing file that
    /// `--force` may replace (exit 1).
    public enum Refusal: Equatable, Sendable {
        case usage(String)
        case exists(String)

        public var message: String {
            switch self {
            case .usage(let message), .exists(let message): message
            }
        }
    }

    /// The first few inputs, for a suggested command line.
    private static func preview(_ inputs: [Path]) -> String {
        inputs.prefix(3).map { "\($0)" }.joined(separator: " ") + (inputs.count > 3 ? " ..." : "")
    }
}
