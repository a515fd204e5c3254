#!/usr/bin/env python3
"""The now-playing view: what it costs to keep it open, and how soon it answers a key.

A 40 s MP3 with a cover.jpg (ffmpeg's test picture) and a .lrc (a line every second, the
enhanced form's word times) beside it plays on a private PulseAudio server's null sink, in a
pseudo-terminal of 100 × 40 with colours (TERM=xterm-256color, COLORTERM=truecolor). The CPU
seconds (user + system, /proc/PID/stat) of 20 s of playing, from 3 s after the start, are
measured for: the status line alone; the view open (cover, lyrics, next songs); the view with
the spectrum on (32 bars, 25 redraws a second); and mpg123 playing the same file (`-o pulse`),
the runs interleaved. The spectrum's cost is the view-with-spectrum run less the status line's,
in percentage points of a core (the target: at most 2). With the view and the spectrum open,
Space is pressed 20 times, each after the last one's frame arrived, and the time from writing it
to reading the status line it changes (`Paused ` / `Playing `) is the key's latency.
"""
import os, select, statistics, subprocess, sys, threading, time
from soundserver import SoundServer
from spawning import in_pty, spawn, stop_pty

here = os.path.dirname(os.path.abspath(__file__))
out = os.path.join(here, "out", "nowplaying")
WIDTH, HEIGHT = 100, 40
WINDOW = 20.0
SPECTRUM_TARGET = 2.0


def make_album():
    """The song, its cover and its lyrics (made once)."""
    os.makedirs(out, exist_ok=True)
    song = os.path.join(out, "song.mp3")
    if not os.path.exists(song):
        wav = os.path.join(out, "song.wav")
        subprocess.run(["sox", "-q", "-n", "-r", "44100", "-c", "2", "-b", "16", wav, "synth", "40", "pinknoise", "sine", "220:3520",
                        "gain", "-9"], check=True)
        subprocess.run(["lame", "--quiet", "-b", "192", wav, song], check=True)
        os.remove(wav)
        subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=s=600x600", "-frames:v", "1",
                        os.path.join(out, "cover.jpg")], check=True)
        with open(os.path.join(out, "song.lrc"), "w") as lrc:
            for second in range(40):
                words = " ".join(f"<00:{second:02}.{tenth * 2}0>word{tenth}" for tenth in range(5))
                lrc.write(f"[00:{second:02}.00]{words}\n")
    return song


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Reader(threading.Thread):
    """Reads the pty as a terminal would (a pty left unread would stall the player's writes),
    and says when a text has come."""

    def __init__(self, fd):
        super().__init__(daemon=True)
        self.fd, self.seen, self.lock, self.done = fd, b"", threading.Condition(), False
        self.start()

    def run(self):
        while True:
            try:
                ready, _, _ = select.select([self.fd], [], [], 0.5)
                chunk = os.read(self.fd, 65536) if ready else b""
            except OSError:
                break
            with self.lock:
                self.seen = (self.seen + chunk)[-65536:]
                self.lock.notify_all()

    def wait_for(self, needle, seconds=15):
        """Waits until `needle` has come since the last call; the time it came."""
        deadline = time.monotonic() + seconds
        with self.lock:
            while needle not in self.seen:
                left = deadline - time.monotonic()
                if left <= 0:
                    sys.exit(f"nowplaying bench: the screen never showed {needle!r}")
                self.lock.wait(left)
            arrived = time.monotonic()
            self.seen = self.seen[self.seen.index(needle) + len(needle):]
            return arrived

    def forget(self):
        with self.lock:
            self.seen = b""

    def space_presses(self, fd, presses=20, pause=0.0):
        """Space pressed `presses` times, each timed in ms from its write to the status line's
        `Paused ` or `Playing ` read back; `pause` seconds between presses."""
        times = []
        for press in range(presses):
            expected = b"Paused " if press % 2 == 0 else b"Playing "
            self.forget()
            sent = time.monotonic()
            os.write(fd, b" ")
            times.append((self.wait_for(expected) - sent) * 1000)
            time.sleep(pause)
        return times


def run_tplayer(tplayer, song, env, keys, config, latency=False):
    """CPU seconds of WINDOW seconds of playing with `keys` typed first; the keys' latencies too."""
    pid, fd = in_pty([tplayer, "--config", config, "-o", "pulse", song], env, cwd=out, size=(WIDTH, HEIGHT))
    reader = Reader(fd)
    times = []
    try:
        reader.wait_for(b"Playing ")
        if keys:
            os.write(fd, keys)
        time.sleep(3)
        start = cpu_seconds(pid)
        time.sleep(WINDOW)
        used = cpu_seconds(pid) - start
        if latency:
            times = reader.space_presses(fd)
        os.write(fd, b"q")
    finally:
        stop_pty(pid, fd)
    return used, times


def run_mpg123(song, env):
    pid = spawn(["mpg123", "-q", "-o", "pulse", song], env=env)
    try:
        time.sleep(3)
        start = cpu_seconds(pid)
        time.sleep(WINDOW)
        return cpu_seconds(pid) - start
    finally:
        os.kill(pid, 15)
        os.waitpid(pid, 0)


def measure(tplayer, runs=3):
    song = make_album()
    plain, spectrum = os.path.join(out, "plain.conf"), os.path.join(out, "spectrum.conf")
    with open(plain, "w") as f:
        f.write("resume = off\n")
    with open(spectrum, "w") as f:
        f.write("resume = off\nspectrum = 32\n")
    cases = {"status": [], "view": [], "spectrum": [], "mpg123": []}
    latencies = []
    with SoundServer() as server:
        env = dict(server.env, TERM="xterm-256color", COLORTERM="truecolor", XDG_STATE_HOME=os.path.join(out, "state"))
        env.pop("NO_COLOR", None)
        for run in range(runs):
            cases["status"].append(run_tplayer(tplayer, song, env, b"", plain)[0])
            cases["mpg123"].append(run_mpg123(song, server.env))
            cases["view"].append(run_tplayer(tplayer, song, env, b"o", plain)[0])
            used, times = run_tplayer(tplayer, song, env, b"o", spectrum, latency=run == 0)
            cases["spectrum"].append(used)
            latencies += times
    medians = {name: statistics.median(values) for name, values in cases.items()}
    return medians, latencies


if __name__ == "__main__":
    tplayer = os.path.abspath(sys.argv[1])
    medians, latencies = measure(tplayer, int(sys.argv[2]) if len(sys.argv) > 2 else 3)
    for name, seconds in medians.items():
        print(f"{name}: {seconds:.3f} s of CPU in {WINDOW:.0f} s ({seconds / WINDOW * 100:.2f} % of a core)")
    cost = (medians["spectrum"] - medians["status"]) / WINDOW * 100
    print(f"spectrum and view: {cost:+.2f} pp of a core (target ≤ {SPECTRUM_TARGET})")
    print(f"Space in the view: median {statistics.median(latencies):.2f} ms, worst {max(latencies):.2f} ms ({len(latencies)} keys)")
