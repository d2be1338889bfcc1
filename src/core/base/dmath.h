/* core/base/dmath.h - the maths functions of the side view and Chipmunk2D, the same bits on every platform. */
#ifndef RPL_CORE_BASE_DMATH_H
#define RPL_CORE_BASE_DMATH_H

/* The C library's sin, cos, atan2... differ between glibc, emscripten,
 * mingw-w64 and x87 in the last bits, so a simulation fed with them
 * drifts apart between the native build and the web page.  These are
 * built from + - * / and sqrt alone (every one of them correctly rounded
 * on every target), within 1-2 ulp of the true value.  Kept free of other
 * headers: this file is also force-included into Chipmunk2D's own C files.
 * NaN results are always the one quiet NaN 0x7ff8000000000000. */

double rpl_sin(double x);
double rpl_cos(double x);
/* The two of rpl_sin and rpl_cos, bit for bit, for the price of one reduction. */
void rpl_sincos(double x, double *s, double *c);
double rpl_atan2(double y, double x);
double rpl_acos(double x);
double rpl_exp(double x);
double rpl_pow(double x, double y);
double rpl_hypot(double x, double y);

/* A sine by table, for sums of many waves where a sine a term is the cost.
 * The phase is given in cells, 2^RPL_SINTAB_BITS a turn: c stands for the
 * angle 2 pi c / 2^bits.  The nearest whole cell i holds sin and cos there
 * (from dmath.c's kernels), and the sine is read along its tangent:
 * sin(a + d) ~ sin a + d cos a, d = h (c - i) within h/2, h = 2 pi / 2^bits;
 * what that leaves out is at most d^2/2 |sin| <= h^2/8 = 4.7065e-6 with
 * 10 bits (4.7063e-6 is reached, half-way between cells at the crests),
 * and the cosine likewise.  The rest (the table's rounding, two
 * operations', the phase's own as a double below 2^40 cells) stays under
 * 1e-9: within RPL_SINTAB_ERR everywhere (test_dmath sweeps the turn).
 * The same bits on every platform: the table is made by + - * alone, and
 * a read is additions and multiplications (the x87 under
 * rpl_double_precision, as everything else in dmath.c).  A table is
 * 16 KiB: whoever sums the waves keeps one (rpl_sintab_init). */
#define RPL_SINTAB_BITS 10
#define RPL_SINTAB_ERR 4.71e-6
/* h = 2 pi / 2^10 rounded to a double, and 1/h rounded: written in hex,
 * as the x87 may keep a decimal constant (or a quotient of two) wider */
#define RPL_SINTAB_H 0x1.921fb54442d18p-8
#define RPL_SINTAB_INV_H 0x1.45f306dc9c883p+7

typedef struct rpl_sintab {
    double s[1 << RPL_SINTAB_BITS];  /* sin(2 pi i / 2^bits) */
    double hc[1 << RPL_SINTAB_BITS]; /* h cos(2 pi i / 2^bits) */
} rpl_sintab_t;

void rpl_sintab_init(rpl_sintab_t *t);

/* The cell nearest c (|c| < 2^51; ties to even), modulo 2^bits, and c
 * less that cell, in [-1/2, 1/2], exactly: after 1.5 * 2^52 is added the
 * double holds no fraction, so it is the nearest whole number, and its
 * low bits are that number's (negative ones too: 1.5 * 2^52 is a multiple
 * of 2^bits).  A union reads the bits, as this header includes nothing. */
static inline unsigned rpl_sintab_cell(double c, double *f)
{
    union {
        double d;
        unsigned long long u;
    } v;
    v.d = c + 0x1.8p52;
    *f = c - (v.d - 0x1.8p52);
    return (unsigned)(v.u & ((1u << RPL_SINTAB_BITS) - 1));
}

/* sin(2 pi c / 2^bits) within RPL_SINTAB_ERR. */
static inline double rpl_sintab(const rpl_sintab_t *t, double c)
{
    double f;
    unsigned i = rpl_sintab_cell(c, &f);
    return t->s[i] + t->hc[i] * f;
}

/* The sine and the cosine together, each within RPL_SINTAB_ERR: the
 * sine's bits are rpl_sintab's. */
static inline void rpl_sintab2(const rpl_sintab_t *t, double c, double *s, double *co)
{
    double f;
    unsigned i = rpl_sintab_cell(c, &f);
    *s = t->s[i] + t->hc[i] * f;
    *co = t->hc[i] * RPL_SINTAB_INV_H - t->s[i] * (RPL_SINTAB_H * f);
}

/* Calls fn(arg) with the FPU rounding every operation to double
 * precision, as SSE2, ARM and WebAssembly do, and puts the caller's
 * setting back.  Only the x87 (32-bit x86 without SSE2) needs it: it rounds
 * to 64 bits of mantissa (Linux, mingw-w64), so a chain of operations
 * such as Chipmunk2D's step drifts from the others' in the last bits.
 * Under it the x87's + - * / and sqrt give the others' bits as long as no
 * value leaves double's exponent range.  Elsewhere it is the plain call. */
void rpl_double_precision(void (*fn)(void *), void *arg);

/* A decimal constant as a double, for the side view's step and drops.
 * On the x87 C lets a decimal constant be a long double (FLT_EVAL_METHOD
 * 2), and GCC's C11 mode makes it one: 0.06 keeps 64 bits of mantissa,
 * and x * 0.06 under rpl_double_precision still rounds otherwise than on
 * SSE2 now and then.  The cast drops the extra bits; it rounds the long
 * double, which gives the nearest double unless that long double lies
 * half way between two (none of the constants passed here does: checked
 * against the 80-bit format).  Elsewhere a constant is a double already. */
#define RPL_D(c) ((double)(c))

#endif
