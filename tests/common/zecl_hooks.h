/*
 * zecl_hooks.h — the test driver's exported test hooks (tests/ze_cl_driver/
 * faults.c), looked up in the copy the Level Zero loader loaded
 * (ZE_ENABLE_ALT_DRIVERS): arm the fault injector or only count calls, read
 * the counts, and the API a fault was injected into.
 */
#ifndef ZESORT_TESTS_ZECL_HOOKS_H
#define ZESORT_TESTS_ZECL_HOOKS_H

#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>

/* zecl_test_fault_count modes: injectable calls, allocations, barriers,
 * kernel launches appended. */
enum { ZECL_COUNT_CALLS = 1, ZECL_COUNT_ALLOCS = 2, ZECL_COUNT_BARRIERS = 3,
       ZECL_COUNT_LAUNCHES = 4 };

typedef struct zecl_hooks {
    /* mode 1: fail the k-th injectable call from now, 2: the k-th allocation,
     * with `result`; mode 0 or k = 0: only count */
    void (*arm)(int mode, uint64_t k, int32_t result);
    uint64_t (*count)(int mode);      /* ZECL_COUNT_* since arming */
    const char *(*injected)(void);    /* API that failed since arming, or NULL */
    uint64_t (*native_modules)(void); /* modules built from a native binary (native.c) */
} zecl_hooks;

/* Fills *h from the loaded test driver; 0, or -1 when it is not loaded. */
static inline int zecl_hooks_find(zecl_hooks *h)
{
    const char *path = getenv("ZE_ENABLE_ALT_DRIVERS");
    void *lib = path ? dlopen(path, RTLD_NOW | RTLD_NOLOAD) : NULL;
    if (!lib)
        return -1;
    *(void **)&h->arm = dlsym(lib, "zecl_test_fault_arm");
    *(void **)&h->count = dlsym(lib, "zecl_test_fault_count");
    *(void **)&h->injected = dlsym(lib, "zecl_test_fault_injected");
    *(void **)&h->native_modules = dlsym(lib, "zecl_test_native_modules");
    dlclose(lib); /* the loader keeps it loaded */
    return h->arm && h->count && h->injected ? 0 : -1;
}

#endif
