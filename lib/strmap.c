/*
 * strmap.c - an open-addressing hash table of borrowed strings
 * (strmap.h): linear probing, at most half full, FNV-1a over the key from
 * a per-process random seed, finished by a 64-bit mixer.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "lib/strmap.h"
#include "lib/util.h"

static uint64_t seed(void)
{
	static uint64_t s;
	static bool done;

	if (!done) {
		if (getrandom(&s, sizeof(s), GRND_NONBLOCK) != sizeof(s))
			s = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32) ^
			    (uint64_t)(uintptr_t)&s;
		done = true;
	}
	return s;
}

static uint64_t hash(const char *key)
{
	uint64_t h = 0xcbf29ce484222325ull ^ seed();

	for (; *key; key++) {
		h ^= (unsigned char)*key;
		h *= 0x100000001b3ull;
	}
	/* FNV's low bits mix poorly: the table takes the low bits */
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	return h ^ (h >> 33);
}

/* The slot of key, or the empty one where it would go. */
static struct strmap_slot *slot(const struct strmap *m, const char *key)
{
	size_t i = (size_t)hash(key) & (m->cap - 1);

	while (m->s[i].key && strcmp(m->s[i].key, key))
		i = (i + 1) & (m->cap - 1);
	return &m->s[i];
}

bool strmap_get(const struct strmap *m, const char *key, size_t *val)
{
	const struct strmap_slot *x;

	if (!m->n)
		return false;
	x = slot(m, key);
	if (!x->key)
		return false;
	*val = x->val;
	return true;
}

static void resize(struct strmap *m, size_t cap)
{
	struct strmap old = *m;
	size_t i;

	m->s = xcalloc(cap, sizeof(*m->s));
	m->cap = cap;
	for (i = 0; i < old.cap; i++)
		if (old.s[i].key)
			*slot(m, old.s[i].key) = old.s[i];
	free(old.s);
}

void strmap_put(struct strmap *m, const char *key, size_t val)
{
	struct strmap_slot *x;

	if (2 * (m->n + 1) > m->cap)
		resize(m, m->cap ? 2 * m->cap : 16);
	x = slot(m, key);
	if (!x->key) {
		x->key = key;
		m->n++;
	}
	x->val = val;
}

void strmap_release(struct strmap *m)
{
	free(m->s);
	memset(m, 0, sizeof(*m));
}
