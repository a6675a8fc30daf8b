/*
 * ze_recorder.h — how a plan becomes Level Zero commands: the one place that
 * appends plan steps (kernel launches, device copies) to a command list. Used
 * by the device backend (backend_level_zero.c: its own immediate list, run
 * step by step by run_plan.c) and by the interop API (interop_ze.c: a whole
 * plan on the caller's list).
 *
 * Two ways to order the commands:
 *   event mode    (next_event set): every command signals a fresh event from
 *                 next_event (the backend's kernel-timestamp events: one
 *                 timestamp per step; the interop API's chained appends: the
 *                 caller's events) and waits on the previous command's, the
 *                 first one on first_wait;
 *   barrier mode  (next_event NULL): a barrier before every command, so the
 *                 sort needs no event pool of its own and stays ordered after
 *                 the list's earlier commands and before its later ones.
 * The interop API records every kind of sort (in place, out of place,
 * argsort, segmented; direct or indirect) either way: barrier mode, or
 * chained on the caller's events (zs_ze_record_chained, event mode over a
 * zs_ze_chain). How a recording opens and closes (zs_ze_record_open,
 * zs_ze_record_close) depends on that mode only, never on the kind of sort:
 * the chain is a property of the recording.
 */
#ifndef ZESORT_ZE_RECORDER_H
#define ZESORT_ZE_RECORDER_H

#include "backends/level_zero/ze_common.h"

typedef struct zs_ze_recorder {
    zs_ze_kernels *kernels;
    ze_command_list_handle_t list;
    /* event mode: a fresh event for the next command, and giving it back when
     * the append failed (it will never be signalled) */
    zesort_status (*next_event)(void *user, ze_event_handle_t *out);
    void (*unused_event)(void *user);
    void *user;
    ze_event_handle_t last; /* event mode: the newest command's event, NULL = none */
    /* event mode: what the first command waits on (the caller's wait events) */
    uint32_t first_nwait;
    ze_event_handle_t *first_wait;
    /* the caller's chain (zs_ze_record_chained), NULL otherwise */
    struct zs_ze_chain *chain;
    /* 1: the list is the caller's, so a failed append may leave part of the
     * sort in it (the message says so and the status is BACKEND) */
    int callers_list;
    zs_error *err;
} zs_ze_recorder;

/* The caller's events of a chained recording: command i of the `total`
 * commands signals events[i] and command i + 1 waits on it; the last command
 * signals `signal` instead (total - 1 events are used). */
struct zs_ze_chain {
    ze_event_handle_t *events;
    uint32_t count;       /* events given */
    uint32_t total, used; /* commands of the sort, commands recorded */
    ze_event_handle_t signal;
};
typedef struct zs_ze_chain zs_ze_chain;

/* Puts r in event mode on the caller's chain: `total` commands, the first
 * waiting on the nwait events of wait, the last signalling `signal`.
 * INVALID_ARGUMENT (message naming fn) when fewer than total - 1 events are
 * given, or one of them is NULL or the signal event. */
zesort_status zs_ze_record_chained(zs_ze_recorder *r, zs_ze_chain *ch, uint32_t total,
                                   ze_event_handle_t signal, uint32_t nwait,
                                   ze_event_handle_t *wait, const char *fn);

/* Opens an interop recording. Barrier mode: a barrier that waits for the
 * nwait events of wait (and, being a barrier, for nothing else: the barrier
 * before each command, which has no wait events, orders the sort after the
 * list's earlier commands). Chained: nothing (the first command waits). */
zesort_status zs_ze_record_open(zs_ze_recorder *r, uint32_t nwait, ze_event_handle_t *wait);

/* Closes an interop recording. Barrier mode: a barrier after the last
 * command that signals `signal`. Chained: the last command signalled it
 * already; a recording of no command signals it by a barrier that waits for
 * the chain's wait events only. */
zesort_status zs_ze_record_close(zs_ze_recorder *r, ze_event_handle_t signal);

/* Appends a ZS_STEP_KERNEL step (nothing for 0 groups). `buffers` maps
 * zs_buffer ids to device pointers. */
zesort_status zs_ze_record_kernel(zs_ze_recorder *r, const zs_step *step, void *const *buffers);

/* Appends a device-to-device copy of `bytes` (nothing for 0). */
zesort_status zs_ze_record_copy(zs_ze_recorder *r, void *dst, const void *src, uint64_t bytes);

/* Appends a fill of `bytes` at dst with the 4-byte `pattern` (nothing for 0). */
zesort_status zs_ze_record_fill(zs_ze_recorder *r, void *dst, uint32_t pattern, uint64_t bytes);

/* How many commands zs_ze_record_plan appends for the plan (its kernel steps
 * with groups and its copies with bytes). */
uint32_t zs_ze_record_count(const zs_plan *plan);

/* Before anything is appended: builds every kernel of the plan and checks its
 * grid, so that build and limit errors leave the list untouched. A host scan
 * step is refused (UNSUPPORTED): a recorded plan runs without the host. */
zesort_status zs_ze_record_check(zs_ze_recorder *r, const zs_plan *plan, void *const *buffers);

/* Appends every step of the plan in order. */
zesort_status zs_ze_record_plan(zs_ze_recorder *r, const zs_plan *plan, void *const *buffers);

#endif
