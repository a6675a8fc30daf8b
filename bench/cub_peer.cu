// cub_peer.cu — CUB's DeviceRadixSort on the keys `zesort bench` sorts
// (uniform random bits from splitmix64 seeded 0x5EED2024, src/cli/keys.c),
// the NVIDIA peer of scripts/gpu-check.
//
// Build (on a machine with CUDA): nvcc -O3 -std=c++17 -o cub_peer bench/cub_peer.cu
// Run:   cub_peer TYPE PAIRS N[,N...] REPEAT
//        TYPE u32 i32 f32 u64 i64 f64; PAIRS 0 (keys only) or 1 (u32 values)
//
// Prints one CSV row per n with the first columns of `zesort bench --csv`:
//   backend,device,algo,type,pairs,n,median_ms,mkeys_per_s,scan
//   cuda,<GPU>,cub-radix,u32,0,16777216,<ms>,<Mkeys/s>,events
// Time: the median of REPEAT sorts after a warm-up, each between two CUDA
// events (the sort's kernels only, as zesort bench times its own), over a
// DoubleBuffer (CUB's fastest form: no copy back). Each result is checked:
// in order, a permutation of the input (a hash sum), and with values the
// pairing and the stability (a value is its key's input position).
// Exit 0, or 1 with a line on stderr.
#include <cub/cub.cuh>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define CK(call)                                                                      \
    do {                                                                              \
        cudaError_t e_ = (call);                                                      \
        if (e_ != cudaSuccess) {                                                      \
            std::fprintf(stderr, "cub_peer: %s: %s\n", #call, cudaGetErrorString(e_)); \
            std::exit(1);                                                             \
        }                                                                             \
    } while (0)

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

// The keys of zesort bench --input random: a 32-bit key is the high half of
// each splitmix64 output, a 64-bit key the whole of it.
template <typename K> static void make_keys(std::vector<K> &keys)
{
    uint64_t state = UINT64_C(0x5EED2024);
    for (K &k : keys) {
        const uint64_t r = splitmix64(&state);
        if (sizeof(K) == 4) {
            const uint32_t bits = (uint32_t)(r >> 32);
            std::memcpy(&k, &bits, 4);
        } else {
            std::memcpy(&k, &r, 8);
        }
    }
}

// A key's bits mapped so that unsigned order is the type's order (CUB's and
// zesort's: negative floats and NaNs by their bits, -0 before +0).
template <typename K> static uint64_t ordered(K key)
{
    uint64_t bits = 0;
    std::memcpy(&bits, &key, sizeof(K));
    const int width = 8 * (int)sizeof(K);
    const uint64_t sign = UINT64_C(1) << (width - 1);
    const uint64_t all = width == 64 ? ~UINT64_C(0) : (UINT64_C(1) << width) - 1;
    const bool is_float = (K)0.5 != (K)0;
    const bool is_signed = (K)-1 < (K)0;
    if (is_float)
        return (bits & sign) ? (~bits & all) : (bits | sign);
    return is_signed ? (bits ^ sign) : bits;
}

static uint64_t mix(uint64_t x)
{
    uint64_t s = x;
    return splitmix64(&s);
}

// In order, a permutation of `in` and, with values, each value the input
// position of its key, increasing among equal keys (stable).
template <typename K>
static bool verified(const std::vector<K> &in, const std::vector<K> &out,
                     const std::vector<uint32_t> *values)
{
    uint64_t sum_in = 0, sum_out = 0;
    for (size_t i = 0; i < in.size(); ++i) {
        sum_in += mix(ordered(in[i]));
        sum_out += mix(ordered(out[i]));
        if (i > 0 && ordered(out[i - 1]) > ordered(out[i]))
            return false;
        if (values) {
            const uint32_t v = (*values)[i];
            if (v >= in.size() || ordered(in[v]) != ordered(out[i]))
                return false;
            if (i > 0 && ordered(out[i - 1]) == ordered(out[i]) && (*values)[i - 1] >= v)
                return false;
        }
    }
    return sum_in == sum_out;
}

template <typename K>
static double sort_once(cub::DoubleBuffer<K> &keys, cub::DoubleBuffer<uint32_t> &values,
                        bool pairs, int n, void *temp, size_t temp_bytes,
                        const std::vector<K> &input)
{
    CK(cudaMemcpy(keys.d_buffers[0], input.data(), (size_t)n * sizeof(K),
                  cudaMemcpyHostToDevice));
    keys.selector = 0;
    values.selector = 0;
    cudaEvent_t start, stop;
    CK(cudaEventCreate(&start));
    CK(cudaEventCreate(&stop));
    CK(cudaEventRecord(start));
    if (pairs)
        CK(cub::DeviceRadixSort::SortPairs(temp, temp_bytes, keys, values, n));
    else
        CK(cub::DeviceRadixSort::SortKeys(temp, temp_bytes, keys, n));
    CK(cudaEventRecord(stop));
    CK(cudaEventSynchronize(stop));
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, start, stop));
    CK(cudaEventDestroy(start));
    CK(cudaEventDestroy(stop));
    return ms;
}

