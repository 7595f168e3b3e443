/*
 * options.c — the one option parser of the command layer (options.h), on
 * getopt_long. Each command's options are rows of data (abc_option); from
 * them this file builds getopt_long's tables, parses, prints the messages of
 * misuse (through fail.h) and prints a command's help with its Options list.
 *
 * getopt_long is run with optstring "-:...": '-' returns each operand in
 * place (so operands may come anywhere, whatever POSIXLY_CORRECT says, and
 * argv is not permuted), ':' reports a missing value apart from an unknown
 * option. getopt keeps global state: optind = 0 restarts it (glibc) and
 * opterr = 0 keeps its own messages quiet.
 */
#include "harness/cli/options.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/ab.h"
#include "core/suggest.h"
#include "harness/cli/fail.h"

#define VAL_HELP 'h'
#define VAL_LONG_ONLY 256 /* getopt's val of option i without a letter: 256 + i */

static size_t count_options(const abc_command *c) {
    size_t n = 0;
    while (c->options != NULL && c->options[n].name != NULL) n++;
    return n;
}

/* The option with getopt value val, or NULL. */
static const abc_option *option_of_val(const abc_command *c, int val) {
    for (size_t i = 0; c->options != NULL && c->options[i].name != NULL; i++) {
        const abc_option *o = &c->options[i];
        if (o->letter != 0 ? o->letter == val : (int)(VAL_LONG_ONLY + i) == val) return o;
    }
    return NULL;
}

/* Whether argv element el spells long option name in full ("--name" or
 * "--name=..."): getopt_long also takes unambiguous prefixes, arenabench not. */
static bool spelled_whole(const char *el, const char *name) {
    size_t n = strlen(name);
    return strncmp(el, "--", 2) == 0 && strncmp(el + 2, name, n) == 0 &&
           (el[2 + n] == '\0' || el[2 + n] == '=');
}

/* getopt_long's tables for c (plus -h/--help), into lo (count + 2 rows) and
 * shorts (3 + 2 * count + 2 bytes). */
static void build_tables(const abc_command *c, size_t count, struct option *lo, char *shorts) {
    size_t k = 0;
    shorts[k++] = '-';
    shorts[k++] = ':';
    for (size_t i = 0; i < count; i++) {
        const abc_option *o = &c->options[i];
        lo[i] = (struct option){o->name, o->arg != NULL ? required_argument : no_argument, NULL,
                                o->letter != 0 ? o->letter : (int)(VAL_LONG_ONLY + i)};
        if (o->letter != 0) {
            shorts[k++] = o->letter;
            if (o->arg != NULL) shorts[k++] = ':';
        }
    }
    lo[count] = (struct option){"help", no_argument, NULL, VAL_HELP};
    lo[count + 1] = (struct option){NULL, 0, NULL, 0};
    shorts[k++] = 'h';
    shorts[k] = '\0';
}

/* "unknown option 'EL'" for argv element el, with the closest long option
 * of c (or --help) when el is a long option near one (core/suggest.h's
 * rule): "unknown option '--time-limt'; did you mean '--time-limit'?". */
static int unknown_option(const abc_command *c, const char *el) {
    char name[AB_SUGGEST_MAX_LEN + 1];
    size_t len = strncmp(el, "--", 2) == 0 ? strcspn(el + 2, "=") : 0;
    if (len == 0 || len > AB_SUGGEST_MAX_LEN)
        return abc_usage_error(c, "unknown option '%s'", el);
    memcpy(name, el + 2, len);
    name[len] = '\0';
    ab_suggest s;
    ab_suggest_init(&s, name);
    for (size_t i = 0; c->options != NULL && c->options[i].name != NULL; i++)
        ab_suggest_offer(&s, c->options[i].name);
    ab_suggest_offer(&s, "help");
    if (s.best == NULL) return abc_usage_error(c, "unknown option '%s'", el);
    return abc_usage_error(c, "unknown option '%s'; did you mean '--%s'?", el, s.best);
}

/* The message for getopt's '?': an unknown option, or a value given to a flag. */
static int bad_option(const abc_command *c, char **argv) {
    const char *el = argv[optind - 1];
    const abc_option *o = optopt != 0 ? option_of_val(c, optopt) : NULL;
    if (optopt == VAL_HELP && spelled_whole(el, "help"))
        return abc_usage_error(c, "option --help takes no value");
    if (o != NULL && spelled_whole(el, o->name))
        return abc_usage_error(c, "option --%s takes no value", o->name);
    if (optopt != 0 && optopt < VAL_LONG_ONLY && o == NULL && optopt != VAL_HELP)
        return abc_usage_error(c, "unknown option '-%c'", optopt);
    return unknown_option(c, el);
}

/* Records option o with value v; returns 0 or the exit code of a misuse. */
static int record(const abc_command *c, abc_args *a, const abc_option *o, const char *v) {
    if (o->repeat > 0) {
        int times = 0;
        for (int i = 0; i < a->ngiven; i++) times += a->given[i].opt == o;
        if (times >= o->repeat)
            return abc_usage_error(c, "option --%s given more than %d times", o->name, o->repeat);
    }
    a->given[a->ngiven++] = (abc_given){o, v};
    return 0;
}

static int add_operand(const abc_command *c, abc_args *a, const char *s) {
    if (c->max_operands >= 0 && a->noperands >= c->max_operands)
        return abc_usage_error(c, "unexpected operand '%s'", s);
    a->operands[a->noperands++] = s;
    return 0;
}

