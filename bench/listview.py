#!/usr/bin/env python3
"""The list view with 100,000 entries: from a key to its finished redraw, in a real pty.

tplayer plays the 100,000-entry M3U of playlist.py to the null output in a pseudo-terminal of
100 × 40; the list view is opened, then keys are typed one at a time, each after the last one's
frame arrived: ↓ (40 times), PgDn (10), End and Home, and a search typed letter by letter
(`/song 99999`). A frame is written in one write, so the time from writing a key to reading the
line that proves its frame (the cursor's row, or the search prompt, which is drawn last) is the
key's latency. Median and worst are reported; the target is a median of at most 16 ms (a frame
at 60 Hz). The player's peak RSS over it all is reported too.
"""
import os, select, statistics, sys, time
import playlist
from spawning import in_pty, stop_pty

WIDTH, HEIGHT = 100, 40


def start(tplayer, big):
    env = dict(os.environ, TERM="xterm-256color", NO_COLOR="1", XDG_STATE_HOME=os.path.join(playlist.out, "state"))
    return in_pty([tplayer, "-o", "null", big], env, cwd=os.path.dirname(big), size=(WIDTH, HEIGHT))


def read_until(fd, needle, seconds=30):
    """Reads the pty until `needle` (bytes) has come; returns when it did, or exits."""
    seen = b""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.5)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            seen += chunk
            if needle in seen:
                return time.monotonic()
            seen = seen[-4096:]
    sys.exit(f"listview bench: the screen never showed {needle!r}")


def key(fd, data, proof):
    """Seconds from typing `data` to the frame that shows `proof`."""
    sent = time.monotonic()
    os.write(fd, data)
    return read_until(fd, proof) - sent


def browse(fd, shown, first, last, downs, page):
    """The keys that move through a long view, each timed to the row it proves: ↓ `downs` times
    from row `first`, PgDn 10 times (`page` rows each), End (row `last`), Home (row `first`).
    `shown(place)` is the text that proves the cursor is on that row."""
    times, place = [], first
    for _ in range(downs):
        place += 1
        times.append(key(fd, b"\x1b[B", shown(place)))
    for _ in range(10):
        place += page
        times.append(key(fd, b"\x1b[6~", shown(place)))
    times.append(key(fd, b"\x1b[F", shown(last)))
    times.append(key(fd, b"\x1b[H", shown(first)))
    return times


def cursor_row(place):
    """The start of the cursor's row on entry `place` (the first entry plays: it is marked)."""
    return b">" + ("▶" if place == 1 else " ").encode() + str(place).rjust(6).encode() + b"  "


def measure(tplayer):
    big = playlist.make_list()
    pid, fd = start(tplayer, big)
    try:
        read_until(fd, b"1/100000")
        os.write(fd, b"\t")
        read_until(fd, b"100000 in the list")
        times = browse(fd, cursor_row, 1, 100000, 40, HEIGHT - 3)
        typed = "/"
        for letter in "/song 99999":
            typed = typed + letter if letter != "/" else "/"
            times.append(key(fd, letter.encode(), typed.encode() + b"_"))
        times.append(key(fd, b"\r", b"Playing "))
        with open(f"/proc/{pid}/status") as status:
            peak = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:")) / 1024
        os.write(fd, b"q")
    finally:
        stop_pty(pid, fd)
    return [t * 1000 for t in times], peak


if __name__ == "__main__":
    tplayer = os.path.abspath(sys.argv[1])
    ms, peak = measure(tplayer)
    print(f"{len(ms)} keys: median {statistics.median(ms):.2f} ms, worst {max(ms):.2f} ms; peak RSS {peak:.1f} MB")
