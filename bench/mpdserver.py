#!/usr/bin/env python3
"""`tplayer --mpd` against MPD 0.23, both serving the same songs, each on a Unix socket of its
own, the replies read by the same client code (this script):

- `listallinfo` of the 10,000 songs of library.py (5 formats): the time from the command sent to
  its `OK` read, the median of RUNS interleaved; the serving process's peak RSS (VmHWM) after;
- `search` and `find` over the 100,000 MP3s of library.py: the same, 5 queries RUNS times each;
- the 100,000 and a million (million.py's hard links to them): how long each server takes to
  answer a first command (its database read), `list album group albumartist` and `find`,
  tplayer's `listallinfo` of all (MPD cuts it off), and each serving process's peak RSS;
- `idle`: one client waits in `idle options`, another sends `random 1` or `random 0`: the time
  from that command sent to the waiting client's `changed: options` read (20 times each);
- 10 clients each asking `status` ten times a second for 10 s: the server's CPU over those
  10 s (user + system, /proc/PID/stat), as a share of one core.

Usage: mpdserver.py TPLAYER [RUNS]
"""
import os, shutil, socket, statistics, subprocess, sys, threading, time

root = os.path.dirname(os.path.abspath(__file__))
out = os.path.join(root, "out")
sys.path.insert(0, root)
import library  # noqa: E402
from library import process_cpu, high_water  # noqa: E402


def connect(path):
    client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    client.connect(path)
    reader = client.makefile("rb")
    greeting = reader.readline()
    if not greeting.startswith(b"OK MPD"):
        sys.exit(f"bench: {path} said {greeting!r}")
    return client, reader


def ask(connection, command):
    """Sends `command`; the reply's lines, read to its OK (or ACK)."""
    client, reader = connection
    client.sendall(command.encode() + b"\n")
    lines = 0
    while True:
        line = reader.readline()
        if not line:
            sys.exit(f"bench: the server closed the connection on {command!r}")
        lines += 1
        if line == b"OK\n" or line.startswith(b"ACK "):
            return lines


def timed(connection, command):
    started = time.monotonic()
    lines = ask(connection, command)
    return time.monotonic() - started, lines


class Server:
    """A private MPD, or tplayer --mpd, on a Unix socket in bench/out/NAME/."""

    def __init__(self, name, command, env=None, socket_path=None):
        self.started = time.monotonic()
        self.folder = os.path.join(out, name)
        self.socket = socket_path or os.path.join(self.folder, "socket")
        self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                        stderr=open(os.path.join(self.folder, "stderr"), "w"), env=env)
        for _ in range(600):
            try:
                self.connection = connect(self.socket)
                return
            except OSError:
                time.sleep(0.1)
        sys.exit(f"bench: {name} did not answer on {self.socket}")

    def stop(self):
        self.process.terminate()
        self.process.wait()


def mpd(music, name):
    """MPD over `music`, its database kept in bench/out/NAME/ between runs (read once)."""
    folder = os.path.join(out, name)
    os.makedirs(folder, exist_ok=True)
    conf = os.path.join(folder, "mpd.conf")
    with open(conf, "w") as f:
        f.write(f'music_directory "{music}"\ndb_file "{folder}/database"\nlog_file "{folder}/log"\n'
                f'bind_to_address "{folder}/socket"\nauto_update "no"\naudio_output {{\n type "null"\n name "null"\n}}\n')
    if os.path.exists(os.path.join(folder, "socket")):
        os.unlink(os.path.join(folder, "socket"))
    server = Server(name, ["mpd", "--no-daemon", conf])
    if not os.path.exists(os.path.join(folder, "database.done")):
        ask(server.connection, "update")
        while b"updating_db" in status(server.connection):
            time.sleep(0.5)
        open(os.path.join(folder, "database.done"), "w").close()
        # Started again, to read its database as it does at every start.
        server.stop()
        if os.path.exists(os.path.join(folder, "socket")):
            os.unlink(os.path.join(folder, "socket"))
        server = Server(name, ["mpd", "--no-daemon", conf])
    return server


def status(connection):
    client, reader = connection
    client.sendall(b"status\n")
    text = b""
    while True:
        line = reader.readline()
        text += line
        if line == b"OK\n" or not line:
            return text


def tplayer(binary, music, name):
    """tplayer --mpd over its own library of `music` (scanned once) in bench/out/NAME/."""
    folder = os.path.join(out, name)
    os.makedirs(folder, exist_ok=True)
    env = dict(os.environ, XDG_DATA_HOME=os.path.join(folder, "data"), HOME=os.path.join(folder, "home"),
               XDG_STATE_HOME=os.path.join(folder, "state"), XDG_CONFIG_HOME=os.path.join(folder, "config"))
    if not os.path.exists(os.path.join(folder, "data", "tplayer", "library.sqlite")):
        subprocess.run([binary, "--no-config", "--scan", music], env=env, check=True, stdout=subprocess.DEVNULL)
    shutil.rmtree(env["XDG_STATE_HOME"], ignore_errors=True)
    path = os.path.join(folder, "socket")
    if os.path.exists(path):
        os.unlink(path)
    return Server(name, [binary, "--no-config", f"--mpd={path}", "-o", "null", "--no-mpris"], env=env)


