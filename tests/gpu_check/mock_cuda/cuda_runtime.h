// A stand-in for CUDA's runtime header: just the declarations that
// bench/cub_peer.cu uses, so that its host code is compiled (syntax and
// types) on machines without CUDA (test cub-peer-compiles). Never linked.
#pragma once
#include <cstddef>
typedef int cudaError_t;
enum { cudaSuccess = 0 };
enum cudaMemcpyKind { cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost };
typedef struct CUevent_st *cudaEvent_t;
struct cudaDeviceProp {
    char name[256];
};
const char *cudaGetErrorString(cudaError_t);
template <typename T> cudaError_t cudaMalloc(T **p, size_t bytes);
cudaError_t cudaFree(void *p);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind);
cudaError_t cudaEventCreate(cudaEvent_t *e);
cudaError_t cudaEventDestroy(cudaEvent_t e);
cudaError_t cudaEventRecord(cudaEvent_t e, void *stream = nullptr);
cudaError_t cudaEventSynchronize(cudaEvent_t e);
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b);
cudaError_t cudaGetDeviceProperties(cudaDeviceProp *p, int device);
