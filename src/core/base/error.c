/* core/base/error.c - the one error slot (core/base/error.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/base/error.h"

/* A message longer than the slot keeps its start and its end, where the
 * reason is ("cannot write 'aaaa...aaa.png': File name too long"), with
 * "..." between.  Formatted on the stack first: nothing is allocated, so
 * a message is recorded even when memory has run out. */
#define ERR_FULL 8192
#define ERR_TAIL 96

rpl_status rpl_err_set(rpl_err_t *e, rpl_status st, const char *fmt, ...)
{
    if (!e)
        return st;
    char full[ERR_FULL];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(full, sizeof full, fmt, ap);
    va_end(ap);
    const size_t size = sizeof e->text;
    if (n < 0) {
        e->text[0] = '\0';
    } else if ((size_t)n < size) {
        memcpy(e->text, full, (size_t)n + 1);
    } else {
        size_t len = (size_t)n < sizeof full ? (size_t)n : sizeof full - 1;
        size_t head = size - 1 - 3 - ERR_TAIL;
        memcpy(e->text, full, head);
        memcpy(e->text + head, "...", 3);
        memcpy(e->text + head + 3, full + len - ERR_TAIL, ERR_TAIL);
        e->text[size - 1] = '\0';
    }
    return st;
}

void rpl_err_clear(rpl_err_t *e)
{
    if (e)
        e->text[0] = '\0';
}

const char *rpl_err_text(const rpl_err_t *e)
{
    return e ? e->text : "";
}

rpl_status rpl_err_at(rpl_err_t *e, const char *name, int line, int col, const char *msg)
{
    char place[48];
    int pl = snprintf(place, sizeof place, ":%d:%d: ", line, col);
    size_t room = sizeof(rpl_err_t) - 1, used = (size_t)(pl > 0 ? pl : 0) + strlen(msg);
    size_t nl = strlen(name);
    const char *dots = "";
    if (nl + used > room && used + 3 < room && nl > room - used - 3) {
        name += nl - (room - used - 3);
        dots = "...";
    }
    return rpl_err_set(e, RPL_EFORMAT, "%s%s%s%s", dots, name, place, msg);
}

const char *rpl_err_quote(const char *p, size_t n, size_t max, char *out)
{
    size_t k = n < max ? n : max;
    for (size_t i = 0; i < k; i++) {
        unsigned char c = (unsigned char)p[i];
        out[i] = c >= 32 && c < 127 ? (char)c : '?';
    }
    if (n > max)
        memcpy(out + k, "...", 3), k += 3;
    out[k] = '\0';
    return out;
}
