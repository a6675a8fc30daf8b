/*
 * cpu_radix_kernels.h — the inner loops of the C fallback (backend_cpu.c)
 * for one key width: included once per width there, with ZS_K (uint8_t |
 * uint16_t | uint32_t | uint64_t) and ZS_SFX (8 | 16 | 32 | 64) defined. Not
 * a header of its own.
 *
 * A loop takes its digit from the key's digit key dk(k) (key_order.h): the
 * ordered key is dk(k) ^ c, so a digit of the ordered key is dk's digit ^
 * c's digit: the caller applies c to bin numbers (histograms, offsets),
 * never to keys. Keys move unchanged.
 */
#define ZS_CAT2(a, b) a##b
#define ZS_CAT(a, b) ZS_CAT2(a, b)
#define ZS_FN(name) ZS_CAT(name, ZS_SFX)

/* A small bucket [b, e) (at most ZS_CPU_SMALL_BUCKET keys) of src, stably
 * into dst (values of vb bytes along when vsrc is not NULL) by the ordered
 * key's bits ((dk(k) ^ c) >> base) & mask: an insertion sort on a copy of
 * those bits. */
static void ZS_FN(zs_small_sort)(const void *src, const void *vsrc, void *dst, void *vdst,
                                 unsigned vb, size_t b, size_t e, unsigned base, uint64_t mask,
                                 uint64_t c, int flt)
{
    const ZS_K *ks = src;
    ZS_K *kd = dst;
    uint64_t sk[ZS_CPU_SMALL_BUCKET];
    uint32_t at[ZS_CPU_SMALL_BUCKET];
    const size_t n = e - b;
    for (size_t i = 0; i < n; ++i) {
        const uint64_t key = (((uint64_t)zs_key_dk(ks[b + i], flt) ^ c) >> base) & mask;
        size_t p = i;
        for (; p > 0 && sk[p - 1] > key; --p) { /* strictly greater: stable */
            sk[p] = sk[p - 1];
            at[p] = at[p - 1];
        }
        sk[p] = key;
        at[p] = (uint32_t)i;
    }
    for (size_t i = 0; i < n; ++i)
        kd[b + i] = ks[b + at[i]];
    /* typed copies: a memcpy of a run-time width per value is a call per value */
    for (size_t i = 0; vsrc && vb == 8 && i < n; ++i)
        ((uint64_t *)vdst)[b + i] = ((const uint64_t *)vsrc)[b + at[i]];
    for (size_t i = 0; vsrc && vb == 4 && i < n; ++i)
        ((uint32_t *)vdst)[b + i] = ((const uint32_t *)vsrc)[b + at[i]];
}

/* Histograms of every digit d < ndig of keys [b, e): h[d * bins + digit]. */
ZS_KEY_INLINE void ZS_FN(zs_hist_all_)(const ZS_K *keys, size_t b, size_t e, unsigned ndig,
                                   const unsigned *shift, const unsigned *mask, unsigned bins,
                                   uint32_t *h, int flt)
{
    for (size_t i = b; i < e; ++i) {
        const ZS_K k = zs_key_dk(keys[i], flt);
        for (unsigned d = 0; d < ndig; ++d)
            h[d * bins + (unsigned)((k >> shift[d]) & mask[d])]++;
    }
}

static void ZS_FN(zs_hist_all)(const ZS_K *keys, size_t b, size_t e, unsigned ndig,
                               const unsigned *shift, const unsigned *mask, unsigned bins,
                               uint32_t *h, int flt)
{
    if (flt)
        ZS_FN(zs_hist_all_)(keys, b, e, ndig, shift, mask, bins, h, 1);
    else
        ZS_FN(zs_hist_all_)(keys, b, e, ndig, shift, mask, bins, h, 0);
}

/* Histogram of one digit of keys [b, e) into h[bins] (zeroed by the caller). */
ZS_KEY_INLINE void ZS_FN(zs_count_)(const ZS_K *keys, size_t b, size_t e, unsigned shift,
                                unsigned mask, uint32_t *h, int flt)
{
    for (size_t i = b; i < e; ++i)
        h[(unsigned)((zs_key_dk(keys[i], flt) >> shift) & mask)]++;
}

static void ZS_FN(zs_count)(const ZS_K *keys, size_t b, size_t e, unsigned shift, unsigned mask,
                            uint32_t *h, int flt)
{
    if (flt)
        ZS_FN(zs_count_)(keys, b, e, shift, mask, h, 1);
    else
        ZS_FN(zs_count_)(keys, b, e, shift, mask, h, 0);
}

/* Stable scatter of [b, e) by one digit: the key (and value of vb bytes:
 * 0, 4 or 8) with digit x goes to off[x]++, which starts at this block's
 * first slot for x. */
ZS_KEY_INLINE void ZS_FN(zs_scatter_)(const ZS_K *restrict sk, const void *restrict sv,
                                  ZS_K *restrict dk, void *restrict dv, size_t b, size_t e,
                                  unsigned shift, unsigned mask, uint32_t *restrict off, int flt,
                                  unsigned vb)
{
    for (size_t i = b; i < e; ++i) {
        const ZS_K k = sk[i];
        const uint32_t at = off[(unsigned)((zs_key_dk(k, flt) >> shift) & mask)]++;
        dk[at] = k;
        if (vb == 4)
            ((uint32_t *)dv)[at] = ((const uint32_t *)sv)[i];
        else if (vb == 8)
            ((uint64_t *)dv)[at] = ((const uint64_t *)sv)[i];
    }
}

/* One instance per (float or not, value width): the loop above with
 * constants, no test per key. */
static void ZS_FN(zs_scatter)(const ZS_K *sk, const void *sv, ZS_K *dk, void *dv, unsigned vb,
                              size_t b, size_t e, unsigned shift, unsigned mask, uint32_t *off,
                              int flt)
{
    vb = sv ? vb : 0;
#define ZS_SCATTER_CASE(f, w)                                                                   \
    if (flt == (f) && vb == (w))                                                                \
        ZS_FN(zs_scatter_)(sk, sv, dk, dv, b, e, shift, mask, off, f, w);
    ZS_SCATTER_CASE(0, 0) ZS_SCATTER_CASE(1, 0) ZS_SCATTER_CASE(0, 4) ZS_SCATTER_CASE(1, 4)
    ZS_SCATTER_CASE(0, 8) ZS_SCATTER_CASE(1, 8)
#undef ZS_SCATTER_CASE
}

#undef ZS_FN
#undef ZS_CAT
#undef ZS_CAT2
