#ifndef TPLAYER_CAV_SHIM_H
#define TPLAYER_CAV_SHIM_H

// FFmpeg for every format no other library decodes (`FFmpegDecoder`: AAC and ALAC in MP4, WAV,
// AIFF, APE, WavPack, WMA, Matroska, CAF…): libavformat reads the container, libavcodec decodes
// and libswresample turns the samples into interleaved 16-bit ones, as the ffmpeg command does.
// Their headers (libavformat-dev, libavcodec-dev, libswresample-dev) and a table of the functions
// used, loaded with dlopen when the first such song opens, not linked, so that an MP3 run starts
// as it did. The decoding loop itself is in song.h, in C.
#include <dlfcn.h>
#include <stdint.h>
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/avutil.h>
#include <libavutil/channel_layout.h>
#include <libavutil/replaygain.h>
#include <libswresample/swresample.h>

#define TP_AV_STRINGIFY(x) #x
#define TP_AV_SONAME(name, major) "lib" name ".so." TP_AV_STRINGIFY(major)
/// The sonames of the libraries whose headers this was built with (Debian 12: FFmpeg 5.1,
/// libavformat.so.59, libavcodec.so.59, libavutil.so.57, libswresample.so.4).
#define TP_AV_FORMAT_LIBRARY TP_AV_SONAME("avformat", LIBAVFORMAT_VERSION_MAJOR)
#define TP_AV_CODEC_LIBRARY TP_AV_SONAME("avcodec", LIBAVCODEC_VERSION_MAJOR)
#define TP_AV_UTIL_LIBRARY TP_AV_SONAME("avutil", LIBAVUTIL_VERSION_MAJOR)
#define TP_AV_RESAMPLE_LIBRARY TP_AV_SONAME("swresample", LIBSWRESAMPLE_VERSION_MAJOR)

typedef struct tp_av {
    // libavutil
    void (*log_set_level)(int);
    void *(*malloc)(size_t);
    void (*free)(void *);
    AVFrame *(*frame_alloc)(void);
    void (*frame_free)(AVFrame **);
    AVDictionaryEntry *(*dict_get)(const AVDictionary *, const char *, const AVDictionaryEntry *, int);
    int (*dict_set)(AVDictionary **, const char *, const char *, int);
    void (*dict_free)(AVDictionary **);
    int (*channel_layout_copy)(AVChannelLayout *, const AVChannelLayout *);
    void (*channel_layout_uninit)(AVChannelLayout *);
    void (*channel_layout_default)(AVChannelLayout *, int);
    int64_t (*rescale_q)(int64_t, AVRational, AVRational);
    int (*strerror)(int, char *, size_t);
    // libavcodec
    const AVCodec *(*find_decoder)(enum AVCodecID);
    AVCodecContext *(*codec_alloc)(const AVCodec *);
    void (*codec_free)(AVCodecContext **);
    int (*parameters_to_context)(AVCodecContext *, const AVCodecParameters *);
    int (*codec_open)(AVCodecContext *, const AVCodec *, AVDictionary **);
    int (*send_packet)(AVCodecContext *, const AVPacket *);
    int (*receive_frame)(AVCodecContext *, AVFrame *);
    void (*flush_buffers)(AVCodecContext *);
    AVPacket *(*packet_alloc)(void);
    void (*packet_free)(AVPacket **);
    void (*packet_unref)(AVPacket *);
    const char *(*codec_name)(enum AVCodecID);
    // libavformat
    AVFormatContext *(*format_alloc)(void);
    int (*open_input)(AVFormatContext **, const char *, const AVInputFormat *, AVDictionary **);
    const AVInputFormat *(*find_input_format)(const char *);
    int (*find_stream_info)(AVFormatContext *, AVDictionary **);
    int (*find_best_stream)(AVFormatContext *, enum AVMediaType, int, int, const AVCodec **, int);
    void (*close_input)(AVFormatContext **);
    AVIOContext *(*io_alloc)(unsigned char *, int, int, void *, int (*)(void *, uint8_t *, int),
                             int (*)(void *, uint8_t *, int), int64_t (*)(void *, int64_t, int));
    void (*io_free)(AVIOContext **);
    int (*read_frame)(AVFormatContext *, AVPacket *);
    int (*seek_frame)(AVFormatContext *, int, int64_t, int);
    uint8_t *(*stream_side_data)(const AVStream *, enum AVPacketSideDataType, size_t *);
    // libswresample
    int (*swr_alloc_set_opts2)(struct SwrContext **, AVChannelLayout *, enum AVSampleFormat, int, AVChannelLayout *,
                               enum AVSampleFormat, int, int, void *);
    int (*swr_init)(struct SwrContext *);
    void (*swr_free)(struct SwrContext **);
    int (*swr_convert)(struct SwrContext *, uint8_t **, int, const uint8_t **, int);
} tp_av;

