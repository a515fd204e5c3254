#ifndef TPLAYER_CSDBUS_SHIM_H
#define TPLAYER_CSDBUS_SHIM_H

// sd-bus (libsystemd) for MPRIS. Swift cannot import its vtable macros (SD_BUS_METHOD and
// friends build a static table) nor call its variadic functions, so this header builds the two
// MPRIS vtables in C, with trampolines that hand every method call, property read and property
// write to three Swift callbacks. Swift calls only non-variadic functions
// (sd_bus_message_append_basic, open/close_container, read_basic,
// sd_bus_emit_properties_changed_strv, sd_bus_send).
//
// libsystemd is loaded with dlopen when MPRIS starts, not linked: it brings libgcrypt, libcap and
// three compression libraries, whose loading and constructors cost every run ~2 ms of start-up,
// `-w` runs included, which never use the bus. `tp_sdbus` holds the functions used.
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-bus.h>

typedef struct tp_sdbus {
    int (*open_user)(sd_bus **bus);
    int (*add_object_vtable)(sd_bus *bus, sd_bus_slot **slot, const char *path, const char *interface,
                             const sd_bus_vtable *vtable, void *userdata);
    int (*request_name)(sd_bus *bus, const char *name, uint64_t flags);
    sd_bus_slot *(*slot_unref)(sd_bus_slot *slot);
    sd_bus *(*flush_close_unref)(sd_bus *bus);
    int (*get_fd)(sd_bus *bus);
    int (*process)(sd_bus *bus, sd_bus_message **ret);
    int (*flush)(sd_bus *bus);
    int (*send)(sd_bus *bus, sd_bus_message *m, uint64_t *cookie);
    int (*emit_properties_changed_strv)(sd_bus *bus, const char *path, const char *interface, char **names);
    int (*message_new_signal)(sd_bus *bus, sd_bus_message **m, const char *path, const char *interface, const char *member);
    int (*message_new_method_return)(sd_bus_message *call, sd_bus_message **m);
    int (*reply_method_error)(sd_bus_message *call, const sd_bus_error *e);
    sd_bus_message *(*message_ref)(sd_bus_message *m);
    sd_bus_message *(*message_unref)(sd_bus_message *m);
    int (*message_append_basic)(sd_bus_message *m, char type, const void *p);
    int (*message_read_basic)(sd_bus_message *m, char type, void *p);
    int (*message_open_container)(sd_bus_message *m, char type, const char *contents);
    int (*message_close_container)(sd_bus_message *m);
    const char *(*message_get_member)(sd_bus_message *m);
    int (*error_set)(sd_bus_error *e, const char *name, const char *message);
    void (*error_free)(sd_bus_error *e);
    /// What a vtable's first entry points to, to say which vtable format it is in.
    const unsigned *vtable_format;
} tp_sdbus;

