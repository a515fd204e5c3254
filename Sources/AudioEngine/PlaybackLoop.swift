import Files
import Glibc
import PlayerCore

/// The playback thread's side of the engine: it alone owns the libmpg123 handle and the libao
/// device. It decodes and writes in chunks of at most 25 ms of audio and checks for commands
/// between chunks, so a stop takes effect within one chunk plus the device's own buffer.
final class PlaybackLoop {
    /// The longest chunk written at once, in seconds of audio.
    static let chunkSeconds = 0.025
    /// How often a lost device is tried again.
    static let deviceRetrySeconds = 0.5

    private let mailbox: Mailbox
    private var output: ResolvedOutput
    private let decoder: Mpg123Decoder
    private var device: AoOutput?
    /// The file `-w` writes, once it exists: never opened as a song.
    private var outputFileID: FileStatus.ID?

    /// The open song: its token, path and the format it decodes to now.
    private var song: (token: Int, path: Path, format: PCMFormat)?
    /// The context said play (output may still be held by a script's budget).
    private var isPlaying = false
    /// Output was held for want of budget; pacing restarts when it resumes.
    private var heldByBudget = false
    /// The device refused a write; it is retried every `deviceRetrySeconds`.
    private var deviceLost = false
    /// Bytes decoded into `buffer` but not yet accepted by the device (kept across a device loss).
    private var unwritten = 0
    private var pacer = Pacer()

    private let buffer: UnsafeMutableRawPointer
    private static let bufferCapacity = 1 << 16

    init(mailbox: Mailbox, output: ResolvedOutput, decoder: Mpg123Decoder) {
        self.mailbox = mailbox
        self.output = output
        self.decoder = decoder
        buffer = .allocate(byteCount: Self.bufferCapacity, alignment: 16)
    }

    deinit {
        buffer.deallocate()
    }

    /// Runs until a `shutdown` command; never spins: with nothing to play it sleeps on the
    /// mailbox, and non-blocking outputs are paced to real time.
    func run() {
        while true {
            let playingRate = isPlaying && !deviceLost ? song?.format.rate : nil
            let commands = mailbox.takeCommands(
                playingRate: playingRate, timeout: deviceLost ? Self.deviceRetrySeconds : nil)
            for command in commands {
                if case .shutdown(let reply) = command {
                    device?.close()
                    device = nil
                    decoder.close()
                    mailbox.answer(reply, with: .success(nil))
                    return
                }
                execute(command)
            }
            if deviceLost {
                retryDevice()
            } else if isPlaying {
                step()
            }
        }
    }

    private func execute(_ command: EngineCommand) {
        switch command {
        case .open(let path, let token, let reply):
            mailbox.answer(reply, with: open(path, token: token))
        case .play:
            guard song != nil, !isPlaying else { return }
            isPlaying = true
            pacer.restart(rate: song?.format.rate ?? 1)
        case .stop:
            isPlaying = false
        case .volume(let fraction):
            decoder.setVolume(fraction)
        case .seek(let frame):
            guard let song else { return }
            unwritten = 0
            if let landed = decoder.seek(toFrame: max(frame, 0)) {
                mailbox.setPosition(landed)
            } else {
                mailbox.report(.decodeFailed(token: song.token, message: "cannot seek in this file"))
            }
            pacer.restart(rate: song.format.rate)
        case .shutdown:
            break  // handled by `run`
        }
    }

    private func open(_ path: Path, token: Int) -> Result<SongInfo?, LoadError> {
        isPlaying = false
        unwritten = 0
        song = nil
        do throws(Mpg123Decoder.OpenFailure) {
            // A file keeps the format it started with: libmpg123 converts later songs to it.
            do throws(Mpg123Error) {
                if let device, output.isFile {
                    try decoder.imposeFormat(device.format)
                } else {
                    try decoder.allowAnyFormat()
                }
            } catch {
                throw .decoder(error)
            }
            let format = try decoder.open(path, output: outputFileID)
            song = (token, path, format)
            mailbox.setPosition(0)
            let tags = decoder.tags()
            return .success(SongInfo(
                path: path, sampleRate: format.rate, channels: format.channels,
                totalFrames: decoder.lengthInFrames,
                title: tags.title, artist: tags.artist, album: tags.album))
        } catch {
            return .failure(LoadError(path: path, reason: Self.reason(for: error)))
        }
    }

