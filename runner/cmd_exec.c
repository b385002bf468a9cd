/*
 * cmd_exec.c - `contend exec`.  Not implemented yet: listed honestly,
 * never faking output.
 */
#include "runner/commands.h"
#include "runner/util.h"

int cmd_exec(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	error("'exec' is not implemented yet");
	return EXIT_RUNTIME;
}
