/*
 * fuzz_sort.c — libFuzzer harness: the sort itself on the cpu backend (the C
 * fallback, multi-threaded) against cm_reference. The input chooses the key
 * type, order, bit range, keys-only or pairs, and supplies the keys (up to a
 * few thousand). Any difference from cmref_sort — keys or values, i.e. also a
 * stability error — aborts, as does any ASan/UBSan report.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cm_reference.h"
#include "fuzz_input.h"
#include "zesort.h"

enum { FUZZ_MAX_KEYS = 4096 };

static zesort_context *ctx;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!ctx && zesort_create(ZESORT_BACKEND_CPU, &ctx) != ZESORT_OK)
        abort();
    fuzz_input in = {data, size};
    zesort_options o;
    zesort_options_default(&o);
    unsigned flags = (unsigned)fuzz_take(&in, 1);
    o.key_type = (zesort_key_type)(flags % 6);
    o.descending = (flags >> 3) & 1;
    int pairs = (flags >> 4) & 1;
    unsigned width = o.key_type >= ZESORT_KEY_U64 ? 64 : 32;
    if ((flags >> 5) & 1) { /* a bit range, always valid */
        o.bit_lo = (unsigned)fuzz_take(&in, 1) % width;
        o.bit_hi = o.bit_lo + 1 + (unsigned)fuzz_take(&in, 1) % (width - o.bit_lo);
    }
    size_t kb = width / 8;
    uint64_t n = in.size / kb;
    if (n > FUZZ_MAX_KEYS)
        n = FUZZ_MAX_KEYS;
    unsigned char *keys = malloc(n * kb + 1), *ref = malloc(n * kb + 1);
    uint32_t *values = malloc(n * 4 + 4), *ref_values = malloc(n * 4 + 4);
    if (!keys || !ref || !values || !ref_values)
        abort();
    memcpy(keys, in.data, n * kb);
    memcpy(ref, in.data, n * kb);
    for (uint64_t i = 0; i < n; i++)
        values[i] = ref_values[i] = (uint32_t)i;
    zesort_status st = zesort_sort(ctx, keys, pairs ? values : NULL, n, &o);
    if (st != ZESORT_OK) {
        fprintf(stderr, "zesort_sort failed: %s\n", zesort_last_error(ctx));
        abort();
    }
    if (cmref_sort(ref, ref_values, n, (cmref_key_type)o.key_type, o.descending, o.bit_lo,
                   o.bit_hi, 4) != 0)
        abort();
    if (memcmp(keys, ref, n * kb) != 0 || (pairs && memcmp(values, ref_values, n * 4) != 0)) {
        fprintf(stderr, "type %d %s bits [%u,%u) n=%llu: differs from cmref_sort\n", (int)o.key_type,
                o.descending ? "descending" : "ascending", o.bit_lo, o.bit_hi, (unsigned long long)n);
        abort();
    }
    free(keys), free(ref), free(values), free(ref_values);
    return 0;
}
