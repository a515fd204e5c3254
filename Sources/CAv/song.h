#ifndef TPLAYER_CAV_SONG_H
#define TPLAYER_CAV_SONG_H

// One song being decoded by FFmpeg, in C: the container read through the descriptor tplayer
// opened (a custom AVIOContext whose callbacks pread it, never the name), the first audio
// stream decoded packet by packet, each frame turned into interleaved 16-bit samples by
// libswresample with its defaults (no dither: what `ffmpeg -i song -f s16le -` writes), exact
// seeks by the frames' timestamps, and a bound on failures so that a damaged file never spins.
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "../CLinux/byte_source.h"

#define TP_AV_IO_BUFFER (64 * 1024)
/// Failed reads or decodes in a row before the song is given up as damaged: FFmpeg answers some
/// damage with an error at every call, forever.
#define TP_AV_MAX_FAILURES 64

/// What `tp_av_open` and `tp_av_read` say besides samples.
enum {
    TP_AV_DONE = 0,
    /// The container was not recognised well enough (unknown content only) or holds no audio.
    TP_AV_NOT_AUDIO = -1,
    /// The samples that follow are in a new rate or channel count (`rate`, `channels`).
    TP_AV_NEW_FORMAT = -2,
    /// Decoding stopped on damage (`last_error`).
    TP_AV_DAMAGED = -3,
    /// The audio stream's codec has no decoder in this FFmpeg.
    TP_AV_NO_DECODER = -4,
};

/// Opens a URL an HLS stream names (its playlists, its segments) for the demuxer, through
/// tplayer's own network side and its checks: fills `source`, or returns an AVERROR.
typedef int (*tp_av_open_url)(void *opener, const char *url, tp_source *source);
/// Lets go of a source `tp_av_open_url` gave (its context).
typedef void (*tp_av_close_url)(void *opener, void *context);
/// Whether the song is being left (a new song, the end of the run): FFmpeg's waits stop.
typedef int (*tp_av_interrupted)(void *opener);

typedef struct tp_av_song {
    tp_av api;
    tp_source source;
    int64_t offset;
    AVFormatContext *format;
    AVIOContext *io;
    AVCodecContext *codec;
    const AVCodec *decoder;
    struct SwrContext *swr;
    AVPacket *packet;
    AVFrame *frame;
    int stream;
    AVRational time_base;
    /// The format given out now, and the one of the samples in `pcm`.
    int rate, channels;
    int pcm_rate, pcm_channels;
    /// What `swr` converts from.
    int swr_format, swr_rate, swr_channels;
    /// The song's sample number of the next sample given out; where the song ends (the MP4 edit
    /// list's or iTunSMPB's length: FFmpeg 5.1 drops the encoder's priming but not its padding),
    /// or -1; the first sample's timestamp, counted in samples.
    int64_t position, end, origin;
    /// The samples given out, chosen at the first frame (`tp_av_choose_output`): each
    /// `out_bytes` long (2: 16-bit; 3: 24-bit packed; 4: 32-bit integer, or float with
    /// `out_float`), `out_bits` of them the song's; and what libswresample makes for them.
    int out_bytes, out_bits, out_float;
    enum AVSampleFormat swr_out;
    /// The last frame, converted, and how many of its frames were given out.
    uint8_t *pcm;
    size_t pcm_capacity, pcm_frames, pcm_taken;
    int draining, ended;
    /// Places where damage was skipped (a run of failures is one place), the samples lost there,
    /// the failures in a row now, and the last error.
    unsigned errors;
    int64_t lost;
    int failures, last_error;
    /// An HLS stream's: what opens the URLs it names (hls.h); `io` is then one of them.
    tp_av_open_url open_url;
    tp_av_close_url close_url;
    tp_av_interrupted interrupted;
    void *opener;
    int io_nested;
    /// A segment was a part of a file (#EXT-X-BYTERANGE), which is not read.
    int ranged_segment;
} tp_av_song;

