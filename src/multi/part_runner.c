/*
 * part_runner.c — see part_runner.h. Why a shared queue of parts rather
 * than a fixed part per device: a skewed split gives parts of uneven size
 * (a bucket too big to stay whole becomes several parts, keys equal in the
 * bit range none), and devices of one backend may still differ in speed;
 * taking the biggest part left first (longest processing time first) keeps
 * the last device to finish close to the others. Balanced input gives one
 * part per device, taken one each.
 */
#include "part_runner.h"

#include <pthread.h>
#include <stdlib.h>

typedef struct runner {
    const zs_split_target *t;
    const zs_host_arrays *copy;
    const zs_plan_request *req;
    const zs_split_part *parts; /* biggest first */
    uint64_t count;
    pthread_mutex_t lock;
    uint64_t next;             /* the next part to start; under lock */
    zesort_status status;      /* the first failure; under lock */
    zs_split_report *rep;      /* per-device fields: only its device's thread writes them */
} runner;

typedef struct worker {
    runner *r;
    unsigned device;
} worker;

/* The next part to sort, or NULL when all are taken or one has failed. */
static const zs_split_part *take(runner *r)
{
    pthread_mutex_lock(&r->lock);
    const zs_split_part *p = r->status == ZESORT_OK && r->next < r->count ? &r->parts[r->next++]
                                                                        : NULL;
    pthread_mutex_unlock(&r->lock);
    return p;
}

static void *work(void *arg)
{
    const worker *w = arg;
    runner *r = w->r;
    const unsigned kb = r->req->key_bytes, vb = r->req->value_bytes;
    for (const zs_split_part *p; (p = take(r));) {
        char *k = (char *)r->copy->keys_out + p->off * kb;
        char *v = vb ? (char *)r->copy->values_out + p->off * vb : NULL;
        const zs_host_arrays io = {k, v, k, v};
        zs_plan_request part = *r->req;
        part.n = p->n;
        part.bit_hi = p->bit_hi;
        part.iota_values = 0;
        const double t0 = zs_now_ms();
        zesort_status st = r->t->sort(r->t->user, w->device, &io, &part);
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
    return NULL;
}

static int bigger_first(const void *a, const void *b)
{
    const uint64_t x = ((const zs_split_part *)a)->n, y = ((const zs_split_part *)b)->n;
    return x < y ? 1 : x > y ? -1 : 0;
}

zesort_status zs_run_parts(const zs_split_target *t, const zs_host_arrays *copy,
                           const zs_plan_request *req, zs_split_part *parts, uint64_t count,
                           zs_split_report *rep)
{
    unsigned devices = t->devices ? t->devices : 1;
    if (devices > ZS_SPLIT_MAX_DEVICES)
        devices = ZS_SPLIT_MAX_DEVICES;
    if (devices > 1) /* one device sorts in order: its copy is read front to back */
        qsort(parts, (size_t)count, sizeof *parts, bigger_first);
    runner r = {t, copy, req, parts, count, PTHREAD_MUTEX_INITIALIZER, 0, ZESORT_OK, rep};
    worker w[ZS_SPLIT_MAX_DEVICES];
    pthread_t tid[ZS_SPLIT_MAX_DEVICES];
    int started[ZS_SPLIT_MAX_DEVICES] = {0};
    const double t0 = zs_now_ms();
    for (unsigned d = 0; d < devices; d++)
        w[d] = (worker){&r, d};
    for (unsigned d = 1; d < devices; d++)
        started[d] = pthread_create(&tid[d], NULL, work, &w[d]) == 0;
    work(&w[0]);
    for (unsigned d = 1; d < devices; d++)
        if (started[d])
            pthread_join(tid[d], NULL);
    rep->sort_ms = zs_now_ms() - t0;
    rep->parts = r.next;
    pthread_mutex_destroy(&r.lock);
    return r.status;
}
