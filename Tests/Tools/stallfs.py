#!/usr/bin/env python3
"""stallfs: a read-only FUSE filesystem whose one file stalls partway, like a disk that hangs.

    python3 stallfs.py MOUNTPOINT SOURCE_FILE --stall-at BYTES --stall-seconds SECONDS
                       [--stall-log PATH] [--stall-per-open] [--allow-other]

The mount's root holds exactly one regular file, named like SOURCE_FILE's basename, with its
size and contents (mode 0444). The first READ request whose byte range contains offset
--stall-at waits --stall-seconds before it is answered: once per mount, or, with
--stall-per-open, once per open file handle (so that a second reader of the same file, such as
a helper thread that scans the whole file, cannot use up the stall). Each stall appends
"stall begin <t> ..." and "stall end <t> ..." lines to --stall-log, <t> being CLOCK_MONOTONIC
seconds (Python's time.monotonic()), and flushes them.

A read that lies wholly past --stall-at does not stall: a decoder opening an MP3 reads its last
128 bytes (the ID3v1 tag) at once, and that must not be taken for playback reaching the offset.

Speaks the FUSE kernel protocol directly on /dev/fuse with the standard library only (no
libfuse): needs root (CAP_SYS_ADMIN) and /dev/fuse. Runs in the foreground, prints "ready" once
the kernel's INIT has been answered, and on SIGTERM or SIGINT detaches the mount and exits 0.

Every open file is answered with FOPEN_DIRECT_IO, so each read(2) becomes READ requests for
exactly the bytes asked for: no page cache can serve the stalled range from memory and no
readahead can fetch it early. max_readahead is also negotiated down to 0, which keeps readahead
off for the one path that still uses the page cache (a private mmap).

Protocol reference: include/uapi/linux/fuse.h in the Linux kernel (libfuse: fuse_kernel.h).
"""

import argparse
import ctypes
import errno
import os
import signal
import stat
import struct
import sys
import threading
import time

# --- Protocol constants (include/uapi/linux/fuse.h) -----------------------------------------

FUSE_KERNEL_VERSION = 7
# The highest minor we speak. Every structure used below has had its present layout since 7.23
# (fuse_init_out grew to 64 bytes then); nothing newer is negotiated.
FUSE_MAX_MINOR = 31
FUSE_ROOT_ID = 1
FILE_ID = 2  # the node id of the one file

# Opcodes.
FUSE_LOOKUP = 1
FUSE_FORGET = 2  # no reply
FUSE_GETATTR = 3
FUSE_OPEN = 14
FUSE_READ = 15
FUSE_STATFS = 17
FUSE_RELEASE = 18
FUSE_GETXATTR = 22
FUSE_LISTXATTR = 23
FUSE_FLUSH = 25
FUSE_INIT = 26
FUSE_OPENDIR = 27
FUSE_READDIR = 28
FUSE_RELEASEDIR = 29
FUSE_ACCESS = 34
FUSE_INTERRUPT = 36  # no reply (see _handle)
FUSE_DESTROY = 38
FUSE_NOTIFY_REPLY = 41  # only ever an answer to a notification we never send; no reply
FUSE_BATCH_FORGET = 42  # no reply

FOPEN_DIRECT_IO = 1 << 0

