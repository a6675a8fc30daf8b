/*
 * input.c — reading a whole input into memory: a file, or "-" for standard
 * input, read like any stream and bounded by the caller's limit. INPUT may
 * equal OUTPUT because the input is read completely before anything is
 * written (output.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* The buffer of a stream being read grows to `cap` bytes, at most one byte
 * past the limit (enough to know that the input exceeds it). */
static size_t next_capacity(size_t cap, const cli_read_limit *limit)
{
    size_t ncap = cap * 2;
    if (limit && limit->max_bytes < SIZE_MAX && ncap > limit->max_bytes + 1)
        ncap = (size_t)limit->max_bytes + 1;
    return ncap > cap ? ncap : cap + 1;
}

/* Reads fd to its end into *buf (capacity *cap, grown as needed), checking
 * the limit at every growth. Returns 0 or an exit code (reported). */
static int read_stream(int fd, const char *path, const cli_read_limit *limit,
                       unsigned char **buf, size_t *cap, size_t *len)
{
    int rc;
    for (;;) {
        if (*len == *cap) {
            if (limit && (rc = limit->check(limit->arg, path, *len)))
                return rc;
            size_t ncap = next_capacity(*cap, limit);
            unsigned char *nbuf = realloc(*buf, ncap);
            if (!nbuf)
                return cli_fail("cannot read '%s': out of host memory", path);
            *buf = nbuf;
            *cap = ncap;
        }
        ssize_t got = read(fd, *buf + *len, *cap - *len);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return cli_fail("cannot read '%s': %s", path, strerror(errno));
        if (got == 0)
            return limit ? limit->check(limit->arg, path, *len) : 0;
        *len += (size_t)got;
    }
}

int cli_is_std_stream(const char *path)
{
    return path && strcmp(path, "-") == 0;
}

int cli_read_input(const char *path, const cli_read_limit *limit, void **data, size_t *size)
{
    /* "-": our own descriptor of standard input (no reopening by name,
     * which a socket or another user's terminal would refuse) */
    int fd = cli_is_std_stream(path) ? fcntl(0, F_DUPFD_CLOEXEC, 3) : open(path, O_RDONLY);
    if (fd < 0)
        return cli_fail("cannot open '%s': %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
        int err = S_ISDIR(st.st_mode) ? EISDIR : errno;
        close(fd);
        return cli_fail("cannot read '%s': %s", path, strerror(err));
    }
    /* Regular files: checked, then one allocation of the right size. Pipes
     * and devices (e.g. /dev/stdin, /dev/zero): grow as needed, checked at
     * every step. The +1 keeps malloc(0) away. */
    int rc = 0;
    if (S_ISREG(st.st_mode) && limit)
        rc = limit->check(limit->arg, path, (uint64_t)st.st_size);
    size_t cap = S_ISREG(st.st_mode) ? (size_t)st.st_size + 1 : 1u << 20;
    if (!S_ISREG(st.st_mode) && limit && limit->max_bytes < cap)
        cap = (size_t)limit->max_bytes + 1;
    size_t len = 0;
    unsigned char *buf = rc ? NULL : malloc(cap);
    if (!rc && !buf)
        rc = cli_fail("cannot read '%s': out of host memory (%zu bytes)", path, cap);
    if (!rc)
        rc = read_stream(fd, path, limit, &buf, &cap, &len);
    close(fd);
    if (rc) {
        free(buf);
        return rc;
    }
    *data = buf;
    *size = len;
    return 0;
}

int cli_read_file(const char *path, void **data, size_t *size)
{
    return cli_read_input(path, NULL, data, size);
}
