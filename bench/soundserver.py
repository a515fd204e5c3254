"""A private PulseAudio server with a null sink, and a recorder of what that sink plays.

The sink runs at the songs' format (44.1 kHz, 16-bit stereo) at 100 % volume, so nothing is
resampled or scaled: what the monitor records is exactly what the player wrote. Each block the
recorder reads is stamped with the monotonic time it arrived, so a moment in the recording can
be set against a moment a key was pressed.

A null sink keeps no clock of its own: it renders as far ahead as the latency its clients ask
for allows (2 s when none asks) and idles, its monitor silent, while nothing plays. So the server
plays silence into it at 20 ms of latency for as long as it runs, which makes it play in real
time as a sound card does, and it never rewinds: what it rendered has reached the monitor, which
cannot take it back (a cork or a flush is heard after the ~20 ms it rendered ahead, as on a card
that cannot rewind).

`SoundServer(bare=True)` is the null sink users have instead: nothing plays into it but the
player, it renders as far ahead as the player lets it and rewinds when a stream starts, and
its recorder asks for no latency of its own (`Recorder(server, latency_ms=None)`, the user's
`parec -d sink.monitor`): what the player makes it render again is lost on the monitor.
"""
import os, shutil, subprocess, tempfile, threading, time

RATE, CHANNELS = 44100, 2
FRAME = 2 * CHANNELS


class SoundServer:
    def __init__(self, bare=False):
        self.runtime = tempfile.mkdtemp(prefix="tplayer-pulse-")
        self.env = dict(os.environ, XDG_RUNTIME_DIR=self.runtime, HOME=self.runtime,
                        PULSE_SERVER=f"unix:{self.runtime}/pulse/native")
        self.env.pop("PULSE_LATENCY_MSEC", None)
        subprocess.run(
            ["pulseaudio", "-D", "-n", "--exit-idle-time=-1", "--use-pid-file=yes", "--log-target=stderr",
             f"--load=module-null-sink sink_name=bench rate={RATE} format=s16le channels={CHANNELS}"
             + ("" if bare else " norewinds=1"),
             "--load=module-native-protocol-unix"],
            env=self.env, check=True, stderr=subprocess.DEVNULL)
        for _ in range(100):
            if os.path.exists(f"{self.runtime}/pulse/native"):
                break
            time.sleep(0.05)
        subprocess.run(["pactl", "set-sink-volume", "bench", "100%"], env=self.env, check=True)
        self.keeper = None
        if bare:
            return
        with open("/dev/zero", "rb") as zero:
            self.keeper = subprocess.Popen(
                ["pacat", "-p", "-d", "bench", "--raw", "--format=s16le", f"--rate={RATE}", f"--channels={CHANNELS}",
                 "--latency-msec=20", "--client-name=bench-keep-running"],
                env=self.env, stdin=zero, stderr=subprocess.DEVNULL)

    def stop(self):
        if self.keeper:
            self.keeper.kill()
            self.keeper.wait()
        subprocess.run(["pulseaudio", "--kill"], env=self.env, stderr=subprocess.DEVNULL)
        shutil.rmtree(self.runtime, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.stop()


class Recorder:
    """Records the null sink's monitor; `blocks` holds (arrival time, end byte) per read. With no
    latency asked (`latency_ms=None`), the server hands it what was recorded 2 s at a time."""

    def __init__(self, server, latency_ms=5):
        self.pieces = latency_ms is None
        self.process = subprocess.Popen(
            ["parec", "-d", "bench.monitor", "--raw", "--format=s16le", f"--rate={RATE}",
             f"--channels={CHANNELS}"] + ([] if latency_ms is None else [f"--latency-msec={latency_ms}"]),
            env=server.env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.data = bytearray()
        self.blocks = []
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()
        # On a server just started the monitor may take a second to deliver anything.
        deadline = time.monotonic() + 10
        while self.frames() < RATE // 10 and time.monotonic() < deadline:
            time.sleep(0.02)

    def _read(self):
        fd = self.process.stdout.fileno()
        while True:
            chunk = os.read(fd, 4096)
            if not chunk:
                return
            now = time.monotonic()
            with self.lock:
                self.data += chunk
                self.blocks.append((now, len(self.data)))

    def stop(self):
        if self.pieces:
            time.sleep(2.6)  # the last piece
        self.process.terminate()
        self.process.wait()
        self.thread.join()
        return bytes(self.data)

    def frames(self):
        with self.lock:
            return len(self.data) // FRAME

    def arrival(self, frame):
        """When the block holding `frame` arrived (a bound on when the sink played it)."""
        end = (frame + 1) * FRAME
        with self.lock:
            for when, size in self.blocks:
                if size >= end:
                    return when
        return None

    def loud_frames(self, start=0, threshold=64):
        """Indices of frames from `start` on where any channel is louder than `threshold`."""
        with self.lock:
            view = memoryview(bytes(self.data[start * FRAME:len(self.data) // FRAME * FRAME])).cast("h")
        loud = []
        for index in range(0, len(view), CHANNELS):
            if max(abs(view[index]), abs(view[index + 1])) > threshold:
                loud.append(start + index // CHANNELS)
        return loud
