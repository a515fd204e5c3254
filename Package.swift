// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "tplayer",
    products: [
        .executable(name: "tplayer", targets: ["tplayer"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        // C libraries, wrapped as they are; shim.h fixes what Swift cannot import.
        .systemLibrary(
            name: "CMpg123",
            pkgConfig: "libmpg123",
            providers: [.apt(["libmpg123-dev"])]
        ),
        .systemLibrary(
            name: "CAo",
            pkgConfig: "ao",
            providers: [.apt(["libao-dev"])]
        ),

        // libpulse's headers (libpulse-dev); libpulse itself is loaded when the PulseAudio output
        // is chosen, not linked (see its shim.h).
        .systemLibrary(name: "CPulse", providers: [.apt(["libpulse-dev"])]),

        // libFLAC's headers (libflac-dev); libFLAC is loaded when the first FLAC song opens, not
        // linked (see its shim.h). The same for the other formats' libraries.
        .systemLibrary(name: "CFlac", providers: [.apt(["libflac-dev"])]),
        .systemLibrary(name: "CVorbis", providers: [.apt(["libvorbis-dev"])]),
        .systemLibrary(name: "COpus", providers: [.apt(["libopusfile-dev"])]),

        // FFmpeg's headers (libavformat, libavcodec, libswresample); the libraries are loaded when
        // the first song that only FFmpeg plays opens (AAC, ALAC, WAV, AIFF…), not linked.
        .systemLibrary(name: "CAv", providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswresample-dev"])]),

        // libsoxr's header (libsoxr-dev); libsoxr is loaded when a song must be resampled for the
        // file -w writes, not linked (see its shim.h).
        .systemLibrary(name: "CSoxr", providers: [.apt(["libsoxr-dev"])]),

        // librubberband's header (librubberband-dev); the time-stretcher is loaded when a speed
        // other than 1 plays (`--speed`), not linked (see its shim.h).
        .systemLibrary(name: "CRubberBand", providers: [.apt(["librubberband-dev"])]),

        // libcurl's headers (libcurl4-openssl-dev); libcurl is loaded when the first internet
        // stream opens (http, https), not linked (see its shim.h).
        .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),

        // libshout's header (libshout3-dev); libshout is loaded when an Icecast output is made
        // (`-o icecast`), not linked (see its shim.h).
        .systemLibrary(name: "CShout", providers: [.apt(["libshout3-dev"])]),

        // libchafa, which draws a cover as terminal text: declared in its shim.h (its headers need
        // glib's) and loaded when the first cover is drawn, not linked (see its shim.h).
        .systemLibrary(name: "CChafa", providers: [.apt(["libchafa-dev"])]),

        // Linux calls Glibc's module leaves out (statfs): header only, nothing more is linked.
        .systemLibrary(name: "CLinux"),

        // sd-bus's headers (libsystemd-dev, in /usr/include); libsystemd itself is loaded when
        // MPRIS starts, not linked (see its shim.h): no pkg-config, whose flags would link it.
        .systemLibrary(name: "CSdBus"),

        // The state machine, session, queue, playlist and script parsing, the engine protocol:
        // pure Swift, no C, no threads, no file system.
        .target(name: "PlayerCore"),

        // Every file-system call, on byte paths: stat, folders, reading only regular files.
        .target(name: "Files", dependencies: ["PlayerCore", "CLinux"]),

        // The decoders, the outputs and the playback thread: the module that imports the audio
        // libraries (libmpg123, libao, libpulse, libFLAC, vorbisfile, opusfile, FFmpeg, libsoxr,
        // librubberband) and libcurl. Cover imports FFmpeg too, and libchafa; Mpris, sd-bus.
        .target(name: "AudioEngine", dependencies: ["PlayerCore", "Files", "CMpg123", "CAo", "CPulse", "CSoxr", "CRubberBand", "CCurl", "CFlac", "CVorbis", "COpus", "CAv", "CShout"]),

        // Songs' covers for the now-playing view: found (embedded, or cover.jpg), decoded by FFmpeg
        // and drawn by libchafa, off the main loop.
        .target(name: "Cover", dependencies: ["PlayerCore", "Files", "CAv", "CChafa"]),

        // The music library: the SQLite database (GRDB: schema, migrations, FTS5), the scanner
        // and the query language. Tags come from whoever makes it (the player's own decoders).
        .target(name: "Library", dependencies: ["PlayerCore", "Files", "Inputs", .product(name: "GRDB", package: "GRDB.swift"),
                                                .product(name: "GRDBSQLite", package: "GRDB.swift")]),

        // Files, folders, playlists and scripts read from the file system into entries.
        .target(name: "Inputs", dependencies: ["PlayerCore", "Files"]),

        // Raw mode, keys, the status line, the --check progress bar and signals: the only module
        // that touches termios.
        .target(name: "Terminal", dependencies: ["PlayerCore", "Files"]),

        // The main loop and its EventLoop (routing keys, signals, engine reports, the script, -R and
        // D-Bus; the exit status), the remote protocol, the saved session
        // and the checks before a run starts: everything the executable does but parse and wire.
        .target(name: "PlayerApp", dependencies: ["PlayerCore", "Files", "Inputs", "Terminal", "Library"]),

        // MPRIS2 on the D-Bus session bus (media keys, desktop widgets, playerctl): the only
        // module that imports sd-bus.
        .target(name: "Mpris", dependencies: ["PlayerCore", "Files", "PlayerApp", "CSdBus"]),

        // MPD's protocol served on sockets (`--mpd`): the clients, their idle waits, and each
        // command answered from the one player and the library.
        .target(name: "MpdServer", dependencies: ["PlayerCore", "Files", "PlayerApp", "Library"]),

        .executableTarget(
            name: "tplayer",
            dependencies: [
                "PlayerCore", "Files", "AudioEngine", "Terminal", "Inputs", "PlayerApp", "Mpris", "MpdServer", "Library", "Cover",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            linkerSettings: [
                // The release binary, linked by lld: its 86,000 relative relocations packed
                // (RELR: 2 MB of tables every start reads, and keeps resident, down to 35 KB),
                // and none of tplayer's own 10,000 symbols exported (the static runtime's link
                // asks for --export-dynamic; nothing loads against them). 3 MB less resident
                // in a scan, 0.2 ms less a start. The code and zeroed data a start touches are
                // laid out first, together (Resources/start-order.txt, made by `make
                // start-order`): 100 fewer page faults a start.
                .unsafeFlags(["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                              "-Xlinker", "--no-export-dynamic",
                              "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/Resources/start-order.txt",
                              "-Xlinker", "--no-warn-symbol-ordering"], .when(configuration: .release)),
            ]
        ),

        // The parsers' promises, checked on any input: by the fuzz targets and by the tests.
        .target(name: "ParserChecks", dependencies: ["PlayerCore", "Files", "Terminal", "PlayerApp"]),

        // What the tests share: the fake engine and the seams a test's session is made with.
        .target(name: "TestSupport", dependencies: ["PlayerCore"], path: "Tests/Support"),

        .testTarget(name: "PlayerCoreTests", dependencies: ["PlayerCore", "ParserChecks", "TestSupport"]),
        .testTarget(name: "AudioEngineTests", dependencies: ["AudioEngine", "PlayerCore", "Files", "ParserChecks", "TestSupport"]),
        .testTarget(name: "TerminalTests", dependencies: ["Terminal", "PlayerCore"]),
        .testTarget(name: "FilesTests", dependencies: ["Files", "PlayerCore", "TestSupport"]),
        .testTarget(name: "InputsTests", dependencies: ["Inputs", "PlayerCore", "Files", "TestSupport"]),
        .testTarget(name: "PlayerAppTests", dependencies: ["PlayerApp", "PlayerCore", "Terminal", "Files", "Library", "TestSupport"]),
        .testTarget(name: "LibraryTests", dependencies: ["Library", "PlayerCore", "Files", "AudioEngine", "TestSupport",
                                                     .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(name: "CoverTests", dependencies: ["Cover", "PlayerCore", "Files", "TestSupport"]),
        .testTarget(name: "MpdServerTests", dependencies: ["MpdServer", "PlayerCore", "Files", "Library", "TestSupport"]),
        .testTarget(name: "MprisTests", dependencies: ["Mpris", "PlayerCore", "TestSupport"]),
        .testTarget(name: "EndToEndTests", dependencies: ["tplayer"]),
    ]
)

// `make fuzz` builds one libFuzzer target at a time (TPLAYER_FUZZ=1, `--sanitize=fuzzer`); they
// exist only then, since without the sanitizer nothing provides their `main`.
if Context.environment["TPLAYER_FUZZ"] == "1" {
    for name in ["FuzzM3U", "FuzzPLS", "FuzzScript", "FuzzDuration", "FuzzSeekTarget", "FuzzRemote", "FuzzSavedSession",
                 "FuzzRemoteSeek", "FuzzMprisTime", "FuzzTags", "FuzzCue", "FuzzConfig", "FuzzPrompt", "FuzzQuery", "FuzzIcy",
                 "FuzzIcyStream", "FuzzStreamURL", "FuzzServedList", "FuzzLyrics", "FuzzNowPlaying", "FuzzMpd"] {
        // Tags are read by the engine's decoders (libmpg123, libFLAC, vorbisfile, opusfile or
        // FFmpeg, as the file's first bytes say); queries run on a library in memory.
        let engine: [Target.Dependency] = name == "FuzzTags" ? ["AudioEngine", "PlayerCore"]
            : name == "FuzzQuery" ? ["Library", "PlayerCore"] : []
        package.products.append(.executable(name: name, targets: [name]))
        package.targets.append(.executableTarget(name: name, dependencies: ["ParserChecks"] + engine, path: "Fuzz/\(name)"))
    }
}

// Every module of tplayer's own reaches a concrete generic type's metadata through an accessor
// that passes the type's conformances, not through its mangled name: the runtime would demangle
// the name at first use and look each conformance up by scanning the binary's 6,600 conformance
// records (about 50 µs a type), and a -w run's start met about twenty such types.
for target in package.targets where target.type == .regular || target.type == .executable {
    target.swiftSettings = (target.swiftSettings ?? [])
        + [.unsafeFlags(["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"])]
}
