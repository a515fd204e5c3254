/// Text as a search compares it: lower case, without accents, as UTF-8 bytes, so that `/beyonce`
/// finds "Beyoncé" and `/SIGUR` finds "Sigur Rós" (cmus and mpv search case-insensitively too).
///
/// Accents are taken off the Latin letters (Latin-1, Extended-A and -B, Extended Additional:
/// what music tags hold) by a table made with Python's `unicodedata` (NFD, combining marks
/// dropped, ß → ss, æ → ae, ø → o, ł → l, þ → th); combining marks typed or stored apart are
/// dropped too. Other scripts are compared as they are, in lower case.
enum SearchFold {
    static func fold(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        fold(text, into: &bytes)
        return bytes
    }

    /// Appends `text` folded to `bytes`. ASCII text (most names and paths) takes a fast path of
    /// its own: 100,000 entries are folded for the first search, while the user types.
    static func fold(_ text: String, into bytes: inout [UInt8]) {
        var text = text
        let ascii = text.withUTF8 { foldASCII($0, into: &bytes) }
        guard !ascii else { return }
        foldScalars(text, into: &bytes)
    }

    /// Appends a path's bytes folded: as text where they are UTF-8, as they are where not.
    static func fold(path bytes: [UInt8], into folded: inout [UInt8]) {
        let ascii = bytes.withUnsafeBufferPointer { foldASCII($0, into: &folded) }
        guard !ascii else { return }
        foldScalars(String(decoding: bytes, as: UTF8.self), into: &folded)
    }

    /// ASCII bytes lowered and appended; false (nothing appended) when any is not ASCII.
    private static func foldASCII(_ utf8: UnsafeBufferPointer<UInt8>, into bytes: inout [UInt8]) -> Bool {
        for byte in utf8 where byte >= 0x80 { return false }
        bytes.reserveCapacity(bytes.count + utf8.count)
        for byte in utf8 { bytes.append(byte >= 65 && byte <= 90 ? byte + 32 : byte) }
        return true
    }

    private static func foldScalars(_ text: String, into bytes: inout [UInt8]) {
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                let value = UInt8(scalar.value)
                bytes.append(value >= 65 && value <= 90 ? value + 32 : value)
            } else if let base = table[scalar.value] {
                bytes.append(contentsOf: base.utf8)
            } else if scalar.properties.generalCategory == .nonspacingMark {
                continue
            } else {
                bytes.append(contentsOf: scalar.properties.lowercaseMapping.utf8)
            }
        }
    }

    /// Whether `needle` occurs in `haystack` (both folded).
    static func contains(_ haystack: ArraySlice<UInt8>, _ needle: [UInt8]) -> Bool {
        guard let first = needle.first else { return true }
        guard haystack.count >= needle.count else { return false }
        return haystack.withUnsafeBufferPointer { hay in
            needle.withUnsafeBufferPointer { pin in
                var start = 0
                let last = hay.count - pin.count
                while start <= last {
                    if hay[start] == first {
                        var index = 1
                        while index < pin.count && hay[start + index] == pin[index] { index += 1 }
                        if index == pin.count { return true }
                    }
                    start += 1
                }
                return false
            }
        }
    }

    /// The accented letters, and what each is searched as (in the same order).
    private static let table: [UInt32: String] = {
        let letters = Array(accented.unicodeScalars)
        let bases = plain.split(separator: " ").map(String.init)
        precondition(letters.count == bases.count)
        return Dictionary(uniqueKeysWithValues: zip(letters.map(\.value), bases))
    }()

    private static let accented = """
        ÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖØÙÚÛÜÝÞßàáâãäåæçèéêëìíîïðñòóôõöøùúûüý\
        þÿĀāĂăĄąĆćĈĉĊċČčĎďĐđĒēĔĕĖėĘęĚěĜĝĞğĠġĢģĤĥĨĩĪīĬĭĮįİıĴĵĶķĹĺĻļĽľ\
        ŁłŃńŅņŇňŌōŎŏŐőŒœŔŕŖŗŘřŚśŜŝŞşŠšŢţŤťŨũŪūŬŭŮůŰűŲųŴŵŶŷŸŹźŻżŽžƠơƯ\
        ưǍǎǏǐǑǒǓǔǕǖǗǘǙǚǛǜǞǟǠǡǦǧǨǩǪǫǬǭǰǴǵǸǹǺǻȀȁȂȃȄȅȆȇȈȉȊȋȌȍȎȏȐȑȒȓȔȕȖȗ\
        ȘșȚțȞȟȦȧȨȩȪȫȬȭȮȯȰȱȲȳḀḁḂḃḄḅḆḇḈḉḊḋḌḍḎḏḐḑḒḓḔḕḖḗḘḙḚḛḜḝḞḟḠḡḢḣḤḥḦḧ\
        ḨḩḪḫḬḭḮḯḰḱḲḳḴḵḶḷḸḹḺḻḼḽḾḿṀṁṂṃṄṅṆṇṈṉṊṋṌṍṎṏṐṑṒṓṔṕṖṗṘṙṚṛṜṝṞṟṠṡṢṣ\
        ṤṥṦṧṨṩṪṫṬṭṮṯṰṱṲṳṴṵṶṷṸṹṺṻṼṽṾṿẀẁẂẃẄẅẆẇẈẉẊẋẌẍẎẏẐẑẒẓẔẕẖẗẘẙẠạẢảẤấ\
        ẦầẨẩẪẫẬậẮắẰằẲẳẴẵẶặẸẹẺẻẼẽẾếỀềỂểỄễỆệỈỉỊịỌọỎỏỐốỒồỔổỖỗỘộỚớỜờỞởỠỡ\
        ỢợỤụỦủỨứỪừỬửỮữỰựỲỳỴỵỶỷỸỹ
        """
    private static let plain = """
        a a a a a a ae c e e e e i i i i d n o o o o o o u u u u y th ss a a a a a a ae c e \
        e e e i i i i d n o o o o o o u u u u y th y a a a a a a c c c c c c c c d d d d \
        e e e e e e e e e e g g g g g g g g h h i i i i i i i i i i j j k k l l l l l l \
        l l n n n n n n o o o o o o oe oe r r r r r r s s s s s s s s t t t t u u u u u u \
        u u u u u u w w y y y z z z z z z o o u u a a i i o o u u u u u u u u u u a a a \
        a g g k k o o o o j g g n n a a a a a a e e e e i i i i o o o o r r r r u u u u \
        s s t t h h a a e e o o o o o o o o y y a a b b b b b b c c d d d d d d d d d d \
        e e e e e e e e e e f f g g h h h h h h h h h h i i i i k k k k k k l l l l l l \
        l l m m m m m m n n n n n n n n o o o o o o o o p p p p r r r r r r r r s s s s \
        s s s s s s t t t t t t t t u u u u u u u u u u v v v v w w w w w w w w w w x x \
        x x y y z z z z z z h t w y a a a a a a a a a a a a a a a a a a a a a a a a e e \
        e e e e e e e e e e e e e e i i i i o o o o o o o o o o o o o o o o o o o o o o \
        o o u u u u u u u u u u u u u u y y y y y y y y
        """
}

