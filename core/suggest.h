/*
 * suggest.h — "did you mean": the one rule for proposing a known name in
 * place of a mistyped one. It serves the command names and long options of
 * the CLI (harness/cli), planner names (planners/registry.c) and the keys
 * and dtypes of suite files (harness/formats/suite.c).
 *
 * THE RULE. A candidate is close to the typo when their
 * optimal-string-alignment distance d (insertions, deletions, substitutions
 * and swaps of two neighbours, each costing 1) is at most AB_SUGGEST_MAX_DIST
 * and below the candidate's length (a name is never proposed for a typo
 * that shares nothing with it). The suggestion is the closest close
 * candidate; among equally close ones, the first in strcmp order, so the
 * answer does not depend on the order they are offered in. Names longer than
 * AB_SUGGEST_MAX_LEN bytes are never matched.
 */
#ifndef AB_SUGGEST_H
#define AB_SUGGEST_H

#include <stddef.h>

#define AB_SUGGEST_MAX_DIST 2   /* the largest distance suggested */
#define AB_SUGGEST_MAX_LEN 128  /* longer typos and names are never matched */

/* A search for the name closest to typo: init, offer every candidate, read
 * best. Nothing is copied: typo and the candidates offered must outlive the
 * search. Allocates nothing. */
typedef struct ab_suggest {
    const char *typo;
    const char *best; /* the suggestion, a candidate as offered, or NULL */
    size_t dist;      /* its distance (SIZE_MAX while best is NULL) */
} ab_suggest;

void ab_suggest_init(ab_suggest *s, const char *typo);
/* Offers one candidate (a NUL-terminated name). */
void ab_suggest_offer(ab_suggest *s, const char *name);

/* The suggestion for typo among names[0 .. n), or NULL: the same rule
 * through ab_suggest_init and ab_suggest_offer. */
const char *ab_suggest_among(const char *typo, const char *const *names, size_t n);

#endif
