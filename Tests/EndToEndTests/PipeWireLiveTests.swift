import Foundation
import Glibc
import Testing

/// Every sample heard on PipeWire, as most desktops run it now (through its PulseAudio server,
/// pipewire-pulse): on a null sink, and through a virtual sink made on it. The recording of the
/// null sink's monitor is what `-w` writes, from the first frame to the last; a pause loses and
/// repeats nothing; keys are heard without a click.
@Suite(.serialized, .enabled(if: PipeWireServer.installed && BareSinkLiveTests.unsanitized), .timeLimit(.minutes(10)))
struct PipeWireLiveTests {
    private func proveWhole(_ songs: [String], virtual: Bool = false, inTerminal: Bool = false) throws {
        try LiveProofs.whole(songs, inTerminal: inTerminal) { try MonitorRecording(pipeWire: "exact", virtual: virtual) }
    }

    @Test func aSongIsHeardWholeOnANullSink() throws {
        try proveWhole([Harness.songs[1]])
    }

    @Test func aGaplessAlbumIsHeardWholeThroughAVirtualSinkInATerminal() throws {
        try proveWhole(Harness.songs, virtual: true, inTerminal: true)
    }

    @Test func aGaplessAlbumIsHeardWholeOnABusyMachine() throws {
        let spinners = try Spinners()
        defer { spinners.stop() }
        try proveWhole(Harness.songs)
    }

    @Test func aPauseAndResumeLosesAndRepeatsNothing() throws {
        try LiveProofs.pauseLosesNothing { try MonitorRecording(pipeWire: "exact") }
    }

    @Test func keysAreHeardWithoutAClick() throws {
        try LiveProofs.keysWithoutAClick { try MonitorRecording(pipeWire: "exact") }
    }
}
