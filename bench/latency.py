#!/usr/bin/env python3
"""How soon a key is heard: pause, seek and next, measured on what reaches a sound server.

tplayer plays a steady tone to a private PulseAudio null sink in a real terminal (a pty);
the sink's monitor is recorded. Once the tone has played 1 to 13 s, a key is pressed: space
(pause), `9` (seek to 90 %, where the song is silent) or `n` (the next song, silence). The
latency is from the key to the last loud sample the monitor received, so it includes the
device buffer, not just the call. Prints `pause MEDIAN MAX`, `seek MEDIAN MAX` and `next MEDIAN
MAX` in milliseconds over RUNS runs.

Usage: latency.py TPLAYER [RUNS]
"""
import os, select, statistics, subprocess, sys, time
from spawning import in_pty, stop_pty
from soundserver import SoundServer, Recorder

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


def one_run(tplayer, songs, server, key, delay):
    recorder = Recorder(server)
    drain_until = time.monotonic() + 0.3
    while time.monotonic() < drain_until:
        time.sleep(0.01)
    pid, master = in_pty([tplayer, "-o", "pulse"] + songs, server.env)
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
    return (recorder.arrival(loud[-1]) - pressed) * 1000


def measure(tplayer, runs=5):
    """Median and max heard latency of a pause, a seek and a next, in ms, over `runs` runs each."""
    song, silence = make_song(), make_silence()
    results = {"pause": [], "seek": [], "next": []}
    with SoundServer() as server:
        for run in range(runs):
            # Keys at different moments: the queue the player keeps varies as it plays.
            delay = DELAYS[run % len(DELAYS)]
            results["pause"].append(one_run(tplayer, [song], server, b" ", delay))
            results["seek"].append(one_run(tplayer, [song], server, b"9", delay + 0.5))
            results["next"].append(one_run(tplayer, [song, silence], server, b"n", delay + 0.25))
    return {name: (statistics.median(values), max(values)) for name, values in results.items()}


def main():
    tplayer = os.path.abspath(sys.argv[1])
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    for name, (median, most) in measure(tplayer, runs).items():
        print(f"{name} {median:.1f} {most:.1f}")


if __name__ == "__main__":
    main()
