/*
 * strmap.h - strings to indices in expected constant time: the lookup a
 * linear scan made quadratic (an experiment's meta by key, the sections
 * of a stored config text: issue 37, item 2).  The keys are the caller's
 * (borrowed: they must outlive the map, unchanged); the map holds only
 * their pointers and an index each.  The hash is seeded once a process
 * from the kernel's random bytes, so that a received file cannot choose
 * keys that collide.
 */
#ifndef CONTEND_LIB_STRMAP_H
#define CONTEND_LIB_STRMAP_H

#include <stdbool.h>
#include <stddef.h>

struct strmap_slot {
	const char *key; /* NULL: empty */
	size_t val;
};

struct strmap {
	struct strmap_slot *s;
	size_t cap, n;  /* slots (a power of two, or 0), keys held */
};

/* true and *val when key is held. */
bool strmap_get(const struct strmap *m, const char *key, size_t *val);
/* Maps key to val, replacing the index of a key already held. */
void strmap_put(struct strmap *m, const char *key, size_t val);
/* Frees the slots; the map is empty again. */
void strmap_release(struct strmap *m);

#endif
