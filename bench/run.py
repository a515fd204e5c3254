#!/usr/bin/env python3
"""`make bench`: tplayer against the reference mpg123 (and flac for FLAC), side by side in one run, as one table.

Every timing is the CPU time (user + system) of the whole process, from the kernel (`wait4`),
the median of RUNS runs, the two players interleaved run by run; peak RSS is GNU time's. The songs are generated here
with sox and lame (bench/out/, not committed): a 1 s song, a 10-minute and a 60-minute VBR one,
a 30 s tone, a 10-minute FLAC (flac), and a 10-minute AAC (.m4a) by ffmpeg. Live playing goes to a private PulseAudio server with a null sink.

The library rows (library.py) measure `--scan` against MPD 0.23 and `--find` over 100,000 songs.

Usage: run.py TPLAYER [RUNS]      (writes the table to stdout and to bench/out/table.md)
"""
import os, re, statistics, subprocess, sys

root = os.path.dirname(os.path.abspath(__file__))
out = os.path.join(root, "out")
sys.path.insert(0, root)
from soundserver import SoundServer  # noqa: E402
from spawning import spawn  # noqa: E402
from measuring import cpu, peak_rss  # noqa: E402
import latency  # noqa: E402
import live  # noqa: E402

TPLAYER = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "..", ".build/release/tplayer"))
RUNS = int(sys.argv[2]) if len(sys.argv) > 2 else 5


def song(name, seconds, synth, encode):
    """bench/out/NAME.mp3: `seconds` of sox's `synth` arguments, encoded by lame `encode`."""
    path = os.path.join(out, name + ".mp3")
    if not os.path.exists(path):
        os.makedirs(out, exist_ok=True)
        print(f"making {path} ({seconds} s)...", file=sys.stderr)
        sox = subprocess.Popen(["sox", "-q", "-n", "-r", "44100", "-c", "2", "-b", "16", "-t", "wav", "-",
                                "synth", str(seconds)] + synth, stdout=subprocess.PIPE)
        subprocess.run(["lame", "--quiet"] + encode + ["-", path + ".part"], stdin=sox.stdout, check=True)
        sox.wait()
        os.rename(path + ".part", path)
    return path


def flac_song(name, seconds, synth, rate=44100, bits=16):
    """bench/out/NAME.flac: `seconds` of sox's `synth` arguments, stereo (16-bit, 44.1 kHz unless
    said), encoded by flac."""
    path = os.path.join(out, name + ".flac")
    if not os.path.exists(path):
        os.makedirs(out, exist_ok=True)
        print(f"making {path} ({seconds} s)...", file=sys.stderr)
        sox = subprocess.Popen(["sox", "-q", "-n", "-r", str(rate), "-c", "2", "-b", str(bits), "-t", "wav", "-",
                                "synth", str(seconds)] + synth, stdout=subprocess.PIPE)
        subprocess.run(["flac", "-s", "-f", "-o", path + ".part", "-"], stdin=sox.stdout, check=True)
        sox.wait()
        os.rename(path + ".part", path)
    return path


def encoded(name, seconds, rate, encode):
    """bench/out/NAME: `seconds` of pink noise with a tremolo at `rate`, piped as a WAV into
    `encode` (a command whose last argument is the file it writes)."""
    path = os.path.join(out, name)
    if not os.path.exists(path):
        os.makedirs(out, exist_ok=True)
        print(f"making {path} ({seconds} s)...", file=sys.stderr)
        sox = subprocess.Popen(["sox", "-q", "-n", "-r", str(rate), "-c", "2", "-b", "16", "-t", "wav", "-", "synth",
                                str(seconds), "pinknoise", "tremolo", "0.3", "60", "gain", "-12"], stdout=subprocess.PIPE)
        subprocess.run(encode + [path + ".part"], stdin=sox.stdout, check=True)
        sox.wait()
        os.rename(path + ".part", path)
    return path


def aac(name, seconds, synth):
    """bench/out/NAME.m4a: `seconds` of sox's `synth` arguments, encoded by ffmpeg's AAC at 160 kb/s."""
    path = os.path.join(out, name + ".m4a")
    if not os.path.exists(path):
        os.makedirs(out, exist_ok=True)
        print(f"making {path} ({seconds} s)...", file=sys.stderr)
        sox = subprocess.Popen(["sox", "-q", "-n", "-r", "44100", "-c", "2", "-b", "16", "-t", "wav", "-",
                                "synth", str(seconds)] + synth, stdout=subprocess.PIPE)
        subprocess.run(["ffmpeg", "-v", "quiet", "-f", "wav", "-i", "-", "-c:a", "aac", "-b:a", "160k", "-f", "mp4",
                        path + ".part"], stdin=sox.stdout, check=True)
        sox.wait()
        os.rename(path + ".part", path)
    return path


