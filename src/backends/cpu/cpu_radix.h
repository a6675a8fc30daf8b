/*
 * cpu_radix.h — the C fallback's radix passes (cpu_radix.c), below the
 * choice between them and vqsort (backend_cpu.c) and the calibration that
 * times both (cpu_calibrate.c).
 */
#ifndef ZESORT_CPU_RADIX_H
#define ZESORT_CPU_RADIX_H

#include <stdint.h>

#include "backends/cpu/backend_cpu.h"

/* Sorts n (2 .. UINT32_MAX) keys of key_bytes (1|2|4|8) in place, values (NULL
 * or n of value_bytes, 4|8) along, stable, by bits [bit_lo, bit_hi) (bit_lo
 * < bit_hi <= the key's bits) of the ordered key (key_flags as the
 * kernels'), with cfg's digits and strategy on a team of `threads` (at most
 * cfg->create_limit created). The caller checked the arguments.
 * OUT_OF_HOST_MEMORY leaves both arrays unchanged. */
zesort_status zs_cpu_radix_sort(void *keys, void *values, uint64_t n, unsigned key_bytes,
                                unsigned value_bytes, uint32_t key_flags, unsigned bit_lo,
                                unsigned bit_hi, const zs_cpu_config *cfg, unsigned threads);

#endif