static inline void tp_av_close_nested(tp_av_song *s, AVIOContext **io);

/// Reads `source` at `*offset` for an AVIOContext: the bytes read, or AVERROR_EOF, or an AVERROR.
static inline int tp_av_read_source(const tp_source *source, int64_t *offset, uint8_t *buffer, int size) {
    ssize_t got = tp_source_read(source, offset, buffer, (size_t)size);
    if (got < 0) return AVERROR(errno);
    if (got == 0) return AVERROR_EOF;
    return (int)got;
}

static int tp_av_io_read(void *opaque, uint8_t *buffer, int size) {
    tp_av_song *s = opaque;
    return tp_av_read_source(&s->source, &s->offset, buffer, size);
}

static int64_t tp_av_io_seek(void *opaque, int64_t offset, int whence) {
    tp_av_song *s = opaque;
    whence &= ~AVSEEK_FORCE;
    if (whence == AVSEEK_SIZE) {
        int64_t length = s->source.length(s->source.context);
        return length < 0 ? AVERROR(errno) : length;
    }
    int64_t to = tp_source_seek(&s->source, &s->offset, offset, whence);
    return to < 0 ? AVERROR(errno) : to;
}

/// One failure more: a new place of damage when none came just before it.
static inline int tp_av_failed(tp_av_song *s, int error, int64_t samples) {
    if (s->failures++ == 0) s->errors++;
    // A container's durations are the file's word: added only when sane, and held at the bound.
    if (samples > 0) s->lost = samples <= INT64_MAX - s->lost ? s->lost + samples : INT64_MAX;
    s->last_error = error;
    return s->failures > TP_AV_MAX_FAILURES;
}

/// Decodes the next frame into `frame`: 1, or 0 at the end, or TP_AV_DAMAGED.
static int tp_av_next_frame(tp_av_song *s) {
    const tp_av *api = &s->api;
    while (1) {
        int result = api->receive_frame(s->codec, s->frame);
        if (result == 0) {
            s->failures = 0;
            return 1;
        }
        if (result == AVERROR_EOF) return 0;
        if (result != AVERROR(EAGAIN)) {
            if (tp_av_failed(s, result, 0)) return TP_AV_DAMAGED;
            continue;
        }
        if (s->draining) return 0;
        result = api->read_frame(s->format, s->packet);
        // (An HLS stream's own input is its playlist, always read to its end: not the audio's.)
        if (result == AVERROR_EOF || (result < 0 && !s->io_nested && s->io->eof_reached)) {
            s->draining = 1;
            api->send_packet(s->codec, NULL);
            continue;
        }
        if (result < 0) {
            if (tp_av_failed(s, result, 0)) return TP_AV_DAMAGED;
            continue;
        }
        if (s->packet->stream_index == s->stream) {
            int64_t duration = s->packet->duration > 0
                ? api->rescale_q(s->packet->duration, s->time_base, (AVRational){1, s->rate > 0 ? s->rate : 1}) : 0;
            result = api->send_packet(s->codec, s->packet);
            if (result < 0 && result != AVERROR(EAGAIN) && tp_av_failed(s, result, duration)) {
                api->packet_unref(s->packet);
                return TP_AV_DAMAGED;
            }
        }
        api->packet_unref(s->packet);
    }
}

