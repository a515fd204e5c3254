#!/usr/bin/env python3
"""Snapcast: `tplayer -o snapcast` against MPD 0.23's `fifo` output, each feeding a private
snapserver 0.26 (a pipe source, its default format 48000:16:2 and 1000 ms buffer) that one room
plays: a snapclient writing what it plays to a file (`--player file:`), as a room's speakers
would play it. A fresh snapserver and room for each player's run; MPD's runs and tplayer's
interleaved, MPD's first; RUNS runs each.

The song: 60 s of a 440 Hz sine at -6 dB (no silence of its own), a 44.1 kHz 16-bit stereo FLAC
made by sox and flac (bench/out/snapcast-tone.flac, not committed), so that both players
resample it to the stream's 48 kHz (both with libsoxr: tplayer's converter, MPD's default). tplayer
plays it from its command line (`-o snapcast -a PIPE`, `snapcast-control` naming snapserver's
control port, from which it reads the stream's format) serving MPD's protocol on a private port
(`--mpd=127.0.0.1:PORT`); MPD (`fifo` output, `format "48000:16:2"`) is told `add` and `play`
on its own private port. Each in a private HOME and XDG folders.

- CPU: the player's CPU seconds (user + system, the whole process: every thread) over the same
  20 s window of playing, read from /proc/PID/stat before and after, for both players alike
  (MPD keeps running, so wait4 cannot give its figure; tplayer's is read the same way for
  fairness). The window opens 1 s after snapserver's control port says the stream is `playing`,
  so it covers about the song's seconds 1 to 21 in both, without either's start-up. The median
  of RUNS. Meanwhile the room must be sounding throughout the window, else the run fails.
- Pause to silence in the room: 3 times in each run after the window, `pause 1` is sent over
  MPD's protocol (to `tplayer --mpd` and to MPD alike) while the room sounds. snapclient's file
  player writes 50 ms at a time in real time, what it is to play from 10 ms after each write, so
  the pause is sent right after a write is seen (the file's size polled every millisecond), and
  the offset heard at that moment is the size before that write less 10 ms. The room's sound
  stops where its first silence of 10 ms or more begins (1 ms blocks with no |sample| > 50, both
  channels) after that offset: delay = (that offset − the offset heard at the pause) / 192,000
  bytes a second. It includes snapserver's 1000 ms buffer, which every room plays behind the
  source, and what each player had written ahead into the pipe. Resolution about 2 ms.
- Pause to idle: from the same `pause 1` sent to snapserver's control port saying the stream's
  `status` is `idle` (`Server.GetStatus` asked every 20 ms on one connection), up to 10 s.
  After each pause the player is told `pause 0` and plays 2 s and more (the room hears it again
  after the buffer's second) before the next. Medians and worsts over the RUNS × 3 pauses.

snapserver runs no stream plugin (no `controlscript`): none of its scripts (meta_mpd.py) is run.
Every process started here is killed (SIGKILL) at the end of its run, and its folder removed.

Usage: snapcast.py TPLAYER [RUNS]      (prints the figures)
"""
import json, os, shutil, signal, socket, stat, statistics, subprocess, sys, tempfile, time
from array import array

root = os.path.dirname(os.path.abspath(__file__))
out = os.path.join(root, "out")
sys.path.insert(0, root)
from library import process_cpu  # noqa: E402
from mpdserver import ask, status  # noqa: E402
from radio import free_port  # noqa: E402
from run import flac_song  # noqa: E402

STREAM = "bench"
WINDOW = 20.0  # seconds of playing measured
SETTLE = 1.0  # from the stream's `playing` to the window's start
PAUSES = 3  # pauses in each run
RATE, FRAME = 48000, 4  # the stream: 48000:16:2
BYTES_PER_SECOND = RATE * FRAME
FLOOR = 50  # at or below: silence
BLOCK = RATE // 1000 * FRAME  # 1 ms
QUIET_BLOCKS = 10  # a silence is 10 ms or more
WRITE_LEAD = 0.010  # snapclient's file player plays each write from 10 ms after it
IDLE_LIMIT = 10.0
PLAYED = (2.0, 2.37, 2.71)  # seconds played again before the 2nd, 3rd… pause (varied against the 50 ms writes)


def ports(count):
    """`count` distinct free ports of 127.0.0.1."""
    chosen = []
    while len(chosen) < count:
        port = free_port()
        if port not in chosen:
            chosen.append(port)
    return chosen


def private_environment(folder, env):
    """`env` with HOME and the XDG folders made inside `folder`: nothing of the user's is read."""
    private = dict(env, HOME=os.path.join(folder, "home"), XDG_CONFIG_HOME=os.path.join(folder, "config"),
                   XDG_STATE_HOME=os.path.join(folder, "state"), XDG_DATA_HOME=os.path.join(folder, "data"),
                   XDG_CACHE_HOME=os.path.join(folder, "cache"))
    for key in ("HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"):
        os.makedirs(private[key])
    return private


