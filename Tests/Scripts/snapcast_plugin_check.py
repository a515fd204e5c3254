#!/usr/bin/env python3
"""End-to-end check of Resources/snapcast/tplayer-snapcast against a real MPD and a real
snapserver (both private: own temp dir, own HOME, loopback-only private ports).

    /usr/bin/python3 Tests/Scripts/snapcast_plugin_check.py

Needs: mpd (0.23, speaking the protocol `tplayer --mpd` speaks), snapserver (0.26), sox,
metaflac. Exits 0 when every check passed, 1 otherwise; prints each check as it goes.
Ports: SNAPCHECK_BASE_PORT (default 16750) .. +3 and +9 (kept free: "MPD absent"). Every process
it starts is SIGKILLed at the end; SNAPCHECK_KEEP=1 keeps the temp dir (logs) for a look.
"""

import base64
import importlib.machinery
import importlib.util
import json
import os
import re
import select
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.request
import zlib

sys.dont_write_bytecode = True  # importing the plugin must leave no __pycache__ in Resources/

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PLUGIN = os.path.join(ROOT, "Resources", "snapcast", "tplayer-snapcast")
BASE = int(os.environ.get("SNAPCHECK_BASE_PORT", "16750"))
MPD_PORT, SNAP_TCP, SNAP_STREAM, SNAP_HTTP = BASE, BASE + 1, BASE + 2, BASE + 3
DEAD_PORT = BASE + 9  # nothing listens here: "MPD absent"
PASSWORD = "s3cret"
STREAM = "tplayer"

PROCS = []   # every process started here, killed at the end
PASSED = []


def check(what, ok, detail=""):
    print(("ok   " if ok else "FAIL ") + what + (" (%s)" % detail if detail else ""), flush=True)
    if not ok:
        raise SystemExit(1)
    PASSED.append(what)


def wait_for(what, fn, timeout=10.0, step=0.1):
    """Poll fn() until it returns something truthy; return it or fail the check."""
    deadline, value = time.time() + timeout, None
    while time.time() < deadline:
        try:
            value = fn()
        except (OSError, ValueError, KeyError):
            value = None
        if value:
            return value
        time.sleep(step)
    check(what, False, "timed out after %gs, last: %r" % (timeout, value))


def start(argv, log, env):
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                            env=env, start_new_session=True)
    PROCS.append(proc)
    return proc


def descendants(pid):
    """The pids of pid's children, grandchildren, ... (from /proc)."""
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open("/proc/%s/stat" % entry) as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
                children.setdefault(ppid, []).append(int(entry))
            except (OSError, ValueError, IndexError):
                pass
    out, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def kill_all():
    for proc in PROCS:
        for pid in descendants(proc.pid) + [proc.pid]:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass


# ---- a tiny MPD client (independent of the plugin's) -------------------------------------
class MpdClient:
    def __init__(self, port, password=PASSWORD):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.rfile = self.sock.makefile("rb")
        assert self.rfile.readline().startswith(b"OK MPD ")
        if password:
            self.cmd("password", password)

    def cmd(self, *words):
        line = " ".join([words[0]] + ['"%s"' % str(w).replace("\\", "\\\\").replace('"', '\\"') for w in words[1:]])
        self.sock.sendall(line.encode() + b"\n")
        out = {}
        while True:
            raw = self.rfile.readline().decode("utf-8", "replace").rstrip("\n")
            if raw == "OK":
                return out
            if raw.startswith("ACK"):
                raise RuntimeError(raw)
            key, _, value = raw.partition(": ")
            out.setdefault(key.lower(), value)

    def close(self):
        self.sock.close()


# ---- snapserver's TCP JSON-RPC ------------------------------------------------------------
class SnapClient:
    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.rfile = self.sock.makefile("rb")
        self.next_id = 0

    def call(self, method, params=None):
        self.next_id += 1
        request = {"id": self.next_id, "jsonrpc": "2.0", "method": method}
        if params is not None:
            request["params"] = params
        self.sock.sendall(json.dumps(request).encode() + b"\n")
        while True:  # skip notifications
            message = json.loads(self.rfile.readline())
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError("%s: %s" % (method, message["error"]))
                return message["result"]

    def properties(self):
        for stream in self.call("Server.GetStatus")["server"]["streams"]:
            if stream["id"] == STREAM:
                return stream.get("properties", {})
        return {}