def flac_rows(wav):
    """Decoding a 10-minute FLAC: `tplayer -w` against `flac -d` (which checks the MD5 signature
    besides: tplayer -w does not), and the like for like, `--check` against `flac -t` (both decode
    to nothing and check the signature)."""
    ten = flac_song("ten-minutes", 600, ["pinknoise", "tremolo", "0.3", "60", "gain", "-12"])
    t, f = side_by_side([TPLAYER, "-q", "--force", "-w", wav("t-flac"), ten], ["flac", "-s", "-d", "-f", "-o", wav("f-flac"), ten])
    same = subprocess.run(["cmp", "-s", wav("t-flac"), wav("f-flac")]).returncode == 0
    row("FLAC: decode 10 min to WAV (-w / flac -d, which checks the MD5 too)" + ("" if same else " — BYTES DIFFER"),
        f"{t:.3f} s", f"{f:.3f} s", f"{t / f:.3f}", "≤ 1.05, same bytes", t / f <= 1.05 and same)
    t, f = side_by_side([TPLAYER, "--check", ten], ["flac", "-s", "-t", ten])
    row("FLAC: decode 10 min checking its MD5 (--check / flac -t)", f"{t:.3f} s", f"{f:.3f} s", f"{t / f:.3f}",
        "≤ 1.05", t / f <= 1.05)
    # Hi-res: a 24-bit, 96 kHz FLAC is written at 24 bits, as flac -d writes it.
    deep = flac_song("three-minutes-24-96", 180, ["pinknoise", "tremolo", "0.3", "60", "gain", "-12"], rate=96000, bits=24)
    t, f = side_by_side([TPLAYER, "-q", "--force", "-w", wav("t-flac24"), deep], ["flac", "-s", "-d", "-f", "-o", wav("f-flac24"), deep])
    same = subprocess.run(["cmp", "-s", wav("t-flac24"), wav("f-flac24")]).returncode == 0
    row("FLAC 24-bit 96 kHz: decode 3 min to WAV (-w / flac -d)" + ("" if same else " — BYTES DIFFER"),
        f"{t:.3f} s", f"{f:.3f} s", f"{t / f:.3f}", "≤ 1.05, same bytes", t / f <= 1.05 and same)
    # The graphic equaliser's cost: the 10-minute FLAC to WAV with the bass preset on, against the same without.
    config = os.path.join(out, "equalizer.conf")
    with open(config, "w") as file:
        file.write("equalizer-preset = rock\n")
    e, t = side_by_side([TPLAYER, "-q", "--force", "--config", config, "-w", wav("t-flac-eq"), ten],
                        [TPLAYER, "-q", "--force", "-w", wav("t-flac"), ten])
    row("FLAC: decode 10 min to WAV with the equaliser on (rock: 10 bands) / off", f"{e:.3f} s", f"{t:.3f} s",
        f"+{(e - t) / 600 * 100:.2f} % of a core", "stated", True)


def pcm(path):
    """The bytes of a WAV file's data chunk (headers differ between writers, samples must not)."""
    with open(path, "rb") as f:
        data = f.read()
    offset = 12
    while offset + 8 <= len(data):
        size = int.from_bytes(data[offset + 4:offset + 8], "little")
        if data[offset:offset + 4] == b"data":
            return data[offset + 8:offset + 8 + size]
        offset += 8 + size + (size & 1)
    return b""


def side_by_side(ours, theirs, env=None):
    """Median CPU seconds of `ours` and of `theirs`, run interleaved."""
    results = ([], [])
    for _ in range(RUNS):
        for index, command in enumerate((theirs, ours)):
            results[index].append(cpu(command, env))
    return statistics.median(results[1]), statistics.median(results[0])


rows = []


def row(measure, ours, theirs, ratio, target, met):
    rows.append((measure, ours, theirs, ratio, target, "pass" if met else "FAIL"))
    print(f"{measure}: {ours} vs {theirs} ({ratio}; target {target}): {'pass' if met else 'FAIL'}", file=sys.stderr)


