import Foundation
import Testing

/// `--speed`: a song played faster or slower at its own pitch, written by `-w` as it would be
/// heard. A 12 s tone at 1.5 is 8 s of the same note; a seek at a speed lands where it was asked
/// in the song; deeper samples keep their depth; a script changes the speed as it plays.
@Suite(.timeLimit(.minutes(10)))
struct SpeedTests {
    static let rate = 44100

    /// A sox-made tone: `seconds` of `frequency` Hz, 44.1 kHz stereo, 16-bit WAV (or `bits`).
    static func tone(_ name: String, seconds: Double, frequency: Int = 440, bits: Int = 16, in folder: URL) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try Harness.run("/usr/bin/sox", ["-q", "-n", "-r", "\(rate)", "-c", "2", "-b", "\(bits)", path,
                                         "synth", "\(seconds)", "sine", "\(frequency)", "gain", "-6"])
        return path
    }

    /// The left channel of 16-bit stereo PCM, as numbers.
    static func left(_ pcm: Data) -> [Double] {
        pcm.withUnsafeBytes { raw in
            let samples = raw.bindMemory(to: Int16.self)
            return stride(from: 0, to: samples.count - 1, by: 2).map { Double(samples[$0]) }
        }
    }

    /// The strongest frequency in `samples` from `start`, by a Hann-windowed FFT of 65,536
    /// samples (0.67 Hz a bin at 44.1 kHz), the peak placed between bins by a parabola.
    static func peakFrequency(_ samples: [Double], from start: Int) -> Double {
        let size = 1 << 16
        var real = (0..<size).map { index in
            samples[start + index] * (0.5 - 0.5 * cos(2 * Double.pi * Double(index) / Double(size - 1)))
        }
        var imaginary = [Double](repeating: 0, count: size)
        fft(&real, &imaginary)
        let magnitudes = (0..<size / 2).map { (real[$0] * real[$0] + imaginary[$0] * imaginary[$0]).squareRoot() }
        let peak = (1..<size / 2 - 1).max { magnitudes[$0] < magnitudes[$1] } ?? 1
        let (left, middle, right) = (magnitudes[peak - 1], magnitudes[peak], magnitudes[peak + 1])
        let offset = 0.5 * (left - right) / (left - 2 * middle + right)
        return (Double(peak) + offset) * Double(rate) / Double(size)
    }

    /// An in-place radix-2 FFT.
    static func fft(_ real: inout [Double], _ imaginary: inout [Double]) {
        let count = real.count
        var target = 0
        for index in 0..<count {
            if index < target {
                real.swapAt(index, target)
                imaginary.swapAt(index, target)
            }
            var bit = count >> 1
            while target & bit != 0 {
                target ^= bit
                bit >>= 1
            }
            target |= bit
        }
        var length = 2
        while length <= count {
            let angle = -2 * Double.pi / Double(length)
            for start in stride(from: 0, to: count, by: length) {
                for step in 0..<length / 2 {
                    let (cosine, sine) = (cos(angle * Double(step)), sin(angle * Double(step)))
                    let (even, odd) = (start + step, start + step + length / 2)
                    let oddReal = real[odd] * cosine - imaginary[odd] * sine
                    let oddImaginary = real[odd] * sine + imaginary[odd] * cosine
                    real[odd] = real[even] - oddReal
                    imaginary[odd] = imaginary[even] - oddImaginary
                    real[even] += oddReal
                    imaginary[even] += oddImaginary
                }
            }
            length <<= 1
        }
    }

    @Test(arguments: ["wav", "flac", "mp3"])
    func aTwelveSecondToneAtOneAndAHalfIsEightSecondsOfTheSameNote(format: String) throws {
        let folder = try Harness.temporaryFolder()
        var song = try Self.tone("tone.wav", seconds: 12, in: folder)
        if format == "flac" {
            try Harness.run("/usr/bin/flac", ["-s", "-f", "-o", folder.appendingPathComponent("tone.flac").path, song])
            song = folder.appendingPathComponent("tone.flac").path
        } else if format == "mp3" {
            // LAME's header states the delay and padding: libmpg123 gives exactly 12 s.
            try Harness.run("/usr/bin/lame", ["--quiet", "-b", "192", song, folder.appendingPathComponent("tone.mp3").path])
            song = folder.appendingPathComponent("tone.mp3").path
        }
        let out = folder.appendingPathComponent("out.wav").path
        let result = try Harness.tplayer("-q", "-w", out, "--speed", "1.5", song)
        #expect(result.status == 0, "\(result.stderr)")
        let samples = Self.left(try Harness.pcm(ofWAV: out))
        #expect(abs(samples.count - 8 * Self.rate) <= 1, "\(samples.count) frames")
        let pitch = Self.peakFrequency(samples, from: 2 * Self.rate)
        #expect(abs(pitch - 440) < 0.5, "\(pitch) Hz")
        // At the song's own speed, the tone is as it was (nothing stretched, nothing lost).
        let plain = try Harness.tplayer("-q", "-w", out, "--force", "--speed", "1", song)
        #expect(plain.status == 0)
        #expect(Self.left(try Harness.pcm(ofWAV: out)).count == 12 * Self.rate)
    }

    /// Silence to 7 s, then a tone rising over 200 ms: from `--start 6` at 1.5, the rise's middle
    /// (7.1 s of the song) is 1.1 s of the song later, 0.733 s of output. The file is the
    /// song's last 6 s over the speed, 4 s.
    @Test(arguments: [1.5, 0.5])
    func aSeekAtASpeedLandsWhereItWasAskedInTheSong(speed: Double) throws {
        let folder = try Harness.temporaryFolder()
        let silence = folder.appendingPathComponent("silence.wav").path
        let rise = folder.appendingPathComponent("rise.wav").path
        let song = folder.appendingPathComponent("marked.wav").path
        try Harness.run("/usr/bin/sox", ["-q", "-n", "-r", "\(Self.rate)", "-c", "2", "-b", "16", silence, "trim", "0", "7"])
        try Harness.run("/usr/bin/sox", ["-q", "-n", "-r", "\(Self.rate)", "-c", "2", "-b", "16", rise,
                                         "synth", "5", "sine", "1000", "gain", "-6", "fade", "t", "0.2"])
        try Harness.run("/usr/bin/sox", ["-q", silence, rise, song])
        let out = folder.appendingPathComponent("out.wav").path
        let result = try Harness.tplayer("-q", "-w", out, "--speed", "\(speed)", "--start", "6", song)
        #expect(result.status == 0, "\(result.stderr)")
        let samples = Self.left(try Harness.pcm(ofWAV: out))
        #expect(abs(Double(samples.count) - 6 / speed * Double(Self.rate)) <= 1, "\(samples.count) frames")
        // The level over 5 ms reaches half the tone's where the rise is half done.
        let window = Self.rate / 200
        let full = 32768 * pow(10, -6.0 / 20) / 2.0.squareRoot()
        let middle = try #require(stride(from: 0, to: samples.count - window, by: 10).first { start in
            ((start..<start + window).reduce(0.0) { $0 + samples[$1] * samples[$1] } / Double(window)).squareRoot() >= full / 2
        }) + window / 2
        let inSong = 6 + Double(middle) * speed / Double(Self.rate)
        #expect(abs(inSong - 7.1) < 0.005, "the rise's middle at \(inSong) s of the song")
    }

    /// A 24-bit FLAC at a speed is written in 24 bits: the stretcher works in float and gives
    /// back the song's own samples.
    @Test func deepSamplesKeepTheirDepthAtASpeed() throws {
        let folder = try Harness.temporaryFolder()
        let wav = try Self.tone("deep.wav", seconds: 2, frequency: 997, bits: 24, in: folder)
        let flac = folder.appendingPathComponent("deep.flac").path
        try Harness.run("/usr/bin/flac", ["-s", "-f", "-o", flac, wav])
        let out = folder.appendingPathComponent("out.wav").path
        let result = try Harness.tplayer("-q", "-w", out, "--speed", "0.8", flac)
        #expect(result.status == 0, "\(result.stderr)")
        let written = try Data(contentsOf: URL(fileURLWithPath: out))
        #expect(written[written.startIndex + 34] == 24, "bits per sample")
        let pcm = try Harness.pcm(ofWAV: out)
        #expect(abs(pcm.count / 6 - Int(2 / 0.8 * Double(Self.rate))) <= 1)
        let low = Set(stride(from: pcm.startIndex, to: pcm.endIndex, by: 6).map { pcm[$0] })
        #expect(low.count > 100, "the low byte of 24 is used")
    }

    /// A script's `speed` changes it as the file is written: 3 s of the song at its own speed,
    /// then its other 9 s at 2, 4.5 s: 7.5 s in all; and the two songs of a list at 1.5 are
    /// each their length over it, back to back.
    @Test func aScriptChangesTheSpeedAsItPlaysAndAListKeepsIt() throws {
        let folder = try Harness.temporaryFolder()
        let song = try Self.tone("tone.wav", seconds: 12, in: folder)
        let (pcm, result) = try ScriptTests.run(["add \(song)", "play", "wait 3s", "speed 2", "wait 60s", "quit"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let frames = Self.left(pcm).count
        #expect(abs(frames - Int(7.5 * Double(Self.rate))) <= 2, "\(frames) frames")

        let out = folder.appendingPathComponent("out.wav").path
        let second = try Self.tone("second.wav", seconds: 6, frequency: 660, in: folder)
        let list = try Harness.tplayer("-q", "-w", out, "--speed", "1.5", song, second)
        #expect(list.status == 0, "\(list.stderr)")
        let both = Self.left(try Harness.pcm(ofWAV: out))
        #expect(abs(both.count - 12 * Self.rate) <= 2, "\(both.count) frames")
        #expect(abs(Self.peakFrequency(both, from: 9 * Self.rate + 4410) - 660) < 0.5)
    }

    /// A script's waits at speeds that do not divide the rate: each is the listener's time, to
    /// the frame, and the run ends (its grants were each reported used up: nothing waits on one).
    @Test(arguments: [0.75, 1.3, 0.33])
    func aScriptsWaitsAtASpeedAreTimeHeard(speed: Double) throws {
        let folder = try Harness.temporaryFolder()
        let song = try Self.tone("tone.wav", seconds: 12, in: folder)
        let (pcm, result) = try ScriptTests.run(["speed \(speed)", "add \(song)", "play", "wait 0.5s", "wait 0.37s", "wait 0.13s", "quit"],
                                                in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let frames = Self.left(pcm).count
        // A second heard, less what the stretcher holds when the script quits (its latency).
        #expect(frames <= Self.rate && frames > Self.rate - 8192, "\(frames) frames")
    }

    @Test(arguments: ["5", "0.1", "nan", "fast", "-1", "1e400"])
    func aSpeedThatIsNotPlayedIsOneLineAndNothingIsWritten(speed: String) throws {
        let folder = try Harness.temporaryFolder()
        let song = try Self.tone("tone.wav", seconds: 1, in: folder)
        let out = folder.appendingPathComponent("out.wav").path
        let result = try Harness.tplayer("-w", out, "--speed=\(speed)", song)
        #expect(result.status != 0)
        #expect(result.stderr.contains("--speed \(speed): give a speed from 0.25 to 4"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }
}
