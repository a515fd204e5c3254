#!/usr/bin/env python3
"""The library: `tplayer --scan` against MPD 0.23 (`mpc update --wait`) on the same files, and
`tplayer --find` over 100,000 songs.

The 10,000 songs: 2 s each, in five formats in turn (MP3, FLAC, Ogg Vorbis, Opus, AAC in MP4),
1,000 albums of 10 tracks by 100 album artists, every song tagged (title, artist, album artist,
album, track, date, genre): the MP3s' ID3v2.3 written here, the others' tags by mutagen (PyPI,
in a venv under .build/). The 100,000: 2 s MP3s tagged the same way, in 1,000 folders. Both in
bench/out/ (not committed), made once.

CPU is the whole process's for tplayer (user + system, from wait4) and the MPD process's
across the update (from /proc/PID/stat), the median of RUNS runs interleaved, on a warm cache.
Peak RSS: GNU time's for tplayer, MPD's VmHWM after its scan. MPD's database is its own file
(gzipped, as Debian builds it); tplayer's is library.sqlite.

Usage: library.py TPLAYER [RUNS]
"""
import json, os, shutil, statistics, subprocess, sys, time

root = os.path.dirname(os.path.abspath(__file__))
out = os.path.join(root, "out")
sys.path.insert(0, root)
from spawning import spawn  # noqa: E402
from measuring import cpu, peak_rss  # noqa: E402

FORMATS = ["mp3", "flac", "ogg", "opus", "m4a"]
GENRES = ["Rock", "Pop", "Jazz", "Electronic", "Folk", "Classical", "Hip-Hop", "Ambient"]


def tags(number):
    """The tags of song `number`: album number // 10, album artist album // 10."""
    album, artist = number // 10, number // 100
    return {"title": f"Song {number} of Album {album}", "artist": f"Artist {artist}", "albumartist": f"Artist {artist}",
            "album": f"Album {album}", "tracknumber": str(number % 10 + 1), "date": str(1960 + album % 60),
            "genre": GENRES[album % len(GENRES)]}


def id3(fields):
    """ID3v2.3 with the text frames of `fields` (UTF-16 with a BOM, as v2.3 allows)."""
    ids = {"title": "TIT2", "artist": "TPE1", "albumartist": "TPE2", "album": "TALB", "tracknumber": "TRCK",
           "date": "TYER", "genre": "TCON"}
    body = b""
    for name, value in fields.items():
        text = b"\x01" + value.encode("utf-16")
        body += ids[name].encode() + len(text).to_bytes(4, "big") + b"\0\0" + text
    size = len(body)
    synchsafe = bytes([(size >> 21) & 0x7F, (size >> 14) & 0x7F, (size >> 7) & 0x7F, size & 0x7F])
    return b"ID3\x03\x00\x00" + synchsafe + body


def base(extension):
    """A 2 s song of each format, untagged: bench/out/library-base.EXT."""
    path = os.path.join(out, "library-base." + extension)
    if os.path.exists(path):
        return path
    wav = os.path.join(out, "library-base.wav")
    subprocess.run(["sox", "-q", "-n", "-r", "44100", "-c", "2", "-b", "16", wav, "synth", "2", "sine", "440", "gain", "-6"],
                   check=True)
    command = {"mp3": ["lame", "--quiet", "-b", "128", wav, path], "flac": ["flac", "-s", "-f", wav, "-o", path],
               "ogg": ["oggenc", "-Q", wav, "-o", path], "opus": ["opusenc", "--quiet", wav, path],
               "m4a": ["ffmpeg", "-v", "quiet", "-y", "-i", wav, "-c:a", "aac", "-b:a", "128k", path]}[extension]
    subprocess.run(command, check=True)
    return path


def mutagen_python():
    """A venv under .build/ with mutagen, for the tags of FLAC, Ogg, Opus and MP4."""
    venv = os.path.join(root, "..", ".build", "bench-venv")
    python = os.path.join(venv, "bin", "python3")
    if not os.path.exists(python):
        subprocess.run([sys.executable, "-m", "venv", venv], check=True)
    if subprocess.run([python, "-c", "import mutagen"], capture_output=True).returncode != 0:
        subprocess.run([python, "-m", "pip", "install", "-q", "mutagen"], check=True)
    return python


TAGGER = """
import json, sys
from mutagen import File
from mutagen.mp4 import MP4
for path, fields in json.load(sys.stdin):
    if path.endswith(".m4a"):
        song = MP4(path)
        names = {"title": "\\xa9nam", "artist": "\\xa9ART", "albumartist": "aART", "album": "\\xa9alb",
                 "date": "\\xa9day", "genre": "\\xa9gen"}
        for name, value in fields.items():
            if name == "tracknumber":
                song["trkn"] = [(int(value), 10)]
            else:
                song[names[name]] = value
    else:
        song = File(path)
        for name, value in fields.items():
            song[name] = value
    song.save()
"""


