/*
 * mail.h - what the mail formats share (compare --format mail,
 * compare_mail.c; report --format mail, report_mail.c): lines of at most
 * MAIL_COLS columns, so that a reply quoting them twice ("> > ") stays
 * within 80; stored strings escaped and cut; the config's hash.
 */
#ifndef CONTEND_MAIL_H
#define CONTEND_MAIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "db/store.h"

#define MAIL_COLS 72

/* One line, cut at MAIL_COLS: the columns are a promise. */
__attribute__((format(printf, 2, 3)))
void mail_line(FILE *f, const char *fmt, ...);
/* s (NULL: "?") escaped into buf, cut to width columns; buf holds
 * width + 1.  Returns buf. */
const char *mail_shown(char *buf, size_t width, const char *s);
/*
 * A row's label into buf (width + 1 bytes): name (the section, else the
 * workload) and the parameters of c that vary among all[0..n), escaped,
 * when it fits the column; else printed whole on a line of its own and
 * buf left empty, so that a label is never cut into another
 * (threads=10000 into =1000).
 */
void mail_row_label(FILE *f, char *buf, size_t width, const char *name,
		    const struct ds_config *c,
		    const struct ds_config *const *all, size_t n);
/* FNV-1a (64 bits) of a config file's text, to name the file's version. */
uint64_t mail_hash(const char *text);
/* The header lines of one experiment's kernel ("A: 6.8.0, label x" with
 * tag "A"), and of its machine. */
void mail_kernel(FILE *f, const char *tag, const struct dataset *d);
void mail_machine(FILE *f, const struct dataset *d);

#endif
