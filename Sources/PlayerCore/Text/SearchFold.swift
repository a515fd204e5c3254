/// Text as a search compares it: lower case, without accents, as UTF-8 bytes, so that `/beyonce`
/// finds "Beyoncé" and `/SIGUR` finds "Sigur Rós" (cmus and mpv search case-insensitively too).
///
/// Accents are taken off the Latin letters (Latin-1, Extended-A and -B, Extended Additional:
/// what music tags hold) by a table made with Python's `unicodedata` (NFD, combining marks
/// dropped, ß → ss, æ → ae, ø → o, ł → l, þ → th); combining marks typed or stored apart are
/// dropped too. Other scripts are compared as they are, in lower case.
public enum SearchFold {
    public static func fold(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        fold(text, into: &bytes)
        return bytes
    }

    /// Appends `text` folded to `bytes`. ASCII text (most names and paths) takes a fast path of
    /// its own: 100,000 entries are folded for the first search, while the user types.
    public static func fold(_ text: String, into bytes: inout [UInt8]) {
        var text = text
        let ascii = text.withUTF8 { foldASCII($0, into: &bytes) }
        guard !ascii else { return }
        foldScalars(text, into: &bytes)
    }

    /// Appends a path's bytes folded: as text where they are UTF-8, as they are where not.
    public static func fold(path bytes: [UInt8], into folded: inout [UInt8]) {
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
    public static func contains(_ haystack: ArraySlice<UInt8>, _ needle: [UInt8]) -> Bool {
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
