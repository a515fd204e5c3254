#!/usr/bin/env python3
"""A stream's server that accepts and never answers: how soon mpg123's remote protocol is
answered meanwhile, tplayer against mpg123 (the same commands, each player alone).

A local server accepts every connection and never sends a byte. Each player (`-R`, no output
of its own: tplayer `-o null`, mpg123 `-o dummy`) is told `LOAD` of a song on it, and 0.3 s
later `VOLUME`, `STATE`, then `LOAD` of a local 1 s song; the time from sending each to its
answer (`@V`, the end of `@STATE`, `@P 2`) is measured, RUNS times, and then `QUIT`'s to the
player's exit. An answer not given within LIMIT seconds counts as LIMIT (the player is killed
at the end). Prints `COMMAND MEDIAN MAX` in milliseconds for each player.

Usage: deadserver.py TPLAYER [RUNS]
"""
import os, select, socket, subprocess, sys, threading, time

root = os.path.dirname(os.path.abspath(__file__))
out = os.path.join(root, "out")
LIMIT = 5.0


def silent_server():
    """A server on 127.0.0.1 that accepts and never answers; its port."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(64)
    held = []

    def accept():
        while True:
            connection, _ = server.accept()
            held.append(connection)

    threading.Thread(target=accept, daemon=True).start()
    return server.getsockname()[1]


def one_second_song():
    path = os.path.join(out, "one-second.mp3")
    if not os.path.exists(path):
        os.makedirs(out, exist_ok=True)
        sox = subprocess.Popen(["sox", "-q", "-n", "-r", "44100", "-c", "2", "-b", "16", "-t", "wav", "-", "synth", "1", "sine", "440"],
                               stdout=subprocess.PIPE)
        subprocess.run(["lame", "--quiet", "-", path + ".part"], stdin=sox.stdout, check=True)
        sox.wait()
        os.rename(path + ".part", path)
    return path


def run(command, port, song, runs):
    home = os.path.join(out, "deadserver-home")
    os.makedirs(os.path.join(home, "run"), mode=0o700, exist_ok=True)
    env = dict(os.environ, HOME=home, XDG_DATA_HOME=home + "/data", XDG_CONFIG_HOME=home + "/config",
               XDG_STATE_HOME=home + "/state", XDG_RUNTIME_DIR=home + "/run")
    player = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    pending = b""

    def answer(prefix):
        """Seconds until a line starting with `prefix` (LIMIT when none comes in time)."""
        nonlocal pending
        start = time.monotonic()
        while time.monotonic() - start < LIMIT:
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                if line.startswith(prefix):
                    return time.monotonic() - start
            ready, _, _ = select.select([player.stdout], [], [], 0.01)
            if ready:
                chunk = os.read(player.stdout.fileno(), 65536)
                if not chunk:
                    return LIMIT
                pending += chunk
        return LIMIT

    def send(line):
        player.stdin.write((line + "\n").encode())
        player.stdin.flush()

    answer(b"@R")
    times = {"VOLUME": [], "STATE": [], "LOAD (local)": [], "QUIT": []}
    for n in range(runs):
        send(f"LOAD http://127.0.0.1:{port}/never-answers.mp3")
        time.sleep(0.3)
        for name, line, prefix in (("VOLUME", f"VOLUME {50 + n}", b"@V"), ("STATE", "STATE", b"@STATE }"),
                                   ("LOAD (local)", f"LOAD {song}", b"@P 2")):
            start = time.monotonic()
            send(line)
            answer(prefix)
            times[name].append(time.monotonic() - start)
    send(f"LOAD http://127.0.0.1:{port}/never-answers.mp3")
    time.sleep(0.3)
    start = time.monotonic()
    send("QUIT")
    try:
        player.wait(LIMIT)
    except subprocess.TimeoutExpired:
        player.kill()
        player.wait()
    times["QUIT"].append(min(time.monotonic() - start, LIMIT))
    return {name: (sorted(t)[len(t) // 2] * 1000, max(t) * 1000) for name, t in times.items()}


def measure(tplayer, runs=5):
    port = silent_server()
    song = one_second_song()
    return {"tplayer": run([tplayer, "-R", "-o", "null"], port, song, runs),
            "mpg123": run(["mpg123", "-R", "-o", "dummy"], port, song, runs)}


if __name__ == "__main__":
    figures = measure(os.path.abspath(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 5)
    for player, rows in figures.items():
        for name, (median, worst) in rows.items():
            print(f"{player} {name} {median:.1f} {worst:.1f}")
