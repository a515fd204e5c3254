#ifndef TPLAYER_CRUBBERBAND_SHIM_H
#define TPLAYER_CRUBBERBAND_SHIM_H

// librubberband, the time-stretcher that plays a song faster or slower at the same pitch
// (`--speed`, `TimeStretcher`). Loaded with dlopen the first time a speed other than 1 plays,
// not linked: a run at the song's own speed never maps it.
#include <dlfcn.h>
#include <rubberband/rubberband-c.h>

typedef struct tp_rubberband {
    RubberBandState (*new_)(unsigned int rate, unsigned int channels, RubberBandOptions options, double time_ratio,
                            double pitch_scale);
    void (*delete_)(RubberBandState);
    void (*reset)(RubberBandState);
    unsigned int (*preferred_start_pad)(const RubberBandState);
    unsigned int (*start_delay)(const RubberBandState);
    void (*set_max_process_size)(RubberBandState, unsigned int samples);
    void (*process)(RubberBandState, const float *const *input, unsigned int samples, int final);
    int (*available)(const RubberBandState);
    unsigned int (*retrieve)(const RubberBandState, float *const *output, unsigned int samples);
} tp_rubberband;

/// Loads librubberband and fills `api`; 0 on success, -1 when it or a function is missing.
static inline int tp_rubberband_load(tp_rubberband *api) {
    void *library = dlopen("librubberband.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!library) return -1;
#define TP_RB_LOAD(field, symbol) if (!(*(void **)&api->field = dlsym(library, #symbol))) return -1
    TP_RB_LOAD(new_, rubberband_new);
    TP_RB_LOAD(delete_, rubberband_delete);
    TP_RB_LOAD(reset, rubberband_reset);
    TP_RB_LOAD(preferred_start_pad, rubberband_get_preferred_start_pad);
    TP_RB_LOAD(start_delay, rubberband_get_start_delay);
    TP_RB_LOAD(set_max_process_size, rubberband_set_max_process_size);
    TP_RB_LOAD(process, rubberband_process);
    TP_RB_LOAD(available, rubberband_available);
    TP_RB_LOAD(retrieve, rubberband_retrieve);
#undef TP_RB_LOAD
    return 0;
}

/// A real-time stretcher (it takes audio as it comes) of the finer engine (R3), one thread, pitch
/// kept, for `channels` channels at `rate`, playing `speed` times as fast. R3, not the faster R2
/// (a third of its CPU): R3's output is where its stated start delay says, at every speed, so a
/// seek lands where it was asked; R2's wanders by up to 50 ms with the speed.
static inline RubberBandState tp_rubberband_new(const tp_rubberband *api, unsigned rate, unsigned channels, double speed) {
    RubberBandOptions options = RubberBandOptionProcessRealTime | RubberBandOptionEngineFiner
        | RubberBandOptionThreadingNever;
    return api->new_(rate, channels, options, 1.0 / speed, 1.0);
}

#endif
