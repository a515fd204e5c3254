#!/usr/bin/env python3
"""Crossfade: tplayer's `--crossfade 5` against MPD 0.23's `crossfade 5`, both playing the same
two songs to a null output held to real time (tplayer `-o null`, MPD's `null` output plugin with
`sync "yes"`), the songs of two albums so that tplayer fades between them. The songs: 12 s of
pink noise at -10 dB and 12 s of a 440 Hz sine at -6 dB, 44.1 kHz 16-bit stereo FLACs made by
sox and flac (bench/out/, not committed), in two folders with two album tags.

- CPU: the player's CPU seconds (user + system, the whole process: every thread) over the same
  12 s window, 2 s to 14 s into the list, which holds the whole 5 s fade (7 s to 12 s), read
  from /proc/PID/stat before and after for both alike. The median of RUNS, each player in a
  private HOME and XDG folders; MPD is told `crossfade 5`, `add` both and `play` over its own
  private port. tplayer's figure without the crossfade too (the fade's own cost).

Usage: crossfade.py TPLAYER [RUNS]      (prints the figures)
"""
import os, shutil, statistics, subprocess, sys, tempfile, time

root = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, root)
from library import process_cpu  # noqa: E402
from radio import free_port  # noqa: E402
from run import flac_song  # noqa: E402
from snapcast import kill, log_tails, mpd_config, mpd_told, private_environment  # noqa: E402

START, WINDOW, SECONDS = 2.0, 12.0, 5


def tagged(song, folder, album):
    """`song` copied into `folder`/`album`/, tagged with that album; its path."""
    place = os.path.join(folder, album)
    os.makedirs(place, exist_ok=True)
    path = os.path.join(place, os.path.basename(song))
    shutil.copy(song, path)
    subprocess.run(["metaflac", "--remove-tag=ALBUM", f"--set-tag=ALBUM={album}", "--set-tag=TRACKNUMBER=1", path], check=True)
    return path


def one_run(name, tplayer, songs, env, fade=True):
    """One player's CPU seconds over the window."""
    folder = tempfile.mkdtemp(prefix=f"tplayer-bench-crossfade-{name}-")
    private = private_environment(folder, env)
    process = None
    try:
        errors = open(os.path.join(folder, name + ".stderr"), "w")
        if name == "tplayer":
            placed = [tagged(song, folder, album) for song, album in zip(songs, ("One", "Two"))]
            arguments = [tplayer, "-q", "--no-mpris", "--no-config", "-o", "null"] + (["--crossfade", str(SECONDS)] if fade else []) + placed
        else:
            port = free_port()
            conf = mpd_config(folder, songs[0], port, ' type "null"\n name "bench"\n sync "yes"')
            music = os.path.join(folder, "music")
            os.remove(os.path.join(music, os.path.basename(songs[0])))
            placed = [os.path.relpath(tagged(song, music, album), music) for song, album in zip(songs, ("One", "Two"))]
            arguments = ["/usr/bin/mpd", "--no-daemon", conf]
        process = subprocess.Popen(arguments, env=private, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=errors)
        errors.close()
        if name == "mpd":
            mpd_told(port, [f"crossfade {SECONDS}"] + [f'add "{song}"' for song in placed] + ["play"])
        time.sleep(START)
        before = process_cpu(process.pid)
        time.sleep(WINDOW)
        if process.poll() is not None:
            raise RuntimeError(f"{name} ended before the window did")
        return process_cpu(process.pid) - before
    except (RuntimeError, OSError) as problem:
        sys.exit(f"bench: crossfade: {problem}{log_tails(folder, (f'{name}.stderr', 'mpd.log'))}")
    finally:
        if process:
            kill(process)
        shutil.rmtree(folder, ignore_errors=True)


def measure(tplayer, runs):
    """(tplayer's median CPU s with the crossfade, without it, MPD's with it)."""
    songs = [flac_song("crossfade-noise", 12, ["pinknoise", "pinknoise", "gain", "-10"]),
             flac_song("crossfade-tone", 12, ["sine", "440", "gain", "-6"])]
    faded, plain, mpd = [], [], []
    for run in range(runs):
        mpd.append(one_run("mpd", tplayer, songs, os.environ))
        faded.append(one_run("tplayer", tplayer, songs, os.environ))
        plain.append(one_run("tplayer", tplayer, songs, os.environ, fade=False))
        print(f"crossfade: run {run + 1}: MPD {mpd[-1]:.3f} s, tplayer {faded[-1]:.3f} s ({plain[-1]:.3f} s without)", file=sys.stderr)
    return statistics.median(faded), statistics.median(plain), statistics.median(mpd)


if __name__ == "__main__":
    binary = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "..", ".build", "release", "tplayer"))
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    faded, plain, mpd = measure(binary, runs)
    print(f"CPU over {WINDOW:.0f} s holding a {SECONDS} s crossfade (median of {runs}): tplayer {faded:.3f} s "
          f"({plain:.3f} s without the fade), MPD {mpd:.3f} s ({faded / mpd:.2f}×)")
