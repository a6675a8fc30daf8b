/*
 * file_io.c — whole-file reads and atomic writes. An output is written to a
 * temporary file in the destination's directory (same file system, so the
 * final rename() is atomic) and renamed over the destination only when
 * complete: after any error an existing OUTPUT is untouched and no partial
 * file is left (docs/design.md §5.2). INPUT may equal OUTPUT because the input is
 * read completely before anything is written.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "cli.h"

/* ---- reading --------------------------------------------------------------- */

int cli_read_file(const char *path, void **data, size_t *size)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return cli_fail("cannot open '%s': %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
        int err = S_ISDIR(st.st_mode) ? EISDIR : errno;
        close(fd);
        return cli_fail("cannot read '%s': %s", path, strerror(err));
    }
    /* Regular files: one allocation of the right size. Pipes and devices
     * (e.g. /dev/stdin): grow as needed. The +1 keeps malloc(0) away. */
    size_t cap = S_ISREG(st.st_mode) ? (size_t)st.st_size + 1 : 1u << 20;
    size_t len = 0;
    unsigned char *buf = malloc(cap);
    if (!buf) {
        close(fd);
        return cli_fail("cannot read '%s': out of host memory (%zu bytes)", path, cap);
    }
    for (;;) {
        if (len == cap) {
            size_t ncap = cap * 2;
            unsigned char *nbuf = realloc(buf, ncap);
            if (!nbuf) {
                free(buf);
                close(fd);
                return cli_fail("cannot read '%s': out of host memory", path);
            }
            buf = nbuf;
            cap = ncap;
        }
        ssize_t got = read(fd, buf + len, cap - len);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            int err = errno;
            free(buf);
            close(fd);
            return cli_fail("cannot read '%s': %s", path, strerror(err));
        }
        if (got == 0)
            break;
        len += (size_t)got;
    }
    close(fd);
    *data = buf;
    *size = len;
    return 0;
}

/* "dir/name" with dir made canonical (the name itself may not exist yet), or
 * NULL when the directory does not exist. Caller frees. */
static char *canonical_path(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir = slash ? strndup(path, (size_t)(slash - path) + 1) : strdup(".");
    if (!dir)
        return NULL;
    char *real = realpath(dir, NULL);
    free(dir);
    if (!real)
        return NULL;
    const char *base = slash ? slash + 1 : path;
    char *full = malloc(strlen(real) + strlen(base) + 2);
    if (full)
        sprintf(full, "%s/%s", real, base);
    free(real);
    return full;
}

int cli_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    if (strcmp(a, b) == 0)
        return 1;
    if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    /* Not both existing yet: "./out" and "out" are still the same file. */
    char *ca = canonical_path(a), *cb = canonical_path(b);
    int same = ca && cb && strcmp(ca, cb) == 0;
    free(ca);
    free(cb);
    return same;
}

/* ---- cleanup of temporary files on signals --------------------------------- */

/* Temporary files that exist right now; a signal handler removes them so an
 * interrupted run (Ctrl-C during a long sort) leaves no stray files. */
#define MAX_LIVE_TEMPS 8
static char *volatile live_temps[MAX_LIVE_TEMPS];
static int handlers_installed;

