#ifndef TPLAYER_COPUS_SHIM_H
#define TPLAYER_COPUS_SHIM_H

// libopusfile for Opus files (`OpusDecoder`): its header (libopusfile-dev) and a table of the
// functions used, loaded with dlopen when the first Opus song opens, not linked, so that an MP3
// run starts as it did. The callbacks here, in C, read the descriptor tplayer opened with pread,
// never the name.
//
// opusfile.h is not included: it includes <opus_multistream.h> from libopus's own folder, which
// only pkg-config's flags put on the search path, and those flags would link the library. What
// is used of it is declared here instead, as opusfile.h (0.12) declares it: the library's ABI,
// stable since 0.1.
#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/stat.h>
#include <ogg/ogg.h>
#include "../CLinux/byte_source.h"

typedef struct OggOpusFile OggOpusFile;
typedef int16_t opus_int16;
typedef int64_t opus_int64;

/// The identification header (RFC 7845, 5.1): `output_gain` is in Q7.8 dB.
typedef struct OpusHead {
    int version;
    int channel_count;
    unsigned pre_skip;
    uint32_t input_sample_rate;
    int output_gain;
    int mapping_family;
    int stream_count;
    int coupled_count;
    unsigned char mapping[255];
} OpusHead;

/// The comment header: NAME=value comments, each `comment_lengths[i]` bytes.
typedef struct OpusTags {
    char **user_comments;
    int *comment_lengths;
    int comments;
    char *vendor;
} OpusTags;

typedef struct OpusFileCallbacks {
    int (*read)(void *stream, unsigned char *ptr, int bytes);
    int (*seek)(void *stream, opus_int64 offset, int whence);
    opus_int64 (*tell)(void *stream);
    int (*close)(void *stream);
} OpusFileCallbacks;

/// op_read's "there was a hole in the data" (some samples were skipped).
#define TP_OP_HOLE (-3)

/// opusfile.h has no version macro: the soname of libopusfile 0.x (Debian 12: 0.12).
#define TP_OPUS_LIBRARY "libopusfile.so.0"

typedef struct tp_opus {
    OggOpusFile *(*open_callbacks)(void *, const OpusFileCallbacks *, const unsigned char *, size_t, int *);
    void (*free)(OggOpusFile *);
    int (*read)(OggOpusFile *, opus_int16 *, int, int *);
    int (*pcm_seek)(OggOpusFile *, ogg_int64_t);
    ogg_int64_t (*pcm_tell)(const OggOpusFile *);
    ogg_int64_t (*pcm_total)(const OggOpusFile *, int);
    const OpusHead *(*head)(const OggOpusFile *, int);
    const OpusTags *(*tags)(const OggOpusFile *, int);
    int (*seekable)(const OggOpusFile *);
    void (*set_dither_enabled)(OggOpusFile *, int);
} tp_opus;

/// Loads libopusfile and fills `api`; 0 on success, -1 when it or a function is missing.
static inline int tp_opus_load(tp_opus *api) {
    void *library = dlopen(TP_OPUS_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (!library) return -1;
#define TP_OPUS_LOAD(field, symbol) if (!(*(void **)&api->field = dlsym(library, #symbol))) return -1
    TP_OPUS_LOAD(open_callbacks, op_open_callbacks);
    TP_OPUS_LOAD(free, op_free);
    TP_OPUS_LOAD(read, op_read);
    TP_OPUS_LOAD(pcm_seek, op_pcm_seek);
    TP_OPUS_LOAD(pcm_tell, op_pcm_tell);
    TP_OPUS_LOAD(pcm_total, op_pcm_total);
    TP_OPUS_LOAD(head, op_head);
    TP_OPUS_LOAD(tags, op_tags);
    TP_OPUS_LOAD(seekable, op_seekable);
    TP_OPUS_LOAD(set_dither_enabled, op_set_dither_enabled);
#undef TP_OPUS_LOAD
    return 0;
}

/// The soname, for messages.
static inline const char *tp_opus_library(void) { return TP_OPUS_LIBRARY; }

/// The song being read: its bytes and where the next read starts.
typedef struct tp_opus_source {
    tp_source bytes;
    int64_t offset;
} tp_opus_source;

static int tp_opus_read_file(void *data, unsigned char *ptr, int bytes) {
    tp_opus_source *s = data;
    if (bytes <= 0) return 0;
    ssize_t got = tp_source_read(&s->bytes, &s->offset, ptr, (size_t)bytes);
    return got < 0 ? -1 : (int)got;
}

static int tp_opus_seek_file(void *data, opus_int64 offset, int whence) {
    tp_opus_source *s = data;
    return tp_source_seek(&s->bytes, &s->offset, offset, whence) < 0 ? -1 : 0;
}

static opus_int64 tp_opus_tell_file(void *data) { return ((tp_opus_source *)data)->offset; }

/// Opens the Opus stream in the file that `source` reads; NULL with `*error` set when it cannot.
static inline OggOpusFile *tp_opus_open(const tp_opus *api, tp_opus_source *source, int *error) {
    static const OpusFileCallbacks callbacks = { tp_opus_read_file, tp_opus_seek_file, tp_opus_tell_file, NULL };
    source->offset = 0;
    return api->open_callbacks(source, &callbacks, NULL, 0, error);
}

#endif