def idle_wake(server, times=20):
    """Seconds from `random` sent by one client to `changed: options` read by another."""
    waiting, acting = connect(server.socket), connect(server.socket)
    woken = []
    for index in range(times):
        waiting[0].sendall(b"idle options\n")
        time.sleep(0.02)  # the idle is read and waits
        started = time.monotonic()
        ask(acting, f"random {(index + 1) % 2}")  # 1, 0, 1…: each a change
        if waiting[1].readline() != b"changed: options\n":
            sys.exit("bench: idle did not say options")
        woken.append(time.monotonic() - started)
        waiting[1].readline()  # OK
    return woken


def polling_cpu(server, clients=10, seconds=10.0):
    """The server's CPU, as a share of a core, while `clients` each ask status ten times a second."""
    connections = [connect(server.socket) for _ in range(clients)]
    stop = time.monotonic() + seconds

    def poll(connection):
        while time.monotonic() < stop:
            status(connection)
            time.sleep(0.1)

    before = process_cpu(server.process.pid)
    threads = [threading.Thread(target=poll, args=(c,)) for c in connections]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return (process_cpu(server.process.pid) - before) / seconds


def measure(binary, runs):
    figures = {}
    music = library.corpus(10_000, library.FORMATS, "library-10k")
    theirs, ours = mpd(music, "mpdserver-mpd-10k"), tplayer(binary, music, "mpdserver-tplayer-10k")
    print("mpdserver: both serve the 10,000 songs", file=sys.stderr)
    listed = {"tplayer": [], "mpd": []}
    for _ in range(runs):
        for name, server in (("mpd", theirs), ("tplayer", ours)):
            took, lines = timed(server.connection, "listallinfo")
            listed[name].append(took)
            listed[name + " lines"] = lines
    figures["listallinfo"] = (statistics.median(listed["tplayer"]), statistics.median(listed["mpd"]),
                              listed["tplayer lines"], listed["mpd lines"])
    figures["rss"] = (high_water(ours.process.pid), high_water(theirs.process.pid))
    print("mpdserver: listallinfo done", file=sys.stderr)
    wakes = {"tplayer": idle_wake(ours), "mpd": idle_wake(theirs)}
    print("mpdserver: idle done", file=sys.stderr)
    figures["idle"] = {name: (statistics.median(values), max(values)) for name, values in wakes.items()}
    figures["polling"] = (polling_cpu(ours), polling_cpu(theirs))
    theirs.stop()
    ours.stop()

    big = library.corpus(100_000, ["mp3"], "library-100k")
    theirs, ours = mpd(big, "mpdserver-mpd-100k"), tplayer(binary, big, "mpdserver-tplayer-100k")
    queries = ['search title "song 54321"', 'find artist "Artist 420"', 'find album "Album 7777"',
               'find "((date == \'1990\') AND (genre == \'Jazz\'))"', 'search any zzz']
    found = {"tplayer": [], "mpd": []}
    each = {(query, name): [] for query in queries for name in ("tplayer", "mpd")}
    for _ in range(runs):
        for query in queries:
            for name, server in (("mpd", theirs), ("tplayer", ours)):
                took = timed(server.connection, query)[0]
                found[name].append(took)
                each[(query, name)].append(took)
    figures["search"] = (statistics.median(found["tplayer"]), statistics.median(found["mpd"]),
                         max(found["tplayer"]), max(found["mpd"]), len(found["tplayer"]))
    figures["100k"] = library_served(ours, theirs, runs)
    # Each query's median past its first run (the first waits for the catalog's read).
    figures["queries"] = {query: (statistics.median(each[(query, "tplayer")][1:] or each[(query, "tplayer")]),
                                  statistics.median(each[(query, "mpd")][1:] or each[(query, "mpd")])) for query in queries}
    theirs.stop()
    ours.stop()

    # A million songs (million.py's hard links): MPD's first scan of them takes about eight
    # minutes, once; its database is kept in bench/out/mpdserver-mpd-1m/ as tplayer's is.
    import million  # noqa: E402
    huge = million.corpus()
    theirs, ours = mpd(huge, "mpdserver-mpd-1m"), tplayer(binary, huge, "mpdserver-tplayer-1m")
    figures["1m"] = library_served(ours, theirs, runs)
    theirs.stop()
    ours.stop()
    return figures


def library_served(ours, theirs, runs):
    """Each server as it serves a large library: how long from its start until it answered a
    first `count` (its database read), `list album group albumartist` and a `find` (the median
    of RUNS), tplayer's `listallinfo` of the whole (MPD cuts that off at its 8 MiB output
    buffer), and each one's peak RSS after all that."""
    figures = {}
    for name, server in (("mpd", theirs), ("tplayer", ours)):
        ask(server.connection, "count")
        figures[name] = {"ready": time.monotonic() - server.started}
    for query in ("list album group albumartist", 'find artist "Artist 420"'):
        for name, server in (("mpd", theirs), ("tplayer", ours)):
            figures[name][query] = statistics.median(timed(server.connection, query)[0] for _ in range(runs))
    figures["tplayer"]["listallinfo"] = timed(ours.connection, "listallinfo")
    for name, server in (("mpd", theirs), ("tplayer", ours)):
        figures[name]["rss"] = high_water(server.process.pid)
    return figures


if __name__ == "__main__":
    binary = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "..", ".build", "release", "tplayer")
    print(measure(os.path.abspath(binary), int(sys.argv[2]) if len(sys.argv) > 2 else 5))
