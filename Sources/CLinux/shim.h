#ifndef TPLAYER_CLINUX_SHIM_H
#define TPLAYER_CLINUX_SHIM_H

// Linux calls that Swift's Glibc module does not export. Header only: nothing is linked but
// the C library itself.
#include <sys/vfs.h>

// The magic number of the file system `path` is on (`statfs`'s f_type), or -1 with errno set.
static inline long tp_filesystem_type(const char *path) {
    struct statfs info;
    if (statfs(path, &info) != 0) return -1;
    return (long)info.f_type;
}

#endif
