#ifndef TPLAYER_CVORBIS_SHIM_H
#define TPLAYER_CVORBIS_SHIM_H

// libvorbisfile for Ogg Vorbis files (`VorbisDecoder`): its header (libvorbis-dev) and a table of
// the functions used, loaded with dlopen when the first Ogg Vorbis song opens, not linked, so
// that an MP3 run starts as it did. vorbisfile.h defines static stdio callback structs in every
// file that includes it (Swift cannot import them, and they are not wanted): they are left out.
// The callbacks here, in C, read the descriptor tplayer opened with pread, never the name.
#define OV_EXCLUDE_STATIC_CALLBACKS
#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/stat.h>
#include <vorbis/vorbisfile.h>
#include "../CLinux/byte_source.h"

/// vorbisfile.h has no version macro: the soname of libvorbisfile 1.3 (Debian 12).
#define TP_VORBIS_LIBRARY "libvorbisfile.so.3"

typedef struct tp_vorbis {
    int (*open_callbacks)(void *, OggVorbis_File *, const char *, long, ov_callbacks);
    int (*clear)(OggVorbis_File *);
    long (*read)(OggVorbis_File *, char *, int, int, int, int, int *);
    int (*pcm_seek)(OggVorbis_File *, ogg_int64_t);
    ogg_int64_t (*pcm_tell)(OggVorbis_File *);
    ogg_int64_t (*pcm_total)(OggVorbis_File *, int);
    vorbis_info *(*info)(OggVorbis_File *, int);
    vorbis_comment *(*comment)(OggVorbis_File *, int);
    long (*seekable)(OggVorbis_File *);
    long (*streams)(OggVorbis_File *);
} tp_vorbis;

/// Loads libvorbisfile and fills `api`; 0 on success, -1 when it or a function is missing.
static inline int tp_vorbis_load(tp_vorbis *api) {
    void *library = dlopen(TP_VORBIS_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (!library) return -1;
#define TP_VORBIS_LOAD(field, symbol) if (!(*(void **)&api->field = dlsym(library, #symbol))) return -1
    TP_VORBIS_LOAD(open_callbacks, ov_open_callbacks);
    TP_VORBIS_LOAD(clear, ov_clear);
    TP_VORBIS_LOAD(read, ov_read);
    TP_VORBIS_LOAD(pcm_seek, ov_pcm_seek);
    TP_VORBIS_LOAD(pcm_tell, ov_pcm_tell);
    TP_VORBIS_LOAD(pcm_total, ov_pcm_total);
    TP_VORBIS_LOAD(info, ov_info);
    TP_VORBIS_LOAD(comment, ov_comment);
    TP_VORBIS_LOAD(seekable, ov_seekable);
    TP_VORBIS_LOAD(streams, ov_streams);
#undef TP_VORBIS_LOAD
    return 0;
}

/// The soname, for messages.
static inline const char *tp_vorbis_library(void) { return TP_VORBIS_LIBRARY; }

/// The song being read: its bytes and where the next read starts.
typedef struct tp_vorbis_source {
    tp_source bytes;
    int64_t offset;
} tp_vorbis_source;

static size_t tp_vorbis_read_file(void *ptr, size_t size, size_t count, void *data) {
    tp_vorbis_source *s = data;
    if (size * count == 0) return 0;
    ssize_t got = tp_source_read(&s->bytes, &s->offset, ptr, size * count);
    if (got < 0) { errno = EIO; return 0; }
    return (size_t)got / size;
}

static int tp_vorbis_seek_file(void *data, ogg_int64_t offset, int whence) {
    tp_vorbis_source *s = data;
    return tp_source_seek(&s->bytes, &s->offset, offset, whence) < 0 ? -1 : 0;
}

static long tp_vorbis_tell_file(void *data) { return (long)((tp_vorbis_source *)data)->offset; }

/// Opens the Vorbis stream in the file that `source` reads; vorbisfile's status (0: opened).
static inline int tp_vorbis_open(const tp_vorbis *api, OggVorbis_File *file, tp_vorbis_source *source) {
    ov_callbacks callbacks = { tp_vorbis_read_file, tp_vorbis_seek_file, NULL, tp_vorbis_tell_file };
    source->offset = 0;
    return api->open_callbacks(source, file, NULL, 0, callbacks);
}

#endif
