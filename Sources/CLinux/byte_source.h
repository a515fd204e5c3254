#ifndef TPLAYER_CLINUX_FD_IO_H
#define TPLAYER_CLINUX_FD_IO_H

// Reading a song through the descriptor tplayer opened, for the decoder libraries' I/O
// callbacks (CFlac, CVorbis, COpus, CAv include it): each library's callback keeps its own
// signature and error convention, and calls these for the reading and the arithmetic.
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/stat.h>

/// Reads up to `count` bytes at `*offset` (retrying on EINTR) and moves `*offset` past them;
/// the bytes read, 0 at the end, -1 with errno set.
static inline ssize_t tp_fd_read(int fd, int64_t *offset, void *buffer, size_t count) {
    ssize_t got;
    do { got = pread(fd, buffer, count, *offset); } while (got < 0 && errno == EINTR);
    if (got > 0) *offset += got;
    return got;
}

/// Moves `*offset` as lseek(2) would (SEEK_SET, SEEK_CUR, or SEEK_END from the file's size
/// now); the new offset, or -1 with errno set (EINVAL for another `whence` or a place before
/// the start).
static inline int64_t tp_fd_seek(int fd, int64_t *offset, int64_t to, int whence) {
    int64_t base = 0;
    if (whence == SEEK_CUR) {
        base = *offset;
    } else if (whence == SEEK_END) {
        struct stat info;
        if (fstat(fd, &info) != 0) return -1;
        base = info.st_size;
    } else if (whence != SEEK_SET) {
        errno = EINVAL;
        return -1;
    }
    if ((to > 0 && base > INT64_MAX - to) || base + to < 0) {
        errno = EINVAL;
        return -1;
    }
    *offset = base + to;
    return *offset;
}

#endif
