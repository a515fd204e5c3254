#!/usr/bin/env python3
"""Internet radio, side by side with mpg123 and mpv on a local Icecast 2 server (ffmpeg its
source, a 30 s tone looped at its own pace): the time from start to the first sound on the
sink's monitor, and the CPU seconds and peak RSS of 20 s of playing the stream.

Usage: radio.py TPLAYER [RUNS]      (prints one line per player)
"""
import os, signal, socket, statistics, subprocess, sys, tempfile, time, urllib.request
from soundserver import SoundServer, Recorder

root = os.path.dirname(os.path.abspath(__file__))
out = os.path.join(root, "out")
PASSWORD = "bench-source"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Icecast:
    """icecast2 on a port of its own, with ffmpeg playing `song` into /radio.mp3 (no song: no
    source; the mounts are made by whoever broadcasts)."""

    def __init__(self, song):
        self.folder = tempfile.mkdtemp(prefix="tplayer-bench-icecast-")
        os.chmod(self.folder, 0o755)  # icecast, become nobody, writes its logs in it
        logs = os.path.join(self.folder, "log")
        os.makedirs(logs)
        os.chmod(logs, 0o777)
        self.port = free_port()
        owner = "<changeowner><user>nobody</user><group>nogroup</group></changeowner>" if os.getuid() == 0 else ""
        config = os.path.join(self.folder, "icecast.xml")
        with open(config, "w") as f:
            f.write(f"""<icecast><limits><clients>20</clients><sources>2</sources><burst-size>65536</burst-size></limits>
<authentication><source-password>{PASSWORD}</source-password><admin-password>bench-admin</admin-password></authentication>
<hostname>127.0.0.1</hostname><listen-socket><port>{self.port}</port><bind-address>127.0.0.1</bind-address></listen-socket>
<paths><logdir>{logs}</logdir><webroot>/usr/share/icecast2/web</webroot><adminroot>/usr/share/icecast2/admin</adminroot></paths>
<logging><accesslog>access.log</accesslog><errorlog>error.log</errorlog><loglevel>2</loglevel></logging>
<security><chroot>0</chroot>{owner}</security></icecast>""")
        self.server = subprocess.Popen(["icecast2", "-c", config], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.wait("/", (200, 404))
        self.source = None
        if song is None:
            return
        self.source = subprocess.Popen(
            ["ffmpeg", "-nostdin", "-loglevel", "error", "-re", "-stream_loop", "-1", "-i", song, "-c", "copy",
             "-content_type", "audio/mpeg", "-ice_name", "Bench FM", "-f", "mp3",
             f"icecast://source:{PASSWORD}@127.0.0.1:{self.port}/radio.mp3"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.wait("/radio.mp3", (200,))
        self.url = f"http://127.0.0.1:{self.port}/radio.mp3"

    def wait(self, path, codes):
        for _ in range(100):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{path}", timeout=2) as answer:
                    if answer.status in codes:
                        return
            except urllib.error.HTTPError as error:
                if error.code in codes:
                    return
            except OSError:
                pass
            time.sleep(0.1)
        sys.exit(f"bench: Icecast never answered {path}")

    def stop(self):
        for process in (self.source, self.server):
            if process:
                process.kill()
                process.wait()


def players(tplayer, url):
    return {
        "tplayer": [tplayer, "-q", "-o", "pulse", url],
        "mpg123": ["mpg123", "-q", "-o", "pulse", url],
        "mpv": ["mpv", "--no-config", "--really-quiet", "--no-video", "--ao=pulse", url],
    }


def first_sound(server, command):
    """Seconds from the start of `command` to its first loud frame on the monitor."""
    recorder = Recorder(server)
    start_frame = recorder.frames()
    started = time.monotonic()
    process = subprocess.Popen(command, env=server.env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    heard = None
    while heard is None and time.monotonic() < started + 15:
        time.sleep(0.01)
        loud = recorder.loud_frames(start_frame, threshold=1000)
        if loud:
            heard = recorder.arrival(loud[0]) - started
    process.kill()
    process.wait()
    recorder.stop()
    return heard if heard is not None else float("inf")


def playing(server, command, seconds=20):
    """CPU seconds (user + system) and peak RSS (MB) of `seconds` of playing, then SIGTERM."""
    process = subprocess.Popen(command, env=server.env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    time.sleep(seconds)
    with open(f"/proc/{process.pid}/status") as f:
        rss = next(int(line.split()[1]) for line in f if line.startswith("VmHWM")) / 1024
    os.kill(process.pid, signal.SIGTERM)
    _, _, usage = os.wait4(process.pid, 0)
    return usage.ru_utime + usage.ru_stime, rss


def measure(tplayer, runs=3):
    """{player: (first sound s, CPU s for 20 s, peak RSS MB)}: medians of `runs`."""
    os.makedirs(out, exist_ok=True)
    song = os.path.join(out, "radio-tone.mp3")
    if not os.path.exists(song):
        subprocess.run(["sh", "-c", f"sox -q -n -r 44100 -c 2 -b 16 -t wav - synth 30 sine 440 gain -6 | lame --quiet -b 128 - {song}"],
                       check=True)
    radio = Icecast(song)
    figures = {}
    try:
        with SoundServer() as server:
            commands = players(tplayer, radio.url)
            firsts = {name: [] for name in commands}
            for _ in range(runs):
                for name, command in commands.items():
                    firsts[name].append(first_sound(server, command))
            for name, command in commands.items():
                cpu, rss = playing(server, command)
                figures[name] = (statistics.median(firsts[name]), cpu, rss)
    finally:
        radio.stop()
    return figures


if __name__ == "__main__":
    result = measure(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 3)
    for name, (first, cpu, rss) in result.items():
        print(f"{name}: first sound {first * 1000:.0f} ms, CPU {cpu:.3f} s for 20 s, peak RSS {rss:.1f} MB")
