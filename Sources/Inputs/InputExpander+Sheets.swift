import Files
import PlayerCore

/// CUE sheets: one entry per track, each the span of its image file that the sheet gives
/// (`CueSheet`), named by the sheet (its `TITLE`, `PERFORMER`, the album) rather than by the
/// image's own tags.
///
/// In a folder, a sheet stands for the image files it names, as cmus lists it: the folder gives
/// the sheet's tracks (where the sheet sorts) and not `album.flac` a second time. An image that
/// no good track of any sheet plays (the sheet is broken, or it names another file) is listed as
/// usual; an image claimed by an earlier sheet of the folder (`album.cue` and a copy
/// `CDImage.cue`) is not listed again by a later one.
extension InputExpander {
    /// The sheet at `path`: its tracks whose image exists, in sheet order.
    mutating func addSheet(_ path: Path, from place: SourceLocation?) {
        guard let sheet = readSheet(path, from: place) else { return }
        for entry in entries(of: sheet, at: path, checked: checksEntries).entries { append(entry) }
    }

    /// The sheets among a folder's `items` (sorted), read: the entries each gives (by its name)
    /// and the names of the image files they stand for.
    mutating func folderSheets(_ items: [FileSystem.DirectoryItem], in folder: Path, place: SourceLocation?)
        -> (tracks: [Path: [Entry]], images: Set<Path>)
    {
        var tracks: [Path: [Entry]] = [:]
        var images = Set<Path>()
        for item in items where !item.isDirectory && item.problem == nil && CueSheet.isSheet(item.name) {
            if isCancelled() { break }
            let path = folder.appending(item.name)
            guard let sheet = readSheet(path, from: place) else { continue }
            // Existence is checked here (one call per image): a missing image is said, not listed.
            let read = entries(of: sheet, at: path, checked: true, claimed: images)
            tracks[item.name] = read.entries
            images.formUnion(read.images)
        }
        return (tracks, images)
    }

    /// Reads and parses the sheet at `path` (refusing a binary or huge file), its problems said.
    private mutating func readSheet(_ path: Path, from place: SourceLocation?) -> CueSheet? {
        playlists.append(path)
        switch files.readAll(path, limit: CueSheet.maxBytes) {
        case .failure(let error):
            let reason = error == .tooLarge(limit: CueSheet.maxBytes) ? "\(error); is it really a CUE sheet?" : "\(error)"
            report(place, place == nil ? reason : "cannot read CUE sheet \(path): \(reason)", about: path)
            return nil
        case .success(let read):
            let sheet: CueSheet
            switch CueSheet.read(read, file: "\(path)") {
            case .success(let parsed): sheet = parsed
            case .failure(let what):
                report(place, place == nil ? "\(what)" : "\(path): \(what)", about: path)
                return nil
            }
            problems += sheet.problems
            if sheet.tracks.isEmpty, sheet.problems.isEmpty {
                report(place, place == nil ? "no tracks in it" : "\(path): no tracks in it", about: path)
            }
            return sheet
        }
    }

    /// The entries `sheet` (read from `path`) gives, its image files resolved against its
    /// folder; with `checked`, an image that does not exist is said once, at its `FILE` line,
    /// and its tracks left out. `images`: the bare names (in the folder) of the images played;
    /// those in `claimed` are not.
    private mutating func entries(of sheet: CueSheet, at path: Path, checked: Bool, claimed: Set<Path> = [])
        -> (entries: [Entry], images: Set<Path>)
    {
        let folder = path.directory
        var entries: [Entry] = []
        var images = Set<Path>()
        var missing = Set<Path>()
        var found = Set<Path>()
        for track in sheet.tracks {
            let bare = !track.file.bytes.contains(UInt8(ascii: "/"))
            if bare, claimed.contains(track.file) { continue }
            let image = resolve(track.file, against: folder)
            if missing.contains(image) { continue }
            if checked, !found.contains(image) {
                if case .failure(let error) = files.status(of: image) {
                    missing.insert(image)
                    problems.append(Diagnostic(track.fileLocation, "\(error.reason): \(track.file)"))
                    continue
                }
                found.insert(image)
            }
            if bare { images.insert(track.file) }
            var entry = Entry(path: image, title: track.title, origin: track.location)
            entry.span = track.span
            entry.sheetTags = sheet.tags(of: track)
            entry.sheet = path
            entries.append(entry)
        }
        return (entries, images)
    }
}
