/*
 * names.c — the names of the public enums (zesort.h): zesort_status_name,
 * zesort_backend_name, zesort_algo_name and their parsers, and the key
 * types' names for messages (names.h). Public functions
 * at the bottom of the library: every layer names a status or a backend in
 * its messages (dispatch/group.c, the CLI), and nothing here calls anything.
 */
#include <string.h>

#include "common/names.h"
#include "zesort.h"

const char *zesort_status_name(zesort_status s)
{
    switch (s) {
    case ZESORT_OK: return "ZESORT_OK";
    case ZESORT_ERROR_INVALID_ARGUMENT: return "ZESORT_ERROR_INVALID_ARGUMENT";
    case ZESORT_ERROR_NO_DEVICE: return "ZESORT_ERROR_NO_DEVICE";
    case ZESORT_ERROR_OUT_OF_HOST_MEMORY: return "ZESORT_ERROR_OUT_OF_HOST_MEMORY";
    case ZESORT_ERROR_OUT_OF_DEVICE_MEMORY: return "ZESORT_ERROR_OUT_OF_DEVICE_MEMORY";
    case ZESORT_ERROR_UNSUPPORTED: return "ZESORT_ERROR_UNSUPPORTED";
    case ZESORT_ERROR_BACKEND: return "ZESORT_ERROR_BACKEND";
    case ZESORT_ERROR_TOO_LARGE: return "ZESORT_ERROR_TOO_LARGE";
    }
    return "ZESORT_ERROR_UNKNOWN";
}

static const char *const backend_names[] = {"auto", "level-zero", "opencl", "cpu"};
static const char *const algo_names[] = {"auto", "cm2", "cm4", "onesweep", "small"};
static const char *const key_type_names[] = {"u32", "i32", "f32", "u64", "i64", "f64",
                                             "u8",  "i8",  "u16", "i16", "f16", "bf16"};

const char *zs_key_type_name(zesort_key_type t)
{
    return (unsigned)t < sizeof key_type_names / sizeof key_type_names[0] ? key_type_names[t]
                                                                          : "unknown";
}

const char *zesort_backend_name(zesort_backend b)
{
    return (unsigned)b < 4 ? backend_names[b] : "unknown";
}

const char *zesort_algo_name(zesort_algo a)
{
    return (unsigned)a < sizeof algo_names / sizeof algo_names[0] ? algo_names[a] : "unknown";
}

int zesort_parse_backend(const char *name, zesort_backend *out)
{
    for (int i = 0; name && out && i < 4; ++i)
        if (strcmp(name, backend_names[i]) == 0) {
            *out = (zesort_backend)i;
            return 0;
        }
    return -1;
}

int zesort_parse_algo(const char *name, zesort_algo *out)
{
    for (int i = 0; name && out && i < (int)(sizeof algo_names / sizeof algo_names[0]); ++i)
        if (strcmp(name, algo_names[i]) == 0) {
            *out = (zesort_algo)i;
            return 0;
        }
    return -1;
}
