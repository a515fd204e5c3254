import PlayerCore

/// `albumart` (the picture file beside a song) and `readpicture` (the one it holds), sent a
/// chunk at a time as MPD sends them: `size`, for `readpicture` its `type`, then `binary` and
/// at most the client's `binarylimit` bytes from the offset asked.
struct MpdPictureCommands: MpdCommandGroup {
    let responder: MpdResponder

    func picture(_ name: String, _ arguments: [String], client: MpdClientState) -> Result<[UInt8], MpdAck> {
        let offset: Int
        switch MpdArguments.unsigned(arguments[1]) {
        case .failure(let ack): return .failure(ack)
        case .success(let value): offset = value
        }
        let embedded = name == "readpicture"
        let path: Path
        switch resolve(arguments[0], client: client) {
        case .success((let paths, true)) where paths.count == 1 && !paths[0].description.contains("://"): path = paths[0]
        case .success: return embedded ? .success([]) : .failure(MpdAck(.noExist, "No file exists"))
        case .failure(let ack) where ack.code == .permission: return .failure(ack)
        case .failure: return embedded ? .success([]) : .failure(MpdAck(.noExist, "No file exists"))
        }
        guard let found = pictureBytes(path, embedded: embedded) else {
            return embedded ? .success([]) : .failure(MpdAck(.noExist, "No file exists"))
        }
        guard offset <= found.bytes.count else { return .failure(MpdAck(.argument, embedded ? "Bad file offset" : "Offset too large")) }
        let chunk = found.bytes[offset..<min(offset + client.binaryLimit, found.bytes.count)]
        var reply = "size: \(found.bytes.count)\n"
        if let type = found.type { reply += "type: \(type)\n" }
        reply += "binary: \(chunk.count)\n"
        return .success(Array(reply.utf8) + chunk + [0x0A])
    }

    /// The picture of `path`, the last one asked kept (a client reads it a chunk at a time).
    private func pictureBytes(_ path: Path, embedded: Bool) -> (bytes: [UInt8], type: String?)? {
        if let kept = responder.lastPicture, kept.path == path, kept.embedded == embedded { return kept.found }
        let found = link.picture?(path, embedded)
        responder.lastPicture = (path, embedded, found)
        return found
    }
}
