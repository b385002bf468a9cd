/*
 * cmd_export.c - `contend export`.  Not implemented yet: listed honestly,
 * never faking output.
 */
#include "runner/commands.h"
#include "runner/util.h"

int cmd_export(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	error("'export' is not implemented yet");
	return EXIT_RUNTIME;
}
