/*
 * rename_hook.c — an LD_PRELOAD library for test_hostile.sh: raises a signal
 * at the N-th rename() of the process, just before or just after the real
 * rename, so that a test reaches, every time, the moment between the two
 * renames of a `zesort sort --values` pair (no timing, no hook in zesort).
 *
 *   ZESORT_TEST_RENAME_AT=N          which rename (1 = the first)
 *   ZESORT_TEST_RENAME_SIGNAL=S      the signal number
 *   ZESORT_TEST_RENAME_WHEN=before   (default: after)
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int (*rename_fn)(const char *, const char *);

static int env_int(const char *name)
{
    const char *v = getenv(name);
    return v ? atoi(v) : 0;
}

int rename(const char *from, const char *to)
{
    static int calls;
    rename_fn real = (rename_fn)dlsym(RTLD_NEXT, "rename");
    const char *when = getenv("ZESORT_TEST_RENAME_WHEN");
    int before = when && strcmp(when, "before") == 0;
    int hit = ++calls == env_int("ZESORT_TEST_RENAME_AT");
    int sig = env_int("ZESORT_TEST_RENAME_SIGNAL");
    if (hit && before && sig)
        raise(sig);
    int rc = real(from, to);
    if (hit && !before && sig)
        raise(sig);
    return rc;
}