template <typename K>
static int run(const char *type, bool pairs, uint64_t n64, int repeat, const char *device)
{
    if (n64 == 0 || n64 > (uint64_t)INT32_MAX) {
        std::fprintf(stderr, "cub_peer: n %llu: expected 1 to 2^31 - 1\n",
                     (unsigned long long)n64);
        return 1;
    }
    const int n = (int)n64;
    std::vector<K> input((size_t)n);
    make_keys(input);
    std::vector<uint32_t> iota((size_t)n);
    for (int i = 0; i < n; ++i)
        iota[(size_t)i] = (uint32_t)i;
    K *k[2];
    uint32_t *v[2] = {nullptr, nullptr};
    for (int b = 0; b < 2; ++b) {
        CK(cudaMalloc(&k[b], (size_t)n * sizeof(K)));
        if (pairs)
            CK(cudaMalloc(&v[b], (size_t)n * sizeof(uint32_t)));
    }
    cub::DoubleBuffer<K> keys(k[0], k[1]);
    cub::DoubleBuffer<uint32_t> values(v[0], v[1]);
    size_t temp_bytes = 0;
    if (pairs)
        CK(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, keys, values, n));
    else
        CK(cub::DeviceRadixSort::SortKeys(nullptr, temp_bytes, keys, n));
    void *temp = nullptr;
    CK(cudaMalloc(&temp, temp_bytes));

    std::vector<double> ms;
    for (int r = 0; r <= repeat; ++r) { // r == 0: the warm-up
        if (pairs)
            CK(cudaMemcpy(v[0], iota.data(), (size_t)n * 4, cudaMemcpyHostToDevice));
        const double t = sort_once(keys, values, pairs, n, temp, temp_bytes, input);
        if (r > 0)
            ms.push_back(t);
    }
    std::vector<K> out((size_t)n);
    std::vector<uint32_t> out_values;
    CK(cudaMemcpy(out.data(), keys.Current(), (size_t)n * sizeof(K), cudaMemcpyDeviceToHost));
    if (pairs) {
        out_values.resize((size_t)n);
        CK(cudaMemcpy(out_values.data(), values.Current(), (size_t)n * 4,
                      cudaMemcpyDeviceToHost));
    }
    const bool ok = verified(input, out, pairs ? &out_values : nullptr);
    for (int b = 0; b < 2; ++b) {
        CK(cudaFree(k[b]));
        if (v[b])
            CK(cudaFree(v[b]));
    }
    CK(cudaFree(temp));
    if (!ok) {
        std::fprintf(stderr, "cub_peer: %s n=%d pairs=%d: the result is wrong\n", type, n,
                     (int)pairs);
        return 1;
    }
    std::sort(ms.begin(), ms.end());
    const double median = ms[ms.size() / 2];
    std::printf("cuda,%s,cub-radix,%s,%d,%d,%.4f,%.2f,events\n", device, type, (int)pairs, n,
                median, n / median / 1000.0);
    std::fflush(stdout);
    return 0;
}

static uint64_t parse_count(const std::string &text)
{
    char *end = nullptr;
    uint64_t v = std::strtoull(text.c_str(), &end, 10);
    const char suffix = end ? *end : 0;
    if (suffix == 'k' || suffix == 'K')
        v <<= 10;
    else if (suffix == 'm' || suffix == 'M')
        v <<= 20;
    else if (suffix == 'g' || suffix == 'G')
        v <<= 30;
    return v;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        std::fprintf(stderr, "usage: cub_peer TYPE PAIRS N[,N...] REPEAT\n");
        return 2;
    }
    const std::string type = argv[1];
    const bool pairs = std::atoi(argv[2]) != 0;
    const int repeat = std::max(1, std::atoi(argv[4]));
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    std::string list = argv[3];
    int rc = 0;
    for (size_t at = 0; at <= list.size() && rc == 0;) {
        size_t comma = list.find(',', at);
        if (comma == std::string::npos)
            comma = list.size();
        const uint64_t n = parse_count(list.substr(at, comma - at));
        at = comma + 1;
        if (type == "u32")
            rc = run<uint32_t>("u32", pairs, n, repeat, prop.name);
        else if (type == "i32")
            rc = run<int32_t>("i32", pairs, n, repeat, prop.name);
        else if (type == "f32")
            rc = run<float>("f32", pairs, n, repeat, prop.name);
        else if (type == "u64")
            rc = run<uint64_t>("u64", pairs, n, repeat, prop.name);
        else if (type == "i64")
            rc = run<int64_t>("i64", pairs, n, repeat, prop.name);
        else if (type == "f64")
            rc = run<double>("f64", pairs, n, repeat, prop.name);
        else {
            std::fprintf(stderr, "cub_peer: unknown type '%s'\n", type.c_str());
            return 2;
        }
    }
    return rc;
}
