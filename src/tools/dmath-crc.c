/* dmath-crc.c - prints the CRC-32 of core/base/dmath.c's results over a million fixed inputs a function, to compare builds across platforms. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <zlib.h>

#include "core/base/dmath.h"

/* Usage: dmath-crc [N]  (N inputs a function, default 1000000).
 * One line a function: its name and the CRC-32 (zlib's) of its results'
 * bytes, little-endian, in order.  The inputs come from integers alone
 * (splitmix64, then bits turned into doubles by exact scaling), so every
 * platform feeds the same doubles: two builds agree when the lines do. */

static uint64_t mix(uint64_t *s)
{
    uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static double from_bits(uint64_t u)
{
    double x;
    memcpy(&x, &u, sizeof x);
    return x;
}

/* Uniform in [lo, hi): 53 random bits times 2^-53 is exact, the rest one
 * multiply and one add, correctly rounded everywhere. */
static double uni(uint64_t *s, double lo, double hi)
{
    return lo + (hi - lo) * ((double)(mix(s) >> 11) * 0x1p-53);
}

/* Any double with its exponent in [emin, emax] (biased), random sign:
 * every binade alike, from bits. */
static double binade(uint64_t *s, int emin, int emax)
{
    uint64_t r = mix(s);
    uint64_t e = (uint64_t)(emin + (int)((r >> 53) % (uint64_t)(emax - emin + 1)));
    return from_bits((r & ((UINT64_C(1) << 52) - 1)) | (e << 52) | ((r >> 52 & 1) << 63));
}

/* Now and then a special value among the ordinary ones. */
static const uint64_t specials[] = {
    0, UINT64_C(0x8000000000000000), UINT64_C(0x7ff0000000000000), UINT64_C(0xfff0000000000000),
    UINT64_C(0x7ff8000000000000), UINT64_C(0x3ff0000000000000), UINT64_C(0xbff0000000000000),
    1, UINT64_C(0x7fefffffffffffff), UINT64_C(0x4000000000000000),
};

static double special(uint64_t *s)
{
    return from_bits(specials[mix(s) % (sizeof specials / sizeof specials[0])]);
}

/* The family of the i-th input: a quarter small, a quarter medium, a
 * quarter over every exponent, and a few specials. */
static double input(uint64_t *s, int fn, long i)
{
    int kind = (int)(i % 16);
    if (kind == 15)
        return special(s);
    if (kind >= 11)
        return binade(s, 0, 2046);
    switch (fn) {
    case 0: /* sin, cos: around multiples of pi/2, to 1e5, small */
        if (kind < 4)
            return uni(s, -4, 4);
        if (kind < 7)
            return uni(s, -1e5, 1e5);
        return (double)(int64_t)(uni(s, -6e4, 6e4)) * 0x1.921fb54442d18p+0 + uni(s, -1e-6, 1e-6);
    case 1: /* acos */
        if (kind < 6)
            return uni(s, -1, 1);
        return (kind & 1 ? 1.0 : -1.0) * (1 - binade(s, 970, 1021)); /* near +-1, both sides */
    case 2: /* exp */
        return kind < 6 ? uni(s, -745.2, 709.8) : uni(s, -5, 5);
    case 3: /* pow's x */
        return kind < 6 ? uni(s, 0, 10) : uni(s, -3, 3);
    case 4: /* pow's y */
        return kind < 6 ? uni(s, -30, 30) : (double)(int64_t)uni(s, -60, 60);
    default: /* atan2, hypot */
        return kind < 6 ? uni(s, -10, 10) : binade(s, 700, 1300) * uni(s, -1, 1);
    }
}

static const char *const names[] = {"sin", "cos", "sincos", "atan2", "acos", "exp", "pow", "hypot",
                                     "sintab"};

static void put(uLong *crc, double r)
{
    uint64_t u;
    unsigned char b[8];
    memcpy(&u, &r, sizeof u);
    for (int k = 0; k < 8; k++)
        b[k] = (unsigned char)(u >> (8 * k));
    *crc = crc32(*crc, b, 8);
}

/* On x87 the inputs' own arithmetic (uni's multiply and add) would be
 * rounded twice, to 64 bits then 53, and differ now and then from every
 * other platform's: the precision control goes to 53 bits for the run, as
 * dmath.c does in each of its functions. */
static void x87_double_precision(void)
{
#if (defined(__i386__) || defined(_M_IX86)) && !defined(__SSE2_MATH__) && defined(__GNUC__)
    unsigned short cw;
    __asm__ __volatile__("fnstcw %0" : "=m"(cw));
    cw = (unsigned short)((cw & ~0x300) | 0x200);
    __asm__ __volatile__("fldcw %0" : : "m"(cw));
#endif
}

int main(int argc, char **argv)
{
    long n = 1000000;
    x87_double_precision();
    if (argc > 1 && sscanf(argv[1], "%ld", &n) != 1) {
        fprintf(stderr, "usage: dmath-crc [N]\n");
        return 2;
    }
    static rpl_sintab_t tab;
    rpl_sintab_init(&tab);
    for (int f = 0; f < 9; f++) {
        uint64_t s = UINT64_C(0x5eed) + (uint64_t)f;
        uLong crc = crc32(0L, Z_NULL, 0);
        for (long i = 0; i < n; i++) {
            double x, y, a, b;
            switch (f) {
            case 0: put(&crc, rpl_sin(input(&s, 0, i))); break;
            case 1: put(&crc, rpl_cos(input(&s, 0, i))); break;
            case 2:
                rpl_sincos(input(&s, 0, i), &a, &b);
                put(&crc, a);
                put(&crc, b);
                break;
            case 3:
                y = input(&s, 5, i);
                x = input(&s, 5, i + 3);
                put(&crc, rpl_atan2(y, x));
                break;
            case 4: put(&crc, rpl_acos(input(&s, 1, i))); break;
            case 5: put(&crc, rpl_exp(input(&s, 2, i))); break;
            case 6:
                x = input(&s, 3, i);
                y = input(&s, 4, i + 5);
                put(&crc, rpl_pow(x, y));
                break;
            case 7:
                x = input(&s, 5, i);
                y = input(&s, 5, i + 7);
                put(&crc, rpl_hypot(x, y));
                break;
            default: /* the table's sine and cosine, phases of up to 2^40 cells */
                rpl_sintab2(&tab, uni(&s, -0x1p40, 0x1p40), &a, &b);
                put(&crc, a);
                put(&crc, b);
                break;
            }
        }
        printf("%-7s %08lx\n", names[f], (unsigned long)crc);
    }
    return 0;
}
