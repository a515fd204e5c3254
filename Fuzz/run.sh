#!/usr/bin/env bash
# `make fuzz`: builds each libFuzzer target (with AddressSanitizer) into .build-fuzz, fuzzes it for
# SECONDS from the saved cases in Fuzz/Corpus/<target>/ (the seeds and the inputs that found
# defects), then replays every saved case once more. Exits 1 on any finding, naming the input
# that found it (keep it as Fuzz/Corpus/<target>/regress-<what-it-found> once it is fixed), and
# on a target that is blind: no coverage counters, or neither coverage nor corpus grown from
# the seeds, which proves nothing.
#   bash Fuzz/run.sh SECONDS TARGET...
set -uo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}; shift
targets=("$@")
scratch=.build-fuzz
export SWIFT_BACKTRACE=enable=no   # the backtracer can hang for minutes on a sanitizer abort
# swiftc's -sanitize=fuzzer instruments only the target that links libFuzzer: the library code
# it calls (the parsers, the conversions) must be told to count its edges too.
coverage=edge,inline-8bit-counters,pc-table,trace-cmp
status=0
summary=()
for target in "${targets[@]}"; do
    echo "== $target: building"
    mkdir -p "$scratch"
    flags=(--sanitize=fuzzer --sanitize=address --disable-dead-strip -Xswiftc "-sanitize-coverage=$coverage"
           --product "$target" --scratch-path "$scratch")
    if ! TPLAYER_FUZZ=1 swift build "${flags[@]}" > "$scratch/$target.build.log" 2>&1; then
        cat "$scratch/$target.build.log" >&2
        echo "$target: build failed" >&2; status=1; continue
    fi
    binary=$(TPLAYER_FUZZ=1 swift build "${flags[@]}" --show-bin-path 2>/dev/null)/$target
    work=$scratch/corpus/$target findings=$scratch/findings/$target log=$scratch/$target.fuzz.log
    rm -rf "$work" "$findings"
    mkdir -p "$work" "$findings"
    echo "== $target: fuzzing for $seconds s (the whole log: $log)"
    "$binary" -max_total_time="$seconds" -timeout=10 -max_len=16384 -print_final_stats=1 \
        -artifact_prefix="$findings/" "$work" "Fuzz/Corpus/$target" > "$log" 2>&1
    # Everything but the line printed for each new input: warnings and errors are never hidden.
    grep -Ev '^#[0-9]+[[:space:]]+(NEW|REDUCE|pulse)|^[[:space:]]+NEW_FUNC' "$log"
    counters=$(grep -Eo 'Loaded [0-9]+ modules +\([0-9]+ inline 8-bit counters\)' "$log" | head -1)
    first=$(grep -E '^#[0-9]+[[:space:]]+INITED' "$log" | grep -Eo 'cov: [0-9]+' | grep -Eo '[0-9]+' | head -1)
    last=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | grep -Eo 'cov: [0-9]+' | grep -Eo '[0-9]+' | tail -1)
    seeds=$(ls "Fuzz/Corpus/$target" | wc -l)
    grown=$(ls "$work" | wc -l)
    execs=$(grep -Eo 'stat::number_of_executed_units: [0-9]+' "$log" | grep -Eo '[0-9]+$')
    line="$target: cov ${first:-?} -> ${last:-?}, corpus $seeds seeds + $grown new, ${execs:-?} executions"
    summary+=("$line")
    if [ -z "$counters" ] || grep -q 'no interesting inputs were found' "$log"; then
        echo "$target: BLIND: the code it calls is not instrumented for coverage" >&2; status=1
    elif [ -z "$first" ] || [ -z "$last" ] || { [ "$last" -le "$first" ] && [ "$grown" -eq 0 ]; }; then
        echo "$target: neither coverage nor the corpus grew from the seeds: $line" >&2; status=1
    fi
    if [ -n "$(ls -A "$findings")" ]; then
        echo "$target: FINDING; the inputs are in $findings/" >&2; status=1
    fi
    echo "== $target: replaying the saved cases"
    if ! "$binary" Fuzz/Corpus/"$target"/* > "$scratch/$target.replay.log" 2>&1; then
        echo "$target: a saved case fails; see $scratch/$target.replay.log" >&2; status=1
    fi
done
echo
printf '%s\n' "${summary[@]}"
[ $status -eq 0 ] && echo "fuzz: no findings, every target gained coverage (${seconds} s per target)"
exit $status
