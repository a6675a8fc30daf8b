/*
 * signals.c — the catchable fatal signals: the list of this run's temporary
 * files, and the handlers that remove them before the process ends.
 *
 * A handler on every catchable signal whose default action ends the process
 * (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGABRT, SIGSEGV, SIGBUS, ...) removes
 * the temporary files, then re-raises the signal. The handlers are installed
 * when main() starts and put back after a backend has started
 * (cli_signals_reclaim): PoCL's LLVM installs its own, which swallow a SIGSEGV
 * sent with kill and leave the temporary files after an abort(). While a
 * backend starts (clGetPlatformIDs installs them), the signals are held
 * (cli_signals_hold): LLVM's handler for SIGQUIT, SIGABRT, SIGXCPU, SIGTRAP,
 * ... puts ours back and returns, so a signal arriving then was lost and the
 * run went on to replace OUTPUT; held, it reaches our handler once the
 * backend has started.
 */
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "output_internal.h"

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
void cli_signals_block(sigset_t *old)
{
    sigset_t set;
    sigemptyset(&set);
    for (size_t i = 0; i < FATAL_COUNT; ++i)
        sigaddset(&set, fatal_signals[i]);
    sigprocmask(SIG_BLOCK, &set, old);
}

void cli_temp_track(char *path)
{
    for (int i = 0; i < MAX_LIVE_TEMPS; ++i) {
        if (!live_temps[i]) {
            live_temps[i] = path;
            return;
        }
    }
}

void cli_temp_untrack(const char *path)
{
    for (int i = 0; i < MAX_LIVE_TEMPS; ++i) {
        if (live_temps[i] == path)
            live_temps[i] = NULL;
    }
}

/* cli_temp_untrack with the signals blocked around. */
void cli_temp_untrack_safely(const char *path)
{
    sigset_t old;
    cli_signals_block(&old);
    cli_temp_untrack(path);
    sigprocmask(SIG_SETMASK, &old, NULL);
}
