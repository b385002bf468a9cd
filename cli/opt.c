/*
 * opt.c - the one command-line parser: getopt_long's tables built from a
 * command's rows (opt.h), the operands dealt to the operand rows, and the
 * usage and help text written from the same rows.
 */
#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/escape.h"
#include "cli/opt.h"
#include "lib/util.h"
#include "lib/wrap.h"

#define WIDTH 80   /* of the usage and help text */
#define HELPCOL 24 /* where an option's help starts */
#define VAL0 256   /* getopt_long's value for row i: VAL0 + i */

int opt_string(const char *opt, const char *arg, void *field, int value)
{
	(void)opt;
	(void)value;
	*(const char **)field = arg;
	return 0;
}

static int opt_true(const char *opt, const char *arg, void *field,
		    int value)
{
	(void)opt;
	(void)arg;
	(void)value;
	*(bool *)field = true;
	return 0;
}

int opt_int(const char *opt, const char *arg, void *field, int value)
{
	(void)opt;
	(void)arg;
	*(int *)field = value;
	return 0;
}

int opt_number_in(const char *opt, const char *arg, double lo, double hi,
		  double *out)
{
	if (parse_double(arg, out) < 0 || !(*out > lo && *out < hi))
		return error("%s: '%s' is not a number between %g and %g", opt,
			     escape_quote(arg), lo, hi);
	return 0;
}

int opt_duration(const char *opt, const char *arg, void *field, int value)
{
	double *out = field;

	if (parse_duration(arg, out) < 0 || !isfinite(*out) || *out < 0 ||
	    (!value && !(*out > 0)))
		return error("%s: '%s' is not a duration%s", opt,
			     escape_quote(arg), value ? "" : " above 0");
	return 0;
}

int opt_percent(const char *opt, const char *arg, void *field, int value)
{
	double *out = field;
	char *num = xstrdup(arg);
	size_t len = strlen(num);
	int ret = 0;

	if (len && num[len - 1] == '%')
		num[len - 1] = '\0';
	if (parse_double(num, out) < 0 || !(*out < 100) ||
	    !(value ? *out >= 0 : *out > 0))
		ret = error("%s: '%s' is not a percentage in %s0, 100), e.g. 5 "
			    "or 5%%",
			    opt, escape_quote(arg), value ? "[" : "(");
	free(num);
	return ret;
}

int opt_confidence(const char *opt, const char *arg, void *field, int value)
{
	(void)value;
	return opt_number_in(opt, arg, 0, 1, field);
}

int opt_exit(int parsed)
{
	return parsed == OPT_HELP ? 0 : EXIT_USAGE;
}

/* ---- usage and help ---- */

/*
 * A row as written: "NAME...", "--db PATH", and with a short letter
 * "-C" sep "--column N" (sep "|" in the synopsis, ", " in the help).
 */
static char *spelling(const struct opt *o, const char *sep)
{
	char letter[4] = "";

	if (!o->name)
		return xasprintf("%s%s", o->arg,
				 o->flags & OPT_MANY ? "..." : "");
	if (o->letter)
		snprintf(letter, sizeof(letter), "-%c", o->letter);
	return xasprintf("%s%s--%s%s%s", letter, o->letter ? sep : "",
			 o->name, o->arg ? " " : "", o->arg ? o->arg : "");
}

/* One row in the synopsis: "[--db PATH]", "CAND...", "[EXPERIMENT]". */
static char *synopsis_word(const struct opt *o)
{
	char *body = spelling(o, "|"), *w;

	if (!o->name && !(o->flags & OPT_OPTIONAL))
		return body;
	w = xasprintf("[%s]", body);
	free(body);
	return w;
}

