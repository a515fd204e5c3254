#ifndef TPLAYER_CFLAC_SHIM_H
#define TPLAYER_CFLAC_SHIM_H

// libFLAC for FLAC files (`FlacDecoder`): its headers (libflac-dev) and a table of the functions
// used, loaded with dlopen when the first FLAC song opens, not linked, so that an MP3 run starts
// as it did. The stream callbacks are here, in C: they read the descriptor tplayer opened (never
// the name) and turn each decoded block into interleaved 16-bit samples, at C's speed.
#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <sys/stat.h>
#include <FLAC/export.h>
#include <FLAC/stream_decoder.h>
#include "../CLinux/byte_source.h"

#define TP_FLAC_STRINGIFY(x) #x
#define TP_FLAC_SONAME(major) "libFLAC.so." TP_FLAC_STRINGIFY(major)
/// The soname of the libFLAC whose headers this was built with (libFLAC.so.12 on Debian 12).
#define TP_FLAC_LIBRARY TP_FLAC_SONAME(FLAC_API_VERSION_CURRENT)

typedef struct tp_flac {
    FLAC__StreamDecoder *(*decoder_new)(void);
    void (*decoder_delete)(FLAC__StreamDecoder *);
    FLAC__bool (*set_md5_checking)(FLAC__StreamDecoder *, FLAC__bool);
    FLAC__bool (*set_metadata_respond)(FLAC__StreamDecoder *, FLAC__MetadataType);
    FLAC__StreamDecoderInitStatus (*init_stream)(FLAC__StreamDecoder *, FLAC__StreamDecoderReadCallback,
        FLAC__StreamDecoderSeekCallback, FLAC__StreamDecoderTellCallback, FLAC__StreamDecoderLengthCallback,
        FLAC__StreamDecoderEofCallback, FLAC__StreamDecoderWriteCallback, FLAC__StreamDecoderMetadataCallback,
        FLAC__StreamDecoderErrorCallback, void *);
    FLAC__StreamDecoderInitStatus (*init_ogg_stream)(FLAC__StreamDecoder *, FLAC__StreamDecoderReadCallback,
        FLAC__StreamDecoderSeekCallback, FLAC__StreamDecoderTellCallback, FLAC__StreamDecoderLengthCallback,
        FLAC__StreamDecoderEofCallback, FLAC__StreamDecoderWriteCallback, FLAC__StreamDecoderMetadataCallback,
        FLAC__StreamDecoderErrorCallback, void *);
    FLAC__bool (*finish)(FLAC__StreamDecoder *);
    FLAC__bool (*flush)(FLAC__StreamDecoder *);
    FLAC__bool (*process_single)(FLAC__StreamDecoder *);
    FLAC__bool (*process_until_end_of_metadata)(FLAC__StreamDecoder *);
    FLAC__bool (*seek_absolute)(FLAC__StreamDecoder *, FLAC__uint64);
    FLAC__StreamDecoderState (*get_state)(const FLAC__StreamDecoder *);
    FLAC__bool (*get_decode_position)(const FLAC__StreamDecoder *, FLAC__uint64 *);
} tp_flac;