# struct fuse_in_header: len, opcode, unique, nodeid, uid, gid, pid, padding (40 bytes; newer
# kernels split padding into total_extlen u16 + padding u16, nonzero only for extensions we
# never negotiate).
IN_HEADER = struct.Struct("<IIQQIIII")
# struct fuse_out_header: len, error (negative errno or 0), unique (16 bytes).
OUT_HEADER = struct.Struct("<IiQ")
# struct fuse_attr: ino, size, blocks, atime, mtime, ctime, atimensec, mtimensec, ctimensec,
# mode, nlink, uid, gid, rdev, blksize, flags/padding (88 bytes).
ATTR = struct.Struct("<6Q10I")
# struct fuse_entry_out: nodeid, generation, entry_valid, attr_valid, entry_valid_nsec,
# attr_valid_nsec, then a fuse_attr (128 bytes).
ENTRY_OUT = struct.Struct("<4Q2I")
# struct fuse_attr_out: attr_valid, attr_valid_nsec, dummy, then a fuse_attr (104 bytes).
ATTR_OUT = struct.Struct("<QII")
# struct fuse_open_in: flags, open_flags/unused.
OPEN_IN = struct.Struct("<II")
# struct fuse_open_out: fh, open_flags, padding (16 bytes).
OPEN_OUT = struct.Struct("<QII")
# struct fuse_read_in: fh, offset, size, read_flags, lock_owner, flags, padding (40 bytes).
READ_IN = struct.Struct("<QQIIQII")
# struct fuse_init_in: major, minor, max_readahead, flags (then flags2 and unused words).
INIT_IN = struct.Struct("<IIII")
# struct fuse_init_out: major, minor, max_readahead, flags, max_background (u16),
# congestion_threshold (u16), max_write, time_gran, max_pages (u16), map_alignment (u16),
# flags2, unused[7] (64 bytes). Before 7.23 it ended after max_write (24 bytes).
INIT_OUT = struct.Struct("<IIIIHHIIHHI7I")
INIT_OUT_COMPAT_22_SIZE = 24
# struct fuse_kstatfs: blocks, bfree, bavail, files, ffree, bsize, namelen, frsize, padding,
# spare[6] (80 bytes).
KSTATFS = struct.Struct("<5Q4I6I")
# struct fuse_access_in: mask, padding.
ACCESS_IN = struct.Struct("<II")
# struct fuse_dirent: ino, off, namelen, type, then the name padded to 8 bytes.
DIRENT = struct.Struct("<QQII")

# What we tell the kernel at INIT.
MAX_WRITE = 4096  # the filesystem is read-only; the kernel's floor is 4096
# The buffer each serving thread reads requests into. The kernel refuses reads into buffers
# smaller than max(8192, 80 + max_write) and fails any single request that would not fit.
REQUEST_BUFFER_SIZE = 64 * 1024
# mount option: READ requests ask for at most this many bytes.
MAX_READ = 128 * 1024
# How long the kernel may cache names and attributes; the contents never change.
CACHE_SECONDS = 60

# mount(2) / umount2(2) flags.
MS_RDONLY = 1
MS_NOSUID = 2
MS_NODEV = 4
MNT_DETACH = 2

DT_DIR = 4
DT_REG = 8


class FuseError(Exception):
    """Raised by a handler to answer its request with -errno."""

    def __init__(self, err):
        super().__init__(os.strerror(err))
        self.errno = err


# --- libc ------------------------------------------------------------------------------------

def _load_libc():
    try:
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
    except OSError:
        libc = ctypes.CDLL(None, use_errno=True)
    libc.mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p,
                           ctypes.c_ulong, ctypes.c_void_p]
    libc.mount.restype = ctypes.c_int
    libc.umount2.argtypes = [ctypes.c_char_p, ctypes.c_int]
    libc.umount2.restype = ctypes.c_int
    return libc


def _unescape_mountinfo(field):
    """/proc/self/mountinfo writes space, tab, newline and backslash as \\ooo octal."""
    out = bytearray()
    i = 0
    while i < len(field):
        if field[i:i + 1] == b"\\" and len(field) >= i + 4 and field[i + 1:i + 4].isdigit():
            out.append(int(field[i + 1:i + 4], 8))
            i += 4
        else:
            out.append(field[i])
            i += 1
    return bytes(out)


def is_mounted(path):
    """Whether `path` (bytes, canonical) is the mount point of some mount in our namespace."""
    with open("/proc/self/mountinfo", "rb") as mountinfo:
        for line in mountinfo:
            fields = line.split(b" ")
            if len(fields) > 4 and _unescape_mountinfo(fields[4]) == path:
                return True
    return False


# --- The filesystem --------------------------------------------------------------------------

