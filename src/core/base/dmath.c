/* core/base/dmath.c - sin, cos, atan2, acos, exp, pow and hypot from IEEE-exact operations alone. */
#include "core/base/dmath.h"

#include <stdint.h>
#include <string.h>

/* Why every result is the same everywhere: only + - * / and sqrt are used,
 * each correctly rounded on every target, in an order the compiler may not
 * change (no -ffast-math; -ffp-contract=off from mk/build.mk, and the
 * pragma below for clang, keeps a*b+c two roundings: no FMA).  Powers of
 * two are built from bits, integers are rounded with the 1.5*2^52 trick.
 * On x87 (32-bit x86 without SSE2), see DMATH_X87 below.
 *
 * The constants were printed by src/tools/dmath-coefs.py (mpmath, 200
 * digits) as hexadecimal literals, so no decimal conversion stands between
 * them and the bits; 1/n! and 1/(2n+1) are the Taylor coefficients. */
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

/* x87 rounds every operation to 64 bits of mantissa (Linux, and mingw-w64's
 * start-up code), then to 53 when stored: two roundings, now and then
 * another last bit.  So each function sets the precision control to 53
 * bits while it runs and puts the caller's back.  Left over: the x87's
 * wider exponent, where an intermediate result is subnormal. */
#if (defined(__i386__) || defined(_M_IX86)) && !defined(__SSE2_MATH__) && defined(__GNUC__)
#define DMATH_X87 1
#endif

