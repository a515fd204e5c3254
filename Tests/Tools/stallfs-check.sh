#!/bin/bash
# Check of Tests/Tools/stallfs.py: mount, compare, time reads around the stall, unmount.
set -u
STALLFS=${STALLFS:-$(dirname "$0")/stallfs.py}
STALL=${STALL:-3}
work=$(mktemp -d /tmp/stallfs-check.XXXXXX)
mnt=$work/mnt; mkdir "$mnt"
src=$work/'song é.mp3'                       # a name with a space and a non-ASCII byte
head -c $((4 * 1024 * 1024)) /dev/urandom > "$src"
at=$((3 * 1024 * 1024 + 12345))               # stall offset, not on a request boundary
log=$work/stall.log
fail() { echo "FAIL: $*"; kill "$pid" 2>/dev/null; exit 1; }
now() { date +%s.%N; }

start() {  # start stallfs in the background and wait for "ready"
    rm -f "$log"
    coproc FS { exec python3 "$STALLFS" "$mnt" "$src" --stall-at $at --stall-seconds "$STALL" --stall-log "$log" "$@"; }
    pid=$FS_PID
    read -r -t 10 line <&"${FS[0]}" && [ "$line" = ready ] || fail "no ready (got '$line')"
}
stop() {
    kill -TERM "$pid"; wait "$pid"; rc=$?
    [ $rc -eq 0 ] || fail "exit status $rc after SIGTERM"
    grep -q stallfs /proc/mounts && fail "mount left behind"
    echo "   SIGTERM -> exit $rc, grep stallfs /proc/mounts: none"
}

echo "== 1. cmp the whole file (stall ${STALL}s expected)"
start
ls -la "$mnt"; grep stallfs /proc/mounts
t0=$(now); cmp "$src" "$mnt/song é.mp3" || fail "cmp differs"; t1=$(now)
echo "   cmp identical in $(echo "$t1 - $t0" | bc) s"; cat "$log"
ls "$mnt/nonexistent" 2>&1 | sed 's/^/   /'
stop

echo "== 2. dd before the offset (fast), then across it (stalls), then across it again (fast)"
start
t0=$(now); dd if="$mnt/song é.mp3" of=/dev/null bs=64k count=48 status=none; t1=$(now)
echo "   dd 0..3 MiB (before offset $at): $(echo "$t1 - $t0" | bc) s"
t0=$(now); dd if="$mnt/song é.mp3" of=/dev/null bs=64k skip=47 count=2 status=none; t1=$(now)
echo "   dd 2.94..3.06 MiB (across offset): $(echo "$t1 - $t0" | bc) s"
t0=$(now); dd if="$mnt/song é.mp3" of=/dev/null bs=64k skip=47 count=2 status=none; t1=$(now)
echo "   dd across offset again (once per mount): $(echo "$t1 - $t0" | bc) s"
t0=$(now); dd if="$mnt/song é.mp3" of=/dev/null bs=128 skip=$(( (4*1024*1024 - 128) / 128 )) status=none; t1=$(now)
echo "   dd of the last 128 bytes: $(echo "$t1 - $t0" | bc) s"
cat "$log"
stop

echo "== 3. --stall-per-open: a second reader's stall does not use up the first one's; other requests go on during a stall"
start --stall-per-open
# A small read wholly past the offset (like mpg123's ID3v1 check) must not stall.
t0=$(now); tail -c 128 "$mnt/song é.mp3" > /dev/null; t1=$(now)
echo "   tail -c 128 (past the offset): $(echo "$t1 - $t0" | bc) s"
t0=$(now)
cmp "$src" "$mnt/song é.mp3" & a=$!
sleep 0.5
t2=$(now); stat "$mnt/song é.mp3" >/dev/null; ls "$mnt" >/dev/null
dd if="$mnt/song é.mp3" of=/dev/null bs=64k count=16 status=none; t3=$(now)
echo "   during the stall: stat+ls+1 MiB read took $(echo "$t3 - $t2" | bc) s"
cmp "$src" "$mnt/song é.mp3" & b=$!
wait $a || fail "cmp a"; wait $b || fail "cmp b"; t1=$(now)
echo "   two cmps, each stalled: $(echo "$t1 - $t0" | bc) s in all"
cat "$log"
stop

echo "== 4. errors: mountpoint already mounted"
start
python3 "$STALLFS" "$mnt" "$src" --stall-at 1 --stall-seconds 1; echo "   second instance exit $?"
stop
rm -rf "$work"
echo "ALL OK"
