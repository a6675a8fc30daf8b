// cpu_vs_std.cpp — the C fallback (a ZESORT_BACKEND_CPU context, zesort_sort)
// against std::sort, std::stable_sort and qsort, in one process on the same
// random keys: u32 keys, u64 keys, and pairs (u32 key + u32 value = input
// index) against std::stable_sort of (key, value) structs by key. zesort runs
// with ZESORT_THREADS = each of --threads (set with setenv before each sort:
// the fallback reads it at every sort). Every method runs once per round,
// rounds interleaved so that a busy machine slows all of them alike; the
// table gives the median and the best of the rounds, and the ratios of the
// medians. Every zesort result is checked against std's (keys, and values
// for pairs: stability); a mismatch exits 1.
//
//   cpu_vs_std [--n N] [--rounds R] [--threads 1,2] [--qsort-rounds Q]
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "zesort.h"

namespace {

struct pair_kv {
    uint32_t key, value;
};

uint64_t splitmix(uint64_t &s)
{
    uint64_t z = (s += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

double now_ms()
{
    using clk = std::chrono::steady_clock;
    return std::chrono::duration<double, std::milli>(clk::now().time_since_epoch()).count();
}

template <typename T> int cmp_num(const void *a, const void *b)
{
    T x, y;
    std::memcpy(&x, a, sizeof x);
    std::memcpy(&y, b, sizeof y);
    return (x > y) - (x < y);
}

// qsort is not stable: (key, value = index) pairs compare by both, which
// gives the stable order.
int cmp_pair(const void *a, const void *b)
{
    const pair_kv *x = static_cast<const pair_kv *>(a), *y = static_cast<const pair_kv *>(b);
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return (x->value > y->value) - (x->value < y->value);
}

struct method {
    std::string kind, name;
    unsigned threads; // zesort only
    std::vector<double> ms;
};

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const size_t k = v.size();
    return k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
}

[[noreturn]] void die(const char *what)
{
    std::fprintf(stderr, "cpu_vs_std: %s\n", what);
    std::exit(1);
}

void set_threads(unsigned t)
{
    char buf[16];
    std::snprintf(buf, sizeof buf, "%u", t);
    setenv("ZESORT_THREADS", buf, 1);
}

} // namespace

int main(int argc, char **argv)
{
    uint64_t n = UINT64_C(16) << 20;
    int rounds = 5, qsort_rounds = 2;
    std::vector<unsigned> threads = {1, 2};
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--n" && i + 1 < argc) {
            n = std::strtoull(argv[++i], nullptr, 0);
        } else if (a == "--rounds" && i + 1 < argc) {
            rounds = std::atoi(argv[++i]);
        } else if (a == "--qsort-rounds" && i + 1 < argc) {
            qsort_rounds = std::atoi(argv[++i]); // 0: no qsort rows (it is slow)
        } else if (a == "--threads" && i + 1 < argc) {
            threads.clear();
            std::string s = argv[++i];
            for (size_t p = 0; p <= s.size();) {
                size_t q = s.find(',', p);
                if (q == std::string::npos)
                    q = s.size();
                threads.push_back(static_cast<unsigned>(std::strtoul(s.substr(p, q - p).c_str(), nullptr, 10)));
                p = q + 1;
            }
        } else {
            std::fprintf(stderr, "usage: cpu_vs_std [--n N] [--rounds R] [--threads 1,2] [--qsort-rounds Q]\n");
            return 2;
        }
    }
    if (n < 1 || rounds < 1)
        die("--n and --rounds must be >= 1");
    if (qsort_rounds < 0)
        die("--qsort-rounds must be >= 0");

    // inputs, and the work arrays every timed sort runs in (touched before
    // the first timing: only the sorts' own allocations are fresh memory)
    uint64_t seed = 20240613;
    std::vector<uint32_t> in32(n), w32(n), ref32(n), wv(n), iota(n);
    std::vector<uint64_t> in64(n), w64(n), ref64(n);
    std::vector<pair_kv> inp(n), wp(n), refp(n);
    for (uint64_t i = 0; i < n; ++i) {
        const uint64_t r = splitmix(seed);
        in32[i] = static_cast<uint32_t>(r >> 32);
        in64[i] = splitmix(seed);
        iota[i] = static_cast<uint32_t>(i);
        inp[i] = {in32[i], static_cast<uint32_t>(i)};
    }
    ref32 = in32;
    std::sort(ref32.begin(), ref32.end());
    ref64 = in64;
    std::sort(ref64.begin(), ref64.end());
    refp = inp;
    std::stable_sort(refp.begin(), refp.end(), [](const pair_kv &a, const pair_kv &b) { return a.key < b.key; });

    zesort_context *ctx = nullptr;
    if (zesort_create(ZESORT_BACKEND_CPU, &ctx) != ZESORT_OK)
        die("zesort_create(ZESORT_BACKEND_CPU) failed");

    std::vector<method> ms;
    for (const char *kind : {"u32", "u64", "pairs"}) {
        for (unsigned t : threads)
            ms.push_back({kind, "zesort-cpu", t, {}});
        ms.push_back({kind, std::string(kind) == "pairs" ? "std::stable_sort" : "std::sort", 0, {}});
        ms.push_back({kind, "qsort", 0, {}});
    }

    for (int r = 0; r < rounds; ++r) {
        for (method &m : ms) {
            if (m.name == "qsort" && r >= qsort_rounds)
                continue;
            const bool u32 = m.kind == "u32", u64 = m.kind == "u64";
            if (u32)
                w32 = in32;
            else if (u64)
                w64 = in64;
            else if (m.name == "zesort-cpu")
                w32 = in32, wv = iota;
            else
                wp = inp;
            zesort_options o;
            zesort_options_default(&o);
            o.key_type = u64 ? ZESORT_KEY_U64 : ZESORT_KEY_U32;
            if (m.name == "zesort-cpu")
                set_threads(m.threads);
            const double t0 = now_ms();
            if (m.name == "zesort-cpu") {
                zesort_status st = u64 ? zesort_sort(ctx, w64.data(), nullptr, n, &o)
                                       : zesort_sort(ctx, w32.data(), u32 ? nullptr : wv.data(), n, &o);
                if (st != ZESORT_OK)
                    die(zesort_last_error(ctx));
            } else if (m.name == "std::sort") {
                if (u32)
                    std::sort(w32.begin(), w32.end());
                else
                    std::sort(w64.begin(), w64.end());
            } else if (m.name == "std::stable_sort") {
                std::stable_sort(wp.begin(), wp.end(), [](const pair_kv &a, const pair_kv &b) { return a.key < b.key; });
            } else if (u32) {
                std::qsort(w32.data(), n, sizeof w32[0], cmp_num<uint32_t>);
            } else if (u64) {
                std::qsort(w64.data(), n, sizeof w64[0], cmp_num<uint64_t>);
            } else {
                std::qsort(wp.data(), n, sizeof wp[0], cmp_pair);
            }
            m.ms.push_back(now_ms() - t0);
            // every result against std's
            bool ok;
            if (u32)
                ok = w32 == ref32;
            else if (u64)
                ok = w64 == ref64;
            else if (m.name == "zesort-cpu") {
                ok = true;
                for (uint64_t i = 0; i < n && ok; ++i)
                    ok = w32[i] == refp[i].key && wv[i] == refp[i].value;
            } else {
                ok = true;
                for (uint64_t i = 0; i < n && ok; ++i)
                    ok = wp[i].key == refp[i].key && wp[i].value == refp[i].value;
            }
            if (!ok) {
                std::fprintf(stderr, "cpu_vs_std: %s %s (threads %u) differs from std's result\n",
                             m.kind.c_str(), m.name.c_str(), m.threads);
                return 1;
            }
        }
    }
    zesort_destroy(ctx);

    std::printf("n = %llu random keys, %d rounds (qsort %d), median / best ms; ratios of medians; "
                "all results equal to std's\n",
                static_cast<unsigned long long>(n), rounds, std::min(rounds, qsort_rounds));
    std::printf("%-6s %-17s %7s %10s %10s %9s %8s %8s\n", "keys", "method", "threads", "median_ms",
                "best_ms", "Mkeys/s", "vs_std", "vs_qsort");
    for (const method &m : ms) {
        // A method that never ran (qsort with --qsort-rounds 0) has no row:
        // the median and best of nothing are undefined.
        if (m.ms.empty())
            continue;
        double std_med = 0, q_med = 0;
        for (const method &o : ms) {
            if (o.kind != m.kind || o.ms.empty())
                continue;
            if (o.name.rfind("std::", 0) == 0)
                std_med = median(o.ms);
            if (o.name == "qsort")
                q_med = median(o.ms);
        }
        const double med = median(m.ms), best = *std::min_element(m.ms.begin(), m.ms.end());
        char th[8] = "-";
        if (m.name == "zesort-cpu")
            std::snprintf(th, sizeof th, "%u", m.threads);
        char vs_q[16] = "-"; // no qsort measured: no ratio
        if (q_med > 0)
            std::snprintf(vs_q, sizeof vs_q, "%.2fx", q_med / med);
        std::printf("%-6s %-17s %7s %10.1f %10.1f %9.1f %7.2fx %8s\n", m.kind.c_str(), m.name.c_str(),
                    th, med, best, static_cast<double>(n) / med / 1e3, std_med / med, vs_q);
    }
    return 0;
}
