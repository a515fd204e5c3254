#ifndef TPLAYER_CLINUX_SHIM_H
#define TPLAYER_CLINUX_SHIM_H

// Linux calls that Swift's Glibc module does not export. Header only: nothing is linked but
// the C library itself.
#include <fcntl.h>
#include <malloc.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/vfs.h>
#include <unistd.h>

// The magic number of the file system `path` is on (`statfs`'s f_type), or -1 with errno set.
static inline long tp_filesystem_type(const char *path) {
    struct statfs info;
    if (statfs(path, &info) != 0) return -1;
    return (long)info.f_type;
}

// Linux's value (asm-generic/fcntl.h), which glibc shows only under _GNU_SOURCE.
#ifndef O_TMPFILE
#define O_TMPFILE (020000000 | O_DIRECTORY)
#endif

// A file with no name in the folder `folder` (O_TMPFILE), open for writing, or -1 with errno set
// (EOPNOTSUPP, EISDIR or EINVAL where the file system or kernel has no such files).
static inline int tp_open_unnamed(const char *folder, unsigned int permissions) {
    return open(folder, O_TMPFILE | O_WRONLY | O_CLOEXEC, permissions);
}

// Gives the unnamed file open at `fd` the name `path` (never over anything there: EEXIST), through
// /proc/self/fd, which needs no privilege; 0, or -1 with errno set.
static inline int tp_link_unnamed(int fd, const char *path) {
    char source[64];
    snprintf(source, sizeof source, "/proc/self/fd/%d", fd);
    return linkat(AT_FDCWD, source, AT_FDCWD, path, AT_SYMLINK_FOLLOW);
}

// The next connection waiting on the listening socket `fd`, made non-blocking and closed on
// exec, or -1 with errno set (accept4, which glibc shows only under _GNU_SOURCE).
int accept4(int fd, struct sockaddr *address, socklen_t *length, int flags);
static inline int tp_accept(int fd) {
    return accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

#endif
