/// How ID3v2 keeps text, read the same whatever version wrote it: ID3v2.4's several values in one
/// frame (NUL between them), its genres by number (`17`) and v2.3's (`(17)`, `(17)Rock & Roll`),
/// and the date in v2.4's TDRC or v2.3's TYER and TDAT.
extension SongInfo.ID3 {
    /// The ID3v1 genres (the original 80 and Winamp's additions up to 147).
    public static let genres: [String] = [
        "Blues", "Classic Rock", "Country", "Dance", "Disco", "Funk", "Grunge", "Hip-Hop", "Jazz", "Metal",
        "New Age", "Oldies", "Other", "Pop", "R&B", "Rap", "Reggae", "Rock", "Techno", "Industrial",
        "Alternative", "Ska", "Death Metal", "Pranks", "Soundtrack", "Euro-Techno", "Ambient", "Trip-Hop", "Vocal", "Jazz+Funk",
        "Fusion", "Trance", "Classical", "Instrumental", "Acid", "House", "Game", "Sound Clip", "Gospel", "Noise",
        "AlternRock", "Bass", "Soul", "Punk", "Space", "Meditative", "Instrumental Pop", "Instrumental Rock", "Ethnic", "Gothic",
        "Darkwave", "Techno-Industrial", "Electronic", "Pop-Folk", "Eurodance", "Dream", "Southern Rock", "Comedy", "Cult", "Gangsta",
        "Top 40", "Christian Rap", "Pop/Funk", "Jungle", "Native American", "Cabaret", "New Wave", "Psychadelic", "Rave", "Showtunes",
        "Trailer", "Lo-Fi", "Tribal", "Acid Punk", "Acid Jazz", "Polka", "Retro", "Musical", "Rock & Roll", "Hard Rock",
        "Folk", "Folk-Rock", "National Folk", "Swing", "Fast Fusion", "Bebob", "Latin", "Revival", "Celtic", "Bluegrass",
        "Avantgarde", "Gothic Rock", "Progressive Rock", "Psychedelic Rock", "Symphonic Rock", "Slow Rock", "Big Band", "Chorus", "Easy Listening", "Acoustic",
        "Humour", "Speech", "Chanson", "Opera", "Chamber Music", "Sonata", "Symphony", "Booty Bass", "Primus", "Porn Groove",
        "Satire", "Slow Jam", "Club", "Tango", "Samba", "Folklore", "Ballad", "Power Ballad", "Rhythmic Soul", "Freestyle",
        "Duet", "Punk Rock", "Drum Solo", "A capella", "Euro-House", "Dance Hall", "Goa", "Drum & Bass", "Club-House", "Hardcore",
        "Terror", "Indie", "BritPop", "Negerpunk", "Polsk Punk", "Beat", "Christian Gangsta Rap", "Heavy Metal", "Black Metal", "Crossover",
        "Contemporary Christian", "Christian Rock", "Merengue", "Salsa", "Thrash Metal", "Anime", "JPop", "Synthpop",
    ]

    /// A frame's values: ID3v2.4 puts NUL between several (`Björk\0Nellee Hooper`); empty ones go.
    /// (ID3v2.3's `/` is left alone: it is as often part of a name, `AC/DC`, as between two.)
    public static func values(_ text: String?) -> [String] {
        guard let text else { return [] }
        return text.split(separator: "\0").map(String.init).filter { !$0.isEmpty }
    }

    /// TCON's genres by name: ID3v2.4's numbers (`17` is Rock), ID3v2.3's references (`(17)`,
    /// `(4)(17)`, `(RX)` Remix, `(CR)` Cover) with the text after them refining the last one
    /// (`(17)Rock & Roll` is Rock & Roll), `((` a plain `(`; a number past the list is kept as written.
    public static func genres(_ text: String?) -> [String] {
        var names: [String] = []
        for value in values(text) {
            for name in genreNames(value) where !names.contains(name) { names.append(name) }
        }
        return names
    }

    private static func genreNames(_ value: String) -> [String] {
        func named(_ reference: Substring) -> String? {
            switch reference {
            case "RX": return "Remix"
            case "CR": return "Cover"
            default:
                guard (1...3).contains(reference.count), reference.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
                return genres[safe: Int(reference) ?? -1]
            }
        }
        if let name = named(Substring(value)) { return [name] }
        var names: [String] = []
        var rest = Substring(value)
        while rest.hasPrefix("("), !rest.hasPrefix("(("), let close = rest.firstIndex(of: ")"),
              let name = named(rest[rest.index(after: rest.startIndex)..<close]) {
            names.append(name)
            rest = rest[rest.index(after: close)...]
        }
        if rest.hasPrefix("((") { rest = rest.dropFirst() }
        var refinement = rest.drop { $0 == " " }
        while refinement.last == " " { refinement = refinement.dropLast() }
        if !refinement.isEmpty {
            if !names.isEmpty { names.removeLast() }
            names.append(String(refinement))
        }
        return names
    }
}

extension SongInfo.ID3.V2 {
    /// The text of the plain frame `id` (no description, no language), when it holds any.
    public func text(_ id: String) -> String? {
        frames.first { $0.id == id && $0.language == nil && $0.description == nil && !$0.text.isEmpty }?.text
    }

    /// The frame `id`'s values (see `SongInfo.ID3.values`).
    public func values(_ id: String) -> [String] {
        SongInfo.ID3.values(text(id))
    }

    /// The date as tagged: ID3v2.4's TDRC (`1995`, `1995-03`, `1995-03-13`), else ID3v2.3's TYER
    /// with TDAT's day and month (`1303` makes `1995-03-13`, the same date a v2.4 copy has), else
    /// the original date (v2.4's TDOR, v2.3's TORY) where there is no other.
    public var date: String? {
        if let recorded = values("TDRC").first { return recorded }
        if let year = SongInfo.ID3.values(year).first ?? values("TYER").first {
            let day = values("TDAT").first ?? ""
            let digits = year + day
            guard year.utf8.count == 4, day.utf8.count == 4, digits.utf8.allSatisfy({ (48...57).contains($0) }),
                  let dayNumber = Int(day.prefix(2)), (1...31).contains(dayNumber),
                  let month = Int(day.suffix(2)), (1...12).contains(month) else { return year }
            return "\(year)-\(day.suffix(2))-\(day.prefix(2))"
        }
        return values("TDOR").first ?? values("TORY").first
    }
}