def main():
    one = song("one-second", 1, ["sine", "440", "gain", "-6"], ["-b", "128"])
    tone = song("tone-30s", 30, ["sine", "440", "gain", "-6"], ["-b", "192"])
    ten = song("ten-minutes-vbr", 600, ["pinknoise", "tremolo", "0.3", "60", "gain", "-12"], ["-V", "2"])
    hour = song("sixty-minutes-vbr", 3600, ["pinknoise", "tremolo", "0.3", "60", "gain", "-12"], ["-V", "2"])
    wav = lambda name: os.path.join(out, name + ".wav")  # noqa: E731

    # 1. CPU while playing 30 s to PulseAudio (the run varies by about ±0.03 s: 0.1 pp).
    with SoundServer() as server:
        t, m = side_by_side([TPLAYER, "-q", "-o", "pulse", tone], ["mpg123", "-q", "-o", "pulse", tone], server.env)
        t_rss = max(peak_rss([TPLAYER, "-q", "-o", "pulse", tone], server.env) for _ in range(2))
        m_rss = max(peak_rss(["mpg123", "-q", "-o", "pulse", tone], server.env) for _ in range(2))
        # Speed at the song's pitch: the same 30 s at 1.5 (20 s heard), against mpv through the
        # same library (its af=rubberband; mpv's default, scaletempo2, is a WSOLA: cheaper, and
        # it smears transients).
        s, v = side_by_side([TPLAYER, "-q", "-o", "pulse", "--speed", "1.5", tone],
                            ["mpv", "--no-config", "--really-quiet", "--no-video", "--ao=pulse", "--speed=1.5", "--af=rubberband", tone],
                            server.env)
    t_file = max(peak_rss([TPLAYER, "-q", "--force", "-w", wav("t-tone"), tone]) for _ in range(2))
    m_file = max(peak_rss(["mpg123", "-q", "-w", wav("m-tone"), tone]) for _ in range(2))
    points = (t - m) / 30 * 100
    row("CPU playing 30 s to PulseAudio", f"{t:.3f} s", f"{m:.3f} s", f"{points:+.2f} pp of a core",
        "≤ mpg123 (± 0.1 pp)", points <= 0.1)
    row("CPU playing 30 s at --speed 1.5 to PulseAudio (librubberband R3; mpv --af=rubberband)", f"{s:.3f} s", f"{v:.3f} s",
        f"{s / v:.2f}× ({(s - t) / 20 * 100:.1f} % of a core over 1×)", "stated", True)
    # Playing live costs more than writing the same song to a file: libpulse's client, its
    # threads and its shared memory, which mpg123 pays as well (its own difference is the
    # control), and tplayer's decode-ahead (1 MiB + 128 KiB: 1.2 MB) with its thread.
    budget = (m_rss - m_file) + 1.2 + 1.0
    row("peak RSS playing 30 s to PulseAudio (to WAV)", f"{t_rss:.1f} MB ({t_file:.1f} MB)",
        f"{m_rss:.1f} MB ({m_file:.1f} MB)", f"+{t_rss - t_file:.1f} / +{m_rss - m_file:.1f} MB",
        "over WAV ≤ mpg123's + 1.2 MB ahead + 1 MB", t_rss - t_file <= budget)

    # 2. Start-up: a 1 s song to WAV, the whole process.
    t, m = side_by_side([TPLAYER, "-q", "--force", "-w", wav("t-one"), one], ["mpg123", "-q", "-w", wav("m-one"), one])
    row("start-up: 1 s song to WAV", f"{t * 1000:.1f} ms", f"{m * 1000:.1f} ms", f"{t / m:.2f}×", "≤ 3×", t / m <= 3)
    # What a run costs before it does anything: --version's peak RSS, most of it the static
    # binary's own resident pages (issue 56's part 4 measures its way down from here).
    t_version, m_version = peak_rss([TPLAYER, "--version"]), peak_rss(["mpg123", "--version"])
    row("peak RSS of --version (the binary and its runtime at start)", f"{t_version:.1f} MB", f"{m_version:.1f} MB",
        f"{t_version / m_version:.2f}×", "stated", True)

    # 3. The first far seek in a 60-minute VBR file (tplayer's own report of the seek's time).
    script = os.path.join(out, "seek.tps")
    with open(script, "w") as f:
        f.write(f"add {hour}\nplay\nwait 1s\nseek 54:00\nwait 0.2s\nquit\n")
    seeks = []
    for _ in range(RUNS):
        trace = subprocess.run([TPLAYER, "-o", "null", "--trace", "--script", script], stdin=subprocess.DEVNULL,
                               capture_output=True, text=True).stderr
        found = re.search(r"seeked to 54:00\.00 (?:\(sample \d+\) )?in (\d+) ms", trace)
        if not found:
            sys.exit("bench: the seek did not happen:\n" + trace)
        seeks.append(int(found.group(1)))
    seek = statistics.median(seeks)
    row("first seek to 54:00 in a 60-minute VBR MP3", f"{seek:.0f} ms", "—", "—", "≤ 20 ms", seek <= 20)

    # 4. Decoding 10 minutes to WAV.
    t, m = side_by_side([TPLAYER, "-q", "--force", "-w", wav("t-ten"), ten], ["mpg123", "-q", "-w", wav("m-ten"), ten])
    same = subprocess.run(["cmp", "-s", wav("t-ten"), wav("m-ten")]).returncode == 0
    row("decode 10 min to WAV (-w)" + ("" if same else " — BYTES DIFFER"), f"{t:.3f} s", f"{m:.3f} s", f"{t / m:.3f}",
        "≤ 1.05, same bytes", t / m <= 1.05 and same)

    # 4b. Decoding 10 minutes of Ogg Vorbis and of Opus to WAV, against the formats' reference
    # decoders writing a WAV: oggdec (both take ov_read's 16-bit words) and opusdec at 48 kHz
    # without dither (tplayer turns opusfile's dither off).
    vorbis = encoded("ten-minutes.ogg", 600, 44100, ["oggenc", "-Q", "-", "-o"])
    opus = encoded("ten-minutes.opus", 600, 48000, ["opusenc", "--quiet", "-"])
    for label, file, said, reference in (
            ("Ogg Vorbis", vorbis, "oggdec -o", lambda out: ["oggdec", "-Q", "-o", out, vorbis]),
            ("Opus", opus, "opusdec --rate 48000 --no-dither",
             lambda out: ["opusdec", "--quiet", "--rate", "48000", "--no-dither", opus, out])):
        ours, theirs = wav("t-" + label.split()[-1].lower()), wav("r-" + label.split()[-1].lower())
        t, r = side_by_side([TPLAYER, "-q", "--force", "-w", ours, file], reference(theirs))
        same = pcm(ours) == pcm(theirs)
        row(f"decode 10 min of {label} to WAV (-w) vs {said}" + ("" if same else " — SAMPLES DIFFER"), f"{t:.3f} s",
            f"{r:.3f} s", f"{t / r:.3f}", "≤ 1.05, same samples", t / r <= 1.05 and same)

    # 5. --check against mpg123 -t: decoding to nothing.
    t, m = side_by_side([TPLAYER, "--check", ten], ["mpg123", "-q", "-t", ten])
    row("decode 10 min to nothing (--check / -t)", f"{t:.3f} s", f"{m:.3f} s", f"{t / m:.3f}", "≤ 1.05", t / m <= 1.05)

    # 5b. FLAC, against the flac tool.
    flac_rows(wav)

    # 5c. AAC in MP4 through FFmpeg's libraries, against the ffmpeg command writing a WAV with one
    # decoding thread (the AAC decoder has no threads; ffmpeg 5.1 reads one input on its main
    # thread). tplayer stops at the edit list's end, ffmpeg 5.1 writes the encoder's padding too:
    # the same bytes up to there.
    m4a = aac("ten-minutes-aac", 600, ["pinknoise", "tremolo", "0.3", "60", "gain", "-12"])
    t, m = side_by_side([TPLAYER, "-q", "--force", "-w", wav("t-aac"), m4a],
                        ["ffmpeg", "-v", "quiet", "-threads", "1", "-y", "-i", m4a, wav("f-aac")])
    ours, theirs = pcm(wav("t-aac")), pcm(wav("f-aac"))
    same = len(ours) == 600 * 44100 * 4 and theirs.startswith(ours)
    row("decode 10 min AAC (.m4a) to WAV, vs ffmpeg -threads 1" + ("" if same else " — BYTES DIFFER"),
        f"{t:.3f} s", f"{m:.3f} s", f"{t / m:.3f}", "≤ 1.05, same bytes", t / m <= 1.05 and same)

    # 6. Peak RSS, 1 s to 60 minutes (the most of RUNS runs each).
    def most(command):
        return max(peak_rss(command) for _ in range(RUNS))
    t_small, m_small = most([TPLAYER, "-q", "--force", "-w", wav("t-one"), one]), most(["mpg123", "-q", "-w", wav("m-one"), one])
    t_big = most([TPLAYER, "-q", "--force", "-w", wav("t-hour"), hour])
    m_big = most(["mpg123", "-q", "-w", wav("m-hour"), hour])
    for path in (wav("t-hour"), wav("m-hour")):
        os.unlink(path)
    row("peak RSS, 1 s → 60 min song", f"{t_small:.1f} → {t_big:.1f} MB", f"{m_small:.1f} → {m_big:.1f} MB",
        f"{t_big / m_big:.1f}×", "≤ 16 MB, flat (± 1 MB)", t_big <= 16 and abs(t_big - t_small) <= 1)

    # 7. Heard latency of keys on a live device: the kept sink (a sound card's pace, 5 ms
    # rendered ahead), to the fade's start and to silence; then a bare null sink, in the song's time.
    heard = latency.measure(TPLAYER, RUNS)
    for key, label, median, most in (("pause-fade", "pause heard fading after", 10, 20), ("pause", "pause silent after", 20, 30),
                                      ("seek", "seek heard after", 30, 50), ("next", "next heard after", 30, 50)):
        row(f"{label} (median / max)", f"{heard[key][0]:.0f} / {heard[key][1]:.0f} ms", "—", "—",
            f"≤ {median} / {most} ms", heard[key][0] <= median and heard[key][1] <= most)
    # mpv, the control, corks its stream on both sinks: silent at once, with no fade.
    for key, label in (("mpv pause", "mpv: pause silent after"), ("mpv seek", "mpv: seek heard after")):
        row(f"{label} (median / max)", f"{heard[key][0]:.0f} / {heard[key][1]:.0f} ms", "—", "—", "stated (a cork: no fade)", True)
    # A bare null sink may take the 24 ms it renders ahead in one go, whenever it does: nothing
    # nearer is written over (what it rendered it has passed on), so its figures are stated.
    bare = latency.bare_pause(TPLAYER, RUNS)
    for key, label in (("bare pause-fade", "bare null sink: pause heard fading after"), ("bare pause", "bare null sink: pause silent after")):
        if bare[key]:
            row(f"{label} (median / max, song time)", f"{bare[key][0]:.0f} / {bare[key][1]:.0f} ms", "—", "—",
                "stated (its 24 ms rendered ahead, 2 ms, a 10 ms fade)", True)

    # 7a. Every second heard: a 10 s tone on a bare null sink recorded as a user records it,
    # mpg123 and mpv side by side.
    whole = live.heard(TPLAYER)
    row("bare null sink: seconds of a 10 s tone heard (median of 3)", f"{whole['tplayer']:.2f} s",
        f"mpg123 {whole['mpg123']:.2f} s, mpv {whole['mpv']:.2f} s", "—", "10.00 s, all of it",
        whole["tplayer"] >= 9.995)

    # 7b. Dropouts while 16 busy loops share the 2 cores, mpg123 and mpv the controls, on the
    # kept sink and on a bare one.
    for bare_sink in (False, True):
        drops = live.dropouts(TPLAYER, runs=6, bare=bare_sink)
        t, m, v = drops["tplayer"], drops["mpg123"], drops["mpv"]
        row(("bare null sink: " if bare_sink else "") + "runs with a dropout ≥ 1 ms, 6 × 20 s, 16 `yes` running",
            f"{t['runs']} of 6 (longest {t['longest']:.0f} ms)",
            f"mpg123 {m['runs']} of 6 ({m['longest']:.0f} ms), mpv {v['runs']} of 6 ({v['longest']:.0f} ms)", "—",
            "0", t["runs"] == 0)

    # 7c. A pause and a resume, heard sample for sample.
    same, gaps = live.pause_and_resume(TPLAYER)
    row("pause + resume (--no-fade): monitor, silence cut, = -w", "same" if same else "DIFFERS",
        "—", "—", "same, one silence", same and len(gaps) == 1)

    # 7d. A disk that stalls 2 s mid-song (a FUSE mount).
    stalled = live.stall(TPLAYER)
    if stalled is None:
        row("2 s stall of the input mid-song: silences heard", "FUSE cannot be mounted here", "—", "—", "0", False)
    else:
        def said(gaps):
            return f"{len(gaps)}" + (f" ({max(g[1] for g in gaps) / 44.1:.0f} ms)" if gaps else "")
        row("2 s stall of the input mid-song: silences heard", said(stalled["tplayer"]), said(stalled["mpg123"]), "—",
            "0", not stalled["tplayer"])

    # 8. A 100,000-entry playlist.
    sys.argv[1:2] = [TPLAYER]
    import playlist
    big = playlist.measure(RUNS)
    (ts, tr), (ms, mr) = big["tplayer"], big["mpg123"]
    row("100,000-entry M3U: first sample, peak RSS", f"{ts:.3f} s, {tr:.1f} MB", f"{ms:.3f} s, {mr:.1f} MB",
        f"{ts / ms:.2f}×, {tr / mr:.2f}×", f"≤ {playlist.TIME_TARGET}×, ≤ {playlist.RSS_TARGET}×",
        ts / ms <= playlist.TIME_TARGET and tr / mr <= playlist.RSS_TARGET)

    # 9. The list view with 100,000 entries: a key to its finished redraw.
    import listview
    keys, peak = listview.measure(TPLAYER)
    median, worst = statistics.median(keys), max(keys)
    row(f"list view, 100,000 entries: a key to its redraw ({len(keys)} keys: ↓ PgDn End Home, a search typed), peak RSS",
        f"median {median:.2f} ms, worst {worst:.1f} ms, {peak:.1f} MB", "—", "—", "median ≤ 16 ms, < 60 MB (cmus's)",
        median <= 16 and peak < 60)

    # 10. The library: a first scan and a rescan of 10,000 songs against MPD 0.23, and --find over 100,000.
    import library
    figures = library.measure(TPLAYER, RUNS)
    (t, m), (t_rss, m_rss) = figures["first"], figures["rss"]
    row(f"library: first scan of 10,000 songs, 5 formats (vs MPD: mpc update), peak RSS", f"{t:.2f} s, {t_rss:.1f} MB",
        f"{m:.2f} s, {m_rss:.1f} MB", f"{t / m:.2f}, {t_rss / m_rss:.2f}", "≤ 1.0, RSS < MPD's", t / m <= 1.0 and t_rss < m_rss)
    t, m = figures["again"]
    row("library: rescan of the unchanged 10,000 (vs MPD: mpc update)", f"{t:.3f} s", f"{m:.3f} s", f"{t / m:.2f}", "≤ 1.0",
        t / m <= 1.0)
    ours, theirs = figures["sizes"]
    row("library: database for 10,000 songs (tplayer: with its full-text index)", f"{ours / 1e6:.1f} MB", f"{theirs / 1e6:.2f} MB",
        f"{ours / theirs:.0f}×", "stated", True)
    median, worst, count = figures["find"]
    row(f"library: --find over 100,000 songs, start to exit ({count} runs of 5 queries)",
        f"median {median * 1000:.1f} ms, worst {worst * 1000:.1f} ms", "—", "—", "median ≤ 50 ms", median <= 0.05)

    # 10a. A million files (hard links to the 100,000): first scan and rescan, against MPD 0.23.
    import million
    figures = million.measure(TPLAYER)
    ours, theirs = figures["tplayer"], figures["mpd"]
    for step, name in (("first", "first scan"), ("again", "rescan of them unchanged")):
        t, m = ours[step], theirs[step]
        row(f"library of 1,000,000 files: {name} (vs MPD: mpc update), CPU, wall, peak RSS",
            f"{t['cpu']:.1f} s CPU, {t['wall']:.1f} s, {t['rss']:.1f} MB", f"{m['cpu']:.1f} s CPU, {m['wall']:.1f} s, {m['rss']:.1f} MB",
            f"{t['cpu'] / m['cpu']:.2f}, {t['rss'] / m['rss']:.2f}", "CPU ≤ MPD's, peak RSS ≤ 64 MB", t["cpu"] <= m["cpu"] and t["rss"] <= 64)
    every, thousand = ours["find-all"], ours["find-1000"]
    row("library of 1,000,000 files: --find of them all (to a pipe) against --find of 1,000, wall, peak RSS",
        f"{every['wall']:.2f} s, {every['rss']:.1f} MB", f"{thousand['wall']:.2f} s, {thousand['rss']:.1f} MB",
        f"RSS {every['rss'] / thousand['rss']:.2f}×", "peak RSS ≤ 1.1× (the answer streamed)", every["rss"] <= 1.1 * thousand["rss"])

    # 10b. The library view at 100,000 songs: opening it, and a key to its redraw.
    import libraryview
    opened, keys, pasted, answered = libraryview.measure(TPLAYER, runs=3)
    row(f"library view, 100,000 songs: opening it; a key to its redraw ({len(keys)} keys: ↓ PgDn End Home Enter, a filter typed)",
        f"open {max(opened):.1f} ms; median {statistics.median(keys):.2f} ms, worst {max(keys):.1f} ms", "—", "—",
        "open ≤ 50 ms; median ≤ 16 ms, worst ≤ 100 ms",
        max(opened) <= 50 and statistics.median(keys) <= 16 and max(keys) <= 100)
    row("library view, 100,000 songs: a filter pasted in one go to its counted frame (32 one-letter terms, the costliest query; "
        "17 KB), and the key after it", f"worst {max(pasted):.1f} ms", "—", "—", "stated: counted off the main loop (17 KB froze the keys for 63 s)", True)
    row("library view, 100,000 songs: a filter's key answered while its count runs off the main loop", 
        f"median {statistics.median(answered):.2f} ms, worst {max(answered):.1f} ms", "—", "—", "worst ≤ 16 ms", max(answered) <= 16)

    # 10c. MPD's protocol: tplayer --mpd against MPD 0.23 serving the same songs.
    import mpdserver
    figures = mpdserver.measure(TPLAYER, RUNS)
    t, m, t_lines, m_lines = figures["listallinfo"]
    row(f"MPD protocol: listallinfo of 10,000 songs ({t_lines:,} lines; MPD {m_lines:,})", f"{t * 1000:.1f} ms", f"{m * 1000:.1f} ms",
        f"{t / m:.2f}", "≤ 1.0", t / m <= 1.0)
    t, m, t_worst, m_worst, count = figures["search"]
    row(f"MPD protocol: find and search over 100,000 songs ({count} queries; the worst is the first, waiting for the catalog's "
        "read at start)", f"median {t * 1000:.1f} ms, worst {t_worst * 1000:.0f} ms", f"median {m * 1000:.1f} ms, worst {m_worst * 1000:.0f} ms",
        f"{t / m:.2f}", "median ≤ 1.0 (no slower than MPD)", t / m <= 1.0)
    ratios = {query: ours / theirs for query, (ours, theirs) in figures["queries"].items()}
    row("MPD protocol: each find and search query over 100,000 songs, its median against MPD's: "
        + "; ".join(f"{query} {ratio:.2f}" for query, ratio in ratios.items()), f"worst {max(ratios.values()):.2f}", "1.0",
        f"{max(ratios.values()):.2f}", "each ≤ 1.0", max(ratios.values()) <= 1.0)
    t_rss, m_rss = figures["rss"]
    row("MPD protocol: the serving process's peak RSS (10,000 songs, after listallinfo)", f"{t_rss:.1f} MB", f"{m_rss:.1f} MB",
        f"{t_rss / m_rss:.2f}", "< MPD's", t_rss < m_rss)
    for size, label in (("100k", "100,000"), ("1m", "1,000,000")):
        ours, theirs = figures[size]["tplayer"], figures[size]["mpd"]
        row(f"MPD protocol, {label} songs: the serving process's peak RSS (after a first count, list album group albumartist, "
            f"find artist and, tplayer only, a listallinfo of all, {ours['listallinfo'][1]:,} lines in {ours['listallinfo'][0]:.1f} s)",
            f"{ours['rss']:.1f} MB", f"{theirs['rss']:.1f} MB", f"{ours['rss'] / theirs['rss']:.2f}", "≤ MPD's", ours["rss"] <= theirs["rss"])
        row(f"MPD protocol, {label} songs: from the server's start to its first count answered (the library read)",
            f"{ours['ready']:.2f} s", f"{theirs['ready']:.2f} s", f"{ours['ready'] / theirs['ready']:.2f}", "≤ MPD's",
            ours["ready"] <= theirs["ready"])
        for query in ("list album group albumartist", 'find artist "Artist 420"'):
            row(f"MPD protocol, {label} songs: {query} (median)", f"{ours[query] * 1000:.1f} ms", f"{theirs[query] * 1000:.1f} ms",
                f"{ours[query] / theirs[query]:.2f}", "≤ 1.0", ours[query] <= theirs[query])
    (t_median, t_worst), (m_median, m_worst) = figures["idle"]["tplayer"], figures["idle"]["mpd"]
    row("MPD protocol: idle woken by another client's change (20 times)", f"median {t_median * 1000:.2f} ms, worst {t_worst * 1000:.2f} ms",
        f"median {m_median * 1000:.2f} ms, worst {m_worst * 1000:.2f} ms", "—", "worst ≤ 10 ms", t_worst <= 0.010)
    t, m = figures["polling"]
    row("MPD protocol: 10 clients asking status 10 times a second, the server's CPU", f"{t * 100:.1f} % of a core",
        f"{m * 100:.1f} % of a core", "—", "≤ 1 % of a core", t <= 0.01)
    import mpdkeys
    keys = mpdkeys.measure(TPLAYER)
    loaded, quiet = keys["loaded"], keys["quiet"]
    row(f"MPD protocol: Space to its status line in a terminal while 110 clients are served (100 in idle, 10 polling: "
        f"{keys['served'][0]:,} replies, {keys['served'][1]:,} wakes); without them",
        f"median {statistics.median(loaded):.2f} ms, worst {max(loaded):.2f} ms",
        f"median {statistics.median(quiet):.2f} ms, worst {max(quiet):.2f} ms", "—", "median ≤ 16 ms, worst ≤ 50 ms",
        statistics.median(loaded) <= 16 and max(loaded) <= 50)

    # 11. Internet radio on a local Icecast 2 server (ffmpeg its source): the first sound on the
    # monitor, and 20 s of playing, against mpg123 (mpv's figures in the row for reference).
    import radio
    figures = radio.measure(TPLAYER, RUNS)
    (t_first, t_cpu, t_rss), (m_first, m_cpu, m_rss), (v_first, v_cpu, v_rss) = (figures[n] for n in ("tplayer", "mpg123", "mpv"))
    row("radio (local Icecast): start to the first sound on the monitor", f"{t_first * 1000:.0f} ms",
        f"{m_first * 1000:.0f} ms (mpv {v_first * 1000:.0f} ms)", f"{t_first / m_first:.2f}×", "≤ mpg123's + 50 ms",
        t_first <= m_first + 0.05)
    points = (t_cpu - m_cpu) / 20 * 100
    row("radio (local Icecast): CPU playing 20 s, peak RSS", f"{t_cpu:.3f} s, {t_rss:.1f} MB",
        f"{m_cpu:.3f} s, {m_rss:.1f} MB (mpv {v_cpu:.3f} s, {v_rss:.1f} MB)", f"{points:+.2f} pp of a core",
        "CPU ≤ mpg123 (± 0.1 pp); RSS stated", points <= 0.1)

    # 11b. A stream's server that accepts and never answers: -R's answers meanwhile, against mpg123.
    import deadserver
    dead = deadserver.measure(TPLAYER, RUNS)
    worst = max(w for _, w in dead["tplayer"].values())
    theirs = max(w for _, w in dead["mpg123"].values())
    row("a stream's server that never answers: -R's VOLUME, STATE, a new LOAD and QUIT answered meanwhile (worst of them)",
        f"{worst:.1f} ms", f"{theirs:.0f} ms{' (its limit: no answer)' if theirs >= deadserver.LIMIT * 1000 else ''}",
        f"{worst / theirs:.4f}", "each ≤ 100 ms", worst <= 100)

    # 11c. Snapcast: tplayer's output into snapserver's pipe against MPD's fifo output, one room
    # recording each; the CPU playing, and a pause to silence in the room and to the stream idle.
    import snapcast
    figures = snapcast.measure(TPLAYER, max(RUNS // 2, 2))
    t, m = figures["cpu"]["tplayer"], figures["cpu"]["mpd"]
    row(f"Snapcast: CPU playing {snapcast.WINDOW:.0f} s into snapserver (a 44.1 kHz FLAC to its 48000:16:2), against MPD's fifo output",
        f"{t:.3f} s", f"{m:.3f} s", f"{t / m:.2f}", "≤ MPD's", t <= m)
    (tm, tw), (mm, mw) = figures["silent"]["tplayer"], figures["silent"]["mpd"]
    row("Snapcast: pause over MPD's protocol to silence in the room (snapserver's 1000 ms buffer included)",
        f"median {tm * 1000:.0f} ms, worst {tw * 1000:.0f} ms", f"median {mm * 1000:.0f} ms, worst {mw * 1000:.0f} ms",
        f"{tm / mm:.2f}", "stated: tplayer writes 0.2 s ahead (no dropout on a busy machine)", True)
    (tm, tw), (mm, mw) = figures["idle"]["tplayer"], figures["idle"]["mpd"]
    row("Snapcast: pause to snapserver's stream idle", f"median {tm * 1000:.0f} ms, worst {tw * 1000:.0f} ms",
        f"median {mm * 1000:.0f} ms, worst {mw * 1000:.0f} ms", f"{tm / mm:.2f}", "≤ 3 s", tw <= 3)

    # 11d. Icecast: tplayer broadcasting against MPD's shout output, the same noise encoded as
    # Vorbis and as MP3, a listener checking the stream comes in real time; the CPU.
    import icecast
    for fmt, players in icecast.measure(TPLAYER, max(RUNS // 2, 2)).items():
        (t, tk), (m, mk) = players["tplayer"], players["mpd"]
        row(f"Icecast: CPU broadcasting {icecast.WINDOW:.0f} s of {fmt} ({icecast.FORMATS[fmt][1]} kbit/s) to icecast2, against MPD's shout output",
            f"{t:.3f} s ({tk:.0f} kbit/s sent)", f"{m:.3f} s ({mk:.0f} kbit/s)", f"{t / m:.2f}", "≤ MPD's", t <= m)

    # 11e. Crossfade: tplayer's against MPD's, the same two songs to a null output in real time,
    # over a window holding the whole fade; tplayer's without the fade beside it.
    import crossfade
    faded, plain, mpd = crossfade.measure(TPLAYER, max(RUNS // 2, 2))
    row(f"Crossfade: CPU over {crossfade.WINDOW:.0f} s holding a {crossfade.SECONDS} s fade between two songs, against MPD's crossfade",
        f"{faded:.3f} s ({plain:.3f} s without the fade)", f"{mpd:.3f} s", f"{faded / mpd:.2f}", "≤ MPD's", faded <= mpd)

    # 12. The now-playing view: its CPU while playing (the view; the view and a spectrum) against
    # the status line alone and mpg123, and Space's latency with it all open.
    import nowplaying
    medians, latencies = nowplaying.measure(TPLAYER, RUNS)
    window = nowplaying.WINDOW
    cost = (medians["spectrum"] - medians["status"]) / window * 100
    row("now-playing view: CPU playing 20 s with it open (cover, lyrics), and with a spectrum of 32 bars",
        f"{medians['view']:.3f} s, {medians['spectrum']:.3f} s (status line alone {medians['status']:.3f} s)",
        f"{medians['mpg123']:.3f} s", f"{cost:+.2f} pp of a core", f"spectrum ≤ +{nowplaying.SPECTRUM_TARGET:.0f} pp of a core",
        cost <= nowplaying.SPECTRUM_TARGET)
    row(f"now-playing view with the spectrum: Space to its redraw ({len(latencies)} keys)",
        f"median {statistics.median(latencies):.2f} ms, worst {max(latencies):.1f} ms", "—", "—", "median ≤ 16 ms",
        statistics.median(latencies) <= 16)

    table = ["| measure | tplayer | mpg123 (MPD for the library) | ratio | target | result |", "|---|---|---|---|---|---|"]
    table += ["| " + " | ".join(r) + " |" for r in rows]
    text = "\n".join(table) + "\n"
    sys.stdout.write(text)
    with open(os.path.join(out, "table.md"), "w") as f:
        f.write(text)
    return 0 if all(r[5] == "pass" for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
