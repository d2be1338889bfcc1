/* core/base/parse.c - strict parsers for numbers and sizes given as text (flags, show files): whole string, decimal, no surprises. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ripple/base.h"
#include "ripple_support.h"

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Decimal digits only, accumulated with an overflow check against limit. */
static int digits_u64(const char *s, const char *end, uint64_t limit, uint64_t *out)
{
    uint64_t v = 0;
    if (s == end)
        return -1;
    for (; s < end; s++) {
        if (!is_digit(*s))
            return -1;
        unsigned d = (unsigned)(*s - '0');
        if (v > (limit - d) / 10)
            return -1;
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

rpl_status rpl_parse_u64(const char *s, uint64_t *out)
{
    uint64_t v;
    if (!s || !out || digits_u64(s, s + strlen(s), UINT64_MAX, &v) != 0)
        return RPL_EINVAL;
    *out = v;
    return RPL_OK;
}

rpl_status rpl_parse_int(const char *s, long long lo, long long hi, long long *out)
{
    if (!s || !out || lo > hi)
        return RPL_EINVAL;
    int neg = s[0] == '-';
    if (neg && lo >= 0)
        return RPL_EINVAL; /* not even "-0" where no negative is allowed */
    const char *d = s + neg;
    uint64_t mag;
    /* |LLONG_MIN| = LLONG_MAX + 1 */
    uint64_t limit = neg ? (uint64_t)LLONG_MAX + 1 : (uint64_t)LLONG_MAX;
    if (digits_u64(d, d + strlen(d), limit, &mag) != 0)
        return RPL_EINVAL;
    long long v;
    if (!neg)
        v = (long long)mag;
    else if (mag == (uint64_t)LLONG_MAX + 1)
        v = LLONG_MIN;
    else
        v = -(long long)mag;
    if (v < lo || v > hi)
        return RPL_EINVAL;
    *out = v;
    return RPL_OK;
}

/* [-]digits[.digits][(e|E)[+|-]digits], or [-].digits...: what people
 * write for a decimal number; no hex floats, inf, nan or white space,
 * which strtod alone would take. */
static int real_syntax(const char *s)
{
    if (*s == '-')
        s++;
    int mant = 0;
    while (is_digit(*s))
        s++, mant++;
    if (*s == '.') {
        s++;
        while (is_digit(*s))
            s++, mant++;
    }
    if (!mant)
        return 0;
    if (*s == 'e' || *s == 'E') {
        s++;
        if (*s == '+' || *s == '-')
            s++;
        if (!is_digit(*s))
            return 0;
        while (is_digit(*s))
            s++;
    }
    return *s == '\0';
}

rpl_status rpl_parse_real(const char *s, double lo, double hi, double *out)
{
    if (!s || !out || !(lo <= hi) || !real_syntax(s))
        return RPL_EINVAL;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    /* ERANGE on underflow gives a tiny or zero value: still a number */
    if (*end || !isfinite(v) || (errno == ERANGE && fabs(v) > 1.0))
        return RPL_EINVAL;
    if (v < lo || v > hi)
        return RPL_EINVAL;
    *out = v;
    return RPL_OK;
}

rpl_status rpl_parse_size(const char *s, int lo, int hi, int *w, int *h)
{
    if (!s || !w || !h || lo < 0 || lo > hi)
        return RPL_EINVAL;
    const char *x = strchr(s, 'x');
    if (!x)
        x = strchr(s, 'X');
    if (!x)
        return RPL_EINVAL;
    uint64_t a, b;
    if (digits_u64(s, x, (uint64_t)hi, &a) != 0 || digits_u64(x + 1, x + 1 + strlen(x + 1),
                                                              (uint64_t)hi, &b) != 0)
        return RPL_EINVAL;
    if ((long long)a < lo || (long long)b < lo)
        return RPL_EINVAL;
    *w = (int)a;
    *h = (int)b;
    return RPL_OK;
}