def corpus(count, formats, name):
    """bench/out/NAME: `count` tagged songs in `formats` in turn, 100 to a folder."""
    folder = os.path.join(out, name)
    done = os.path.join(folder, ".made")
    if os.path.exists(done):
        return folder
    print(f"making {folder} ({count} songs)...", file=sys.stderr)
    shutil.rmtree(folder, ignore_errors=True)
    bases = {extension: open(base(extension), "rb").read() for extension in formats}
    others = []
    for number in range(count):
        extension = formats[number % len(formats)]
        directory = os.path.join(folder, f"{number // 100:04d}")
        os.makedirs(directory, exist_ok=True)
        path = os.path.join(directory, f"{number:06d}.{extension}")
        with open(path, "wb") as f:
            if extension == "mp3":
                f.write(id3(tags(number)))
            f.write(bases[extension])
        if extension != "mp3":
            others.append((path, tags(number)))
    if others:
        subprocess.run([mutagen_python(), "-c", TAGGER], input=json.dumps(others).encode(), check=True)
    open(done, "w").close()
    return folder


def process_cpu(pid):
    """CPU seconds (user + system) the process `pid` has used."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def high_water(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return 0.0


class Mpd:
    """A private MPD on a Unix socket, its database in bench/out/mpd/, the null output."""

    def __init__(self, music):
        self.folder = os.path.join(out, "mpd")
        shutil.rmtree(self.folder, ignore_errors=True)
        os.makedirs(self.folder)
        self.socket = os.path.join(self.folder, "socket")
        self.database = os.path.join(self.folder, "database")
        conf = os.path.join(self.folder, "mpd.conf")
        with open(conf, "w") as f:
            f.write(f'music_directory "{music}"\ndb_file "{self.database}"\nlog_file "{self.folder}/log"\n'
                    f'pid_file "{self.folder}/pid"\nstate_file "{self.folder}/state"\nbind_to_address "{self.socket}"\n'
                    'auto_update "no"\naudio_output {\n type "null"\n name "null"\n}\n')
        self.process = subprocess.Popen(["mpd", "--no-daemon", conf], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(200):
            if os.path.exists(self.socket) and self.mpc("status").returncode == 0:
                return
            time.sleep(0.05)
        sys.exit("bench: MPD did not start (bench/out/mpd/log)")

    def mpc(self, *arguments):
        return subprocess.run(["mpc", "-q", "-h", self.socket] + list(arguments), capture_output=True)

    def update(self, rescan=False):
        """CPU seconds of one `mpc update --wait` (a `rescan` reads every file again)."""
        before = process_cpu(self.process.pid)
        if self.mpc("rescan" if rescan else "update", "--wait").returncode != 0:
            sys.exit("bench: mpc update failed")
        return process_cpu(self.process.pid) - before

    def songs(self):
        return int(subprocess.run(["mpc", "-h", self.socket, "stats"], capture_output=True, text=True)
                   .stdout.split("Songs:")[1].split()[0])

    def stop(self):
        self.process.terminate()
        self.process.wait()


def measure(tplayer, runs):
    """The figures: first scan and rescan against MPD, sizes, and --find over 100,000 songs."""
    music = corpus(10_000, FORMATS, "library-10k")
    data = os.path.join(out, "library-data")
    env = dict(os.environ, XDG_DATA_HOME=data, HOME=os.path.join(out, "library-home"))
    library = os.path.join(data, "tplayer", "library.sqlite")
    scan = [tplayer, "--no-config", "--scan", music]

    def fresh():
        shutil.rmtree(data, ignore_errors=True)

    # Warm the cache: each reads every file once before anything is timed.
    fresh()
    cpu(scan, env)
    mpd = Mpd(music)
    mpd.update()
    mpd.stop()

    first = {"tplayer": [], "mpd": []}
    for _ in range(runs):
        mpd = Mpd(music)
        first["mpd"].append(mpd.update())
        mpd_rss = high_water(mpd.process.pid)
        mpd_songs = mpd.songs()
        mpd.stop()
        fresh()
        first["tplayer"].append(cpu(scan, env))
    fresh()
    t_rss = peak_rss(scan, env)
    again = {"tplayer": [], "mpd": []}
    mpd = Mpd(music)
    mpd.update()
    for _ in range(runs):
        again["mpd"].append(mpd.update())
        again["tplayer"].append(cpu(scan, env))
    mpd.stop()
    sizes = (os.path.getsize(library), os.path.getsize(mpd.database))

    # --find over 100,000 songs: the time from start to exit of the whole process.
    big = corpus(100_000, ["mp3"], "library-100k")
    big_env = dict(env, XDG_DATA_HOME=os.path.join(out, "library-100k-data"))
    if not os.path.exists(os.path.join(big_env["XDG_DATA_HOME"], "tplayer", "library.sqlite")):
        started = time.monotonic()
        cpu([tplayer, "--no-config", "--scan", big], big_env)
        print(f"scanned 100,000 songs in {time.monotonic() - started:.1f} s", file=sys.stderr)
    queries = ["song 54321", "artist:\"artist 420\"", "album:\"album 7777\"", "year:1990..1999 genre:jazz", "zzz nothing"]
    finds = []
    for _ in range(runs):
        for query in queries:
            started = time.monotonic()
            _, status, _ = os.wait4(spawn([tplayer, "--no-config", "--find", query], big_env), 0)
            finds.append(time.monotonic() - started)
            if status not in (0, 256):
                sys.exit(f"bench: --find {query} failed ({status})")
    return {"first": (statistics.median(first["tplayer"]), statistics.median(first["mpd"])),
            "rss": (t_rss, mpd_rss), "songs": mpd_songs,
            "again": (statistics.median(again["tplayer"]), statistics.median(again["mpd"])),
            "sizes": sizes, "find": (statistics.median(finds), max(finds), len(finds))}


if __name__ == "__main__":
    figures = measure(os.path.abspath(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 3)
    print(json.dumps(figures, indent=1))
