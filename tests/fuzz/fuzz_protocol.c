/*
 * fuzz_protocol.c - libFuzzer target for the exec protocol parser: any
 * bytes a child can print must give 0 or -1 with a message, never a crash,
 * an overflow or a leak; and whatever it accepts must survive a round trip
 * through result_print unchanged.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runner/protocol.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Parses what result_print writes for r and checks it equals r. */
static void round_trip(const struct result *r)
{
	struct result back;
	char buf[1 << 16], err[256];
	int fds[2];
	ssize_t n;

	/* Small results only: the pipe must hold the whole output. */
	if (r->nthreads > 256 || pipe(fds))
		return;
	if (result_print(r, fds[1]))
		abort();
	close(fds[1]);
	n = read(fds[0], buf, sizeof(buf));
	close(fds[0]);
	if (n <= 0 || protocol_parse(buf, (size_t)n, &back, err, sizeof(err)))
		abort();
	if (back.nmetrics != r->nmetrics || back.nthreads != r->nthreads)
		abort();
	for (size_t i = 0; i < r->nmetrics; i++)
		if (strcmp(back.metrics[i].name, r->metrics[i].name) ||
		    memcmp(&back.metrics[i].value, &r->metrics[i].value,
			   sizeof(double)))
			abort();
	if (r->nthreads && memcmp(back.thread_ops, r->thread_ops,
				  r->nthreads * sizeof(*r->thread_ops)))
		abort();
	result_release(&back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct result r;
	char err[256];

	if (!protocol_parse((const char *)data, size, &r, err, sizeof(err)))
		round_trip(&r);
	else if (!err[0] || !memchr(err, '\0', sizeof(err)))
		abort(); /* a failure must say why */
	result_release(&r);
	return 0;
}
