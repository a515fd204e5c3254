#ifndef TPLAYER_CSHOUT_SHIM_H
#define TPLAYER_CSHOUT_SHIM_H

// libshout, Icecast's own source library, for `-o icecast`: its header (libshout3-dev) and a
// table of the functions used, loaded with dlopen when the output is made, not linked (it
// brings OpenSSL and libtheora/libspeex with it, which no other run needs).
#include <dlfcn.h>
#include <shout/shout.h>

typedef struct tp_shout {
    void (*init)(void);
    shout_t *(*make)(void);
    void (*free)(shout_t *);
    const char *(*get_error)(shout_t *);
    int (*get_errno)(shout_t *);
    int (*get_connected)(shout_t *);
    int (*set_host)(shout_t *, const char *);
    int (*set_port)(shout_t *, unsigned short);
    int (*set_agent)(shout_t *, const char *);
    int (*set_tls)(shout_t *, int);
    int (*set_user)(shout_t *, const char *);
    int (*set_password)(shout_t *, const char *);
    int (*set_mount)(shout_t *, const char *);
    int (*set_meta)(shout_t *, const char *, const char *);
    int (*set_content_format)(shout_t *, unsigned int, unsigned int, const char *);
    int (*set_protocol)(shout_t *, unsigned int);
    int (*set_nonblocking)(shout_t *, unsigned int);
    int (*open)(shout_t *);
    int (*close)(shout_t *);
    int (*send)(shout_t *, const unsigned char *, size_t);
    ssize_t (*queuelen)(shout_t *);
    shout_metadata_t *(*metadata_new)(void);
    void (*metadata_free)(shout_metadata_t *);
    int (*metadata_add)(shout_metadata_t *, const char *, const char *);
    int (*set_metadata_utf8)(shout_t *, shout_metadata_t *);
} tp_shout;

/// Loads libshout and fills `api` (and initialises it: the caller does this once); 0 on
/// success, -1 when it or a function is missing.
static inline int tp_shout_load(tp_shout *api) {
    void *library = dlopen("libshout.so.3", RTLD_NOW | RTLD_LOCAL);
    if (!library) return -1;
#define TP_SHOUT_LOAD(field, symbol) if (!(*(void **)&api->field = dlsym(library, #symbol))) return -1
    TP_SHOUT_LOAD(init, shout_init);
    TP_SHOUT_LOAD(make, shout_new);
    TP_SHOUT_LOAD(free, shout_free);
    TP_SHOUT_LOAD(get_error, shout_get_error);
    TP_SHOUT_LOAD(get_errno, shout_get_errno);
    TP_SHOUT_LOAD(get_connected, shout_get_connected);
    TP_SHOUT_LOAD(set_host, shout_set_host);
    TP_SHOUT_LOAD(set_port, shout_set_port);
    TP_SHOUT_LOAD(set_agent, shout_set_agent);
    TP_SHOUT_LOAD(set_tls, shout_set_tls);
    TP_SHOUT_LOAD(set_user, shout_set_user);
    TP_SHOUT_LOAD(set_password, shout_set_password);
    TP_SHOUT_LOAD(set_mount, shout_set_mount);
    TP_SHOUT_LOAD(set_meta, shout_set_meta);
    TP_SHOUT_LOAD(set_content_format, shout_set_content_format);
    TP_SHOUT_LOAD(set_protocol, shout_set_protocol);
    TP_SHOUT_LOAD(set_nonblocking, shout_set_nonblocking);
    TP_SHOUT_LOAD(open, shout_open);
    TP_SHOUT_LOAD(close, shout_close);
    TP_SHOUT_LOAD(send, shout_send);
    TP_SHOUT_LOAD(queuelen, shout_queuelen);
    TP_SHOUT_LOAD(metadata_new, shout_metadata_new);
    TP_SHOUT_LOAD(metadata_free, shout_metadata_free);
    TP_SHOUT_LOAD(metadata_add, shout_metadata_add);
    TP_SHOUT_LOAD(set_metadata_utf8, shout_set_metadata_utf8);
#undef TP_SHOUT_LOAD
    api->init();
    return 0;
}

#endif
