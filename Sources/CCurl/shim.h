#ifndef TPLAYER_CCURL_SHIM_H
#define TPLAYER_CCURL_SHIM_H

// libcurl, for internet radio (`NetworkStream`): http and https, TLS verified. Loaded with
// dlopen the first time a stream opens, not linked: it brings OpenSSL, nghttp2, libssh2, LDAP
// and more, whose loading would cost every local song's start-up.
//
// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: the wrappers
// below pass each kind of value (long, curl_off_t, pointer, function) as C does.
#include <dlfcn.h>
#include <curl/curl.h>

typedef struct tp_curl {
    CURLcode (*global_init)(long flags);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *handle);
    CURLcode (*easy_setopt)(CURL *handle, CURLoption option, ...);
    CURLcode (*easy_getinfo)(CURL *handle, CURLINFO info, ...);
    CURLcode (*easy_pause)(CURL *handle, int bitmask);
    const char *(*easy_strerror)(CURLcode code);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_cleanup)(CURLM *multi);
    CURLMcode (*multi_add_handle)(CURLM *multi, CURL *handle);
    CURLMcode (*multi_remove_handle)(CURLM *multi, CURL *handle);
    CURLMcode (*multi_perform)(CURLM *multi, int *running);
    CURLMcode (*multi_poll)(CURLM *multi, struct curl_waitfd extra[], unsigned int count, int timeout_ms, int *numfds);
    CURLMcode (*multi_wakeup)(CURLM *multi);
    CURLMsg *(*multi_info_read)(CURLM *multi, int *left);
    struct curl_slist *(*slist_append)(struct curl_slist *list, const char *text);
    void (*slist_free_all)(struct curl_slist *list);
    curl_version_info_data *(*version_info)(CURLversion age);
} tp_curl;

/// Loads libcurl and fills `api` (and initialises it, once: the caller makes sure of that);
/// 0 on success, -1 when it or a function is missing or it cannot start.
static inline int tp_curl_load(tp_curl *api) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!library) return -1;
#define TP_CURL_LOAD(field, symbol) if (!(*(void **)&api->field = dlsym(library, #symbol))) return -1
    TP_CURL_LOAD(global_init, curl_global_init);
    TP_CURL_LOAD(easy_init, curl_easy_init);
    TP_CURL_LOAD(easy_cleanup, curl_easy_cleanup);
    TP_CURL_LOAD(easy_setopt, curl_easy_setopt);
    TP_CURL_LOAD(easy_getinfo, curl_easy_getinfo);
    TP_CURL_LOAD(easy_pause, curl_easy_pause);
    TP_CURL_LOAD(easy_strerror, curl_easy_strerror);
    TP_CURL_LOAD(multi_init, curl_multi_init);
    TP_CURL_LOAD(multi_cleanup, curl_multi_cleanup);
    TP_CURL_LOAD(multi_add_handle, curl_multi_add_handle);
    TP_CURL_LOAD(multi_remove_handle, curl_multi_remove_handle);
    TP_CURL_LOAD(multi_perform, curl_multi_perform);
    TP_CURL_LOAD(multi_poll, curl_multi_poll);
    TP_CURL_LOAD(multi_wakeup, curl_multi_wakeup);
    TP_CURL_LOAD(multi_info_read, curl_multi_info_read);
    TP_CURL_LOAD(slist_append, curl_slist_append);
    TP_CURL_LOAD(slist_free_all, curl_slist_free_all);
    TP_CURL_LOAD(version_info, curl_version_info);
#undef TP_CURL_LOAD
    return api->global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK ? 0 : -1;
}

static inline CURLcode tp_curl_set_long(const tp_curl *api, CURL *handle, CURLoption option, long value) {
    return api->easy_setopt(handle, option, value);
}

static inline CURLcode tp_curl_set_offset(const tp_curl *api, CURL *handle, CURLoption option, curl_off_t value) {
    return api->easy_setopt(handle, option, value);
}

static inline CURLcode tp_curl_set_pointer(const tp_curl *api, CURL *handle, CURLoption option, const void *value) {
    return api->easy_setopt(handle, option, value);
}

/// The body's bytes (CURLOPT_WRITEFUNCTION) and the headers' lines (CURLOPT_HEADERFUNCTION).
typedef size_t (*tp_curl_data_cb)(char *data, size_t size, size_t count, void *context);
/// CURLOPT_XFERINFOFUNCTION: non-zero stops the transfer.
typedef int (*tp_curl_progress_cb)(void *context, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal, curl_off_t ulnow);

static inline CURLcode tp_curl_set_data_function(const tp_curl *api, CURL *handle, CURLoption option, tp_curl_data_cb function) {
    return api->easy_setopt(handle, option, function);
}

static inline CURLcode tp_curl_set_progress_function(const tp_curl *api, CURL *handle, tp_curl_progress_cb function) {
    return api->easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, function);
}

static inline CURLcode tp_curl_get_long(const tp_curl *api, CURL *handle, CURLINFO info, long *value) {
    return api->easy_getinfo(handle, info, value);
}

static inline CURLcode tp_curl_get_string(const tp_curl *api, CURL *handle, CURLINFO info, char **value) {
    return api->easy_getinfo(handle, info, value);
}

static inline CURLcode tp_curl_get_offset(const tp_curl *api, CURL *handle, CURLINFO info, curl_off_t *value) {
    return api->easy_getinfo(handle, info, value);
}

/// The result of a finished transfer in a CURLMsg (a union Swift cannot read).
static inline CURLcode tp_curl_message_result(const CURLMsg *message) {
    return message->data.result;
}

#endif