class StallFS:
    def __init__(self, mountpoint, source, stall_at, stall_seconds, stall_log, per_open,
                 allow_other):
        self.mountpoint = mountpoint  # bytes, canonical
        if not stat.S_ISREG(os.stat(source).st_mode):  # checked first: a FIFO would block
            raise ValueError("not a regular file")
        self.source_fd = os.open(source, os.O_RDONLY | os.O_CLOEXEC)
        self.source_stat = os.fstat(self.source_fd)
        self.name = os.path.basename(source)  # bytes: names are never decoded
        self.stall_at = stall_at
        self.stall_seconds = stall_seconds
        self.stall_log = stall_log
        self.per_open = per_open
        self.allow_other = allow_other

        self.libc = _load_libc()
        self.fuse_fd = -1
        self.mounted = False

        self.lock = threading.Lock()  # guards the fields below
        self.next_fh = 1
        self.stalled_mount = False  # once-per-mount mode: the stall has happened
        self.stalled_fhs = set()  # per-open mode: handles whose stall has happened
        self.initialized = threading.Event()  # INIT answered
        self.gone = threading.Event()  # the connection ended (unmounted or aborted)
        self.log_lock = threading.Lock()

    # --- Mounting ---

    def mount(self):
        """Opens /dev/fuse and mounts it; raises OSError with the errno on failure."""
        self.fuse_fd = os.open("/dev/fuse", os.O_RDWR | os.O_CLOEXEC)
        options = (f"fd={self.fuse_fd},rootmode=40000,user_id=0,group_id=0,"
                   f"max_read={MAX_READ},default_permissions")
        if self.allow_other:
            options += ",allow_other"
        flags = MS_RDONLY | MS_NOSUID | MS_NODEV
        if self.libc.mount(b"stallfs", self.mountpoint, b"fuse.stallfs", flags,
                           options.encode()) != 0:
            err = ctypes.get_errno()
            os.close(self.fuse_fd)
            self.fuse_fd = -1
            raise OSError(err, f"mount({os.fsdecode(self.mountpoint)}, fuse.stallfs, "
                               f"{options}) failed: errno {err} "
                               f"({errno.errorcode.get(err, '?')}: {os.strerror(err)})")
        self.mounted = True

    def unmount(self):
        """Detaches the mount; the connection ends when this process closes /dev/fuse."""
        if self.mounted:
            self.mounted = False
            if self.libc.umount2(self.mountpoint, MNT_DETACH) != 0:
                err = ctypes.get_errno()
                if err not in (errno.EINVAL, errno.ENOENT):  # already gone
                    print(f"stallfs: umount2({os.fsdecode(self.mountpoint)}): "
                          f"{os.strerror(err)}", file=sys.stderr, flush=True)

    # --- Serving ---

    def start_server_thread(self):
        """Starts one more thread that reads requests from /dev/fuse and answers them.

        Several threads read the device at once (the kernel hands each request to exactly one
        of them), so a READ that sleeps blocks only its own thread. A thread about to stall
        starts a replacement first, so the number of threads free to serve never drops.
        """
        thread = threading.Thread(target=self._serve, name="stallfs-server", daemon=True)
        thread.start()

    def _serve(self):
        buffer = bytearray(REQUEST_BUFFER_SIZE)
        view = memoryview(buffer)
        while not self.gone.is_set():
            try:
                n = os.readv(self.fuse_fd, [buffer])
            except OSError as e:
                if e.errno in (errno.EINTR, errno.EAGAIN, errno.ENOENT):
                    continue  # ENOENT: the request was interrupted before we got it
                if e.errno != errno.ENODEV:  # ENODEV: unmounted and the connection ended
                    print(f"stallfs: reading /dev/fuse: {e}", file=sys.stderr, flush=True)
                self.gone.set()
                return
            if n == 0:
                self.gone.set()
                return
            request = bytes(view[:n])
            try:
                self._handle(request)
            except Exception as e:  # a bug must not take the whole filesystem down
                print(f"stallfs: internal error: {e!r}", file=sys.stderr, flush=True)

    def _reply(self, unique, error=0, payload=b""):
        """Answers a request with one write to /dev/fuse (safe from several threads)."""
        message = OUT_HEADER.pack(OUT_HEADER.size + len(payload), -error, unique) + payload
        try:
            os.write(self.fuse_fd, message)
        except OSError as e:
            # ENOENT: the request is no longer waited for (interrupted, or its process died).
            if e.errno not in (errno.ENOENT, errno.ENODEV):
                print(f"stallfs: writing /dev/fuse: {e}", file=sys.stderr, flush=True)

    def _handle(self, request):
        length, opcode, unique, nodeid, _uid, _gid, pid, _pad = IN_HEADER.unpack_from(request)
        body = request[IN_HEADER.size:length]

        # Requests that are never answered.
        if opcode in (FUSE_FORGET, FUSE_BATCH_FORGET, FUSE_NOTIFY_REPLY):
            return  # node ids are fixed, so lookup counts need no bookkeeping
        if opcode == FUSE_INTERRUPT:
            # A stalled disk does not give up when the reader gets a signal, so neither do we:
            # the interrupted READ is answered when its stall ends, as if nothing happened
            # (a fatal signal still frees the reader; the kernel then drops our late answer).
            return

        handlers = {
            FUSE_INIT: self._init,
            FUSE_LOOKUP: self._lookup,
            FUSE_GETATTR: self._getattr,
            FUSE_OPEN: self._open,
            FUSE_READ: self._read,
            FUSE_RELEASE: self._empty,
            FUSE_FLUSH: self._empty,
            FUSE_OPENDIR: self._opendir,
            FUSE_READDIR: self._readdir,
            FUSE_RELEASEDIR: self._empty,
            FUSE_STATFS: self._statfs,
            FUSE_ACCESS: self._access,
            FUSE_DESTROY: self._empty,
            # ENOSYS makes the kernel stop asking and answer EOPNOTSUPP itself.
            FUSE_GETXATTR: None,
            FUSE_LISTXATTR: None,
        }
        handler = handlers.get(opcode)
        if handler is None:
            self._reply(unique, errno.ENOSYS)
            return
        try:
            payload = handler(nodeid, body, unique=unique, pid=pid)
        except FuseError as e:
            self._reply(unique, e.errno)
            return
        if payload is not None:  # None: the handler replied itself
            self._reply(unique, 0, payload)

    # --- Attributes ---

    def _attr(self, nodeid):
        st = self.source_stat
        if nodeid == FUSE_ROOT_ID:
            mode, nlink, size = stat.S_IFDIR | 0o555, 2, 0
        elif nodeid == FILE_ID:
            mode, nlink, size = stat.S_IFREG | 0o444, 1, st.st_size
        else:
            raise FuseError(errno.ENOENT)
        return ATTR.pack(
            nodeid, size, (size + 511) // 512,
            int(st.st_atime), int(st.st_mtime), int(st.st_ctime),
            st.st_atime_ns % 10**9, st.st_mtime_ns % 10**9, st.st_ctime_ns % 10**9,
            mode, nlink, os.getuid(), os.getgid(), 0, 4096, 0)

    # --- Handlers: each returns the reply's payload, or raises FuseError ---

    def _init(self, _nodeid, body, unique, **_):
        major, minor, _max_readahead, _flags = INIT_IN.unpack_from(body)
        if major > FUSE_KERNEL_VERSION:
            # The kernel then sends a new INIT for our major version.
            return struct.pack("<II", FUSE_KERNEL_VERSION, FUSE_MAX_MINOR)
        if major < FUSE_KERNEL_VERSION:
            print(f"stallfs: kernel FUSE protocol {major}.{minor} is too old",
                  file=sys.stderr, flush=True)
            raise FuseError(errno.EPROTO)
        reply = INIT_OUT.pack(
            FUSE_KERNEL_VERSION, min(minor, FUSE_MAX_MINOR),
            0,  # max_readahead: no readahead into the page cache (see the module's docstring)
            0,  # flags: no optional feature wanted
            0, 0,  # max_background, congestion_threshold: the kernel's defaults
            MAX_WRITE,
            1,  # time_gran: timestamps have nanosecond granularity
            0, 0,  # max_pages (unused without FUSE_MAX_PAGES), map_alignment
            0,  # flags2
            0, 0, 0, 0, 0, 0, 0)
        if minor < 23:  # older kernels take only the first 24 bytes
            reply = reply[:INIT_OUT_COMPAT_22_SIZE]
        self._reply(unique, 0, reply)
        self.initialized.set()
        return None

    def _lookup(self, nodeid, body, **_):
        name = body.split(b"\0", 1)[0]
        if nodeid != FUSE_ROOT_ID or name != self.name:
            raise FuseError(errno.ENOENT)
        return ENTRY_OUT.pack(FILE_ID, 0, CACHE_SECONDS, CACHE_SECONDS, 0, 0) + self._attr(FILE_ID)

    def _getattr(self, nodeid, _body, **_):
        return ATTR_OUT.pack(CACHE_SECONDS, 0, 0) + self._attr(nodeid)

    def _open(self, nodeid, body, **_):
        if nodeid == FUSE_ROOT_ID:
            raise FuseError(errno.EISDIR)
        if nodeid != FILE_ID:
            raise FuseError(errno.ENOENT)
        flags, _ = OPEN_IN.unpack_from(body)
        if flags & os.O_ACCMODE != os.O_RDONLY:
            raise FuseError(errno.EROFS)
        with self.lock:
            fh = self.next_fh
            self.next_fh += 1
        return OPEN_OUT.pack(fh, FOPEN_DIRECT_IO, 0)

    def _read(self, nodeid, body, pid, **_):
        if nodeid != FILE_ID:
            raise FuseError(errno.EISDIR if nodeid == FUSE_ROOT_ID else errno.ENOENT)
        fh, offset, size, *_rest = READ_IN.unpack_from(body)
        if offset <= self.stall_at < offset + size and self._claim_stall(fh):
            self.start_server_thread()  # keep as many threads free to serve as before
            detail = f"offset={offset} size={size} fh={fh} pid={pid}"
            self._log(f"stall begin {time.monotonic():.6f} {detail}")
            time.sleep(self.stall_seconds)
            self._log(f"stall end {time.monotonic():.6f} {detail}")
        return os.pread(self.source_fd, size, offset)

    def _claim_stall(self, fh):
        """Whether this read is the one to stall (and marks the stall as used)."""
        with self.lock:
            if self.per_open:
                if fh in self.stalled_fhs:
                    return False
                self.stalled_fhs.add(fh)
                return True
            if self.stalled_mount:
                return False
            self.stalled_mount = True
            return True

    def _log(self, line):
        if self.stall_log is None:
            return
        with self.log_lock, open(self.stall_log, "a") as log:
            log.write(line + "\n")
            log.flush()

    def _opendir(self, nodeid, _body, **_):
        if nodeid != FUSE_ROOT_ID:
            raise FuseError(errno.ENOTDIR if nodeid == FILE_ID else errno.ENOENT)
        return OPEN_OUT.pack(0, 0, 0)

    def _readdir(self, nodeid, body, **_):
        if nodeid != FUSE_ROOT_ID:
            raise FuseError(errno.ENOTDIR)
        _fh, offset, size, *_rest = READ_IN.unpack_from(body)
        entries = [(FUSE_ROOT_ID, DT_DIR, b"."), (FUSE_ROOT_ID, DT_DIR, b".."),
                   (FILE_ID, DT_REG, self.name)]
        out = bytearray()
        # `offset` is the `off` of the last entry the kernel has taken: the index of the next.
        for index in range(offset, len(entries)):
            ino, kind, name = entries[index]
            record = DIRENT.pack(ino, index + 1, len(name), kind) + name
            record += b"\0" * (-len(record) % 8)  # entries are 8-byte aligned
            if len(out) + len(record) > size:
                break
            out += record
        return bytes(out)

    def _statfs(self, _nodeid, _body, **_):
        blocks = (self.source_stat.st_size + 4095) // 4096
        return KSTATFS.pack(blocks, 0, 0, 2, 0, 4096, 255, 4096, 0, 0, 0, 0, 0, 0, 0)

    def _access(self, nodeid, body, **_):
        if nodeid not in (FUSE_ROOT_ID, FILE_ID):
            raise FuseError(errno.ENOENT)
        mask, _ = ACCESS_IN.unpack_from(body)
        if mask & os.W_OK:
            raise FuseError(errno.EROFS)
        return b""

    def _empty(self, *_args, **_kwargs):
        return b""


