#!/usr/bin/env python3
"""Time to the first sample and peak RSS with a 100,000-entry M3U, tplayer against mpg123.

Both players get the same generated playlist (#EXTINF titles, relative paths spread over 1,000
song files) and write WAV into a FIFO; the time to the first sample is from starting the
process to the first PCM bytes arriving, and the peak RSS is the kernel's for the process, two
seconds on (tplayer reads the rest of a long list while its first songs play).
Runs are interleaved; medians of 5 reported, with the ratios. Targets: at most 3x mpg123's time to
the first sample and 2x its peak RSS.
"""
import os, signal, statistics, sys, time
from spawning import spawn

root = os.path.dirname(os.path.abspath(__file__))
out = os.path.join(root, "out", "playlist")
tplayer = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "..", ".build/release/tplayer"))
song = os.path.join(root, "..", "Resources", "01-morning-arpeggio.mp3")
ENTRIES, FILES, RUNS = 100_000, 1_000, 5
# tplayer against mpg123 on the same list in one run: at most 3x its time, 2x its memory.
TIME_TARGET, RSS_TARGET = 3, 2

def make_list():
    songs = os.path.join(out, "songs")
    os.makedirs(songs, exist_ok=True)
    for i in range(FILES):
        link = os.path.join(songs, f"track{i:04d}.mp3")
        if not os.path.lexists(link):
            os.symlink(os.path.abspath(song), link)
    playlist = os.path.join(out, "big.m3u")
    if not os.path.exists(playlist):
        with open(playlist, "w") as f:
            f.write("#EXTM3U\n")
            for i in range(ENTRIES):
                f.write(f"#EXTINF:9,Bench Band - Song {i}\nsongs/track{i % FILES:04d}.mp3\n")
    return playlist

def first_sample(command, fifo):
    """Seconds from start to the first PCM bytes in `fifo`, and the peak RSS in MB."""
    if os.path.exists(fifo):
        os.unlink(fifo)
    os.mkfifo(fifo)
    start = time.monotonic()
    pid = spawn(command, quiet=(0, 2))
    received = 0
    with open(fifo, "rb", buffering=0) as f:
        while received <= 256:  # past any WAV header (44 or 68 bytes): samples
            chunk = f.read(65536)
            if not chunk:
                break
            received += len(chunk)
        elapsed = time.monotonic() - start
        # The peak is taken once the whole list is surely read (tplayer reads the rest while its
        # first songs play): two seconds on, the output drained meanwhile.
        settle = time.monotonic() + 2
        while time.monotonic() < settle and f.read(65536):
            pass
        # The process's own high-water mark (wait4's would count this Python process's memory,
        # which the kernel carries across the exec).
        with open(f"/proc/{pid}/status") as status:
            peak = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
        os.kill(pid, signal.SIGTERM)
        while f.read(65536):
            pass
    os.wait4(pid, 0)
    if received <= 256:
        sys.exit(f"{command[0]} wrote no samples")
    return elapsed, peak / 1024

def measure(runs=RUNS):
    """Median seconds to the first sample and peak RSS (MB) of each player."""
    playlist = make_list()
    fifo = os.path.join(out, "pcm.fifo")
    commands = {
        "mpg123": ["mpg123", "-q", "-w", fifo, "-@", playlist],
        "tplayer": [tplayer, "-q", "--force", "-w", fifo, playlist],
    }
    results = {name: [] for name in commands}
    for _ in range(runs):
        for name, command in commands.items():
            results[name].append(first_sample(command, fifo))
    return {name: (statistics.median(r[0] for r in rs), max(r[1] for r in rs)) for name, rs in results.items()}

def main():
    summary = measure()
    print(f"{ENTRIES:,}-entry M3U: time to the first sample and peak RSS, median of {RUNS} runs each")
    for name, (seconds, rss) in summary.items():
        print(f"  {name:8}: {seconds:6.3f} s to the first sample, peak RSS {rss:6.1f} MB")
    t, m = summary["tplayer"], summary["mpg123"]
    time_ratio, rss_ratio = t[0] / m[0], t[1] / m[1]
    print(f"  time to the first sample, tplayer/mpg123: {time_ratio:.2f} (target <= {TIME_TARGET:g}): "
          f"{'met' if time_ratio <= TIME_TARGET else 'MISSED'}")
    print(f"  peak RSS, tplayer/mpg123: {rss_ratio:.2f} (target <= {RSS_TARGET:g}): "
          f"{'met' if rss_ratio <= RSS_TARGET else 'MISSED'}")

if __name__ == "__main__":
    main()