# ---- the plugin run directly, on pipes -----------------------------------------------------
class PluginProcess:
    def __init__(self, args, env):
        self.proc = subprocess.Popen([PLUGIN] + args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, env=env, start_new_session=True)
        PROCS.append(self.proc)
        self.buffer = b""

    def send(self, text):
        self.proc.stdin.write(text.encode() + b"\n")
        self.proc.stdin.flush()

    def read(self, timeout=5.0):
        """The next JSON message from the plugin's stdout, or None."""
        deadline = time.time() + timeout
        while b"\n" not in self.buffer:
            left = deadline - time.time()
            if left <= 0 or not select.select([self.proc.stdout], [], [], left)[0]:
                return None
            chunk = os.read(self.proc.stdout.fileno(), 65536)
            if not chunk:
                return None
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return json.loads(line)

    def reply(self, rid, timeout=5.0):
        """The response with id `rid`, skipping notifications."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            message = self.read(deadline - time.time())
            if message is None:
                return None
            if message.get("id") == rid and "method" not in message:
                return message
        return None

    def call(self, rid, method, params=None):
        """Send a request; return its response ({} when none came)."""
        request = {"id": rid, "jsonrpc": "2.0", "method": method}
        if params is not None:
            request["params"] = params
        self.send(json.dumps(request))
        return self.reply(rid) or {}

    def answers(self, count, timeout=5.0):
        """The next `count` responses, skipping notifications."""
        out, deadline = [], time.time() + timeout
        while len(out) < count and time.time() < deadline:
            message = self.read(deadline - time.time())
            if message is None:
                break
            if "method" not in message:
                out.append(message)
        return out

    def notified(self, predicate, timeout=5.0):
        """The params of the next Properties notification that satisfy `predicate`, or None."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            message = self.read(deadline - time.time())
            if message is None:
                return None
            if message.get("method") == "Plugin.Stream.Player.Properties" and predicate(message["params"]):
                return message["params"]
        return None

    def close_and_wait(self):
        self.proc.stdin.close()
        try:
            return self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            return None

    def stderr(self):
        os.set_blocking(self.proc.stderr.fileno(), False)
        try:
            return (self.proc.stderr.read() or b"").decode("utf-8", "replace")
        except (OSError, TypeError):
            return ""


