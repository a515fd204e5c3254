import PlayerCore

/// What the server says of itself (`commands`, `tagtypes`, `decoders`, `urlhandlers`, `config`),
/// its one output, and partitions and mounts answered as MPD answers with only its own.
struct MpdReflectionCommands: MpdCommandGroup {
    let responder: MpdResponder

    /// The decoders, each with the suffixes and MIME types it reads (`decoders`).
    static let decoders: [(plugin: String, suffixes: [String], types: [String])] = [
        ("mpg123", ["mp3", "mp2", "mp1", "mpga"], ["audio/mpeg"]),
        ("flac", ["flac", "fla"], ["audio/flac", "audio/x-flac"]),
        ("vorbis", ["ogg", "oga"], ["audio/ogg", "audio/vorbis"]),
        ("opus", ["opus"], ["audio/ogg", "audio/opus"]),
        ("ffmpeg", ["m4a", "m4b", "mp4", "aac", "wav", "aif", "aiff", "aifc", "au", "snd", "ape", "wv", "wma", "asf", "mka", "webm", "tta",
                    "mpc", "caf"], ["audio/mp4", "audio/aac", "audio/wav", "audio/x-wav", "audio/aiff", "audio/x-ape", "audio/x-wavpack",
                                    "audio/x-ms-wma", "audio/webm", "audio/x-musepack"]),
    ]

    func reflection(_ name: String, _ arguments: [String], client: inout MpdClientState) -> Result<String, MpdAck> {
        switch name {
        case "commands", "notcommands":
            let allowed = name == "commands"
            return .success(MpdCommand.all.filter { $0.permission.isSubset(of: client.permission) == allowed && !MpdCommand.unlisted.contains($0.name) }
                .map { "command: \($0.name)\n" }.joined())
        case "tagtypes":
            return tagTypes(arguments, client: &client)
        case "listneighbors":
            return .failure(MpdAck(.unknown, "No neighbor plugin configured"))
        case "urlhandlers":
            return .success((client.isLocal ? "handler: file://\n" : "") + "handler: http://\nhandler: https://\n")
        case "decoders":
            return .success(Self.decoders.map { decoder in
                "plugin: \(decoder.plugin)\n" + decoder.suffixes.map { "suffix: \($0)\n" }.joined()
                    + decoder.types.map { "mime_type: \($0)\n" }.joined()
            }.joined())
        case "config":
            guard client.isLocal else { return .failure(MpdAck(.permission, "Command only permitted to local clients")) }
            return .success((link.roots.folders.count == 1 ? "music_directory: \(link.roots.folders[0].path)\n" : "") + "pcre: 1\n")
        case "outputs":
            guard !link.outputs.isEmpty else {
                // The one output, off while muted: a client's "disable" is tplayer's mute.
                let enabled = session.status.muted ? 0 : 1
                return .success("outputid: 0\noutputname: \(link.outputName)\nplugin: \(link.outputName)\noutputenabled: \(enabled)\n")
            }
            let off = session.status.outputsOff
            return .success(link.outputs.enumerated().map { id, output in
                "outputid: \(id)\noutputname: \(output.name)\nplugin: \(output.driver)\noutputenabled: \(off.contains(id) ? 0 : 1)\n"
            }.joined())
        case "enableoutput", "disableoutput", "toggleoutput":
            return MpdArguments.unsigned(arguments[0]).flatMap { id in
                guard id < max(link.outputs.count, 1) else { return .failure(MpdAck(.noExist, "No such audio output")) }
                let on: Bool? = switch name {
                case "enableoutput": true
                case "disableoutput": false
                default: nil  // toggleoutput
                }
                guard !link.outputs.isEmpty else {
                    perform(on.map { .setMute(!$0) } ?? .toggleMute)
                    return .success("")
                }
                perform(.setOutput(Int(id), on))
                return .success("")
            }
        case "outputset":
            return MpdArguments.unsigned(arguments[0]).flatMap { id in
                guard id == 0 else { return .failure(MpdAck(.noExist, "No such audio output")) }
                // A name of letters, digits and `_` is one tplayer's output does not have (MPD's
                // null output's answer); any other is no name.
                let valid = !arguments[1].isEmpty && arguments[1].unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") }
                return .failure(MpdAck(.argument, valid ? "Unsupported attribute" : "Illegal attribute name"))
            }
        case "partition":
            return arguments[0] == "default" ? .success("") : .failure(MpdAck(.noExist, "partition does not exist"))
        case "listpartitions":
            return .success("partition: default\n")
        case "newpartition", "delpartition", "moveoutput":
            return .failure(MpdAck(.unknown, "tplayer plays one list: it has only the partition \"default\""))
        case "listmounts":
            // The one folder is the root, a local folder: MPD names no storage for it.
            guard link.roots.folders.count > 1 else { return .success("mount: \n") }
            return .success("mount: \n" + link.roots.folders.map { folder in "mount: \(folder.name)\nstorage: \(folder.path)\n" }.joined())
        default:  // mount, unmount
            return .failure(MpdAck(.argument, name == "mount" ? "Unrecognized storage URI" : "Not a mount point"))
        }
    }

    private func tagTypes(_ arguments: [String], client: inout MpdClientState) -> Result<String, MpdAck> {
        guard let sub = arguments.first else {
            return .success(MpdTag.allCases.filter { client.tags.contains($0) }.map { "tagtype: \($0.rawValue)\n" }.joined())
        }
        let rest = arguments.dropFirst()
        switch sub {
        case "all", "clear":
            guard rest.isEmpty else { return .failure(MpdAck(.argument, "Too many arguments")) }
            client.tags = sub == "all" ? MpdTag.served : []
        case "enable", "disable":
            guard !rest.isEmpty else { return .failure(MpdAck(.argument, "Not enough arguments")) }
            var named: Set<MpdTag> = []
            for name in rest {
                guard let tag = MpdTag(named: name) else { return .failure(MpdAck(.argument, "Unknown tag type")) }
                named.insert(tag)
            }
            if sub == "enable" { client.tags.formUnion(named.intersection(MpdTag.served)) } else { client.tags.subtract(named) }
        default:
            return .failure(MpdAck(.argument, "Unknown sub command"))
        }
        return .success("")
    }
}
