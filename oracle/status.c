/*
 * status.c — the words of a results row's status (status.h).
 */
#include "oracle/status.h"

#include <string.h>

#define ABO_STATUS_WORD(id, word) word,
static const char *const status_words[] = {ABO_STATUSES(ABO_STATUS_WORD)};
#undef ABO_STATUS_WORD

const char *abo_status_word(abo_status s) {
    return (unsigned)s < ABO_NSTATUSES ? status_words[s] : "?";
}

bool abo_status_parse(const char *word, abo_status *s) {
    for (unsigned i = 0; i < ABO_NSTATUSES; i++) {
        if (strcmp(word, status_words[i]) == 0) {
            *s = (abo_status)i;
            return true;
        }
    }
    return false;
}
