/*
 * fuzz_options.c — libFuzzer harness: option validation. Every field of
 * zesort_options (enums and bit range as arbitrary integers), n (any 64-bit
 * value), NULL or not for keys/values/opts, on the cpu backend. The library
 * must either refuse with INVALID_ARGUMENT / UNSUPPORTED / TOO_LARGE (the
 * caller's arrays untouched, a message set) or, for a request it accepts,
 * sort: the arrays are exactly n elements when n is small (ASan catches a
 * byte more); a larger n is tried with keys NULL, or from 2^55 keys on
 * (beyond any address space) with the arrays (both must be refused).
 * Anything else aborts.
 */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_input.h"
#include "zesort.h"

enum { FUZZ_SMALL_N = 512 };

static zesort_context *ctx;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!ctx && zesort_create(ZESORT_BACKEND_CPU, &ctx) != ZESORT_OK)
        abort();
    fuzz_input in = {data, size};
    zesort_options o;
    o.key_type = (zesort_key_type)(int32_t)fuzz_take(&in, 4);
    o.algo = (zesort_algo)(int32_t)fuzz_take(&in, 4);
    o.scan = (zesort_scan)(int32_t)fuzz_take(&in, 4);
    o.descending = (int)(int32_t)fuzz_take(&in, 4);
    o.bit_lo = (unsigned)fuzz_take(&in, 4);
    o.bit_hi = (unsigned)fuzz_take(&in, 4);
    o.value_type = (zesort_value_type)(int32_t)fuzz_take(&in, 4);
    unsigned shape = (unsigned)fuzz_take(&in, 1);
    uint64_t n = fuzz_take(&in, 8);
    if (shape & 1) /* mostly small n, which the arrays below hold */
        n %= FUZZ_SMALL_N + 1;
    int fits = n <= FUZZ_SMALL_N;
    size_t elems = fits ? (size_t)n : 1;
    uint64_t *keys = (shape & 2) ? NULL : malloc(elems * 8 + (elems == 0));
    /* values of 8 bytes: room for either value type */
    uint64_t *values = (shape & 4) ? malloc(elems * 8 + (elems == 0)) : NULL;
    if (keys)
        for (size_t i = 0; i < elems; i++)
            keys[i] = fuzz_take(&in, 8);
    if (values)
        for (size_t i = 0; i < elems; i++)
            values[i] = i;
    zesort_status st;
    if (!fits && n < (UINT64_C(1) << 55)) {
        /* a valid n larger than the arrays (the host API sorts any n the host
         * can hold, splitting beyond the device, issue 23): only the NULL
         * checks may be tried */
        st = zesort_sort(ctx, NULL, values, n, (shape & 8) ? NULL : &o);
        if (st == ZESORT_OK)
            abort();
    } else {
        /* arrays of 2^55 keys and more exceed any address space (2^57
         * bytes): the library must refuse before touching them */
        st = zesort_sort(ctx, keys, values, n, (shape & 8) ? NULL : &o);
        if (!fits && st == ZESORT_OK)
            abort();
    }
    if (st != ZESORT_OK) {
        if (st != ZESORT_ERROR_INVALID_ARGUMENT && st != ZESORT_ERROR_UNSUPPORTED &&
            st != ZESORT_ERROR_TOO_LARGE && st != ZESORT_ERROR_OUT_OF_HOST_MEMORY)
            abort();
        if (!zesort_last_error(ctx)[0])
            abort();
    }
    free(keys);
    free(values);
    return 0;
}
