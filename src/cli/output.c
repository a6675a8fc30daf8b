/*
 * output.c — writing an output safely: atomically replaced, or written
 * directly where it cannot be replaced.
 *
 * A regular-file OUTPUT (new or existing, also when reached through a
 * symlink, which is followed: the target is replaced, the link kept) is
 * written to a temporary file in the target's directory (same file system,
 * so the final rename() is atomic) and renamed over it only when complete:
 * after any error an existing OUTPUT is untouched and no partial file is left
 * (docs/design.md §5.2). A replaced file keeps its permission bits (and, as root,
 * its owner and group); a file the user could not open for writing is not
 * replaced (exit 1; for root that is only an immutable file or a read-only
 * file system, as with cp). The temporary files are removed on every error,
 * and on every catchable fatal signal (signals.c).
 *
 * An OUTPUT that exists and is not a regular file (/dev/null, /dev/full, a
 * FIFO, a terminal) is written directly, never replaced; /dev/stdout,
 * /dev/stderr, /dev/fd/N and /proc/self/fd/N write to that descriptor of this
 * process, and so does "-", standard output as in sort(1). Write errors
 * (ENOSPC on /dev/full) are reported (exit 1).
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
#include "output_internal.h"

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
    out->final_path = cli_resolve_output(path, &alias);
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
        int err = cli_replace_error(out->final_path, &st);
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

    char *dir = cli_dir_of(out->final_path);
    if (!dir)
        return output_error(out, NULL, ENOMEM);
    cli_temp_remove_stale(dir);
    out->fd = cli_temp_create(dir, &out->temp_path, &out->lock_fd);
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
    int fd = cli_temp_create(tmpdir && *tmpdir ? tmpdir : "/tmp", &out->temp_path, &out->lock_fd);
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
        cli_temp_untrack_safely(out->temp_path);
    cli_drop_lock(&out->lock_fd);
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
        if (stat(o->final_path, &st) == 0 && (err = cli_replace_error(o->final_path, &st)) != 0) {
            cli_output_abort(both[1 - i]);
            return output_error(o, NULL, err);
        }
    }
    /* The first file's old contents, kept until the second is in place. */
    char *backup = NULL;
    int lock = -1;
    if (lstat(a->final_path, &st) == 0 && !(backup = cli_temp_keep_old(a->final_path, &lock))) {
        err = errno;
        cli_output_abort(b);
        return output_error(a, "cannot keep its old contents while replacing the pair: ", err);
    }
    /* The fatal signals wait from the first rename until the pair is
     * committed or rolled back: a handler in between could only leave new
     * keys next to old values, or put the old keys back next to new values.
     * (A SIGKILL there leaves the backup: see the top of this file.) */
    sigset_t old;
    cli_signals_block(&old);
    int kept = 0;
    int rc = rename_pair(a, b, backup, &kept);
    if (backup) {
        cli_temp_untrack(backup);
        if (!kept)
            unlink(backup); /* no-op when it was renamed back */
    }
    sigprocmask(SIG_SETMASK, &old, NULL);
    cli_drop_lock(&lock);
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
        cli_temp_untrack_safely(out->temp_path);
        free(out->temp_path);
        out->temp_path = NULL;
    }
    cli_drop_lock(&out->lock_fd);
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