def mpd_config(folder, song, port, output):
    """An MPD configuration in `folder` (its music folder holding `song`), serving on
    127.0.0.1:`port`, with `output` the lines of its one audio_output block; its path."""
    music = os.path.join(folder, "music")
    os.makedirs(music)
    shutil.copy(song, music)
    os.makedirs(os.path.join(folder, "playlists"))
    conf = os.path.join(folder, "mpd.conf")
    with open(conf, "w") as f:
        f.write(f'music_directory "{music}"\nplaylist_directory "{folder}/playlists"\n'
                f'db_file "{folder}/mpd.db"\nstate_file "{folder}/mpd.state"\nlog_file "{folder}/mpd.log"\n'
                f'bind_to_address "127.0.0.1"\nport "{port}"\nauto_update "no"\nzeroconf_enabled "no"\n'
                f'audio_output {{\n{output}\n}}\n')
    return conf


def log_tails(folder, names):
    """The last 15 lines of each of these logs in `folder` that is there, for a failure's message."""
    logs = ""
    for log in names:
        path = os.path.join(folder, log)
        if os.path.exists(path):
            with open(path, errors="replace") as f:
                logs += f"\n--- {log}:\n" + "".join(f.readlines()[-15:])
    return logs


def connect_mpd(port, within=15.0):
    """A connection to an MPD protocol server on 127.0.0.1:`port` (its greeting read), for
    mpdserver's `ask` and `status`."""
    deadline = time.monotonic() + within
    while True:
        try:
            client = socket.create_connection(("127.0.0.1", port), timeout=10)
            reader = client.makefile("rb")
            greeting = reader.readline()
            if greeting.startswith(b"OK MPD"):
                return client, reader
            client.close()
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"nothing answered MPD's protocol on 127.0.0.1:{port}")
        time.sleep(0.05)


def mpd_told(port, commands):
    """The MPD serving on `port` told `update`, given a second for it, then told `commands` in
    turn (a refusal is a failure); the connection."""
    connection = connect_mpd(port)
    command(connection, "update")
    time.sleep(1)
    for text in commands:
        command(connection, text)
    return connection


def command(connection, text):
    """`text` sent, its reply read; a refusal (ACK) is a failure."""
    client, reader = connection
    client.sendall(text.encode() + b"\n")
    while True:
        line = reader.readline()
        if not line:
            raise RuntimeError(f"the MPD connection closed on {text!r}")
        if line.startswith(b"ACK "):
            raise RuntimeError(f"{text!r}: {line.decode().strip()}")
        if line == b"OK\n":
            return


