/*
 * import.h — `arenabench import`: turns a model or a peer's problem file into
 * a suite (harness/cli/cmd_import.c). The formats are rows of a table there.
 */
#ifndef AB_IMPORT_H
#define AB_IMPORT_H

/* `arenabench import FILE [-o SUITE.yaml] [options]`, argv[0] being "import".
 * Prints the suite (or, with -o, a summary), errors as "arenabench: ..." on
 * stderr. Returns the exit code: 0 ok, 2 bad usage or input, 3 internal. */
int abh_cmd_import(int argc, char **argv);

#endif
