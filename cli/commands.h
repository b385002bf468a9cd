/*
 * commands.h - the subcommands of contend: each an entry function and its
 * command line (cli/opt.h), which gives `contend CMD --help`, `contend
 * help CMD` and its line of `contend --help`.  main.c dispatches from one
 * table of them.  Each returns the process exit status (lib/util.h:
 * 0, EXIT_RUNTIME, EXIT_USAGE, EXIT_REGRESSION, EXIT_INTERRUPTED).
 */
#ifndef CONTEND_COMMANDS_H
#define CONTEND_COMMANDS_H

#include <stdbool.h>

#include "cli/opt.h"

int cmd_run(int argc, char **argv);      /* cli/cmd_run.c */
int cmd_exec(int argc, char **argv);     /* cli/cmd_exec.c */
int cmd_list(int argc, char **argv);     /* cli/cmd_list.c */
int cmd_report(int argc, char **argv);   /* cli/cmd_report.c */
int cmd_levels(int argc, char **argv);   /* cli/cmd_levels.c */
int cmd_compare(int argc, char **argv);  /* cli/cmd_compare.c */
int cmd_plot(int argc, char **argv);     /* cli/cmd_plot.c */
int cmd_export(int argc, char **argv);   /* cli/cmd_export.c */
int cmd_merge(int argc, char **argv);    /* cli/cmd_merge.c */
int cmd_history(int argc, char **argv);  /* cli/cmd_history.c */
int cmd_bisect(int argc, char **argv);   /* cli/cmd_bisect.c */
int cmd_calibrate(int argc, char **argv); /* cli/cmd_calibrate.c */

/*
 * The levels report (analysis/levels.h) of the experiments selector names
 * in s, or of what with pick's filters when pick is given (a selector
 * already parsed), printed as text or JSON: its exit status.  `levels`
 * and `report` over several experiments print through it.
 */
struct store;
struct selector;
struct levels_opts;
int levels_print(struct store *s, const char *selector,
		 const struct selector *pick, const struct levels_opts *o,
		 bool json);

extern const struct opt_cmd run_cli, exec_cli, list_cli, report_cli,
	levels_cli, compare_cli, plot_cli, export_cli, merge_cli,
	history_cli, bisect_cli, calibrate_cli;

/* The --db row every command that reads or writes a database has. */
#define DB_ROW(field)                                                        \
	{ "db", 0, "PATH", "the database (default: $CONTEND_DB, else "       \
	  "${XDG_DATA_HOME:-~/.local/share}/contend/contend.db)", NULL,       \
	  field, 0, 0 }

/* The selector grammar of the reading commands (db/select.h), for help. */
#define SELECTOR_TEXT "[DB:]WHAT[~newest][@KEY=VALUE,...]"

#endif
