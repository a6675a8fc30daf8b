/*
 * interop_narrow.h — the narrow key types (u8 i8 u16 i16 f16 bf16, issue 37)
 * through both interop APIs, written once over the cases of
 * interop_cases.h, interop_segments.h and interop_alt.h: every algorithm,
 * every narrow type, in place, copy and argsort (u32 and u64 values or
 * indices), both orders, bit ranges, sizes around a sub-group, a chunk and
 * a tile, indirect counts below and above max_n, segments with the offsets
 * on the device, and the caller's alternate buffers (a u8 onesweep sort is
 * one pass: its result stays in the alternate buffer). The oracle is a
 * stable qsort (sort_oracle.h); test_narrow.c checks the orders themselves
 * against each type's own comparator. The test program includes the three
 * headers first and declares `failures` (expect.h).
 */
#ifndef ZESORT_TESTS_INTEROP_NARROW_H
#define ZESORT_TESTS_INTEROP_NARROW_H

#include <stdio.h>

/* Sorts, copies and argsorts of every narrow type with every algorithm. */
static void narrow_cases(const interop_api *api)
{
    static const zesort_algo algos[] = {ZESORT_ALGO_CM2, ZESORT_ALGO_CM4, ZESORT_ALGO_ONESWEEP};
    static const uint64_t sizes[] = {0, 1, 31, 32, 33, 255, 256, 257, 2053, 4099};
    unsigned i = 0;
    for (size_t a = 0; a < 3; a++)
        for (int t = ZESORT_KEY_U8; t <= ZESORT_KEY_BF16; t++) {
            const unsigned bits = 8 * oracle_key_bytes((zesort_key_type)t);
            for (int kind = 0; kind < IC_KINDS; kind++, i++) {
                const int range = i % 3 == 1, desc = (int)(i / 2 % 2);
                interop_case(api, kind, algos[a], (zesort_key_type)t, i % 2 ? 8 : 4, desc,
                             range ? 1 : 0, range ? bits - 2 : 0, sizes[i % 10], 0, 0);
            }
            /* a count below max_n, and one above (clamped on the device) */
            interop_case(api, IC_COPY, algos[a], (zesort_key_type)t, 4, t % 2, 0, 0, 5003, 1,
                         3001);
            interop_case(api, IC_ARGSORT_KEYS, algos[a], (zesort_key_type)t, 8, t % 2 == 0, 0,
                         0, 3001, 1, 7000);
        }
}

/* Segments, offsets on the device: the host's offsets and the device-only
 * forms, keys only and pairs. */
static void narrow_segments(const interop_segments_api *api)
{
    int k = 0;
    for (int t = ZESORT_KEY_U8; t <= ZESORT_KEY_BF16; t++)
        for (int pat = 0; pat < PAT_COUNT; pat += 2, k++) {
            const unsigned bits = oracle_key_bytes((zesort_key_type)t) * 8;
            const int range = k % 3 == 1;
            seg_case(api, k % 2 ? 9000 : 70001, (zesort_key_type)t, k % 5 == 2, range ? 1 : 0,
                     range ? bits - 1 : bits, (unsigned)(k % 3) * 4, pat);
            const seg_form f = {k % 2, (k / 2) % 2, (k / 4) % 2, 0};
            seg_dev_case(api, k % 2 ? 4099 : 257, pat, (zesort_key_type)t,
                         (unsigned)((k + 1) % 3) * 4, f);
        }
}

/* The caller's alternate buffers: one pass (u8, onesweep) leaves the result
 * there, two or more bring it back or not by their parity. */
static void narrow_alt(const interop_alt_api *api)
{
    static const zesort_algo algos[] = {ZESORT_ALGO_CM2, ZESORT_ALGO_CM4, ZESORT_ALGO_ONESWEEP};
    unsigned i = 0;
    for (size_t a = 0; a < 3; a++)
        for (int t = ZESORT_KEY_U8; t <= ZESORT_KEY_BF16; t++, i++) {
            alt_case(api, AC_IN_PLACE, algos[a], (zesort_key_type)t, (i % 3) * 4, (int)(i % 2),
                     0, 0, i % 2 ? 4099 : 257, 0, 0);
            alt_case(api, AC_ARGSORT_KEYS, algos[a], (zesort_key_type)t, 4, (int)(i % 2 == 0),
                     0, 0, 1009, 1, 700);
        }
}

/* Temp memory follows the key's width: the ping-pong partner of the keys
 * at least (temp also covers the segmented and top-k plans, whose other
 * buffers grow with the width too). */
static void narrow_temp(const interop_api *api)
{
    static const zesort_key_type t[3] = {ZESORT_KEY_U8, ZESORT_KEY_F16, ZESORT_KEY_U32};
    uint64_t bytes[3] = {0, 0, 0};
    zesort_options o;
    zesort_options_default(&o);
    for (int i = 0; i < 3; i++) {
        o.key_type = t[i];
        EXPECT(api->temp_bytes(1u << 20, 0, &o, &bytes[i]) == ZESORT_OK, "%s: temp bytes: %s",
               api->name, api->error());
    }
    EXPECT(bytes[0] < bytes[1] && bytes[1] < bytes[2] && bytes[1] - bytes[0] >= 1u << 20 &&
               bytes[2] - bytes[1] >= 2u << 20,
           "%s: temp bytes u8 %llu, f16 %llu, u32 %llu: not a key's width apart", api->name,
           (unsigned long long)bytes[0], (unsigned long long)bytes[1],
           (unsigned long long)bytes[2]);
}

static void interop_narrow(const interop_api *api, const interop_segments_api *seg,
                           const interop_alt_api *alt)
{
    narrow_temp(api);
    narrow_cases(api);
    narrow_segments(seg);
    narrow_alt(alt);
    printf("%s narrow: %d failures\n", api->name, failures);
}

#endif
