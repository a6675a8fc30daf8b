/* desc_of.c — the zesort_desc of a sort the CLI describes with
 * zesort_options (its flags parse into them): one place for the copy. */
#include "cli.h"

zesort_desc cli_desc(zesort_kind kind, const zesort_options *opts, int with_values)
{
    zesort_options o;
    if (opts)
        o = *opts;
    else
        zesort_options_default(&o);
    zesort_desc d;
    zesort_desc_init(&d, kind);
    d.key_type = o.key_type;
    d.algo = o.algo;
    d.scan = o.scan;
    d.descending = o.descending;
    d.bit_lo = o.bit_lo;
    d.bit_hi = o.bit_hi;
    const int wide = o.value_type == ZESORT_VALUE_U64;
    d.index_type = wide ? ZESORT_INT_U64 : ZESORT_INT_U32;
    d.value_type = !with_values ? ZESORT_VALUES_NONE : wide ? ZESORT_VALUES_U64
                                                             : ZESORT_VALUES_U32;
    return d;
}
