/*
 * output_path.c — where an output goes: the file a path names once symlinks
 * and descriptor aliases (/dev/stdout, /dev/fd/N, "-") are followed, whether
 * two paths name the same file, and whether a file may be replaced.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "cli.h"
#include "output_internal.h"

/* The directory part of path ("." when none, "/" for "/x"). Caller frees. */
char *cli_dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return strdup(".");
    if (slash == path)
        return strdup("/");
    return strndup(path, (size_t)(slash - path));
}

/* The descriptor named by a path such as /dev/stdout, /dev/fd/3 or
 * /proc/self/fd/3, or -1. */
static int fd_alias(const char *p)
{
    if (strcmp(p, "/dev/stdin") == 0)
        return 0;
    if (strcmp(p, "/dev/stdout") == 0)
        return 1;
    if (strcmp(p, "/dev/stderr") == 0)
        return 2;
    char self[64];
    snprintf(self, sizeof self, "/proc/%ld/fd/", (long)getpid());
    const char *const dirs[] = {"/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/", self};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; ++i) {
        size_t len = strlen(dirs[i]);
        if (strncmp(p, dirs[i], len) != 0)
            continue;
        const char *num = p + len;
        if (*num < '0' || *num > '9')
            return -1;
        char *end;
        long fd = strtol(num, &end, 10);
        return *end == '\0' && fd <= INT_MAX ? (int)fd : -1;
    }
    return -1;
}

/* Follows symlinks in the last component of path (the directories on the way
 * are the kernel's business). Returns the path of the file to write (a
 * dangling link gives its would-be target), with *alias the descriptor when a
 * step names one of our descriptors (/dev/stdout; "-" is /dev/stdout), else
 * -1. NULL and errno on failure. Caller frees. */
char *cli_resolve_output(const char *path, int *alias)
{
    char *cur = strdup(cli_is_std_stream(path) ? "/dev/stdout" : path);
    *alias = -1;
    for (int depth = 0; cur && depth < 40; ++depth) {
        if ((*alias = fd_alias(cur)) >= 0)
            return cur;
        struct stat st;
        if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
            return cur;
        char link[PATH_MAX];
        ssize_t len = readlink(cur, link, sizeof link - 1);
        if (len < 0)
            return cur;
        link[len] = '\0';
        char *next;
        if (link[0] == '/') {
            next = strdup(link);
        } else {
            char *dir = cli_dir_of(cur);
            next = dir ? malloc(strlen(dir) + (size_t)len + 2) : NULL;
            if (next)
                sprintf(next, "%s/%s", dir, link);
            free(dir);
        }
        free(cur);
        cur = next;
    }
    if (cur) {
        free(cur);
        errno = ELOOP;
    } else {
        errno = ENOMEM;
    }
    return NULL;
}

/* The (device, inode) of the directory a path names a file in, and the
 * file's name there: two paths with equal places name the same file, whether
 * or not it exists yet. Unlike realpath() this needs no path shorter than
 * PATH_MAX. Returns 0, or -1 when the directory cannot be examined (then
 * nothing can be written there either). *name is the caller's to free. */
static int place_of(const char *path, dev_t *dev, ino_t *ino, char **name)
{
    const char *slash = strrchr(path, '/');
    char *dir = cli_dir_of(path);
    struct stat st;
    int ok = dir && stat(dir, &st) == 0;
    free(dir);
    if (!ok || !(*name = strdup(slash ? slash + 1 : path)))
        return -1;
    *dev = st.st_dev;
    *ino = st.st_ino;
    return 0;
}

int cli_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    if (strcmp(a, b) == 0)
        return 1;
    if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    /* Not both existing yet: where each would be created, after following a
     * dangling symlink as cli_output_open does ("link -> out" is "out"). */
    int alias;
    char *ra = cli_resolve_output(a, &alias), *rb = cli_resolve_output(b, &alias);
    char *na = NULL, *nb = NULL;
    dev_t da, db;
    ino_t ia, ib;
    int same = ra && rb && place_of(ra, &da, &ia, &na) == 0 && place_of(rb, &db, &ib, &nb) == 0 &&
               da == db && ia == ib && strcmp(na, nb) == 0;
    free(ra);
    free(rb);
    free(na);
    free(nb);
    return same;
}

int cli_is_special_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

/* 0 when the existing regular file st at path may be replaced by this user,
 * else an errno: the user could not open it for writing (for root: only an
 * immutable file or a read-only file system), or it sits in a sticky
 * directory (/tmp) and belongs to someone else, so rename() would fail. */
int cli_replace_error(const char *path, const struct stat *st)
{
    if (faccessat(AT_FDCWD, path, W_OK, AT_EACCESS) != 0)
        return errno;
    uid_t me = geteuid();
    if (me != 0 && st->st_uid != me) {
        char *dir = cli_dir_of(path);
        struct stat ds;
        int sticky_other = dir && stat(dir, &ds) == 0 && (ds.st_mode & S_ISVTX) && ds.st_uid != me;
        free(dir);
        if (sticky_other)
            return EPERM;
    }
    return 0;
}

