/*
 * commands.h - the subcommands of contend; main.c dispatches from one table
 * that also prints `contend --help` and `contend help CMD`.  Each returns
 * the process exit status (0, EXIT_RUNTIME, EXIT_USAGE, EXIT_REGRESSION).
 */
#ifndef CONTEND_COMMANDS_H
#define CONTEND_COMMANDS_H

int cmd_run(int argc, char **argv);      /* cli/cmd_run.c */
int cmd_exec(int argc, char **argv);     /* cli/cmd_exec.c */
int cmd_list(int argc, char **argv);     /* cli/cmd_list.c */
int cmd_report(int argc, char **argv);   /* cli/cmd_report.c */
int cmd_compare(int argc, char **argv);  /* cli/cmd_compare.c */
int cmd_plot(int argc, char **argv);     /* cli/cmd_plot.c */
int cmd_export(int argc, char **argv);   /* cli/cmd_export.c */
int cmd_merge(int argc, char **argv);    /* cli/cmd_merge.c */

/* The path of this executable, so the runner can spawn `contend exec`. */
extern const char *contend_self;

#endif
