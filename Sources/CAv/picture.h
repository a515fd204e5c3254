#ifndef TPLAYER_CAV_PICTURE_H
#define TPLAYER_CAV_PICTURE_H

// A song's cover, in C: the picture a song holds (ID3 APIC, FLAC PICTURE, MP4 covr, Vorbis
// METADATA_BLOCK_PICTURE: FFmpeg shows each as an attached picture) read through the descriptor
// tplayer opened, and a picture's bytes (embedded, or cover.jpg) decoded by libavcodec and made
// into 8-bit RGBA, scaled down to at most `max_side` pixels a side by averaging. A picture over
// `max_pixels` is refused by the decoder before it allocates it (AVCodecContext.max_pixels).
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <libavutil/pixdesc.h>

enum {
    TP_PICTURE_OK = 0,
    /// The song holds no picture.
    TP_PICTURE_NONE = 1,
    /// The container or the picture could not be read.
    TP_PICTURE_BAD = -1,
    /// Over the bytes or pixels allowed.
    TP_PICTURE_TOO_LARGE = -2,
    /// No decoder for the picture's format, or a pixel format not read here.
    TP_PICTURE_UNSUPPORTED = -3,
    TP_PICTURE_NO_MEMORY = -4,
};

typedef struct tp_picture_api {
    tp_av av;
    const AVPixFmtDescriptor *(*pix_fmt_desc_get)(enum AVPixelFormat);
} tp_picture_api;

