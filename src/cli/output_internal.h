/*
 * output_internal.h — what the files behind cli.h's outputs share
 * (output.c, output_path.c, temp_files.c, signals.c); the commands use cli.h.
 */
#ifndef ZESORT_CLI_OUTPUT_INTERNAL_H
#define ZESORT_CLI_OUTPUT_INTERNAL_H

#include <signal.h>
#include <sys/stat.h>

/* ---- signals.c: the temporary files the signal handler removes ----------- */

/* Blocks the fatal signals (the previous mask into *old): while the list of
 * temporary files changes, or while a pair of outputs is renamed. */
void cli_signals_block(sigset_t *old);
/* Adds path (kept, not copied) to the files the handler removes; callers
 * block the signals around. */
void cli_temp_track(char *path);
/* Takes path off that list; cli_temp_untrack_safely blocks the signals
 * around. */
void cli_temp_untrack(const char *path);
void cli_temp_untrack_safely(const char *path);

/* ---- temp_files.c: temporary files --------------------------------------- */

/* Creates a temporary file .zesort-tmp-<pid>-XXXXXX in dir, tracked for the
 * signal handler and locked (*lock, -1 if locks do not work here) as a live
 * run's. Returns the descriptor and *path (caller frees), or -1 with errno. */
int cli_temp_create(const char *dir, char **path, int *lock);
/* Closes a lock descriptor if there is one; *lock becomes -1. */
void cli_drop_lock(int *lock);
/* Removes, in dir, the temporary files of this user's dead runs. */
void cli_temp_remove_stale(const char *dir);
/* A hard link to (or else a copy of) the file at path, named
 * .zesort-old-<pid>-XXXXXX in its directory, tracked and locked in *lock.
 * NULL and errno on failure. Caller frees. */
char *cli_temp_keep_old(const char *path, int *lock);

/* ---- output_path.c: where an output goes --------------------------------- */

/* The directory part of path ("." when none, "/" for "/x"). Caller frees. */
char *cli_dir_of(const char *path);
/* The path of the file to write once symlinks in the last component are
 * followed, with *alias the descriptor when a step names one of ours
 * (/dev/stdout, "-"), else -1. NULL and errno on failure. Caller frees. */
char *cli_resolve_output(const char *path, int *alias);
/* 0 when the existing regular file st at path may be replaced by this user,
 * else an errno. */
int cli_replace_error(const char *path, const struct stat *st);

#endif
