/*
 * cmd_list.c - `contend list`.  Not implemented yet: listed honestly,
 * never faking output.
 */
#include "runner/commands.h"
#include "runner/util.h"

int cmd_list(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	error("'list' is not implemented yet");
	return EXIT_RUNTIME;
}
