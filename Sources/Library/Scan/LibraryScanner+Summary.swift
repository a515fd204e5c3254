extension LibraryScanner.Summary {
    /// "10,000 songs, 1,000 albums, 109 artists in 1.4 s (10,000 read); 3 files could not be
    /// read: see tplayer --scan --verbose".
    public func line(seconds: Double, verbose: Bool) -> String {
        func count(_ number: Int, _ one: String, _ many: String) -> String { "\(number.grouped) \(number == 1 ? one : many)" }
        var line = [count(counts.songs, "song", "songs"), count(counts.albums, "album", "albums"),
                    count(counts.artists, "artist", "artists")].joined(separator: ", ")
        line += " in \((seconds * 10).rounded() / 10) s"
        var changes = ["\(read.grouped) read"]
        if unchanged > 0 { changes.append("\(unchanged.grouped) unchanged") }
        if removed > 0 { changes.append("\(removed.grouped) taken out (gone)") }
        if moved > 0 { changes.append("\(moved.grouped) moved, their plays and ratings kept") }
        line += " (" + changes.joined(separator: ", ") + ")"
        if cancelled { line += "; stopped before the end: what was read is kept" }
        if !failures.isEmpty {
            line += "; \(count(failures.count, "file", "files")) could not be read" + (verbose ? "" : ": see tplayer --scan --verbose")
        }
        return line
    }
}

extension Int {
    /// 10000 as "10,000".
    var grouped: String {
        let digits = String(magnitude)
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return self < 0 ? "-" + text : text
    }
}
