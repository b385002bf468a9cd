/*
 * cmd_run.c - `contend run`.  Not implemented yet: listed honestly,
 * never faking output.
 */
#include "runner/commands.h"
#include "runner/util.h"

int cmd_run(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	error("'run' is not implemented yet");
	return EXIT_RUNTIME;
}
