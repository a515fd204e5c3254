import Files
import PlayerCore

extension ParserChecks {
    /// MPD's protocol read from a client's bytes: never a trap; read in two pieces (split where
    /// the input's first byte says) it reads as read whole; every answer is `OK` or one `ACK`
    /// line at its end, with no other control character; every request read is read again the
    /// same from its arguments quoted back.
    public static func mpdBytes(_ bytes: [UInt8]) -> [String] {
        var broken: [String] = []
        let input = Array(bytes.dropFirst())
        let split = bytes.first.map { Int($0) * input.count / 256 } ?? 0
        var whole = MpdConnection()
        var pieces = MpdConnection()
        let steps = whole.receive(input)
        var inPieces = pieces.receive(input[..<split])
        if !inPieces.contains(.close) { inPieces += pieces.receive(input[split...]) }  // a server closes it there
        if inPieces != steps {
            broken.append("read in two pieces, it reads otherwise")
        }
        for case .run(let batch) in steps {
            var requests: [MpdRequest] = []
            let (text, _) = MpdConnection.answer(batch) { _, request in
                requests.append(request)
                return requests.count % 3 == 0 ? .failure(MpdAck(.argument, "a failure")) : .success("")
            }
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            guard lines.last == "", lines.dropLast().allSatisfy({ $0 == "list_OK" || $0 == "OK" || $0.hasPrefix("ACK [") }),
                  lines.dropLast().last.map({ $0 == "OK" || $0.hasPrefix("ACK [") }) == true else {
                broken.append("an answer is not list_OKs then OK or one ACK: \(text.debugDescription.prefix(200))")
                continue
            }
            if text.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\n" }) { broken.append("an answer holds a control character") }
            for request in requests {
                request.arguments.forEach { broken += mpdArgument($0) }
                broken += mpdFilter(request.arguments)
                let quoted = request.name + request.arguments.map { argument in
                    " \"" + argument.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
                }.joined()
                if case .success(let again) = MpdRequest.parse(Array(quoted.utf8)), again == request { continue }
                broken.append("\(request) does not read back from its arguments quoted")
            }
        }
        return broken
    }

    /// A song every filter is tried on (and a second, other in each thing a filter asks).
    struct Song: MpdFilterable {
        var uri = "Artist/Album/01 Song.flac"
        var tags: [MpdTag: [String]] = [.artist: ["Artist", "Ärtist"], .title: ["Song (live)"]]
        func values(of tag: MpdTag) -> [String] { tags[tag] ?? [] }
        var allValues: [String] { MpdTag.allCases.flatMap(values(of:)) }
        var modified: Int64 = 1_700_000_000
        var audioFormat: (rate: Int, bits: Int?, channels: Int)? { (44100, nil, 2) }

        static let other = Song(uri: "Other/x.mp3", tags: [.albumArtist: ["Someone"], .date: ["1999"], .title: ["SONG"]], modified: 0)
    }

    /// Songs picked from by their places.
    struct Songs: MpdFilterableSongs {
        let songs: [Song]
        var count: Int { songs.count }
        func uri(_ index: Int) -> String { songs[index].uri }
        func modified(_ index: Int) -> Int64 { songs[index].modified }
        func audioFormat(_ index: Int) -> (rate: Int, bits: Int?, channels: Int)? { songs[index].audioFormat }
        func anyBytes(_ index: Int, of tag: MpdTag?, _ test: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
            songs[index].anyBytes(of: tag, test)
        }
    }

    /// A client's arguments read as a filter, as `find` and `search` read them: never a trap;
    /// one read is matched on a song without one; a refusal is one line.
    static func mpdFilter(_ arguments: [String]) -> [String] {
        var broken: [String] = []
        let patterns = PosixPatterns()
        for foldCase in [false, true] {
            switch MpdFilter.parse(arguments, foldCase: foldCase, patterns: patterns) {
            case .success(let filter):
                // Picked from a list, each term on what the terms before it passed, the songs
                // are those that each match alone.
                let songs = [Song(), Song.other, Song()]
                let alone = songs.indices.filter { filter.matches(songs[$0], patterns) }
                if filter.select(Songs(songs: songs), patterns) != alone { broken.append("\(filter) picks otherwise than it matches") }
            case .failure(let problem):
                if problem.message.isEmpty || problem.message.contains("\n") { broken.append("a filter's refusal is not one line") }
            }
        }
        return broken
    }

    /// A client's argument read as each kind MPD reads: never a trap; a number within the
    /// bounds asked; a range that starts at 0 or later and ends no earlier; a refusal that
    /// names the argument, in one line.
    static func mpdArgument(_ text: String) -> [String] {
        var broken: [String] = []
        func refusal(_ ack: MpdAck) {
            if !ack.message.hasSuffix(": " + text) || ack.message.contains("\n") { broken.append("a refusal does not name \(text.debugDescription)") }
        }
        switch MpdArguments.int(text, in: -100, 100) {
        case .success(let value): if !(-100...100).contains(value) { broken.append("\(text.debugDescription) read as \(value), out of bounds") }
        case .failure(let ack): refusal(ack)
        }
        switch MpdArguments.unsigned(text, max: 1000) {
        case .success(let value): if !(0...1000).contains(value) { broken.append("\(text.debugDescription) read as \(value), out of bounds") }
        case .failure(let ack): refusal(ack)
        }
        switch MpdArguments.range(text) {
        case .success(let range):
            if range.start < 0 || (range.end.map { $0 < range.start } ?? false) { broken.append("\(text.debugDescription) read as \(range)") }
            _ = range.clamped(to: 10)
        case .failure(let ack): refusal(ack)
        }
        switch MpdArguments.songTime(text) {
        case .success(let seconds): if !(seconds >= 0 && seconds.isFinite) { broken.append("\(text.debugDescription) read as \(seconds)") }
        case .failure(let ack): refusal(ack)
        }
        if case .failure(let ack) = MpdArguments.bool(text) { refusal(ack) }
        return broken
    }
}