/// The song's own samples, from its first decoded frame: a lossless codec's integers at their
/// depth (16 bits or fewer as 16; up to 24 packed in 24, left-justified; more in 32), PCM
/// floats as floats; a lossy codec's (AAC, Vorbis, MP3: floats with no depth) as 16-bit, as
/// `ffmpeg -f s16le` writes them.
static inline void tp_av_choose_output(tp_av_song *s) {
    int raw = s->codec->bits_per_raw_sample;
    enum AVCodecID id = s->codec->codec_id;
    s->out_bytes = 2;
    s->out_bits = 16;
    s->out_float = 0;
    s->swr_out = AV_SAMPLE_FMT_S16;
    switch (s->frame->format) {
    case AV_SAMPLE_FMT_S32:
    case AV_SAMPLE_FMT_S32P:
        if (raw > 0 && raw <= 16) break;
        s->out_bits = raw > 0 && raw <= 32 ? raw : 32;
        s->out_bytes = s->out_bits <= 24 ? 3 : 4;
        s->swr_out = AV_SAMPLE_FMT_S32;
        break;
    case AV_SAMPLE_FMT_FLT:
    case AV_SAMPLE_FMT_FLTP:
    case AV_SAMPLE_FMT_DBL:
    case AV_SAMPLE_FMT_DBLP:
        if (id != AV_CODEC_ID_PCM_F32LE && id != AV_CODEC_ID_PCM_F32BE && id != AV_CODEC_ID_PCM_F64LE && id != AV_CODEC_ID_PCM_F64BE) break;
        s->out_bits = 32;
        s->out_bytes = 4;
        s->out_float = 1;
        s->swr_out = AV_SAMPLE_FMT_FLT;
        break;
    default:
        break;
    }
}

/// The frame just decoded into `pcm`, interleaved, `out_bytes` a sample, in its own rate and
/// channels.
static int tp_av_convert(tp_av_song *s) {
    const tp_av *api = &s->api;
    AVFrame *frame = s->frame;
    int channels = frame->ch_layout.nb_channels;
    if (channels <= 0 || channels > 64 || frame->sample_rate <= 0 || frame->nb_samples < 0) return AVERROR_INVALIDDATA;
    if (!s->swr || frame->format != s->swr_format || frame->sample_rate != s->swr_rate || channels != s->swr_channels) {
        api->swr_free(&s->swr);
        AVChannelLayout layout = {0};
        if (frame->ch_layout.order == AV_CHANNEL_ORDER_UNSPEC) api->channel_layout_default(&layout, channels);
        else if (api->channel_layout_copy(&layout, &frame->ch_layout) < 0) return AVERROR(ENOMEM);
        int result = api->swr_alloc_set_opts2(&s->swr, &layout, s->swr_out, frame->sample_rate, &layout,
                                              (enum AVSampleFormat)frame->format, frame->sample_rate, 0, NULL);
        api->channel_layout_uninit(&layout);
        if (result < 0 || (result = api->swr_init(s->swr)) < 0) {
            api->swr_free(&s->swr);
            return result < 0 ? result : AVERROR(EINVAL);
        }
        s->swr_format = frame->format;
        s->swr_rate = frame->sample_rate;
        s->swr_channels = channels;
    }
    size_t frames = (size_t)frame->nb_samples;
    // What libswresample writes: 2 or 4 bytes a sample (24-bit is packed after it).
    size_t made = s->swr_out == AV_SAMPLE_FMT_S16 ? 2 : 4;
    // nb_samples is an int and channels at most 64: no overflow in size_t.
    if (frames * (size_t)channels * made > s->pcm_capacity) {
        uint8_t *grown = realloc(s->pcm, frames * (size_t)channels * made);
        if (!grown) return AVERROR(ENOMEM);
        s->pcm = grown;
        s->pcm_capacity = frames * (size_t)channels * made;
    }
    uint8_t *out = s->pcm;
    int converted = api->swr_convert(s->swr, &out, frame->nb_samples, (const uint8_t **)frame->extended_data, frame->nb_samples);
    if (converted < 0) return converted;
    if (s->out_bytes == 3) {
        // 24 bits left-justified in 32: the top three bytes, packed, in place (front to back:
        // each write lands at or before what is read next).
        size_t count = (size_t)converted * (size_t)channels;
        for (size_t i = 0; i < count; i++) {
            s->pcm[3 * i] = s->pcm[4 * i + 1];
            s->pcm[3 * i + 1] = s->pcm[4 * i + 2];
            s->pcm[3 * i + 2] = s->pcm[4 * i + 3];
        }
    }
    s->pcm_frames = (size_t)converted;
    s->pcm_taken = 0;
    s->pcm_rate = frame->sample_rate;
    s->pcm_channels = channels;
    return 0;
}

