// A stand-in for CUB's header (see ../cuda_runtime.h): DoubleBuffer and the
// two DeviceRadixSort calls bench/cub_peer.cu makes, as CUB declares them.
#pragma once
#include <cuda_runtime.h>
namespace cub {
template <typename T> struct DoubleBuffer {
    T *d_buffers[2];
    int selector;
    DoubleBuffer(T *a, T *b) : d_buffers{a, b}, selector(0) {}
    T *Current() { return d_buffers[selector]; }
};
struct DeviceRadixSort {
    template <typename K>
    static cudaError_t SortKeys(void *temp, size_t &temp_bytes, DoubleBuffer<K> &keys,
                                int n);
    template <typename K, typename V>
    static cudaError_t SortPairs(void *temp, size_t &temp_bytes, DoubleBuffer<K> &keys,
                                 DoubleBuffer<V> &values, int n);
};
} // namespace cub
