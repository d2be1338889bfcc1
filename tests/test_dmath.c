/* test_dmath.c - the deterministic maths (core/base/dmath.c) against the C library's, its special cases per C99 Annex F, its symmetries (cmocka). */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/base/dmath.h"
#include "kernels/sqrt_x87.h"
#include "util.h"

/* The reference is glibc's libm, within an ulp of the truth (and mostly
 * correctly rounded) for these functions; other C libraries (mingw-w64's
 * msvcrt reduces sin's argument with a 66-bit pi, for one) are no
 * reference, so there only the exact cases run.  Measured with 200,000
 * inputs a function (the seeds below), glibc 2.36 on x86-64: the largest
 * difference is 1 ulp for every function. */
#if defined(__GLIBC__)
#define HAVE_REFERENCE 1
#endif

#define SAMPLES 200000
#define MAX_ULP 2

static uint64_t next(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * UINT64_C(2685821657736338717);
}

/* Uniform in [a, b). */
static double uni(uint64_t *s, double a, double b)
{
    return a + (b - a) * ((double)(next(s) >> 11) * 0x1p-53);
}

/* Log-uniform in [a, b), a > 0: every binade alike. */
static double logu(uint64_t *s, double a, double b)
{
    return exp(uni(s, log(a), log(b)));
}

static double random_sign(uint64_t *s, double x)
{
    return (next(s) >> 63) ? -x : x;
}