/// The timestamp of the frame just decoded, in samples from the song's first one, or INT64_MIN.
static inline int64_t tp_av_frame_position(tp_av_song *s) {
    int64_t pts = s->frame->pts != AV_NOPTS_VALUE ? s->frame->pts : s->frame->best_effort_timestamp;
    if (pts == AV_NOPTS_VALUE) return INT64_MIN;
    return s->api.rescale_q(pts, s->time_base, (AVRational){1, s->frame->sample_rate}) - s->origin;
}

/// A new decoder for the stream, as the ffmpeg command makes it (the packets' time base given).
static inline int tp_av_start_codec(tp_av_song *s) {
    const tp_av *api = &s->api;
    AVStream *stream = s->format->streams[s->stream];
    api->codec_free(&s->codec);
    if (!(s->codec = api->codec_alloc(s->decoder))) return AVERROR(ENOMEM);
    int result = api->parameters_to_context(s->codec, stream->codecpar);
    if (result < 0) return result;
    s->codec->pkt_timebase = stream->time_base;
    return api->codec_open(s->codec, s->decoder, NULL);
}

/// Frees the song's contexts (not the sample buffer, kept for the next song).
static inline void tp_av_close(tp_av_song *s) {
    const tp_av *api = &s->api;
    if (s->format) api->close_input(&s->format);
    if (s->io && s->io_nested) {
        tp_av_close_nested(s, &s->io);
    } else if (s->io) {
        api->free(s->io->buffer);
        api->io_free(&s->io);
    }
    s->io_nested = 0;
    api->codec_free(&s->codec);
    api->swr_free(&s->swr);
    api->packet_free(&s->packet);
    api->frame_free(&s->frame);
    s->swr_format = s->swr_rate = s->swr_channels = 0;
    s->pcm_frames = s->pcm_taken = 0;
}

/// Opens the container that `read` reads with `context`, and its first audio stream, and decodes its first frame (which
/// gives the song's format and where its timestamps start). `strict`: the content was not
/// recognised by its magic, so FFmpeg's probe must be sure (a score above what a file's name
/// alone would give), lest text or noise open as some raw format. `demuxer`: FFmpeg's name of the
/// container, when a server said it (a stream joined mid-frame, which no probe is sure of), or
/// NULL. 0, or a TP_AV_* or AVERROR code.
static inline int tp_av_begin(tp_av_song *s, int strict);

/// Forgets the song before: closed, and every count back to its start.
static inline void tp_av_reset(tp_av_song *s) {
    tp_av_close(s);
    s->offset = 0;
    s->position = 0;
    s->end = -1;
    s->origin = 0;
    s->draining = s->ended = 0;
    s->errors = 0;
    s->lost = 0;
    s->failures = s->last_error = 0;
    s->rate = s->channels = 0;
    s->open_url = NULL;
    s->close_url = NULL;
    s->interrupted = NULL;
    s->opener = NULL;
    s->ranged_segment = 0;
}

/// No nested input is ever opened through FFmpeg's own protocols (a local file that reads as an
/// HLS or DASH playlist, a reference in a container): only what tplayer opened is read.
static inline int tp_av_io_refuse(AVFormatContext *format, AVIOContext **pb, const char *url, int flags,
                                     AVDictionary **options) {
    (void)format; (void)pb; (void)url; (void)flags; (void)options;
    return AVERROR(EPERM);
}

static inline int tp_av_io_close_none(AVFormatContext *format, AVIOContext *pb) {
    (void)format; (void)pb;
    return 0;
}

