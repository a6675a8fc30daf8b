/*
 * host_memory.c — see host_memory.h. Large arrays ask for huge pages and
 * are populated in one call: first-touching fresh 4 KiB pages costs more CPU
 * than a whole sort of them, and pages faulted in by two threads at once
 * (THP defrag on "madvise") slow a merge into the array several times
 * (docs/results.md, "Tuning of the C fallback"). madvise is advice: its
 * failure changes nothing.
 */
#include "common/host_memory.h"

#include <stdlib.h>
#include <sys/mman.h>

#define ZS_HUGE_ALIGN ((size_t)2 << 20)

void *zs_alloc_big(size_t bytes)
{
    if (bytes < 2 * ZS_HUGE_ALIGN)
        return malloc(bytes ? bytes : 1);
    void *p = NULL;
    bytes = (bytes + ZS_HUGE_ALIGN - 1) & ~(ZS_HUGE_ALIGN - 1);
    if (posix_memalign(&p, ZS_HUGE_ALIGN, bytes) != 0)
        return NULL;
#ifdef MADV_HUGEPAGE
    (void)madvise(p, bytes, MADV_HUGEPAGE);
#endif
#ifdef MADV_POPULATE_WRITE
    (void)madvise(p, bytes, MADV_POPULATE_WRITE);
#endif
    return p;
}
