/*
 * host_memory.c — see host_memory.h. Measured on the 2-core VM this was
 * written on: first-touching 64 MiB of fresh 4 KiB pages costs ~200 ms of
 * CPU (more than a whole sort of them), of huge pages ~6 ms; a scatter's
 * TLB misses also drop. Populated in one call (Linux 5.14): with the
 * kernel's THP defrag on "madvise", pages faulted in by two threads at once
 * made a merge of 16M u64 keys into such an array take 34-118 ms
 * instead of 27. madvise is advice: its failure changes nothing.
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
