/*
 * host_memory.h — big host arrays the library fills at once (the C
 * fallback's temporary arrays, the host copy of a split sort).
 */
#ifndef ZESORT_HOST_MEMORY_H
#define ZESORT_HOST_MEMORY_H

#include <stddef.h>

/* bytes of host memory (NULL when there is none), released with free().
 * From 4 MiB: on 2 MiB boundaries, backed by huge pages where Linux offers
 * them, and populated before it returns; below, plain malloc. */
void *zs_alloc_big(size_t bytes);

#endif