/// Loads libsystemd and fills `api`; 0 on success, -1 when it or a function is missing.
static inline int tp_sdbus_load(tp_sdbus *api) {
    void *library = dlopen("libsystemd.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!library) return -1;
#define TP_LOAD(field, symbol) if (!(*(void **)&api->field = dlsym(library, #symbol))) return -1
    TP_LOAD(open_user, sd_bus_open_user);
    TP_LOAD(add_object_vtable, sd_bus_add_object_vtable);
    TP_LOAD(request_name, sd_bus_request_name);
    TP_LOAD(slot_unref, sd_bus_slot_unref);
    TP_LOAD(flush_close_unref, sd_bus_flush_close_unref);
    TP_LOAD(get_fd, sd_bus_get_fd);
    TP_LOAD(process, sd_bus_process);
    TP_LOAD(flush, sd_bus_flush);
    TP_LOAD(send, sd_bus_send);
    TP_LOAD(emit_properties_changed_strv, sd_bus_emit_properties_changed_strv);
    TP_LOAD(message_new_signal, sd_bus_message_new_signal);
    TP_LOAD(message_new_method_return, sd_bus_message_new_method_return);
    TP_LOAD(reply_method_error, sd_bus_reply_method_error);
    TP_LOAD(message_ref, sd_bus_message_ref);
    TP_LOAD(message_unref, sd_bus_message_unref);
    TP_LOAD(message_append_basic, sd_bus_message_append_basic);
    TP_LOAD(message_read_basic, sd_bus_message_read_basic);
    TP_LOAD(message_open_container, sd_bus_message_open_container);
    TP_LOAD(message_close_container, sd_bus_message_close_container);
    TP_LOAD(message_get_member, sd_bus_message_get_member);
    TP_LOAD(error_set, sd_bus_error_set);
    TP_LOAD(error_free, sd_bus_error_free);
    TP_LOAD(vtable_format, sd_bus_object_vtable_format);
#undef TP_LOAD
    return 0;
}

/// The Swift side: one context pointer and three functions, handed to sd-bus as userdata.
typedef struct tp_bus_handlers {
    void *context;
    const tp_sdbus *api;
    /// A method call: the handler replies (or returns a negative errno).
    int (*method)(void *context, sd_bus_message *message, const char *member, sd_bus_error *error);
    /// A property read: the handler appends the value to `reply`.
    int (*get)(void *context, const char *interface, const char *property, sd_bus_message *reply, sd_bus_error *error);
    /// A property write: the handler reads the value from `value`.
    int (*set)(void *context, const char *interface, const char *property, sd_bus_message *value, sd_bus_error *error);
} tp_bus_handlers;

static int tp_bus_method(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    tp_bus_handlers *h = (tp_bus_handlers *)userdata;
    return h->method(h->context, m, h->api->message_get_member(m), error);
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

// The vtables name libsystemd's `sd_bus_object_vtable_format` in their first entry; with the
// library loaded at run time that address comes from dlsym, so the tables are built then, into
// memory the caller frees once the object is removed from the bus.
#define sd_bus_object_vtable_format (*format)

static inline sd_bus_vtable *tp_vtable_copy(const sd_bus_vtable *table, size_t size) {
    sd_bus_vtable *copy = (sd_bus_vtable *)malloc(size);
    if (copy) memcpy(copy, table, size);
    return copy;
}

/// org.mpris.MediaPlayer2; `DesktopEntry` only when `desktop_entry` (a desktop file is installed).
static inline sd_bus_vtable *tp_mpris_root(const unsigned *format, int desktop_entry) {
    const sd_bus_vtable table[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_METHOD("Raise", "", "", tp_bus_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("Quit", "", "", tp_bus_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_PROPERTY("CanQuit", "b", tp_bus_get, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("CanRaise", "b", tp_bus_get, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("HasTrackList", "b", tp_bus_get, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("Identity", "s", tp_bus_get, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("SupportedUriSchemes", "as", tp_bus_get, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("SupportedMimeTypes", "as", tp_bus_get, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("DesktopEntry", "s", tp_bus_get, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_VTABLE_END
};
    sd_bus_vtable *copy = tp_vtable_copy(table, sizeof table);
    size_t count = sizeof table / sizeof table[0];
    // Without a desktop file the table ends where DesktopEntry would be.
    if (copy && !desktop_entry) copy[count - 2] = copy[count - 1];
    return copy;
}

/// org.mpris.MediaPlayer2.Player
static inline sd_bus_vtable *tp_mpris_player(const unsigned *format) {
    const sd_bus_vtable table[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_METHOD("Next", "", "", tp_bus_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("Previous", "", "", tp_bus_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("Pause", "", "", tp_bus_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("PlayPause", "", "", tp_bus_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("Stop", "", "", tp_bus_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("Play", "", "", tp_bus_method, SD_BUS_VTABLE_UNPRIVILEGED),
    // The arguments are named as the spec names them (introspection shows them).
    SD_BUS_METHOD_WITH_NAMES("Seek", "x", SD_BUS_PARAM(Offset), "", , tp_bus_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD_WITH_NAMES("SetPosition", "ox", SD_BUS_PARAM(TrackId) SD_BUS_PARAM(Position), "", ,
                             tp_bus_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD_WITH_NAMES("OpenUri", "s", SD_BUS_PARAM(Uri), "", , tp_bus_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_SIGNAL_WITH_NAMES("Seeked", "x", SD_BUS_PARAM(Position), 0),
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
    return tp_vtable_copy(table, sizeof table);
}

#undef sd_bus_object_vtable_format

/// sd_bus_error_set, whose name and message are constant strings here.
static inline int tp_bus_error(const tp_sdbus *api, sd_bus_error *error, const char *name, const char *message) {
    return api->error_set(error, name, message);
}

/// Answers `call` later (after its handler returned) with the D-Bus error `name` and `message`.
static inline int tp_bus_reply_error(const tp_sdbus *api, sd_bus_message *call, const char *name, const char *message) {
    sd_bus_error error = SD_BUS_ERROR_NULL;
    api->error_set(&error, name, message);
    int result = api->reply_method_error(call, &error);
    api->error_free(&error);
    return result;
}

#endif