class Snapserver:
    """A private snapserver reading the pipe `folder`/snapfifo, and one room (a snapclient)
    recording what it plays to `folder`/room.raw."""

    def __init__(self, folder, env):
        self.folder, self.processes = folder, []
        self.stream_port, self.control_port = ports(2)
        self.pipe = os.path.join(folder, "snapfifo")
        self.recording = os.path.join(folder, "room.raw")
        data = os.path.join(folder, "snapserver")
        os.makedirs(data)
        conf = os.path.join(folder, "snapserver.conf")
        with open(conf, "w") as f:
            f.write(f"[server]\ndatadir = {data}\n[http]\nenabled = false\n"
                    f"[tcp]\nport = {self.control_port}\nbind_to_address = 127.0.0.1\n"
                    f"[stream]\nport = {self.stream_port}\nbind_to_address = 127.0.0.1\n"
                    f"source = pipe://{self.pipe}?name={STREAM}\n"
                    f"[logging]\nsink = file:{folder}/snapserver.log\n")
        self.conf, self.env, self.control = conf, env, None

    def open(self):
        """Starts snapserver, then the room, once snapserver answers and its pipe is there."""
        self.start(["snapserver", "-c", self.conf])
        deadline = time.monotonic() + 10
        while self.control is None:
            try:
                self.control = socket.create_connection(("127.0.0.1", self.control_port), timeout=5)
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError("snapserver did not answer on its control port")
                time.sleep(0.05)
        self.pending, self.asked = b"", 0
        while not (os.path.exists(self.pipe) and stat.S_ISFIFO(os.stat(self.pipe).st_mode)):
            if time.monotonic() > deadline:
                raise RuntimeError(f"snapserver made no pipe at {self.pipe}")
            time.sleep(0.02)
        self.start(["snapclient", "-h", "127.0.0.1", "-p", str(self.stream_port), "--hostID", "room",
                    "--player", f"file:filename={self.recording}", "--logsink", "null"])
        while self.recorded() == 0:
            if time.monotonic() > deadline:
                raise RuntimeError("the room (snapclient) recorded nothing")
            time.sleep(0.02)

    def start(self, arguments):
        self.processes.append(subprocess.Popen(arguments, env=self.env, stdin=subprocess.DEVNULL,
                                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))

    def recorded(self):
        try:
            return os.path.getsize(self.recording)
        except OSError:
            return 0

    def state(self):
        """The stream's `status` in `Server.GetStatus` (notifications on the way skipped)."""
        self.asked += 1
        request = {"id": self.asked, "jsonrpc": "2.0", "method": "Server.GetStatus"}
        self.control.sendall(json.dumps(request).encode() + b"\r\n")
        while True:
            while b"\n" in self.pending:
                line, self.pending = self.pending.split(b"\n", 1)
                try:
                    reply = json.loads(line)
                except ValueError:
                    continue
                if isinstance(reply, dict) and reply.get("id") == self.asked:
                    streams = reply["result"]["server"]["streams"]
                    return next(s["status"] for s in streams if s["id"] == STREAM)
            received = self.control.recv(65536)
            if not received:
                raise RuntimeError("snapserver closed its control port")
            self.pending += received

    def await_state(self, wanted, within, every=0.02):
        """Seconds until the stream's status is `wanted`, or None after `within`."""
        started = time.monotonic()
        while time.monotonic() - started < within:
            if self.state() == wanted:
                return time.monotonic() - started
            time.sleep(every)
        return None

    def samples(self, start, end=None):
        """The recording's samples from byte `start` (to `end`)."""
        with open(self.recording, "rb") as f:
            f.seek(start)
            data = f.read(-1 if end is None else end - start)
        data = data[:len(data) // FRAME * FRAME]
        return array("h", data)

    def stop(self):
        if self.control:
            self.control.close()
        for process in reversed(self.processes):
            kill(process)


def kill(process):
    if process.poll() is None:
        os.kill(process.pid, signal.SIGKILL)
    process.wait()


def sounding(samples):
    """Each 1 ms block's loudness: whether some |sample| in it is over the floor."""
    step = BLOCK // 2
    return [max(samples[i:i + step]) > FLOOR or min(samples[i:i + step]) < -FLOOR
            for i in range(0, len(samples) - step + 1, step)]


def sound_end(blocks):
    """The index of the first block of the first silence of QUIET_BLOCKS or more; None."""
    run = 0
    for index, loud in enumerate(blocks):
        run = 0 if loud else run + 1
        if run == QUIET_BLOCKS:
            return index - QUIET_BLOCKS + 1
    return None


class Player:
    """One player playing the song into `room`'s snapserver, answering MPD's protocol."""

    def __init__(self, name, tplayer, song, room, folder, env):
        self.name, self.process, self.connection = name, None, None
        port = ports(1)[0]
        while port in (room.stream_port, room.control_port):
            port = ports(1)[0]
        errors = open(os.path.join(folder, name + ".stderr"), "w")
        if name == "tplayer":
            settings = os.path.join(folder, "tplayer.conf")
            with open(settings, "w") as f:
                f.write(f"snapcast-control = 127.0.0.1:{room.control_port}\n")
            arguments = [tplayer, "-q", "--no-mpris", "--config", settings, f"--mpd=127.0.0.1:{port}",
                         "-o", "snapcast", "-a", room.pipe, song]
        else:
            conf = mpd_config(folder, song, port, f' type "fifo"\n name "snap"\n path "{room.pipe}"\n format "48000:16:2"')
            arguments = ["/usr/bin/mpd", "--no-daemon", conf]
        self.process = subprocess.Popen(arguments, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                        stderr=errors)
        errors.close()
        self.port = port

    def play(self, song):
        """Connects; MPD is told to play the song (tplayer plays it from its command line)."""
        self.connection = connect_mpd(self.port)
        if self.name == "mpd":
            command(self.connection, "update")
            deadline = time.monotonic() + 30
            while b"updating_db" in status(self.connection):
                if time.monotonic() > deadline:
                    raise RuntimeError("MPD's update did not end")
                time.sleep(0.05)
            command(self.connection, f'add "{os.path.basename(song)}"')
            command(self.connection, "play")

    def send(self, text):
        command(self.connection, text)

    def cpu(self):
        return process_cpu(self.process.pid)

    def stop(self):
        if self.connection:
            self.connection[0].close()
        if self.process:
            kill(self.process)


def pause_once(player, room):
    """`pause 1` while the room sounds: (seconds to the room's silence, seconds to `idle`)."""
    # Right after one of snapclient's writes: the offset heard now is the one before it, 10 ms on.
    before = room.recorded()
    deadline = time.monotonic() + 0.5
    while (size := room.recorded()) == before and time.monotonic() < deadline:
        time.sleep(0.001)
    heard = max(before - int(WRITE_LEAD * BYTES_PER_SECOND) // FRAME * FRAME, 0)
    sent = time.monotonic()
    player.send("pause 1")
    idle = room.await_state("idle", IDLE_LIMIT)
    # The room's buffer (1 s) and what was written ahead: wait for the silence to be recorded.
    silent = None
    while silent is None and time.monotonic() < sent + IDLE_LIMIT:
        time.sleep(max(sent + 2.5 - time.monotonic(), 0.25))
        blocks = sounding(room.samples(heard))
        if not blocks or not all(blocks[:QUIET_BLOCKS]):
            raise RuntimeError(f"{player.name}: the room was not sounding when the pause was sent"
                               f" (offset {heard}, size {size})")
        end = sound_end(blocks)
        if end is not None:
            silent = end * BLOCK / BYTES_PER_SECOND
    return (silent if silent is not None else float("inf")), (idle if idle is not None else float("inf"))


def one_run(name, tplayer, song, env):
    """One player's run, in a fresh snapserver: (CPU seconds over the window, [silences], [idles])."""
    folder = tempfile.mkdtemp(prefix=f"tplayer-bench-snapcast-{name}-")
    private = private_environment(folder, env)
    room = player = None
    try:
        room = Snapserver(folder, private)
        room.open()
        player = Player(name, tplayer, song, room, folder, private)
        player.play(song)
        if room.await_state("playing", 15, every=0.05) is None:
            raise RuntimeError(f"{name}: snapserver's stream never played")
        time.sleep(SETTLE)
        opened, before = room.recorded(), player.cpu()
        time.sleep(WINDOW)
        used = player.cpu() - before
        closed = room.recorded()
        # The room sounded throughout the window (past its first 1.1 s: the room plays the
        # buffer's second behind the source).
        blocks = sounding(room.samples(opened, closed))
        if not all(blocks[1100:]):
            raise RuntimeError(f"{name}: the room fell silent while the CPU was measured")
        silences, idles = [], []
        for index in range(PAUSES):
            if index:
                player.send("pause 0")
                if room.await_state("playing", 10) is None:
                    raise RuntimeError(f"{name}: the stream did not play again after `pause 0`")
                time.sleep(PLAYED[(index - 1) % len(PLAYED)])
            silent, idle = pause_once(player, room)
            silences.append(silent)
            idles.append(idle)
        return used, silences, idles
    except RuntimeError as problem:
        sys.exit(f"bench: snapcast: {problem}{log_tails(folder, (f'{name}.stderr', 'mpd.log', 'snapserver.log'))}")
    finally:
        if player:
            player.stop()
        if room:
            room.stop()
        shutil.rmtree(folder, ignore_errors=True)


def measure(tplayer, runs):
    """{"cpu": {player: median s}, "silent"/"idle": {player: (median s, worst s)}, "runs": raw}."""
    song = flac_song("snapcast-tone", 60, ["sine", "440", "gain", "-6"])
    raw = {key: {"tplayer": [], "mpd": []} for key in ("cpu", "silent", "idle")}
    for run in range(runs):
        for name in ("mpd", "tplayer"):
            used, silences, idles = one_run(name, tplayer, song, os.environ)
            raw["cpu"][name].append(used)
            raw["silent"][name] += silences
            raw["idle"][name] += idles
            print(f"snapcast: run {run + 1}, {name}: CPU {used:.3f} s, silent after "
                  + ", ".join(f"{s * 1000:.0f}" for s in silences) + " ms, idle after "
                  + ", ".join(f"{i * 1000:.0f}" for i in idles) + " ms", file=sys.stderr)
    figures = {"cpu": {name: statistics.median(values) for name, values in raw["cpu"].items()}, "runs": raw}
    for key in ("silent", "idle"):
        figures[key] = {name: (statistics.median(values), max(values)) for name, values in raw[key].items()}
    return figures


if __name__ == "__main__":
    binary = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "..", ".build", "release", "tplayer"))
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    figures = measure(binary, runs)
    t, m = figures["cpu"]["tplayer"], figures["cpu"]["mpd"]
    print(f"CPU playing {WINDOW:.0f} s into snapserver (44.1 kHz FLAC to 48000:16:2, median of {runs}): "
          f"tplayer {t:.3f} s, MPD {m:.3f} s ({t / m:.2f}×, {(t - m) / WINDOW * 100:+.2f} pp of a core)")
    for key, said in (("silent", "pause 1 to silence in the room"), ("idle", "pause 1 to snapserver's stream idle")):
        (tm, tw), (mm, mw) = figures[key]["tplayer"], figures[key]["mpd"]
        count = len(figures["runs"][key]["tplayer"])
        print(f"{said} ({count} pauses each, median / worst): tplayer {tm * 1000:.0f} / {tw * 1000:.0f} ms, "
              f"MPD {mm * 1000:.0f} / {mw * 1000:.0f} ms")
