/*
 * interop_ze_append.h — the one append every Level Zero interop entry point
 * goes through (interop_ze.c), for the 1.1 appends (interop_ze_v11.c).
 *
 * Internal to the library; not installed.
 */
#ifndef ZESORT_INTEROP_ZE_APPEND_H
#define ZESORT_INTEROP_ZE_APPEND_H

#include "common/error.h"
#include "zesort_ze.h"

/* Every append: the descriptor resolved once (interop_desc.c), then checked,
 * planned and recorded under the sorter's lock. fn names the entry point in
 * messages (zesort_ze_append, or the 1.1 function a shim stands for). */
zesort_status zs_ze_append_desc(zesort_ze_sorter *s, ze_command_list_handle_t list,
                                const zesort_desc *d, const zesort_ze_sync *y, const char *fn);

/* A refusal before the sorter's lock (interop_desc.c): st, with the message
 * of refusal on the sorter (or the thread, for no sorter). */
zesort_status zs_ze_refused(zesort_ze_sorter *s, const zs_error *refusal, zesort_status st);

#endif
