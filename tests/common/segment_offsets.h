/*
 * segment_offsets.h — the offset patterns of the segmented-sort tests (issue
 * 22), shared by the host API's (tests/unit/test_segments.c) and the interop
 * APIs' (interop_segments.h): random lengths, all empty, one segment, one
 * key per segment, a giant among tiny ones, lengths across chunk and tile
 * edges, segments inside the array only.
 */
#ifndef ZESORT_TESTS_SEGMENT_OFFSETS_H
#define ZESORT_TESTS_SEGMENT_OFFSETS_H

#include <stdint.h>

enum { PAT_RANDOM, PAT_EMPTY, PAT_ONE, PAT_SINGLES, PAT_GIANT, PAT_EDGES, PAT_INNER, PAT_COUNT };
/* Issue 35's segment classes, outside the matrices' loops over PAT_COUNT:
 * power-law lengths from 1 to n/8 (log-uniform, as `zesort bench --segments
 * ragged`), and lengths just below, at and above each class threshold. */
enum { PAT_RAGGED = 100, PAT_CLASSES = 101 };

static inline uint64_t seg_rnd(uint64_t *x)
{
    *x ^= *x << 13, *x ^= *x >> 7, *x ^= *x << 17;
    return *x;
}

/* Offsets of pattern pat over n keys into o (room for n + 8 entries);
 * returns S. */
/* Offsets of segments whose lengths cycle through len[0, count) until n
 * keys are covered (the last cut at n); returns the segments. */
static inline uint64_t cycled_lengths(const uint64_t *len, unsigned count, uint64_t n,
                                      uint64_t *o)
{
    uint64_t s = 0, p = 0;
    o[s++] = 0;
    for (unsigned i = 0; p < n; i++) {
        p = p + len[i % count] < n ? p + len[i % count] : n;
        o[s++] = p;
    }
    return s - 1;
}

static inline uint64_t make_offsets(int pat, uint64_t n, uint64_t *o, uint64_t seed)
{
    uint64_t x = seed * 7919 + 17, s = 0, p = 0;
    switch (pat) {
    case PAT_EMPTY: /* five empty segments in the middle */
        for (s = 0; s <= 5; s++)
            o[s] = n / 2;
        return 5;
    case PAT_ONE:
        o[0] = 0, o[1] = n;
        return 1;
    case PAT_SINGLES: /* one key per segment, an empty one among them */
        for (p = 0; p <= n; p++)
            o[s++] = p;
        if (n > 2)
            o[s++] = n;
        return s - 1;
    case PAT_GIANT: /* tiny segments, one of half the keys in the middle */
        o[s++] = 0;
        while (p < n) {
            uint64_t len = p < n / 4 || p >= n / 4 + n / 2 ? 1 + seg_rnd(&x) % 3 : n / 2;
            p = p + len < n ? p + len : n;
            o[s++] = p;
        }
        return s - 1;
    case PAT_EDGES: { /* lengths across chunk (256) and tile edges, empty ones too */
        static const uint64_t len[] = {255, 0, 257, 4095, 1, 4097, 256, 0, 3841, 8193, 2};
        return cycled_lengths(len, sizeof len / sizeof *len, n, o);
    }
    case PAT_INNER: /* random segments inside [n/3, 2n/3): the rest untouched */
        p = n / 3;
        o[s++] = p;
        while (p < 2 * n / 3) {
            uint64_t l = seg_rnd(&x) % 300;
            p = p + l < 2 * n / 3 ? p + l : 2 * n / 3;
            o[s++] = p;
        }
        return s - 1;
    case PAT_RAGGED: { /* log-uniform lengths in [1, n/8]: ln(len) = u * ln(n/8) */
        const uint64_t top = n / 8 > 1 ? n / 8 : 1;
        o[s++] = 0;
        while (p < n) {
            /* 2^(u * log2(top)), u in [0, 1) in 1/1024 steps, by integer shifts */
            unsigned bits = 0;
            while ((UINT64_C(1) << (bits + 1)) <= top)
                bits++;
            const uint64_t u = seg_rnd(&x) % 1024, whole = u * bits / 1024;
            uint64_t l = (UINT64_C(1) << whole) + seg_rnd(&x) % (UINT64_C(1) << whole);
            l = l > top ? top : l;
            p = p + l < n ? p + l : n;
            o[s++] = p;
        }
        return s - 1;
    }
    case PAT_CLASSES: { /* each threshold (ZS_SEG_LARGE_MIN: 16384 sg and portable,
                         * 65536 serial; the retuned build's 2048 and 8192) -1, 0, +1,
                         * tile edges of the large segments' passes */
        static const uint64_t len[] = {16383, 16384, 16385, 65535, 65536, 65537, 2047, 2048,
                                       2049, 8191, 8192, 8193, 0, 1, 131073, 7, 4097};
        return cycled_lengths(len, sizeof len / sizeof *len, n, o);
    }
    default: /* random lengths 0..2000 from 0 to n */
        o[s++] = 0;
        while (p < n) {
            uint64_t l = seg_rnd(&x) % 2001;
            p = p + l < n ? p + l : n;
            o[s++] = p;
        }
        return s - 1;
    }
}

#endif
