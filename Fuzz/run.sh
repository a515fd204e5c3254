#!/usr/bin/env bash
# `make fuzz`: builds each libFuzzer target (with AddressSanitizer) into .build-fuzz, fuzzes it for
# SECONDS from the saved cases in Fuzz/Corpus/<target>/ (the seeds and the inputs that found
# defects), then replays every saved case once more. Exits 1 on any finding, naming the input
# that found it: keep it as Fuzz/Corpus/<target>/regress-<what-it-found> once it is fixed.
#   bash Fuzz/run.sh SECONDS TARGET...
set -uo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}; shift
targets=("$@")
scratch=.build-fuzz
export SWIFT_BACKTRACE=enable=no   # the backtracer can hang for minutes on a sanitizer abort
status=0
for target in "${targets[@]}"; do
    echo "== $target: building"
    mkdir -p "$scratch"
    # --disable-dead-strip keeps the coverage counters the linker would otherwise drop (libFuzzer
    # then runs blind); ld.gold's "Cannot export local symbol" warnings are noise.
    flags=(--sanitize=fuzzer --sanitize=address --disable-dead-strip --product "$target" --scratch-path "$scratch")
    if ! TPLAYER_FUZZ=1 swift build "${flags[@]}" > "$scratch/$target.build.log" 2>&1; then
        grep -v "Cannot export local symbol" "$scratch/$target.build.log" >&2
        echo "$target: build failed" >&2; status=1; continue
    fi
    binary=$(TPLAYER_FUZZ=1 swift build "${flags[@]}" --show-bin-path 2>/dev/null)/$target
    work=$scratch/corpus/$target findings=$scratch/findings/$target
    mkdir -p "$work" "$findings"
    echo "== $target: fuzzing for $seconds s"
    "$binary" -max_total_time="$seconds" -timeout=10 -max_len=16384 -print_final_stats=1 \
        -artifact_prefix="$findings/" "$work" "Fuzz/Corpus/$target" 2>&1 | grep -E "^(#[0-9]+ +DONE|stat::|==[0-9]+==|SUMMARY|.*promise broken|.*Fatal error|artifact_prefix|Test unit written)"
    if [ -n "$(ls -A "$findings")" ]; then
        echo "$target: FINDING; the inputs are in $findings/" >&2; status=1
    fi
    echo "== $target: replaying the saved cases"
    if ! "$binary" Fuzz/Corpus/"$target"/* > "$scratch/$target.replay.log" 2>&1; then
        echo "$target: a saved case fails; see $scratch/$target.replay.log" >&2; status=1
    fi
done
[ $status -eq 0 ] && echo "fuzz: no findings (${seconds} s per target)"
exit $status
