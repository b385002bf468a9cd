/*
 * sentinel_impl.h - what runner/sentinel.c and runner/sentinel_msr.c
 * share; nothing else includes it.
 */
#ifndef CONTEND_SENTINEL_IMPL_H
#define CONTEND_SENTINEL_IMPL_H

#include "runner/sentinel.h"

/*
 * sentinel_msr.c.  msr_open, once per experiment (from sentinel_open,
 * after the cpufreq files are found): opens <root>/dev/cpu/N/msr of every
 * CPU, reads APERF and MPERF once to see that they can be read, finds the
 * base frequency, and sets s->freq_source; with MSRs not readable it
 * closes what it opened and says why.  msr_begin reads the registers of
 * the CPUs of s->cpus (all when NULL); msr_end_mhz reads them again and
 * returns the window's effective frequency, NAN without one.
 */
void msr_open(struct sentinel *s);
void msr_begin(struct sentinel *s);
double msr_end_mhz(struct sentinel *s);
void msr_close(struct sentinel *s);

#endif
