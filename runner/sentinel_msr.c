/*
 * sentinel_msr.c - the mean effective CPU frequency of a run's window from
 * the APERF and MPERF registers (MSRs 0xE8 and 0xE7), read through the msr
 * driver (/dev/cpu/N/msr, the register number as the file offset) at the
 * window's two ends, for the CPUs of the run's cpuset.  MPERF counts at
 * the base frequency and APERF at the actual one, both only while the CPU
 * is not idle, so
 *     eff_mhz = base_mhz * sum dAPERF / sum dMPERF
 * over the run's CPUs is their mean frequency while they ran (weighted by
 * the time each ran), turbo and throttling included, which cpufreq's
 * scaling_cur_freq (one instant, often the governor's request) is not.
 * Intel SDM vol. 3B, 15.2 ("Hardware-controlled performance states");
 * the kernel's arch/x86/kernel/cpu/aperfmperf.c computes "cpu MHz" so.
 * The files are opened once per experiment (runner/sentinel_impl.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runner/sentinel_impl.h"
#include "db/contract.h"
#include "db/facts.h"
#include "lib/util.h"

#define MSR_MPERF 0xE7
#define MSR_APERF 0xE8

static int read_msr(int fd, unsigned reg, uint64_t *v)
{
	ssize_t n = pread(fd, v, sizeof(*v), reg);

	if (n == (ssize_t)sizeof(*v))
		return 0;
	if (n >= 0)
		errno = EIO;        /* a short read: not a register */
	return -1;
}

/* The base frequency in MHz, with where it came from; NAN. */
static double base_mhz(const char *root, const char **from)
{
	char *path = xasprintf("%s/sys/devices/system/cpu/cpu0/cpufreq/"
			       "base_frequency", root), line[256];
	FILE *f = fopen(path, "re");
	double v = NAN, khz;

	free(path);
	if (f) {
		if (fgets(line, sizeof(line), f)) {
			line[strcspn(line, "\n")] = '\0';
			if (!parse_double(line, &khz) && khz > 0)
				v = khz / 1000;
		}
		fclose(f);
		*from = FREQ_BASE_CPUFREQ;
		if (!isnan(v))
			return v;
	}
	/* without intel_pstate's base_frequency: the kernel's "cpu MHz"
	 * at the experiment's start, which is the TSC's frequency where
	 * the kernel has no APERF/MPERF of its own (a guest) */
	path = xasprintf("%s/proc/cpuinfo", root);
	f = fopen(path, "re");
	free(path);
	*from = FREQ_BASE_CPUINFO;
	while (f && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (strncmp(line, "cpu MHz", 7) || !colon)
			continue;
		colon[strcspn(colon, "\n")] = '\0';
		colon++;
		while (*colon == ' ' || *colon == '\t')
			colon++;
		if (parse_double(colon, &v) || !(v > 0))
			v = NAN;
		break;
	}
	if (f)
		fclose(f);
	return v;
}

/* The CPUs of <root>/dev/cpu/N (N >= 0), ascending; their count. */
static size_t list_cpus(const char *root, int **cpus)
{
	char *pattern = xasprintf("%s/dev/cpu/[0-9]*", root);
	size_t i, n = 0;
	glob_t g;

	*cpus = NULL;
	if (!glob(pattern, GLOB_ONLYDIR, NULL, &g)) {
		*cpus = xcalloc(g.gl_pathc + 1, sizeof(int));
		for (i = 0; i < g.gl_pathc; i++) {
			long long c;

			if (!parse_ll(strrchr(g.gl_pathv[i], '/') + 1, &c) &&
			    c >= 0 && c < CPU_SETSIZE)
				(*cpus)[n++] = (int)c;
		}
		globfree(&g);
	}
	free(pattern);
	for (i = 1; i < n; i++) {   /* insertion sort: glob sorts "10" < "2" */
		int c = (*cpus)[i];
		size_t j = i;

		for (; j > 0 && (*cpus)[j - 1] > c; j--)
			(*cpus)[j] = (*cpus)[j - 1];
		(*cpus)[j] = c;
	}
	return n;
}

const char *sentinel_log_word(int err)
{
	switch (err) {
	case EACCES:
	case EPERM:
		return KERNEL_LOG_DENIED;
	case ENOENT:
	case ENODEV:
	case ENXIO:
	case ENOTDIR:
		return KERNEL_LOG_ABSENT;
	default:
		return KERNEL_LOG_UNREADABLE;
	}
}

