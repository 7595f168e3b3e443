/*
 * suggest.c — "did you mean" (suggest.h): the optimal-string-alignment
 * distance and the one rule that turns it into a suggestion.
 */
#include "core/suggest.h"

#include <stdint.h>
#include <string.h>

/* The optimal-string-alignment distance of a and b (both at most
 * AB_SUGGEST_MAX_LEN bytes): three rolling rows of the dynamic programme. */
static size_t osa_distance(const char *a, size_t la, const char *b, size_t lb) {
    size_t rows[3][AB_SUGGEST_MAX_LEN + 1];
    size_t *prev2 = rows[0], *prev = rows[1], *cur = rows[2];
    for (size_t j = 0; j <= lb; j++) prev[j] = j;
    for (size_t i = 1; i <= la; i++) {
        cur[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t cost = a[i - 1] != b[j - 1];
            size_t d = prev[j] + 1;                              /* delete */
            if (cur[j - 1] + 1 < d) d = cur[j - 1] + 1;          /* insert */
            if (prev[j - 1] + cost < d) d = prev[j - 1] + cost; /* substitute */
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                prev2[j - 2] + 1 < d)
                d = prev2[j - 2] + 1;                            /* swap neighbours */
            cur[j] = d;
        }
        size_t *t = prev2;
        prev2 = prev;
        prev = cur;
        cur = t;
    }
    return prev[lb];
}

void ab_suggest_init(ab_suggest *s, const char *typo) {
    s->typo = typo;
    s->best = NULL;
    s->dist = SIZE_MAX;
}

void ab_suggest_offer(ab_suggest *s, const char *name) {
    size_t la = strlen(s->typo), lb = strlen(name);
    if (la > AB_SUGGEST_MAX_LEN || lb > AB_SUGGEST_MAX_LEN || la > lb + AB_SUGGEST_MAX_DIST ||
        lb > la + AB_SUGGEST_MAX_DIST)
        return; /* the lengths alone put it too far */
    size_t d = osa_distance(s->typo, la, name, lb);
    if (d > AB_SUGGEST_MAX_DIST || d >= lb) return;
    if (s->best == NULL || d < s->dist || (d == s->dist && strcmp(name, s->best) < 0)) {
        s->best = name;
        s->dist = d;
    }
}

const char *ab_suggest_among(const char *typo, const char *const *names, size_t n) {
    ab_suggest s;
    ab_suggest_init(&s, typo);
    for (size_t i = 0; i < n; i++) ab_suggest_offer(&s, names[i]);
    return s.best;
}
