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
/* No failure recorded. */
void rpl_err_clear(rpl_err_t *e);
/* The message, "" when none (and for NULL). */
const char *rpl_err_text(const rpl_err_t *e);

#endif
