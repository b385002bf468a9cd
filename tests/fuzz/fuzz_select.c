/*
 * fuzz_select.c - libFuzzer target for the selector grammar (db/select.h):
 * any bytes must parse or fail cleanly; a success's parts must put the
 * selector back together (head, ~newest, @KEY=VALUE joined by commas) and
 * its filters must hold a valid key and a non-empty value.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "db/select.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), *back, err[256];
	struct selector sel;
	size_t i, len;

	if (!text)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	if (select_parse(text, &sel, err, sizeof(err))) {
		if (!*err)
			abort();
		free(text);
		return 0;
	}
	len = strlen(sel.head) + 8 + 1;
	for (i = 0; i < sel.nfilters; i++)
		len += strlen(sel.filters[i].key) + strlen(sel.filters[i].value) + 2;
	back = calloc(1, len + 1);
	if (!back)
		abort();
	strcat(back, sel.head);
	if (sel.newest)
		strcat(back, "~newest");
	for (i = 0; i < sel.nfilters; i++) {
		if (!*sel.filters[i].key || !*sel.filters[i].value)
			abort();
		strcat(back, i ? "," : "@");
		strcat(back, sel.filters[i].key);
		strcat(back, "=");
		strcat(back, sel.filters[i].value);
	}
	/* text holds no NUL before its end when it parsed this far */
	if (strlen(text) == size && strcmp(back, text))
		abort();
	free(back);
	select_release(&sel);
	free(text);
	return 0;
}
