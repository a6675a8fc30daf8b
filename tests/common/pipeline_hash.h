/*
 * pipeline_hash.h — the keys the pipeline tests' producer kernels write
 * (tests/ze/pipeline_kernels.cl, the OpenCL C producer in
 * tests/cl/test_interop_cl.c): key i of a run with `seed`, computed on the host
 * to build the expected result.
 */
#ifndef ZESORT_TESTS_PIPELINE_HASH_H
#define ZESORT_TESTS_PIPELINE_HASH_H

#include <stdint.h>

static inline uint32_t pipeline_hash(uint32_t i, uint32_t seed)
{
    uint32_t x = (i * 0x9E3779B9u) ^ seed;
    x ^= x >> 16;
    x *= 0x7FEB352Du;
    x ^= x >> 15;
    x *= 0x846CA68Bu;
    x ^= x >> 16;
    return x;
}

#endif
