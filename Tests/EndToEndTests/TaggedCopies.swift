import Foundation

/// One song tagged the way Picard saves it, by mutagen (the library Picard writes tags with):
/// an ID3v2.3 copy and an ID3v2.4 copy for each form of date v2.4's TDRC takes (`1995`,
/// `1995-03`, `1995-03-13`), named `v23-DATE.mp3` and `v24-DATE.mp3`, every field the library
/// keeps set; and `several.mp3`, ID3v2.4 with several values in a frame and a genre by number.
///
/// mutagen writes v2.3 as Picard does: the date in TYER and TDAT (DDMM), the original date in
/// TORY, `/` between several values.
enum TaggedCopies {
    static let script = #"""
        import shutil, sys
        from mutagen.id3 import ID3, TIT2, TPE1, TPE2, TALB, TDRC, TDOR, TCON, TRCK, TPOS, TCOM, TCMP, TXXX, COMM
        source, folder = sys.argv[1], sys.argv[2]
        def write(name, version, date, artists=["Björk"], genres=["Electronic"], composers=["Björk"]):
            path = f"{folder}/{name}.mp3"
            shutil.copy(source, path)
            tag = ID3()
            tag.add(TIT2(encoding=3, text=["Isobel"]))
            tag.add(TPE1(encoding=3, text=artists))
            tag.add(TPE2(encoding=3, text=["Björk"]))
            tag.add(TALB(encoding=3, text=["Post"]))
            tag.add(TDRC(encoding=3, text=[date]))
            tag.add(TDOR(encoding=3, text=["1994-11-02"]))
            tag.add(TCON(encoding=3, text=genres))
            tag.add(TRCK(encoding=3, text=["3/11"]))
            tag.add(TPOS(encoding=3, text=["1/2"]))
            tag.add(TCOM(encoding=3, text=composers))
            tag.add(TCMP(encoding=3, text=["1"]))
            tag.add(COMM(encoding=3, lang="eng", desc="", text=["mixed at Compass Point"]))
            tag.add(TXXX(encoding=3, desc="replaygain_track_gain", text=["-6.50 dB"]))
            tag.add(TXXX(encoding=3, desc="replaygain_album_gain", text=["-7.25 dB"]))
            if version == 3:
                tag.update_to_v23()
            tag.save(path, v2_version=version, v23_sep="/")
        for date in ("1995", "1995-03", "1995-03-13"):
            write(f"v23-{date}", 3, date)
            write(f"v24-{date}", 4, date)
        write("several", 4, "1995-03-13", artists=["Björk", "Nellee Hooper"], genres=["17", "Pop"],
              composers=["Björk", "Marius de Vries"])
        """#

    static let dates = ["1995", "1995-03", "1995-03-13"]

    /// Writes the copies of the MP3 `source` into `folder` (made if missing).
    static func write(from source: String, into folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let made = try Harness.run("/usr/bin/python3", ["-c", script, source, folder.path])
        guard made.status == 0 else { throw HarnessError.failed("mutagen could not tag the copies: \(made.stderr)") }
    }
}
