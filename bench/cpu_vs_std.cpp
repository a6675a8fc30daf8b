// cpu_vs_std.cpp — the C fallback (a ZESORT_BACKEND_CPU context, zesort_run)
// against the CPU sorts a Debian user has, in one process on the same random
// keys: Highway's vqsort (1 thread), tbb::parallel_sort, Boost's
// block_indirect_sort and spreadsort, std::sort and qsort; for pairs (u32 key
// + u32 value = input index, stable) Boost's parallel_stable_sort,
// std::stable_sort and qsort. Peers missing at build time have no rows.
//
// Threaded methods run with each of --threads (zesort: ZESORT_THREADS, set
// before each sort; tbb: a task_arena; Boost: its thread argument). Every
// method runs once per round, rounds interleaved so that a busy machine slows
// all of them alike; the table gives the median and best of the rounds and
// two ratios of best times (the least disturbed by a noisy machine): against
// the fastest peer of the same keys (any thread count; std::sort and qsort
// count as peers) and against std's. Every
// result is checked against std's (for pairs, values too: stability); a
// mismatch exits 1. Float keys are finite and never -0.0, so every peer's
// order is the same as zesort's totalOrder.
//
//   cpu_vs_std [--n N[,N...]] [--rounds R] [--threads 1,2] [--qsort-rounds Q]
//              [--kinds u32,i32,f32,u64,i64,f64,pairs]
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#ifdef ZS_PEER_HWY
#include <hwy/contrib/sort/vqsort.h>
#endif
#ifdef ZS_PEER_TBB
#include <tbb/parallel_sort.h>
#include <tbb/task_arena.h>
#endif
#ifdef ZS_PEER_BOOST_SORT
#include <boost/sort/sort.hpp>
#endif

#include "zesort.h"

namespace {

struct pair_kv {
    uint32_t key, value;
};
bool operator<(const pair_kv &a, const pair_kv &b) { return a.key < b.key; }
bool operator==(const pair_kv &a, const pair_kv &b) { return a.key == b.key && a.value == b.value; }

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

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const size_t k = v.size();
    return k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
}

[[noreturn]] void die(const std::string &what)
{
    std::fprintf(stderr, "cpu_vs_std: %s\n", what.c_str());
    std::exit(1);
}

void set_zesort_threads(unsigned t)
{
    char buf[16];
    std::snprintf(buf, sizeof buf, "%u", t);
    setenv("ZESORT_THREADS", buf, 1);
}

// The keys of one kind: random bits, floats finite (see the header).
template <typename T> T make_key(uint64_t r);
template <> uint32_t make_key(uint64_t r) { return static_cast<uint32_t>(r >> 32); }
template <> int32_t make_key(uint64_t r) { return static_cast<int32_t>(r >> 32); }
template <> uint64_t make_key(uint64_t r) { return r; }
template <> int64_t make_key(uint64_t r) { return static_cast<int64_t>(r); }
template <> float make_key(uint64_t r) { return static_cast<float>(static_cast<int32_t>(r >> 32) | 1) * 1e-3f; }
template <> double make_key(uint64_t r) { return static_cast<double>(static_cast<int64_t>(r) | 1) * 1e-9; }
template <> pair_kv make_key(uint64_t r) { return {static_cast<uint32_t>(r >> 32), 0}; }

template <typename T> zesort_key_type key_type_of();
template <> zesort_key_type key_type_of<uint32_t>() { return ZESORT_KEY_U32; }
template <> zesort_key_type key_type_of<int32_t>() { return ZESORT_KEY_I32; }
template <> zesort_key_type key_type_of<float>() { return ZESORT_KEY_F32; }
template <> zesort_key_type key_type_of<uint64_t>() { return ZESORT_KEY_U64; }
template <> zesort_key_type key_type_of<int64_t>() { return ZESORT_KEY_I64; }
template <> zesort_key_type key_type_of<double>() { return ZESORT_KEY_F64; }

