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

#include "lib/escape.h"
#include "version.h"
#include "cli/commands.h"
#include "lib/util.h"

struct command {
	const struct opt_cmd *cli;   /* name, summary, options */
	int (*fn)(int argc, char **argv);
};

static const struct command commands[] = {
	{ &run_cli, cmd_run },
	{ &exec_cli, cmd_exec },
	{ &list_cli, cmd_list },
	{ &report_cli, cmd_report },
	{ &levels_cli, cmd_levels },
	{ &compare_cli, cmd_compare },
	{ &plot_cli, cmd_plot },
	{ &export_cli, cmd_export },
	{ &merge_cli, cmd_merge },
	{ &history_cli, cmd_history },
	{ &bisect_cli, cmd_bisect },
	{ &calibrate_cli, cmd_calibrate },
};

static const struct command *find_command(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(commands[i].cli->name, name))
			return &commands[i];
	return NULL;
}

static int unknown_command(const char *name)
{
	const char *names[ARRAY_SIZE(commands)];
	char hint[SUGGEST_MAX];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(commands); i++)
		names[i] = commands[i].cli->name;
	suggest_hint(hint, sizeof(hint), name, names, ARRAY_SIZE(commands),
		     NULL, NULL);
	error("unknown command '%s'%s", escape_quote(name), hint);
	return EXIT_USAGE;
}

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: contend COMMAND [ARGS]\n\n"
		   "contend runs lock-contention microbenchmarks as statistical "
		   "experiments.\n\ncommands:\n");
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(f, "  %-9s %s\n", commands[i].cli->name,
			commands[i].cli->summary);
	fprintf(f, "\n'contend help COMMAND' (or 'contend COMMAND --help') "
		   "shows a command's options;\nsee contend(1).\n");
}

/* `contend help [COMMAND]`: the same text as `contend COMMAND --help`. */
static int help(int argc, char **argv)
{
	const struct command *c;

	if (argc < 2) {
		usage(stdout);
		return 0;
	}
	c = find_command(argv[1]);
	if (!c)
		return unknown_command(argv[1]);
	opt_help(stdout, c->cli);
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
	if (!c)
		return unknown_command(argv[1]);
	return stdout_close(c->fn(argc - 1, argv + 1));
}
