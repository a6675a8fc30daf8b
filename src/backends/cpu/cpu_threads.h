/*
 * cpu_threads.h — the worker threads of the C fallback (backend_cpu.c): how
 * many to use (online cores, or ZESORT_THREADS), and a team that runs one
 * function on every member, caller included, and returns when all are done.
 */
#ifndef ZESORT_CPU_THREADS_H
#define ZESORT_CPU_THREADS_H

/* The most threads a sort uses, whatever ZESORT_THREADS asks. */
#define ZS_CPU_MAX_THREADS 256u

/* ZESORT_THREADS when it is a decimal integer in [1, ZS_CPU_MAX_THREADS],
 * else (unset, empty, 0, negative, too large, trailing junk) the number of
 * online cores, capped at ZS_CPU_MAX_THREADS. Read at every call. */
unsigned zs_cpu_thread_count(void);

/* A team of threads; NULL is a valid team of one (the caller alone). */
typedef struct zs_team zs_team;
typedef void (*zs_team_fn)(void *arg, unsigned member, unsigned members);

/* Starts want - 1 threads (at most create_limit of them: a test hook; pass
 * ZS_CPU_MAX_THREADS otherwise). A thread that cannot be created leaves a
 * smaller team, never an error: NULL when no thread (or no memory) is had. */
zs_team *zs_team_start(unsigned want, unsigned create_limit);

/* The number of members (caller included); 1 for NULL. */
unsigned zs_team_size(const zs_team *team);

/* fn(arg, m, size) on every member m in [0, size), the caller being member 0;
 * returns when every member has returned (a full barrier, both ways). */
void zs_team_run(zs_team *team, zs_team_fn fn, void *arg);

/* Joins the threads and frees the team. NULL is a no-op. */
void zs_team_stop(zs_team *team);

#endif
