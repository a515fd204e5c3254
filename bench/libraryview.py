#!/usr/bin/env python3
"""The library view at 100,000 songs: from a key to its finished redraw, in a real pty.

tplayer plays a short song to the null output in a pseudo-terminal of 100 × 40, its library
the 100,000 songs of library.py (1,000 album artists). `L` opens the view (the time to its
first screen is reported), then keys are typed one at a time, each after the last one's frame
arrived: ↓ (30 times), PgDn (10), End, Home, Enter (an artist opens), and a filter typed letter
by letter (`/album 777`), each letter narrowing the tree at once. A frame is written in one
write, so the time from writing a key to reading the text that proves its frame (the cursor's
row, or the title saying what matches) is the key's latency. Median and worst are reported.
"""
import os, statistics, sys, time
import library
from listview import browse, read_until, key
from spawning import in_pty, stop_pty

WIDTH, HEIGHT = 100, 40


def measure(tplayer, runs=1):
    big = library.corpus(100_000, ["mp3"], "library-100k")
    data = os.path.join(library.out, "library-100k-data")
    if not os.path.exists(os.path.join(data, "tplayer", "library.sqlite")):
        library.cpu([tplayer, "--no-config", "--scan", big], dict(os.environ, XDG_DATA_HOME=data))
    song = library.base("mp3")
    env = dict(os.environ, TERM="xterm-256color", NO_COLOR="1", XDG_DATA_HOME=data, HOME=os.path.join(library.out, "library-home"),
               XDG_STATE_HOME=os.path.join(library.out, "state"))
    # The artists in the view's order: natural order, numbers by their value (Artist 2 before Artist 10).
    shown = lambda index: f"> Artist {index} ".encode()  # noqa: E731
    opens, times, pasted, answered = [], [], [], []
    for _ in range(runs):
        pid, fd = in_pty([tplayer, "--no-config", "-o", "null", song], env, size=(WIDTH, HEIGHT))
        try:
            read_until(fd, b"Playing")
            opens.append(key(fd, b"L", b"rows (artists, albums, songs)"))
            times += browse(fd, shown, 0, 999, 30, HEIGHT - 3)
            times.append(key(fd, b"\r", b"Album "))
            times.append(key(fd, b"/", b"filter: "))
            typed = ""
            for letter in "album 777":
                typed += letter
                # Answered: the frame saying what is typed (counting, off the main loop); then
                # the frame with its count, the redraw finished.
                sent = time.monotonic()
                os.write(fd, letter.encode())
                answered.append((read_until(fd, b"matching " + typed.encode()) - sent) * 1000)
                times.append(read_until(fd, b"songs) matching " + typed.encode()) - sent)
            # Pasted in one write: the most terms a query holds, each a one-letter prefix
            # (the costliest to find), and 17 KB of words (cut at 1,024 characters, refused
            # as over 32 terms); then a key after it.
            key(fd, b"\x1b", shown(0))
            key(fd, b"/", b"filter: ")
            letters = " ".join("abcdefghijklmnopqrstuvwxyz012345")
            sent = time.monotonic()
            os.write(fd, letters.encode())
            answered.append((read_until(fd, b"matching " + letters[:20].encode()) - sent) * 1000)
            pasted.append(read_until(fd, b"songs) matching " + letters[:20].encode()) - sent)
            key(fd, b"\x1b", shown(0))
            key(fd, b"/", b"filter: ")
            pasted.append(key(fd, b"album " * 3000, b"more than 32 terms"))
            pasted.append(key(fd, b"\x1b", shown(0)))
            os.write(fd, b"q")
        finally:
            stop_pty(pid, fd)
    return [t * 1000 for t in opens], [t * 1000 for t in times], [t * 1000 for t in pasted], answered


if __name__ == "__main__":
    opened, ms, pasted, answered = measure(os.path.abspath(sys.argv[1]))
    print(f"opened in {max(opened):.1f} ms; {len(ms)} keys: median {statistics.median(ms):.2f} ms, worst {max(ms):.2f} ms")
    print(f"pasted: 32 one-letter terms {pasted[0]:.1f} ms, 17 KB {pasted[1]:.1f} ms, the key after {pasted[2]:.1f} ms")
    print(f"a filter's keys answered (counting): median {statistics.median(answered):.2f} ms, worst {max(answered):.2f} ms")
