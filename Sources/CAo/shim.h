#ifndef TPLAYER_CAO_SHIM_H
#define TPLAYER_CAO_SHIM_H

#include <ao/ao.h>
#include <dlfcn.h>

// libao's ALSA plugin lets libasound print its own multi-line errors to stderr when there is no
// sound card, before libao reports the failure that tplayer turns into one line. libasound's
// error handler is variadic, which Swift cannot write, so the no-op handler lives here. It is
// looked up only if libao already loaded libasound: tplayer does not link it itself.
static void tp_ignore_alsa_error(const char *file, int line, const char *function, int err,
                                 const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}

static inline void tp_silence_alsa_errors(void) {
    void *library = dlopen("libasound.so.2", RTLD_NOW | RTLD_NOLOAD);
    if (library == NULL) return;
    typedef int (*set_handler_fn)(void (*)(const char *, int, const char *, int, const char *, ...));
    set_handler_fn set_handler = (set_handler_fn)dlsym(library, "snd_lib_error_set_handler");
    if (set_handler != NULL) set_handler(tp_ignore_alsa_error);
    dlclose(library);
}

#endif
