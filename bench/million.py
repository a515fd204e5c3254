#!/usr/bin/env python3
"""A library of a million files on a small machine: `tplayer --scan` against MPD 0.23
(`mpc update --wait`) on the same files, each a first scan and a rescan of them unchanged; and
`--find` of all of them against `--find` of a thousand (the answer written as it is read).

The million: ten hard links to each of library.py's 100,000 tagged MP3s (bench/out/library-1m,
made once: 1,000,000 paths, 100,000 files' worth of disk). For each: its CPU seconds (user +
system, the whole process's), wall seconds, and peak RSS (tplayer: GNU time's; MPD: its VmHWM
after the scan, the process holding its whole database).

Usage: million.py TPLAYER
"""
import json, os, shutil, subprocess, sys, time

root = os.path.dirname(os.path.abspath(__file__))
out = os.path.join(root, "out")
sys.path.insert(0, root)
import library  # noqa: E402


def corpus():
    """bench/out/library-1m: c0 … c9, each the 100,000 MP3s' folders of hard links."""
    folder = os.path.join(out, "library-1m")
    done = os.path.join(folder, ".made")
    if os.path.exists(done):
        return folder
    big = library.corpus(100_000, ["mp3"], "library-100k")
    print(f"making {folder} (1,000,000 hard links)...", file=sys.stderr)
    shutil.rmtree(folder, ignore_errors=True)
    names = [(d, f) for d in sorted(os.listdir(big)) if os.path.isdir(os.path.join(big, d))
             for f in sorted(os.listdir(os.path.join(big, d)))]
    for copy in range(10):
        for d, f in names:
            target = os.path.join(folder, f"c{copy}", d)
            os.makedirs(target, exist_ok=True)
            os.link(os.path.join(big, d, f), os.path.join(target, f))
    open(done, "w").close()
    return folder


def timed(command, env):
    """Wall seconds, CPU seconds and peak RSS (MB) of one run of `command`, by GNU time."""
    report = os.path.join(out, "million-time.txt")
    started = time.monotonic()
    status = subprocess.run(["/usr/bin/time", "-f", "%U %S %M", "-o", report] + command, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
    wall = time.monotonic() - started
    if status != 0:
        sys.exit(f"bench: {' '.join(command)} failed ({status})")
    with open(report) as f:
        user, system, peak = f.read().split()[-3:]
    return {"wall": wall, "cpu": float(user) + float(system), "rss": int(peak) / 1024}


def mpd_update(mpd):
    started = time.monotonic()
    cpu = mpd.update()
    return {"wall": time.monotonic() - started, "cpu": cpu, "rss": library.high_water(mpd.process.pid)}


def measure(tplayer):
    music = corpus()
    data = os.path.join(out, "million-data")
    env = dict(os.environ, XDG_DATA_HOME=data, HOME=os.path.join(out, "library-home"))
    shutil.rmtree(data, ignore_errors=True)
    scan = [tplayer, "--no-config", "--scan", music]
    figures = {"tplayer": {"first": timed(scan, env), "again": timed(scan, env)}}
    sqlite = os.path.join(data, "tplayer", "library.sqlite")
    figures["tplayer"]["size"] = os.path.getsize(sqlite) + (os.path.getsize(sqlite + "-wal") if os.path.exists(sqlite + "-wal") else 0)
    # --find: every song (a million paths written to a pipe as they are read) against a
    # thousand (one album artist's ten copies).
    for name, query in (("find-all", "year:1900..2100"), ("find-1000", 'albumartist:"artist 42"')):
        figures["tplayer"][name] = timed([tplayer, "--no-config", "--find", query], env)
    shutil.rmtree(data, ignore_errors=True)
    mpd = library.Mpd(music)
    try:
        first = mpd_update(mpd)
        again = mpd_update(mpd)
        figures["mpd"] = {"first": first, "again": again, "songs": mpd.songs()}
    finally:
        mpd.stop()
    figures["mpd"]["size"] = os.path.getsize(mpd.database)
    return figures


if __name__ == "__main__":
    print(json.dumps(measure(os.path.abspath(sys.argv[1])), indent=1))