/* Opens every CPU's msr file; why in *reason (a word) when none opens. */
static void open_all(struct sentinel *s, const char **reason)
{
	int *cpus, i;
	size_t n = list_cpus(s->root, &cpus), k;

	if (!n) {
		*reason = sentinel_log_word(ENOENT);
		free(cpus);
		return;
	}
	s->nmsr = (size_t)cpus[n - 1] + 1;
	s->msr_fd = xmalloc(s->nmsr * sizeof(int));
	s->aperf = xcalloc(s->nmsr, sizeof(uint64_t));
	s->mperf = xcalloc(s->nmsr, sizeof(uint64_t));
	s->msr_begun = xcalloc(s->nmsr, sizeof(bool));
	for (k = 0; k < s->nmsr; k++)
		s->msr_fd[k] = -1;
	for (k = 0; k < n; k++) {
		char *path = xasprintf("%s/dev/cpu/%d/msr", s->root, cpus[k]);

		i = cpus[k];
		s->msr_fd[i] = open(path, O_RDONLY | O_CLOEXEC);
		if (s->msr_fd[i] < 0 && !*reason)
			*reason = sentinel_log_word(errno);
		free(path);
	}
	for (k = 0; k < n; k++)
		if (s->msr_fd[cpus[k]] >= 0)
			break;
	if (k < n)                  /* one opens: the others are skipped */
		*reason = NULL;
	free(cpus);
}

void msr_open(struct sentinel *s)
{
	const char *reason = NULL;
	uint64_t a, m;
	size_t i;

	open_all(s, &reason);
	for (i = 0; !reason && i < s->nmsr; i++) {
		if (s->msr_fd[i] < 0)
			continue;
		/* one read of each: a guest's msr file may refuse them */
		if (read_msr(s->msr_fd[i], MSR_APERF, &a) ||
		    read_msr(s->msr_fd[i], MSR_MPERF, &m))
			reason = KERNEL_LOG_UNREADABLE;
		break;
	}
	if (!reason) {
		s->base_mhz = base_mhz(s->root, &s->base_from);
		if (isnan(s->base_mhz))
			reason = FREQ_MSR_NO_BASE;
	}
	s->msr_state = reason;
	s->freq_source = !reason ? FREQ_APERF
			 : s->nfreq ? FREQ_CPUFREQ : FREQ_NONE;
	if (reason)
		msr_close(s);
}

static bool in_window(const struct sentinel *s, size_t cpu)
{
	return s->msr_fd[cpu] >= 0 &&
	       (!s->cpus || CPU_ISSET_S(cpu, sizeof(cpu_set_t), s->cpus));
}

void msr_begin(struct sentinel *s)
{
	size_t i;

	for (i = 0; i < s->nmsr; i++)
		s->msr_begun[i] = in_window(s, i) &&
				  !read_msr(s->msr_fd[i], MSR_APERF,
					    &s->aperf[i]) &&
				  !read_msr(s->msr_fd[i], MSR_MPERF,
					    &s->mperf[i]);
}

double msr_end_mhz(struct sentinel *s)
{
	double da = 0, dm = 0;
	uint64_t a, m;
	size_t i;

	for (i = 0; i < s->nmsr; i++) {
		if (!s->msr_begun[i] ||
		    read_msr(s->msr_fd[i], MSR_APERF, &a) ||
		    read_msr(s->msr_fd[i], MSR_MPERF, &m))
			continue;
		s->msr_begun[i] = false;
		/* A register that went backwards was reset (a CPU taken
		 * offline and back, a resume), not wrapped: 64 bits at GHz
		 * wrap once a century.  Its difference would be near 2^64
		 * (a frequency of 10^21 MHz): the CPU is left out. */
		if (a < s->aperf[i] || m < s->mperf[i])
			continue;
		da += (double)(a - s->aperf[i]);
		dm += (double)(m - s->mperf[i]);
	}
	return dm > 0 ? s->base_mhz * da / dm : NAN;
}

void msr_close(struct sentinel *s)
{
	size_t i;

	for (i = 0; i < s->nmsr; i++)
		if (s->msr_fd[i] >= 0)
			close(s->msr_fd[i]);
	free(s->msr_fd);
	free(s->aperf);
	free(s->mperf);
	free(s->msr_begun);
	s->msr_fd = NULL;
	s->aperf = s->mperf = NULL;
	s->msr_begun = NULL;
	s->nmsr = 0;
}
