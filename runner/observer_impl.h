/*
 * observer_impl.h - what observer.c and observer_tracefs.c share; nothing
 * else includes it (runner/observer.h is the API).
 */
#ifndef CONTEND_OBSERVER_IMPL_H
#define CONTEND_OBSERVER_IMPL_H

#include <stddef.h>

#include "runner/observer.h"

/* 1 when the lock events can be enabled in a tracefs instance of ours,
 * else 0 with why. */
int observer_tracefs_usable(char *why, size_t whylen);
/* Makes our instance, enables the lock events in it and reads the enable
 * file back as 1: 0, or -1 with why (the instance removed). */
int observer_tracefs_start(struct observer_run *o, char *why, size_t whylen);
/* Disables the events and removes the instance. */
void observer_tracefs_stop(struct observer_run *o);

#endif
