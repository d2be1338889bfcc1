/* core/base/error.h - the one error slot every object of the library keeps;
 * not part of the API. */
#ifndef RPL_CORE_ERROR_H
#define RPL_CORE_ERROR_H

#include "ripple/base.h"

/* The detail of an object's last failure, one line.  A fixed buffer, so a
 * failure is recorded even when memory has run out and nothing needs
 * freeing; a longer message keeps its start and its last 96 bytes (where
 * the reason is), "..." between, always terminated. */
typedef struct rpl_err {
    char text[192];
} rpl_err_t;

/* Records the message (printf format) and returns st; RPL_OK with ""
 * clears, like rpl_err_clear.  e may be NULL (nothing is recorded). */
rpl_status rpl_err_set(rpl_err_t *e, rpl_status st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* A text reader's failure at name:line:col (shows, scores): records
 * "NAME:LINE:COL: msg" as RPL_EFORMAT and returns it; a name too long for
 * the slot gives way first, from its start ("..." before what is left),
 * so the reason and its figures stay whole. */
rpl_status rpl_err_at(rpl_err_t *e, const char *name, int line, int col, const char *msg);
/* p[0..n) quoted for such a message into out (max + 4 bytes): at most max
 * bytes, anything but printable ASCII as '?', "..." when cut; returns out. */
const char *rpl_err_quote(const char *p, size_t n, size_t max, char *out);
/* No failure recorded. */
void rpl_err_clear(rpl_err_t *e);
/* The message, "" when none (and for NULL). */
const char *rpl_err_text(const rpl_err_t *e);

#endif
