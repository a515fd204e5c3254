#!/usr/bin/env python3
"""A key's answer in the terminal while `tplayer --mpd` serves MPD's clients: tplayer plays in
a pty (`-o null`, a list repeated) serving MPD's protocol on a Unix socket; Space is pressed 20
times, each timed from its write to the status line's `Paused ` or `Playing ` read back. Once
with no client, once while 100 clients wait in `idle` (each woken at every change and waiting
again) and 10 send the usual polls as a command list as fast as they can. Both figures come
from one run of this script; the load's share of a core is the clients' (this process), not the
player's.

Usage: mpdkeys.py TPLAYER
"""
import os, shutil, socket, statistics, sys, threading, time

root = os.path.dirname(os.path.abspath(__file__))
out = os.path.join(root, "out")
sys.path.insert(0, root)
from nowplaying import Reader  # noqa: E402
from spawning import in_pty, stop_pty  # noqa: E402

SONGS = [os.path.join(root, "..", "Resources", name) for name in
         ("01-morning-arpeggio.mp3", "02-night-drive.mp3", "03-tiny-waltz.mp3")]
POLLS = b"command_list_ok_begin\nstatus\ncurrentsong\nplaylistinfo\nplchanges 0\nstats\noutputs\ncommand_list_end\n"


class Crowd:
    """`idle` clients and busy ones on the socket at `path`, each on a thread of its own."""

    def __init__(self, path, idle=100, busy=10):
        self.stopping, self.replies, self.wakes, self.lock = False, 0, 0, threading.Lock()
        self.sockets = []
        self.threads = [threading.Thread(target=self.serve, args=(path, index >= idle), daemon=True)
                        for index in range(idle + busy)]
        for thread in self.threads:
            thread.start()

    def serve(self, path, busy):
        client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        client.connect(path)
        with self.lock:
            self.sockets.append(client)
        reader = client.makefile("rb")
        reader.readline()
        try:
            while not self.stopping:
                client.sendall(POLLS if busy else b"idle\n")
                while True:
                    line = reader.readline()
                    if not line:
                        return
                    if line.startswith(b"changed: "):
                        with self.lock:
                            self.wakes += 1
                    if line == b"OK\n" or line.startswith(b"ACK "):
                        break
                if busy:
                    with self.lock:
                        self.replies += 1
        except OSError:
            return

    def stop(self):
        self.stopping = True
        with self.lock:
            for client in self.sockets:
                try:
                    client.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
        for thread in self.threads:
            thread.join(5)


def presses(tplayer, load):
    """Space's latencies in ms, 20 presses, with the crowd of clients or without."""
    folder = os.path.join(out, "mpdkeys")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    path = os.path.join(folder, "socket")
    env = dict(os.environ, HOME=folder, XDG_STATE_HOME=os.path.join(folder, "state"), XDG_DATA_HOME=os.path.join(folder, "data"),
               XDG_CONFIG_HOME=os.path.join(folder, "config"), TERM="xterm-256color")
    config = os.path.join(folder, "config.txt")
    with open(config, "w") as f:
        f.write("mpd-max-connections = 120\n")
    pid, fd = in_pty([tplayer, "--config", config, f"--mpd={path}", "--repeat", "-o", "null", "--no-mpris"] + SONGS, env,
                     cwd=folder, size=(120, 30))
    reader = Reader(fd)
    crowd = None
    times = []
    try:
        reader.wait_for(b"Playing ")
        if load:
            crowd = Crowd(path)
            time.sleep(2)
        times = reader.space_presses(fd, pause=0.1)
        served = (crowd.replies, crowd.wakes) if crowd else (0, 0)
        if crowd:
            crowd.stop()
        os.write(fd, b"q")
    finally:
        stop_pty(pid, fd)
    return times, served


def measure(tplayer):
    quiet, _ = presses(tplayer, load=False)
    loaded, served = presses(tplayer, load=True)
    return {"quiet": quiet, "loaded": loaded, "served": served}


if __name__ == "__main__":
    figures = measure(os.path.abspath(sys.argv[1]))
    for name in ("quiet", "loaded"):
        values = figures[name]
        print(f"{name}: median {statistics.median(values):.2f} ms, worst {max(values):.2f} ms")
    print("busy replies, idle wakes:", figures["served"])
