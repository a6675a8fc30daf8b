/*
 * part_runner.c — see part_runner.h. Why parts are dealt to devices before
 * any starts, biggest first to the device with the fewest keys so far
 * (longest processing time first), rather than taken from a shared queue:
 * a skewed split gives parts of uneven size (a bucket too big to stay
 * whole becomes several parts, keys equal in the bit range none), and the
 * deal balances them by keys; a queue would balance by who asks first,
 * which on a loaded host is whichever thread the scheduler ran first (a
 * device whose thread started late got no part at all in the tests).
 * Balanced input gives one part per device.
 */
#include "dispatch/part_runner.h"

#include <pthread.h>
#include <stdlib.h>

typedef struct runner {
    zs_part_sort sort;
    void *user;
    const zs_split_part *parts; /* biggest first */
    const unsigned *owner;      /* the device of each part */
    uint64_t count;
    pthread_mutex_t lock;
    zesort_status status;       /* the first failure; under lock */
    zs_split_report *rep;       /* per-device fields: only its device's thread writes them */
} runner;

typedef struct worker {
    runner *r;
    unsigned device;
} worker;

static int failed(runner *r)
{
    pthread_mutex_lock(&r->lock);
    const int f = r->status != ZESORT_OK;
    pthread_mutex_unlock(&r->lock);
    return f;
}

/* One part on w's device; a failure stops every device before its next part. */
static void sort_part(const worker *w, const zs_split_part *p)
{
    runner *r = w->r;
    const double t0 = zs_now_ms();
    zesort_status st = r->sort(r->user, w->device, p);
    r->rep->device_ms[w->device] += zs_now_ms() - t0;
    r->rep->device_parts[w->device]++;
    r->rep->device_keys[w->device] += p->n;
    if (st != ZESORT_OK) {
        pthread_mutex_lock(&r->lock);
        if (r->status == ZESORT_OK) {
            r->status = st;
            r->rep->failed_device = (int)w->device;
        }
        pthread_mutex_unlock(&r->lock);
    }
}

/* Every part dealt to w's device, in order. */
static void *work(void *arg)
{
    const worker *w = arg;
    runner *r = w->r;
    for (uint64_t i = 0; i < r->count && !failed(r); i++)
        if (r->owner[i] == w->device)
            sort_part(w, &r->parts[i]);
    return NULL;
}

static int bigger_first(const void *a, const void *b)
{
    const uint64_t x = ((const zs_split_part *)a)->n, y = ((const zs_split_part *)b)->n;
    return x < y ? 1 : x > y ? -1 : 0;
}

/* Deals the parts (biggest first) to the device with the fewest keys. */
static void deal(const zs_split_part *parts, uint64_t count, unsigned devices, unsigned *owner)
{
    uint64_t load[ZS_SPLIT_MAX_DEVICES] = {0};
    for (uint64_t i = 0; i < count; i++) {
        unsigned best = 0;
        for (unsigned d = 1; d < devices; d++)
            best = load[d] < load[best] ? d : best;
        owner[i] = best;
        load[best] += parts[i].n;
    }
}

zesort_status zs_run_parts(zs_part_sort sort, void *user, unsigned devices, zs_split_part *parts,
                           uint64_t count, zs_split_report *rep)
{
    devices = devices ? devices : 1;
    if (devices > ZS_SPLIT_MAX_DEVICES)
        devices = ZS_SPLIT_MAX_DEVICES;
    /* one device sorts in order: its copy is read front to back */
    if (devices > 1 && count > 1)
        qsort(parts, (size_t)count, sizeof *parts, bigger_first);
    unsigned *owner = calloc(count ? count : 1, sizeof *owner);
    if (!owner)
        return ZESORT_ERROR_OUT_OF_HOST_MEMORY;
    deal(parts, count, devices, owner);
    runner r = {sort, user, parts, owner, count, PTHREAD_MUTEX_INITIALIZER, ZESORT_OK, rep};
    worker w[ZS_SPLIT_MAX_DEVICES];
    pthread_t tid[ZS_SPLIT_MAX_DEVICES];
    int started[ZS_SPLIT_MAX_DEVICES] = {0};
    const double t0 = zs_now_ms();
    for (unsigned d = 0; d < devices; d++)
        w[d] = (worker){&r, d};
    for (unsigned d = 1; d < devices; d++)
        started[d] = pthread_create(&tid[d], NULL, work, &w[d]) == 0;
    work(&w[0]);
    for (unsigned d = 1; d < devices; d++) {
        if (started[d])
            pthread_join(tid[d], NULL);
        else
            work(&w[d]); /* no thread: its parts on this one, after */
    }
    rep->sort_ms = zs_now_ms() - t0;
    for (unsigned d = 0; d < devices; d++)
        rep->parts += rep->device_parts[d];
    pthread_mutex_destroy(&r.lock);
    free(owner);
    return r.status;
}
