/*
 * holm.h - Holm's step-down adjustment of p-values for the number of
 * tests (Holm 1979, "A simple sequentially rejective multiple test
 * procedure"): the family-wise error of the p_adj < alpha decisions is
 * at most alpha, whatever the tests' dependence.
 */
#ifndef CONTEND_LIB_HOLM_H
#define CONTEND_LIB_HOLM_H

#include <stddef.h>

/*
 * adj[i] for p[0..n-1] (adj may be p): the j-th smallest p times
 * (m - j) for j = 0..m-1, made non-decreasing, capped at 1, where m is
 * the number of p that are not NaN; a NaN p stays NaN.  Returns m.
 */
size_t holm_adjust(const double *p, size_t n, double *adj);

#endif
