// topk_vs_std.cpp — the C fallback's top-k (a ZESORT_TOPK zesort_run on a
// ZESORT_BACKEND_CPU context) against the C++ way to the same result,
// std::nth_element then std::sort of the first k, and against the full
// sort (ZESORT_SORT_COPY), on the same random u32 keys, in one process.
// Rounds are interleaved (a busy machine slows all methods alike); the
// table gives the median wall ms of each and the ratios. Every top-k is
// checked against the full sort's first k; a mismatch exits 1.
//
//   topk_vs_std [--n N] [--k K[,K...]] [--rounds R]
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <zesort.h>

static double now_ms()
{
    using namespace std::chrono;
    return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

static double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

int main(int argc, char **argv)
{
    uint64_t n = 16777216;
    std::vector<uint64_t> ks = {100, 1024, 8388608};
    int rounds = 5;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--n"))
            n = strtoull(argv[i + 1], nullptr, 0);
        else if (!strcmp(argv[i], "--rounds"))
            rounds = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--k")) {
            ks.clear();
            for (char *p = argv[i + 1]; *p;) {
                ks.push_back(strtoull(p, &p, 0));
                p += *p == ',';
            }
        }
    }
    zesort_context *ctx = nullptr;
    if (zesort_create(ZESORT_BACKEND_CPU, &ctx) != ZESORT_OK)
        return fprintf(stderr, "topk_vs_std: %s\n", zesort_last_error(nullptr)), 1;
    std::vector<uint32_t> keys(n), sorted(n), work(n), out(n);
    uint64_t x = 0x9E3779B97F4A7C15ull;
    for (auto &k : keys) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        k = (uint32_t)x;
    }
    zesort_desc full, top; // the full sort (a copy) and the top-k of the same keys
    zesort_desc_init(&full, ZESORT_SORT_COPY);
    full.keys_in = keys.data();
    full.keys = sorted.data();
    full.n = n;
    zesort_desc_init(&top, ZESORT_TOPK);
    top.keys_in = keys.data();
    top.keys = out.data();
    top.n = n;
    printf("topk_vs_std: %llu random u32 keys, wall ms, median of %d rounds\n",
           (unsigned long long)n, rounds);
    printf("%10s %12s %14s %12s %12s %14s\n", "k", "sort_ms", "nth+sort_ms", "topk_ms",
           "vs_sort", "vs_nth+sort");
    for (uint64_t k : ks) {
        std::vector<double> ts, tn, tt;
        for (int r = 0; r < rounds; r++) {
            double t0 = now_ms();
            zesort_run(ctx, &full);
            double t1 = now_ms();
            std::copy(keys.begin(), keys.end(), work.begin());
            double t2 = now_ms();
            std::nth_element(work.begin(), work.begin() + (k - 1), work.end());
            std::sort(work.begin(), work.begin() + k);
            double t3 = now_ms();
            top.k = k;
            zesort_run(ctx, &top);
            double t4 = now_ms();
            ts.push_back(t1 - t0), tn.push_back(t3 - t2), tt.push_back(t4 - t3);
            if (memcmp(out.data(), sorted.data(), k * 4) || memcmp(work.data(), out.data(), k * 4))
                return fprintf(stderr, "topk_vs_std: k=%llu differs\n", (unsigned long long)k), 1;
        }
        printf("%10llu %12.2f %14.2f %12.2f %11.2fx %13.2fx\n", (unsigned long long)k,
               median(ts), median(tn), median(tt), median(ts) / median(tt),
               median(tn) / median(tt));
    }
    zesort_destroy(ctx);
    return 0;
}