static inline int tp_av_open(tp_av_song *s, tp_read_at read, tp_length_of length, void *context, int strict,
                             const char *demuxer) {
    const tp_av *api = &s->api;
    tp_av_reset(s);
    s->source.read = read;
    s->source.length = length;
    s->source.context = context;
    unsigned char *buffer = api->malloc(TP_AV_IO_BUFFER);
    if (!buffer) return AVERROR(ENOMEM);
    s->io = api->io_alloc(buffer, TP_AV_IO_BUFFER, 0, s, tp_av_io_read, NULL, tp_av_io_seek);
    if (!s->io) {
        api->free(buffer);
        return AVERROR(ENOMEM);
    }
    // A source of no known length is a stream, which seeks nowhere (byte_source.h): FFmpeg is
    // told, so that it probes from what it has read and reads on, as it reads a pipe.
    if (length(context) < 0) s->io->seekable = 0;
    s->format = api->format_alloc();
    if (!s->format) return AVERROR(ENOMEM);
    s->format->pb = s->io;
    s->format->flags |= AVFMT_FLAG_CUSTOM_IO;
    s->format->io_open = tp_av_io_refuse;
    s->format->io_close2 = tp_av_io_close_none;
    const AVInputFormat *told = demuxer ? api->find_input_format(demuxer) : NULL;
    if (told) strict = 0;
    int result = api->open_input(&s->format, "", told, NULL);
    if (result < 0) return strict ? TP_AV_NOT_AUDIO : result;  // the context is freed on failure
    return tp_av_begin(s, strict);
}

/// The container open: its first audio stream chosen and its first frame decoded.
static inline int tp_av_begin(tp_av_song *s, int strict) {
    const tp_av *api = &s->api;
    int result;
    if (strict && s->format->probe_score <= AVPROBE_SCORE_EXTENSION) return TP_AV_NOT_AUDIO;
    api->find_stream_info(s->format, NULL);
    const AVCodec *decoder = NULL;
    s->stream = api->find_best_stream(s->format, AVMEDIA_TYPE_AUDIO, -1, -1, &decoder, 0);
    if (s->stream == AVERROR_DECODER_NOT_FOUND) return TP_AV_NO_DECODER;
    if (s->stream < 0 || !decoder) return TP_AV_NOT_AUDIO;
    for (unsigned i = 0; i < s->format->nb_streams; i++)
        if ((int)i != s->stream) s->format->streams[i]->discard = AVDISCARD_ALL;
    AVStream *stream = s->format->streams[s->stream];
    s->time_base = stream->time_base;
    s->decoder = decoder;
    if ((result = tp_av_start_codec(s)) < 0) return result;
    if (!(s->packet = api->packet_alloc()) || !(s->frame = api->frame_alloc())) return AVERROR(ENOMEM);
    s->rate = s->codec->sample_rate;
    result = tp_av_next_frame(s);
    if (result <= 0) return result == 0 ? TP_AV_NOT_AUDIO : s->last_error;
    tp_av_choose_output(s);
    if ((result = tp_av_convert(s)) < 0) return result;
    s->rate = s->pcm_rate;
    s->channels = s->pcm_channels;
    int64_t first = tp_av_frame_position(s);
    s->origin = first == INT64_MIN ? 0 : first;
    s->errors = 0;
    s->lost = 0;
    return 0;
}

/// Up to `capacity` frames into `out`: how many, or TP_AV_DONE, TP_AV_NEW_FORMAT, TP_AV_DAMAGED.
static inline int tp_av_read(tp_av_song *s, void *out, int capacity) {
    while (1) {
        if (s->pcm_taken < s->pcm_frames) {
            if (s->pcm_rate != s->rate || s->pcm_channels != s->channels) {
                s->rate = s->pcm_rate;
                s->channels = s->pcm_channels;
                return TP_AV_NEW_FORMAT;
            }
            int64_t frames = (int64_t)(s->pcm_frames - s->pcm_taken);
            if (frames > capacity) frames = capacity;
            if (s->end >= 0 && frames > s->end - s->position) frames = s->end - s->position;
            if (frames <= 0) {
                s->ended = 1;
                s->pcm_frames = s->pcm_taken = 0;
                return TP_AV_DONE;
            }
            size_t frame_bytes = (size_t)s->channels * (size_t)s->out_bytes;
            memcpy(out, s->pcm + s->pcm_taken * frame_bytes, (size_t)frames * frame_bytes);
            s->pcm_taken += (size_t)frames;
            s->position += frames;
            return (int)frames;
        }
        if (s->ended) return TP_AV_DONE;
        int result = tp_av_next_frame(s);
        if (result <= 0) {
            s->ended = 1;
            return result == 0 ? TP_AV_DONE : TP_AV_DAMAGED;
        }
        if (tp_av_convert(s) < 0 && tp_av_failed(s, AVERROR_INVALIDDATA, s->frame->nb_samples)) {
            s->ended = 1;
            return TP_AV_DAMAGED;
        }
    }
}