/// Loads libFLAC and fills `api`; 0 on success, -1 when it or a function is missing.
static inline int tp_flac_load(tp_flac *api) {
    void *library = dlopen(TP_FLAC_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (!library) return -1;
#define TP_FLAC_LOAD(field, symbol) if (!(*(void **)&api->field = dlsym(library, #symbol))) return -1
    TP_FLAC_LOAD(decoder_new, FLAC__stream_decoder_new);
    TP_FLAC_LOAD(decoder_delete, FLAC__stream_decoder_delete);
    TP_FLAC_LOAD(set_md5_checking, FLAC__stream_decoder_set_md5_checking);
    TP_FLAC_LOAD(set_metadata_respond, FLAC__stream_decoder_set_metadata_respond);
    TP_FLAC_LOAD(init_stream, FLAC__stream_decoder_init_stream);
    TP_FLAC_LOAD(init_ogg_stream, FLAC__stream_decoder_init_ogg_stream);
    TP_FLAC_LOAD(finish, FLAC__stream_decoder_finish);
    TP_FLAC_LOAD(flush, FLAC__stream_decoder_flush);
    TP_FLAC_LOAD(process_single, FLAC__stream_decoder_process_single);
    TP_FLAC_LOAD(process_until_end_of_metadata, FLAC__stream_decoder_process_until_end_of_metadata);
    TP_FLAC_LOAD(seek_absolute, FLAC__stream_decoder_seek_absolute);
    TP_FLAC_LOAD(get_state, FLAC__stream_decoder_get_state);
    TP_FLAC_LOAD(get_decode_position, FLAC__stream_decoder_get_decode_position);
#undef TP_FLAC_LOAD
    return 0;
}

/// The soname, for messages.
static inline const char *tp_flac_library(void) { return TP_FLAC_LIBRARY; }

/// The most comments kept, and the most bytes of them: a hostile file's tags cannot take memory.
/// A comment is kept to what TagText keeps of a name and its value (lyrics longer: as TagText's
/// `limit(forField:)` says), and a byte more of each to see the cut.
#define TP_FLAC_MAX_COMMENTS 512
#define TP_FLAC_MAX_COMMENT_BYTES (2 << 20)
#define TP_FLAC_COMMENT_KEPT (2 * 4097 + 1)
#define TP_FLAC_LYRICS_KEPT (4097 + 1 + (1 << 20) + 1)

/// Whether a comment (`NAME=value`, `length` bytes) is lyrics: LYRICS, UNSYNCEDLYRICS or
/// LYRICS-…, in any case.
static inline int tp_flac_is_lyrics(const unsigned char *entry, uint32_t length) {
    uint32_t name = 0;
    while (name < length && name <= 4096 && entry[name] != '=') name++;
    if (name >= length || entry[name] != '=') return 0;
    static const char *const names[] = {"LYRICS", "UNSYNCEDLYRICS"};
    for (int i = 0; i < 2; i++) {
        size_t size = strlen(names[i]);
        if (name == size && strncasecmp((const char *)entry, names[i], size) == 0) return 1;
    }
    return name > 7 && strncasecmp((const char *)entry, "LYRICS-", 7) == 0;
}

/// One song being decoded: the file, what its metadata said, and the samples of the last block.
typedef struct tp_flac_stream {
    tp_source source;
    int64_t offset;
    /// STREAMINFO, once read.
    int has_info;
    unsigned rate, channels, bits;
    uint64_t total;
    /// The Vorbis comments, copied (each `length` bytes, not NUL-terminated).
    unsigned comment_count;
    size_t comment_bytes;
    unsigned char *comments[TP_FLAC_MAX_COMMENTS];
    uint32_t comment_lengths[TP_FLAC_MAX_COMMENTS];
    /// The last block decoded, interleaved, each sample `pcm_bytes` long (set after the
    /// metadata from STREAMINFO's bits: 1 unsigned, 2, 3 packed little-endian or 4; 0 is 2),
    /// left-justified; and how many of its frames were taken.
    unsigned char *pcm;
    size_t pcm_capacity, pcm_frames, pcm_taken;
    unsigned pcm_bytes;
    unsigned pcm_channels, pcm_rate;
    /// Its first sample's number in the stream.
    uint64_t pcm_first;
    /// Errors the decoder reported (lost sync, a bad header, a CRC mismatch), and the last one.
    unsigned errors;
    int last_error;
    /// libFLAC reported damage since the last block: it drops every block it cannot decode
    /// whole (lost sync, a bad header, a CRC mismatch) and numbers the next as if none were
    /// missing, so how much is missing is estimated from the bytes it skipped.
    int damaged;
    /// The end of the last block, in libFLAC's count of the samples decoded.
    uint64_t expected;
    /// Frames missing (estimated) since damage was last said.
    uint64_t missing;
    /// Where the last block ended in the file, and its size in bytes (0: not known; Ogg FLAC).
    uint64_t block_end, block_bytes;
    FLAC__bool (*position)(const FLAC__StreamDecoder *, FLAC__uint64 *);
} tp_flac_stream;

static FLAC__StreamDecoderReadStatus tp_flac_read(const FLAC__StreamDecoder *d, FLAC__byte buffer[], size_t *bytes, void *data) {
    (void)d;
    tp_flac_stream *s = data;
    if (*bytes == 0) return FLAC__STREAM_DECODER_READ_STATUS_ABORT;
    ssize_t got = tp_source_read(&s->source, &s->offset, buffer, *bytes);
    if (got < 0) { *bytes = 0; return FLAC__STREAM_DECODER_READ_STATUS_ABORT; }
    *bytes = (size_t)got;
    return got == 0 ? FLAC__STREAM_DECODER_READ_STATUS_END_OF_STREAM : FLAC__STREAM_DECODER_READ_STATUS_CONTINUE;
}

static FLAC__StreamDecoderSeekStatus tp_flac_seek(const FLAC__StreamDecoder *d, FLAC__uint64 offset, void *data) {
    (void)d;
    ((tp_flac_stream *)data)->offset = (int64_t)offset;
    return FLAC__STREAM_DECODER_SEEK_STATUS_OK;
}

static FLAC__StreamDecoderTellStatus tp_flac_tell(const FLAC__StreamDecoder *d, FLAC__uint64 *offset, void *data) {
    (void)d;
    *offset = (FLAC__uint64)((tp_flac_stream *)data)->offset;
    return FLAC__STREAM_DECODER_TELL_STATUS_OK;
}

static FLAC__StreamDecoderLengthStatus tp_flac_length(const FLAC__StreamDecoder *d, FLAC__uint64 *length, void *data) {
    (void)d;
    const tp_source *source = &((tp_flac_stream *)data)->source;
    int64_t known = source->length(source->context);
    if (known < 0) return FLAC__STREAM_DECODER_LENGTH_STATUS_UNSUPPORTED;
    *length = (FLAC__uint64)known;
    return FLAC__STREAM_DECODER_LENGTH_STATUS_OK;
}

static FLAC__bool tp_flac_eof(const FLAC__StreamDecoder *d, void *data) {
    FLAC__uint64 length = 0;
    if (tp_flac_length(d, &length, data) != FLAC__STREAM_DECODER_LENGTH_STATUS_OK) return 0;  // the reads say when it ends
    return (FLAC__uint64)((tp_flac_stream *)data)->offset >= length;
}

/// One sample `v` of `bits` bits stored in `bytes` bytes at `out`, left-justified: fewer bits
/// shifted up, more rounded to the nearest and clipped (a block deeper than its STREAMINFO said).
static inline void tp_flac_store(unsigned char *out, int64_t v, unsigned bits, unsigned bytes) {
    unsigned container = bytes * 8;
    if (bits < container) {
        v *= (int64_t)1 << (container - bits);  // in 64 bits: a sample past its bits cannot overflow
    } else if (bits > container) {
        unsigned shift = bits - container;
        v = (v + ((int64_t)1 << (shift - 1))) >> shift;
    }
    int64_t top = ((int64_t)1 << (container - 1)) - 1, bottom = -top - 1;
    v = v > top ? top : v < bottom ? bottom : v;
    switch (bytes) {
    case 1: out[0] = (unsigned char)(v + 128); break;
    case 2: { int16_t x = (int16_t)v; memcpy(out, &x, 2); break; }
    case 3: out[0] = (unsigned char)v; out[1] = (unsigned char)(v >> 8); out[2] = (unsigned char)(v >> 16); break;
    default: { int32_t x = (int32_t)v; memcpy(out, &x, 4); break; }
    }
}

/// A block into interleaved samples of `pcm_bytes` bytes: the stream's own depth, whole.
static FLAC__StreamDecoderWriteStatus tp_flac_write(const FLAC__StreamDecoder *d, const FLAC__Frame *frame,
                                                    const FLAC__int32 *const buffer[], void *data) {
    tp_flac_stream *s = data;
    unsigned channels = frame->header.channels, bits = frame->header.bits_per_sample;
    size_t frames = frame->header.blocksize;
    if (channels == 0 || bits == 0 || bits > 32) return FLAC__STREAM_DECODER_WRITE_STATUS_ABORT;
    uint64_t first = frame->header.number_type == FLAC__FRAME_NUMBER_TYPE_SAMPLE_NUMBER
        ? frame->header.number.sample_number : (uint64_t)frame->header.number.frame_number * frames;
    FLAC__uint64 end = 0;
    int placed = s->position && s->position(d, &end) && end > s->block_end;
    if (s->damaged) {
        // The bytes from the last good block's end to this one's are this block and the
        // damaged ones: as many blocks as the last block's size goes into them, less this one.
        uint64_t blocks = 1;
        if (placed && s->block_end > 0 && s->block_bytes > 0) {
            uint64_t span = (end - s->block_end + s->block_bytes / 2) / s->block_bytes;
            if (span > 1) blocks = span - 1;
        }
        s->missing += blocks * frames;
        s->damaged = 0;
    } else if (placed && s->block_end > 0) {
        s->block_bytes = end - s->block_end;
    }
    s->block_end = placed ? end : 0;
    s->expected = first + frames;
    s->pcm_first = first;
    s->pcm_taken = 0;
    unsigned bytes = s->pcm_bytes >= 1 && s->pcm_bytes <= 4 ? s->pcm_bytes : 2;
    // At most 65,535 frames of 8 channels of 4 bytes: no overflow.
    size_t needed = frames * channels * bytes;
    if (needed > s->pcm_capacity) {
        unsigned char *grown = realloc(s->pcm, needed);
        if (!grown) return FLAC__STREAM_DECODER_WRITE_STATUS_ABORT;
        s->pcm = grown;
        s->pcm_capacity = needed;
    }
    if (bits == 16 && bytes == 2 && channels == 2) {
        // The common case, in a loop the compiler can vectorise.
        int16_t *out = (int16_t *)(void *)s->pcm;
        const FLAC__int32 *left = buffer[0], *right = buffer[1];
        for (size_t i = 0; i < frames; i++) {
            out[2 * i] = (int16_t)left[i];
            out[2 * i + 1] = (int16_t)right[i];
        }
    } else {
        unsigned char *out = s->pcm;
        for (size_t i = 0; i < frames; i++)
            for (unsigned c = 0; c < channels; c++, out += bytes) tp_flac_store(out, buffer[c][i], bits, bytes);
    }
    s->pcm_frames = frames;
    s->pcm_channels = channels;
    s->pcm_rate = frame->header.sample_rate;
    return FLAC__STREAM_DECODER_WRITE_STATUS_CONTINUE;
}

static void tp_flac_metadata(const FLAC__StreamDecoder *d, const FLAC__StreamMetadata *metadata, void *data) {
    (void)d;
    tp_flac_stream *s = data;
    if (metadata->type == FLAC__METADATA_TYPE_STREAMINFO) {
        s->has_info = 1;
        s->rate = metadata->data.stream_info.sample_rate;
        s->channels = metadata->data.stream_info.channels;
        s->bits = metadata->data.stream_info.bits_per_sample;
        s->total = metadata->data.stream_info.total_samples;
    } else if (metadata->type == FLAC__METADATA_TYPE_VORBIS_COMMENT) {
        const FLAC__StreamMetadata_VorbisComment *vc = &metadata->data.vorbis_comment;
        for (uint32_t i = 0; i < vc->num_comments && s->comment_count < TP_FLAC_MAX_COMMENTS; i++) {
            // A long comment is cut, as every format's tags are, not left out.
            if (!vc->comments[i].entry) continue;
            uint32_t kept = tp_flac_is_lyrics(vc->comments[i].entry, vc->comments[i].length) ? TP_FLAC_LYRICS_KEPT : TP_FLAC_COMMENT_KEPT;
            uint32_t length = vc->comments[i].length < kept ? vc->comments[i].length : kept;
            if (s->comment_bytes + length > TP_FLAC_MAX_COMMENT_BYTES) continue;
            unsigned char *copy = malloc(length ? length : 1);
            if (!copy) return;
            memcpy(copy, vc->comments[i].entry, length);
            s->comments[s->comment_count] = copy;
            s->comment_lengths[s->comment_count] = length;
            s->comment_count++;
            s->comment_bytes += length;
        }
    }
}

static void tp_flac_error(const FLAC__StreamDecoder *d, FLAC__StreamDecoderErrorStatus status, void *data) {
    (void)d;
    tp_flac_stream *s = data;
    s->errors++;
    s->last_error = (int)status;
    s->damaged = 1;
}

/// libFLAC gave up on a block without saying why (a residual that runs past the data, say) and
/// its input was flushed: damage, like the errors it reports.
static inline void tp_flac_gave_up(tp_flac_stream *stream) {
    stream->errors++;
    stream->damaged = 1;
}

/// Before a seek to `target`: damage before it is forgotten; the block libFLAC gives next starts
/// there.
static inline void tp_flac_seeking(tp_flac_stream *stream, uint64_t target) {
    stream->pcm_frames = 0;
    stream->pcm_taken = 0;
    stream->damaged = 0;
    stream->missing = 0;
    stream->expected = target;
    stream->block_end = 0;
}

/// Starts decoding what `read` reads with `context` (`ogg`: FLAC in Ogg) with `decoder`;
/// `stream` is cleared first. Returns libFLAC's init status.
static inline int tp_flac_init(const tp_flac *api, FLAC__StreamDecoder *decoder, tp_flac_stream *stream,
                               tp_read_at read, tp_length_of length, void *context, int ogg) {
    unsigned char *pcm = stream->pcm;
    size_t capacity = stream->pcm_capacity;
    memset(stream, 0, sizeof *stream);
    stream->pcm = pcm;
    stream->pcm_capacity = capacity;
    stream->source.read = read;
    stream->source.length = length;
    stream->source.context = context;
    stream->position = api->get_decode_position;
    return (ogg ? api->init_ogg_stream : api->init_stream)(decoder, tp_flac_read, tp_flac_seek, tp_flac_tell, tp_flac_length,
                                                           tp_flac_eof, tp_flac_write, tp_flac_metadata, tp_flac_error, stream);
}

/// Frees the copied comments (after each song) and, with `all`, the sample buffer.
static inline void tp_flac_release(tp_flac_stream *stream, int all) {
    for (unsigned i = 0; i < stream->comment_count; i++) free(stream->comments[i]);
    stream->comment_count = 0;
    stream->comment_bytes = 0;
    if (all) {
        free(stream->pcm);
        stream->pcm = NULL;
        stream->pcm_capacity = 0;
    }
}

#endif
