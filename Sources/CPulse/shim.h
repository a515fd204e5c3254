#ifndef TPLAYER_CPULSE_SHIM_H
#define TPLAYER_CPULSE_SHIM_H

// libpulse for the native PulseAudio output (`PulseOutput`): its headers (libpulse-dev) and a
// table of the functions used. libpulse is loaded with dlopen when the output is chosen, not
// linked: it brings libpulsecommon, libsndfile and its codecs, libdbus and libsystemd, whose
// loading would cost every run's start-up, `-w` runs included, which never play live.
#include <dlfcn.h>
#include <pulse/context.h>
#include <pulse/introspect.h>
#include <pulse/stream.h>
#include <pulse/thread-mainloop.h>

typedef struct tp_pulse {
    pa_threaded_mainloop *(*mainloop_new)(void);
    int (*mainloop_start)(pa_threaded_mainloop *m);
    void (*mainloop_stop)(pa_threaded_mainloop *m);
    void (*mainloop_free)(pa_threaded_mainloop *m);
    void (*mainloop_lock)(pa_threaded_mainloop *m);
    void (*mainloop_unlock)(pa_threaded_mainloop *m);
    pa_mainloop_api *(*mainloop_get_api)(pa_threaded_mainloop *m);

    pa_context *(*context_new)(pa_mainloop_api *api, const char *name);
    int (*context_connect)(pa_context *c, const char *server, pa_context_flags_t flags, const pa_spawn_api *api);
    void (*context_disconnect)(pa_context *c);
    void (*context_unref)(pa_context *c);
    pa_context_state_t (*context_get_state)(const pa_context *c);
    void (*context_set_state_callback)(pa_context *c, pa_context_notify_cb_t cb, void *userdata);

    pa_stream *(*stream_new)(pa_context *c, const char *name, const pa_sample_spec *ss, const pa_channel_map *map);
    int (*stream_connect_playback)(pa_stream *s, const char *dev, const pa_buffer_attr *attr, pa_stream_flags_t flags,
                                   const pa_cvolume *volume, pa_stream *sync_stream);
    int (*stream_disconnect)(pa_stream *s);
    void (*stream_unref)(pa_stream *s);
    pa_stream_state_t (*stream_get_state)(const pa_stream *s);
    void (*stream_set_state_callback)(pa_stream *s, pa_stream_notify_cb_t cb, void *userdata);
    void (*stream_set_write_callback)(pa_stream *s, pa_stream_request_cb_t cb, void *userdata);
    void (*stream_set_underflow_callback)(pa_stream *s, pa_stream_notify_cb_t cb, void *userdata);
    size_t (*stream_writable_size)(const pa_stream *s);
    int (*stream_write)(pa_stream *s, const void *data, size_t nbytes, pa_free_cb_t free_cb, int64_t offset, pa_seek_mode_t seek);
    pa_operation *(*stream_cork)(pa_stream *s, int b, pa_stream_success_cb_t cb, void *userdata);
    pa_operation *(*stream_flush)(pa_stream *s, pa_stream_success_cb_t cb, void *userdata);
    pa_operation *(*stream_drain)(pa_stream *s, pa_stream_success_cb_t cb, void *userdata);
    int (*stream_get_latency)(pa_stream *s, pa_usec_t *r_usec, int *negative);
    const pa_buffer_attr *(*stream_get_buffer_attr)(pa_stream *s);
    const pa_timing_info *(*stream_get_timing_info)(pa_stream *s);
    pa_operation *(*stream_update_timing_info)(pa_stream *s, pa_stream_success_cb_t cb, void *userdata);
    int64_t (*stream_get_underflow_index)(const pa_stream *s);
    uint32_t (*stream_get_device_index)(const pa_stream *s);
    pa_operation *(*context_get_sink_info_by_index)(pa_context *c, uint32_t idx, pa_sink_info_cb_t cb, void *userdata);

    void (*operation_unref)(pa_operation *o);
    void (*operation_cancel)(pa_operation *o);
    pa_operation_state_t (*operation_get_state)(const pa_operation *o);
} tp_pulse;

/// Loads libpulse and fills `api`; 0 on success, -1 when it or a function is missing.
static inline int tp_pulse_load(tp_pulse *api) {
    void *library = dlopen("libpulse.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!library) return -1;
#define TP_LOAD(field, symbol) if (!(*(void **)&api->field = dlsym(library, #symbol))) return -1
    TP_LOAD(mainloop_new, pa_threaded_mainloop_new);
    TP_LOAD(mainloop_start, pa_threaded_mainloop_start);
    TP_LOAD(mainloop_stop, pa_threaded_mainloop_stop);
    TP_LOAD(mainloop_free, pa_threaded_mainloop_free);
    TP_LOAD(mainloop_lock, pa_threaded_mainloop_lock);
    TP_LOAD(mainloop_unlock, pa_threaded_mainloop_unlock);
    TP_LOAD(mainloop_get_api, pa_threaded_mainloop_get_api);
    TP_LOAD(context_new, pa_context_new);
    TP_LOAD(context_connect, pa_context_connect);
    TP_LOAD(context_disconnect, pa_context_disconnect);
    TP_LOAD(context_unref, pa_context_unref);
    TP_LOAD(context_get_state, pa_context_get_state);
    TP_LOAD(context_set_state_callback, pa_context_set_state_callback);
    TP_LOAD(stream_new, pa_stream_new);
    TP_LOAD(stream_connect_playback, pa_stream_connect_playback);
    TP_LOAD(stream_disconnect, pa_stream_disconnect);
    TP_LOAD(stream_unref, pa_stream_unref);
    TP_LOAD(stream_get_state, pa_stream_get_state);
    TP_LOAD(stream_set_state_callback, pa_stream_set_state_callback);
    TP_LOAD(stream_set_write_callback, pa_stream_set_write_callback);
    TP_LOAD(stream_set_underflow_callback, pa_stream_set_underflow_callback);
    TP_LOAD(stream_writable_size, pa_stream_writable_size);
    TP_LOAD(stream_write, pa_stream_write);
    TP_LOAD(stream_cork, pa_stream_cork);
    TP_LOAD(stream_flush, pa_stream_flush);
    TP_LOAD(stream_drain, pa_stream_drain);
    TP_LOAD(stream_get_latency, pa_stream_get_latency);
    TP_LOAD(stream_get_buffer_attr, pa_stream_get_buffer_attr);
    TP_LOAD(stream_get_timing_info, pa_stream_get_timing_info);
    TP_LOAD(stream_update_timing_info, pa_stream_update_timing_info);
    TP_LOAD(stream_get_underflow_index, pa_stream_get_underflow_index);
    TP_LOAD(stream_get_device_index, pa_stream_get_device_index);
    TP_LOAD(context_get_sink_info_by_index, pa_context_get_sink_info_by_index);
    TP_LOAD(operation_unref, pa_operation_unref);
    TP_LOAD(operation_cancel, pa_operation_cancel);
    TP_LOAD(operation_get_state, pa_operation_get_state);
#undef TP_LOAD
    return 0;
}

#endif