/// Moves to `target` exactly: seeks to a packet at least `preroll` samples before it (a decoder
/// needs the packets before a sample to give it as a decode from the start does: AAC's overlap),
/// then decodes and drops up to the target, by the frames' timestamps. Where it landed, or -1.
static inline int64_t tp_av_seek(tp_av_song *s, int64_t target) {
    const tp_av *api = &s->api;
    if (!s->format) return -1;
    if (target < 0) target = 0;
    if (s->end >= 0 && target >= s->end) {
        s->position = s->end;
        s->pcm_frames = s->pcm_taken = 0;
        s->ended = 1;
        return s->end;
    }
    int64_t preroll = s->rate / 5;
    // A frame size is the container's word: counted in 64 bits, and never more than 10 s.
    if ((int64_t)s->codec->frame_size * 2 > preroll) preroll = (int64_t)s->codec->frame_size * 2;
    if (preroll > (int64_t)s->rate * 10) preroll = (int64_t)s->rate * 10;
    for (int attempt = 0; attempt < 3; attempt++) {
        // Before the target by the preroll, then further back; a time before the first packet
        // (the MP4 priming's packet is stamped before 0) gives the first.
        int64_t from = target - (preroll << (3 * attempt));
        int64_t at;
        if (__builtin_add_overflow(s->origin, from, &at)) at = from < 0 ? INT64_MIN + 1 : INT64_MAX;
        int64_t timestamp = api->rescale_q(at, (AVRational){1, s->rate}, s->time_base);
        if (api->seek_frame(s->format, s->stream, timestamp, AVSEEK_FLAG_BACKWARD) < 0) {
            if (from > 0) continue;
            if (api->seek_frame(s->format, -1, 0, AVSEEK_FLAG_BYTE) < 0) return -1;
        }
        // A new decoder rather than a flushed one: a flush leaves some of its state where the
        // last packet left it (AAC's noise generator for PNS), and the start would not decode
        // as it does from a fresh one.
        if (tp_av_start_codec(s) < 0) return -1;
        s->draining = s->ended = 0;
        s->failures = 0;
        s->pcm_frames = s->pcm_taken = 0;
        int result = tp_av_next_frame(s);
        int64_t position = result > 0 ? tp_av_frame_position(s) : INT64_MIN;
        if (result > 0 && position == INT64_MIN) position = from;  // no timestamps: trust the seek
        if (result > 0 && position > target && attempt < 2) continue;  // landed after it: further back
        while (result > 0) {
            int64_t frames = s->frame->nb_samples;
            if (position + frames > target) {
                if (tp_av_convert(s) < 0) break;
                int64_t skip = target - position;
                if (skip < 0) skip = 0;
                if ((size_t)skip > s->pcm_frames) skip = (int64_t)s->pcm_frames;
                s->pcm_taken = (size_t)skip;
                s->position = position + skip;
                return s->position;
            }
            position += frames;
            result = tp_av_next_frame(s);
        }
        // The end came (or damage) before the target.
        s->ended = 1;
        s->position = position == INT64_MIN ? target : position;
        return s->position;
    }
    return -1;
}

#endif
