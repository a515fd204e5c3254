#!/usr/bin/env python3
"""Icecast: `tplayer -o icecast` against MPD 0.23's `shout` output, each the source of a private
icecast2 on 127.0.0.1 (a fresh server for each run), encoding the same song as Ogg Vorbis at
128 kbit/s and as MP3 at 192 kbit/s (both through the reference encoders: libvorbis and LAME;
MPD's `vorbis` and `lame` encoders, tplayer's through libavcodec). MPD's runs and tplayer's
interleaved, MPD's first; RUNS runs each.

The song: 60 s of pink noise at -10 dB in both channels (what an encoder finds hardest: no quiet
part to spend few bits on), a 44.1 kHz 16-bit stereo FLAC made by sox and flac
(bench/out/icecast-noise.flac, not committed): neither player resamples it.

- CPU: the player's CPU seconds (user + system, the whole process: every thread) over the same
  20 s window of broadcasting, read from /proc/PID/stat before and after for both (MPD keeps
  running). The window opens 1 s after the mount answers, so it covers about the song's
  seconds 1 to 21 in both, without either's start-up. The median of RUNS.
- A listener (Python's urllib, on the mount) reads the stream throughout the window, and the
  run fails unless it received at least half the bit rate's bytes: both broadcast in real time.

Every process started here is killed (SIGKILL) at the end of its run, and its folder removed.

Usage: icecast.py TPLAYER [RUNS]      (prints the figures)
"""
import os, shutil, statistics, subprocess, sys, tempfile, threading, time, urllib.request

root = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, root)
from library import process_cpu  # noqa: E402
from radio import PASSWORD, Icecast, free_port  # noqa: E402
from run import flac_song  # noqa: E402
from snapcast import kill, log_tails, mpd_config, mpd_told, private_environment  # noqa: E402

WINDOW = 20.0
SETTLE = 1.0
FORMATS = {"vorbis": ("/bench.ogg", 128, 'encoder "vorbis"\n bitrate "128"'),
           "mp3": ("/bench.mp3", 192, 'encoder "lame"\n bitrate "192"')}


def listen(url, counted, stop):
    """Reads `url` until `stop` is set, adding what it receives to `counted[0]`."""
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            while not stop.is_set():
                data = answer.read(4096)
                if not data:
                    return
                counted[0] += len(data)
    except OSError:
        return


def one_run(name, fmt, tplayer, song, env):
    """One player's broadcast of `fmt` to a fresh server: (CPU seconds over the window, bytes
    a listener received in it)."""
    mount, kbps, encoder = FORMATS[fmt]
    folder = tempfile.mkdtemp(prefix=f"tplayer-bench-icecast-{name}-")
    private = private_environment(folder, env)
    server = Icecast(None)
    process = None
    try:
        errors = open(os.path.join(folder, name + ".stderr"), "w")
        if name == "tplayer":
            settings = os.path.join(folder, "tplayer.conf")
            with open(settings, "w") as f:
                f.write(f"icecast = http://source:{PASSWORD}@127.0.0.1:{server.port}{mount}\nicecast-format = {fmt}:{kbps}\n")
            arguments = [tplayer, "-q", "--no-mpris", "--config", settings, "-o", "icecast", song]
        else:
            port = free_port()
            conf = mpd_config(folder, song, port, f' type "shout"\n name "bench"\n host "127.0.0.1"\n port "{server.port}"\n'
                              f' mount "{mount}"\n user "source"\n password "{PASSWORD}"\n {encoder}\n format "44100:16:2"')
            arguments = ["/usr/bin/mpd", "--no-daemon", conf]
        process = subprocess.Popen(arguments, env=private, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=errors)
        errors.close()
        if name == "mpd":
            mpd_told(port, [f"add {os.path.basename(song)}", "play"])
        server.wait(mount, (200,))
        counted, stop = [0], threading.Event()
        listener = threading.Thread(target=listen, args=(f"http://127.0.0.1:{server.port}{mount}", counted, stop))
        listener.start()
        time.sleep(SETTLE)
        before, heard = process_cpu(process.pid), counted[0]
        time.sleep(WINDOW)
        used, heard = process_cpu(process.pid) - before, counted[0] - heard
        stop.set()
        listener.join(timeout=15)
        if heard < WINDOW * kbps * 1000 / 8 / 2:
            raise RuntimeError(f"{name}: a listener received {heard} bytes in {WINDOW:.0f} s of {fmt} at {kbps} kbit/s")
        return used, heard
    except (RuntimeError, OSError) as problem:
        sys.exit(f"bench: icecast: {problem}{log_tails(folder, (f'{name}.stderr', 'mpd.log'))}")
    finally:
        if process:
            kill(process)
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)
        shutil.rmtree(server.folder, ignore_errors=True)


def measure(tplayer, runs):
    """{fmt: {player: (median CPU s, median kbit/s a listener received)}}."""
    song = flac_song("icecast-noise", 60, ["pinknoise", "pinknoise", "gain", "-10"])
    raw = {fmt: {"tplayer": [], "mpd": []} for fmt in FORMATS}
    for run in range(runs):
        for fmt in FORMATS:
            for name in ("mpd", "tplayer"):
                used, heard = one_run(name, fmt, tplayer, song, os.environ)
                raw[fmt][name].append((used, heard))
                print(f"icecast: run {run + 1}, {fmt}, {name}: CPU {used:.3f} s, a listener received "
                      f"{heard * 8 / WINDOW / 1000:.0f} kbit/s", file=sys.stderr)
    return {fmt: {name: (statistics.median(u for u, _ in values), statistics.median(h for _, h in values) * 8 / WINDOW / 1000)
                  for name, values in players.items()} for fmt, players in raw.items()}


if __name__ == "__main__":
    binary = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "..", ".build", "release", "tplayer"))
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    for fmt, players in measure(binary, runs).items():
        (t, tk), (m, mk) = players["tplayer"], players["mpd"]
        print(f"CPU broadcasting {WINDOW:.0f} s of {fmt} to Icecast (median of {runs}): tplayer {t:.3f} s, MPD {m:.3f} s "
              f"({t / m:.2f}×); a listener received {tk:.0f} and {mk:.0f} kbit/s")
