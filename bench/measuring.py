"""What every benchmark measures a run by: its CPU seconds, and its peak RSS."""
import os, sys
from spawning import spawn

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "out")


def cpu(command, env=None):
    """CPU seconds (user + system) of one run of `command`, from the kernel (`wait4`); it must succeed."""
    _, status, usage = os.wait4(spawn(command, env), 0)
    if status != 0:
        sys.exit(f"bench: {' '.join(command)} failed ({status})")
    return usage.ru_utime + usage.ru_stime


def peak_rss(command, env=None):
    """Peak RSS (MB) of `command`, measured by GNU time: a child of this Python process starts
    with this process's memory counted in its peak (the kernel keeps the high-water mark across
    exec), a grandchild of the small `time` does not."""
    os.makedirs(out, exist_ok=True)
    report = os.path.join(out, "time.txt")
    _, status, _ = os.wait4(spawn(["/usr/bin/time", "-f", "%M", "-o", report] + command, env), 0)
    if status != 0:
        sys.exit(f"bench: {' '.join(command)} failed ({status})")
    with open(report) as f:
        return int(f.read().split()[-1]) / 1024
