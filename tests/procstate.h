/*
 * procstate.h - the state letter of a process or of one of our threads
 * (/proc/ID/stat after the name's last ')': R, S, D, Z, ...), '?' when it
 * cannot be read.  Header-only, for the tests that wait for a state.
 */
#ifndef CONTEND_TEST_PROCSTATE_H
#define CONTEND_TEST_PROCSTATE_H

#include <stdio.h>
#include <string.h>
#include <sys/types.h>

static inline char proc_state(pid_t id)
{
	char path[64], buf[512], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)id);
	f = fopen(path, "re");
	if (!f)
		return '?';
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : '?';
}

#endif
