import PlayerCore

/// A CUE sheet's track named as a path, as MPD names it: `Music/Kind of Blue.cue/track0002`.
/// The library holds each track of a sheet under such a path (a sheet's image is one file of
/// many songs), `--find` prints it, and every door a path comes in by plays it: the sheet read
/// again when it is opened (what is opened is checked: the sheet, then its image).
public enum CueTrackPath {
    /// The path of track `number` of the sheet at `sheet`.
    public static func path(sheet: Path, track number: Int) -> Path {
        let digits = String(number)
        return sheet.appending(Path("track" + String(repeating: "0", count: max(4 - digits.count, 0)) + digits))
    }

    /// The sheet and the track number `path` names, when it names one (`…/x.cue/track0002`).
    public static func parse(_ path: Path) -> (sheet: Path, track: Int)? {
        let name = path.lastComponent.bytes
        guard name.count > 5, name.count <= 9, name.starts(with: Array("track".utf8)),
              name.dropFirst(5).allSatisfy({ (48...57).contains($0) }),
              let number = Int(String(decoding: name.dropFirst(5), as: UTF8.self)), (1...99).contains(number) else { return nil }
        let sheet = path.directory
        guard CueSheet.isSheet(sheet) else { return nil }
        return (sheet, number)
    }

    /// A sheet's track, found: its image file, where it lies in it, what the sheet names it.
    public struct Track: Sendable {
        public var image: Path
        public var span: TrackSpan
        public var tags: SongInfo.Tags
        /// The sheet's `PERFORMER`: the album's artist.
        public var albumArtist: String?
    }

    /// The track `path` names, read from its sheet; why not, in a line, when it cannot be.
    public static func resolve(_ path: Path) -> Result<Track, LoadFailure>? {
        guard let (sheetPath, number) = parse(path) else { return nil }
        switch sheet(at: sheetPath) {
        case .failure(let reason): return .failure(.notReadable("its CUE sheet: \(reason)"))
        case .success(let sheet):
            guard let track = tracks(of: sheet, at: sheetPath).first(where: { $0.number == number })?.track else {
                return .failure(.notReadable("its CUE sheet has no track \(number)"))
            }
            return .success(track)
        }
    }

    /// The sheet at `path`, read as every door reads one (`CueSheet.read`); why not, when it
    /// cannot be.
    public static func sheet(at path: Path) -> Result<CueSheet, LoadFailure> {
        switch FileSystem.readAll(path, limit: CueSheet.maxBytes) {
        case .success(let bytes): CueSheet.read(bytes, file: "\(path)").mapError { .notReadable("\($0)") }
        case .failure(let error): .failure(.notReadable("\(error)"))
        }
    }

    /// The sheet's tracks with their numbers and paths, images resolved against its folder.
    public static func tracks(of sheet: CueSheet, at sheetPath: Path) -> [(number: Int, path: Path, track: Track)] {
        sheet.tracks.map { track in
            let image = FileSystem.resolve(track.file, against: sheetPath.directory, exists: FileSystem.exists)
            return (track.number, path(sheet: sheetPath, track: track.number),
                    Track(image: image, span: track.span, tags: sheet.tags(of: track), albumArtist: sheet.performer))
        }
    }
}

extension FileSystem {
    /// A path as a list writes it (a playlist's entry, a sheet's `FILE`), against the list's
    /// folder; a name that is not UTF-8 (Latin-1, as Windows programs write it) as the UTF-8 name
    /// it stands for, when only that one is there.
    public static func resolve(_ written: Path, against folder: Path, exists: (Path) -> Bool) -> Path {
        let path = written.resolved(against: folder)
        if path.text == nil, !exists(path), let renamed = written.latin1AsUTF8?.resolved(against: folder), exists(renamed) {
            return renamed
        }
        return path
    }
}
