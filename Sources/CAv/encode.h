#ifndef TPLAYER_CAV_ENCODE_H
#define TPLAYER_CAV_ENCODE_H

// Encoding a broadcast (`-o icecast`, `BroadcastEncoder`): libavcodec's wrappers of the
// reference encoders (libvorbis, libopus, libmp3lame, as the ffmpeg command encodes), Vorbis
// and Opus put in Ogg pages by libavformat, MP3 frames sent as they come. Loaded with dlopen
// when the output is made (the functions below, not shim.h's table: a decode never loads them).
//
// Samples come in as 16-bit interleaved and leave as bytes gathered in `out`: the caller
// takes them after each call. A song's title starts a new Ogg link (a chained stream, as MPD's
// shout output and every Ogg radio does): `tp_enc_finish`, then `tp_enc_open` with its tags.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct tp_avenc {
    void (*log_set_level)(int);
    void *(*malloc)(size_t);
    void (*free)(void *);
    int (*strerror)(int, char *, size_t);
    int (*dict_set)(AVDictionary **, const char *, const char *, int);
    void (*dict_free)(AVDictionary **);
    AVFrame *(*frame_alloc)(void);
    void (*frame_free)(AVFrame **);
    int (*frame_get_buffer)(AVFrame *, int);
    int (*frame_make_writable)(AVFrame *);
    void (*channel_layout_default)(AVChannelLayout *, int);
    int (*channel_layout_copy)(AVChannelLayout *, const AVChannelLayout *);
    const AVCodec *(*find_encoder_by_name)(const char *);
    AVCodecContext *(*codec_alloc)(const AVCodec *);
    void (*codec_free)(AVCodecContext **);
    int (*codec_open)(AVCodecContext *, const AVCodec *, AVDictionary **);
    int (*send_frame)(AVCodecContext *, const AVFrame *);
    int (*receive_packet)(AVCodecContext *, AVPacket *);
    AVPacket *(*packet_alloc)(void);
    void (*packet_free)(AVPacket **);
    void (*packet_unref)(AVPacket *);
    void (*packet_rescale_ts)(AVPacket *, AVRational, AVRational);
    int (*parameters_from_context)(AVCodecParameters *, const AVCodecContext *);
    int (*alloc_output_context2)(AVFormatContext **, const AVOutputFormat *, const char *, const char *);
    AVStream *(*new_stream)(AVFormatContext *, const AVCodec *);
    int (*write_header)(AVFormatContext *, AVDictionary **);
    int (*write_frame)(AVFormatContext *, AVPacket *);
    int (*write_trailer)(AVFormatContext *);
    void (*free_context)(AVFormatContext *);
    AVIOContext *(*io_alloc)(unsigned char *, int, int, void *, int (*)(void *, uint8_t *, int),
                             int (*)(void *, uint8_t *, int), int64_t (*)(void *, int64_t, int));
    void (*io_free)(AVIOContext **);
    void (*io_flush)(AVIOContext *);
} tp_avenc;

