/*
 * flags_impl.h - what the flags' detectors share: flags.c (the
 * per-configuration flags) and flags_pair.c (the pair flags of one
 * sweep).  Private to them.
 */
#ifndef CONTEND_FLAGS_IMPL_H
#define CONTEND_FLAGS_IMPL_H

/*
 * v formatted for a message (lib/numfmt.h), from a ring of buffers so one
 * printf can format several numbers: each message uses at most 16 at once
 * (flag_outliers: 8 listed + 2).
 */
const char *flags_num(double v);

#endif