def png(width, height, rgb):
    """A small solid-colour PNG made with zlib alone."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    raw = b"".join(b"\0" + bytes(rgb) * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def load_plugin_module():
    loader = importlib.machinery.SourceFileLoader("tplayer_snapcast", PLUGIN)
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader("tplayer_snapcast", loader))
    loader.exec_module(module)
    return module


def main():
    for tool in ("mpd", "snapserver", "sox", "metaflac"):
        check("tool %s is installed" % tool, shutil.which(tool) is not None,
              "apt-get install mpd snapserver sox flac")
    check("plugin is executable", os.access(PLUGIN, os.X_OK), PLUGIN)
    for port in (MPD_PORT, SNAP_TCP, SNAP_STREAM, SNAP_HTTP, DEAD_PORT):
        with socket.socket() as s:
            free = s.connect_ex(("127.0.0.1", port)) != 0
        check("private port %d is free" % port, free, "set SNAPCHECK_BASE_PORT")

    # The sanitiser, straight from the plugin's source.
    flat = load_plugin_module().flat
    check("flat() turns control characters into spaces",
          flat("a\x1b[2Jb\x07c\x85d\u202ee\u2028f\tg") == "a [2Jb c d e f g")

    tmp = tempfile.mkdtemp(prefix="snapcast-plugin-check-")
    home = os.path.join(tmp, "home")
    os.makedirs(home)
    env = dict(os.environ, HOME=home, XDG_CONFIG_HOME=os.path.join(home, ".config"),
               XDG_CACHE_HOME=os.path.join(home, ".cache"), XDG_DATA_HOME=os.path.join(home, ".local/share"),
               XDG_RUNTIME_DIR=os.path.join(home, "run"), PATH="/usr/bin:/bin:" + os.environ.get("PATH", ""))
    for key in ("MPD_HOST", "MPD_PORT"):
        env.pop(key, None)
    try:
        run_checks(tmp, env)
    finally:
        kill_all()
        if os.environ.get("SNAPCHECK_KEEP"):
            print("kept " + tmp)
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    print("%d passed, 0 failed" % len(PASSED))


def run_checks(tmp, env):
    # ---- songs: album A (folder cover.png), album B (embedded picture, hostile title) ------
    music = os.path.join(tmp, "music")
    cover_a, cover_b = png(8, 8, (200, 30, 30)), png(6, 6, (30, 30, 200))
    songs = [("albumA/01-first.flac", {"TITLE": "First Song", "ARTIST": ["Ann", "Bob"], "ALBUM": "Album A",
                                        "ALBUMARTIST": "Ann", "TRACKNUMBER": "1", "DISCNUMBER": "1",
                                        "GENRE": ["Test", "Sine"], "DATE": "2024"}, 440),
             ("albumA/02-second.flac", {"TITLE": "Second Song", "ARTIST": "Ann", "ALBUM": "Album A",
                                         "TRACKNUMBER": "2/2"}, 550),
             ("albumB/03-third.flac", {"TITLE": "Third\u202eSong\u2028Line\x85End", "ARTIST": "Cy",
                                        "ALBUM": "Album B", "TRACKNUMBER": "3"}, 660),
             ("albumC/04-big.flac", {"TITLE": "Big Cover", "ALBUM": "Album C"}, 770)]
    for path, tags, freq in songs:
        full = os.path.join(music, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        subprocess.run(["sox", "-n", "-r", "44100", "-c", "2", full, "synth", "30", "sine", str(freq)], check=True)
        args = ["metaflac"]
        for key, value in tags.items():
            for v in (value if isinstance(value, list) else [value]):
                args.append("--set-tag=%s=%s" % (key, v))
        subprocess.run(args + [full], check=True)
    with open(os.path.join(music, "albumA", "cover.png"), "wb") as f:
        f.write(cover_a)
    with open(os.path.join(music, "albumC", "cover.jpg"), "wb") as f:  # over the 2 MiB bound
        f.write(b"\xff\xd8\xff\xe0" + os.urandom(3 * 1024 * 1024))
    with open(os.path.join(tmp, "embedded.png"), "wb") as f:
        f.write(cover_b)
    subprocess.run(["metaflac", "--import-picture-from=3||||" + os.path.join(tmp, "embedded.png"),
                    os.path.join(music, "albumB", "03-third.flac")], check=True)
    check("made 4 tagged FLAC songs, a folder cover, an embedded one and a 3 MiB one", True)

    # ---- a private MPD ---------------------------------------------------------------------
    sock_path = os.path.join(tmp, "mpd.sock")
    mpd_conf = os.path.join(tmp, "mpd.conf")
    with open(mpd_conf, "w") as f:
        f.write('music_directory "%s"\ndb_file "%s"\nplaylist_directory "%s"\n'
                'bind_to_address "127.0.0.1"\nbind_to_address "%s"\nport "%d"\n'
                'password "%s@read,add,control,admin"\ndefault_permissions "read"\n'
                'zeroconf_enabled "no"\nauto_update "no"\n'
                'audio_output {\n type "null"\n name "null"\n mixer_type "software"\n}\n'
                % (music, os.path.join(tmp, "mpd.db"), tmp, sock_path, MPD_PORT, PASSWORD))
    mpd_log = open(os.path.join(tmp, "mpd.log"), "wb")
    start(["mpd", "--no-daemon", "--stderr", mpd_conf], mpd_log, env)
    mpd = wait_for("MPD accepts connections", lambda: MpdClient(MPD_PORT))
    mpd.cmd("update")
    wait_for("MPD's database has the 4 songs",
             lambda: "updating_db" not in mpd.cmd("status") and mpd.cmd("stats").get("songs") == "4")
    check("private MPD is up on 127.0.0.1:%d and %s, with a password" % (MPD_PORT, sock_path), True)
    mpd.cmd("clear")
    for path, _, _ in songs:
        mpd.cmd("add", path)
    mpd.cmd("setvol", "50")
    mpd.cmd("play", "0")
    wait_for("MPD plays the first song", lambda: mpd.cmd("status").get("state") == "play")

    # ---- the plugin alone, on pipes, with MPD up --------------------------------------------
    plug = PluginProcess(["--stream=direct", "--mpd-host=%s@127.0.0.1" % PASSWORD, "--mpd-port=%d" % MPD_PORT,
                          "--unknown-option=1", "--snapcast-port=1780", "--snapcast-host=127.0.0.1"], env)
    first = plug.read(5)
    check("direct: Plugin.Stream.Ready comes once MPD is reached",
          first == {"jsonrpc": "2.0", "method": "Plugin.Stream.Ready"}, repr(first))
    GET, CONTROL, SET = ("Plugin.Stream.Player.GetProperties", "Plugin.Stream.Player.Control",
                         "Plugin.Stream.Player.SetProperty")

    def code(response):
        return response.get("error", {}).get("code")

    props = plug.call(1, GET).get("result", {})
    meta = props.get("metadata", {})
    check("direct: GetProperties has the playing song's metadata",
          props.get("playbackStatus") == "playing" and meta.get("title") == "First Song"
          and meta.get("artist") == ["Ann", "Bob"] and meta.get("albumArtist") == ["Ann"]
          and meta.get("genre") == ["Test", "Sine"] and meta.get("trackNumber") == 1
          and meta.get("discNumber") == 1 and meta.get("date") == "2024"
          and abs(meta.get("duration", 0) - 30) < 0.5 and meta.get("url") == songs[0][0],
          json.dumps(props)[:400])
    check("direct: volume/mute/shuffle/loop/capabilities read from MPD",
          props.get("volume") == 50 and props.get("mute") is False and props.get("shuffle") is False
          and props.get("loopStatus") == "none" and props.get("canControl") and props.get("canGoNext")
          and props.get("canSeek"), json.dumps(props)[:300])
    art = meta.get("artData", {})
    check("direct: artData carries album A's folder cover (albumart)",
          art.get("extension") == "png" and base64.b64decode(art.get("data", "")) == cover_a)
    plug.send("this is not json")
    message = plug.read(5)
    check("direct: a garbage line gets -32700 and the plugin goes on",
          (message or {}).get("error", {}).get("code") == -32700 and plug.proc.poll() is None, repr(message))
    check("direct: an unknown method gets -32601", code(plug.call(2, "Plugin.Nope")) == -32601)
    check("direct: an unknown command gets -32602", code(plug.call(3, CONTROL, {"command": "dance"})) == -32602)
    check("direct: a bad property value gets -32602", code(plug.call(4, SET, {"volume": "loud"})) == -32602)
    check("direct: seek without offset gets -32602", code(plug.call(5, CONTROL, {"command": "seek"})) == -32602)
    plug.send("[1, 2, 3]")
    plug.send('{"jsonrpc": "2.0", "method": "Plugin.Nope"}')  # a notification: no answer
    plug.send('{"id": 6, "jsonrpc": "2.0", "method": "%s", "params": {"volume": 42}}' % SET)
    answers = plug.answers(2)
    check("direct: a batch gets -32600, a notification no answer, then SetProperty volume ok",
          len(answers) == 2 and code(answers[0]) == -32600
          and answers[1] == {"jsonrpc": "2.0", "id": 6, "result": "ok"}, repr(answers))
    wait_for("direct: MPD's volume follows SetProperty (42)", lambda: mpd.cmd("status").get("volume") == "42")
    mpd.cmd("setvol", "61")
    check("direct: MPD's own volume change comes as a Properties notification",
          plug.notified(lambda p: p.get("volume") == 61) is not None)
    check("direct: Control pause answers ok", plug.call(7, CONTROL, {"command": "pause"}).get("result") == "ok")
    wait_for("direct: MPD paused", lambda: mpd.cmd("status").get("state") == "pause")
    check("direct: Control playPause answers ok",
          plug.call(8, CONTROL, {"command": "playPause"}).get("result") == "ok")
    wait_for("direct: MPD plays again after playPause", lambda: mpd.cmd("status").get("state") == "play")
    check("direct: SetProperty mute answers ok", plug.call(9, SET, {"mute": True}).get("result") == "ok")
    wait_for("direct: mute sets MPD's volume to 0", lambda: mpd.cmd("status").get("volume") == "0")
    plug.call(10, SET, {"mute": False})
    wait_for("direct: unmute restores MPD's volume (61)", lambda: mpd.cmd("status").get("volume") == "61")
    mpd.cmd("play", "3")
    big = plug.notified(lambda p: p.get("metadata", {}).get("title") == "Big Cover")
    check("direct: a song change comes with its metadata; a 3 MiB cover is left out",
          big is not None and "artData" not in big["metadata"] and big["playbackStatus"] == "playing",
          repr(big)[:300])
    mpd.cmd("setvol", "50")
    same = plug.notified(lambda p: p.get("volume") == 50)
    check("direct: a volume change alone carries no metadata", same is not None and "metadata" not in same,
          repr(same))
    check("direct: Control stop answers ok", plug.call(11, CONTROL, {"command": "stop"}).get("result") == "ok")
    wait_for("direct: MPD stopped", lambda: mpd.cmd("status").get("state") == "stop")
    plug.call(12, CONTROL, {"command": "play"})
    wait_for("direct: play after stop plays", lambda: mpd.cmd("status").get("state") == "play")
    plug.proc.send_signal(signal.SIGINT)
    check("direct: SIGINT (snapserver's way to stop it) exits 0 without a traceback",
          plug.proc.wait(timeout=5) == 0 and "Traceback" not in plug.stderr())
    mpd.cmd("play", "0")

    # ---- over MPD's Unix socket ------------------------------------------------------------
    plug = PluginProcess([], dict(env, MPD_HOST="%s@%s" % (PASSWORD, sock_path)))
    ready = plug.read(5)
    title = plug.call(1, GET).get("result", {}).get("metadata", {}).get("title")
    check("unix socket via MPD_HOST=password@/path: Ready and the title",
          (ready or {}).get("method") == "Plugin.Stream.Ready" and title == "First Song", repr(title))
    check("unix socket: closing stdin exits 0", plug.close_and_wait() == 0)

    # ---- the plugin with MPD absent -----------------------------------------------------------
    plug = PluginProcess(["--mpd-port=%d" % DEAD_PORT], env)
    early = plug.read(5.5)  # three connection attempts at 2 s
    check("absent MPD: no Ready, and the plugin keeps running", early is None and plug.proc.poll() is None,
          repr(early))
    props = plug.call(1, GET).get("result", {})
    check("absent MPD: GetProperties says stopped, canControl false",
          props.get("playbackStatus") == "stopped" and props.get("canControl") is False, repr(props))
    error = plug.call(2, CONTROL, {"command": "play"}).get("error", {})
    check("absent MPD: Control gets an error reply", error.get("code") == -32000, repr(error))
    check("absent MPD: closing stdin exits 0", plug.close_and_wait() == 0)
    lines = [line for line in plug.stderr().splitlines() if "cannot reach MPD" in line]
    check("absent MPD: said so exactly once on stderr", len(lines) == 1, repr(lines))

    # ---- a private snapserver running the plugin -----------------------------------------------
    fifo = os.path.join(tmp, "fifo")
    source = ("pipe://%s?name=%s&controlscript=%s&controlscriptparams=--mpd-port=%d"
              % (fifo, STREAM, PLUGIN, MPD_PORT))
    snap_conf = os.path.join(tmp, "snapserver.conf")
    with open(snap_conf, "w") as f:
        f.write("[server]\ndatadir = %s\nthreads = 1\n\n"
                "[http]\nenabled = true\nbind_to_address = 127.0.0.1\nport = %d\ndoc_root =\nhost = 127.0.0.1\n\n"
                "[tcp]\nenabled = true\nbind_to_address = 127.0.0.1\nport = %d\n\n"
                "[stream]\nbind_to_address = 127.0.0.1\nport = %d\nsource = %s\n\n"
                "[logging]\nsink = stderr\nfilter = *:info\n"
                % (os.path.join(tmp, "snapdata"), SNAP_HTTP, SNAP_TCP, SNAP_STREAM, source))
    os.makedirs(os.path.join(tmp, "snapdata"))
    snap_log_path = os.path.join(tmp, "snapserver.log")
    # snapserver 0.26 has no controlscriptparams: the plugin finds MPD through the environment.
    start(["snapserver", "-c", snap_conf], open(snap_log_path, "wb"),
          dict(env, MPD_HOST="%s@127.0.0.1" % PASSWORD, MPD_PORT=str(MPD_PORT)))
    try:
        snap = wait_for("snapserver's TCP control port is up", lambda: SnapClient(SNAP_TCP))
    except SystemExit:
        with open(snap_log_path, "rb") as f:
            print("snapserver's log, its end:\n" + f.read().decode("utf-8", "replace")[-2000:], flush=True)
        raise
    check("snapserver is up, source = " + source.replace(tmp, "$TMP"), True)

    def snap_props(predicate):
        """snapserver's properties of the stream when they satisfy `predicate`, else None."""
        props = snap.properties()
        return props if predicate(props) else None

    def snap_log():
        with open(snap_log_path, "rb") as f:
            return f.read().decode("utf-8", "replace")
    started = wait_for("snapserver logged the plugin's start line",
                       lambda: re.search(r"started with arguments ([^;]*);", snap_log()))
    check("snapserver started the plugin with: " + started.group(1), "--stream=%s" % STREAM in started.group(1))

    props = wait_for("Server.GetStatus shows the playing title",
                     lambda: snap_props(lambda p: p.get("metadata", {}).get("title") == "First Song"))
    check("snapserver: metadata.title = 'First Song', playing, volume 50",
          props.get("playbackStatus") == "playing" and props.get("volume") == 50, json.dumps(props)[:300])
    art_url = props.get("metadata", {}).get("artUrl", "")
    check("snapserver: artData became an artUrl on its HTTP port", "/__image_cache?name=" in art_url, art_url)
    with urllib.request.urlopen("http://127.0.0.1:%d/%s" % (SNAP_HTTP, art_url.split("/", 3)[3]), timeout=5) as r:
        check("snapserver: the artUrl serves album A's cover", r.read() == cover_a)

    def control(command, params=None):
        request = {"id": STREAM, "command": command}
        if params is not None:
            request["params"] = params
        return snap.call("Stream.Control", request)

    def title_is(title):
        return lambda: snap.properties().get("metadata", {}).get("title") == title

    control("pause")
    wait_for("Stream.Control pause -> MPD state pause", lambda: mpd.cmd("status").get("state") == "pause")
    wait_for("... and snapserver says paused", lambda: snap.properties().get("playbackStatus") == "paused")
    check("Stream.Control pause: MPD paused, snapserver says paused", True)
    control("play")
    wait_for("Stream.Control play -> MPD state play", lambda: mpd.cmd("status").get("state") == "play")
    check("Stream.Control play: MPD plays", True)
    control("next")
    wait_for("Stream.Control next -> MPD on song 2", lambda: mpd.cmd("currentsong").get("title") == "Second Song")
    wait_for("... and snapserver's title follows", title_is("Second Song"))
    check("Stream.Control next: MPD and snapserver on 'Second Song'", True)
    control("previous")
    wait_for("Stream.Control previous -> MPD on song 1", lambda: mpd.cmd("currentsong").get("title") == "First Song")
    wait_for("... and snapserver's title follows", title_is("First Song"))
    check("Stream.Control previous: back on 'First Song'", True)
    control("setPosition", {"position": 20})
    wait_for("Stream.Control setPosition 20 -> MPD elapsed ~20",
             lambda: 19.5 <= float(mpd.cmd("status").get("elapsed", 0)) <= 23)
    check("Stream.Control setPosition: MPD's elapsed moved to ~20 s", True)
    control("seek", {"offset": -10})
    wait_for("Stream.Control seek -10 -> MPD elapsed ~10",
             lambda: 9.5 <= float(mpd.cmd("status").get("elapsed", 0)) <= 14)
    check("Stream.Control seek: MPD's elapsed moved back ~10 s", True)
    snap.call("Stream.SetProperty", {"id": STREAM, "property": "volume", "value": 37})
    wait_for("Stream.SetProperty volume 37 -> MPD volume 37", lambda: mpd.cmd("status").get("volume") == "37")
    wait_for("... and snapserver's volume follows", lambda: snap.properties().get("volume") == 37)
    check("Stream.SetProperty volume: MPD's volume is 37", True)
    snap.call("Stream.SetProperty", {"id": STREAM, "property": "shuffle", "value": True})
    wait_for("Stream.SetProperty shuffle -> MPD random 1", lambda: mpd.cmd("status").get("random") == "1")
    snap.call("Stream.SetProperty", {"id": STREAM, "property": "loopStatus", "value": "track"})
    wait_for("Stream.SetProperty loopStatus track -> MPD repeat 1 single 1",
             lambda: (lambda s: s.get("repeat") == "1" and s.get("single") == "1")(mpd.cmd("status")))
    wait_for("... and snapserver says loopStatus track, shuffle",
             lambda: (lambda p: p.get("loopStatus") == "track" and p.get("shuffle") is True)(snap.properties()))
    snap.call("Stream.SetProperty", {"id": STREAM, "property": "loopStatus", "value": "none"})
    snap.call("Stream.SetProperty", {"id": STREAM, "property": "shuffle", "value": False})
    wait_for("loopStatus none / shuffle off -> MPD repeat 0 random 0",
             lambda: (lambda s: s.get("repeat") == "0" and s.get("random") == "0")(mpd.cmd("status")))
    check("Stream.SetProperty shuffle and loopStatus reach MPD and come back", True)
    mpd.cmd("setvol", "64")
    wait_for("MPD's own volume change reaches snapserver", lambda: snap.properties().get("volume") == 64)
    check("MPD's own changes reach snapserver (idle -> Properties)", True)

    # Song 3: embedded picture (readpicture), and a title full of control characters.
    mpd.cmd("play", "2")
    raw_title = wait_for("MPD plays song 3", lambda: mpd.cmd("currentsong").get("title") if
                         mpd.cmd("currentsong").get("album") == "Album B" else None)
    props = wait_for("snapserver shows song 3",
                     lambda: snap_props(lambda p: p.get("metadata", {}).get("album") == "Album B"))
    shown = props["metadata"].get("title", "")
    check("song 3's title from MPD holds control characters", any(flat_char(c) for c in raw_title), repr(raw_title))
    check("snapserver: song 3's title has them as spaces", shown == "Third Song Line End"
          and not any(flat_char(c) for c in shown), repr(shown))
    art_url = props["metadata"].get("artUrl", "")
    with urllib.request.urlopen("http://127.0.0.1:%d/%s" % (SNAP_HTTP, art_url.split("/", 3)[3]), timeout=5) as r:
        check("snapserver: song 3's artUrl serves its embedded picture (readpicture)", r.read() == cover_b)

    # MPD goes away and comes back: the plugin says stopped, then reconnects.
    mpd.cmd("stop")
    mpd.close()
    PROCS[0].kill()
    PROCS[0].wait()
    wait_for("MPD gone -> snapserver says stopped, canControl false",
             lambda: snap_props(lambda p: p.get("playbackStatus") == "stopped" and p.get("canControl") is False))
    check("MPD killed: snapserver shows the stream stopped and not controllable", True)
    start(["mpd", "--no-daemon", "--stderr", mpd_conf], mpd_log, env)
    mpd = wait_for("MPD restarted", lambda: MpdClient(MPD_PORT))
    for path, _, _ in songs:  # no state_file: the queue starts empty
        mpd.cmd("add", path)
    mpd.cmd("play", "0")
    wait_for("after MPD's restart the plugin reconnects and the title comes back", title_is("First Song"), timeout=15)
    check("MPD restarted: the plugin reconnected by itself", True)
    control("pause")  # its command connection broke with the old MPD: it opens a new one
    wait_for("Stream.Control pause after MPD's restart -> MPD paused",
             lambda: mpd.cmd("status").get("state") == "pause")
    check("Stream.Control after MPD's restart: the plugin's command connection reopened", True)
    log = snap_log()
    check("snapserver's log has one 'cannot reach' line for the outage",
          log.count("cannot reach MPD") == 1, str(log.count("cannot reach MPD")))
    check("the plugin wrote no traceback", "Traceback" not in log)
    check("snapserver 0.26 found no property or tag it does not know (no `mute` sent to it)",
          "not supoorted" not in log, str(re.findall(r"not supoorted: \w+", log)[:3]))
    check("no password in snapserver's log", PASSWORD not in log)
    mpd.close()


def flat_char(c):
    o = ord(c)
    return (o < 0x20 or 0x7F <= o <= 0x9F or 0x202A <= o <= 0x202E or 0x2066 <= o <= 0x2069
            or o in (0x61C, 0x2028, 0x2029))


if __name__ == "__main__":
    main()
