/*
 * host_scan.c — the exclusive scan of a ZS_STEP_HOST_SCAN step, for the
 * runner that executes it on the host (plan.h).
 */
#include "plan/plan.h"

void zs_host_exclusive_scan(uint32_t *table, uint64_t len)
{
    uint32_t running = 0;
    for (uint64_t i = 0; i < len; ++i) {
        uint32_t v = table[i];
        table[i] = running;
        running += v;
    }
}
