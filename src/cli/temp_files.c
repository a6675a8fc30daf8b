/*
 * temp_files.c — the temporary files outputs are written to: their names,
 * creating and locking them, keeping OUTPUT's old contents while a pair is
 * replaced, and sweeping the stale ones of dead runs.
 *
 * Temporary files are named .zesort-tmp-<pid>-XXXXXX, and kept old contents
 * .zesort-old-<pid>-XXXXXX. A process killed by SIGKILL cannot clean up: the
 * next zesort that writes into that directory removes the stale temporary
 * files of the same user. A file is stale only when nobody holds the flock()
 * every live run keeps on its temporary files (a pid is no proof: the writer
 * may run in another pid namespace or on another NFS client), when its pid is
 * not a live process here, and when it is older than STALE_MIN_AGE (the
 * moment between mkstemp and flock, and file systems without locks). On NFS
 * the lock is an fcntl lock of the server, which close() of any descriptor of
 * the file drops: there the age is what protects a closed temporary file
 * until its rename. The sweep never removes a kept old OUTPUT that is the
 * last link to its file (output.c says when that happens).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "output_internal.h"

static const char TEMP_PREFIX[] = ".zesort-tmp-";
/* OUTPUT's old contents while a --values pair is committed. */
static const char BACKUP_PREFIX[] = ".zesort-old-";
/* Seconds a dead-looking temporary file must be left alone (see the top). */
#define STALE_MIN_AGE 60

/* "<dir>/<prefix><pid>-XXXXXX" for mkstemp. Caller frees. */
static char *temp_pattern_in(const char *dir_path, const char *prefix)
{
    char tail[64];
    snprintf(tail, sizeof tail, "%s%ld-XXXXXX", prefix, (long)getpid());
    size_t dl = strlen(dir_path);
    char *p = malloc(dl + strlen(tail) + 2);
    if (p)
        sprintf(p, "%s%s%s", dir_path, dl && dir_path[dl - 1] != '/' ? "/" : "", tail);
    return p;
}

/* A new descriptor of fd's open file, holding a shared flock() on it for as
 * long as it is open: the mark of a live run's file (cli_temp_remove_stale).
 * -1 when locks are not supported here (the age check then protects). */
static int hold_lock(int fd)
{
    int lock = fcntl(fd, F_DUPFD_CLOEXEC, 3);
    if (lock >= 0 && flock(lock, LOCK_SH) != 0) {
        close(lock);
        lock = -1;
    }
    return lock;
}

/* The pid in ".zesort-xxx-<pid>-XXXXXX" after the prefix, or 0. */
static long pid_in_name(const char *rest)
{
    char *end;
    errno = 0;
    long pid = strtol(rest, &end, 10);
    if (errno || end == rest || *end != '-' || pid <= 0 || pid > INT_MAX)
        return 0;
    return pid;
}

/* Removes the entry `name` of the directory dfd when it is a temporary file
 * (or, with backup, a kept old OUTPUT) of a dead run of this user. */
static void remove_if_stale(int dfd, const char *name, long pid, int backup)
{
    if (pid == (long)getpid() || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
        return; /* alive here (or someone else's live process: EPERM) */
    int fd = openat(dfd, name, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) /* O_RDWR: an exclusive lock over NFS needs it, when allowed */
        fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return;
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() &&
        time(NULL) - st.st_mtime >= STALE_MIN_AGE &&
        /* the last link to an old OUTPUT: after a SIGKILL between the renames
         * of a pair, the only copy of the old keys */
        (!backup || st.st_nlink >= 2) &&
        /* no live run holds it, in whatever pid namespace or on whatever host */
        flock(fd, LOCK_EX | LOCK_NB) == 0)
        unlinkat(dfd, name, 0);
    close(fd);
}

/* Removes, in dir, the temporary files of zesort runs that are gone (killed
 * by SIGKILL, or a power cut) and that belong to this user (see the top of
 * this file for how a live run's files are told apart). Errors are ignored:
 * this is housekeeping. */
