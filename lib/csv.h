/*
 * csv.h - RFC 4180 fields and records: the one writer of a CSV field
 * (`report --format csv`, `export --format csv`) and the one reader of a
 * record (export files as compare sides).
 *
 * Reading: a struct csv_record zeroed, then csv_record_read over the text
 * until it has consumed it, then csv_record_release.
 */
#ifndef CONTEND_LIB_CSV_H
#define CONTEND_LIB_CSV_H

#include <stdio.h>

/*
 * Writes s as one field, with no separator: bare, or in double quotes
 * (a quote in s doubled) when s holds a comma, a quote or a line break.
 */
void csv_write_field(FILE *f, const char *s);

/* One record: its fields, unquoted and malloc'd. */
struct csv_record {
	char **f;
	size_t n, cap;
	long line;              /* where the record starts */
	char *buf;              /* scratch for one field */
	size_t bufcap;
};

/*
 * Reads the record at *p, before end, into r (its old fields freed) and
 * advances *p past it and its line end; *line counts newlines, also those
 * inside quotes.  "\r\n" ends a record as "\n" does.  An empty line is a
 * record of no fields.  -1 with an error naming file and line when a
 * quoted field is not closed.
 */
int csv_record_read(struct csv_record *r, const char *file, const char **p,
		    const char *end, long *line);
/* Frees what r holds; r may be read into again. */
void csv_record_release(struct csv_record *r);

#endif