template <typename T> int cmp_num(const void *a, const void *b)
{
    T x, y;
    std::memcpy(&x, a, sizeof x);
    std::memcpy(&y, b, sizeof y);
    return (x > y) - (x < y);
}
// qsort is not stable: pairs compare by (key, value = index), the stable order.
template <> int cmp_num<pair_kv>(const void *a, const void *b)
{
    const pair_kv *x = static_cast<const pair_kv *>(a), *y = static_cast<const pair_kv *>(b);
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return (x->value > y->value) - (x->value < y->value);
}

struct method {
    std::string name;
    unsigned threads; // 0: single-threaded by design
    bool is_zesort;
    std::function<void(unsigned)> run; // sorts the work array with this many threads
    std::vector<double> ms;
};

struct options {
    std::vector<uint64_t> sizes = {UINT64_C(1) << 20, UINT64_C(16) << 20};
    int rounds = 5, qsort_rounds = 2;
    std::vector<unsigned> threads = {1, 2};
    std::vector<std::string> kinds = {"u32", "i32", "f32", "u64", "i64", "f64", "pairs"};
};

// The zesort row of keys T: zesort_run on the cpu context.
template <typename T> void zesort_keys(zesort_context *ctx, std::vector<T> &w)
{
    zesort_desc d;
    zesort_desc_init(&d, ZESORT_SORT);
    d.key_type = key_type_of<T>();
    d.keys = w.data();
    d.n = w.size();
    if (zesort_run(ctx, &d) != ZESORT_OK)
        die(zesort_last_error(ctx));
}

// The methods that sort keys of type T in w (pairs have their own list).
template <typename T>
std::vector<method> key_methods(zesort_context *ctx, std::vector<T> &w, const options &opt)
{
    std::vector<method> ms;
    for (unsigned t : opt.threads)
        ms.push_back({"zesort-cpu", t, true, [ctx, &w](unsigned th) {
                          set_zesort_threads(th);
                          zesort_keys(ctx, w);
                      }, {}});
#ifdef ZS_PEER_HWY
    ms.push_back({"vqsort", 0, false, [&w](unsigned) {
                      static const hwy::Sorter sorter;
                      sorter(w.data(), w.size(), hwy::SortAscending());
                  }, {}});
#endif
#ifdef ZS_PEER_TBB
    for (unsigned t : opt.threads)
        ms.push_back({"tbb::parallel_sort", t, false, [&w](unsigned th) {
                          tbb::task_arena arena(static_cast<int>(th));
                          arena.execute([&w] { tbb::parallel_sort(w.begin(), w.end()); });
                      }, {}});
#endif
#ifdef ZS_PEER_BOOST_SORT
    for (unsigned t : opt.threads)
        ms.push_back({"block_indirect_sort", t, false, [&w](unsigned th) {
                          boost::sort::block_indirect_sort(w.begin(), w.end(), th);
                      }, {}});
    ms.push_back({"spreadsort", 0, false, [&w](unsigned) {
                      if constexpr (std::is_floating_point<T>::value)
                          boost::sort::spreadsort::float_sort(w.begin(), w.end());
                      else
                          boost::sort::spreadsort::integer_sort(w.begin(), w.end());
                  }, {}});
#endif
    ms.push_back({"std::sort", 0, false, [&w](unsigned) { std::sort(w.begin(), w.end()); }, {}});
    return ms;
}

std::vector<method> pair_methods(zesort_context *ctx, std::vector<pair_kv> &w,
                                 std::vector<uint32_t> &wk, std::vector<uint32_t> &wv,
                                 const options &opt)
{
    std::vector<method> ms;
    for (unsigned t : opt.threads)
        ms.push_back({"zesort-cpu", t, true, [ctx, &wk, &wv](unsigned th) {
                          set_zesort_threads(th);
                          zesort_desc d;
                          zesort_desc_init(&d, ZESORT_SORT);
                          d.value_type = ZESORT_VALUES_U32;
                          d.keys = wk.data();
                          d.values = wv.data();
                          d.n = wk.size();
                          if (zesort_run(ctx, &d) != ZESORT_OK)
                              die(zesort_last_error(ctx));
                      }, {}});
#ifdef ZS_PEER_BOOST_SORT
    for (unsigned t : opt.threads)
        ms.push_back({"parallel_stable_sort", t, false, [&w](unsigned th) {
                          boost::sort::parallel_stable_sort(w.begin(), w.end(), std::less<pair_kv>(), th);
                      }, {}});
#endif
    ms.push_back({"std::stable_sort", 0, false, [&w](unsigned) { std::stable_sort(w.begin(), w.end()); }, {}});
    return ms;
}

