#!/usr/bin/env python3
"""What is heard on a sound server, tplayer, mpg123 and mpv side by side: how much of a song is
heard at all on a bare null sink, dropouts while the machine is loaded (on the kept sink and on
a bare one), a pause and resume sample for sample, and a disk that stalls mid-song.

Everything plays a steady tone to a private PulseAudio null sink (`soundserver.py`) whose
monitor is recorded. A dropout is a silent run of 1 ms or more (44 frames of zeros) between the
first and the last loud sample of the tone: a steady sine has no such run of its own.

Usage: live.py TPLAYER [RUNS]      (prints one line per measure)
"""
import array, os, subprocess, sys, time
from soundserver import SoundServer, Recorder, RATE

root = os.path.dirname(os.path.abspath(__file__))
out = os.path.join(root, "out")
GAP = RATE // 1000  # 1 ms


def tone(seconds):
    """bench/out/tone-Ns.mp3: a 440 Hz tone, `seconds` long."""
    path = os.path.join(out, f"tone-{seconds}s.mp3")
    if not os.path.exists(path):
        os.makedirs(out, exist_ok=True)
        wav = path[:-4] + ".wav"
        subprocess.run(["sox", "-q", "-n", "-r", str(RATE), "-c", "2", "-b", "16", wav,
                        "synth", str(seconds), "sine", "440", "gain", "-6"], check=True)
        subprocess.run(["lame", "--quiet", "-b", "192", wav, path], check=True)
        os.unlink(wav)
    return path


