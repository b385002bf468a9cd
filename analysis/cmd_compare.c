/*
 * cmd_compare.c - `contend compare`.  Not implemented yet: listed honestly,
 * never faking output.
 */
#include "runner/commands.h"
#include "runner/util.h"

int cmd_compare(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	error("'compare' is not implemented yet");
	return EXIT_RUNTIME;
}
