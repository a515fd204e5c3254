#ifndef TPLAYER_CSDBUS_SHIM_H
#define TPLAYER_CSDBUS_SHIM_H

// sd-bus (libsystemd) for MPRIS. Swift cannot import its vtable macros (SD_BUS_METHOD and
// friends build a static table) nor call its variadic functions, so this header builds the two
// MPRIS vtables in C, with trampolines that hand every method call, property read and property
// write to three Swift callbacks. Everything else Swift calls directly: the non-variadic
// functions (sd_bus_message_append_basic, open/close_container, read_basic,
// sd_bus_emit_properties_changed_strv, sd_bus_send).
#include <systemd/sd-bus.h>

/// The Swift side: one context pointer and three functions, handed to sd-bus as userdata.
typedef struct tp_bus_handlers {
    void *context;
    /// A method call on `interface`: the handler replies (or returns a negative errno).
    int (*method)(void *context, sd_bus_message *message, const char *interface, const char *member, sd_bus_error *error);
    /// A property read: the handler appends the value to `reply`.
    int (*get)(void *context, const char *interface, const char *property, sd_bus_message *reply, sd_bus_error *error);
    /// A property write: the handler reads the value from `value`.
    int (*set)(void *context, const char *interface, const char *property, sd_bus_message *value, sd_bus_error *error);
} tp_bus_handlers;

static int tp_bus_method(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    tp_bus_handlers *h = (tp_bus_handlers *)userdata;
    return h->method(h->context, m, sd_bus_message_get_interface(m), sd_bus_message_get_member(m), error);
}

static int tp_bus_get(sd_bus *bus, const char *path, const char *interface, const char *property,
                      sd_bus_message *reply, void *userdata, sd_bus_error *error) {
    (void)bus; (void)path;
    tp_bus_handlers *h = (tp_bus_handlers *)userdata;
    return h->get(h->context, interface, property, reply, error);
}

static int tp_bus_set(sd_bus *bus, const char *path, const char *interface, const char *property,
                      sd_bus_message *value, void *userdata, sd_bus_error *error) {
    (void)bus; (void)path;
    tp_bus_handlers *h = (tp_bus_handlers *)userdata;
    return h->set(h->context, interface, property, value, error);
}

#define TP_CHANGES SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE
#define TP_ALWAYS  SD_BUS_VTABLE_PROPERTY_EMITS_INVALIDATION

/// org.mpris.MediaPlayer2
static const sd_bus_vtable tp_mpris_root_vtable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_METHOD("Raise", "", "", tp_bus_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("Quit", "", "", tp_bus_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_PROPERTY("CanQuit", "b", tp_bus_get, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("CanRaise", "b", tp_bus_get, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("HasTrackList", "b", tp_bus_get, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("Identity", "s", tp_bus_get, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("SupportedUriSchemes", "as", tp_bus_get, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("SupportedMimeTypes", "as", tp_bus_get, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_VTABLE_END
};

/// org.mpris.MediaPlayer2.Player
static const sd_bus_vtable tp_mpris_player_vtable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_METHOD("Next", "", "", tp_bus_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("Previous", "", "", tp_bus_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("Pause", "", "", tp_bus_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("PlayPause", "", "", tp_bus_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("Stop", "", "", tp_bus_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("Play", "", "", tp_bus_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("Seek", "x", "", tp_bus_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("SetPosition", "ox", "", tp_bus_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("OpenUri", "s", "", tp_bus_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_SIGNAL("Seeked", "x", 0),
    SD_BUS_PROPERTY("PlaybackStatus", "s", tp_bus_get, 0, TP_CHANGES),
    SD_BUS_WRITABLE_PROPERTY("LoopStatus", "s", tp_bus_get, tp_bus_set, 0, TP_CHANGES | SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_WRITABLE_PROPERTY("Rate", "d", tp_bus_get, tp_bus_set, 0, TP_CHANGES | SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_WRITABLE_PROPERTY("Shuffle", "b", tp_bus_get, tp_bus_set, 0, TP_CHANGES | SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_PROPERTY("Metadata", "a{sv}", tp_bus_get, 0, TP_CHANGES),
    SD_BUS_WRITABLE_PROPERTY("Volume", "d", tp_bus_get, tp_bus_set, 0, TP_CHANGES | SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_PROPERTY("Position", "x", tp_bus_get, 0, 0),
    SD_BUS_PROPERTY("MinimumRate", "d", tp_bus_get, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("MaximumRate", "d", tp_bus_get, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("CanGoNext", "b", tp_bus_get, 0, TP_CHANGES),
    SD_BUS_PROPERTY("CanGoPrevious", "b", tp_bus_get, 0, TP_CHANGES),
    SD_BUS_PROPERTY("CanPlay", "b", tp_bus_get, 0, TP_CHANGES),
    SD_BUS_PROPERTY("CanPause", "b", tp_bus_get, 0, TP_CHANGES),
    SD_BUS_PROPERTY("CanSeek", "b", tp_bus_get, 0, TP_CHANGES),
    SD_BUS_PROPERTY("CanControl", "b", tp_bus_get, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_VTABLE_END
};

static inline const sd_bus_vtable *tp_mpris_root(void) { return tp_mpris_root_vtable; }
static inline const sd_bus_vtable *tp_mpris_player(void) { return tp_mpris_player_vtable; }

/// sd_bus_error_set, whose name and message are constant strings here.
static inline int tp_bus_error(sd_bus_error *error, const char *name, const char *message) {
    return sd_bus_error_set(error, name, message);
}

#endif