/* Runs getopt_long over argv; returns 0, 1 (help printed) or an exit code. */
static int scan(const abc_command *c, int argc, char **argv, abc_args *a,
                const struct option *lo, const char *shorts) {
    optind = 0;
    opterr = 0;
    for (;;) {
        int li = -1;
        int ch = getopt_long(argc, argv, shorts, lo, &li);
        if (ch == -1) break;
        if (ch == 1) {
            int rc = add_operand(c, a, optarg);
            if (rc != 0) return rc;
            continue;
        }
        if (ch == '?') return bad_option(c, argv);
        if (ch == ':') { /* the option was the last element */
            const char *el = argv[optind - 1];
            const abc_option *o = option_of_val(c, optopt);
            if (o == NULL || (strncmp(el, "--", 2) == 0 && !spelled_whole(el, o->name)))
                return unknown_option(c, el);
            return abc_usage_error(c, "option --%s needs a value", o->name);
        }
        if (li >= 0) { /* a long option: the element before its value, if that came apart */
            const char *el = argv[optind - 1];
            if (optarg != NULL && optarg == el) el = argv[optind - 2];
            if (!spelled_whole(el, lo[li].name))
                return unknown_option(c, el);
        }
        if (ch == VAL_HELP) {
            abc_print_help(c, stdout);
            return 1;
        }
        const abc_option *o = option_of_val(c, ch);
        int rc = record(c, a, o, o->arg != NULL ? optarg : NULL);
        if (rc != 0) return rc;
    }
    for (int i = optind; i < argc; i++) { /* after "--" */
        int rc = add_operand(c, a, argv[i]);
        if (rc != 0) return rc;
    }
    return 0;
}

int abc_parse(const abc_command *c, int argc, char **argv, abc_args *a) {
    memset(a, 0, sizeof *a);
    a->cmd = c;
    a->argc = argc;
    a->argv = argv;
    size_t count = count_options(c);
    struct option *lo = ab_alloc_array(count + 2, sizeof *lo);
    char *shorts = ab_malloc(2 * count + 5);
    a->given = ab_alloc_array(argc > 0 ? (size_t)argc : 1, sizeof *a->given);
    a->operands = ab_alloc_array(argc > 0 ? (size_t)argc : 1, sizeof *a->operands);
    int rc = ABC_EXIT_INTERNAL;
    if (lo == NULL || shorts == NULL || a->given == NULL || a->operands == NULL) {
        abc_failf(rc, "out of memory parsing the command line");
    } else {
        build_tables(c, count, lo, shorts);
        rc = scan(c, argc, argv, a, lo, shorts);
    }
    ab_free(lo);
    ab_free(shorts);
    return rc;
}

void abc_args_free(abc_args *a) {
    if (a == NULL) return;
    ab_free(a->given);
    ab_free(a->operands);
    a->given = NULL;
    a->operands = NULL;
    a->ngiven = a->noperands = 0;
}

/* The option called name; a name the command lacks is a bug of the caller. */
static const abc_option *option_named(const abc_command *c, const char *name) {
    for (size_t i = 0; c->options != NULL && c->options[i].name != NULL; i++)
        if (strcmp(c->options[i].name, name) == 0) return &c->options[i];
    abc_failf(ABC_EXIT_INTERNAL, "internal error: command %s has no option --%s", c->name, name);
    abort();
}

const char *abc_opt(const abc_args *a, const char *name, const char *def) {
    const abc_option *o = option_named(a->cmd, name);
    for (int i = a->ngiven - 1; i >= 0; i--)
        if (a->given[i].opt == o) return o->arg != NULL ? a->given[i].value : "";
    return def;
}

bool abc_flag(const abc_args *a, const char *name) { return abc_opt(a, name, NULL) != NULL; }

int abc_opt_all(const abc_args *a, const char *name, const char **out) {
    const abc_option *o = option_named(a->cmd, name);
    int n = 0;
    for (int i = 0; i < a->ngiven; i++)
        if (a->given[i].opt == o) out[n++] = a->given[i].value;
    return n;
}

/* ---- help ------------------------------------------------------------------------ */

/* "  -p, --planner SPEC   the planner spec ...", continuation lines indented. */
static void print_option(const abc_option *o, int column, FILE *to) {
    int len;
    if (o->letter != 0) len = fprintf(to, "  -%c, --%s", o->letter, o->name);
    else len = fprintf(to, "      --%s", o->name);
    if (o->arg != NULL) len += fprintf(to, "%s%s", o->arg[0] == '=' ? "" : " ", o->arg);
    do fputc(' ', to);
    while (++len < column);
    for (const char *h = o->help; *h != '\0';) {
        size_t n = strcspn(h, "\n");
        fprintf(to, "%.*s\n", (int)n, h);
        h += n;
        if (*h == '\n' && *++h != '\0') fprintf(to, "%*s", column, "");
    }
}

void abc_print_help(const abc_command *c, FILE *to) {
    fprintf(to, "usage: arenabench %s\n\n%s\n%s", c->usage, c->summary, c->help);
    bool listed = false;
    for (size_t i = 0; c->options != NULL && c->options[i].name != NULL; i++) {
        if (c->options[i].help == NULL) continue;
        if (!listed) fprintf(to, "\nOptions:\n");
        listed = true;
        print_option(&c->options[i], c->column, to);
    }
    if (c->more != NULL) fputs(c->more, to);
    if (c->extra != NULL) c->extra(to);
}
