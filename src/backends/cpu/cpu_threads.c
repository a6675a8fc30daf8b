/*
 * cpu_threads.c — see cpu_threads.h. The team's threads live for one sort
 * and wait on a condition variable between phases; a phase is started by
 * bumping a generation counter, and ends when the last member checks in.
 */
#include "backends/cpu/cpu_threads.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

unsigned zs_cpu_thread_count(void)
{
    const char *s = getenv("ZESORT_THREADS");
    if (s && *s >= '0' && *s <= '9') {
        char *end;
        errno = 0;
        unsigned long v = strtoul(s, &end, 10);
        if (errno == 0 && *end == '\0' && v >= 1 && v <= ZS_CPU_MAX_THREADS)
            return (unsigned)v;
    }
    /* Counted once per process: sysconf reads /sys/devices/system/cpu/online
       (open, read, close) and every sort asks; perf put that at a few
       microseconds of a 16-key sort. Racing first callers store the same. */
    static _Atomic long cores;
    long c = atomic_load_explicit(&cores, memory_order_relaxed);
    if (c == 0) {
        c = sysconf(_SC_NPROCESSORS_ONLN);
        c = c < 1 ? 1 : c;
        atomic_store_explicit(&cores, c, memory_order_relaxed);
    }
    return c > (long)ZS_CPU_MAX_THREADS ? ZS_CPU_MAX_THREADS : (unsigned)c;
}

typedef struct member {
    struct zs_team *team;
    unsigned index;
    pthread_t thread;
} member;

struct zs_team {
    pthread_mutex_t mutex;
    pthread_cond_t start; /* generation bumped, or quit */
    pthread_cond_t done;  /* pending reached 0 */
    unsigned size;        /* members, caller included; final before the first run */
    unsigned long generation;
    unsigned pending;     /* threads still running the current phase */
    int quit;
    zs_team_fn fn;
    void *arg;
    member *members;      /* [1, size) are threads */
};

static void *worker(void *p)
{
    member *self = p;
    struct zs_team *team = self->team;
    unsigned long seen = 0;
    pthread_mutex_lock(&team->mutex);
    for (;;) {
        while (team->generation == seen && !team->quit)
            pthread_cond_wait(&team->start, &team->mutex);
        if (team->quit)
            break;
        seen = team->generation;
        zs_team_fn fn = team->fn;
        void *arg = team->arg;
        unsigned size = team->size;
        pthread_mutex_unlock(&team->mutex);
        fn(arg, self->index, size);
        pthread_mutex_lock(&team->mutex);
        if (--team->pending == 0)
            pthread_cond_signal(&team->done);
    }
    pthread_mutex_unlock(&team->mutex);
    return NULL;
}

zs_team *zs_team_start(unsigned want, unsigned create_limit)
{
    if (want > ZS_CPU_MAX_THREADS)
        want = ZS_CPU_MAX_THREADS;
    if (want <= 1 || create_limit == 0)
        return NULL;
    struct zs_team *team = calloc(1, sizeof *team);
    member *members = calloc(want, sizeof *members);
    if (!team || !members) {
        free(team), free(members);
        return NULL;
    }
    team->members = members;
    if (pthread_mutex_init(&team->mutex, NULL) != 0) {
        free(team), free(members);
        return NULL;
    }
    if (pthread_cond_init(&team->start, NULL) != 0) {
        pthread_mutex_destroy(&team->mutex);
        free(team), free(members);
        return NULL;
    }
    if (pthread_cond_init(&team->done, NULL) != 0) {
        pthread_cond_destroy(&team->start);
        pthread_mutex_destroy(&team->mutex);
        free(team), free(members);
        return NULL;
    }
    /* the threads wait for a generation bump: none runs anything before
     * size is final (it is written here, before the first zs_team_run) */
    team->size = 1;
    for (unsigned i = 1; i < want && i <= create_limit; ++i) {
        members[i].team = team;
        members[i].index = i;
        if (pthread_create(&members[i].thread, NULL, worker, &members[i]) != 0)
            break; /* a smaller team */
        team->size = i + 1;
    }
    if (team->size == 1) {
        zs_team_stop(team);
        return NULL;
    }
    return team;
}

unsigned zs_team_size(const zs_team *team)
{
    return team ? team->size : 1u;
}

void zs_team_run(zs_team *team, zs_team_fn fn, void *arg)
{
    if (!team) {
        fn(arg, 0, 1);
        return;
    }
    pthread_mutex_lock(&team->mutex);
    team->fn = fn;
    team->arg = arg;
    team->pending = team->size - 1;
    team->generation++;
    pthread_cond_broadcast(&team->start);
    pthread_mutex_unlock(&team->mutex);
    fn(arg, 0, team->size);
    pthread_mutex_lock(&team->mutex);
    while (team->pending > 0)
        pthread_cond_wait(&team->done, &team->mutex);
    pthread_mutex_unlock(&team->mutex);
}

void zs_team_stop(zs_team *team)
{
    if (!team)
        return;
    pthread_mutex_lock(&team->mutex);
    team->quit = 1;
    pthread_cond_broadcast(&team->start);
    pthread_mutex_unlock(&team->mutex);
    for (unsigned i = 1; i < team->size; ++i)
        pthread_join(team->members[i].thread, NULL);
    pthread_cond_destroy(&team->done);
    pthread_cond_destroy(&team->start);
    pthread_mutex_destroy(&team->mutex);
    free(team->members);
    free(team);
}
