#!/usr/bin/env bash
# Decoding speed and memory of `tplayer -q -w` against the reference `mpg123 -q -w`, side by
# side in one run, on a generated 10-minute stereo 192 kbps MP3.
# Reports the wall-time ratio (median of 9 runs each, interleaved: single runs on a busy
# machine vary by 20%) and each one's peak RSS.
# Targets: ratio <= 1.10, tplayer peak RSS <= 16 MB.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-.build/release/tplayer}
out=bench/out
mkdir -p "$out"
song=$out/ten-minutes-192k.mp3
runs=9

if [ ! -s "$song" ]; then
    echo "making $song (10 min, stereo, 192 kbps)..."
    # A chord that slowly changes, so the encoder has real work: not silence, not one tone.
    sox -q -n -r 44100 -c 2 -b 16 "$out/ten-minutes.wav" \
        synth 600 sine 220-440 sine 330-660 sine 440-880 tremolo 3 40 gain -6
    lame --quiet -b 192 "$out/ten-minutes.wav" "$song"
    rm -f "$out/ten-minutes.wav"
fi

# measure NAME COMMAND... : prints "seconds peak_kb" for one run, writing to $out/NAME.wav.
measure() {
    local name=$1; shift
    rm -f "$out/$name.wav"
    /usr/bin/time -f "%e %M" -o "$out/$name.time" "$@" "$out/$name.wav" "$song" </dev/null
    cat "$out/$name.time"
}

median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

: > "$out/tplayer.runs"; : > "$out/mpg123.runs"
for i in $(seq "$runs"); do
    measure mpg123 mpg123 -q -w >> "$out/mpg123.runs"
    measure tplayer "$bin" -q -w >> "$out/tplayer.runs"
done

if ! cmp -s <(tail -c +45 "$out/mpg123.wav") <(tail -c +69 "$out/tplayer.wav"); then
    echo "warning: tplayer's PCM differs from mpg123's" >&2
fi

t_time=$(cut -d' ' -f1 "$out/tplayer.runs" | median)
m_time=$(cut -d' ' -f1 "$out/mpg123.runs" | median)
t_rss=$(cut -d' ' -f2 "$out/tplayer.runs" | sort -g | tail -1)
m_rss=$(cut -d' ' -f2 "$out/mpg123.runs" | sort -g | tail -1)
awk -v tt="$t_time" -v mt="$m_time" -v tr="$t_rss" -v mr="$m_rss" -v n="$runs" 'BEGIN {
    ratio = mt > 0 ? tt / mt : 0
    printf "decode 10 min 192 kbps to WAV, median of %d runs each\n", n
    printf "  mpg123 -q -w : %6.3f s  peak RSS %6.1f MB\n", mt, mr / 1024
    printf "  tplayer -q -w: %6.3f s  peak RSS %6.1f MB\n", tt, tr / 1024
    printf "  wall-time ratio tplayer/mpg123: %.3f (target <= 1.10): %s\n", ratio, ratio <= 1.10 ? "met" : "MISSED"
    printf "  tplayer peak RSS %.1f MB (target <= 16 MB): %s\n", tr / 1024, tr <= 16384 ? "met" : "MISSED"
}'
