/*
 * fuzz_config.c - libFuzzer target for the INI loader: any bytes must load
 * or fail cleanly (no crash, overflow or leak), and a file that loads must
 * describe a plan within the limits of config.h, whose every configuration
 * is a workload with its parameters as "key=value" strings.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "runner/config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_entry(const struct config_entry *e)
{
	size_t i;
	long runs = (long)e->set.repetitions + e->set.warmup;

	if (!e->wl || !e->section || !e->canon || !e->nkv)
		abort();
	for (i = 0; i < e->nkv; i++)
		if (!strchr(e->kv[i], '='))
			abort();
	if (e->set.repetitions < 0 || e->set.warmup < 0 ||
	    runs > CONFIG_MAX_RUNS)
		abort();
	if (e->set.runtime_s < 0 || e->set.runtime_s > CONFIG_MAX_SECONDS ||
	    e->set.timeout_s < 0 || e->set.timeout_s > CONFIG_MAX_SECONDS)
		abort();
	/* Exactly one of fixed time and fixed work. */
	if ((e->set.runtime_s > 0) == (e->set.jobs > 0))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct experiment_config c;
	size_t i;

	if (config_load_buffer("fuzz.ini", (const char *)data, size, &c))
		return 0;
	if (!c.nentries || !c.name || c.nentries > CONFIG_MAX_RUNS)
		abort();
	for (i = 0; i < c.nentries; i++)
		check_entry(&c.entries[i]);
	config_release(&c);
	return 0;
}
