#ifndef TPLAYER_CAV_HLS_H
#define TPLAYER_CAV_HLS_H

// HLS (a playlist of segments, `#EXT-X-` tags) through FFmpeg's demuxer, every URL it names
// opened by tplayer's own network side (`tp_av_open_url`: libcurl, http and https only, TLS
// verified, the same bounds as every stream), never by FFmpeg's own protocols: the demuxer's
// io_open and io_close2 hand out and take back AVIOContexts over those sources.

/// A source the demuxer reads. Its first field is NULL: FFmpeg's option search looks through an
/// AVIOContext's opaque as if it were an object with an AVClass, and finds none here.
typedef struct tp_av_nested {
    const void *no_class;
    tp_source source;
    int64_t offset;
} tp_av_nested;

static int tp_av_nested_read(void *opaque, uint8_t *buffer, int size) {
    tp_av_nested *nested = opaque;
    return tp_av_read_source(&nested->source, &nested->offset, buffer, size);
}

static int tp_av_io_open(AVFormatContext *format, AVIOContext **pb, const char *url, int flags, AVDictionary **options) {
    tp_av_song *s = format->opaque;
    if (!s || !s->open_url || !url || (flags & AVIO_FLAG_WRITE)) return AVERROR(EPERM);
    const tp_av *api = &s->api;
    // A segment that is a part of a file (#EXT-X-BYTERANGE) comes with its offsets: not read yet.
    if (options && *options && api->dict_get(*options, "end_offset", NULL, 0)) {
        s->ranged_segment = 1;
        return AVERROR(ENOSYS);
    }
    tp_av_nested *nested = api->malloc(sizeof *nested);
    if (!nested) return AVERROR(ENOMEM);
    memset(nested, 0, sizeof *nested);
    int result = s->open_url(s->opener, url, &nested->source);
    if (result < 0) {
        api->free(nested);
        return result;
    }
    unsigned char *buffer = api->malloc(TP_AV_IO_BUFFER);
    AVIOContext *io = buffer ? api->io_alloc(buffer, TP_AV_IO_BUFFER, 0, nested, tp_av_nested_read, NULL, NULL) : NULL;
    if (!io) {
        api->free(buffer);
        s->close_url(s->opener, nested->source.context);
        api->free(nested);
        return AVERROR(ENOMEM);
    }
    io->seekable = 0;
    *pb = io;
    return 0;
}

static inline void tp_av_close_nested(tp_av_song *s, AVIOContext **io) {
    const tp_av *api = &s->api;
    if (!*io) return;
    tp_av_nested *nested = (*io)->opaque;
    if (nested) {
        if (s->close_url) s->close_url(s->opener, nested->source.context);
        api->free(nested);
    }
    api->free((*io)->buffer);
    api->io_free(io);
}

static int tp_av_io_close2(AVFormatContext *format, AVIOContext *pb) {
    tp_av_song *s = format->opaque;
    if (s && pb) tp_av_close_nested(s, &pb);
    return 0;
}

static int tp_av_io_interrupted(void *opaque) {
    tp_av_song *s = opaque;
    return s && s->interrupted ? s->interrupted(s->opener) : 0;
}

/// Opens the HLS stream at `url`: its playlist, its segments, each through `open_url`; then its
/// first audio stream, as `tp_av_open` does. 0, or a TP_AV_* or AVERROR code.
static inline int tp_av_open_hls(tp_av_song *s, const char *url, tp_av_open_url open_url, tp_av_close_url close_url,
                                 tp_av_interrupted interrupted, void *opener) {
    const tp_av *api = &s->api;
    tp_av_reset(s);
    s->open_url = open_url;
    s->close_url = close_url;
    s->interrupted = interrupted;
    s->opener = opener;
    s->format = api->format_alloc();
    if (!s->format) return AVERROR(ENOMEM);
    s->format->opaque = s;
    s->format->io_open = tp_av_io_open;
    s->format->io_close2 = tp_av_io_close2;
    s->format->interrupt_callback.callback = tp_av_io_interrupted;
    s->format->interrupt_callback.opaque = s;
    // The playlist itself is opened here, as the song's own input: FFmpeg closes what it opened
    // with avio_close, which only its own protocols may be given.
    int result = tp_av_io_open(s->format, &s->io, url, AVIO_FLAG_READ, NULL);
    if (result < 0) return result;
    s->io_nested = 1;
    s->format->pb = s->io;
    s->format->flags |= AVFMT_FLAG_CUSTOM_IO;
    const AVInputFormat *hls = api->find_input_format("hls");
    if (!hls) return TP_AV_NOT_AUDIO;
    AVDictionary *options = NULL;
    // One request a URL: keeping a connection open is FFmpeg's http protocol's, not ours.
    api->dict_set(&options, "http_persistent", "0", 0);
    api->dict_set(&options, "http_multiple", "0", 0);
    // A live playlist that brings nothing new for six reloads in a row, or fails six times, ends.
    api->dict_set(&options, "m3u8_hold_counters", "6", 0);
    api->dict_set(&options, "max_reload", "6", 0);
    result = api->open_input(&s->format, url, hls, &options);
    api->dict_free(&options);
    if (result < 0) return result;  // the context is freed on failure
    return tp_av_begin(s, 0);
}

#endif
