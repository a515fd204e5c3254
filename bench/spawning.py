"""Starting the players under measure."""
import os, shutil


def spawn(command, env=None, quiet=(0, 1, 2)):
    """Starts `command` (looked up on PATH) with posix_spawn, the descriptors in `quiet` on
    /dev/null, and returns its pid. (Its peak RSS as `wait4` reports it still counts this Python
    process's memory, which the kernel carries across the exec: measure RSS with GNU time or
    /proc/PID/status's VmHWM.)"""
    null = [(os.POSIX_SPAWN_OPEN, fd, "/dev/null", os.O_RDWR, 0) for fd in quiet]
    path = command[0] if "/" in command[0] else shutil.which(command[0])
    return os.posix_spawn(path, command, env if env is not None else os.environ, file_actions=null)