# --- Main ------------------------------------------------------------------------------------

def parse_args(argv):
    parser = argparse.ArgumentParser(
        description="Mount a read-only FUSE filesystem with one file whose reads stall once.")
    parser.add_argument("mountpoint")
    parser.add_argument("source")
    parser.add_argument("--stall-at", type=int, required=True, metavar="BYTES",
                        help="the first READ whose range contains this byte offset stalls")
    parser.add_argument("--stall-seconds", type=float, required=True, metavar="SECONDS")
    parser.add_argument("--stall-log", metavar="PATH",
                        help='append "stall begin <monotonic> ..." and "stall end ..." lines')
    parser.add_argument("--stall-per-open", action="store_true",
                        help="stall once per open file handle instead of once per mount")
    parser.add_argument("--allow-other", action="store_true",
                        help="let users other than root read the mount")
    args = parser.parse_args(argv)
    if args.stall_at < 0 or args.stall_seconds < 0:
        parser.error("--stall-at and --stall-seconds must not be negative")
    return args


def fail(message):
    print(f"stallfs: {message}", file=sys.stderr, flush=True)
    sys.exit(1)


def main(argv):
    args = parse_args(argv)
    # Paths as bytes (argv is decoded with surrogateescape, fsencode gives the original bytes).
    mountpoint = os.path.realpath(os.fsencode(args.mountpoint))
    source = os.fsencode(args.source)

    try:
        if not stat.S_ISDIR(os.stat(mountpoint).st_mode):
            fail(f"{args.mountpoint}: not a directory")
    except OSError as e:
        # ENOTCONN: a FUSE filesystem whose server has gone is still mounted there.
        fail(f"{args.mountpoint}: {e.strerror}")
    if is_mounted(mountpoint):
        fail(f"{args.mountpoint}: already a mount point")

    try:
        fs = StallFS(mountpoint, source, args.stall_at, args.stall_seconds, args.stall_log,
                     args.stall_per_open, args.allow_other)
    except OSError as e:
        fail(f"{args.source}: {e.strerror}")
    except ValueError as e:
        fail(f"{args.source}: {e}")

    # SIGTERM and SIGINT are blocked here, before any thread starts, so that every thread
    # inherits the mask and only sigtimedwait() below takes them.
    signals = {signal.SIGTERM, signal.SIGINT}
    signal.pthread_sigmask(signal.SIG_BLOCK, signals)

    try:
        fs.mount()
    except OSError as e:
        fail(e.strerror)

    try:
        for _ in range(4):
            fs.start_server_thread()
        # mount(2) returns before the kernel's INIT is answered; wait for it.
        deadline = time.monotonic() + 10
        while not fs.initialized.wait(0.1):
            if fs.gone.is_set() or time.monotonic() > deadline:
                fail("the kernel's INIT was not answered")
        print("ready", flush=True)

        while True:
            if signal.sigtimedwait(signals, 0.5) is not None:
                break
            if fs.gone.is_set():
                print("stallfs: the mount went away", file=sys.stderr, flush=True)
                break
    finally:
        fs.unmount()
    # Exiting closes /dev/fuse, which ends the connection: a READ still stalled then fails
    # in its reader instead of hanging.
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
