// cpu_hwy_vqsort.cc — the C fallback's bridge to Highway's vqsort (see
// cpu_hwy_vqsort.h). The only C++ in the library: a thin shim with
// no exceptions and nothing of libstdc++ (malloc and placement new), so a
// static link needs no -lstdc++. vqsort's Sorter allocates its scratch with
// Highway's aligned allocator.
#include "backends/cpu/cpu_hwy_vqsort.h"

#include <cstdint>
#include <cstdlib>
#include <new>

#include <hwy/contrib/sort/vqsort.h>
#include <hwy/targets.h>

struct zs_vq {
    hwy::Sorter sorter;
};

static const char *detect_target(void)
{
    const int64_t t = hwy::SupportedTargets();
    if (t & HWY_AVX3_DL)
        return "AVX3_DL";
    if (t & HWY_AVX3)
        return "AVX3";
    if (t & HWY_AVX2)
        return "AVX2";
    return nullptr;
}

// Asked once per process: SupportedTargets runs CPUID, which a virtual
// machine traps, and every C-fallback sort asks (zs_cpu_max_keys): perf
// put it at 20% of `zesort bench --backend cpu --segments 1024`, whose
// loop of 16384 small sorts asked 16384 times. Racing first callers store
// the same answer. (__atomic builtins, not a function-local static, whose
// guard would need libstdc++.)
const char *zs_vq_target(void)
{
    static const char *target;
    static int known;
    if (!__atomic_load_n(&known, __ATOMIC_ACQUIRE)) {
        __atomic_store_n(&target, detect_target(), __ATOMIC_RELAXED);
        __atomic_store_n(&known, 1, __ATOMIC_RELEASE);
    }
    return __atomic_load_n(&target, __ATOMIC_RELAXED);
}

zs_vq *zs_vq_new(void)
{
    if (!zs_vq_target())
        return nullptr;
    void *p = std::malloc(sizeof(zs_vq));
    return p ? new (p) zs_vq : nullptr;
}

void zs_vq_free(zs_vq *vq)
{
    if (!vq)
        return;
    vq->~zs_vq();
    std::free(vq);
}

template <typename T> static void sort_as(const hwy::Sorter &s, void *keys, size_t n, int descending)
{
    T *k = static_cast<T *>(keys);
    if (descending)
        s(k, n, hwy::SortDescending());
    else
        s(k, n, hwy::SortAscending());
}

void zs_vq_sort(const zs_vq *vq, void *keys, size_t n, unsigned key_bytes, int is_signed,
                int descending)
{
    const hwy::Sorter &s = vq->sorter;
    if (key_bytes == 8)
        is_signed ? sort_as<int64_t>(s, keys, n, descending) : sort_as<uint64_t>(s, keys, n, descending);
    else
        is_signed ? sort_as<int32_t>(s, keys, n, descending) : sort_as<uint32_t>(s, keys, n, descending);
}
