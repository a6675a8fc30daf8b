/* ze_cl_driver internals: a Level Zero driver (test tool) on top of OpenCL.
 *
 * Every Level Zero handle type is a pointer to an incomplete struct
 * (struct _ze_context_handle_t, ...); the driver completes those structs
 * here, so handles are type-checked without casts.
 *
 * Concurrency: one global mutex (g.lock) guards all mutable driver state
 * (allocation table, event states, worker queues) and one condition variable
 * (g.changed, on CLOCK_MONOTONIC) is broadcast whenever any of it changes.
 * The driver is a test tool: simple and obviously correct beats fast.
 */
#ifndef ZECL_INTERNAL_H
#define ZECL_INTERNAL_H

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "ddi_tables.h"

enum { ZECL_MAX_DEVICES = 8, ZECL_MAX_SUB_DEVICES = 4 };

struct _ze_driver_handle_t {
    int unused;
};

struct _ze_device_handle_t {
    cl_device_id cl;
    char name[ZE_MAX_DEVICE_NAME];
    cl_uint vendor_id;
    cl_uint compute_units;
    cl_uint clock_mhz;
    cl_uint simd_width;
    cl_ulong max_alloc;
    cl_ulong global_mem;
    cl_ulong local_mem;
    size_t max_group_size;
    size_t max_item_sizes[3];
    size_t max_param_size;
    size_t printf_buffer_size;
    int has_fp16, has_fp64, has_int64_atomics;
    cl_device_fp_config fp32_config, fp64_config;
    uint8_t uuid[ZE_MAX_DEVICE_UUID_SIZE];
    /* How modules are built: SPIR-V through clCreateProgramWithIL when the
       device takes SPIR-V IL (PoCL 6), else SPIR 1.2 bitcode made by
       llvm-spirv (cl_khr_spir, PoCL 3.1). */
    int has_il_spirv;
    /* Intel sub-group sizes (cl_intel_subgroups), the first
       ZE_SUBGROUPSIZE_COUNT of CL_DEVICE_SUB_GROUP_SIZES_INTEL; none without. */
    uint32_t num_sg_sizes;
    uint32_t sg_sizes[ZE_SUBGROUPSIZE_COUNT];
    /* ZE_CL_DRIVER_SUB_DEVICES: a sub-device's root device and index (NULL:
       a root device), and a root device's sub-devices. */
    ze_device_handle_t parent;
    uint32_t sub_id;
    uint32_t num_subs;
    ze_device_handle_t subs[ZECL_MAX_SUB_DEVICES];
};

struct _ze_context_handle_t {
    int unused;
};

/* One live allocation of zeMemAlloc*: user pointer (aligned) inside an
   OpenCL fine-grained SVM block starting at base. */
struct zecl_alloc {
    char *ptr;
    void *base;
    size_t size;
    ze_memory_type_t type;
    ze_device_handle_t device;
    ze_context_handle_t context; /* zeMemGetAllocProperties answers for its own context only */
    uint64_t id;
};

struct _ze_module_handle_t {
    ze_device_handle_t device;
    cl_program program;
    uint32_t num_kernels;
    char **kernel_names;
};

struct _ze_module_build_log_handle_t {
    char *text;
};

enum zecl_arg_kind { ZECL_ARG_UNKNOWN, ZECL_ARG_POINTER, ZECL_ARG_LOCAL, ZECL_ARG_VALUE };

/* The value of one kernel argument, as set by zeKernelSetArgumentValue. */
struct zecl_arg {
    int set;
    enum zecl_arg_kind kind; /* how it is passed to OpenCL */
    size_t size;
    void *pointer;           /* ZECL_ARG_POINTER */
    unsigned char *bytes;    /* ZECL_ARG_VALUE: size bytes */
};

struct _ze_kernel_handle_t {
    ze_module_handle_t module;
    cl_kernel cl;
    char *name;
    uint32_t num_args;
    enum zecl_arg_kind *declared; /* kind from OpenCL arg info, or UNKNOWN */
    struct zecl_arg *args;
    uint32_t group_size[3];
    size_t max_group_size;
    size_t required_size[3];      /* reqd_work_group_size, or zeros */
    ze_kernel_indirect_access_flags_t indirect;
    /* OpenCL kernel objects are not thread-safe: setting arguments and
       enqueueing happen under this lock (API thread or worker thread). */
    pthread_mutex_t cl_lock;
};

struct _ze_event_pool_handle_t {
    ze_event_pool_flags_t flags;
    uint32_t count;
};

struct _ze_event_handle_t {
    ze_event_pool_handle_t pool;
    uint32_t index;
    int signaled;        /* guarded by g.lock */
    uint64_t ts_start;   /* timestamps (ns ticks) of the signalling command */
    uint64_t ts_end;
};

struct _ze_fence_handle_t {
    ze_command_queue_handle_t queue;
    int signaled;        /* guarded by g.lock */
};

