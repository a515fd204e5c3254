import Foundation
import Testing

/// Every bit a FLAC holds reaches the file `-w` writes: at 8, 12, 16, 20, 24 and 32 bits, in one
/// to eight channels, the file is byte for byte the one `flac -d` writes (header and samples);
/// a list keeps its first song's depth, later songs converted to it.
@Suite(.timeLimit(.minutes(10)))
struct HiResTests {
    /// A WAV of `frames` frames of a loud sweep at `bits` bits (left-justified in whole bytes, in
    /// WAVE_FORMAT_EXTENSIBLE when WAV asks for it), written here so that any depth can be made.
    static func wav(bits: Int, channels: Int, rate: Int = 48000, frames: Int = 24000) -> Data {
        let container = (bits + 7) / 8
        var samples: [UInt8] = []
        samples.reserveCapacity(frames * channels * container)
        let top = Double((1 << (bits - 1)) - 1)
        for frame in 0..<frames {
            let phase = 2 * Double.pi * (200 + 4000 * Double(frame) / Double(frames)) * Double(frame) / Double(rate)
            for channel in 0..<channels {
                let value = Int((0.9 * top * sin(phase + Double(channel))).rounded()) << (container * 8 - bits)
                if container == 1 {
                    samples.append(UInt8(truncatingIfNeeded: (value >> (8 - bits)) + 128) << (8 - bits))
                } else {
                    samples += (0..<container).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
                }
            }
        }
        let extensible = channels > 2 || bits > 16 || bits % 8 != 0
        func le(_ value: Int, _ bytes: Int) -> [UInt8] { (0..<bytes).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        var fmt = le(extensible ? 0xFFFE : 1, 2) + le(channels, 2) + le(rate, 4) + le(rate * channels * container, 4)
            + le(channels * container, 2) + le(container * 8, 2)
        if extensible {
            let masks = [1: 0x4, 2: 0x3, 3: 0x7, 4: 0x33, 5: 0x607, 6: 0x60F, 7: 0x70F, 8: 0x63F]
            fmt += le(22, 2) + le(bits, 2) + le(masks[channels] ?? 0, 4)
            fmt += [1, 0, 0, 0, 0, 0, 0x10, 0, 0x80, 0, 0, 0xAA, 0, 0x38, 0x9B, 0x71]
        }
        let body = Array("WAVEfmt ".utf8) + le(fmt.count, 4) + fmt + Array("data".utf8) + le(samples.count, 4) + samples
        return Data(Array("RIFF".utf8) + le(body.count, 4) + body)
    }

    /// A 24-bit stereo FLAC of `frames` frames of the sweep, encoded by flac: the WAV it was
    /// made from, and its path.
    static func deepFlac(in folder: URL, rate: Int, frames: Int) throws -> (wav: URL, flac: String) {
        let source = folder.appendingPathComponent("source.wav")
        try wav(bits: 24, channels: 2, rate: rate, frames: frames).write(to: source)
        let flac = folder.appendingPathComponent("deep.flac").path
        try Harness.run("/usr/bin/flac", ["-s", "-f", "-o", flac, source.path])
        return (source, flac)
    }

    /// Every depth and channel count, byte for byte `flac -d`'s file; an odd number of 8- or
    /// 24-bit samples (1,001 frames of mono) with the pad byte after the data chunk, counted in
    /// the RIFF size, as `flac -d` writes it.
    @Test(arguments: [(8, 1, 24000), (8, 2, 24000), (12, 2, 24000), (16, 2, 24000), (16, 6, 24000), (20, 2, 24000),
                      (24, 2, 24000), (24, 1, 24000), (24, 6, 24000), (32, 2, 24000), (24, 8, 24000), (8, 1, 1001), (24, 1, 1001)])
    func aFlacOfAnyDepthIsWrittenAsFlacDecodesIt(bits: Int, channels: Int, frames: Int) throws {
        let folder = try Harness.temporaryFolder()
        let source = folder.appendingPathComponent("source.wav")
        try Self.wav(bits: bits, channels: channels, frames: frames).write(to: source)
        let song = folder.appendingPathComponent("song.flac").path
        let encoded = try Harness.run("/usr/bin/flac", ["-s", "-f", "-o", song, source.path])
        try #require(encoded.status == 0, "flac: \(encoded.stderr)")
        let theirs = folder.appendingPathComponent("theirs.wav").path
        try Harness.run("/usr/bin/flac", ["-s", "-d", "-f", "-o", theirs, song])
        let ours = folder.appendingPathComponent("ours.wav").path
        let played = try Harness.tplayer("-q", "-w", ours, song)
        #expect(played.status == 0, "\(played.stderr)")
        let expected = try Data(contentsOf: URL(fileURLWithPath: theirs))
        let written = try Data(contentsOf: URL(fileURLWithPath: ours))
        #expect(written.count == expected.count, "\(bits) bits, \(channels) channels: \(written.count) bytes, flac -d \(expected.count)")
        #expect(written == expected, "\(bits) bits, \(channels) channels")
    }

    /// A 24-bit song first: the file is 24-bit, and a 16-bit MP3 after it goes in widened
    /// exactly (each of libmpg123's samples times 256), resampled to the first song's rate.
    @Test func aListKeepsItsFirstSongsDepth() throws {
        let folder = try Harness.temporaryFolder()
        let (source, deep) = try Self.deepFlac(in: folder, rate: 44100, frames: 44100)
        let mp3 = folder.appendingPathComponent("tone.mp3").path
        try Harness.run("/usr/bin/sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", "\(mp3).wav", "synth", "1", "sine", "440", "gain", "-6"])
        try Harness.run("/usr/bin/lame", ["--quiet", "-b", "128", "\(mp3).wav", mp3])
        let out = folder.appendingPathComponent("out.wav").path
        let played = try Harness.tplayer("-q", "-w", out, deep, mp3)
        #expect(played.status == 0, "\(played.stderr)")
        let theirs = folder.appendingPathComponent("theirs.wav").path
        try Harness.run("/usr/bin/mpg123", ["-q", "--resync-limit", "-1", "-w", theirs, mp3])
        let written = [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
        let flacSide = [UInt8](try Data(contentsOf: URL(fileURLWithPath: source.path)))
        let mpg123 = [UInt8](try Data(contentsOf: URL(fileURLWithPath: theirs))).dropFirst(44)
        #expect(written[20] == 0xFE && written[21] == 0xFF && written[34] == 24, "a 24-bit WAVE_FORMAT_EXTENSIBLE")
        let body = written.dropFirst(68)
        #expect(body.prefix(44100 * 6) == flacSide.dropFirst(68).prefix(44100 * 6), "the FLAC's own samples")
        let widened = stride(from: mpg123.startIndex, to: mpg123.endIndex - 1, by: 2).flatMap { index -> [UInt8] in
            [0, mpg123[index], mpg123[index + 1]]
        }
        #expect(Array(body.dropFirst(44100 * 6)) == widened, "the MP3's samples, each times 256")
    }
}

/// `--bits`: every song written in 16, 24 or 32 bits, whatever its own.
@Suite(.timeLimit(.minutes(10)))
struct BitsOptionTests {
    @Test func aDeepSongIsWrittenIn16BitsRoundedAsSoxDoes() throws {
        let folder = try Harness.temporaryFolder()
        let deep = try HiResTests.deepFlac(in: folder, rate: 48000, frames: 48000).flac
        let out = folder.appendingPathComponent("out.wav").path
        let played = try Harness.tplayer("-q", "--bits", "16", "-w", out, deep)
        #expect(played.status == 0, "\(played.stderr)")
        let theirs = folder.appendingPathComponent("sox.wav").path
        try Harness.run("/usr/bin/sox", [deep, "-b", "16", "-D", theirs])
        let written = [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
        let expected = [UInt8](try Data(contentsOf: URL(fileURLWithPath: theirs)))
        #expect(written.count == 44 + 48000 * 4 && written[34] == 16, "a 16-bit WAV, mpg123's header")
        #expect(written.dropFirst(44) == expected.suffix(48000 * 4), "sox -D's samples")
    }

    @Test func aSixteenBitSongIsWrittenIn24Or32BitsExactly() throws {
        let folder = try Harness.temporaryFolder()
        let mp3 = folder.appendingPathComponent("tone.mp3").path
        try Harness.run("/usr/bin/sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", "\(mp3).wav", "synth", "1", "sine", "440", "gain", "-6"])
        try Harness.run("/usr/bin/lame", ["--quiet", "-b", "128", "\(mp3).wav", mp3])
        let reference = folder.appendingPathComponent("mpg123.wav").path
        try Harness.run("/usr/bin/mpg123", ["-q", "--resync-limit", "-1", "-w", reference, mp3])
        let samples = [UInt8](try Data(contentsOf: URL(fileURLWithPath: reference))).dropFirst(44)
        for bits in [24, 32] {
            let out = folder.appendingPathComponent("out\(bits).wav").path
            let played = try Harness.tplayer("-q", "--bits", "\(bits)", "-w", out, mp3)
            #expect(played.status == 0, "\(played.stderr)")
            let written = [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
            #expect(written.count == 68 + samples.count / 2 * bits / 8 && Int(written[34]) == bits, "\(bits) bits")
            let pad = [UInt8](repeating: 0, count: bits / 8 - 2)
            let widened = stride(from: samples.startIndex, to: samples.endIndex - 1, by: 2).flatMap { pad + [samples[$0], samples[$0 + 1]] }
            #expect(Array(written.dropFirst(68)) == widened, "mpg123's samples, shifted into \(bits) bits")
        }
        let refused = try Harness.tplayer("-q", "--bits", "20", "-w", folder.appendingPathComponent("x.wav").path, mp3)
        #expect(refused.status == 64 && refused.stderr.contains("--bits 20: give 16, 24 or 32"), "\(refused.stderr)")
    }
}

/// The settings' graphic equaliser: on from the start when set, in the file `-w` writes too;
/// flat, the file is the decoder's, bit for bit; a line it cannot read is one located problem.
@Suite(.timeLimit(.minutes(10)))
struct EqualizerSettingTests {
    @Test func theEqualizerSettingShapesTheSoundAndFlatLeavesItAlone() throws {
        let folder = try Harness.temporaryFolder()
        let song = folder.appendingPathComponent("noise.flac").path
        try Harness.run("/usr/bin/sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", song, "synth", "2", "pinknoise", "gain", "-10"])
        func written(_ settings: String, _ name: String) throws -> (Harness.Result, Data) {
            let config = folder.appendingPathComponent("\(name).conf").path
            try settings.write(toFile: config, atomically: true, encoding: .utf8)
            let out = folder.appendingPathComponent("\(name).wav").path
            let result = try Harness.tplayer("-q", "--config", config, "-w", out, song)
            return (result, (try? Data(contentsOf: URL(fileURLWithPath: out))) ?? Data())
        }
        let (_, plain) = try written("", "plain")
        let (flatRun, flat) = try written("equalizer = 0 0 0 0 0 0 0 0 0 0\n", "flat")
        let (bassRun, bass) = try written("equalizer-preset = bass\n", "bass")
        #expect(flatRun.status == 0 && bassRun.status == 0, "\(flatRun.stderr)\(bassRun.stderr)")
        #expect(flat == plain, "flat: the decoder's samples, bit for bit")
        #expect(bass.count == plain.count && bass != plain, "the bass preset changed the sound")
        // From a script: a preset, then off (the same file as no equaliser at all).
        let script = folder.appendingPathComponent("eq.tps").path
        try "add \(song)\nequalizer bass\nplay\nwait 1s\nequalizer off\nwait end\n".write(toFile: script, atomically: true, encoding: .utf8)
        let scripted = folder.appendingPathComponent("scripted.wav").path
        let run = try Harness.tplayer("-q", "--no-config", "--script", script, "-w", scripted)
        #expect(run.status == 0, "\(run.stderr)")
        let both = try Data(contentsOf: URL(fileURLWithPath: scripted))
        #expect(both.count == plain.count && both.prefix(44 + 44100 * 4) != plain.prefix(44 + 44100 * 4), "the first second equalised")
        #expect(both.suffix(44100 * 4 / 2) == plain.suffix(44100 * 4 / 2), "off again after the cross-fade: the decoder's samples")
        let (wrong, _) = try written("equalizer = 1 2 3\n", "wrong")
        #expect(wrong.stderr.contains("wrong.conf:1:13: equalizer = 1 2 3: give 10 gains in dB from -12 to 12"), "\(wrong.stderr)")
    }
}

/// The ReplayGain of a song libmpg123 does not decode is applied after decoding, by the
/// processing stage: a FLAC's tagged gain scales flac -d's samples, each rounded to the nearest.
@Suite(.timeLimit(.minutes(10)))
struct StageReplayGainTests {
    @Test func aFlacsTrackGainScalesFlacsSamples() throws {
        let folder = try Harness.temporaryFolder()
        let song = folder.appendingPathComponent("song.flac").path
        try Harness.run("/usr/bin/sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", song, "synth", "1", "sine", "300", "gain", "-3"])
        try Harness.run("/usr/bin/metaflac", ["--set-tag=REPLAYGAIN_TRACK_GAIN=-6.00 dB", song])
        let reference = folder.appendingPathComponent("flac.wav").path
        try Harness.run("/usr/bin/flac", ["-s", "-d", "-f", "-o", reference, song])
        let decoded = [UInt8](try Data(contentsOf: URL(fileURLWithPath: reference))).dropFirst(44)
        let factor = pow(10, -6.0 / 20)
        let samples = { (bytes: ArraySlice<UInt8>) in
            stride(from: bytes.startIndex, to: bytes.endIndex - 1, by: 2).map { Double(Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8)) }
        }
        let exact = samples(decoded).map { $0 * factor }
        let wav = { (mode: String) throws -> ArraySlice<UInt8> in
            let out = folder.appendingPathComponent("\(mode).wav").path
            let played = try Harness.tplayer("-q", "--replaygain", mode, "-w", out, song)
            #expect(played.status == 0, "\(played.stderr)")
            return [UInt8](try Data(contentsOf: URL(fileURLWithPath: out))).dropFirst(44)
        }
        // Off: flac -d's samples, untouched. Track: each within the TPDF dither's step of the
        // exact gain, the error's mean zero.
        #expect(try wav("off") == decoded)
        let gained = samples(try wav("track"))
        #expect(gained.count == exact.count && zip(gained, exact).allSatisfy { abs($0 - $1) <= 1.5 })
        let bias = zip(gained, exact).reduce(0.0) { $0 + $1.0 - $1.1 } / Double(max(exact.count, 1))
        #expect(abs(bias) < 0.05, "\(bias)")
    }
}