void print_rows(const char *kind, uint64_t n, const std::vector<method> &ms)
{
    double peer = 0, std_med = 0, best_zs = 0;
    std::string peer_name;
    for (const method &m : ms) {
        if (m.ms.empty())
            continue;
        const double med = *std::min_element(m.ms.begin(), m.ms.end()); // best
        if (!m.is_zesort && (peer == 0 || med < peer))
            peer = med, peer_name = m.name + (m.threads ? " x" + std::to_string(m.threads) : "");
        if (m.is_zesort && (best_zs == 0 || med < best_zs))
            best_zs = med;
        if (m.name.rfind("std::", 0) == 0)
            std_med = med;
    }
    for (const method &m : ms) {
        if (m.ms.empty()) // qsort with --qsort-rounds 0: no row
            continue;
        const double med = median(m.ms), best = *std::min_element(m.ms.begin(), m.ms.end());
        char th[16] = "-";
        if (m.threads)
            std::snprintf(th, sizeof th, "%u", m.threads);
        std::printf("%-6s %9llu %-21s %7s %10.1f %10.1f %9.1f %9.2fx %7.2fx\n", kind,
                    static_cast<unsigned long long>(n), m.name.c_str(), th, med, best,
                    static_cast<double>(n) / best / 1e3, peer / best, std_med / best);
    }
    std::printf("%-6s %9llu fastest peer: %s; zesort-cpu (best thread count) at %.2fx of it\n",
                kind, static_cast<unsigned long long>(n), peer_name.c_str(), peer / best_zs);
}

// Rounds of every method over keys of kind T (or pairs), then its rows.
template <typename T> void run_kind(const char *kind, uint64_t n, zesort_context *ctx, const options &opt)
{
    uint64_t seed = 20240613;
    std::vector<T> in(n), w(n), ref;
    std::vector<uint32_t> wk, wv; // pairs: zesort's keys and values
    for (uint64_t i = 0; i < n; ++i)
        in[i] = make_key<T>(splitmix(seed));
    std::vector<method> ms;
    if constexpr (std::is_same<T, pair_kv>::value) {
        for (uint64_t i = 0; i < n; ++i)
            in[i].value = static_cast<uint32_t>(i);
        wk.resize(n), wv.resize(n);
        ms = pair_methods(ctx, w, wk, wv, opt);
    } else {
        ms = key_methods<T>(ctx, w, opt);
    }
    ref = in;
    std::stable_sort(ref.begin(), ref.end());
    ms.push_back({"qsort", 0, false, [&w](unsigned) { std::qsort(w.data(), w.size(), sizeof(T), cmp_num<T>); }, {}});
    for (int r = 0; r < opt.rounds; ++r) {
        for (method &m : ms) {
            if (m.name == "qsort" && r >= opt.qsort_rounds)
                continue;
            w = in; // touched before timing: only the sorts' own memory is fresh
            if constexpr (std::is_same<T, pair_kv>::value) {
                for (uint64_t i = 0; i < n; ++i)
                    wk[i] = in[i].key, wv[i] = in[i].value;
            }
            const double t0 = now_ms();
            m.run(m.threads ? m.threads : 1);
            m.ms.push_back(now_ms() - t0);
            if constexpr (std::is_same<T, pair_kv>::value) {
                if (m.is_zesort)
                    for (uint64_t i = 0; i < n; ++i)
                        w[i] = {wk[i], wv[i]};
            }
            if (!(w == ref))
                die(std::string(kind) + " " + m.name + " (threads " + std::to_string(m.threads) +
                    ") differs from std's result");
        }
    }
    print_rows(kind, n, ms);
}