static uint64_t bits(double x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

/* The doubles in order as integers: the distance between two is in ulps. */
#ifdef HAVE_REFERENCE /* what the comparison with the C library takes */
static int64_t ordered(double x)
{
    int64_t i = (int64_t)bits(x);
    return i < 0 ? INT64_MIN - i : i;
}

static double ulps(double a, double b)
{
    if (isnan(a) && isnan(b))
        return 0;
    if (isnan(a) || isnan(b))
        return 1e300;
    if (a == b)
        return 0;
    int64_t d = ordered(a) - ordered(b);
    return d < 0 ? -(double)d : (double)d;
}
#endif

#define CANONICAL_NAN UINT64_C(0x7ff8000000000000)

/* Correctly rounded (mpmath): C11 has no PI, and 3 * PI_4 would not be. */
#define PI 0x1.921fb54442d18p+1
#define PIO2 0x1.921fb54442d18p+0
#define PIO4 0x1.921fb54442d18p-1
#define THREE_PIO4 0x1.2d97c7f3321d2p+1
#define E 0x1.5bf0a8b145769p+1
#define LN2 0x1.62e42fefa39efp-1
/* The sine table's reads on every platform (sintab_bits). */
#define SINTAB_CRC 0xf298d327u

/* ---- accuracy against the reference ------------------------------------------ */

enum { F_SIN, F_COS, F_ATAN2, F_ACOS, F_EXP, F_POW, F_HYPOT };
#ifdef HAVE_REFERENCE
static const char *const fname[] = {"sin", "cos", "atan2", "acos", "exp", "pow", "hypot"};
#endif

/* One family of inputs: a generator, and its share of the samples. */
typedef struct {
    const char *what;
    void (*gen)(uint64_t *s, double *x, double *y);
} range_t;

static void g_small(uint64_t *s, double *x, double *y) { *x = uni(s, -4, 4); *y = 0; }
static void g_1e5(uint64_t *s, double *x, double *y) { *x = uni(s, -1e5, 1e5); *y = 0; }
static void g_2p20(uint64_t *s, double *x, double *y) { *x = uni(s, -0x1p20, 0x1p20); *y = 0; }
static void g_tiny(uint64_t *s, double *x, double *y) { *x = random_sign(s, logu(s, 1e-310, 1e-2)); *y = 0; }
/* Within 2^-20 (or 2^-45) of k pi/2: where the reduction cancels most. */
static void g_kpio2(uint64_t *s, double *x, double *y)
{
    double k = floor(uni(s, -6e5, 6e5));
    double off = uni(s, -0x1p-20, 0x1p-20) * ((next(s) >> 63) ? 1.0 : 0x1p-25);
    *x = k * PIO2 + off;
    *y = 0;
}
static const range_t trig_ranges[] = {
    {"|x| < 4", g_small}, {"|x| < 1e5", g_1e5}, {"|x| < 2^20", g_2p20},
    {"near k pi/2", g_kpio2}, {"tiny and subnormal", g_tiny},
};

static void g_plane(uint64_t *s, double *x, double *y) { *x = uni(s, -10, 10); *y = uni(s, -10, 10); }
static void g_wide(uint64_t *s, double *x, double *y)
{
    *x = random_sign(s, logu(s, 1e-320, 1e308));
    *y = random_sign(s, logu(s, 1e-320, 1e308));
}
/* y/x near the breakpoints of the reduction, 1/8 .. 1. */
static void g_ratio(uint64_t *s, double *x, double *y)
{
    *x = random_sign(s, logu(s, 1e-3, 1e3));
    *y = random_sign(s, *x * uni(s, 0.1, 1.1));
}
static const range_t atan2_ranges[] = {
    {"plane", g_plane}, {"1e-320 .. 1e308", g_wide}, {"y/x in 0.1 .. 1.1", g_ratio},
};

static void g_unit(uint64_t *s, double *x, double *y) { *x = uni(s, -1, 1); *y = 0; }
static void g_near1(uint64_t *s, double *x, double *y) { *x = random_sign(s, 1 - logu(s, 1e-17, 0.5)); *y = 0; }
static void g_near0(uint64_t *s, double *x, double *y) { *x = random_sign(s, logu(s, 1e-300, 1e-3)); *y = 0; }
static const range_t acos_ranges[] = {
    {"[-1, 1]", g_unit}, {"near +-1", g_near1}, {"near 0", g_near0},
};

static void g_exp_all(uint64_t *s, double *x, double *y) { *x = uni(s, -745.2, 709.8); *y = 0; }
static void g_exp_small(uint64_t *s, double *x, double *y) { *x = uni(s, -2, 2); *y = 0; }
static void g_exp_sub(uint64_t *s, double *x, double *y) { *x = uni(s, -745.2, -708); *y = 0; }
static void g_exp_big(uint64_t *s, double *x, double *y) { *x = uni(s, 690, 709.8); *y = 0; }
static const range_t exp_ranges[] = {
    {"-745 .. 710", g_exp_all}, {"|x| < 2", g_exp_small}, {"tiny", g_tiny},
    {"subnormal results", g_exp_sub}, {"near overflow", g_exp_big},
};

static void g_pow(uint64_t *s, double *x, double *y) { *x = uni(s, 0, 10); *y = uni(s, -30, 30); }
static void g_pow_wide(uint64_t *s, double *x, double *y)
{
    *x = logu(s, 1e-300, 1e300);
    *y = uni(s, -1, 1) * ((next(s) >> 63) ? 1.0 : 0.01);
}
static void g_pow_near1(uint64_t *s, double *x, double *y)
{
    *x = 1 + uni(s, -1e-3, 1e-3);
    *y = uni(s, -5e5, 5e5);
}
static void g_pow_negint(uint64_t *s, double *x, double *y)
{
    *x = -uni(s, 0, 3);
    *y = floor(uni(s, -60, 60));
}
static void g_pow_sub(uint64_t *s, double *x, double *y)
{
    *x = logu(s, 4.9e-324, 2.2e-308);
    *y = uni(s, -0.3, 1);
}
static const range_t pow_ranges[] = {
    {"x < 10, |y| < 30", g_pow}, {"1e-300 .. 1e300", g_pow_wide}, {"x near 1, y large", g_pow_near1},
    {"x < 0, y integer", g_pow_negint}, {"x subnormal", g_pow_sub},
};

static void g_hyp_wide(uint64_t *s, double *x, double *y)
{
    *x = random_sign(s, logu(s, 4.9e-324, 1.7e308));
    *y = random_sign(s, logu(s, 4.9e-324, 1.7e308));
}
static void g_hyp_close(uint64_t *s, double *x, double *y)
{
    *x = random_sign(s, logu(s, 1e-310, 1e300));
    *y = *x * logu(s, 1e-9, 1);
}
static const range_t hypot_ranges[] = {
    {"plane", g_plane}, {"4.9e-324 .. 1.7e308", g_hyp_wide}, {"y/x > 1e-9", g_hyp_close},
};

#define NR(a) (int)(sizeof(a) / sizeof((a)[0]))

#ifdef HAVE_REFERENCE
static void eval(int f, double x, double y, double *got, double *want)
{
    switch (f) {
    case F_SIN: *got = rpl_sin(x); *want = sin(x); break;
    case F_COS: *got = rpl_cos(x); *want = cos(x); break;
    case F_ATAN2: *got = rpl_atan2(y, x); *want = atan2(y, x); break;
    case F_ACOS: *got = rpl_acos(x); *want = acos(x); break;
    case F_EXP: *got = rpl_exp(x); *want = exp(x); break;
    case F_POW: *got = rpl_pow(x, y); *want = pow(x, y); break;
    default: *got = rpl_hypot(x, y); *want = hypot(x, y); break;
    }
}
#endif

static void accuracy(int f, const range_t *ranges, int n, uint64_t seed)
{
#ifdef HAVE_REFERENCE
    uint64_t s = seed;
    double worst = 0;
    /* a tenth under emulation (RIPPLE_TEST_QUICK): an emulated x87 is slow */
    int samples = test_quick() ? SAMPLES / 10 : SAMPLES;
    for (int r = 0; r < n; r++) {
        double range_worst = 0, wx = 0, wy = 0;
        for (int i = 0; i < samples / n; i++) {
            double x, y, got, want;
            ranges[r].gen(&s, &x, &y);
            eval(f, x, y, &got, &want);
            double u = ulps(got, want);
            if (u > range_worst) {
                range_worst = u;
                wx = x;
                wy = y;
            }
        }
        if (range_worst > MAX_ULP)
            fail_msg("%s, %s: %g ulp at x = %a, y = %a", fname[f], ranges[r].what, range_worst, wx, wy);
        if (range_worst > worst)
            worst = range_worst;
    }
    print_message("%-6s %d inputs: at most %g ulp from the C library\n", fname[f], samples, worst);
#else
    (void)f;
    (void)ranges;
    (void)n;
    (void)seed;
    skip();
#endif
}

static void sin_accuracy(void **state) { (void)state; accuracy(F_SIN, trig_ranges, NR(trig_ranges), 1); }
static void cos_accuracy(void **state) { (void)state; accuracy(F_COS, trig_ranges, NR(trig_ranges), 2); }
static void atan2_accuracy(void **state) { (void)state; accuracy(F_ATAN2, atan2_ranges, NR(atan2_ranges), 3); }
static void acos_accuracy(void **state) { (void)state; accuracy(F_ACOS, acos_ranges, NR(acos_ranges), 4); }
static void exp_accuracy(void **state) { (void)state; accuracy(F_EXP, exp_ranges, NR(exp_ranges), 5); }
static void pow_accuracy(void **state) { (void)state; accuracy(F_POW, pow_ranges, NR(pow_ranges), 6); }
static void hypot_accuracy(void **state) { (void)state; accuracy(F_HYPOT, hypot_ranges, NR(hypot_ranges), 7); }

/* ---- exact cases --------------------------------------------------------------- */

/* The same bits: a signed zero is not the other zero, every NaN is the one
 * quiet NaN the header promises. */
#define SAME(got, want) same_bits(got, want, #got, __LINE__)
static void same_bits(double got, double want, const char *expr, int line)
{
    uint64_t g = bits(got), w = isnan(want) ? CANONICAL_NAN : bits(want);
    if (g != w)
        fail_msg("line %d: %s = %a (%016llx), want %a (%016llx)", line, expr, got,
                 (unsigned long long)g, want, (unsigned long long)w);
}

static void trig_special(void **state)
{
    (void)state;
    const double sub = 0x1p-1070;
    SAME(rpl_sin(0.0), 0.0);
    SAME(rpl_sin(-0.0), -0.0);
    SAME(rpl_sin(sub), sub);
    SAME(rpl_sin(-sub), -sub);
    SAME(rpl_sin(INFINITY), NAN);
    SAME(rpl_sin(-INFINITY), NAN);
    SAME(rpl_sin(NAN), NAN);
    SAME(rpl_sin(-NAN), NAN);
    SAME(rpl_cos(0.0), 1.0);
    SAME(rpl_cos(-0.0), 1.0);
    SAME(rpl_cos(sub), 1.0);
    SAME(rpl_cos(INFINITY), NAN);
    SAME(rpl_cos(-INFINITY), NAN);
    SAME(rpl_cos(NAN), NAN);
    double s, c;
    rpl_sincos(-0.0, &s, &c);
    SAME(s, -0.0);
    SAME(c, 1.0);
    rpl_sincos(INFINITY, &s, &c);
    SAME(s, NAN);
    SAME(c, NAN);
    /* Past the accurate range: still numbers within [-1, 1]. */
    const double huge[] = {0x1p20, 1e7, 1e15, 0x1p60, 1e300, DBL_MAX, -DBL_MAX};
    for (int i = 0; i < NR(huge); i++) {
        double a = rpl_sin(huge[i]), b = rpl_cos(huge[i]);
        assert_true(a >= -1 && a <= 1 && b >= -1 && b <= 1);
        assert_true(fabs(a * a + b * b - 1) < 1e-15);
    }
}

static void trig_symmetry(void **state)
{
    (void)state;
    uint64_t s = 8;
    for (int i = 0; i < 100000; i++) {
        double x = (i & 1) ? uni(&s, 0, 1e5) : logu(&s, 1e-300, 1e300);
        double sx, cx;
        rpl_sincos(x, &sx, &cx);
        SAME(sx, rpl_sin(x));
        SAME(cx, rpl_cos(x));
        SAME(rpl_sin(-x), -rpl_sin(x));
        SAME(rpl_cos(-x), rpl_cos(x));
        rpl_sincos(-x, &sx, &cx);
        SAME(sx, rpl_sin(-x));
        SAME(cx, rpl_cos(-x));
    }
}

static void atan2_special(void **state)
{
    (void)state;
    const double pi = PI, pio2 = PIO2, pio4 = PIO4, tpio4 = THREE_PIO4;
    /* C99 F.9.1.4, in its order. */
    SAME(rpl_atan2(0.0, -0.0), pi);
    SAME(rpl_atan2(-0.0, -0.0), -pi);
    SAME(rpl_atan2(0.0, 0.0), 0.0);
    SAME(rpl_atan2(-0.0, 0.0), -0.0);
    SAME(rpl_atan2(0.0, -3.0), pi);
    SAME(rpl_atan2(-0.0, -3.0), -pi);
    SAME(rpl_atan2(0.0, 3.0), 0.0);
    SAME(rpl_atan2(-0.0, 3.0), -0.0);
    SAME(rpl_atan2(-3.0, 0.0), -pio2);
    SAME(rpl_atan2(-3.0, -0.0), -pio2);
    SAME(rpl_atan2(3.0, 0.0), pio2);
    SAME(rpl_atan2(3.0, -0.0), pio2);
    SAME(rpl_atan2(3.0, -INFINITY), pi);
    SAME(rpl_atan2(-3.0, -INFINITY), -pi);
    SAME(rpl_atan2(3.0, INFINITY), 0.0);
    SAME(rpl_atan2(-3.0, INFINITY), -0.0);
    SAME(rpl_atan2(INFINITY, 3.0), pio2);
    SAME(rpl_atan2(-INFINITY, -3.0), -pio2);
    SAME(rpl_atan2(INFINITY, -INFINITY), tpio4);
    SAME(rpl_atan2(-INFINITY, -INFINITY), -tpio4);
    SAME(rpl_atan2(INFINITY, INFINITY), pio4);
    SAME(rpl_atan2(-INFINITY, INFINITY), -pio4);
    SAME(rpl_atan2(NAN, 1.0), NAN);
    SAME(rpl_atan2(1.0, NAN), NAN);
    SAME(rpl_atan2(NAN, INFINITY), NAN);
    /* The diagonals and axes: pi/4 and 3 pi/4 rounded, at any scale. */
    SAME(rpl_atan2(1.0, 1.0), pio4);
    SAME(rpl_atan2(DBL_MAX, DBL_MAX), pio4);
    SAME(rpl_atan2(0x1p-1074, 0x1p-1074), pio4);
    SAME(rpl_atan2(-2.0, -2.0), -tpio4);
    SAME(rpl_atan2(DBL_MAX, 0x1p-1074), pio2);
    SAME(rpl_atan2(0x1p-1074, -DBL_MAX), pi);
    /* Odd in y. */
    uint64_t s = 9;
    for (int i = 0; i < 20000; i++) {
        double x, y;
        g_wide(&s, &x, &y);
        SAME(rpl_atan2(-y, x), -rpl_atan2(y, x));
    }
}

static void acos_special(void **state)
{
    (void)state;
    SAME(rpl_acos(1.0), 0.0);
    SAME(rpl_acos(-1.0), PI);
    SAME(rpl_acos(0.0), PIO2);
    SAME(rpl_acos(-0.0), PIO2);
    SAME(rpl_acos(0.5), 0x1.0c152382d7366p+0); /* pi/3 correctly rounded (mpmath); PI / 3 is an ulp less */
    SAME(rpl_acos(nextafter(1.0, 2.0)), NAN);
    SAME(rpl_acos(nextafter(-1.0, -2.0)), NAN);
    SAME(rpl_acos(INFINITY), NAN);
    SAME(rpl_acos(-INFINITY), NAN);
    SAME(rpl_acos(NAN), NAN);
    /* The last double below 1: acos ~ sqrt(2 * 2^-53) = 2^-26, a hair more. */
    double a = rpl_acos(nextafter(1.0, 0.0));
    assert_true(a > 0x1p-26 && a < 0x1.0000001p-26);
}

static void exp_special(void **state)
{
    (void)state;
    SAME(rpl_exp(0.0), 1.0);
    SAME(rpl_exp(-0.0), 1.0);
    SAME(rpl_exp(INFINITY), INFINITY);
    SAME(rpl_exp(-INFINITY), 0.0);
    SAME(rpl_exp(NAN), NAN);
    SAME(rpl_exp(1.0), E);
    SAME(rpl_exp(710.0), INFINITY);
    SAME(rpl_exp(1e300), INFINITY);
    SAME(rpl_exp(-746.0), 0.0);
    SAME(rpl_exp(-1e300), 0.0);
    SAME(rpl_exp(0x1p-60), 1.0);
    /* The edges: DBL_MAX's log (709.78...) still finite, the smallest
     * subnormal's (-744.44) still positive. */
    assert_true(isfinite(rpl_exp(709.78)) && rpl_exp(709.78) > 1.7e308);
    SAME(rpl_exp(709.79), INFINITY);
    SAME(rpl_exp(-744.44), 0x1p-1074);
    SAME(rpl_exp(-745.14), 0.0);
    /* ln 2 k: 2^k to the last bit, normal and subnormal. */
    SAME(rpl_exp(LN2 * 10), 1024.0);
    SAME(rpl_exp(LN2 * -1030), 0x1p-1030);
}

static void pow_special(void **state)
{
    (void)state;
    /* C99 F.9.4.4, in its order. */
    SAME(rpl_pow(0.0, -3.0), INFINITY);
    SAME(rpl_pow(-0.0, -3.0), -INFINITY);
    SAME(rpl_pow(0.0, -2.0), INFINITY);
    SAME(rpl_pow(-0.0, -2.0), INFINITY);
    SAME(rpl_pow(-0.0, -0.5), INFINITY);
    SAME(rpl_pow(-0.0, -INFINITY), INFINITY);
    SAME(rpl_pow(0.0, 3.0), 0.0);
    SAME(rpl_pow(-0.0, 3.0), -0.0);
    SAME(rpl_pow(-0.0, 2.0), 0.0);
    SAME(rpl_pow(-0.0, 0.5), 0.0);
    SAME(rpl_pow(-0.0, INFINITY), 0.0);
    SAME(rpl_pow(-1.0, INFINITY), 1.0);
    SAME(rpl_pow(-1.0, -INFINITY), 1.0);
    SAME(rpl_pow(1.0, NAN), 1.0);
    SAME(rpl_pow(1.0, -INFINITY), 1.0);
    SAME(rpl_pow(NAN, 0.0), 1.0);
    SAME(rpl_pow(NAN, -0.0), 1.0);
    SAME(rpl_pow(INFINITY, 0.0), 1.0);
    SAME(rpl_pow(-2.0, 0.5), NAN);
    SAME(rpl_pow(-2.0, -1.5), NAN);
    SAME(rpl_pow(0.5, -INFINITY), INFINITY);
    SAME(rpl_pow(-0.5, -INFINITY), INFINITY);
    SAME(rpl_pow(2.0, -INFINITY), 0.0);
    SAME(rpl_pow(-2.0, -INFINITY), 0.0);
    SAME(rpl_pow(0.5, INFINITY), 0.0);
    SAME(rpl_pow(2.0, INFINITY), INFINITY);
    SAME(rpl_pow(-2.0, INFINITY), INFINITY);
    SAME(rpl_pow(-INFINITY, -3.0), -0.0);
    SAME(rpl_pow(-INFINITY, -2.0), 0.0);
    SAME(rpl_pow(-INFINITY, -0.5), 0.0);
    SAME(rpl_pow(-INFINITY, 3.0), -INFINITY);
    SAME(rpl_pow(-INFINITY, 2.0), INFINITY);
    SAME(rpl_pow(-INFINITY, 0.5), INFINITY);
    SAME(rpl_pow(INFINITY, -0.5), 0.0);
    SAME(rpl_pow(INFINITY, 0.5), INFINITY);
    SAME(rpl_pow(NAN, 1.0), NAN);
    SAME(rpl_pow(2.0, NAN), NAN);
    SAME(rpl_pow(-1.0, NAN), NAN);
    /* Negative bases with integer exponents, exact results exactly. */
    SAME(rpl_pow(-2.0, 3.0), -8.0);
    SAME(rpl_pow(-2.0, 4.0), 16.0);
    SAME(rpl_pow(-2.0, -3.0), -0.125);
    SAME(rpl_pow(-3.0, 0x1p53), INFINITY); /* 2^53: even */
    SAME(rpl_pow(-1.0, 0x1p53 + 2), 1.0);
    SAME(rpl_pow(-1.0, 0x1p52 + 1), -1.0);
    SAME(rpl_pow(2.0, 10.0), 1024.0);
    SAME(rpl_pow(10.0, 15.0), 1e15);
    SAME(rpl_pow(4.0, 0.5), 2.0);
    SAME(rpl_pow(2.0, -1074.0), 0x1p-1074);
    SAME(rpl_pow(2.0, 1023.0), 0x1p1023);
    /* Overflow, underflow, signed by odd exponents. */
    SAME(rpl_pow(10.0, 400.0), INFINITY);
    SAME(rpl_pow(-10.0, 401.0), -INFINITY);
    SAME(rpl_pow(10.0, -400.0), 0.0);
    SAME(rpl_pow(-10.0, -401.0), -0.0);
    SAME(rpl_pow(1.0000001, 1e300), INFINITY);
    SAME(rpl_pow(0.9999999, 1e300), 0.0);
    SAME(rpl_pow(nextafter(1.0, 2.0), 0x1p62), INFINITY); /* e^(2^62 * 2^-52) */
}

static void hypot_special(void **state)
{
    (void)state;
    SAME(rpl_hypot(INFINITY, NAN), INFINITY);
    SAME(rpl_hypot(NAN, -INFINITY), INFINITY);
    SAME(rpl_hypot(-INFINITY, 1.0), INFINITY);
    SAME(rpl_hypot(NAN, 1.0), NAN);
    SAME(rpl_hypot(1.0, NAN), NAN);
    SAME(rpl_hypot(0.0, -0.0), 0.0);
    SAME(rpl_hypot(-0.0, -0.0), 0.0);
    SAME(rpl_hypot(-3.0, 0.0), 3.0);
    SAME(rpl_hypot(3.0, -4.0), 5.0);
    SAME(rpl_hypot(3e300, 4e300), 5e300);
    SAME(rpl_hypot(0x3p-1074, 0x4p-1074), 0x5p-1074);
    SAME(rpl_hypot(DBL_MAX, DBL_MAX), INFINITY);
    SAME(rpl_hypot(DBL_MAX, 1.0), DBL_MAX);
    SAME(rpl_hypot(0x1p1023, 0x1p1023), 0x1.6a09e667f3bcdp1023); /* sqrt 2 rounded, scaled */
    SAME(rpl_hypot(0x1p-1074, 0x1p-1074), 0x1p-1074); /* sqrt 2 * 2^-1074 rounds to 2^-1074 */
    SAME(rpl_hypot(1e-200, 1e-200), 1.4142135623730951e-200);
}

/* The C library's sqrt of n values with the x87 at 53 bits of mantissa
 * (rpl_double_precision; nothing elsewhere): correctly rounded, as IEEE
 * 754 has it, on every target.  glibc's sets that precision itself;
 * mingw-w64's on win32 is a bare fsqrt, which at the x87's default of 64
 * bits rounds twice and lands some 35 of these 200,000 inputs on the
 * wrong double. */
typedef struct sqrt_job {
    const double *x;
    double *out;
    int n;
} sqrt_job_t;

static void sqrt_at_53(void *arg)
{
    sqrt_job_t *j = arg;
    for (int i = 0; i < j->n; i++)
        j->out[i] = sqrt(j->x[i]);
}

/* rpl_sqrt against the correctly rounded square root: on the x87 a bare
 * fsqrt would round to 64 bits of mantissa first. */
static void sqrt_rounding(void **state)
{
    (void)state;
    /* the caller's precision comes back (checked first, while it is the
     * process's own): 1 + 2^-60 is not 1 in 64 bits */
    volatile double one = 1.0, tiny = 0x1p-60;
    long double before = (long double)one + tiny;
    volatile double root = rpl_sqrt(before >= 1 ? 2.0 : 3.0);
    long double after = (long double)one + tiny;
    assert_true(root == 0x1.6a09e667f3bcdp0);
    assert_true(before == after);
    uint64_t s = 0x5a17e3c9u;
    double *xs = malloc(SAMPLES * sizeof *xs), *want = malloc(SAMPLES * sizeof *want);
    assert_non_null(xs);
    assert_non_null(want);
    for (int i = 0; i < SAMPLES; i++) {
        xs[i] = uni(&s, 0.0, 4096.0);
        if (i & 1)
            xs[i] = ldexp(xs[i], (int)(next(&s) % 200) - 100);
    }
    sqrt_job_t job = { xs, want, SAMPLES };
    rpl_double_precision(sqrt_at_53, &job);
    int bad = 0;
    for (int i = 0; i < SAMPLES; i++) {
        volatile double r = rpl_sqrt(xs[i]);
        if (memcmp((const void *)&r, &want[i], sizeof r) != 0 && bad++ < 5)
            print_message("rpl_sqrt(%a) = %a, correctly rounded %a\n", xs[i], r, want[i]);
    }
    free(xs);
    free(want);
    assert_int_equal(bad, 0);
    SAME(rpl_sqrt(0.0), 0.0);
    SAME(rpl_sqrt(4.0), 2.0);
    SAME(rpl_sqrt(0x1p-1074), 0x1p-537);
    SAME(rpl_sqrt(2.0), 0x1.6a09e667f3bcdp0);
    SAME(rpl_sqrt(INFINITY), INFINITY);
}

/* ---- the sine table ------------------------------------------------------------ */

#ifdef HAVE_REFERENCE
#define REF_SIN sin
#define REF_COS cos
#else
#define REF_SIN rpl_sin
#define REF_COS rpl_cos
#endif
enum { SINTAB_N = 1 << RPL_SINTAB_BITS };

/* The angle of c cells (2 pi c / 2^bits), c brought into one turn first
 * (fmod is exact), so that the angle's own rounding stays below 1e-15. */
static double cell_angle(double c)
{
    return fmod(c, SINTAB_N) * (2 * PI / SINTAB_N);
}

/* Its values: the sine and cosine at every cell within an ulp or two of
 * the reference, its symmetries exact (odd, even, mirrored about the
 * crests), h as documented. */
static void sintab_values_run(void *arg)
{
    (void)arg;
    static rpl_sintab_t t;
    rpl_sintab_init(&t);
    double h = 2 * PI / SINTAB_N, inv_h = 1 / RPL_SINTAB_H;
    assert_true(RPL_SINTAB_H == h);
    assert_true(RPL_SINTAB_INV_H == inv_h);
    double worst_s = 0, worst_c = 0;
    for (int i = 0; i < SINTAB_N; i++) {
        double a = i * (2 * PI / SINTAB_N);
        worst_s = fmax(worst_s, fabs(t.s[i] - REF_SIN(a)));
        worst_c = fmax(worst_c, fabs(t.hc[i] / RPL_SINTAB_H - REF_COS(a)));
        assert_true(t.s[(SINTAB_N - i) % SINTAB_N] == -t.s[i]);
        assert_true(t.hc[(SINTAB_N - i) % SINTAB_N] == t.hc[i]);
        assert_true(t.s[(SINTAB_N / 2 - i + SINTAB_N) % SINTAB_N] == t.s[i]);
        assert_true(t.hc[(i + SINTAB_N / 4) % SINTAB_N] == -RPL_SINTAB_H * t.s[i]);
    }
    /* the reference's angle is off by up to half an ulp of 2 pi (4.4e-16)
     * and 2 pi's own rounding (2.5e-16); the values within an ulp */
    print_message("sine table's values: worst %.3g (sine), %.3g (cosine)\n", worst_s, worst_c);
    assert_true(worst_s <= 1e-15);
    assert_true(worst_c <= 1e-15);
    assert_true(t.s[SINTAB_N / 4] == 1 && fabs(t.s[SINTAB_N / 2]) == 0 && t.hc[0] == RPL_SINTAB_H);
}

/* The reads are inline, so the x87 rounds them as the test's own code:
 * the tests below run under rpl_double_precision, as the water's sums do
 * (the x87's wider precision would round c to a cell twice, and c less
 * the cell could then pass 1/2). */
static void sintab_values(void **state)
{
    (void)state;
    rpl_double_precision(sintab_values_run, NULL);
}

/* The error bound, swept: every cell at 2^-10 of a cell (the crests'
 * worst points, half-way between cells, among them), then as many phases
 * of up to 2^40 cells either way with every fraction; the sine and the cosine
 * within RPL_SINTAB_ERR of the reference, and the worst close to the
 * bound h^2/8 (4.7063e-6 at the crests), so the sweep did find it. */
static void sintab_error_run(void *arg)
{
    (void)arg;
    static rpl_sintab_t t;
    rpl_sintab_init(&t);
    double worst_s = 0, worst_c = 0;
    uint64_t seed = 0x7ab1e;
    /* quick: every 2^-6 of a cell, still half-way between every two */
    const int bits = test_quick() ? 6 : 10;
    const long sweep = (long)SINTAB_N << bits;
    for (long j = 0; j < 2 * sweep; j++) {
        double c = j < sweep ? ldexp((double)j, -bits) : uni(&seed, -0x1p40, 0x1p40);
        double s, co;
        rpl_sintab2(&t, c, &s, &co);
        if (s != rpl_sintab(&t, c))
            fail_msg("cell %.17g: rpl_sintab2's sine %.17g, rpl_sintab %.17g", c, s, rpl_sintab(&t, c));
        double es = fabs(s - REF_SIN(cell_angle(c))), ec = fabs(co - REF_COS(cell_angle(c)));
        if (!(es <= RPL_SINTAB_ERR && ec <= RPL_SINTAB_ERR))
            fail_msg("cell %.17g: sine %.17g cosine %.17g, off by %g and %g", c, s, co, es, ec);
        worst_s = fmax(worst_s, es);
        worst_c = fmax(worst_c, ec);
    }
    print_message("sine table: worst %.6g (sine), %.6g (cosine), bound %g\n", worst_s, worst_c,
                  RPL_SINTAB_ERR);
    assert_true(worst_s > 4.70e-6 && worst_c > 4.70e-6);
}

static void sintab_error(void **state)
{
    (void)state;
    rpl_double_precision(sintab_error_run, NULL);
}

/* Odd, exactly: a read at -c is minus the read at c. */
static void sintab_odd_run(void *arg)
{
    (void)arg;
    static rpl_sintab_t t;
    rpl_sintab_init(&t);
    uint64_t seed = 5;
    for (int j = 0; j < 100000; j++) {
        double c = j < 4096 ? (j - 2048) * 0.25 : uni(&seed, -1e7, 1e7);
        assert_true(rpl_sintab(&t, -c) == -rpl_sintab(&t, c));
    }
}

static void sintab_odd(void **state)
{
    (void)state;
    rpl_double_precision(sintab_odd_run, NULL);
}

/* The same bits on every platform: the table and 2^20 reads (phases from
 * integers by exact scaling, every fraction, up to 2^40 cells either way)
 * to one CRC, pinned; the suite runs natively, on the i386 build's x87
 * and on ARM under qemu (make test), each against this number.  Run
 * under rpl_double_precision, as the water's sums are (the reads are
 * inline here). */
typedef struct {
    rpl_sintab_t t;
    uint32_t crc;
} sintab_crc_t;

static void put_double(uint32_t *crc, double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    unsigned char b[8];
    for (int k = 0; k < 8; k++)
        b[k] = (unsigned char)(u >> (8 * k));
    *crc = crc_bytes(*crc, b, 8);
}

static void sintab_crc_run(void *arg)
{
    sintab_crc_t *r = arg;
    rpl_sintab_init(&r->t);
    r->crc = 0;
    for (int i = 0; i < SINTAB_N; i++) {
        put_double(&r->crc, r->t.s[i]);
        put_double(&r->crc, r->t.hc[i]);
    }
    uint64_t x = 0x5eed;
    for (long j = 0; j < (1L << 20); j++) {
        x = x * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
        double c = (double)(int64_t)(x >> 4) * 0x1p-20; /* |c| < 2^40, exact */
        double s, co;
        rpl_sintab2(&r->t, c, &s, &co);
        put_double(&r->crc, s);
        put_double(&r->crc, co);
    }
}

static void sintab_bits(void **state)
{
    (void)state;
    static sintab_crc_t r;
    rpl_double_precision(sintab_crc_run, &r);
    if (r.crc != SINTAB_CRC)
        fail_msg("the sine table's reads: crc32 %08x, pinned %08x", (unsigned)r.crc, (unsigned)SINTAB_CRC);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sin_accuracy),
        cmocka_unit_test(cos_accuracy),
        cmocka_unit_test(atan2_accuracy),
        cmocka_unit_test(acos_accuracy),
        cmocka_unit_test(exp_accuracy),
        cmocka_unit_test(pow_accuracy),
        cmocka_unit_test(hypot_accuracy),
        cmocka_unit_test(trig_special),
        cmocka_unit_test(trig_symmetry),
        cmocka_unit_test(atan2_special),
        cmocka_unit_test(acos_special),
        cmocka_unit_test(exp_special),
        cmocka_unit_test(pow_special),
        cmocka_unit_test(hypot_special),
        cmocka_unit_test(sqrt_rounding),
        cmocka_unit_test(sintab_values),
        cmocka_unit_test(sintab_error),
        cmocka_unit_test(sintab_odd),
        cmocka_unit_test(sintab_bits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
