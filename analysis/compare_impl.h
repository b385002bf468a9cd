/*
 * compare_impl.h - what compare.c and compare_model.c share.  Private to
 * them.
 */
#ifndef CONTEND_COMPARE_IMPL_H
#define CONTEND_COMPARE_IMPL_H

#include "analysis/compare.h"

/* 0 when o can be judged by (a known direction, confidence and power in
 * (0, 1), threshold >= 0), else -1 after error(). */
int compare_check_opts(const struct compare_opts *o);

#endif