static inline uint64_t bits_of(double x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

static inline double from_bits(uint64_t u)
{
    double x;
    memcpy(&x, &u, sizeof x);
    return x;
}

/* 2^k for k in [-1022, 1023]. */
static inline double pow2(int k)
{
    return from_bits((uint64_t)(k + 1023) << 52);
}

static inline double canonical_nan(void)
{
    return from_bits(UINT64_C(0x7ff8000000000000));
}

static inline double infinity(void)
{
    return from_bits(UINT64_C(0x7ff0000000000000));
}

static inline double fabs_(double x)
{
    return from_bits(bits_of(x) & ~(UINT64_C(1) << 63));
}

static inline int sign_bit(double x)
{
    return (int)(bits_of(x) >> 63);
}

static inline double neg_if(double x, int neg)
{
    return from_bits(bits_of(x) ^ ((uint64_t)neg << 63));
}

static inline int is_nan(double x)
{
    return (bits_of(x) & ~(UINT64_C(1) << 63)) > UINT64_C(0x7ff0000000000000);
}

static inline int is_inf(double x)
{
    return (bits_of(x) & ~(UINT64_C(1) << 63)) == UINT64_C(0x7ff0000000000000);
}

/* The nearest integer (ties to even) of |x| < 2^51: adding 1.5*2^52 leaves
 * no fraction bits, and the rounding of that addition is the one wanted. */
static inline double round_int(double x)
{
    const double magic = 0x1.8p52;
    return (x + magic) - magic;
}

/* a + b = s + e exactly (Knuth: any order of magnitudes). */
static inline void two_sum(double a, double b, double *s, double *e)
{
    double sum = a + b;
    double bb = sum - a;
    *e = (a - (sum - bb)) + (b - bb);
    *s = sum;
}

/* The same when |a| >= |b| (Dekker). */
static inline void fast_two_sum(double a, double b, double *s, double *e)
{
    double sum = a + b;
    *e = b - (sum - a);
    *s = sum;
}

/* a * b = p + e exactly, without FMA: Veltkamp's split into 26-bit halves
 * (each half times a half is exact), then Dekker's sum of the four
 * products.  Needs |a|, |b| < 2^995. */
static inline void split(double a, double *hi, double *lo)
{
    double t = 134217729.0 * a; /* 2^27 + 1 */
    *hi = t - (t - a);
    *lo = a - *hi;
}

static inline void two_prod(double a, double b, double *p, double *e)
{
    double ah, al, bh, bl;
    split(a, &ah, &al);
    split(b, &bh, &bl);
    double prod = a * b;
    *e = ((ah * bh - prod) + ah * bl + al * bh) + al * bl;
    *p = prod;
}

/* ---- sin, cos ---------------------------------------------------------------- */

/* pi/2 = PIO2_1 + PIO2_2 + PIO2_3, the first two of 33 significant bits,
 * so k * PIO2_1 and k * PIO2_2 are exact for |k| < 2^20 (Cody and Waite). */
#define PIO2_1 0x1.921fb544p+0
#define PIO2_2 0x1.0b4611a6p-34
#define PIO2_3 0x1.3198a2e037073p-69
#define TWO_OVER_PI 0x1.45f306dc9c883p-1
/* 2 pi rounded to a double: past REDUCE_LIMIT, x is first brought below it
 * by an exact remainder, which costs the phase x * 4e-17 (the rounding of
 * 2 pi, once per turn): deterministic, no longer accurate. */
#define TWO_PI_D 0x1.921fb54442d18p+2
#define REDUCE_LIMIT 0x1p20

#define INV_FACT2 0x1p-1
#define INV_FACT3 0x1.5555555555555p-3
#define INV_FACT4 0x1.5555555555555p-5
#define INV_FACT5 0x1.1111111111111p-7
#define INV_FACT6 0x1.6c16c16c16c17p-10
#define INV_FACT7 0x1.a01a01a01a01ap-13
#define INV_FACT8 0x1.a01a01a01a01ap-16
#define INV_FACT9 0x1.71de3a556c734p-19
#define INV_FACT10 0x1.27e4fb7789f5cp-22
#define INV_FACT11 0x1.ae64567f544e4p-26
#define INV_FACT12 0x1.1eed8eff8d898p-29
#define INV_FACT13 0x1.6124613a86d09p-33
#define INV_FACT14 0x1.93974a8c07c9dp-37
#define INV_FACT15 0x1.ae7f3e733b81fp-41
#define INV_FACT16 0x1.ae7f3e733b81fp-45
#define INV_FACT17 0x1.952c77030ad4ap-49

/* The remainder of a by b, both finite, a >= b > 0, exactly (it is always a
 * double): long division of the 53-bit significands, 11 bits a step. */
static double exact_rem(double a, double b)
{
    uint64_t ua = bits_of(a), ub = bits_of(b);
    int ea = (int)(ua >> 52), eb = (int)(ub >> 52);
    uint64_t ma = (ua & ((UINT64_C(1) << 52) - 1)) | (UINT64_C(1) << 52);
    uint64_t mb = (ub & ((UINT64_C(1) << 52) - 1)) | (UINT64_C(1) << 52);
    /* (Only called with b = 2 pi and a >= 2^20: both normal.) */
    uint64_t r = ma % mb;
    int d = ea - eb;
    while (d > 0) {
        int s = d < 11 ? d : 11;
        r = (r << s) % mb;
        d -= s;
    }
    /* r < 2^53 is exact as a double; b's unit is 2^(eb - 1075). */
    return (double)r * pow2(eb - 1075);
}

/* x = k pi/2 + (hi + lo), |hi + lo| <= pi/4 (a hair more where k * 2/pi
 * rounded across a half); returns k mod 4. */
static int reduce_pio2(double x, double *hi, double *lo)
{
    double ax = fabs_(x);
    if (ax <= 0x1.921fb54442d18p-1) {
        *hi = x;
        *lo = 0.0;
        return 0;
    }
    if (ax >= REDUCE_LIMIT) {
        /* Only the turn count is lost, which the remainder does not need. */
        x = neg_if(exact_rem(ax, TWO_PI_D), sign_bit(x));
    }
    double k = round_int(x * TWO_OVER_PI);
    /* Exact: k * PIO2_1 is, and x is within a factor 2 of it (Sterbenz). */
    double t = x - k * PIO2_1;
    double s, e;
    two_sum(t, -(k * PIO2_2), &s, &e);
    e = e - k * PIO2_3;
    fast_two_sum(s, e, hi, lo);
    return (int)((int64_t)k & 3);
}

/* sin(hi + lo) = sin(hi) + lo cos(hi), Taylor to x^17 (the next term is
 * below 2^-60 of the result on [-pi/4, pi/4]). */
static double sin_kernel(double hi, double lo)
{
    double z = hi * hi;
    double p = INV_FACT5 + z * (-INV_FACT7 + z * (INV_FACT9 + z * (-INV_FACT11 + z * (INV_FACT13
               + z * (-INV_FACT15 + z * INV_FACT17)))));
    p = -INV_FACT3 + z * p;
    double t = (hi * z) * p + lo * (1.0 - 0.5 * z);
    return hi + t;
}

/* cos(hi + lo) = cos(hi) - lo sin(hi), Taylor to x^16.  1 - z/2 is
 * rounded once, and what that rounding lost is put back exactly. */
static double cos_kernel(double hi, double lo)
{
    double z = hi * hi;
    double q = INV_FACT4 + z * (-INV_FACT6 + z * (INV_FACT8 + z * (-INV_FACT10 + z * (INV_FACT12
               + z * (-INV_FACT14 + z * INV_FACT16)))));
    double hz = 0.5 * z;
    double w = 1.0 - hz;
    double tail = ((1.0 - w) - hz) + ((z * z) * q - hi * lo);
    return w + tail;
}

static double sin_impl(double x)
{
    if (fabs_(x) < 0x1p-27)
        return x; /* x^3/6 is below half an ulp; keeps -0 and subnormals */
    if (is_nan(x) || is_inf(x))
        return canonical_nan();
    double hi, lo;
    int q = reduce_pio2(x, &hi, &lo);
    switch (q) {
    case 0: return sin_kernel(hi, lo);
    case 1: return cos_kernel(hi, lo);
    case 2: return -sin_kernel(hi, lo);
    default: return -cos_kernel(hi, lo);
    }
}

static double cos_impl(double x)
{
    if (fabs_(x) < 0x1p-27)
        return 1.0;
    if (is_nan(x) || is_inf(x))
        return canonical_nan();
    double hi, lo;
    int q = reduce_pio2(x, &hi, &lo);
    switch (q) {
    case 0: return cos_kernel(hi, lo);
    case 1: return -sin_kernel(hi, lo);
    case 2: return -cos_kernel(hi, lo);
    default: return sin_kernel(hi, lo);
    }
}

/* ---- the sine table ------------------------------------------------------------- */

/* A quarter turn from the kernels, without a reduction: node i of the
 * quarter's q is the angle (pi/2) i/q = i PIO2_1 / q + i PIO2_2 / q, both
 * products exact (i <= q < 2^20, q a power of two), at most pi/4 from 0 or
 * from pi/2 (the values within an ulp or so, as rpl_sin's); the other quarters are the same values mirrored, so the table
 * is exactly odd and symmetric about its crests.  (h's value in dmath.h
 * is for 10 bits.) */
_Static_assert(RPL_SINTAB_BITS == 10, "RPL_SINTAB_H is 2 pi / 2^10");
static void sintab_fill(rpl_sintab_t *t)
{
    enum { N = 1 << RPL_SINTAB_BITS, Q = N / 4 };
    double sq[Q + 1], cq[Q + 1]; /* sin and cos of node i of the first quarter */
    for (int i = 0; i <= Q; i++) {
        int near = i <= Q / 2 ? i : Q - i; /* steps from 0, or back from pi/2 */
        double hi, lo; /* the two exact products as the kernels take them: lo below hi's ulp */
        fast_two_sum(near * (PIO2_1 / Q), near * (PIO2_2 / Q), &hi, &lo);
        double s = sin_kernel(hi, lo), c = cos_kernel(hi, lo);
        if (2 * i == Q)
            c = s; /* pi/4: one value for both, or the mirrors would differ there */
        sq[i] = i <= Q / 2 ? s : c;
        cq[i] = i <= Q / 2 ? c : s;
    }
    for (int i = 0; i < N; i++) {
        int k = i % Q;
        double s, c;
        switch (i / Q) {
        case 0: s = sq[k]; c = cq[k]; break;
        case 1: s = cq[k]; c = -sq[k]; break;
        case 2: s = -sq[k]; c = -cq[k]; break;
        default: s = -cq[k]; c = sq[k]; break;
        }
        t->s[i] = s;
        t->hc[i] = RPL_SINTAB_H * c;
    }
}

/* ---- atan2, acos ------------------------------------------------------------- */

/* For c = 0, 1/4, 1/2, 3/4, 1: atan c, pi/2 - atan c, pi - atan c and
 * pi/2 + atan c, each as hi + lo, the four ways an angle of the first
 * octant becomes one of the half plane. */
static const double atan_table[5][8] = {
    {0x0.0p+0, 0x0.0p+0, 0x1.921fb54442d18p+0, 0x1.1a62633145c07p-54, 0x1.921fb54442d18p+1,
     0x1.1a62633145c07p-53, 0x1.921fb54442d18p+0, 0x1.1a62633145c07p-54},
    {0x1.f5b75f92c80ddp-3, 0x1.8ab6e3cf7afbdp-57, 0x1.5368c951e9cfdp+0, -0x1.96f47948a99f1p-54,
     0x1.72c43f4b1650ap+1, 0x1.c1b6f4f44e10bp-53, 0x1.d0d6a1369bd34p+0, -0x1.a23602a65700cp-57},
    {0x1.dac670561bb4fp-2, 0x1.a2b7f222f65e2p-56, 0x1.1b6e192ebbe44p+0, 0x1.b1b466a88828ep-54,
     0x1.56c6e7397f5aep+1, 0x1.660b64ece6f4bp-53, 0x1.0468a8ace4df6p+1, 0x1.0620bf7406affp-55},
    {0x1.4978fa3269ee1p-1, 0x1.2419a87f2a458p-56, 0x1.dac670561bb4fp-1, 0x1.a2b7f222f65e2p-55,
     0x1.3fc176b7a8560p+1, -0x1.441a3bd3f1083p-58, 0x1.1b6e192ebbe44p+1, 0x1.b1b466a88828ep-53},
    {0x1.921fb54442d18p-1, 0x1.1a62633145c07p-55, 0x1.921fb54442d18p-1, 0x1.1a62633145c07p-55,
     0x1.2d97c7f3321d2p+1, 0x1.a79394c9e8a0ap-54, 0x1.2d97c7f3321d2p+1, 0x1.a79394c9e8a0ap-54},
};
#define PIO2_HI 0x1.921fb54442d18p+0
#define PI_HI 0x1.921fb54442d18p+1

#define INV_ODD3 0x1.5555555555555p-2
#define INV_ODD5 0x1.999999999999ap-3
#define INV_ODD7 0x1.2492492492492p-3
#define INV_ODD9 0x1.c71c71c71c71cp-4
#define INV_ODD11 0x1.745d1745d1746p-4
#define INV_ODD13 0x1.3b13b13b13b14p-4
#define INV_ODD15 0x1.1111111111111p-4
#define INV_ODD17 0x1.e1e1e1e1e1e1ep-5

/* atan u - u for |u| <= 1/8, Taylor to u^17 (the next term is below 2^-57 of u). */
static double atan_small(double u)
{
    double z = u * u;
    double p = INV_ODD3 - z * (INV_ODD5 - z * (INV_ODD7 - z * (INV_ODD9 - z * (INV_ODD11
               - z * (INV_ODD13 - z * (INV_ODD15 - z * INV_ODD17))))));
    return -(u * z) * p;
}

/* The angle of (b, a + al), a and b finite and positive (al, a small
 * correction to a, for acos): atan(n/d) with n = min,
 * d = max, as atan c + atan u, u = (n - c d)/(d + c n) and |u| <= 1/8, then
 * moved into its quadrant by the table.  The numerators are exact where the
 * two terms are within a factor 2 of each other (Sterbenz). */
static double atan2_finite(double a, double al, double b, int x_neg)
{
    int swap = a > b;
    double n = swap ? b : a, d = swap ? a : b;
    double t = n / d;
    int row;
    double u, ul = 0.0;
    if (t < 0.125) {
        row = 0;
        u = t;
        /* A subnormal quotient is rounded twice on x87 (53 bits, then the
         * subnormal's fewer when stored): so it is rounded twice here on
         * every target, to 53 bits as a normal number, then scaled down
         * (exact on x87 until the store, which rounds once). */
        if (t < 0x1p-1020)
            u = ((n * 0x1p200) / d) * 0x1p-200;
    } else {
        /* t >= 1/8: scaled by a power of 2 (exact) into the range where
         * two_prod's split cannot overflow and its low parts are normal. */
        if (d > 0x1p900) {
            n *= 0x1p-200;
            d *= 0x1p-200;
        } else if (d < 0x1p-900) {
            n *= 0x1p200;
            d *= 0x1p200;
        }
        double num, cn;
        if (t < 0.375) {
            row = 1;
            num = n - 0.25 * d;
            cn = 0.25 * n;
        } else if (t < 0.625) {
            row = 2;
            num = n - 0.5 * d;
            cn = 0.5 * n;
        } else if (t < 0.875) {
            row = 3;
            num = (n - d) + 0.25 * d;
            cn = 0.75 * n;
        } else {
            row = 4;
            num = n - d;
            cn = n;
        }
        /* u + ul: the roundings of the denominator and of the division
         * recovered, since where atan c + atan u is smaller than c an ulp
         * of u is as big as one of the result. */
        double dh, dl, ph, pl;
        two_sum(d, cn, &dh, &dl);
        u = num / dh;
        two_prod(u, dh, &ph, &pl);
        ul = (((num - ph) - pl) - u * dl) / dh;
    }
    /* atan(u + ul) = u + tail + ul (atan' = 1 - u^2...: ul needs no more). */
    double tail = atan_small(u) + ul;
    /* atan(a/b) = theta or pi/2 - theta (swapped); x < 0 mirrors it.  The
     * table's hi plus u exactly, the small terms after. */
    int col = x_neg ? (swap ? 3 : 2) : (swap ? 1 : 0);
    int minus = (col == 1 || col == 2);
    const double *k = &atan_table[row][2 * col];
    double h, e;
    two_sum(k[0], minus ? -u : u, &h, &e);
    double small = minus ? -tail : tail;
    if (al != 0.0) {
        /* d atan2(a, b) / da = b / (a^2 + b^2); x < 0 mirrors it too. */
        double da = b * al / (a * a + b * b);
        small += x_neg ? -da : da;
    }
    return h + (e + (k[1] + small));
}

static double atan2_impl(double y, double x)
{
    if (is_nan(x) || is_nan(y))
        return canonical_nan();
    int y_neg = sign_bit(y), x_neg = sign_bit(x);
    double a = fabs_(y), b = fabs_(x);
    double r;
    if (a == 0.0) {
        r = x_neg ? PI_HI : 0.0; /* (Annex F: -0 as x counts as negative) */
    } else if (is_inf(a) && is_inf(b)) {
        r = atan_table[4][x_neg ? 4 : 0]; /* 3 pi/4 or pi/4 */
    } else if (is_inf(a) || b == 0.0) {
        r = PIO2_HI;
    } else if (is_inf(b)) {
        r = x_neg ? PI_HI : 0.0;
    } else {
        r = atan2_finite(a, 0.0, b, x_neg);
    }
    return neg_if(r, y_neg);
}

/* acos x = atan2(sqrt(1 - x^2), x).  1 - x^2 = (1 - x)(1 + x) to about
 * 2^-100 (each factor and their product as hi + lo), its root as y + yl by
 * one Newton step: near x = +-1 the angle is about as small as y, and
 * every ulp lost in y would be one in the result. */
static double acos_impl(double x)
{
    if (is_nan(x) || fabs_(x) > 1.0)
        return canonical_nan();
    if (fabs_(x) == 1.0)
        return x > 0.0 ? 0.0 : PI_HI;
    double dh, dl, gh, gl, sh, sl;
    two_sum(1.0, -x, &dh, &dl);
    two_sum(1.0, x, &gh, &gl);
    two_prod(dh, gh, &sh, &sl);
    sl += dh * gl + dl * gh;
    double y = __builtin_sqrt(sh);
    double rh, rl;
    two_prod(y, y, &rh, &rl);
    double yl = (((sh - rh) - rl) + sl) / (2.0 * y);
    return atan2_finite(y, yl, fabs_(x), sign_bit(x));
}

/* ---- exp, pow ---------------------------------------------------------------- */

/* ln 2 = LN2_HI + LN2_LO, LN2_HI of 42 bits: k * LN2_HI is exact for |k| < 2^11. */
#define LN2_HI 0x1.62e42fefa38p-1
#define LN2_LO 0x1.ef35793c7673p-45
#define INV_LN2 0x1.71547652b82fep+0
#define SQRT2 0x1.6a09e667f3bcdp+0

/* exp(xh + xl), |xl| <= ulp(xh)/2.  x = k ln 2 + r + lo, |r| <= ln2/2;
 * e^r - 1 by Taylor to r^13 (the next term is below 2^-60), then
 * e^(r + lo) = e^r (1 + lo); 1 + r is split exactly so that its rounding
 * is added to the small terms, not lost. */
static double exp_dd(double xh, double xl)
{
    if (xh > 709.8)
        return infinity();
    if (xh < -745.2)
        return 0.0;
    double k = round_int(xh * INV_LN2);
    double rh = xh - k * LN2_HI; /* exact (Sterbenz) */
    double r = rh - k * LN2_LO;
    double lo = ((rh - r) - k * LN2_LO) + xl;
    double q = INV_FACT3 + r * (INV_FACT4 + r * (INV_FACT5 + r * (INV_FACT6 + r * (INV_FACT7
               + r * (INV_FACT8 + r * (INV_FACT9 + r * (INV_FACT10 + r * (INV_FACT11
               + r * (INV_FACT12 + r * INV_FACT13)))))))));
    double a = (r * r) * (INV_FACT2 + r * q); /* e^r - 1 - r */
    double c = lo + lo * (r + a);
    double s, e;
    fast_two_sum(1.0, r, &s, &e);
    double m = s + (e + (a + c));
    int ki = (int)k;
    if (ki > 1023)
        return (m * 2.0) * pow2(ki - 1);
    if (ki < -1021)
        return (m * pow2(ki + 600)) * pow2(-600); /* one rounding into the subnormals */
    return m * pow2(ki);
}

static double exp_impl(double x)
{
    if (is_nan(x))
        return canonical_nan();
    return exp_dd(x, 0.0);
}

/* log(j/64), j = 45 .. 91, as hi + lo. */
static const double log_table[47][2] = {
    {-0x1.68ac83e9c6a14p-2, -0x1.a64eadd740178p-58}, {-0x1.522ae0738a3d8p-2, 0x1.8f7e9b38a6979p-57},
    {-0x1.3c25277333184p-2, 0x1.2ad27e50a8ec6p-56},  {-0x1.269621134db92p-2, -0x1.e0efadd9db02bp-56},
    {-0x1.1178e8227e47cp-2, 0x1.0e63a5f01c691p-57},  {-0x1.f991c6cb3b379p-3, -0x1.f665066f980a2p-57},
    {-0x1.d1037f2655e7bp-3, -0x1.60629242471a2p-57}, {-0x1.a93ed3c8ad9e3p-3, -0x1.bcafa9de97203p-57},
    {-0x1.823c16551a3c2p-3, 0x1.1232ce70be781p-57},  {-0x1.5bf406b543db2p-3, 0x1.1f5b44c0df7e7p-61},
    {-0x1.365fcb0159016p-3, -0x1.7d411a5b944adp-58}, {-0x1.1178e8227e47cp-3, 0x1.0e63a5f01c691p-58},
    {-0x1.da727638446a2p-4, -0x1.401fa71733019p-58}, {-0x1.9335e5d594989p-4, 0x1.478a85704ccb7p-58},
    {-0x1.4d3115d207eacp-4, -0x1.769f42c7842ccp-58}, {-0x1.08598b59e3a07p-4, 0x1.dd7009902bf32p-58},
    {-0x1.894aa149fb343p-5, -0x1.a8be97660a23dp-60}, {-0x1.0415d89e74444p-5, -0x1.c05cf1d753622p-59},
    {-0x1.0205658935847p-6, -0x1.27c8e8416e71fp-60}, {0x0.0p+0, 0x0.0p+0},
    {0x1.fc0a8b0fc03e4p-7, -0x1.83092c59642a1p-62},  {0x1.f829b0e7833p-6, 0x1.33e3f04f1ef23p-60},
    {0x1.77458f632dcfcp-5, 0x1.18d3ca87b9296p-59},   {0x1.f0a30c01162a6p-5, 0x1.85f325c5bbacdp-59},
    {0x1.341d7961bd1d1p-4, -0x1.b599f227becbbp-58},  {0x1.6f0d28ae56b4cp-4, -0x1.906d99184b992p-58},
    {0x1.a926d3a4ad563p-4, 0x1.942f48aa70ea9p-58},   {0x1.e27076e2af2e6p-4, -0x1.61578001e0162p-60},
    {0x1.0d77e7cd08e59p-3, 0x1.9a5dc5e9030acp-57},   {0x1.29552f81ff523p-3, 0x1.301771c407dbfp-57},
    {0x1.44d2b6ccb7d1ep-3, 0x1.9f4f6543e1f88p-57},   {0x1.5ff3070a793d4p-3, -0x1.bc60efafc6f6ep-58},
    {0x1.7ab890210d909p-3, 0x1.be36b2d6a0608p-59},   {0x1.9525a9cf456b4p-3, 0x1.d904c1d4e2e26p-57},
    {0x1.af3c94e80bff3p-3, -0x1.398cff3641985p-58},  {0x1.c8ff7c79a9a22p-3, -0x1.4f689f8434012p-57},
    {0x1.e27076e2af2e6p-3, -0x1.61578001e0162p-59},  {0x1.fb9186d5e3e2bp-3, -0x1.caaae64f21acbp-57},
    {0x1.0a324e27390e3p-2, 0x1.7dcfde8061c03p-56},   {0x1.1675cababa60ep-2, 0x1.ce63eab883717p-61},
    {0x1.22941fbcf7966p-2, -0x1.76f5eb09628afp-56},  {0x1.2e8e2bae11d31p-2, -0x1.8f4cdb95ebdf9p-56},
    {0x1.3a64c556945eap-2, -0x1.c68651945f97cp-57},  {0x1.4618bc21c5ec2p-2, 0x1.f42decdeccf1dp-56},
    {0x1.51aad872df82dp-2, 0x1.3927ac19f55e3p-59},   {0x1.5d1bdbf5809cap-2, 0x1.4236383dc7fe1p-56},
    {0x1.686c81e9b14afp-2, -0x1.ddea0f7f58e3dp-57},
};

/* log x = H + L for finite x > 0, good to about 2^-75 absolute: pow needs
 * y log x to 2^-60 with |y log x| up to 745.  x = 2^e m, m in [1/sqrt2,
 * sqrt2]; c = j/64 nearest m; log m = log c + 2 atanh s, s = (m - c)/(m + c),
 * |s| < 1/180, s itself as sh + sl. */
static void log_dd(double x, double *H, double *L)
{
    int e = 0;
    if (x < 0x1p-1022) {
        x *= 0x1p54;
        e = -54;
    }
    uint64_t u = bits_of(x);
    e += (int)(u >> 52) - 1023;
    double m = from_bits((u & ((UINT64_C(1) << 52) - 1)) | (UINT64_C(1023) << 52));
    if (m > SQRT2) {
        m *= 0.5;
        e += 1;
    }
    double j = round_int(m * 64.0);
    double c = j * 0x1p-6;
    double f = m - c; /* exact */
    double gh, gl;
    two_sum(m, c, &gh, &gl);
    double sh = f / gh;
    double ph, pl;
    two_prod(sh, gh, &ph, &pl);
    double sl = (((f - ph) - pl) - sh * gl) / gh;
    double z = sh * sh;
    double tail = 2.0 * (sh * z) * (INV_ODD3 + z * (INV_ODD5 + z * (INV_ODD7 + z * INV_ODD9)));
    const double *lc = log_table[(int)j - 45];
    double h1, l1, h2, l2;
    two_sum((double)e * LN2_HI, lc[0], &h1, &l1);
    two_sum(h1, 2.0 * sh, &h2, &l2);
    double lo = (l1 + l2) + ((((double)e * LN2_LO + lc[1]) + 2.0 * sl) + tail);
    fast_two_sum(h2, lo, H, L);
}

/* y an integer: 1 if odd, 2 if even, 0 if not an integer (or not finite). */
static int int_kind(double y)
{
    uint64_t u = bits_of(y);
    int ex = (int)((u >> 52) & 0x7ff) - 1023;
    if (ex == 1024)
        return 0;
    if (ex < 0)
        return y == 0.0 ? 2 : 0;
    if (ex >= 53)
        return 2;
    if (ex == 52)
        return (u & 1) ? 1 : 2;
    if (u & ((UINT64_C(1) << (52 - ex)) - 1))
        return 0;
    if (ex == 0)
        return 1; /* +-1: the units bit is the implicit one */
    return ((u >> (52 - ex)) & 1) ? 1 : 2;
}

static double pow_impl(double x, double y)
{
    if (y == 0.0 || x == 1.0)
        return 1.0;
    if (is_nan(x) || is_nan(y))
        return canonical_nan();
    int kind = int_kind(y);
    int odd = kind == 1;
    int x_neg = sign_bit(x);
    double ax = fabs_(x);
    int y_neg = sign_bit(y);
    if (is_inf(y)) {
        if (ax == 1.0)
            return 1.0; /* (-1)^inf */
        return (ax > 1.0) != y_neg ? infinity() : 0.0;
    }
    if (ax == 0.0 || is_inf(ax)) {
        /* 0^y and inf^y: one of 0 and inf, signed by x when y is odd. */
        int big = (ax == 0.0) == y_neg;
        return neg_if(big ? infinity() : 0.0, x_neg && odd);
    }
    if (x_neg && kind == 0)
        return canonical_nan();
    int neg = x_neg && odd;
    /* |y| >= 2^63 and x != 1: |y log x| >= 2^63 * 2^-53, far past either end. */
    if (fabs_(y) >= 0x1p63)
        return (ax > 1.0) != y_neg ? infinity() : 0.0;
    double H, L, ph, pl, zh, zl;
    log_dd(ax, &H, &L);
    two_prod(y, H, &ph, &pl);
    fast_two_sum(ph, pl + y * L, &zh, &zl);
    return neg_if(exp_dd(zh, zl), neg);
}

/* ---- hypot ------------------------------------------------------------------- */

/* sqrt(a^2 + b^2) with both squares exact (two_prod), their sum to 106
 * bits, and one Newton step on the root against that sum.  Scaled by 2^600
 * either way so that no square overflows or goes subnormal. */
static double hypot_impl(double x, double y)
{
    double a = fabs_(x), b = fabs_(y);
    if (is_inf(a) || is_inf(b))
        return infinity(); /* even beside a NaN (Annex F) */
    if (is_nan(a) || is_nan(b))
        return canonical_nan();
    if (a < b) {
        double t = a;
        a = b;
        b = t;
    }
    /* b/a < 2^-27: a (1 + (b/a)^2 / 2) rounds to a. */
    if (b == 0.0 || b * 0x1p27 < a)
        return a;
    double scale = 1.0;
    if (a > 0x1p500) {
        a *= 0x1p-600;
        b *= 0x1p-600;
        scale = 0x1p600;
    } else if (a < 0x1p-450) {
        a *= 0x1p600;
        b *= 0x1p600;
        scale = 0x1p-600;
    }
    double ah, al, bh, bl, sh, sl;
    two_prod(a, a, &ah, &al);
    two_prod(b, b, &bh, &bl);
    two_sum(ah, bh, &sh, &sl);
    sl = sl + (al + bl);
    double r = __builtin_sqrt(sh);
    double rh, rl;
    two_prod(r, r, &rh, &rl);
    double res = ((sh - rh) - rl) + sl;
    r = r + res / (2.0 * r);
    return r * scale;
}

/* ---- the API, guarded on x87 --------------------------------------------------- */

#ifdef DMATH_X87
/* Precision control to 53 bits (bits 8-9 of the control word = 10). */
static unsigned short x87_enter(void)
{
    unsigned short old, cw;
    __asm__ __volatile__("fnstcw %0" : "=m"(old) : : "memory");
    cw = (unsigned short)((old & ~0x300) | 0x200);
    __asm__ __volatile__("fldcw %0" : : "m"(cw) : "memory");
    return old;
}

static void x87_leave(unsigned short old)
{
    __asm__ __volatile__("fldcw %0" : : "m"(old) : "memory");
}

/* The work is a call, so that no operation can be moved across the
 * control word's change. */
#define NOINLINE __attribute__((noinline))
#define GUARD(expr)                        \
    do {                                   \
        unsigned short cw_ = x87_enter();  \
        volatile double r_ = (expr);       \
        x87_leave(cw_);                    \
        return r_;                         \
    } while (0)
#else
#define NOINLINE
#define GUARD(expr) return (expr)
#endif

static NOINLINE double sin_call(double x) { return sin_impl(x); }
static NOINLINE double cos_call(double x) { return cos_impl(x); }
static NOINLINE double atan2_call(double y, double x) { return atan2_impl(y, x); }
static NOINLINE double acos_call(double x) { return acos_impl(x); }
static NOINLINE double exp_call(double x) { return exp_impl(x); }
static NOINLINE double pow_call(double x, double y) { return pow_impl(x, y); }
static NOINLINE double hypot_call(double x, double y) { return hypot_impl(x, y); }

static NOINLINE void sintab_call(rpl_sintab_t *t) { sintab_fill(t); }

static NOINLINE void sincos_call(double x, double *s, double *c)
{
    if (fabs_(x) < 0x1p-27) {
        *s = x;
        *c = 1.0;
        return;
    }
    if (is_nan(x) || is_inf(x)) {
        *s = *c = canonical_nan();
        return;
    }
    double hi, lo;
    int q = reduce_pio2(x, &hi, &lo);
    double sk = sin_kernel(hi, lo), ck = cos_kernel(hi, lo);
    switch (q) {
    case 0: *s = sk; *c = ck; break;
    case 1: *s = ck; *c = -sk; break;
    case 2: *s = -sk; *c = -ck; break;
    default: *s = -ck; *c = sk; break;
    }
}

double rpl_sin(double x) { GUARD(sin_call(x)); }
double rpl_cos(double x) { GUARD(cos_call(x)); }
double rpl_atan2(double y, double x) { GUARD(atan2_call(y, x)); }
double rpl_acos(double x) { GUARD(acos_call(x)); }
double rpl_exp(double x) { GUARD(exp_call(x)); }
double rpl_pow(double x, double y) { GUARD(pow_call(x, y)); }
double rpl_hypot(double x, double y) { GUARD(hypot_call(x, y)); }

void rpl_sincos(double x, double *s, double *c)
{
#ifdef DMATH_X87
    unsigned short cw = x87_enter();
    sincos_call(x, s, c);
    x87_leave(cw);
#else
    sincos_call(x, s, c);
#endif
}

void rpl_sintab_init(rpl_sintab_t *t)
{
#ifdef DMATH_X87
    unsigned short cw = x87_enter();
    sintab_call(t);
    x87_leave(cw);
#else
    sintab_call(t);
#endif
}

void rpl_double_precision(void (*fn)(void *), void *arg)
{
#ifdef DMATH_X87
    unsigned short cw = x87_enter();
    fn(arg);
    x87_leave(cw);
#else
    fn(arg);
#endif
}