// A count: digits with an optional k, m or g (times 1024, 1024^2, 1024^3);
// 0 for anything else.
uint64_t parse_count(const std::string &s)
{
    char *end = nullptr;
    uint64_t v = std::strtoull(s.c_str(), &end, 10);
    if (end == s.c_str())
        return 0;
    const std::string unit = end;
    if (unit == "k" || unit == "K")
        v <<= 10;
    else if (unit == "m" || unit == "M")
        v <<= 20;
    else if (unit == "g" || unit == "G")
        v <<= 30;
    else if (!unit.empty())
        return 0;
    return v;
}

std::vector<std::string> split(const std::string &s)
{
    std::vector<std::string> out;
    for (size_t p = 0; p <= s.size();) {
        size_t q = s.find(',', p);
        if (q == std::string::npos)
            q = s.size();
        out.push_back(s.substr(p, q - p));
        p = q + 1;
    }
    return out;
}

options parse(int argc, char **argv)
{
    options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const bool has = i + 1 < argc;
        if (a == "--n" && has) {
            o.sizes.clear();
            for (const std::string &s : split(argv[++i]))
                o.sizes.push_back(parse_count(s));
        } else if (a == "--rounds" && has) {
            o.rounds = std::atoi(argv[++i]);
        } else if (a == "--qsort-rounds" && has) {
            o.qsort_rounds = std::atoi(argv[++i]); // 0: no qsort rows (it is slow)
        } else if (a == "--threads" && has) {
            o.threads.clear();
            for (const std::string &s : split(argv[++i]))
                o.threads.push_back(static_cast<unsigned>(std::strtoul(s.c_str(), nullptr, 10)));
        } else if (a == "--kinds" && has) {
            o.kinds = split(argv[++i]);
        } else {
            std::fprintf(stderr, "usage: cpu_vs_std [--n N[,N...]] [--rounds R] [--threads 1,2] "
                                 "[--qsort-rounds Q] [--kinds u32,i32,f32,u64,i64,f64,pairs]\n");
            std::exit(2);
        }
    }
    for (uint64_t n : o.sizes)
        if (n < 1)
            die("--n takes counts >= 1 (digits, optionally k, m or g)");
    for (unsigned t : o.threads)
        if (t < 1)
            die("--threads must be >= 1");
    if (o.rounds < 1 || o.qsort_rounds < 0)
        die("--rounds must be >= 1, --qsort-rounds >= 0");
    return o;
}

} // namespace

int main(int argc, char **argv)
{
    const options opt = parse(argc, argv);
    zesort_context *ctx = nullptr;
    if (zesort_create(ZESORT_BACKEND_CPU, &ctx) != ZESORT_OK)
        die("zesort_create(ZESORT_BACKEND_CPU) failed");
    std::printf("random keys, %d rounds (qsort %d); median / best ms; Mkeys/s and ratios of best times "
                "(vs_peer: the fastest non-zesort row of the same keys); all results equal to std's\n",
                opt.rounds, std::min(opt.rounds, opt.qsort_rounds));
    std::printf("%-6s %9s %-21s %7s %10s %10s %9s %10s %8s\n", "keys", "n", "method", "threads",
                "median_ms", "best_ms", "Mkeys/s", "vs_peer", "vs_std");
    for (uint64_t n : opt.sizes)
        for (const std::string &k : opt.kinds) {
            if (k == "u32")
                run_kind<uint32_t>("u32", n, ctx, opt);
            else if (k == "i32")
                run_kind<int32_t>("i32", n, ctx, opt);
            else if (k == "f32")
                run_kind<float>("f32", n, ctx, opt);
            else if (k == "u64")
                run_kind<uint64_t>("u64", n, ctx, opt);
            else if (k == "i64")
                run_kind<int64_t>("i64", n, ctx, opt);
            else if (k == "f64")
                run_kind<double>("f64", n, ctx, opt);
            else if (k == "pairs")
                run_kind<pair_kv>("pairs", n, ctx, opt);
            else
                die("unknown kind '" + k + "' (u32, i32, f32, u64, i64, f64, pairs)");
        }
    zesort_destroy(ctx);
    return 0;
}
