/*
 * fuzz_config.c - libFuzzer target for the INI loader: arbitrary bytes in,
 * never a crash, a leak or undefined behaviour out.  What a successful
 * load expands must be accepted back by args_from_kv (what `contend exec`
 * will do with it), and stay within the documented limits.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner/config.h"
#include "runner/param.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *devnull;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/*
	 * Silence the loader's messages, not the sanitizers': they write
	 * to fd 2 itself, which stays open.
	 */
	devnull = fopen("/dev/null", "w");
	if (!devnull)
		abort();
	stderr = devnull;
	return 0;
}

static void check_entry(const struct config_entry *e)
{
	struct wl_args a;
	char err[512];

	if (!e->nkv || !e->canon || strchr(e->canon, '\n'))
		abort();
	if (args_from_kv(e->wl, e->nkv, e->kv, &a, err, sizeof(err))) {
		fprintf(devnull, "%s\n", err);
		abort(); /* the loader expanded what exec would refuse */
	}
	if (e->set.timeout_s <= a.runtime_s)
		abort();
	args_release(&a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct experiment_config c;
	size_t i;

	if (config_load_buffer("fuzz.ini", (const char *)data, size, &c))
		return 0;
	if (!c.name || !c.nentries || c.nentries > CONFIG_MAX_RUNS)
		abort();
	for (i = 0; i < c.nentries; i++)
		check_entry(&c.entries[i]);
	config_print(&c, devnull);
	config_release(&c);
	return 0;
}
