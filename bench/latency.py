#!/usr/bin/env python3
"""How soon a key is heard: pause, seek and next, measured on what reaches a sound server.

tplayer plays a steady tone to a private PulseAudio null sink in a real terminal (a pty);
the sink's monitor is recorded. Once the tone has played 1 to 13 s, a key is pressed: space
(pause), `9` (seek to 90 %, where the song is silent) or `n` (the next song, silence). The
latency is from the key to the last loud sample the monitor received, so it includes the
device buffer and the 10 ms fade, not just the call; and, for the pause, to the fade's start
(the first block of 1 ms whose peak falls under 90 % of the tone's). Prints `pause MEDIAN MAX`,
`pause-fade MEDIAN MAX`, `seek MEDIAN MAX` and `next MEDIAN MAX` in milliseconds over RUNS runs.

On a bare null sink (`bare_pause`), recorded as a user records it (no latency asked, so the
monitor arrives 2 s at a time and arrival times say nothing), the pause is measured in the
song's time instead: `tplayer -R` is asked the position heard (`SAMPLE`) right before `PAUSE`,
and the recording says how many of the song's frames were heard after it, to the fade's start
and to the last loud sample.

Usage: latency.py TPLAYER [RUNS]
"""
import os, select, statistics, subprocess, sys, time
from spawning import in_pty, stop_pty
from soundserver import SoundServer, Recorder, FRAME, RATE

root = os.path.dirname(os.path.abspath(__file__))
out = os.path.join(root, "out")


def make_song():
    """30 s of a 440 Hz tone, then 30 s of silence: `9` jumps into the silence."""
    song = os.path.join(out, "tone-then-silence.mp3")
    if not os.path.exists(song):
        os.makedirs(out, exist_ok=True)
        wav = song[:-4] + ".wav"
        subprocess.run(["sox", "-q", "-n", "-r", "44100", "-c", "2", "-b", "16", wav,
                        "synth", "30", "sine", "440", "gain", "-6", "pad", "0", "30"], check=True)
        subprocess.run(["lame", "--quiet", "-b", "192", wav, song], check=True)
        os.unlink(wav)
    return song


def make_silence():
    """10 s of silence: what `n` goes on to."""
    song = os.path.join(out, "silence.mp3")
    if not os.path.exists(song):
        os.makedirs(out, exist_ok=True)
        wav = song[:-4] + ".wav"
        subprocess.run(["sox", "-q", "-n", "-r", "44100", "-c", "2", "-b", "16", wav, "trim", "0", "10"], check=True)
        subprocess.run(["lame", "--quiet", "-b", "128", wav, song], check=True)
        os.unlink(wav)
    return song


DELAYS = [1.0, 7.0, 3.0, 13.0, 5.0]


def drain(fd, seconds):
    """Reads what the player shows for `seconds` (a pty that is not read fills and blocks it)."""
    end = time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            try:
                os.read(fd, 65536)
            except OSError:
                return


def one_run(tplayer, songs, server, key, delay, command=None):
    recorder = Recorder(server)
    drain_until = time.monotonic() + 0.3
    while time.monotonic() < drain_until:
        time.sleep(0.01)
    pid, master = in_pty(command or [tplayer, "-o", "pulse"] + songs, server.env)
    try:
        # Wait for the tone, then let it play a second.
        deadline = time.monotonic() + 10
        while not recorder.loud_frames(max(recorder.frames() - 4410, 0)):
            if time.monotonic() > deadline:
                raise RuntimeError("no sound reached the server")
            drain(master, 0.05)
        drain(master, delay)
        start = recorder.frames()
        os.write(master, key)
        pressed = time.monotonic()
        drain(master, 1.0)
        os.write(master, b"q")
        drain(master, 0.5)
    finally:
        stop_pty(pid, master)
    recorder.stop()
    loud = recorder.loud_frames(max(start - 4410, 0))
    if not loud:
        raise RuntimeError("the tone was not playing when the key was pressed")
    fading = fade_start(recorder, max(start - 4410, 0))
    return (recorder.arrival(loud[-1]) - pressed) * 1000, (recorder.arrival(fading) - pressed) * 1000 if fading else None