/// Loads the four libraries and fills `api`; 0 on success, -1 when one of them or a function is
/// missing. FFmpeg's log is silenced: it would print over the terminal's status line.
static inline int tp_av_load(tp_av *api) {
    void *util = dlopen(TP_AV_UTIL_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    void *codec = dlopen(TP_AV_CODEC_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    void *format = dlopen(TP_AV_FORMAT_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    void *resample = dlopen(TP_AV_RESAMPLE_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (!util || !codec || !format || !resample) return -1;
#define TP_AV_LOAD(library, field, symbol) if (!(*(void **)&api->field = dlsym(library, #symbol))) return -1
    TP_AV_LOAD(util, log_set_level, av_log_set_level);
    TP_AV_LOAD(util, malloc, av_malloc);
    TP_AV_LOAD(util, free, av_free);
    TP_AV_LOAD(util, frame_alloc, av_frame_alloc);
    TP_AV_LOAD(util, frame_free, av_frame_free);
    TP_AV_LOAD(util, dict_get, av_dict_get);
    TP_AV_LOAD(util, dict_set, av_dict_set);
    TP_AV_LOAD(util, dict_free, av_dict_free);
    TP_AV_LOAD(util, channel_layout_copy, av_channel_layout_copy);
    TP_AV_LOAD(util, channel_layout_uninit, av_channel_layout_uninit);
    TP_AV_LOAD(util, channel_layout_default, av_channel_layout_default);
    TP_AV_LOAD(util, rescale_q, av_rescale_q);
    TP_AV_LOAD(util, strerror, av_strerror);
    TP_AV_LOAD(codec, find_decoder, avcodec_find_decoder);
    TP_AV_LOAD(codec, codec_alloc, avcodec_alloc_context3);
    TP_AV_LOAD(codec, codec_free, avcodec_free_context);
    TP_AV_LOAD(codec, parameters_to_context, avcodec_parameters_to_context);
    TP_AV_LOAD(codec, codec_open, avcodec_open2);
    TP_AV_LOAD(codec, send_packet, avcodec_send_packet);
    TP_AV_LOAD(codec, receive_frame, avcodec_receive_frame);
    TP_AV_LOAD(codec, flush_buffers, avcodec_flush_buffers);
    TP_AV_LOAD(codec, packet_alloc, av_packet_alloc);
    TP_AV_LOAD(codec, packet_free, av_packet_free);
    TP_AV_LOAD(codec, packet_unref, av_packet_unref);
    TP_AV_LOAD(codec, codec_name, avcodec_get_name);
    TP_AV_LOAD(format, format_alloc, avformat_alloc_context);
    TP_AV_LOAD(format, open_input, avformat_open_input);
    TP_AV_LOAD(format, find_input_format, av_find_input_format);
    TP_AV_LOAD(format, find_stream_info, avformat_find_stream_info);
    TP_AV_LOAD(format, find_best_stream, av_find_best_stream);
    TP_AV_LOAD(format, close_input, avformat_close_input);
    TP_AV_LOAD(format, io_alloc, avio_alloc_context);
    TP_AV_LOAD(format, io_free, avio_context_free);
    TP_AV_LOAD(format, read_frame, av_read_frame);
    TP_AV_LOAD(format, seek_frame, av_seek_frame);
    TP_AV_LOAD(format, stream_side_data, av_stream_get_side_data);
    TP_AV_LOAD(resample, swr_alloc_set_opts2, swr_alloc_set_opts2);
    TP_AV_LOAD(resample, swr_init, swr_init);
    TP_AV_LOAD(resample, swr_free, swr_free);
    TP_AV_LOAD(resample, swr_convert, swr_convert);
#undef TP_AV_LOAD
    api->log_set_level(AV_LOG_QUIET);
    return 0;
}

/// The sonames, for messages.
static inline const char *tp_av_library(void) { return TP_AV_FORMAT_LIBRARY; }

#include "song.h"
#include "hls.h"
#include "picture.h"
#include "encode.h"

#endif