/// Loads FFmpeg and the pixel formats' table; 0 on success.
static inline int tp_picture_load(tp_picture_api *api) {
    if (tp_av_load(&api->av) != 0) return -1;
    void *util = dlopen(TP_AV_UTIL_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (!util) return -1;
    return (*(void **)&api->pix_fmt_desc_get = dlsym(util, "av_pix_fmt_desc_get")) ? 0 : -1;
}

typedef struct tp_picture_file {
    int fd;
    int64_t size;
    int64_t position;
    /// Bytes read so far, and the most that may be: a tag is read whole by the demuxer (a
    /// 200 MB APIC would be), so reading stops at the bound instead.
    int64_t read;
    int64_t limit;
} tp_picture_file;

/// The demuxers whose containers hold pictures; no other is tried (FFmpeg's HLS or DASH would
/// take a file that starts like a playlist and fetch what it names).
#define TP_PICTURE_DEMUXERS "mp3,flac,ogg,mov,matroska,asf,ape,wv,wav,aiff,w64,dsf,tta,tak"

static inline int tp_picture_io_read(void *opaque, uint8_t *buffer, int size) {
    tp_picture_file *file = opaque;
    if (file->position >= file->size) return AVERROR_EOF;
    if (file->read >= file->limit) return AVERROR(EFBIG);
    ssize_t count;
    do {
        count = pread(file->fd, buffer, (size_t)size, file->position);
    } while (count < 0 && errno == EINTR);
    if (count < 0) return AVERROR(errno);
    if (count == 0) return AVERROR_EOF;
    file->position += count;
    file->read += count;
    return (int)count;
}

static inline int64_t tp_picture_io_seek(void *opaque, int64_t offset, int whence) {
    tp_picture_file *file = opaque;
    switch (whence & ~AVSEEK_FORCE) {
    case AVSEEK_SIZE: return file->size;
    case SEEK_SET: break;
    case SEEK_CUR: offset += file->position; break;
    case SEEK_END: offset += file->size; break;
    default: return -1;
    }
    if (offset < 0) return -1;
    file->position = offset;
    return offset;
}

/// The first picture attached to the song open at `fd` (`file_size` bytes): a copy in `*data`
/// (free it with `free`), its codec in `*codec`. Over `max_bytes`: TP_PICTURE_TOO_LARGE, its
/// size in `*size`.
static inline int tp_picture_embedded(const tp_picture_api *api, int fd, int64_t file_size, size_t max_bytes,
                                      uint8_t **data, size_t *size, int *codec) {
    const tp_av *av = &api->av;
    *data = NULL;
    *size = 0;
    // The picture, and a few MB of the rest of the header (an MP4's moov) around it.
    tp_picture_file file = {fd, file_size, 0, 0, (int64_t)max_bytes + 8 * 1024 * 1024};
    unsigned char *buffer = av->malloc(TP_AV_IO_BUFFER);
    if (!buffer) return TP_PICTURE_NO_MEMORY;
    AVIOContext *io = av->io_alloc(buffer, TP_AV_IO_BUFFER, 0, &file, tp_picture_io_read, NULL, tp_picture_io_seek);
    if (!io) {
        av->free(buffer);
        return TP_PICTURE_NO_MEMORY;
    }
    AVFormatContext *format = av->format_alloc();
    int result = TP_PICTURE_NO_MEMORY;
    if (format) {
        format->pb = io;
        format->flags |= AVFMT_FLAG_CUSTOM_IO;
        format->io_open = tp_av_io_refuse;
        format->io_close2 = tp_av_io_close_none;
        AVDictionary *options = NULL;
        av->dict_set(&options, "format_whitelist", TP_PICTURE_DEMUXERS, 0);
        av->dict_set(&options, "protocol_whitelist", "", 0);
        // Only the container's header is read: the pictures are in it.
        int opened = av->open_input(&format, "", NULL, &options);
        av->dict_free(&options);
        if (opened < 0) {
            // The context is freed on failure.
            result = file.read >= file.limit ? TP_PICTURE_TOO_LARGE : TP_PICTURE_BAD;
            *size = (size_t)file.read;
        } else {
            result = TP_PICTURE_NONE;
            for (unsigned i = 0; i < format->nb_streams; i++) {
                const AVStream *stream = format->streams[i];
                if (!(stream->disposition & AV_DISPOSITION_ATTACHED_PIC) || stream->attached_pic.size <= 0) continue;
                *size = (size_t)stream->attached_pic.size;
                *codec = stream->codecpar->codec_id;
                if (*size > max_bytes) {
                    result = TP_PICTURE_TOO_LARGE;
                    break;
                }
                *data = malloc(*size);
                if (!*data) {
                    result = TP_PICTURE_NO_MEMORY;
                    break;
                }
                memcpy(*data, stream->attached_pic.data, *size);
                result = TP_PICTURE_OK;
                break;
            }
            av->close_input(&format);
        }
    }
    av->free(io->buffer);
    av->io_free(&io);
    return result;
}

/// One component of the pixel at (x, y), as 8 bits.
static inline int tp_picture_component(const AVPixFmtDescriptor *d, const AVFrame *frame, int c, int x, int y) {
    const AVComponentDescriptor *comp = &d->comp[c];
    if (c == 1 || c == 2) {
        if (!(d->flags & AV_PIX_FMT_FLAG_RGB)) {
            x >>= d->log2_chroma_w;
            y >>= d->log2_chroma_h;
        }
    }
    const uint8_t *p = frame->data[comp->plane] + (ptrdiff_t)y * frame->linesize[comp->plane] + (ptrdiff_t)x * comp->step
                       + comp->offset;
    int bits = comp->depth + comp->shift;
    int word = bits <= 8 ? p[0] : (d->flags & AV_PIX_FMT_FLAG_BE) ? (p[0] << 8 | p[1]) : (p[1] << 8 | p[0]);
    int value = (word >> comp->shift) & ((1 << comp->depth) - 1);
    if (comp->depth > 8) return value >> (comp->depth - 8);
    if (comp->depth < 8) return value * 255 / ((1 << comp->depth) - 1);
    return value;
}

static inline uint8_t tp_picture_clamp(double value) {
    return value < 0 ? 0 : value > 255 ? 255 : (uint8_t)(value + 0.5);
}

/// The pixel at (x, y) as RGBA.
static inline void tp_picture_pixel(const AVPixFmtDescriptor *d, const AVFrame *frame, int full_range, int x, int y,
                                    uint8_t rgba[4]) {
    if (d->flags & AV_PIX_FMT_FLAG_PAL) {
        uint32_t entry = ((const uint32_t *)frame->data[1])[frame->data[0][(ptrdiff_t)y * frame->linesize[0] + x]];
        rgba[0] = entry >> 16;
        rgba[1] = entry >> 8;
        rgba[2] = entry;
        rgba[3] = entry >> 24;
        return;
    }
    int components = d->nb_components;
    rgba[3] = (d->flags & AV_PIX_FMT_FLAG_ALPHA) ? tp_picture_component(d, frame, components - 1, x, y) : 255;
    if (d->flags & AV_PIX_FMT_FLAG_RGB) {
        for (int c = 0; c < 3; c++) rgba[c] = tp_picture_component(d, frame, c, x, y);
        return;
    }
    double luma = tp_picture_component(d, frame, 0, x, y);
    double blue = 0, red = 0;
    if (components >= 3) {
        blue = tp_picture_component(d, frame, 1, x, y) - 128.0;
        red = tp_picture_component(d, frame, 2, x, y) - 128.0;
    }
    if (!full_range) {
        luma = (luma - 16) * 255 / 219;
        blue = blue * 255 / 224;
        red = red * 255 / 224;
    }
    // BT.601, as JPEG's YCbCr is.
    rgba[0] = tp_picture_clamp(luma + 1.402 * red);
    rgba[1] = tp_picture_clamp(luma - 0.344136 * blue - 0.714136 * red);
    rgba[2] = tp_picture_clamp(luma + 1.772 * blue);
}

/// Decodes the picture `data` holds (`codec`), refusing one of more than `max_pixels`, into RGBA
/// (`*rgba`, free it with `free`) of at most `max_side` pixels a side; its own size in
/// `*source_width` and `*source_height` when the decoder got as far as reading it.
static inline int tp_picture_decode(const tp_picture_api *api, const uint8_t *data, size_t size, int codec,
                                    int64_t max_pixels, int max_side, uint8_t **rgba, int *width, int *height,
                                    int *source_width, int *source_height) {
    const tp_av *av = &api->av;
    *rgba = NULL;
    *width = *height = *source_width = *source_height = 0;
    if (size == 0 || size > INT32_MAX - AV_INPUT_BUFFER_PADDING_SIZE || max_side <= 0) return TP_PICTURE_BAD;
    const AVCodec *decoder = av->find_decoder((enum AVCodecID)codec);
    if (!decoder || decoder->type != AVMEDIA_TYPE_VIDEO) return TP_PICTURE_UNSUPPORTED;
    AVCodecContext *context = av->codec_alloc(decoder);
    AVPacket *packet = av->packet_alloc();
    AVFrame *frame = av->frame_alloc();
    uint8_t *padded = av->malloc(size + AV_INPUT_BUFFER_PADDING_SIZE);
    int result = TP_PICTURE_NO_MEMORY;
    if (!context || !packet || !frame || !padded) goto done;
    memcpy(padded, data, size);
    memset(padded + size, 0, AV_INPUT_BUFFER_PADDING_SIZE);
    context->max_pixels = max_pixels;
    context->thread_count = 1;
    result = TP_PICTURE_BAD;
    if (av->codec_open(context, decoder, NULL) < 0) goto done;
    packet->data = padded;
    packet->size = (int)size;
    int sent = av->send_packet(context, packet);
    packet->data = NULL;
    packet->size = 0;
    *source_width = context->width;
    *source_height = context->height;
    // A size over max_pixels is refused by av_image_check_size2, with EINVAL (damage is
    // AVERROR_INVALIDDATA), before the picture's memory is taken.
    if (sent < 0) {
        if (sent == AVERROR(EINVAL)) result = TP_PICTURE_TOO_LARGE;
        goto done;
    }
    av->send_packet(context, NULL);
    int received = av->receive_frame(context, frame);
    if (received < 0 || frame->width <= 0 || frame->height <= 0) {
        if (received == AVERROR(EINVAL)) result = TP_PICTURE_TOO_LARGE;
        goto done;
    }
    *source_width = frame->width;
    *source_height = frame->height;
    if ((int64_t)frame->width * frame->height > max_pixels) {
        result = TP_PICTURE_TOO_LARGE;
        goto done;
    }
    const AVPixFmtDescriptor *d = api->pix_fmt_desc_get((enum AVPixelFormat)frame->format);
    result = TP_PICTURE_UNSUPPORTED;
    if (!d || (d->flags & (AV_PIX_FMT_FLAG_BITSTREAM | AV_PIX_FMT_FLAG_HWACCEL | AV_PIX_FMT_FLAG_FLOAT | AV_PIX_FMT_FLAG_BAYER))
        || d->nb_components < 1 || ((d->flags & AV_PIX_FMT_FLAG_PAL) && !frame->data[1])) goto done;
    for (int c = 0; c < d->nb_components; c++) {
        if (d->comp[c].depth < 1 || d->comp[c].depth > 16 || d->comp[c].depth + d->comp[c].shift > 16) goto done;
    }
    if (strncmp(d->name, "xyz", 3) == 0) goto done;
    // Limited range only where it is said, or where a YUV picture (not gray, not RGB) says nothing.
    int full_range = strncmp(d->name, "yuvj", 4) == 0 || frame->color_range == AVCOL_RANGE_JPEG
                     || (frame->color_range == AVCOL_RANGE_UNSPECIFIED && d->nb_components < 3);
    // The size drawn: the picture's, or fitted within max_side keeping its shape.
    int w = frame->width, h = frame->height;
    if (w > max_side || h > max_side) {
        if (w >= h) {
            h = (int)((int64_t)h * max_side / w);
            w = max_side;
        } else {
            w = (int)((int64_t)w * max_side / h);
            h = max_side;
        }
        if (w < 1) w = 1;
        if (h < 1) h = 1;
    }
    result = TP_PICTURE_NO_MEMORY;
    uint8_t *out = malloc((size_t)w * h * 4);
    uint64_t *sums = calloc((size_t)w * 5, sizeof(uint64_t));
    if (!out || !sums) {
        free(out);
        free(sums);
        goto done;
    }
    // Each row of the output averages the rows of the picture that fall in it: at most 4 × 4
    // of each output pixel's source pixels are read (a stride past that), so a picture at the
    // largest size costs as one of 2048 × 2048 (a 4096 × 4096 PNG that compresses to almost
    // nothing, a "decompression bomb", spent seconds here).
    int step_x = frame->width / w / 4, step_y = frame->height / h / 4;
    if (step_x < 1) step_x = 1;
    if (step_y < 1) step_y = 1;
    for (int oy = 0; oy < h; oy++) {
        int y0 = (int)((int64_t)oy * frame->height / h), y1 = (int)((int64_t)(oy + 1) * frame->height / h);
        if (y1 <= y0) y1 = y0 + 1;
        memset(sums, 0, (size_t)w * 5 * sizeof(uint64_t));
        for (int y = y0; y < y1; y += step_y) {
            for (int x = 0; x < frame->width; x += step_x) {
                uint8_t pixel[4];
                tp_picture_pixel(d, frame, full_range, x, y, pixel);
                uint64_t *sum = sums + (size_t)((int64_t)x * w / frame->width) * 5;
                sum[0] += pixel[0];
                sum[1] += pixel[1];
                sum[2] += pixel[2];
                sum[3] += pixel[3];
                sum[4] += 1;
            }
        }
        for (int ox = 0; ox < w; ox++) {
            const uint64_t *sum = sums + (size_t)ox * 5;
            uint8_t *pixel = out + ((size_t)oy * w + ox) * 4;
            for (int c = 0; c < 4; c++) pixel[c] = sum[4] ? (uint8_t)(sum[c] / sum[4]) : 0;
        }
    }
    free(sums);
    *rgba = out;
    *width = w;
    *height = h;
    result = TP_PICTURE_OK;
done:
    av->free(padded);
    av->frame_free(&frame);
    av->packet_free(&packet);
    av->codec_free(&context);
    return result;
}

#endif
