#ifndef TPLAYER_CMPG123_SHIM_H
#define TPLAYER_CMPG123_SHIM_H

// libmpg123 renames its offset-taking functions through macros when large-file support is
// switched on (`mpg123_seek` becomes `mpg123_seek_64`), and Swift cannot follow a macro to a
// function. These inline wrappers resolve the macro in C, so Swift always calls a real
// function, whatever `_FILE_OFFSET_BITS` the build uses. The `*2` variants (`mpg123_param2`,
// `mpg123_getformat2`) have no macro and are called directly from Swift.
#include <mpg123.h>

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "../CLinux/byte_source.h"

// libmpg123 reads its source as it parses: a 4-byte header, then the frame, and while it
// looks for the next frame after damage, one read per byte (a megabyte of zeros was a million
// system calls, two seconds of CPU). tplayer's reader serves those reads from 64 KiB read
// ahead from the song's source (`byte_source.h`); `position` is where libmpg123 reads next.
typedef struct {
    tp_source source;
    off_t position;
    off_t start;       // the file offset of buffer[0]
    size_t filled;     // how many bytes of buffer are the file's
    size_t capacity;
    unsigned char *buffer;  // right after the struct, in the same allocation: `free` frees both
} tp_mpg123_reader;

// A reader of `source` from its start, with `capacity` bytes of read-ahead; NULL without memory.
static inline void *tp_mpg123_reader_new(tp_source source, size_t capacity) {
    tp_mpg123_reader *reader = malloc(sizeof *reader + capacity);
    if (reader == NULL) return NULL;
    reader->source = source;
    reader->position = 0;
    reader->start = 0;
    reader->filled = 0;
    reader->capacity = capacity;
    reader->buffer = (unsigned char *)(reader + 1);
    return reader;
}

static inline ssize_t tp_mpg123_reader_read(void *handle, void *into, size_t count) {
    tp_mpg123_reader *reader = handle;
    unsigned char *out = into;
    size_t done = 0;
    while (done < count) {
        if (reader->position >= reader->start && reader->position < reader->start + (off_t)reader->filled) {
            size_t offset = (size_t)(reader->position - reader->start);
            size_t step = reader->filled - offset;
            if (step > count - done) step = count - done;
            memcpy(out + done, reader->buffer + offset, step);
            done += step;
            reader->position += (off_t)step;
            continue;
        }
        ssize_t got;
        if (count - done >= reader->capacity) {
            // A read as large as the buffer gains nothing from it.
            got = reader->source.read(reader->source.context, reader->position, out + done, count - done);
            if (got > 0) {
                done += (size_t)got;
                reader->position += got;
                continue;
            }
        } else {
            got = reader->source.read(reader->source.context, reader->position, reader->buffer, reader->capacity);
            if (got >= 0) {
                reader->start = reader->position;
                reader->filled = (size_t)got;
            }
        }
        if (got == 0) break;  // the end of the file
        if (got < 0) return done > 0 ? (ssize_t)done : -1;
    }
    return (ssize_t)done;
}

static inline off_t tp_mpg123_reader_seek(void *handle, off_t offset, int whence) {
    tp_mpg123_reader *reader = handle;
    int64_t position = reader->position;
    if (tp_source_seek(&reader->source, &position, offset, whence) < 0) return -1;
    reader->position = position;
    return reader->position;
}

// tplayer opens each song itself (only regular files, never blocking on a FIFO) and hands
// libmpg123 its source, read through tplayer's reader; `mpg123_close` frees the reader and
// leaves the source alone.
static inline int tp_mpg123_open_source(mpg123_handle *mh, tp_read_at read, tp_length_of length, void *context) {
    tp_source source = { read, length, context };
    void *reader = tp_mpg123_reader_new(source, 64 * 1024);
    if (reader == NULL) return MPG123_OUT_OF_MEM;
    int code = mpg123_replace_reader_handle(mh, tp_mpg123_reader_read, tp_mpg123_reader_seek, free);
    if (code != MPG123_OK) {
        free(reader);
        return code;
    }
    code = mpg123_open_handle(mh, reader);
    // From here on the handle owns the reader: closing it frees the reader.
    if (code != MPG123_OK) mpg123_close(mh);
    return code;
}

// Where libmpg123 reads next in the file (the descriptor's own offset is the reader's).
static inline off_t tp_mpg123_tell_stream(mpg123_handle *mh) {
    return mpg123_tell_stream(mh);
}

static inline off_t tp_mpg123_length(mpg123_handle *mh) {
    return mpg123_length(mh);
}

static inline off_t tp_mpg123_tell(mpg123_handle *mh) {
    return mpg123_tell(mh);
}

static inline off_t tp_mpg123_seek(mpg123_handle *mh, off_t offset, int whence) {
    return mpg123_seek(mh, offset, whence);
}

static inline off_t tp_mpg123_framelength(mpg123_handle *mh) {
    return mpg123_framelength(mh);
}

// Where in the file the frame decoded last starts: after the open, the first audio frame.
static inline off_t tp_mpg123_framepos(mpg123_handle *mh) {
    return mpg123_framepos(mh);
}

static inline off_t tp_mpg123_seek_frame(mpg123_handle *mh, off_t frame, int whence) {
    return mpg123_seek_frame(mh, frame, whence);
}

// The frame index: read from a handle that has scanned the file, handed to another.
static inline int tp_mpg123_index(mpg123_handle *mh, off_t **offsets, off_t *step, size_t *fill) {
    return mpg123_index(mh, offsets, step, fill);
}

static inline int tp_mpg123_set_index(mpg123_handle *mh, off_t *offsets, off_t step, size_t fill) {
    return mpg123_set_index(mh, offsets, step, fill);
}

// `MPG123_ENC_SIGNED_16` is an enum member built from other members; an int constant keeps the
// Swift side free of enum-to-int casts.
static const int tp_mpg123_enc_signed_16 = MPG123_ENC_SIGNED_16;

#endif