    /// A load failure as the user should read it.
    private static func reason(for failure: Mpg123Decoder.OpenFailure) -> String {
        switch failure {
        case .file(.notRegular(.directory)): "is a directory, not an MP3 file"
        case .file(let error): "\(error)"
        case .empty: "file is empty"
        case .isOutput: "that is the file -w is writing; not played"
        case .decoder(let error) where error.code == -12 /* MPG123_DONE */ || error.code == -1 /* MPG123_ERR */:
            "no MPEG audio found in it; is it an MP3 file?"
        case .decoder(let error): "cannot decode it: \(error)"
        }
    }

    /// Decodes one chunk and writes it.
    private func step() {
        guard var current = song else {
            isPlaying = false
            return
        }
        if unwritten > 0 {
            write(format: current.format)
            return
        }
        let format = current.format
        let chunk = max(Int(Double(format.rate) * Self.chunkSeconds), 1)
        let frames = mailbox.allowance(frames: min(chunk, Self.bufferCapacity / format.bytesPerFrame), rate: format.rate)
        guard frames > 0 else {
            heldByBudget = true  // the script's grant is used up: hold
            return
        }
        if heldByBudget {
            heldByBudget = false
            pacer.restart(rate: format.rate)  // real time restarts from now, not from before the hold
        }
        switch decoder.read(into: buffer, capacity: frames * format.bytesPerFrame) {
        case .data(let bytes):
            unwritten = bytes
            let spent = mailbox.consume(frames: bytes / format.bytesPerFrame, rate: format.rate)
            write(format: format)
            if let spent { mailbox.report(.budgetSpent(id: spent)) }
        case .newFormat(let format):
            current.format = format
            song = current
        case .done:
            isPlaying = false
            if let cut = decoder.truncation {
                mailbox.report(.decodeFailed(token: current.token, message:
                    "the file was cut short while it played (\(cut.was) bytes when it started, \(cut.now) now)"))
            } else {
                mailbox.report(.ended(token: current.token))
            }
        case .failed(let message):
            isPlaying = false
            mailbox.report(.decodeFailed(token: current.token, message: message))
        }
    }

    /// Hands the decoded bytes to the device, opening or reopening it for `format` first.
    private func write(format: PCMFormat) {
        guard let song, unwritten > 0, let device = deviceReady(for: format) else { return }
        guard device.play(buffer, count: unwritten) else {
            if output.isFile {
                isPlaying = false
                unwritten = 0
                let reason = device.writeError.map { "cannot write to the file: \($0.reason)" }
                    ?? "cannot write to the file; is the disk full?"
                mailbox.report(.outputFailed(message: "\(output.path ?? "output"): \(reason)"))
            } else {
                device.close()
                self.device = nil
                deviceLost = true
                mailbox.report(.deviceLost(
                    token: song.token,
                    message: "the \(output.driver.shortName) device stopped taking audio"))
            }
            return
        }
        let frames = unwritten / format.bytesPerFrame
        unwritten = 0
        mailbox.advancePosition(by: Int64(frames))
        if output.needsPacing { pacer.pace(frames: frames) }
    }

    /// The device, open for `format`. A live device is reopened when the format changes (closing
    /// drains what it holds, so no samples are lost); a file keeps its first format.
    private func deviceReady(for format: PCMFormat) -> AoOutput? {
        if let device, device.format == format || output.isFile { return device }
        device?.close()
        device = nil
        do {
            device = try AoOutput(driver: output.driver, format: format, path: output.path, overwrite: output.overwrite)
            outputFileID = output.path.flatMap { try? FileSystem.status(of: $0).get().id }
            pacer.restart(rate: format.rate)
            return device
        } catch {
            return fallBack(from: error, format: format)
        }
    }

    /// A live device that cannot be opened gives way to the null output paced in real time, so
    /// the player and its keys still work; a file that cannot be opened ends the run.
    private func fallBack(from error: AoError, format: PCMFormat) -> AoOutput? {
        guard !output.isFile, output.driver.shortName != "null", let null = try? ResolvedOutput.nullDriver() else {
            isPlaying = false
            unwritten = 0
            mailbox.report(.outputFailed(message: "\(output.path.map { "\($0)" } ?? output.driver.shortName): \(error)"))
            return nil
        }
        mailbox.report(.outputFallback(message:
            "output \(output.driver.shortName): \(error); playing silently in real time instead"))
        output.driver = null
        return deviceReady(for: format)
    }

    private func retryDevice() {
        guard let song else {
            deviceLost = false
            return
        }
        guard let reopened = try? AoOutput(
            driver: output.driver, format: song.format, path: nil, overwrite: false)
        else { return }
        device = reopened
        deviceLost = false
        isPlaying = false  // resumes when the context says play
        mailbox.report(.deviceRestored(token: song.token))
    }
}
