/* core/field/fail.c - the field's one way to keep a failure's detail. */
#include <stdarg.h>
#include <stdlib.h>

#include "core/field/field.h"

rpl_status rpl_fail(rpl_sim_t *sim, rpl_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = rpl_vformat(fmt, ap);
    va_end(ap);
    free(sim->err);
    sim->err = msg;
    sim->err_nomem = msg == NULL;
    return st;
}
