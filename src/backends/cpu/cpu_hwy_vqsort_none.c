/*
 * cpu_hwy_vqsort_none.c — cpu_hwy_vqsort.h in a build without Highway (meson option
 * `highway` disabled, or libhwy-dev missing): vqsort is never available, so
 * the C fallback's radix passes sort everything.
 */
#include "backends/cpu/cpu_hwy_vqsort.h"

const char *zs_vq_target(void)
{
    return NULL;
}

zs_vq *zs_vq_new(void)
{
    return NULL;
}

void zs_vq_free(zs_vq *vq)
{
    (void)vq;
}

void zs_vq_sort(const zs_vq *vq, void *keys, size_t n, unsigned key_bytes, int is_signed,
                int descending)
{
    (void)vq, (void)keys, (void)n, (void)key_bytes, (void)is_signed, (void)descending;
}
