"""Starting the players under measure."""
import fcntl, os, pty, shutil, signal, struct, termios


def spawn(command, env=None, quiet=(0, 1, 2)):
    """Starts `command` (looked up on PATH) with posix_spawn, the descriptors in `quiet` on
    /dev/null, and returns its pid. (Its peak RSS as `wait4` reports it still counts this Python
    process's memory, which the kernel carries across the exec: measure RSS with GNU time or
    /proc/PID/status's VmHWM.)"""
    null = [(os.POSIX_SPAWN_OPEN, fd, "/dev/null", os.O_RDWR, 0) for fd in quiet]
    path = command[0] if "/" in command[0] else shutil.which(command[0])
    return os.posix_spawn(path, command, env if env is not None else os.environ, file_actions=null)


def in_pty(command, env, cwd=None, size=None):
    """Starts `command` (a path) in a new pseudo-terminal, as a person's terminal runs it, and
    returns its pid and the pty's descriptor; `size` (columns, rows) sets the window."""
    pid, fd = pty.fork()
    if pid == 0:
        if cwd:
            os.chdir(cwd)
        os.execve(command[0], command, env)
    if size:
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", size[1], size[0], 0, 0))
    return pid, fd


def stop_pty(pid, fd):
    """Ends a player started by `in_pty` (SIGTERM, if it has not ended) and closes its pty."""
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        pass
    os.waitpid(pid, 0)
    os.close(fd)
