/* Kernels for test_ze_cl_driver: OpenCL C 1.2, compiled to SPIR-V by
 * `ocloc -spv_only` at build time, like the library's portable kernels. */

/* Inclusive scan of each work-group's values in dynamic local memory. */
__kernel void scan_local(__global const uint *in, __global uint *out, __local uint *tmp, uint bias)
{
    uint l = get_local_id(0), g = get_global_id(0);
    tmp[l] = in[g];
    barrier(CLK_LOCAL_MEM_FENCE);
    uint s = 0;
    for (uint i = 0; i <= l; i++)
        s += tmp[i];
    out[g] = s + bias;
}

/* Reverses each work-group's slice through a static local array. */
__kernel void reverse_static(__global uint *buf)
{
    __local uint t[256];
    uint l = get_local_id(0), n = get_local_size(0);
    t[l] = buf[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    buf[get_global_id(0)] = t[n - 1 - l];
}

/* Records the launch geometry seen by every work-item of a 2D launch. */
__kernel void geometry(__global uint *out)
{
    size_t w = get_global_size(0);
    size_t i = get_global_id(1) * w + get_global_id(0);
    out[i] = (uint)(get_local_size(0) | get_local_size(1) << 8 | get_num_groups(0) << 16 |
                    get_num_groups(1) << 24);
}

/* buf[i] += 1 */
__kernel void add_one(__global uint *buf)
{
    buf[get_global_id(0)] += 1;
}

/* An 8-byte argument passed by value, not a pointer. */
__kernel void store_ulong(__global ulong *out, ulong v)
{
    out[get_global_id(0)] = v + get_global_id(0);
}

/* A struct passed by value. */
typedef struct { uint a; uint b; float c; } triple_t;
__kernel void store_struct(__global uint *out, triple_t t)
{
    out[0] = t.a;
    out[1] = t.b;
    out[2] = (uint)t.c;
}
