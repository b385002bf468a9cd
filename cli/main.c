/*
 * main.c - contend's entry point: one table of subcommands drives dispatch,
 * `contend --help` and `contend help CMD`.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "version.h"
#include "cli/commands.h"
#include "lib/util.h"

const char *contend_self = "contend";

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
	const char *usage;
};

static const struct command commands[] = {
	{ "run", cmd_run, "run an experiment described by an INI file",
	  "contend run CONFIG.ini [--db PATH] [--label L] [--seed N] [--dry-run]\n"
	  "            [--quiet] [--fail-fast] [--calibration-from EXPERIMENT]\n"
	  "contend run --resume EXPERIMENT [--db PATH] [--quiet] [--fail-fast]" },
	{ "exec", cmd_exec, "run one configuration in the foreground, print metrics",
	  "contend exec WORKLOAD [key=value ...] [--scratch DIR] [--calibration N]" },
	{ "list", cmd_list, "list workloads and their parameters",
	  "contend list [WORKLOAD] [--format text|markdown]" },
	{ "report", cmd_report, "summaries, intervals, correlations and flags",
	  "contend report [--db PATH] [EXPERIMENT] [--format text|json|csv]\n"
	  "               [--resolve PCT] [--handoff-drop PCT] [--confidence C]\n"
	  "               [--html DIR] [--markdown DIR]\n"
	  "contend report --levels NAME [--db PATH] [--metric M] [--format text|json]\n"
	  "               [--boot-cost S] [--run-cost S] [--confidence C]" },
	{ "compare", cmd_compare, "A/B comparison of selections or files",
	  "contend compare BASE CAND [CAND...] [--db PATH] [--metric M]\n"
	  "                [--format text|json] [--threshold PCT]\n"
	  "                [--fail-on-regression PCT]\n"
	  "                [--lower-is-better | --higher-is-better] [-C N] [-d DELIMS]\n"
	  "                [--confidence C] [--plot DIR] [--ascii]\n"
	  "BASE, CAND: [DB:]WHAT[~newest][@KEY=VALUE,...] | DB | FILE of numbers | -" },
	{ "plot", cmd_plot, "draw the plots of an experiment with gnuplot",
	  "contend plot [--db PATH] [EXPERIMENT] [--out DIR] [--format png|svg|both]\n"
	  "             [--x PARAM] [--metric M]" },
	{ "export", cmd_export, "export runs and samples in long format",
	  "contend export [--db PATH] [EXPERIMENT] [--format csv|json] [--threads]" },
	{ "merge", cmd_merge, "merge experiments of several databases",
	  "contend merge OUT.db IN.db ..." },
};

static const struct command *find_command(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: contend COMMAND [ARGS]\n\n"
		   "contend runs lock-contention microbenchmarks as statistical "
		   "experiments.\n\ncommands:\n");
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\n'contend help COMMAND' shows a command's options; "
		   "see contend(1).\n");
}

static int help(int argc, char **argv)
{
	const struct command *c;

	if (argc < 2) {
		usage(stdout);
		return 0;
	}
	c = find_command(argv[1]);
	if (!c) {
		error("unknown command '%s'", argv[1]);
		return EXIT_USAGE;
	}
	printf("usage: %s\n\n%s\n", c->usage, c->summary);
	return 0;
}

/*
 * Descriptors 0, 1 and 2 open, on /dev/null when they were closed
 * (`contend run ... >&- 2>&-`, as cron and some CI runners start
 * programs): otherwise the first pipe or database opened would take
 * their numbers, and every message printed would land in it (the signal
 * self-pipe read contend's own messages as stop requests).  Before
 * anything else opens a descriptor.
 */
static void stdio_open(void)
{
	int fd;

	for (fd = STDIN_FILENO; fd <= STDERR_FILENO; fd++) {
		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		/* open() takes the lowest free number: fd itself. */
		if (open("/dev/null", fd ? O_WRONLY : O_RDONLY) != fd)
			_exit(EXIT_RUNTIME);
	}
}

/*
 * A write to stdout that failed (a full disk, /dev/full, a closed pipe's
 * EPIPE) makes a command that thought it succeeded fail with a message,
 * not exit 0 as if its output were there.  A command that failed has
 * said why already.
 */
static int stdout_close(int ret)
{
	int e = fflush(stdout) ? errno : 0;

	if (ret || (!e && !ferror(stdout)))
		return ret;
	error("cannot write to standard output%s%s", e ? ": " : "",
	      e ? strerror(e) : "");
	return EXIT_RUNTIME;
}

int main(int argc, char **argv)
{
	const struct command *c;

	stdio_open();
	contend_self = argv[0];
	/*
	 * Past a file size limit (RLIMIT_FSIZE) a write fails with EFBIG,
	 * which SQLite reports as a full disk, instead of SIGXFSZ killing
	 * us mid-transaction without a word (tests/faults/diskfull.sh).
	 */
	signal(SIGXFSZ, SIG_IGN);
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("contend %s\n", CONTEND_VERSION);
		return 0;
	}
	if (!strcmp(argv[1], "help"))
		return stdout_close(help(argc - 1, argv + 1));
	c = find_command(argv[1]);
	if (!c) {
		const char *names[ARRAY_SIZE(commands)];
		const char *s;
		size_t i;

		for (i = 0; i < ARRAY_SIZE(commands); i++)
			names[i] = commands[i].name;
		s = suggest(argv[1], names, ARRAY_SIZE(commands));
		error("unknown command '%s'%s%s%s", argv[1],
		      s ? "; did you mean '" : "", s ? s : "", s ? "'?" : "");
		return EXIT_USAGE;
	}
	return stdout_close(c->fn(argc - 1, argv + 1));
}
