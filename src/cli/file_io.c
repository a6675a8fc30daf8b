/*
 * file_io.c — whole-file reads and safe writes of the CLI's outputs.
 *
 * A regular-file OUTPUT (new or existing, also when reached through a
 * symlink, which is followed: the target is replaced, the link kept) is
 * written to a temporary file in the target's directory (same file system,
 * so the final rename() is atomic) and renamed over it only when complete:
 * after any error an existing OUTPUT is untouched and no partial file is left
 * (docs/design.md §5.2). A replaced file keeps its permission bits (and, as root,
 * its owner and group); a file the user could not open for writing is not
 * replaced (exit 1; for root that is only an immutable file or a read-only
 * file system, as with cp). INPUT may equal OUTPUT because the input is read
 * completely before anything is written.
 *
 * An OUTPUT that exists and is not a regular file (/dev/null, /dev/full, a
 * FIFO, a terminal) is written directly, never replaced; /dev/stdout,
 * /dev/stderr, /dev/fd/N and /proc/self/fd/N write to that descriptor of this
 * process, and so does "-", standard output as in sort(1). Write errors
 * (ENOSPC on /dev/full) are reported (exit 1). An input "-" is standard
 * input, read like any stream: bounded by the caller's limit.
 *
 * Temporary files are named .zesort-tmp-<pid>-XXXXXX. They are removed on
 * every error, and by a handler on every catchable signal whose default
 * action ends the process (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGABRT,
 * SIGSEGV, SIGBUS, ...), which then re-raises the signal. The handlers are
 * installed when main() starts and put back after a backend has started
 * (cli_signals_reclaim): PoCL's LLVM installs its own, which swallow a SIGSEGV
 * sent with kill and leave the temporary files after an abort(). While a
 * backend starts (clGetPlatformIDs installs them), the signals are held
 * (cli_signals_hold): LLVM's handler for SIGQUIT, SIGABRT, SIGXCPU, SIGTRAP,
 * ... puts ours back and returns, so a signal arriving then was lost and the
 * run went on to replace OUTPUT; held, it reaches our handler once the
 * backend has started.
 *
 * A process killed by SIGKILL cannot clean up: the next zesort that writes
 * into that directory removes the stale temporary files of the same user. A
 * file is stale only when nobody holds the flock() every live run keeps on
 * its temporary files (a pid is no proof: the writer may run in another pid
 * namespace or on another NFS client), when its pid is not a live process
 * here, and when it is older than STALE_MIN_AGE (the moment between mkstemp
 * and flock, and file systems without locks). On NFS the lock is an fcntl
 * lock of the server, which close() of any descriptor of the file drops:
 * there the age is what protects a closed temporary file until its rename.
 *
 * --values pairs: OUTPUT's old contents are kept under .zesort-old-<pid>-XXXXXX
 * (a hard link) until both renames are done, with the fatal signals blocked
 * from the first rename until the pair is committed or rolled back, so no
 * signal handler ever sees half a pair. After a SIGKILL between the two
 * renames OUTPUT holds the new keys and VALUES_OUT the old values: that
 * .zesort-old-* file is then the only copy of the old keys, and the sweep
 * never removes a backup that is the last link to its file. `mv` it over
 * OUTPUT to get the old pair back.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

/* ---- reading --------------------------------------------------------------- */

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

/* ---- cleanup of temporary files on signals --------------------------------- */

/* Temporary files that exist right now; the signal handler removes them so an
 * interrupted or crashing run leaves no stray files. */
#define MAX_LIVE_TEMPS 8
static char *volatile live_temps[MAX_LIVE_TEMPS];

static void remove_live_temps_and_die(int sig)
{
    int saved = errno;
    for (int i = 0; i < MAX_LIVE_TEMPS; ++i) {
        char *p = live_temps[i];
        if (p)
            unlink(p); /* async-signal-safe */
    }
    /* Default action, then the same signal again: blocked while this handler
     * runs, it is delivered on return (a fault re-executes the faulting
     * instruction and ends the process the same way). */
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    raise(sig);
    errno = saved;
}

