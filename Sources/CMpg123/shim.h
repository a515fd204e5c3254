#ifndef TPLAYER_CMPG123_SHIM_H
#define TPLAYER_CMPG123_SHIM_H

// libmpg123 renames its offset-taking functions through macros when large-file support is
// switched on (`mpg123_seek` becomes `mpg123_seek_64`), and Swift cannot follow a macro to a
// function. These inline wrappers resolve the macro in C, so Swift always calls a real
// function, whatever `_FILE_OFFSET_BITS` the build uses. The `*2` variants (`mpg123_param2`,
// `mpg123_getformat2`) have no macro and are called directly from Swift.
#include <mpg123.h>

// tplayer opens each song itself (only regular files, never blocking on a FIFO) and hands
// libmpg123 the descriptor, which `mpg123_close` leaves open.
static inline int tp_mpg123_open_fd(mpg123_handle *mh, int fd) {
    return mpg123_open_fd(mh, fd);
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