/// Loads the encoding functions of libavutil, libavcodec and libavformat; 0 on success, -1
/// when a library or a function is missing.
static inline int tp_avenc_load(tp_avenc *api) {
    void *util = dlopen(TP_AV_UTIL_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    void *codec = dlopen(TP_AV_CODEC_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    void *format = dlopen(TP_AV_FORMAT_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (!util || !codec || !format) return -1;
#define TP_AVENC_LOAD(library, field, symbol) if (!(*(void **)&api->field = dlsym(library, #symbol))) return -1
    TP_AVENC_LOAD(util, log_set_level, av_log_set_level);
    TP_AVENC_LOAD(util, malloc, av_malloc);
    TP_AVENC_LOAD(util, free, av_free);
    TP_AVENC_LOAD(util, strerror, av_strerror);
    TP_AVENC_LOAD(util, dict_set, av_dict_set);
    TP_AVENC_LOAD(util, dict_free, av_dict_free);
    TP_AVENC_LOAD(util, frame_alloc, av_frame_alloc);
    TP_AVENC_LOAD(util, frame_free, av_frame_free);
    TP_AVENC_LOAD(util, frame_get_buffer, av_frame_get_buffer);
    TP_AVENC_LOAD(util, frame_make_writable, av_frame_make_writable);
    TP_AVENC_LOAD(util, channel_layout_default, av_channel_layout_default);
    TP_AVENC_LOAD(util, channel_layout_copy, av_channel_layout_copy);
    TP_AVENC_LOAD(codec, find_encoder_by_name, avcodec_find_encoder_by_name);
    TP_AVENC_LOAD(codec, codec_alloc, avcodec_alloc_context3);
    TP_AVENC_LOAD(codec, codec_free, avcodec_free_context);
    TP_AVENC_LOAD(codec, codec_open, avcodec_open2);
    TP_AVENC_LOAD(codec, send_frame, avcodec_send_frame);
    TP_AVENC_LOAD(codec, receive_packet, avcodec_receive_packet);
    TP_AVENC_LOAD(codec, packet_alloc, av_packet_alloc);
    TP_AVENC_LOAD(codec, packet_free, av_packet_free);
    TP_AVENC_LOAD(codec, packet_unref, av_packet_unref);
    TP_AVENC_LOAD(codec, packet_rescale_ts, av_packet_rescale_ts);
    TP_AVENC_LOAD(codec, parameters_from_context, avcodec_parameters_from_context);
    TP_AVENC_LOAD(format, alloc_output_context2, avformat_alloc_output_context2);
    TP_AVENC_LOAD(format, new_stream, avformat_new_stream);
    TP_AVENC_LOAD(format, write_header, avformat_write_header);
    TP_AVENC_LOAD(format, write_frame, av_write_frame);
    TP_AVENC_LOAD(format, write_trailer, av_write_trailer);
    TP_AVENC_LOAD(format, free_context, avformat_free_context);
    TP_AVENC_LOAD(format, io_alloc, avio_alloc_context);
    TP_AVENC_LOAD(format, io_free, avio_context_free);
    TP_AVENC_LOAD(format, io_flush, avio_flush);
#undef TP_AVENC_LOAD
    api->log_set_level(AV_LOG_QUIET);
    return 0;
}

typedef struct tp_enc {
    const tp_avenc *api;
    AVCodecContext *codec;
    /// The Ogg muxer; NULL for MP3, whose frames are sent as they are.
    AVFormatContext *muxer;
    AVStream *stream;
    AVFrame *frame;
    AVPacket *packet;
    int channels;
    /// Frames per encoder frame, and how many of them `frame` holds so far.
    int frame_size;
    int filled;
    int64_t pts;
    /// The encoded bytes not yet taken; `failed` once they could not be kept (no memory).
    uint8_t *out;
    size_t out_length;
    size_t out_capacity;
    int failed;
    char error[160];
} tp_enc;

static inline int tp_enc_keep(tp_enc *enc, const uint8_t *bytes, size_t length) {
    if (length > enc->out_capacity - enc->out_length) {
        if (length > SIZE_MAX / 2 - enc->out_length) return -1;
        size_t capacity = enc->out_capacity ? enc->out_capacity : 16384;
        while (capacity < enc->out_length + length) capacity *= 2;
        uint8_t *grown = realloc(enc->out, capacity);
        if (!grown) return -1;
        enc->out = grown;
        enc->out_capacity = capacity;
    }
    memcpy(enc->out + enc->out_length, bytes, length);
    enc->out_length += length;
    return 0;
}

/// libavformat's writes: kept in `out`.
static inline int tp_enc_io_write(void *opaque, uint8_t *bytes, int length) {
    tp_enc *enc = opaque;
    if (length < 0 || tp_enc_keep(enc, bytes, (size_t)length) != 0) {
        enc->failed = 1;
        return AVERROR(ENOMEM);
    }
    return length;
}

static inline int tp_enc_fail(tp_enc *enc, const char *what, int code) {
    char reason[96] = "";
    if (code < 0) enc->api->strerror(code, reason, sizeof reason);
    snprintf(enc->error, sizeof enc->error, "%s%s%s", what, code < 0 ? ": " : "", reason);
    return -1;
}

/// The encoder's packets so far, into `out` (through the muxer for Ogg).
static inline int tp_enc_drain(tp_enc *enc) {
    const tp_avenc *api = enc->api;
    for (;;) {
        int result = api->receive_packet(enc->codec, enc->packet);
        if (result == AVERROR(EAGAIN) || result == AVERROR_EOF) return 0;
        if (result < 0) return tp_enc_fail(enc, "the encoder failed", result);
        if (enc->muxer) {
            enc->packet->stream_index = 0;
            api->packet_rescale_ts(enc->packet, enc->codec->time_base, enc->stream->time_base);
            result = api->write_frame(enc->muxer, enc->packet);
            api->packet_unref(enc->packet);
            if (result < 0) return tp_enc_fail(enc, "the Ogg muxer failed", result);
        } else {
            result = tp_enc_keep(enc, enc->packet->data, (size_t)enc->packet->size);
            api->packet_unref(enc->packet);
            if (result != 0) return tp_enc_fail(enc, "out of memory", 0);
        }
    }
}

/// Hands the frame filled so far to the encoder (all of it, or the last, shorter one).
static inline int tp_enc_send(tp_enc *enc) {
    if (enc->filled == 0) return 0;
    enc->frame->nb_samples = enc->filled;
    enc->frame->pts = enc->pts;
    enc->pts += enc->filled;
    enc->filled = 0;
    int result = enc->api->send_frame(enc->codec, enc->frame);
    if (result < 0) return tp_enc_fail(enc, "the encoder refused the samples", result);
    return tp_enc_drain(enc);
}

static inline void tp_enc_free(tp_enc *enc) {
    const tp_avenc *api = enc->api;
    if (enc->muxer) {
        if (enc->muxer->pb) {
            api->free(enc->muxer->pb->buffer);
            api->io_free(&enc->muxer->pb);
        }
        api->free_context(enc->muxer);
        enc->muxer = NULL;
    }
    if (enc->codec) api->codec_free(&enc->codec);
    if (enc->frame) api->frame_free(&enc->frame);
    if (enc->packet) api->packet_free(&enc->packet);
}

/// Opens `codec_name` (libvorbis, libopus, libmp3lame) for `rate` and `channels` at `bitrate`
/// bits a second, in Ogg when `ogg`, with `tags` (name, value, …, NULL) as its comments; the
/// Ogg headers are in `out` when it returns. 0, or -1 with `error` saying why.
static inline int tp_enc_open(tp_enc *enc, const tp_avenc *api, const char *codec_name, int ogg, int rate, int channels,
                              long bitrate, const char *const *tags) {
    uint8_t *out = enc->out;
    size_t out_length = enc->out_length, out_capacity = enc->out_capacity;
    memset(enc, 0, sizeof *enc);
    enc->api = api;
    enc->out = out;
    enc->out_length = out_length;
    enc->out_capacity = out_capacity;
    enc->channels = channels;
    const AVCodec *codec = api->find_encoder_by_name(codec_name);
    if (!codec) return tp_enc_fail(enc, "this FFmpeg has no such encoder", 0);
    enc->codec = api->codec_alloc(codec);
    enc->frame = api->frame_alloc();
    enc->packet = api->packet_alloc();
    if (!enc->codec || !enc->frame || !enc->packet) { tp_enc_free(enc); return tp_enc_fail(enc, "out of memory", 0); }
    enum AVSampleFormat chosen = AV_SAMPLE_FMT_NONE;
    static const enum AVSampleFormat taken[] = { AV_SAMPLE_FMT_S16, AV_SAMPLE_FMT_S16P, AV_SAMPLE_FMT_FLT, AV_SAMPLE_FMT_FLTP, AV_SAMPLE_FMT_S32P };
    for (size_t i = 0; i < sizeof taken / sizeof taken[0] && chosen == AV_SAMPLE_FMT_NONE; i++) {
        for (const enum AVSampleFormat *f = codec->sample_fmts; f && *f != AV_SAMPLE_FMT_NONE; f++) {
            if (*f == taken[i]) { chosen = taken[i]; break; }
        }
    }
    if (chosen == AV_SAMPLE_FMT_NONE) { tp_enc_free(enc); return tp_enc_fail(enc, "the encoder takes no samples tplayer gives", 0); }
    AVCodecContext *context = enc->codec;
    context->sample_fmt = chosen;
    context->sample_rate = rate;
    context->time_base = (AVRational){ 1, rate };
    context->bit_rate = bitrate;
    api->channel_layout_default(&context->ch_layout, channels);
    int result;
    if (ogg) {
        result = api->alloc_output_context2(&enc->muxer, NULL, "ogg", NULL);
        if (result < 0 || !enc->muxer) { tp_enc_free(enc); return tp_enc_fail(enc, "no Ogg muxer", result); }
        if (enc->muxer->oformat->flags & AVFMT_GLOBALHEADER) context->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    }
    result = api->codec_open(context, codec, NULL);
    if (result < 0) { tp_enc_free(enc); return tp_enc_fail(enc, "the encoder would not open", result); }
    enc->frame_size = context->frame_size > 0 ? context->frame_size : 1024;
    enc->frame->nb_samples = enc->frame_size;
    enc->frame->format = chosen;
    enc->frame->sample_rate = rate;
    api->channel_layout_copy(&enc->frame->ch_layout, &context->ch_layout);
    result = api->frame_get_buffer(enc->frame, 0);
    if (result < 0) { tp_enc_free(enc); return tp_enc_fail(enc, "out of memory", result); }
    if (!ogg) return 0;
    enc->stream = api->new_stream(enc->muxer, NULL);
    if (!enc->stream) { tp_enc_free(enc); return tp_enc_fail(enc, "out of memory", 0); }
    enc->stream->time_base = (AVRational){ 1, rate };
    result = api->parameters_from_context(enc->stream->codecpar, context);
    if (result < 0) { tp_enc_free(enc); return tp_enc_fail(enc, "the Ogg muxer failed", result); }
    for (const char *const *tag = tags; tag && tag[0] && tag[1]; tag += 2) {
        api->dict_set(&enc->stream->metadata, tag[0], tag[1], 0);
    }
    unsigned char *buffer = api->malloc(4096);
    enc->muxer->pb = buffer ? api->io_alloc(buffer, 4096, 1, enc, NULL, tp_enc_io_write, NULL) : NULL;
    if (!enc->muxer->pb) { if (buffer) api->free(buffer); tp_enc_free(enc); return tp_enc_fail(enc, "out of memory", 0); }
    // Pages of a tenth of a second at most (a second by default): a listener's title and
    // audio arrive as they are sent, and a source that stops loses little.
    AVDictionary *options = NULL;
    api->dict_set(&options, "page_duration", "100000", 0);
    enc->muxer->flush_packets = 1;
    result = api->write_header(enc->muxer, &options);
    api->dict_free(&options);
    if (result < 0) { tp_enc_free(enc); return tp_enc_fail(enc, "the Ogg muxer failed", result); }
    api->io_flush(enc->muxer->pb);
    return enc->failed ? tp_enc_fail(enc, "out of memory", 0) : 0;
}

/// Encodes `frames` frames of interleaved 16-bit samples (NULL: silence); 0, or -1 with
/// `error` set.
static inline int tp_enc_write(tp_enc *enc, const int16_t *samples, size_t frames) {
    const int channels = enc->channels;
    while (frames > 0) {
        if (enc->filled == 0 && enc->api->frame_make_writable(enc->frame) < 0) return tp_enc_fail(enc, "out of memory", 0);
        size_t room = (size_t)(enc->frame_size - enc->filled);
        size_t count = frames < room ? frames : room;
        AVFrame *frame = enc->frame;
        const int at = enc->filled;
        for (size_t i = 0; i < count; i++) {
            for (int c = 0; c < channels; c++) {
                const int16_t sample = samples ? samples[i * (size_t)channels + (size_t)c] : 0;
                const size_t n = (size_t)at + i;
                switch (frame->format) {
                case AV_SAMPLE_FMT_S16: ((int16_t *)frame->data[0])[n * (size_t)channels + (size_t)c] = sample; break;
                case AV_SAMPLE_FMT_S16P: ((int16_t *)frame->data[c])[n] = sample; break;
                case AV_SAMPLE_FMT_FLT: ((float *)frame->data[0])[n * (size_t)channels + (size_t)c] = (float)sample / 32768.0f; break;
                case AV_SAMPLE_FMT_FLTP: ((float *)frame->data[c])[n] = (float)sample / 32768.0f; break;
                case AV_SAMPLE_FMT_S32P: ((int32_t *)frame->data[c])[n] = (int32_t)((uint32_t)(uint16_t)sample << 16); break;
                default: return tp_enc_fail(enc, "an unexpected sample format", 0);
                }
            }
        }
        if (samples) samples += count * (size_t)channels;
        frames -= count;
        enc->filled += (int)count;
        if (enc->filled == enc->frame_size && tp_enc_send(enc) != 0) return -1;
    }
    if (enc->muxer) enc->api->io_flush(enc->muxer->pb);
    return enc->failed ? tp_enc_fail(enc, "out of memory", 0) : 0;
}

/// Ends the stream (an Ogg link's last page, its true length in it), and frees the encoder;
/// what it ends with is in `out`. 0, or -1 with `error` set (freed all the same).
static inline int tp_enc_finish(tp_enc *enc) {
    int result = 0;
    if (enc->codec && (tp_enc_send(enc) != 0 || enc->api->send_frame(enc->codec, NULL) < 0 || tp_enc_drain(enc) != 0)) result = -1;
    if (enc->muxer && result == 0) {
        int written = enc->api->write_trailer(enc->muxer);
        if (written < 0) result = tp_enc_fail(enc, "the Ogg muxer failed", written);
        else enc->api->io_flush(enc->muxer->pb);
    }
    tp_enc_free(enc);
    return result;
}

/// Lets go of what `out` holds (taken).
static inline void tp_enc_taken(tp_enc *enc) { enc->out_length = 0; }

/// Frees `out` too (the encoder is finished or was never opened).
static inline void tp_enc_release(tp_enc *enc) {
    free(enc->out);
    enc->out = NULL;
    enc->out_length = enc->out_capacity = 0;
}

#endif