/* Every signal whose default action ends the process and that can be caught. */
static const int fatal_signals[] = {
    SIGHUP,  SIGINT,  SIGQUIT, SIGILL,  SIGTRAP,   SIGABRT, SIGBUS,  SIGFPE,  SIGUSR1,
    SIGSEGV, SIGUSR2, SIGPIPE, SIGALRM, SIGTERM,   SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF,
    SIGSYS,
#ifdef SIGSTKFLT
    SIGSTKFLT,
#endif
#ifdef SIGPWR
    SIGPWR,
#endif
};
#define FATAL_COUNT (sizeof fatal_signals / sizeof fatal_signals[0])

/* The signals whose handler is ours: those that had the default action when
 * the handlers were first installed. */
static unsigned char owned[FATAL_COUNT];
static int handlers_installed;

static void set_our_handler(int sig)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = remove_live_temps_and_die;
    sigemptyset(&sa.sa_mask);
    /* One cleanup at a time: the others wait until the first has re-raised. */
    for (size_t i = 0; i < FATAL_COUNT; ++i)
        sigaddset(&sa.sa_mask, fatal_signals[i]);
    sigaction(sig, &sa, NULL);
}

void cli_signals_init(void)
{
    if (handlers_installed)
        return;
    handlers_installed = 1;
    for (size_t i = 0; i < FATAL_COUNT; ++i) {
        struct sigaction old;
        /* Respect an inherited "ignore" (e.g. nohup) and a handler installed
         * before main (e.g. a sanitizer's SIGSEGV report). */
        if (sigaction(fatal_signals[i], NULL, &old) == 0 &&
            ((old.sa_flags & SA_SIGINFO) || old.sa_handler != SIG_DFL))
            continue;
        owned[i] = 1;
        set_our_handler(fatal_signals[i]);
    }
}

void cli_signals_reclaim(void)
{
    if (!handlers_installed) {
        cli_signals_init();
        return;
    }
    /* A backend's handlers (PoCL's LLVM: SIGSEGV, SIGABRT, SIGINT, ...) went
     * over ours. LLVM's return from a SIGSEGV sent with kill, so the sort
     * went on; after an abort() they ran instead of ours, leaving the
     * temporary files. Ours end the process, as the default action would. */
    for (size_t i = 0; i < FATAL_COUNT; ++i) {
        struct sigaction cur;
        if (owned[i] && sigaction(fatal_signals[i], NULL, &cur) == 0 &&
            ((cur.sa_flags & SA_SIGINFO) || cur.sa_handler != remove_live_temps_and_die))
            set_our_handler(fatal_signals[i]);
    }
}

/* The signals held while a backend starts: every fatal one but the faults.
 * A SIGSEGV, SIGBUS, SIGFPE or SIGILL raised by a fault while blocked would
 * end the process at once without our cleanup (and the threads a driver
 * starts then keep the mask), whereas LLVM's handler for them re-runs the
 * faulting instruction under ours. */
static void held_set(sigset_t *set)
{
    sigemptyset(set);
    for (size_t i = 0; i < FATAL_COUNT; ++i) {
        int sig = fatal_signals[i];
        if (sig != SIGSEGV && sig != SIGBUS && sig != SIGFPE && sig != SIGILL)
            sigaddset(set, sig);
    }
}

static int hold_depth;
static sigset_t mask_before_hold;

void cli_signals_hold(void)
{
    if (hold_depth++ > 0)
        return;
    sigset_t set;
    held_set(&set);
    sigprocmask(SIG_BLOCK, &set, &mask_before_hold);
}

void cli_signals_release(void)
{
    if (hold_depth == 0 || --hold_depth > 0)
        return;
    cli_signals_reclaim();
    sigprocmask(SIG_SETMASK, &mask_before_hold, NULL); /* what arrived is delivered now */
}

/* Block the fatal signals while the list changes, so the handler never sees
 * a slot half updated (a pointer store is atomic, but the free() after an
 * untrack must not race with the handler reading the string). */
