#!/usr/bin/env bash
# Makes the demo songs in this folder: synthesized with sox, encoded with lame (with a LAME tag,
# so gapless playback removes encoder delay and padding), tagged with ID3.
# Run from anywhere: bash Resources/make-demo-songs.sh
set -euo pipefail
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# song NAME SECONDS_PER_NOTE VOICE "NOTES..." -- one note after another, then a soft reverb.
song() {
    local name=$1 len=$2 voice=$3 notes=$4 i=0 parts=()
    for note in $notes; do
        sox -q -n -r 44100 -c 2 -b 16 "$tmp/$name-$i.wav" synth "$len" "$voice" "$note" \
            fade q 0.01 "$len" 0.08 gain -8
        parts+=("$tmp/$name-$i.wav")
        i=$((i + 1))
    done
    sox -q "${parts[@]}" "$tmp/$name.wav" reverb 40 50 60 gain -n -3
}

song morning 0.25 pluck "C4 E4 G4 C5 G4 E4 C4 E4 F4 A4 C5 F5 C5 A4 F4 A4 G4 B4 D5 G5 D5 B4 G4 B4 C4 E4 G4 C5 E5 C5 G4 E4 C4 E4 G4 C5"
song night 0.5 sine "A3 C4 E4 A4 G3 B3 D4 G4 F3 A3 C4 F4 E3 G#3 B3 E4 A3 C4 E4 A4"
song waltz 0.3 triangle "D4 F#4 A4 D4 F#4 A4 G4 B4 D5 G4 B4 D5 A4 C#5 E5 A4 C#5 E5 D4 F#4 A4 D5 A4 F#4 D4 F#4 A4 D4 F#4 A4 G4 B4 D5 A4 C#5 E5"

lame --quiet -b 128 --tt "Morning Arpeggio" --ta "tplayer demo band" --tl "tplayer demos" --tn 1 --ty 2026 \
    "$tmp/morning.wav" 01-morning-arpeggio.mp3
lame --quiet -V 4 --tt "Night Drive" --ta "tplayer demo band" --tl "tplayer demos" --tn 2 --ty 2026 \
    "$tmp/night.wav" 02-night-drive.mp3
lame --quiet -b 160 --tt "Tiny Waltz" --ta "tplayer demo band" --tl "tplayer demos" --tn 3 --ty 2026 \
    "$tmp/waltz.wav" 03-tiny-waltz.mp3
