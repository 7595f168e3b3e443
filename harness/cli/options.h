/*
 * options.h — the command table's row type and the one option parser of the
 * command layer (options.c, on getopt_long). A command declares its options
 * as data (abc_option rows); the parser reads argv against them and hands the
 * command an abc_args: the options given, in order, and the operands.
 *
 * Accepted spellings, for every command: "--name=value", "--name value",
 * "-xvalue", "-x value"; flags "--name" and "-x"; options and operands in any
 * order; "--" ends the options; "-" is an operand. Long names must be given
 * whole (no abbreviations). "-h" and "--help" print the command's help.
 */
#ifndef AB_CLI_OPTIONS_H
#define AB_CLI_OPTIONS_H

#include <stdbool.h>
#include <stdio.h>

/* One option of a command. */
typedef struct abc_option {
    const char *name;  /* the long name, without "--" */
    char letter;       /* the short option, or 0 for none */
    const char *arg;   /* the value's name in the help ("SPEC"); NULL: a flag, no value */
    int repeat;        /* > 0: may be given up to this many times, every value kept;
                          0: once (given again, the last value counts) */
    const char *help;  /* for the command's Options list (lines after the first are
                          indented to the list's column); NULL: not listed */
} abc_option;

struct abc_args;

/* A row of the command table (cli.c). */
typedef struct abc_command {
    const char *name;
    const char *usage;   /* the synopsis after "arenabench " */
    const char *summary; /* one line, for `arenabench --help` and below the usage */
    const char *help;    /* the text before the Options list */
    const abc_option *options; /* ends with a row whose name is NULL; NULL for none */
    int column;          /* where the help of each option starts in the Options list */
    const char *more;    /* the text after the Options list (or "") */
    void (*extra)(FILE *to); /* prints more help from elsewhere (gen's kinds), or NULL */
    int max_operands;    /* more is a usage error; -1: any number */
    int (*run)(const struct abc_args *a); /* the command; returns the exit code */
} abc_command;

/* One option as given on the command line. */
typedef struct abc_given {
    const abc_option *opt;
    const char *value; /* into argv; NULL for a flag */
} abc_given;

/* A parsed command line. Create with abc_parse, free with abc_args_free. */
typedef struct abc_args {
    const abc_command *cmd;
    int argc;           /* as given: argv[0] is the command's name */
    char **argv;
    abc_given *given;   /* the options, in the order given */
    int ngiven;
    const char **operands;
    int noperands;
} abc_args;

/* Parses argv (argv[0] the command's name) against c's options into *a.
 * Returns 0 to run the command; 1 when -h/--help printed the help (exit 0);
 * otherwise the exit code after printing the error (2 for misuse, 3 when out
 * of memory). *a is to be freed with abc_args_free whatever the result. */
int abc_parse(const abc_command *c, int argc, char **argv, abc_args *a);

/* Frees what abc_parse allocated (not argv). NULL is accepted. */
void abc_args_free(abc_args *a);

/* The last value given for option name (flags: "" when given), or def when
 * it was not given. name must be one of the command's options. */
const char *abc_opt(const abc_args *a, const char *name, const char *def);

/* Whether the flag (or option) name was given. */
bool abc_flag(const abc_args *a, const char *name);

/* The values of a repeatable option, in order, into out (at most its repeat
 * count, which the parser enforces); returns how many. */
int abc_opt_all(const abc_args *a, const char *name, const char **out);

/* Prints c's help: usage, summary, help, the Options list, more, extra. */
void abc_print_help(const abc_command *c, FILE *to);

#endif
