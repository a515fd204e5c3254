#!/usr/bin/env python3
"""`make start-order`: the order the release link lays out the code and zeroed data a start touches.

A start of tplayer pays a page fault for each page of its binary it touches. The functions a start
runs are spread over 20 MB of code, and the caches and once-tokens it writes over 850 KB of
zeroed data (.bss), so a `-w` run of a 1 s song took about 120 faults in code and 80 in .bss.
lld's `--symbol-ordering-file` puts the symbols it is given first, in that order, so the start's
code and data lie together: 60 and 40 faults (bench/README.md).

The symbols are found by running the release binary under valgrind's lackey, which prints every
instruction's and every load's and store's address, for a few usual starts: a song to WAV, a
playlist to WAV, a FLAC song checked, and `--version`. Each address is named by the binary's
symbol table; the list is the code in the order first run, then the .bss symbols in the order
first touched (the play thread runs beside the main one, so that order differs a little from one
making to the next). A symbol the binary no longer has is passed over by the link, so a list
from an older build only orders less.

Usage: start_order.py TPLAYER OUTPUT
"""
import bisect, os, subprocess, sys, tempfile


def sine(path, seconds):
    """A WAV of `seconds` of a sine at `path`, made by sox."""
    subprocess.run(["sox", "-q", "-n", "-r", "44100", "-c", "2", "-b", "16", path, "synth", str(seconds), "sine", "440",
                    "gain", "-6"], check=True)
    return path


def symbols(binary):
    """The binary's symbols with an address, sorted: (address, kind letter, name)."""
    listing = subprocess.run(["nm", "-n", "--defined-only", binary], capture_output=True, text=True, check=True).stdout
    found = []
    for line in listing.splitlines():
        parts = line.split(None, 2)
        if len(parts) == 3:
            found.append((int(parts[0], 16), parts[1], parts[2]))
    return found


def trace(binary, arguments, table, starts, code, data):
    """Runs `binary arguments` under lackey; appends the code symbols it runs and the .bss
    symbols it touches to `code` and `data` (dicts kept in first-touch order)."""
    addresses = [entry[0] for entry in table]
    entry = next(address for address, _, name in table if name == "_start")
    read, write = os.pipe()
    run = subprocess.Popen(["valgrind", "--tool=lackey", "--trace-mem=yes", f"--log-fd={write}", binary] + arguments,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, pass_fds=(write,))
    os.close(write)
    base = None
    seen = set()
    with os.fdopen(read, "r", errors="replace") as log:
        for line in log:
            kind = line[:2]
            if kind not in ("I ", " L", " S", " M"):
                continue
            address = int(line[3:].split(",", 1)[0], 16)
            if base is None:
                # The first instruction run in the binary (below valgrind's ld.so and libraries,
                # mapped from 0x4000000) is its entry point, _start: that gives where it was put.
                if kind == "I " and address < 0x4000000:
                    base = address - entry
                    assert base % 4096 == 0, f"{binary}: no page-aligned base from {address:#x}"
                else:
                    continue
            offset = address - base
            granule = (kind == "I ", offset >> 3)
            if granule in seen:
                continue
            seen.add(granule)
            index = bisect.bisect_right(addresses, offset) - 1
            if index < 0:
                continue
            _, letter, name = table[index]
            if kind == "I " and letter in "tTwW":
                code.setdefault(name, None)
            elif kind != "I " and letter in "bB":
                data.setdefault(name, None)
    if run.wait() != 0:
        sys.exit(f"start_order.py: {binary} {' '.join(arguments)} ended with status {run.returncode} under valgrind")
    assert base is not None, f"{binary}: lackey saw no instruction of the binary"
    starts.append(" ".join(os.path.basename(argument) for argument in arguments))


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    binary, output = os.path.abspath(sys.argv[1]), sys.argv[2]
    table = symbols(binary)
    code, data, starts = {}, {}, []
    with tempfile.TemporaryDirectory() as folder:
        one, three = os.path.join(folder, "one.mp3"), os.path.join(folder, "three.flac")
        subprocess.run(["lame", "--quiet", "-b", "128", sine(os.path.join(folder, "one.wav"), 1), one], check=True)
        subprocess.run(["flac", "-s", "-f", "-o", three, sine(os.path.join(folder, "three.wav"), 3)], check=True)
        playlist = os.path.join(folder, "list.m3u")
        with open(playlist, "w") as f:
            f.write("\n".join([one, three, one]) + "\n")
        wav = os.path.join(folder, "out.wav")
        for arguments in (["-q", "--force", "-w", wav, one], ["-q", "--force", "-w", wav, playlist],
                          ["--check", three], ["--version"]):
            trace(binary, arguments, table, starts, code, data)
    if "tplayer_main" not in code:
        sys.exit(f"start_order.py: tplayer_main was not seen running in {binary}")
    with open(output + ".part", "w") as f:
        f.write("\n".join(list(code) + list(data)) + "\n")
    os.replace(output + ".part", output)
    print(f"{output}: {len(code)} functions and {len(data)} .bss symbols, from: " + "; ".join(starts), file=sys.stderr)


if __name__ == "__main__":
    main()
