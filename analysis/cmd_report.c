/*
 * cmd_report.c - `contend report`.  Not implemented yet: listed honestly,
 * never faking output.
 */
#include "runner/commands.h"
#include "runner/util.h"

int cmd_report(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	error("'report' is not implemented yet");
	return EXIT_RUNTIME;
}
