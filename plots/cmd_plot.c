/*
 * cmd_plot.c - `contend plot`.  Not implemented yet: listed honestly,
 * never faking output.
 */
#include "runner/commands.h"
#include "runner/util.h"

int cmd_plot(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	error("'plot' is not implemented yet");
	return EXIT_RUNTIME;
}