enum zecl_cmd_kind {
    ZECL_CMD_LAUNCH,
    ZECL_CMD_COPY,
    ZECL_CMD_FILL,
    ZECL_CMD_BARRIER,     /* zeCommandListAppendBarrier, ...MemoryRangesBarrier */
    ZECL_CMD_SIGNAL,      /* zeCommandListAppendSignalEvent */
    ZECL_CMD_WAIT,        /* zeCommandListAppendWaitOnEvents */
    ZECL_CMD_EVENT_RESET,
    ZECL_CMD_WRITE_TIMESTAMP,
    ZECL_CMD_QUERY_TIMESTAMPS,
};

/* One recorded command. Everything it needs is captured at append time. */
struct zecl_cmd {
    enum zecl_cmd_kind kind;
    ze_event_handle_t signal;
    uint32_t num_waits;
    ze_event_handle_t *waits;
    union {
        struct {
            ze_kernel_handle_t kernel;
            uint32_t group_size[3];
            ze_group_count_t groups;
            const ze_group_count_t *indirect; /* read at execution time */
            struct zecl_arg *args;            /* snapshot, kernel->num_args */
            uint32_t num_args;                /* of the snapshot: freeing it must not read
                                                 the kernel, which may be destroyed first */
        } launch;
        struct {
            void *dst;
            const void *src;
            size_t size;
        } copy;
        struct {
            void *dst;
            unsigned char pattern[128];
            size_t pattern_size;
            size_t size;
        } fill;
        struct {
            ze_event_handle_t event;
        } reset;
        struct {
            uint64_t *dst;
        } timestamp;
        struct {
            uint32_t count;
            ze_event_handle_t *events;
            void *dst;
            size_t *offsets; /* NULL: packed */
        } query;
    } u;
};

/* One command waiting to run on a worker (worker.c explains the order). */
struct zecl_node {
    uint64_t seq;                   /* append order on its worker */
    struct zecl_cmd *cmd;           /* NULL: a fence node */
    int owned;                      /* cmd (malloc'd) is freed once it ran: immediate lists */
    ze_command_list_handle_t list;  /* the regular list cmd belongs to (in_flight), or NULL */
    uint64_t group;                 /* nonzero: one submission of an in-order list, whose
                                       commands run in append order */
    ze_fence_handle_t fence;        /* fence node: signalled after every earlier node */
};

/* A thread executing the commands of one command queue or immediate list,
   one at a time, on its own in-order OpenCL queue. */
struct zecl_worker {
    pthread_t thread;
    cl_command_queue queue;
    struct zecl_node *nodes;        /* pending (the running one included), by seq;
                                       guarded by g.lock, like every field below */
    size_t count, cap;
    uint64_t next_seq;
    uint64_t released;              /* nodes with seq < released may run; the rest are the
                                       pending window of an asynchronous immediate list */
    int windowed;                   /* holds appended commands in a window */
    uint64_t rng;                   /* random order: xorshift64 state */
    int stop;
    struct zecl_worker *next_worker; /* every live worker, for zecl_flush_all_locked */
};

struct _ze_command_queue_handle_t {
    ze_device_handle_t device;
    ze_command_queue_mode_t mode;
    struct zecl_worker *worker;
};

struct _ze_command_list_handle_t {
    ze_device_handle_t device;
    int immediate;
    ze_command_queue_mode_t mode;   /* immediate lists */
    struct zecl_worker *worker;     /* immediate lists */
    int in_order;                   /* ZE_COMMAND_LIST_FLAG_IN_ORDER / ZE_COMMAND_QUEUE_FLAG_IN_ORDER */
    uint64_t group;                 /* in-order immediate lists: the group of their nodes */
    int closed;
    struct zecl_cmd *cmds;          /* regular lists */
    size_t num_cmds, cap_cmds;
    int in_flight;                  /* commands queued or executing; guarded by g.lock */
};

struct zecl_global {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    int initialized;
    ze_result_t init_result;
    int device_lost;               /* an OpenCL command failed, or a wait stalled */
    uint64_t progress;             /* bumped whenever a command completes, an event is
                                      signalled or commands are queued (stall detection) */
    int running;                   /* commands executing now, on any worker */
    int debug;                     /* ZE_CL_DRIVER_DEBUG set: explain errors on stderr */
    uint32_t native_ip_version;    /* ZE_CL_DRIVER_IP_VERSION: the GPU played (native.c), or 0 */
    cl_platform_id platform;
    cl_context context;
    uint32_t num_devices;
    struct _ze_device_handle_t devices[ZECL_MAX_DEVICES];
    struct _ze_device_handle_t sub_devices[ZECL_MAX_DEVICES][ZECL_MAX_SUB_DEVICES];
    struct _ze_driver_handle_t driver;
    struct zecl_alloc *allocs;     /* sorted by ptr */
    size_t num_allocs, cap_allocs;
    uint64_t next_alloc_id;
};

extern struct zecl_global g;