void opt_usage(FILE *f, const struct opt_cmd *cmd)
{
	char **w = xcalloc(cmd->nopts + 1, sizeof(*w));
	int at = fprintf(f, "usage: contend %s", cmd->name);
	size_t i, n = 0;

	for (i = 0; i < cmd->nopts; i++)
		if (cmd->opts[i].help)
			w[n++] = synopsis_word(&cmd->opts[i]);
	/* each word after a blank, continuation lines under the first */
	if (n)
		fputc(' ', f);
	wrap_list(f, (const char *const *)w, n, at + 1, at + 1, WIDTH);
	for (i = 0; i < n; i++)
		free(w[i]);
	free(w);
}

static void help_row(FILE *f, const struct opt *o)
{
	char *left = spelling(o, ", ");
	/* long options line up, with or without a short letter */
	int col = fprintf(f, "  %s%s", o->name && !o->letter ? "    " : "",
			  left);

	if (col + 2 > HELPCOL) {
		fputc('\n', f);
		col = 0;
	}
	fprintf(f, "%*s", HELPCOL - col, "");
	wrap_print(f, o->help, HELPCOL, HELPCOL, WIDTH);
	free(left);
}

void opt_help(FILE *f, const struct opt_cmd *cmd)
{
	static const struct opt help = { "help", 'h', NULL,
					 "print this help and exit", NULL, 0,
					 0, 0 };
	bool operands = false;
	size_t i;

	opt_usage(f, cmd);
	fprintf(f, "\n%s\n", cmd->summary);
	for (i = 0; i < cmd->nopts; i++)
		operands |= !cmd->opts[i].name && cmd->opts[i].help;
	if (operands)
		fputs("\narguments:\n", f);
	for (i = 0; i < cmd->nopts; i++)
		if (!cmd->opts[i].name && cmd->opts[i].help)
			help_row(f, &cmd->opts[i]);
	fputs("\noptions:\n", f);
	for (i = 0; i < cmd->nopts; i++)
		if (cmd->opts[i].name && cmd->opts[i].help)
			help_row(f, &cmd->opts[i]);
	help_row(f, &help);
	if (cmd->notes) {
		fputc('\n', f);
		wrap_print(f, cmd->notes, 0, 0, WIDTH);
	}
}

/* ---- parsing ---- */

/*
 * getopt_long's tables: rows with a name, then --help; "-:" + letters.
 * '-' hands each operand over in its place (c == 1), so operands may come
 * anywhere whatever POSIXLY_CORRECT says (the runner passes its
 * environment to `contend exec WORKLOAD k=v ... --scratch DIR`); ':'
 * returns ':' for a missing value, not '?'.
 */
static struct option *long_table(const struct opt_cmd *cmd, char *shortopts)
{
	struct option *lo = xcalloc(cmd->nopts + 2, sizeof(*lo));
	size_t i, n = 0;

	*shortopts++ = '-';
	*shortopts++ = ':';
	for (i = 0; i < cmd->nopts; i++) {
		const struct opt *o = &cmd->opts[i];

		if (!o->name)
			continue;
		lo[n++] = (struct option){ o->name, o->arg ? required_argument
							   : no_argument,
					   NULL, VAL0 + (int)i };
		if (o->letter) {
			*shortopts++ = o->letter;
			if (o->arg)
				*shortopts++ = ':';
		}
	}
	lo[n] = (struct option){ "help", no_argument, NULL, 'h' };
	strcpy(shortopts, "h");
	return lo;
}

/* The row getopt_long's c stands for, or NULL (--help). */
static const struct opt *row_of(const struct opt_cmd *cmd, int c)
{
	size_t i;

	if (c >= VAL0 && c < VAL0 + (int)cmd->nopts)
		return &cmd->opts[c - VAL0];
	for (i = 0; i < cmd->nopts; i++)
		if (cmd->opts[i].name && cmd->opts[i].letter == c)
			return &cmd->opts[i];
	return NULL;
}

/*
 * An option word that getopt_long refused (c is '?' or ':'), as one
 * message.  optopt is the short letter of a short option, the value of a
 * known long one, 0 for an unknown long one.
 */