void cli_temp_remove_stale(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    const size_t tlen = sizeof TEMP_PREFIX - 1, blen = sizeof BACKUP_PREFIX - 1;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        const char *name = e->d_name;
        int backup = strncmp(name, BACKUP_PREFIX, blen) == 0;
        if (!backup && strncmp(name, TEMP_PREFIX, tlen) != 0)
            continue;
        long pid = pid_in_name(name + (backup ? blen : tlen));
        if (pid)
            remove_if_stale(dirfd(d), name, pid, backup);
    }
    closedir(d);
}
/* Creates "<dir>/<prefix><pid>-XXXXXX" with mkstemp, tracked for the signal
 * handler and locked (*lock, -1 if locks do not work here) as a live run's.
 * Returns the descriptor and *path (caller frees), or -1 with errno. */
static int create_temp(const char *dir, const char *prefix, char **path, int *lock)
{
    char *temp = temp_pattern_in(dir, prefix);
    *lock = -1;
    if (!temp) {
        errno = ENOMEM;
        return -1;
    }
    sigset_t old;
    cli_signals_block(&old);
    int fd = mkstemp(temp);
    int err = errno;
    if (fd >= 0)
        cli_temp_track(temp);
    sigprocmask(SIG_SETMASK, &old, NULL);
    if (fd < 0) {
        free(temp);
        errno = err;
        return -1;
    }
    *lock = hold_lock(fd);
    *path = temp;
    return fd;
}

int cli_temp_create(const char *dir, char **path, int *lock)
{
    return create_temp(dir, TEMP_PREFIX, path, lock);
}

/* Closes a lock descriptor (hold_lock) if there is one. */
void cli_drop_lock(int *lock)
{
    if (*lock >= 0)
        close(*lock);
    *lock = -1;
}
/* Copies the open file `in` (mode and, for root, owner kept) to the new file
 * `name`, locked in *lock at once. Returns 0 or an errno. */
static int copy_old_file(int in, const char *name, int *lock)
{
    int err = 0, outfd = -1;
    struct stat st;
    if (fstat(in, &st) != 0)
        return errno;
    if ((outfd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, st.st_mode & 07777)) < 0)
        return errno;
    *lock = hold_lock(outfd);
    char buf[1 << 16];
    for (;;) {
        ssize_t got = read(in, buf, sizeof buf);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) {
            err = got < 0 ? errno : 0;
            break;
        }
        for (ssize_t off = 0; off < got && !err;) {
            ssize_t put = write(outfd, buf + off, (size_t)(got - off));
            if (put < 0 && errno != EINTR)
                err = errno;
            else if (put > 0)
                off += put;
        }
        if (err)
            break;
    }
    if (!err && geteuid() == 0 && fchown(outfd, st.st_uid, st.st_gid) != 0)
        err = errno;
    if (close(outfd) != 0 && !err)
        err = errno;
    return err;
}

/* A hard link to (or else a copy of) the file at path, named
 * .zesort-old-<pid>-XXXXXX in its directory, tracked for the signal handler
 * (which removes it: before the renames it is a second name of OUTPUT) and
 * locked in *lock before the name appears, so that no sweep takes it for a
 * dead run's. NULL and errno on failure. Caller frees. */
char *cli_temp_keep_old(const char *path, int *lock)
{
    char *dir = cli_dir_of(path), *name = NULL;
    int in = open(path, O_RDONLY | O_CLOEXEC);
    int err = !dir ? ENOMEM : in < 0 ? errno : 0;
    int reserve_lock = -1;
    int fd = err ? -1 : create_temp(dir, BACKUP_PREFIX, &name, &reserve_lock);
    if (!err && fd < 0)
        err = errno;
    free(dir);
    *lock = -1;
    if (!err) {
        /* The name is reserved (and tracked); the link takes its place. */
        close(fd);
        cli_drop_lock(&reserve_lock);
        unlink(name);
        *lock = hold_lock(in); /* the old file's inode, before it has the name */
        if (link(path, name) != 0) {
            /* No hard links here (or not allowed): a copy with the same mode. */
            cli_drop_lock(lock);
            err = copy_old_file(in, name, lock);
        }
    }
    if (in >= 0)
        close(in);
    if (err && name) {
        unlink(name);
        cli_temp_untrack_safely(name);
        cli_drop_lock(lock);
        free(name);
        name = NULL;
    }
    errno = err;
    return name;
}