def fade_start(recorder, start, block=44):
    """The first frame from `start` of the first 1 ms block whose peak falls under 90 % of the
    steady tone's (the tone's blocks all reach its peak)."""
    with recorder.lock:
        data = bytes(recorder.data[start * FRAME:len(recorder.data) // FRAME * FRAME])
    view = memoryview(data).cast("h")
    peaks = [max(abs(view[i]) for i in range(first, min(first + block * 2, len(view)))) for first in range(0, len(view), block * 2)]
    steady = max(peaks) if peaks else 0
    for index, peak in enumerate(peaks):
        if steady and peak < steady * 0.9 and index > 0 and peaks[index - 1] >= steady * 0.9:
            return start + index * block
    return None


def mpv_keys():
    """An input.conf for mpv in which `9` seeks to 90 %, as tplayer's does."""
    path = os.path.join(out, "mpv-input.conf")
    with open(path, "w") as f:
        f.write("9 seek 90 absolute-percent\n")
    return path


def measure(tplayer, runs=5):
    """Median and max heard latency of a pause, a seek and a next, in ms, over `runs` runs each."""
    song, silence = make_song(), make_silence()
    results = {"pause": [], "pause-fade": [], "seek": [], "next": [], "mpv pause": [], "mpv seek": []}
    mpv = ["/usr/bin/mpv", "--no-config", "--really-quiet", "--no-video", "--ao=pulse", "--input-terminal=yes"]
    with SoundServer() as server:
        for run in range(runs):
            # Keys at different moments: the queue the player keeps varies as it plays.
            delay = DELAYS[run % len(DELAYS)]
            silent, fading = one_run(tplayer, [song], server, b" ", delay)
            results["pause"].append(silent)
            if fading is not None:
                results["pause-fade"].append(fading)
            results["seek"].append(one_run(tplayer, [song], server, b"9", delay + 0.5)[0])
            results["next"].append(one_run(tplayer, [song, silence], server, b"n", delay + 0.25)[0])
            # mpv, the control: space pauses (a cork), the seek to 90 % is its own key for it.
            results["mpv pause"].append(one_run(tplayer, [song], server, b" ", delay, command=mpv + [song])[0])
            results["mpv seek"].append(one_run(tplayer, [song], server, b"9", delay + 0.5,
                                               command=mpv + ["--input-conf=" + mpv_keys(), song])[0])
    return {name: (statistics.median(values), max(values)) for name, values in results.items() if values}


def bare_pause(tplayer, runs=5):
    """Median and max, in ms of the song, of what is heard after `PAUSE` on a bare null sink:
    to the fade's start and to the last loud sample."""
    song = make_song()
    fades, silences = [], []
    with SoundServer(bare=True) as server:
        for run in range(runs):
            recorder = Recorder(server, latency_ms=None)
            player = subprocess.Popen([tplayer, "-R", "-o", "pulse"], env=server.env, text=True, stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=1)

            def ask(line, reply):
                player.stdin.write(line + "\n")
                player.stdin.flush()
                for answer in player.stdout:
                    if answer.startswith(reply):
                        return answer.split()
                raise RuntimeError(f"tplayer -R ended before {reply}")

            ask(f"LOAD {song}", "@P 2")
            wanted = DELAYS[run % len(DELAYS)] * RATE
            while int(ask("SAMPLE", "@SAMPLE")[1]) < wanted:
                time.sleep(0.05)
            player.stdin.write("SAMPLE\nPAUSE\n")
            player.stdin.flush()
            at_key = next(int(answer.split()[1]) for answer in player.stdout if answer.startswith("@SAMPLE"))
            time.sleep(1.0)
            player.stdin.write("QUIT\n")
            player.stdin.flush()
            player.wait()
            recorder.stop()
            loud = recorder.loud_frames()
            if not loud:
                raise RuntimeError("nothing was heard")
            # Nothing of the song is lost at its start: its first loud frame is the song's first.
            first = loud[0]
            fading = fade_start(recorder, first)
            silences.append((loud[-1] - first - at_key) / RATE * 1000)
            if fading is not None:
                fades.append((fading - first - at_key) / RATE * 1000)
    return {"bare pause": (statistics.median(silences), max(silences)),
            "bare pause-fade": (statistics.median(fades), max(fades)) if fades else None}


def main():
    tplayer = os.path.abspath(sys.argv[1])
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    for name, (median, most) in measure(tplayer, runs).items():
        print(f"{name} {median:.1f} {most:.1f}")
    for name, figures in bare_pause(tplayer, runs).items():
        if figures:
            print(f"{name} {figures[0]:.1f} {figures[1]:.1f}")


if __name__ == "__main__":
    main()
