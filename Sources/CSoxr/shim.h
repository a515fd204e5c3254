#ifndef TPLAYER_CSOXR_SHIM_H
#define TPLAYER_CSOXR_SHIM_H

// libsoxr, the resampler that converts a song to the format of the file `-w` writes when its rate
// differs from the first song's (`PCMConverter`). Loaded with dlopen the first time a song needs
// it, not linked: most runs never resample (libmpg123 converts MPEG audio itself).
#include <dlfcn.h>
#include <soxr.h>

typedef struct tp_soxr {
    soxr_t (*create)(double input_rate, double output_rate, unsigned num_channels, soxr_error_t *error,
                     soxr_io_spec_t const *io_spec, soxr_quality_spec_t const *quality_spec,
                     soxr_runtime_spec_t const *runtime_spec);
    soxr_error_t (*process)(soxr_t resampler, soxr_in_t in, size_t ilen, size_t *idone, soxr_out_t out, size_t olen,
                            size_t *odone);
    soxr_error_t (*clear)(soxr_t resampler);
    void (*delete_)(soxr_t resampler);
    soxr_io_spec_t (*io_spec)(soxr_datatype_t itype, soxr_datatype_t otype);
    soxr_quality_spec_t (*quality_spec)(unsigned long recipe, unsigned long flags);
} tp_soxr;

/// Loads libsoxr and fills `api`; 0 on success, -1 when it or a function is missing.
static inline int tp_soxr_load(tp_soxr *api) {
    void *library = dlopen("libsoxr.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!library) return -1;
#define TP_SOXR_LOAD(field, symbol) if (!(*(void **)&api->field = dlsym(library, #symbol))) return -1
    TP_SOXR_LOAD(create, soxr_create);
    TP_SOXR_LOAD(process, soxr_process);
    TP_SOXR_LOAD(clear, soxr_clear);
    TP_SOXR_LOAD(delete_, soxr_delete);
    TP_SOXR_LOAD(io_spec, soxr_io_spec);
    TP_SOXR_LOAD(quality_spec, soxr_quality_spec);
#undef TP_SOXR_LOAD
    return 0;
}

/// A high-quality resampler of interleaved samples of `type` (SOXR_INT16_I or SOXR_FLOAT64_I),
/// without dither (the same input always gives the same output); NULL with `*error` set when it
/// cannot be made.
static inline soxr_t tp_soxr_new(const tp_soxr *api, double input_rate, double output_rate, unsigned channels,
                                 soxr_datatype_t type, soxr_error_t *error) {
    soxr_io_spec_t io = api->io_spec(type, type);
    io.flags |= SOXR_NO_DITHER;
    soxr_quality_spec_t quality = api->quality_spec(SOXR_HQ, 0);
    return api->create(input_rate, output_rate, channels, error, &io, &quality, NULL);
}

#endif
