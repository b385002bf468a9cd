/*
 * delaybound.c - a SCHED_FIFO wakeup-latency probe (bench/delaybound.sh):
 * one thread pinned to each online CPU, at real-time priority, sleeps to
 * the next tick of a period with clock_nanosleep (absolute) and records
 * how late it woke.  A CPU held without preemption (a kernel_delay that
 * busy-waits, delays chained in one section or an interrupt) shows as
 * that CPU's worst lateness.  Prints one line a CPU, then the worst of
 * all, in microseconds:
 *
 *	cpu N worst_us X wakeups W
 *	worst_us X
 *
 * Usage: delaybound SECONDS [PERIOD_US] (default period 1000 us).  Needs
 * root (or CAP_SYS_NICE) for SCHED_FIFO; exits 1 without it.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct probe {
	pthread_t th;
	int cpu;
	long long period_ns, end_ns;
	long long worst_ns, wakeups;
	int err;
};

static long long ns(const struct timespec *t)
{
	return (long long)t->tv_sec * 1000000000LL + t->tv_nsec;
}

static struct timespec ts(long long v)
{
	struct timespec t = { v / 1000000000LL, v % 1000000000LL };

	return t;
}

static long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return ns(&t);
}

static void *run(void *arg)
{
	struct probe *p = arg;
	struct sched_param sp = { .sched_priority = 90 };
	cpu_set_t set;
	long long next, late;
	struct timespec t;

	CPU_ZERO(&set);
	CPU_SET(p->cpu, &set);
	p->err = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	if (!p->err)
		p->err = pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
	if (p->err)
		return NULL;
	next = now_ns() + p->period_ns;
	while (next < p->end_ns) {
		t = ts(next);
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t,
				       NULL) == EINTR)
			;
		late = now_ns() - next;
		if (late > p->worst_ns)
			p->worst_ns = late;
		p->wakeups++;
		next += p->period_ns;
		/* a wakeup later than a period: the next tick from now */
		if (next < now_ns())
			next = now_ns() + p->period_ns;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	double secs = argc > 1 ? strtod(argv[1], NULL) : 0;
	long period_us = argc > 2 ? strtol(argv[2], NULL, 10) : 1000;
	struct probe *p;
	long long worst = 0, end;
	int i, ret = 0;

	if (argc < 2 || argc > 3 || secs <= 0 || period_us <= 0 || ncpu < 1) {
		fprintf(stderr, "usage: delaybound SECONDS [PERIOD_US]\n");
		return 2;
	}
	p = calloc((size_t)ncpu, sizeof(*p));
	if (!p)
		return 1;
	end = now_ns() + (long long)(secs * 1e9);
	for (i = 0; i < ncpu; i++) {
		p[i] = (struct probe){ .cpu = i, .period_ns = period_us * 1000LL,
				       .end_ns = end };
		if (pthread_create(&p[i].th, NULL, run, &p[i]))
			return 1;
	}
	for (i = 0; i < ncpu; i++) {
		pthread_join(p[i].th, NULL);
		if (p[i].err) {
			fprintf(stderr, "delaybound: cpu %d: %s\n", i,
				strerror(p[i].err));
			ret = 1;
			continue;
		}
		printf("cpu %d worst_us %.0f wakeups %lld\n", i,
		       (double)p[i].worst_ns / 1e3, p[i].wakeups);
		if (p[i].worst_ns > worst)
			worst = p[i].worst_ns;
	}
	printf("worst_us %.0f\n", (double)worst / 1e3);
	free(p);
	return ret;
}
