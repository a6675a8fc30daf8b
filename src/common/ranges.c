/*
 * ranges.c — byte ranges of the caller's memory and their overlap (ranges.h).
 */
#include "common/ranges.h"

#include <stddef.h>

zs_range zs_address_range(const void *p, uint64_t bytes)
{
    static char address_space; /* a token: never written */
    return (zs_range){p ? &address_space : NULL, (uintptr_t)p, bytes};
}

/* 1 when two ranges of one allocation share a byte (empty ranges share none). */
static int overlap(const zs_range *a, const zs_range *b)
{
    if (!a->root || !b->root || a->root != b->root || a->bytes == 0 || b->bytes == 0)
        return 0;
    return a->off < b->off ? b->off - a->off < a->bytes : a->off - b->off < b->bytes;
}

int zs_ranges_overlap(const zs_named_range *r, int count, const char **a, const char **b)
{
    for (int i = 0; i < count; i++)
        for (int j = i + 1; j < count; j++)
            if (overlap(&r[i].range, &r[j].range)) {
                *a = r[i].name;
                *b = r[j].name;
                return 1;
            }
    return 0;
}
