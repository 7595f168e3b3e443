/*
 * import.h — `arenabench import`: turns a model or a peer's problem file into
 * a suite (harness/cli/import.c). The formats are rows of the formats table.
 */
#ifndef AB_IMPORT_H
#define AB_IMPORT_H



/* `arenabench import FILE [-o SUITE.yaml] [options]`, argv[0] being "import":
 * the same as abc_command_main. Prints the suite (or, with -o, a summary),
 * errors as "arenabench: ..." on stderr. Returns the exit code: 0 ok, 2 bad
 * usage or input, 3 internal. The command table does not use it: it is
 * exported for tests/test_tflite.c, which runs the command inside the
 * test's process to read what it prints. */
int abc_cmd_import(int argc, char **argv);

#endif