/* --- helpers shared by the files of the driver --- */

/* Explain an error on stderr when ZE_CL_DRIVER_DEBUG is set; returns r. */
ze_result_t zecl_fail(ze_result_t r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The device timer: CLOCK_MONOTONIC_RAW in ns, the clock PoCL profiles with. */
uint64_t zecl_now_ns(void);
/* Wait on g.changed (g.lock held) until deadline_ns, a zecl_deadline()
   (UINT64_MAX: forever); returns 0 on timeout. */
int zecl_wait_until(uint64_t deadline_ns);
uint64_t zecl_deadline(uint64_t timeout_ns);

/* Allocation table (g.lock held): the allocation containing p, or NULL. */
struct zecl_alloc *zecl_find_alloc_locked(const void *p);

/* Workers (worker.c). Commands of a worker run in a random order that
   respects barriers, events, fences and in-order lists (seeded), or strictly
   in append order with ZE_CL_DRIVER_ORDER=in-order. */
ze_result_t zecl_worker_start(ze_device_handle_t device, int windowed, struct zecl_worker **out);
/* Runs everything queued (flushing every window), then ends the thread.
   DEVICE_LOST when the drain stalled (zecl_watch_wait_locked; who names the
   call in the message). */
ze_result_t zecl_worker_stop(struct zecl_worker *w, const char *who);
/* Queues n nodes at once (seq set here); takes ownership of owned commands,
   counts list commands in flight. */
ze_result_t zecl_worker_push(struct zecl_worker *w, struct zecl_node *nodes, size_t n);
/* Waits until w has nothing queued or executing (flushing every window). */
ze_result_t zecl_worker_sync(struct zecl_worker *w, uint64_t timeout_ns, const char *who);
/* A host wait (g.lock held): makes every worker's pending window runnable
   (the awaited object may depend on any of them), then waits on g.changed
   like zecl_wait_until. Flushing again at every wake-up means a command
   appended by another thread meanwhile cannot be held while the host waits. */
int zecl_host_wait_locked(uint64_t deadline_ns);
void zecl_flush_all_locked(void);
/* Host waits that may never end (a destroy, a reset, a wait with timeout
   UINT64_MAX) give up when the driver is stalled: no command executing and
   nothing completed, signalled or queued for ZE_CL_DRIVER_HANG_TIMEOUT
   seconds (default 60; 0: wait forever). A wait with a finite deadline only
   ends at it. Use:
       struct zecl_watch watch;
       zecl_watch_begin_locked(&watch, deadline);
       while (!done && (k = zecl_watch_wait_locked(&watch)) > 0) ;
       if (k < 0) r = zecl_stalled_locked(who);
   zecl_watch_wait_locked is one zecl_host_wait_locked: 1 to wait on, 0 at
   the deadline, -1 stalled. zecl_stalled_locked says on stderr what every
   pending command waits for, marks the device lost and drops every pending
   command (signalling its event and fence, as a failed command does, so
   that nothing else waits forever); returns ZE_RESULT_ERROR_DEVICE_LOST. */
struct zecl_watch {
    uint64_t deadline;       /* the caller's (UINT64_MAX: none) */
    uint64_t stall_deadline; /* UINT64_MAX: no stall detection */
    uint64_t hang_ns;
    uint64_t progress;       /* g.progress when last seen */
};
void zecl_watch_begin_locked(struct zecl_watch *watch, uint64_t deadline_ns);
int zecl_watch_wait_locked(struct zecl_watch *watch);
ze_result_t zecl_stalled_locked(const char *who);
/* 1 unless ZE_CL_DRIVER_ORDER=in-order. */
int zecl_random_order(void);
/* A fresh nonzero group for the nodes of an in-order list (g.lock held). */
uint64_t zecl_new_group_locked(void);

/* Native binaries (native.c): the SPIR-V a native module is built from when
   it is a zebin of the IP version the driver plays; else a refusal
   (INVALID_NATIVE_BINARY) and why in *log (malloc'd). */
ze_result_t zecl_native_spirv(const void *binary, size_t size, const void **spirv,
                              size_t *spirv_size, char **log);

/* Kernels: set every argument of a launch snapshot (k->cl_lock held). */
cl_int zecl_apply_args(ze_kernel_handle_t k, const struct zecl_arg *args);

/* Commands. */
void zecl_cmd_free(struct zecl_cmd *c);
/* Signal an event (g.lock held) with the timestamps of its command. */
void zecl_event_signal_locked(ze_event_handle_t e, uint64_t start, uint64_t end);

/* SPIR-V -> LLVM bitcode (SPIR 1.2) through llvm-spirv; on failure returns
   a message in *log (malloc'd). */
int zecl_spirv_to_bitcode(const void *spirv, size_t size, unsigned char **bc,
                          size_t *bc_size, char **log);

char *zecl_strdup(const char *s);
/* printf into a malloc'd string (never NULL on success). */
char *zecl_asprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
