/*
 * opt.h - the command line of every command: one table of rows (options
 * and operands) per command, walked by one parser (getopt_long, built from
 * the table), and the usage and --help text generated from the same table,
 * so what a command accepts and what it says it accepts cannot drift.
 *
 * Call sequence, in a command's entry:
 *
 *	p = opt_parse(&export_cli, argc, argv, &args);   argv[0]: the command
 *	if (p)
 *		return opt_exit(p);       help printed: 0; a usage error: 2
 *
 * A row sets one field of the command's argument struct (its offset):
 * through its setter, or without one by type: a string option or operand
 * stores its argument (const char *), a flag stores true (bool), an
 * operand with OPT_MANY stores a struct opt_words.  Every command also
 * takes -h and --help (help to stdout).  Errors are one message on stderr
 * naming the option, with "did you mean" for a near miss (lib/util.h
 * suggest); a missing or extra operand adds the usage.
 */
#ifndef CONTEND_CLI_OPT_H
#define CONTEND_CLI_OPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Flags of a row. */
enum {
	OPT_OPTIONAL = 1 << 0, /* an operand that may be left out */
	OPT_MANY = 1 << 1,     /* an operand taking every word left */
	/* An option that hands the whole command line to another command
	 * (`report --levels NAME` is `levels`): opt_parse returns OPT_DIVERTED
	 * when argv has it, before anything else is parsed. */
	OPT_DIVERTS = 1 << 2,
};

/*
 * A setter: converts and checks arg, stores it in field.  opt is the
 * option as the user spelt it ("--seed", "-C"), or the operand's name,
 * for the message; value is the row's value.  0, or -1 after error().
 */
typedef int opt_setter(const char *opt, const char *arg, void *field,
		       int value);

struct opt {
	const char *name;       /* long name without "--"; NULL: an operand */
	char letter;            /* short option, or 0 */
	const char *arg;        /* the argument's name ("PATH"); NULL: a flag */
	const char *help;       /* NULL: hidden from usage and --help */
	opt_setter *set;        /* NULL: store by type (see above) */
	size_t field;           /* offsetof the destination */
	int value;              /* handed to set */
	unsigned flags;
};

/* The operands of an OPT_MANY row: words of argv, in order. */
struct opt_words {
	char **v;
	size_t n;
};

/* A command's whole command line. */
struct opt_cmd {
	const char *name;       /* "export" */
	const char *summary;    /* one line, for `contend --help` */
	const struct opt *opts;
	size_t nopts;
	const char *notes;      /* printed after the options; NULL: none */
};

/* opt_parse's results besides 0 (parsed) and -1 (usage error, said). */
enum { OPT_HELP = 1, OPT_DIVERTED = 2 };

/*
 * Parses argv (argv[0] the command's name) into args by cmd's rows.
 * Options and operands may come in any order; "--" ends the options.
 * Returns 0, OPT_HELP after printing the help to stdout, OPT_DIVERTED (see
 * above), or -1 after printing why.  May be called more than once.
 */
int opt_parse(const struct opt_cmd *cmd, int argc, char **argv, void *args);
/* The exit status for a non-zero opt_parse result: 0 for help, else 2. */
int opt_exit(int parsed);

/* "usage: contend NAME [--db PATH] ..." wrapped at 80 columns. */
void opt_usage(FILE *f, const struct opt_cmd *cmd);
/* The usage, the summary, every visible option with its help, the notes. */
void opt_help(FILE *f, const struct opt_cmd *cmd);

/* Setters for the common cases: */
opt_setter opt_string;  /* field: const char *, any text */
opt_setter opt_int;     /* field: int (or an enum), set to value */
/* field: int (or an enum), the index of the argument among the row's
 * words, arg "csv|json": "json" stores 1; anything else is an error
 * naming the words. */
opt_setter opt_choice;
opt_setter opt_confidence; /* field: double, a number in (0, 1) */
/* field: double, seconds of a duration ("90", "2m", "500ms"), above 0;
 * 0 allowed too when the row's value is 1 */
opt_setter opt_duration;
/* field: double, a percentage ("5" or "5%") in (0, 100); [0, 100) when
 * the row's value is 1 */
opt_setter opt_percent;

/* A number strictly inside (lo, hi) into *out, or -1 after an error
 * naming opt: for setters of a range of their own. */
int opt_number_in(const char *opt, const char *arg, double lo, double hi,
		  double *out);

#endif