def frames(data):
    """Stereo 16-bit frames, each as one 32-bit value."""
    view = array.array("I")
    view.frombytes(data[:len(data) // 4 * 4])
    return view


def silences(heard, least=GAP):
    """(first frame, length) of each run of at least `least` silent frames between the first and
    the last sound."""
    loud = [i for i in range(0, len(heard), 1) if heard[i] != 0]
    if not loud:
        return None
    runs, start = [], None
    for index in range(loud[0], loud[-1] + 1):
        if heard[index] == 0:
            start = index if start is None else start
        elif start is not None:
            if index - start >= least:
                runs.append((start, index - start))
            start = None
    return runs


def recorded(server, command, stdin=None):
    """What the monitor heard while `command` ran to its end (on a bare server, recorded as a
    user records it: no latency asked)."""
    recorder = Recorder(server, latency_ms=None if server.keeper is None else 5)
    subprocess.run(command, env=server.env, stdin=stdin or subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=True)
    time.sleep(0.3)
    return frames(recorder.stop())


def players(tplayer, song, mpv=False):
    result = {"tplayer": [tplayer, "-q", "-o", "pulse", song], "mpg123": ["mpg123", "-q", "-o", "pulse", song]}
    if mpv:
        result["mpv"] = ["mpv", "--no-config", "--really-quiet", "--no-video", "--ao=pulse", song]
    return result


def heard(tplayer, runs=3, seconds=10):
    """Seconds of a `seconds` tone each player is heard for on a bare null sink (median of
    `runs`): the tone has no silent frame, so every frame recorded that is not silent is one of
    the song's. tplayer was heard 5.8 to 7.4 s of 10 here, its start lost."""
    song = tone(seconds)
    result = {name: [] for name in ("tplayer", "mpg123", "mpv")}
    with SoundServer(bare=True) as server:
        for _ in range(runs):
            for name, command in players(tplayer, song, mpv=True).items():
                sound = recorded(server, command)
                result[name].append(sum(1 for value in sound if value != 0) / RATE)
    return {name: sorted(values)[len(values) // 2] for name, values in result.items()}


def dropouts(tplayer, runs=6, seconds=20, load=16, bare=False):
    """Runs with a dropout, and the longest, for each player, with `load` busy loops on the cores."""
    song = tone(seconds)
    result = {name: {"runs": 0, "longest": 0.0, "total": 0.0} for name in ("tplayer", "mpg123", "mpv")}
    with SoundServer(bare=bare) as server:
        hogs = [subprocess.Popen(["yes"], stdout=subprocess.DEVNULL) for _ in range(load)]
        try:
            for _ in range(runs):
                for name, command in players(tplayer, song, mpv=True).items():
                    gaps = silences(recorded(server, command))
                    if gaps is None:
                        sys.exit(f"bench: nothing was heard from {name}")
                    if gaps:
                        result[name]["runs"] += 1
                        result[name]["longest"] = max(result[name]["longest"], max(g[1] for g in gaps) / RATE * 1000)
                        result[name]["total"] += sum(g[1] for g in gaps) / RATE * 1000
        finally:
            for hog in hogs:
                hog.kill()
                hog.wait()
    return result


def pause_and_resume(tplayer):
    """tplayer -R with --no-fade pauses 1.2 s into a song for 0.8 s: whether the recording, its
    silences cut out, is `tplayer -w` of the song sample for sample, and the silences it has."""
    song = tone(5)
    reference = os.path.join(out, "pause-reference.raw")
    subprocess.run([tplayer, "-q", "--force", "-w", reference, song], check=True, stdin=subprocess.DEVNULL)
    with open(reference, "rb") as f:
        ours = frames(f.read())
    with SoundServer() as server:
        recorder = Recorder(server)
        player = subprocess.Popen([tplayer, "-R", "-o", "pulse", "--no-fade"], env=server.env, text=True,
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=1)

        def send(line):
            player.stdin.write(line + "\n")
            player.stdin.flush()

        def wait_for(line):
            for reply in player.stdout:
                if reply.strip() == line:
                    return
            sys.exit(f"bench: tplayer -R ended before {line}")

        send(f"LOAD {song}")
        wait_for("@P 2")
        time.sleep(1.2)
        send("PAUSE")
        wait_for("@P 1")
        time.sleep(0.8)
        send("PAUSE")
        wait_for("@P 0")
        send("QUIT")
        player.wait()
        time.sleep(0.3)
        heard = frames(recorder.stop())
    gaps = silences(heard) or []
    cut = array.array("I", (value for value in heard if value != 0))
    # The tone's own zero samples are cut from both.
    theirs = array.array("I", (value for value in ours if value != 0))
    # The monitor starts a little into the song: line the recording up on its first frames.
    start = next((i for i in range(min(len(theirs) - 256, RATE)) if theirs[i:i + 256] == cut[:256]), None)
    same = start is not None and start <= RATE // 10 and cut == theirs[start:]
    return same, gaps


def stall(tplayer, seconds=20, stall_seconds=2.0):
    """Each player plays a tone from a FUSE mount whose reads stall for `stall_seconds` halfway
    through the file: the silences heard. `None` where FUSE cannot be mounted here."""
    song = tone(seconds)
    tool = os.path.join(root, "..", "Tests", "Tools", "stallfs.py")
    result = {}
    with SoundServer() as server:
        for name in ("tplayer", "mpg123"):
            mount = os.path.join(out, "stall-mount")
            os.makedirs(mount, exist_ok=True)
            log = os.path.join(out, "stall.log")
            if os.path.exists(log):
                os.unlink(log)
            fs = subprocess.Popen([sys.executable, tool, mount, song, "--stall-at", str(os.path.getsize(song) // 2),
                                   "--stall-seconds", str(stall_seconds), "--stall-log", log, "--stall-per-open"],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            if fs.stdout.readline().strip() != "ready":
                fs.wait()
                return None
            try:
                gaps = silences(recorded(server, players(tplayer, os.path.join(mount, os.path.basename(song)))[name]))
            finally:
                fs.terminate()
                fs.wait()
            with open(log) as f:
                stalls = f.read().count("stall end")  # one per open handle that read past the middle
            if not stalls:
                sys.exit(f"bench: the read of {name} did not stall")
            result[name] = gaps
    return result


def main():
    tplayer = os.path.abspath(sys.argv[1])
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 6
    print("heard on a bare sink", heard(tplayer))
    print("dropouts", dropouts(tplayer, runs))
    print("dropouts on a bare sink", dropouts(tplayer, runs, bare=True))
    print("pause and resume", pause_and_resume(tplayer))
    print("stall", stall(tplayer))


if __name__ == "__main__":
    main()