static void block_signals(sigset_t *old)
{
    sigset_t set;
    sigemptyset(&set);
    for (size_t i = 0; i < FATAL_COUNT; ++i)
        sigaddset(&set, fatal_signals[i]);
    sigprocmask(SIG_BLOCK, &set, old);
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

/* untrack_temp with the signals blocked around. */
static void untrack_temp_safely(const char *path)
{
    sigset_t old;
    block_signals(&old);
    untrack_temp(path);
    sigprocmask(SIG_SETMASK, &old, NULL);
}

/* ---- temporary names and stale temporary files ----------------------------- */

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

/* The directory part of path ("." when none, "/" for "/x"). Caller frees. */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return strdup(".");
    if (slash == path)
        return strdup("/");
    return strndup(path, (size_t)(slash - path));
}

/* A new descriptor of fd's open file, holding a shared flock() on it for as
 * long as it is open: the mark of a live run's file (remove_stale_temps).
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
static void remove_stale_temps(const char *dir)
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

/* ---- where an output goes ----------------------------------------------------- */

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
static char *resolve_output(const char *path, int *alias)
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
            char *dir = dir_of(cur);
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
    char *dir = dir_of(path);
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
    char *ra = resolve_output(a, &alias), *rb = resolve_output(b, &alias);
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
static int replace_error(const char *path, const struct stat *st)
{
    if (faccessat(AT_FDCWD, path, W_OK, AT_EACCESS) != 0)
        return errno;
    uid_t me = geteuid();
    if (me != 0 && st->st_uid != me) {
        char *dir = dir_of(path);
        struct stat ds;
        int sticky_other = dir && stat(dir, &ds) == 0 && (ds.st_mode & S_ISVTX) && ds.st_uid != me;
        free(dir);
        if (sticky_other)
            return EPERM;
    }
    return 0;
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
    block_signals(&old);
    int fd = mkstemp(temp);
    int err = errno;
    if (fd >= 0)
        track_temp(temp);
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

/* Closes a lock descriptor (hold_lock) if there is one. */
static void drop_lock(int *lock)
{
    if (*lock >= 0)
        close(*lock);
    *lock = -1;
}

/* ---- outputs ----------------------------------------------------------------- */

static int output_error(cli_output *out, const char *what, int err)
{
    char *name = out->shown_path;
    out->shown_path = NULL;
    cli_output_abort(out);
    int rc = cli_fail("cannot write '%s': %s%s", name ? name : "?", what ? what : "", strerror(err));
    free(name);
    return rc;
}

/* Opens a direct output: the descriptor `alias` of this process, or the
 * existing non-regular file `target`. */
static int open_direct(cli_output *out, const char *target, int alias)
{
    out->direct = 1;
    if (alias >= 0) {
        int flags = fcntl(alias, F_GETFL);
        if (flags < 0 || (flags & O_ACCMODE) == O_RDONLY)
            return output_error(out, NULL, EBADF);
        out->fd = fcntl(alias, F_DUPFD_CLOEXEC, 3);
    } else {
        do
            out->fd = open(target, O_WRONLY | O_NOCTTY | O_CLOEXEC);
        while (out->fd < 0 && errno == EINTR); /* a FIFO waits for its reader */
    }
    if (out->fd < 0)
        return output_error(out, NULL, errno);
    return 0;
}

int cli_output_open(cli_output *out, const char *path)
{
    memset(out, 0, sizeof *out);
    out->fd = out->lock_fd = -1;
    out->shown_path = strdup(path);
    if (!out->shown_path)
        return cli_fail("cannot write '%s': out of host memory", path);
    cli_signals_init();

    int alias;
    out->final_path = resolve_output(path, &alias);
    if (!out->final_path)
        return output_error(out, NULL, errno);
    if (alias >= 0)
        return open_direct(out, NULL, alias);

    struct stat st;
    mode_t mode;
    if (stat(out->final_path, &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return output_error(out, NULL, EISDIR);
        if (!S_ISREG(st.st_mode))
            return open_direct(out, out->final_path, -1);
        int err = replace_error(out->final_path, &st);
        if (err)
            return output_error(out, NULL, err);
        out->existed = 1;
        mode = st.st_mode & 07777;
    } else if (errno == ENOENT) {
        mode_t mask = umask(0);
        umask(mask);
        mode = 0666 & ~mask;
    } else {
        return output_error(out, NULL, errno);
    }

    char *dir = dir_of(out->final_path);
    if (!dir)
        return output_error(out, NULL, ENOMEM);
    remove_stale_temps(dir);
    out->fd = create_temp(dir, TEMP_PREFIX, &out->temp_path, &out->lock_fd);
    int err = errno;
    free(dir);
    if (out->fd < 0)
        return output_error(out, "cannot create a temporary file next to it: ", err);
    /* The replaced file's owner and group: root can keep both; anyone else
     * keeps the group when a member of it. Then the mode (after chown, which
     * clears set-id bits). */
    if (out->existed && (st.st_uid != geteuid() || st.st_gid != getegid())) {
        if (geteuid() == 0) {
            if (fchown(out->fd, st.st_uid, st.st_gid) != 0)
                return output_error(out, NULL, errno);
        } else if (fchown(out->fd, (uid_t)-1, st.st_gid) != 0) {
            /* not a member of the group: the new file gets ours */
        }
    }
    if (fchmod(out->fd, mode) != 0)
        return output_error(out, NULL, errno);
    return 0;
}

int cli_output_open_for_name(cli_output *out, const char *path)
{
    int rc = cli_output_open(out, path);
    if (rc)
        return rc;
    if (!out->direct) {
        close(out->fd);
        out->fd = -1;
        return 0;
    }
    /* A direct destination has no name another program could write: it
     * writes a scratch file, which commit copies to the destination. */
    const char *tmpdir = getenv("TMPDIR");
    int fd = create_temp(tmpdir && *tmpdir ? tmpdir : "/tmp", TEMP_PREFIX, &out->temp_path,
                         &out->lock_fd);
    if (fd < 0)
        return output_error(out, "cannot create a temporary file: ", errno);
    close(fd);
    return 0;
}

int cli_output_write(cli_output *out, const void *data, size_t size)
{
    const unsigned char *p = data;
    if (out->direct)
        fflush(stdout); /* what was printed comes first, e.g. on /dev/stdout */
    while (size > 0) {
        /* Pipes and terminals take what they can; keep the chunks sane. */
        size_t chunk = size > (1u << 30) ? (1u << 30) : size;
        ssize_t put = write(out->fd, p, chunk);
        if (put < 0 && errno == EINTR)
            continue;
        if (put <= 0)
            return output_error(out, NULL, put < 0 ? errno : EIO);
        p += put;
        size -= (size_t)put;
    }
    return 0;
}

int cli_output_close(cli_output *out)
{
    int rc = 0, err = 0;
    /* fsync before rename: after a crash the destination holds either the old
     * or the complete new contents, never an empty file. Direct outputs
     * (devices, pipes) are not synced. */
    if (!out->direct && fsync(out->fd) != 0) {
        rc = -1;
        err = errno;
        if (err == EINVAL || err == EROFS) /* fsync unsupported (pipe-like fs) */
            rc = 0;
    }
    if (close(out->fd) != 0 && rc == 0 && errno != EINTR) {
        rc = -1;
        err = errno;
    }
    out->fd = -1;
    if (rc != 0)
        return output_error(out, NULL, err);
    return 0;
}

/* Forgets a committed output. */
static void output_done(cli_output *out)
{
    if (out->temp_path)
        untrack_temp_safely(out->temp_path);
    drop_lock(&out->lock_fd);
    free(out->temp_path);
    free(out->final_path);
    free(out->shown_path);
    out->temp_path = out->final_path = out->shown_path = NULL;
}

/* Direct output written by another program into the scratch file: copy it. */
static int copy_scratch(cli_output *out)
{
    void *data;
    size_t size;
    int rc = cli_read_file(out->temp_path, &data, &size);
    if (rc) {
        cli_output_abort(out);
        return rc;
    }
    rc = cli_output_write(out, data, size);
    free(data);
    if (!rc)
        rc = cli_output_close(out);
    return rc;
}

int cli_output_commit(cli_output *out)
{
    if (out->direct) {
        int rc = 0;
        if (out->temp_path && out->fd >= 0) {
            if ((rc = copy_scratch(out)))
                return rc;
        } else if (out->fd >= 0 && (rc = cli_output_close(out))) {
            return rc;
        }
        if (out->temp_path)
            unlink(out->temp_path);
        output_done(out);
        return 0;
    }
    if (rename(out->temp_path, out->final_path) != 0)
        return output_error(out, "rename failed: ", errno);
    output_done(out);
    return 0;
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
static char *keep_old_file(const char *path, int *lock)
{
    char *dir = dir_of(path), *name = NULL;
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
        drop_lock(&reserve_lock);
        unlink(name);
        *lock = hold_lock(in); /* the old file's inode, before it has the name */
        if (link(path, name) != 0) {
            /* No hard links here (or not allowed): a copy with the same mode. */
            drop_lock(lock);
            err = copy_old_file(in, name, lock);
        }
    }
    if (in >= 0)
        close(in);
    if (err && name) {
        unlink(name);
        untrack_temp_safely(name);
        drop_lock(lock);
        free(name);
        name = NULL;
    }
    errno = err;
    return name;
}

/* Renames a then b; if b's rename fails, puts a's old file back from backup
 * (NULL: there was none). Runs with the fatal signals blocked. Sets *kept
 * when the old file could not be put back: backup is then its only copy. */
static int rename_pair(cli_output *a, cli_output *b, const char *backup, int *kept)
{
    int err;
    if (rename(a->temp_path, a->final_path) != 0) {
        err = errno;
        cli_output_abort(b);
        return output_error(a, "rename failed: ", err);
    }
    if (rename(b->temp_path, b->final_path) == 0) {
        output_done(a);
        output_done(b);
        return 0;
    }
    err = errno;
    int back = backup ? rename(backup, a->final_path) : unlink(a->final_path);
    int back_err = errno;
    output_done(a);
    if (back == 0)
        return output_error(b, "rename failed: ", err);
    *kept = backup != NULL;
    char *bname = b->shown_path;
    b->shown_path = NULL;
    cli_output_abort(b);
    int rc = cli_fail("cannot write '%s': rename failed: %s; and '%s' could not be restored: "
                      "%s%s%s", bname ? bname : "?", strerror(err), a->shown_path ? a->shown_path : "?",
                      strerror(back_err), backup ? "; its old contents are in " : "",
                      backup ? backup : "");
    free(bname);
    return rc;
}

int cli_output_commit_pair(cli_output *a, cli_output *b)
{
    /* Direct outputs are written as they go: nothing to roll back. */
    if (a->direct || b->direct) {
        int rc = cli_output_commit(a);
        if (rc) {
            cli_output_abort(b);
            return rc;
        }
        return cli_output_commit(b);
    }
    /* Both must be replaceable before either is: after an error both old
     * files are intact. */
    struct stat st;
    int err;
    cli_output *const both[2] = {a, b};
    for (int i = 0; i < 2; ++i) {
        cli_output *o = both[i];
        if (stat(o->final_path, &st) == 0 && (err = replace_error(o->final_path, &st)) != 0) {
            cli_output_abort(both[1 - i]);
            return output_error(o, NULL, err);
        }
    }
    /* The first file's old contents, kept until the second is in place. */
    char *backup = NULL;
    int lock = -1;
    if (lstat(a->final_path, &st) == 0 && !(backup = keep_old_file(a->final_path, &lock))) {
        err = errno;
        cli_output_abort(b);
        return output_error(a, "cannot keep its old contents while replacing the pair: ", err);
    }
    /* The fatal signals wait from the first rename until the pair is
     * committed or rolled back: a handler in between could only leave new
     * keys next to old values, or put the old keys back next to new values.
     * (A SIGKILL there leaves the backup: see the top of this file.) */
    sigset_t old;
    block_signals(&old);
    int kept = 0;
    int rc = rename_pair(a, b, backup, &kept);
    if (backup) {
        untrack_temp(backup);
        if (!kept)
            unlink(backup); /* no-op when it was renamed back */
    }
    sigprocmask(SIG_SETMASK, &old, NULL);
    drop_lock(&lock);
    free(backup);
    return rc;
}

void cli_output_abort(cli_output *out)
{
    if (out->fd >= 0)
        close(out->fd);
    out->fd = -1;
    if (out->temp_path) {
        unlink(out->temp_path);
        untrack_temp_safely(out->temp_path);
        free(out->temp_path);
        out->temp_path = NULL;
    }
    drop_lock(&out->lock_fd);
    free(out->final_path);
    free(out->shown_path);
    out->final_path = out->shown_path = NULL;
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
