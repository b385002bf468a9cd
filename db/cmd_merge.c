/*
 * cmd_merge.c - `contend merge`.  Not implemented yet: listed honestly,
 * never faking output.
 */
#include "runner/commands.h"
#include "runner/util.h"

int cmd_merge(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	error("'merge' is not implemented yet");
	return EXIT_RUNTIME;
}
