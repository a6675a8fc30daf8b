/*
 * help.c — the help texts. Every flag is described here; keep in step with
 * the parsers in cmd_*.c and with docs/design.md §5.2.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const char top_help[] =
    "usage: zesort COMMAND [ARGS]\n"
    "\n"
    "Stable LSD radix sort of raw key files on Intel GPUs (Level Zero), any\n"
    "OpenCL device, or the CPU.\n"
    "\n"
    "commands:\n"
    "  sort INPUT OUTPUT [options]   sort a key file (optionally with a values file)\n"
    "  argsort INPUT INDICES_OUT [options]\n"
    "                                the stable sorting permutation of a key file\n"
    "  bench [options]               measure sort speed per algorithm, n and scan mode\n"
    "  info                          show version, usable backends and devices, build facts\n"
    "  demo [options]                sort a few million random keys with every algorithm\n"
    "  help [COMMAND]                show this help or a command's help\n"
    "\n"
    "options:\n"
    "  -h, --help                    show help (also: zesort COMMAND --help)\n"
    "  --version                     print the version\n"
    "\n"
    "exit status: 0 success, 2 usage error (unknown flag or value, missing operand,\n"
    "bad combination, or a request this version does not support yet), 1 any other\n"
    "error. Errors are one line on stderr starting with 'zesort: '.\n";

static const char sort_help[] =
    "usage: zesort sort INPUT OUTPUT [--type T] [--values VALUES_IN VALUES_OUT]\n"
    "                   [--value-type u32|u64] [--algo A] [--backend B [--device N]]\n"
    "                   [--scan S] [--descending] [--bits LO:HI] [--segments OFFSETS]\n"
    "\n"
    "Sorts the keys in INPUT and writes them to OUTPUT. Files are raw little-endian\n"
    "arrays of the key type (no header); values are u32 or, with --value-type u64,\n"
    "u64 (any 8-byte data, moved as bits). The sort is stable.\n"
    "OUTPUT is written to a temporary file in its directory and renamed when\n"
    "complete: after an error an existing OUTPUT is untouched and no partial file is\n"
    "left. A symlink OUTPUT is followed; a replaced file keeps its mode (and, as\n"
    "root, its owner); a file you could not open for writing is refused (exit 1).\n"
    "An existing OUTPUT that is not a regular file (/dev/null, a FIFO, /dev/stdout)\n"
    "is written directly. INPUT may be the same file as OUTPUT.\n"
    "\n"
    "options:\n"
    "  --type T          key type: u32 (default), i32, f32, u64, i64, f64. Signed keys\n"
    "                    sort by value, floats by IEEE-754 totalOrder\n"
    "                    (-NaN < -inf < ... < -0.0 < +0.0 < ... < +inf < +NaN)\n"
    "  --values VALUES_IN VALUES_OUT\n"
    "                    also move a file of u32 values along with the keys; it must\n"
    "                    hold exactly as many values as INPUT holds keys (else exit 1).\n"
    "                    VALUES_OUT is written like OUTPUT and must differ from it;\n"
    "                    after an error neither is replaced\n"
    "  --value-type V    the values' type: u32 (default) or u64; VALUES_IN's size\n"
    "                    must be a multiple of 4 or 8 bytes and hold one per key\n"
    "  --algo A          cm2 (2-bit digits, 16 passes for 32-bit keys), cm4 (4-bit\n"
    "                    digits, 8 passes), onesweep (8-bit digits), auto (default:\n"
    "                    the library picks for the device)\n"
    "  --backend B       auto (default: Level Zero GPU, else OpenCL GPU, else the C\n"
    "                    fallback, faster than an OpenCL CPU device), level-zero,\n"
    "                    opencl, cpu\n"
    "  --device N        run on device N of the backend (0, 1, ...: the indices\n"
    "                    'zesort info' gives, line devices-BACKEND); needs --backend\n"
    "                    level-zero, opencl or cpu (exit 2 with auto). A device that\n"
    "                    does not exist is exit 1; the message gives the count\n"
    "  --scan S          where each pass's prefix table is scanned: device (default,\n"
    "                    no round trip) or host (the CM tutorial's way)\n"
    "  --descending      sort in descending order (still stable)\n"
    "  --ascending       sort in ascending order (the default)\n"
    "  --bits LO:HI      sort only by key bits [LO, HI), 0 <= LO < HI <= key bits\n"
    "                    (default 0:32 or 0:64); e.g. 12:8 or 0:40 on u32 is exit 2\n"
    "  --segments OFFSETS\n"
    "                    segmented sort: OFFSETS is a raw file of S + 1 little-endian\n"
    "                    u64 offsets o[0] <= ... <= o[S] <= number of keys; each\n"
    "                    segment [o[i], o[i+1]) is sorted on its own (values along),\n"
    "                    keys outside [o[0], o[S]) stay where they are. A malformed\n"
    "                    file or offsets out of range is exit 1, nothing written\n"
    "  -h, --help        show this help\n"
    "\n"
    "Options may come before or after the operands; '--flag=value' also works and\n"
    "'--' ends the options. A valid request that this library version cannot do\n"
    "yet (see 'zesort info' for its algorithms and key types) fails with 'not\n"
    "supported yet' and exit 2. A file whose size is not a multiple of the element\n"
    "size, or a missing or unreadable file, is exit 1.\n";

static const char argsort_help[] =
    "usage: zesort argsort INPUT INDICES_OUT [--keys-out KEYS_OUT] [--type T]\n"
    "                      [--index-type u32|u64] [--descending] [--bits LO:HI]\n"
    "                      [--algo A] [--backend B [--device N]] [--scan S]\n"
    "\n"
    "Writes the stable sorting permutation of the keys in INPUT to INDICES_OUT:\n"
    "index i is the position in INPUT of the i-th key in sorted order, equal keys\n"
    "in input order (numpy.argsort(kind='stable')). INPUT is only read. Indices\n"
    "are made on the device, in the sort's first pass. Outputs are written as\n"
    "'zesort sort' writes them (temporary file, then rename; both or neither).\n"
    "\n"
    "options:\n"
    "  --keys-out KEYS_OUT\n"
    "                    also write the sorted keys; must differ from INDICES_OUT\n"
    "  --index-type I    u32 (default) or u64 indices\n"
    "  --type, --descending, --bits, --algo, --backend, --device, --scan\n"
    "                    as for 'zesort sort' (zesort sort --help)\n"
    "  -h, --help        show this help\n";

static const char bench_help[] =
    "usage: zesort bench [--n N[,N...]] [--algo A[,A...]] [--scan S[,S]] [--type T]\n"
    "                    [--pairs] [--value-type u32|u64] [--backend B [--device N]]\n"
    "                    [--repeat R] [--csv FILE] [--plot FILE.png] [--peer boost]\n"
    "                    [--segments LEN[,LEN...]|ragged]\n"
    "\n"
    "For every algorithm, n and scan mode: sorts uniform random keys (fixed seed)\n"
    "once to warm up, then R times, and reports the median device time of the\n"
    "whole sort (all passes, scans and key transforms; host<->device copies\n"
    "excluded). Every result is verified (sorted and a permutation of the input;\n"
    "with --pairs also stable). Prints a table, then speed ratios: each algorithm\n"
    "against the first one given (cm4/cm2 by default) and device scan against host\n"
    "scan. The first line names the kernel flavor that ran (sg, portable or serial);\n"
    "the environment variable ZESORT_FLAVOR=sg|portable|serial overrides the OpenCL\n"
    "backend's choice, to compare flavors on one device.\n"
    "\n"
    "options:\n"
    "  --n N[,N...]      key counts (default 1048576,4194304); suffix k, m, g multiply\n"
    "                    by 2^10, 2^20, 2^30 (e.g. 1m,4m)\n"
    "  --algo A[,A...]   algorithms: cm2, cm4, onesweep, auto (default cm2,cm4)\n"
    "  --scan S[,S]      scan modes: host, device or host,device (default: both for\n"
    "                    cm2 and cm4, device for the others)\n"
    "  --type T          key type: u32 (default), i32, f32, u64, i64, f64\n"
    "  --pairs           also sort u32 values along with the keys\n"
    "  --value-type V    values (implies --pairs): u32, or u64, which measures three\n"
    "                    rows side by side: u32 values, u64 values, and u32 indices\n"
    "                    sorted then u64 values gathered by them on the host (the\n"
    "                    column values: u32, u64, u32+gather; printed ratios)\n"
    "  --backend B       auto (default: the best device that runs the kernels, an\n"
    "                    OpenCL CPU one included, else the C fallback), level-zero,\n"
    "                    opencl, cpu\n"
    "  --device N        run on device N of the backend (0, 1, ...: the indices\n"
    "                    'zesort info' gives, line devices-BACKEND); needs --backend\n"
    "                    level-zero, opencl or cpu (exit 2 with auto). A device that\n"
    "                    does not exist is exit 1; the message gives the count\n"
    "  --repeat R        timed runs per measurement, median reported (default 5)\n"
    "  --csv FILE        write one row per measurement, header:\n"
    "                    backend,device,algo,type,pairs,n,median_ms,mkeys_per_s,scan,repeat,\n"
    "                    flavor (the kernel flavor: sg, portable or serial; n/a for a peer)\n"
    "  --plot FILE.png   draw Mkeys/s against n per algorithm and scan with gnuplot\n"
    "                    (Debian package gnuplot-nox; exit 1 if it is missing)\n"
    "  --peer boost      also time Boost.Compute's boost::compute::sort of the same\n"
    "                    keys (u32 only, no --pairs) on the same OpenCL device, verify\n"
    "                    it, and print zesort's speed over it. Its rows have algo\n"
    "                    boost-compute; their scan column says how it was timed:\n"
    "                    events (device time from OpenCL profiling markers around the\n"
    "                    sort) or hostclock (host clock around the sort + clFinish).\n"
    "                    Exit 2 if zesort was built without Boost (see 'zesort info',\n"
    "                    line 'peers')\n"
    "  --segments LEN[,LEN...]\n"
    "                    segmented sort instead (keys only): for each LEN, equal\n"
    "                    segments of LEN keys over n keys (the first --n, default\n"
    "                    16m); 'ragged' is a power-law mix of lengths 1 to n/8.\n"
    "                    Prints the wall time (copies included) of one\n"
    "                    zesort_sort_segments, its speed against one unsegmented\n"
    "                    sort of the n keys, and against a loop of one zesort_sort\n"
    "                    per segment (run for at most 3 s, then scaled: 'est.').\n"
    "                    The first --algo given, else auto\n"
    "  -h, --help        show this help\n";

static const char info_help[] =
    "usage: zesort info\n"
    "\n"
    "Prints one 'key: value' line per fact:\n"
    "  version           the zesort version\n"
    "  backends          backends usable now (a context could be created), of\n"
    "                    level-zero, opencl, cpu\n"
    "  device-BACKEND    the device each usable backend runs on\n"
    "  devices-BACKEND   every device of the backend with its index (the N of\n"
    "                    --device N): \"0: NAME; 1: NAME\", or none. level-zero: each\n"
    "                    driver's devices in order, each followed by its\n"
    "                    sub-devices; opencl: every platform's devices; cpu: one,\n"
    "                    the host\n"
    "  flavor-BACKEND    the kernel flavor it runs: sg (Intel sub-groups), portable\n"
    "                    or serial; none for the cpu backend (ZESORT_FLAVOR\n"
    "                    overrides the opencl one)\n"
    "  error-BACKEND     why a backend could not be created (instead of device-)\n"
    "  default-backend   what --backend auto picks here\n"
    "  algorithms        algorithms that backend runs\n"
    "  key-types         key types that backend sorts\n"
    "  aot-targets       Intel GPU targets with an embedded native kernel binary\n"
    "  spirv-flavors     embedded SPIR-V kernel flavors\n"
    "  peers             benchmark peers built in (bench --peer): boost-compute, or\n"
    "                    none when built without Boost\n"
    "\n"
    "options:\n"
    "  -h, --help        show this help\n";

static const char demo_help[] =
    "usage: zesort demo [--n N] [--backend B [--device N]]\n"
    "\n"
    "On the best device present (Level Zero GPU, else OpenCL GPU, else OpenCL CPU,\n"
    "else the C fallback), or the backend given, sorts N random u32 keys with each\n"
    "algorithm (cm2, cm4 and onesweep, device scan; the C fallback runs its one\n"
    "sort), verifies each result against a host sort and prints the device,\n"
    "algorithm, Mkeys/s (device time) and whether the result is verified.\n"
    "\n"
    "options:\n"
    "  --n N             number of keys (default 4m = 4194304; suffix k, m, g)\n"
    "  --backend B       auto (default), level-zero, opencl, cpu\n"
    "  --device N        run on device N of the backend (0, 1, ...: the indices\n"
    "                    'zesort info' gives, line devices-BACKEND); needs --backend\n"
    "                    level-zero, opencl or cpu (exit 2 with auto). A device that\n"
    "                    does not exist is exit 1; the message gives the count\n"
    "  -h, --help        show this help\n";

int cli_print_help(const char *cmd)
{
    const char *text = NULL;
    if (!cmd)
        text = top_help;
    else if (strcmp(cmd, "sort") == 0)
        text = sort_help;
    else if (strcmp(cmd, "argsort") == 0)
        text = argsort_help;
    else if (strcmp(cmd, "bench") == 0)
        text = bench_help;
    else if (strcmp(cmd, "info") == 0)
        text = info_help;
    else if (strcmp(cmd, "demo") == 0)
        text = demo_help;
    else if (strcmp(cmd, "help") == 0)
        text = top_help;
    if (!text)
        return -1;
    fputs(text, stdout);
    return 0;
}