static void remove_live_temps_and_die(int sig)
{
    for (int i = 0; i < MAX_LIVE_TEMPS; ++i) {
        if (live_temps[i])
            unlink(live_temps[i]); /* async-signal-safe */
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

static void install_handlers(void)
{
    if (handlers_installed)
        return;
    handlers_installed = 1;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = remove_live_temps_and_die;
    sigemptyset(&sa.sa_mask);
    const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; ++i) {
        struct sigaction old;
        /* Respect an inherited "ignore" (e.g. nohup). */
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
            continue;
        sigaction(sigs[i], &sa, NULL);
    }
}

static void track_temp(char *path)
{
    for (int i = 0; i < MAX_LIVE_TEMPS; ++i) {
        if (!live_temps[i]) {
            live_temps[i] = path;
            return;
        }
    }
}

static void untrack_temp(const char *path)
{
    for (int i = 0; i < MAX_LIVE_TEMPS; ++i) {
        if (live_temps[i] == path)
            live_temps[i] = NULL;
    }
}

/* ---- atomic output ----------------------------------------------------------- */

/* Permission bits for the new file: the destination's if it exists (replacing
 * a file keeps its mode), else what open() would give: 0666 & ~umask. */
static mode_t output_mode(const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
        return st.st_mode & 07777;
    mode_t mask = umask(0);
    umask(mask);
    return 0666 & ~mask;
}

int cli_output_open(cli_output *out, const char *path)
{
    memset(out, 0, sizeof *out);
    out->fd = -1;
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return cli_fail("cannot write '%s': %s", path, strerror(EISDIR));

    const char *slash = strrchr(path, '/');
    size_t dir_len = slash ? (size_t)(slash - path) + 1 : 0; /* keeps the '/' */
    static const char pattern[] = ".zesort-tmp-XXXXXX";
    out->final_path = strdup(path);
    out->temp_path = malloc(dir_len + sizeof pattern);
    if (!out->final_path || !out->temp_path) {
        cli_output_abort(out);
        return cli_fail("cannot write '%s': out of host memory", path);
    }
    memcpy(out->temp_path, path, dir_len);
    memcpy(out->temp_path + dir_len, pattern, sizeof pattern);

    install_handlers();
    out->fd = mkstemp(out->temp_path);
    if (out->fd < 0) {
        int err = errno;
        free(out->temp_path);
        out->temp_path = NULL;
        cli_output_abort(out);
        return cli_fail("cannot write '%s': cannot create a temporary file next to it: %s", path,
                        strerror(err));
    }
    track_temp(out->temp_path);
    if (fchmod(out->fd, output_mode(path)) != 0) {
        int err = errno;
        cli_output_abort(out);
        return cli_fail("cannot write '%s': %s", path, strerror(err));
    }
    return 0;
}

int cli_output_write(cli_output *out, const void *data, size_t size)
{
    const unsigned char *p = data;
    while (size > 0) {
        ssize_t put = write(out->fd, p, size);
        if (put < 0 && errno == EINTR)
            continue;
        if (put <= 0) {
            int err = put < 0 ? errno : EIO;
            char *name = out->final_path;
            out->final_path = NULL;
            cli_output_abort(out);
            int rc = cli_fail("cannot write '%s': %s", name, strerror(err));
            free(name);
            return rc;
        }
        p += put;
        size -= (size_t)put;
    }
    return 0;
}

int cli_output_close(cli_output *out)
{
    /* fsync before rename: after a crash the destination holds either the old
     * or the complete new contents, never an empty file. */
    int rc = fsync(out->fd);
    int err = errno;
    if (close(out->fd) != 0 && rc == 0) {
        rc = -1;
        err = errno;
    }
    out->fd = -1;
    if (rc != 0 && err != EINVAL && err != EROFS) { /* EINVAL: fsync unsupported (pipe-like fs) */
        char *name = out->final_path;
        out->final_path = NULL;
        cli_output_abort(out);
        int code = cli_fail("cannot write '%s': %s", name, strerror(err));
        free(name);
        return code;
    }
    return 0;
}

int cli_output_commit(cli_output *out)
{
    if (rename(out->temp_path, out->final_path) != 0) {
        int err = errno;
        char *name = out->final_path;
        out->final_path = NULL;
        cli_output_abort(out);
        int code = cli_fail("cannot write '%s': rename failed: %s", name, strerror(err));
        free(name);
        return code;
    }
    untrack_temp(out->temp_path);
    free(out->temp_path);
    free(out->final_path);
    out->temp_path = NULL;
    out->final_path = NULL;
    return 0;
}

void cli_output_abort(cli_output *out)
{
    if (out->fd >= 0)
        close(out->fd);
    out->fd = -1;
    if (out->temp_path) {
        unlink(out->temp_path);
        untrack_temp(out->temp_path);
        free(out->temp_path);
        out->temp_path = NULL;
    }
    free(out->final_path);
    out->final_path = NULL;
}

int cli_write_file_atomic(const char *path, const void *data, size_t size)
{
    cli_output out;
    int rc = cli_output_open(&out, path);
    if (rc == 0)
        rc = cli_output_write(&out, data, size);
    if (rc == 0)
        rc = cli_output_close(&out);
    if (rc == 0)
        rc = cli_output_commit(&out);
    return rc;
}