static int refused(const struct opt_cmd *cmd, int c, const char *word)
{
	const struct opt *o = optopt ? row_of(cmd, optopt) : NULL;
	const char *names[64];
	char hint[SUGGEST_MAX];
	size_t i, n = 0, len, prefixed = 0;
	char *name;
	int ret;

	if (optopt > 0 && optopt < VAL0) {
		if (c == ':')
			return error("%s: option '-%c' needs a value (%s)",
				     cmd->name, optopt, o ? o->arg : "?");
		return error("%s: unknown option '-%c'; 'contend help %s' "
			     "lists the options", cmd->name, optopt, cmd->name);
	}
	if (o && c == ':')
		return error("%s: option '--%s' needs a value (%s)", cmd->name,
			     o->name, o->arg);
	if (o)
		return error("%s: option '--%s' takes no value", cmd->name,
			     o->name);
	len = strcspn(word + 2, "=");
	name = xstrndup(word + 2, len);
	for (i = 0; i < cmd->nopts && n < ARRAY_SIZE(names); i++) {
		if (!cmd->opts[i].name || !cmd->opts[i].help)
			continue;
		names[n++] = cmd->opts[i].name;
		prefixed += len && !strncmp(cmd->opts[i].name, name, len);
	}
	suggest_hint(hint, sizeof(hint), name, names, n, "'--", "'");
	if (prefixed > 1)
		ret = error("%s: option '--%s' is ambiguous; 'contend help %s' "
			    "lists the options", cmd->name, name, cmd->name);
	else
		ret = error("%s: unknown option '--%s'%s", cmd->name, name,
			    hint);
	free(name);
	return ret;
}

/* Whether argv asks for a row with OPT_DIVERTS, before any "--". */
static bool diverted(const struct opt_cmd *cmd, int argc, char **argv)
{
	size_t i;
	int k;

	for (k = 1; k < argc && strcmp(argv[k], "--"); k++)
		for (i = 0; i < cmd->nopts; i++) {
			const struct opt *o = &cmd->opts[i];
			size_t len = o->name ? strlen(o->name) : 0;

			if ((o->flags & OPT_DIVERTS) &&
			    !strncmp(argv[k], "--", 2) &&
			    !strncmp(argv[k] + 2, o->name, len) &&
			    (!argv[k][2 + len] || argv[k][2 + len] == '='))
				return true;
		}
	return false;
}

int opt_choice(const char *opt, const char *arg, void *field, int value)
{
	(void)opt;
	(void)arg;
	(void)field;
	(void)value;
	return 0; /* never called: set_row reads the row's words */
}

/* The index of arg among the row's words "a|b|c" into the int field. */
static int set_choice(const struct opt *o, const char *spelt, const char *arg,
		      int *field)
{
	const char *words_in = o->arg ? o->arg : "", *w = words_in;
	size_t len = strlen(arg);
	char *words, *p;
	int i;

	for (i = 0; w; i++, w = strchr(w, '|'), w = w ? w + 1 : NULL)
		if (!strncmp(w, arg, len) && (w[len] == '|' || !w[len])) {
			*field = i;
			return 0;
		}
	words = xmalloc(2 * strlen(words_in) + 1);
	for (p = words, w = words_in; *w; w++)
		p = *w == '|' ? stpcpy(p, ", ") : (*p = *w, p + 1);
	*p = '\0';
	error("%s: unknown %s '%s' (%s)", spelt, o->name, escape_quote(arg),
	      words);
	free(words);
	return -1;
}

static int set_row(const struct opt *o, const char *spelt, char *arg,
		   void *args)
{
	void *field = (char *)args + o->field;

	if (o->set == opt_choice)
		return set_choice(o, spelt, arg, field);
	if (o->set)
		return o->set(spelt, arg, field, o->value);
	if (o->arg)
		return opt_string(spelt, arg, field, o->value);
	return opt_true(spelt, arg, field, o->value);
}

