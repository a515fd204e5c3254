#ifndef TPLAYER_CLINUX_BYTE_SOURCE_H
#define TPLAYER_CLINUX_BYTE_SOURCE_H

// A song's bytes, wherever they come from, for the decoder libraries' I/O callbacks (CMpg123,
// CFlac, CVorbis, COpus, CAv include it): tplayer hands each library a source (a file, an
// internet stream, bytes held in memory: a `ByteSource` in Swift) and each library's callback
// keeps its own signature and error convention, and calls these for the reading and the
// arithmetic.
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/// Reads up to `count` bytes at `offset`: the bytes read, 0 at the end, -1 with errno set.
typedef ssize_t (*tp_read_at)(void *context, int64_t offset, void *buffer, size_t count);
/// The source's length now (a file shrinks when it is truncated); -1 with errno set when it is
/// not known (a stream).
typedef int64_t (*tp_length_of)(void *context);

typedef struct tp_source {
    tp_read_at read;
    tp_length_of length;
    void *context;
} tp_source;

/// Reads up to `count` bytes at `*offset` and moves `*offset` past them; the bytes read, 0 at
/// the end, -1 with errno set.
static inline ssize_t tp_source_read(const tp_source *source, int64_t *offset, void *buffer, size_t count) {
    ssize_t got = source->read(source->context, *offset, buffer, count);
    if (got > 0) *offset += got;
    return got;
}

/// Moves `*offset` as lseek(2) would (SEEK_SET, SEEK_CUR, or SEEK_END from the length now);
/// the new offset, or -1 with errno set (EINVAL for another `whence` or a place before the
/// start). A source of no known length is a stream, read from start to end: it refuses every
/// seek (ESPIPE, as a pipe does), so that each library reads it as it reads a pipe. (Half a seek
/// misled libopusfile, which asks whether it can seek and then reads on from the end.)
static inline int64_t tp_source_seek(const tp_source *source, int64_t *offset, int64_t to, int whence) {
    int64_t length = source->length(source->context);
    if (length < 0) {
        errno = ESPIPE;
        return -1;
    }
    int64_t base = 0;
    if (whence == SEEK_CUR) {
        base = *offset;
    } else if (whence == SEEK_END) {
        base = length;
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
