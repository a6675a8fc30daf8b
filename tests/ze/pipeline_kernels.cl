/* Producer and consumer kernels of the interop tests: a tiny pipeline
 * around an appended zesort sort. OpenCL C 1.2, compiled to SPIR-V by ocloc. */

/* keys[i] = a hash of (i, seed) for i < n; the count goes to *count. */
__kernel void produce(__global uint *keys, __global uint *count, uint n, uint seed)
{
    uint i = (uint)get_global_id(0);
    if (i == 0)
        *count = n;
    if (i >= n)
        return;
    uint x = i * 0x9E3779B9u ^ seed;
    x ^= x >> 16;
    x *= 0x7FEB352Du;
    x ^= x >> 15;
    x *= 0x846CA68Bu;
    x ^= x >> 16;
    keys[i] = x;
}

/* out[i] = keys[i] + 1 for i < *count: reads the sorted keys and the count
 * produced on the device. */
__kernel void consume(__global const uint *keys, __global uint *out, __global const uint *count)
{
    uint i = (uint)get_global_id(0);
    if (i < *count)
        out[i] = keys[i] + 1u;
}