/* Operand words left after the rows from i on that must have one. */
static size_t needed_after(const struct opt_cmd *cmd, size_t i)
{
	size_t n = 0;

	for (i++; i < cmd->nopts; i++)
		n += !cmd->opts[i].name && !(cmd->opts[i].flags & OPT_OPTIONAL);
	return n;
}

/* Deals argv[k..argc) to the operand rows, in the order of the table. */
static int operands(const struct opt_cmd *cmd, int k, int argc, char **argv,
		    void *args)
{
	size_t i;

	for (i = 0; i < cmd->nopts; i++) {
		const struct opt *o = &cmd->opts[i];
		size_t left = (size_t)(argc - k), need = needed_after(cmd, i);
		/* a required row takes its word first, an optional one only
		 * a word the required rows after it leave */
		size_t spare = left > need ? left - need : 0;
		size_t take = o->flags & OPT_MANY ? spare
			      : o->flags & OPT_OPTIONAL ? spare > 0 : left > 0;

		if (o->name)
			continue;
		if (!take && !(o->flags & OPT_OPTIONAL)) {
			error("%s: %s is missing", cmd->name, o->arg);
			opt_usage(stderr, cmd);
			return -1;
		}
		if (!take)
			continue;
		if (o->flags & OPT_MANY) {
			*(struct opt_words *)((char *)args + o->field) =
				(struct opt_words){ argv + k, take };
			k += (int)take;
		} else if (set_row(o, o->arg, argv[k++], args)) {
			return -1;
		}
	}
	if (k < argc) {
		error("%s: unexpected argument '%s'", cmd->name,
		      escape_quote(argv[k]));
		opt_usage(stderr, cmd);
		return -1;
	}
	return 0;
}

/*
 * Moves the operands (operand[i], and all from tail on, after "--") to the
 * end of argv in their order, the other words before them, as GNU getopt's
 * permutation would: argv keeps every word.  Returns where they begin.
 */
static int operands_last(int argc, char **argv, const bool *operand,
			 int tail)
{
	char **v = xcalloc((size_t)argc + 1, sizeof(*v));
	int i, n = 0, first;

	for (i = 1; i < tail; i++)
		if (!operand[i])
			v[n++] = argv[i];
	first = 1 + n;
	for (i = 1; i < argc; i++)
		if (operand[i] || i >= tail)
			v[n++] = argv[i];
	memcpy(argv + 1, v, (size_t)n * sizeof(*v));
	free(v);
	return first;
}

int opt_parse(const struct opt_cmd *cmd, int argc, char **argv, void *args)
{
	char *shortopts = xmalloc(2 * cmd->nopts + 4);
	struct option *lo = long_table(cmd, shortopts);
	const struct opt *o;
	bool *operand = xcalloc((size_t)argc + 1, sizeof(*operand));
	char spelt[80];
	int c, ret = 0;

	if (diverted(cmd, argc, argv)) {
		ret = OPT_DIVERTED;
		goto out;
	}
	optind = 0; /* glibc: a full reset, for a second parse */
	opterr = 0;
	while (!ret &&
	       (c = getopt_long(argc, argv, shortopts, lo, NULL)) != -1) {
		if (c == 1) {
			operand[optind - 1] = true;
		} else if (c == 'h' && !row_of(cmd, 'h')) {
			opt_help(stdout, cmd);
			ret = OPT_HELP;
		} else if (c == '?' || c == ':') {
			ret = refused(cmd, c, argv[optind - 1]);
		} else if ((o = row_of(cmd, c))) {
			if (c < VAL0)
				snprintf(spelt, sizeof(spelt), "-%c", c);
			else
				snprintf(spelt, sizeof(spelt), "--%s", o->name);
			ret = set_row(o, spelt, optarg, args);
		}
	}
	if (!ret)
		ret = operands(cmd, operands_last(argc, argv, operand, optind),
			       argc, argv, args);
out:
	free(operand);
	free(lo);
	free(shortopts);
	return ret;
}