/// Every entry's folded text for the list view's search, in chunks: 16 bytes an entry and its
/// text's bytes (a list of 100,000 held 13 MB as an array an entry), and nothing held is ever
/// copied to grow (a new chunk is begun when the last is full). A text made again (its tags
/// known since) is put at the end, and the old one left behind is taken back once it is half
/// of what is held.
struct FoldedTexts {
    /// The list's `edits` the texts were made for.
    private(set) var edits = -1
    private var chunks: [[UInt8]] = []
    private var slots: [Slot] = []
    private var held = 0
    private var unused = 0
    /// Entries whose text is not made yet.
    private(set) var missing = 0

    static let chunkSize = 256 << 10

    private struct Slot {
        /// Where its text is: a chunk (`.max`: not made) and a place in it.
        var chunk: UInt32 = .max
        var offset: UInt32 = 0
        var count: UInt32 = 0
        /// How many songs' tags were known when it was made without its own; `.max`: its own
        /// were known (never made again).
        var known: UInt32 = .max
    }

    /// What is known of an entry's text.
    enum State {
        case notMade
        case made(ArraySlice<UInt8>)
        /// Made without its tags, when fewer songs' tags were known than now.
        case madeBeforeMoreWereKnown(ArraySlice<UInt8>)
    }

    init() {}

    init(edits: Int, count: Int) {
        self.edits = edits
        slots = Array(repeating: Slot(), count: count)
        missing = count
    }

    var count: Int { slots.count }

    func isMade(_ entry: Int) -> Bool { slots[entry].chunk != .max }

    private func text(_ slot: Slot) -> ArraySlice<UInt8> {
        chunks[Int(slot.chunk)][Int(slot.offset)..<(Int(slot.offset) + Int(slot.count))]
    }

    func state(of entry: Int, known: Int) -> State {
        let slot = slots[entry]
        guard slot.chunk != .max else { return .notMade }
        return slot.known == .max || slot.known == Self.counted(known) ? .made(text(slot)) : .madeBeforeMoreWereKnown(text(slot))
    }

    private static func counted(_ known: Int) -> UInt32 { UInt32(clamping: min(known, Int(UInt32.max - 1))) }

    /// The text made before is still the entry's with `known` songs' tags known.
    mutating func checked(_ entry: Int, known: Int) {
        slots[entry].known = Self.counted(known)
    }

    /// Keeps `text` as the entry's; `known`: how many songs' tags were known, when its own were
    /// not. Returns the text as kept.
    mutating func store(_ entry: Int, _ text: [UInt8], known: Int?) -> ArraySlice<UInt8> {
        if slots[entry].chunk != .max {
            unused += Int(slots[entry].count)
        } else {
            missing -= 1
        }
        slots[entry] = put(text[...])
        slots[entry].known = known.map(Self.counted) ?? .max
        if unused > 65_536, unused > held / 2 { compact() }
        return self.text(slots[entry])
    }

    /// `text` put at the end of the last chunk (or of a new one), and where it is.
    private mutating func put(_ text: ArraySlice<UInt8>) -> Slot {
        if chunks.isEmpty || (!chunks[chunks.count - 1].isEmpty && chunks[chunks.count - 1].count + text.count > Self.chunkSize) {
            chunks.append([])
        }
        let last = chunks.count - 1
        let slot = Slot(chunk: UInt32(last), offset: UInt32(chunks[last].count), count: UInt32(text.count))
        chunks[last] += text
        held += text.count
        return slot
    }

    /// Takes back the bytes of texts made again.
    private mutating func compact() {
        let old = chunks
        chunks = []
        held = 0
        for index in slots.indices where slots[index].chunk != .max {
            let slot = slots[index]
            var moved = put(old[Int(slot.chunk)][Int(slot.offset)..<(Int(slot.offset) + Int(slot.count))])
            moved.known = slot.known
            slots[index] = moved
        }
        unused = 0
    }
}
