/* kernels/rows_tpl.h - the SIMD step kernels' row loop, once for both rules (classic and wave model) and every instruction set. */

/*
 * Included by one file per rule and instruction set (kernels/x86/{step,
 * wave}_{mmx,sse2,avx2}.c, kernels/arm/{step,wave}_neon.c), which defines
 *   RPL_ROWS_FN     the name of the kernel (declared in kernels/kernels.h)
 *   RPL_ROWS_WAVE   1 when the kernel is the wave model's (it takes the
 *                   coefficients, and its scalar rule is rpl_step_wave_c)
 *   RPL_ROWS_LANES  the cells in one vector
 *   vec_t           the vector
 *   rule_t          the rule's constants, held in registers across the area
 * and RPL_ROWS_HALF when it has a vector of half the lanes too, half_t,
 * for areas narrower than a whole vector (AVX2's xmm, NEON's D register),
 * RPL_ROWS_HIDE(c, p) when it wants a row's pointers hidden from the
 * compiler (kernels/arm/neon.h says why); the functions declared below:
 * the rule on one vector of cells, and the vector operations the loop needs
 * (each instruction set's kernels/x86/rows_*.h or kernels/arm/neon.h).  The
 * row loop, its tail, the preconditions and the narrow areas' rule: here.
 */
#ifndef RPL_ROWS_FN
#error "define RPL_ROWS_FN, RPL_ROWS_LANES, vec_t and rule_t before including rows_tpl.h"
#endif

#include <assert.h>
#include <stddef.h>

#include "kernels/simd.h"

#ifndef RPL_ROWS_WAVE
#define RPL_ROWS_WAVE 0
#endif
#ifndef RPL_ROWS_HIDE
#define RPL_ROWS_HIDE(c, p) (void)0
#endif
/* What each file defines. */
/* Sets up the rule's constants; k is NULL for the classic rule. */
RPL_FORCE_INLINE void rule_init(rule_t *r, const rpl_wave_coef_t *k);
/* The rule for the RPL_ROWS_LANES cells at c[0..) / p[0..), w apart from
 * the rows above and below: the values to store at p (kernels/scalar.h
 * says what they are, bit for bit). */
RPL_FORCE_INLINE vec_t rule_vec(const int16_t *c, const int16_t *p, ptrdiff_t w,
                                const rule_t *r);
RPL_FORCE_INLINE vec_t vec_zero(void);
RPL_FORCE_INLINE void vec_store(int16_t *p, vec_t v);
RPL_FORCE_INLINE vec_t vec_or(vec_t a, vec_t b);
/* Whether any lane of acc is not 0; leaves the vector state as the caller
 * may expect it (MMX: emms, since the x87 FPU shares the registers). */
RPL_FORCE_INLINE int vec_any(vec_t acc);
#ifdef RPL_ROWS_HALF
/* The same on half_t, half the lanes. */
RPL_FORCE_INLINE half_t rule_half(const int16_t *c, const int16_t *p, ptrdiff_t w,
                                  const rule_t *r);
RPL_FORCE_INLINE half_t half_zero(void);
RPL_FORCE_INLINE void half_store(int16_t *p, half_t v);
RPL_FORCE_INLINE half_t half_or(half_t a, half_t b);
RPL_FORCE_INLINE int half_any(half_t acc);
#define RPL_ROWS_MIN (RPL_ROWS_LANES / 2)
#else
#define RPL_ROWS_MIN RPL_ROWS_LANES
#endif

enum { L = RPL_ROWS_LANES };

/*
 * The n cells c[0..n) / p[0..n) of one row in whole vectors, at least one
 * of them (n >= L); returns acc ORed with every value stored.  When `tail`,
 * the width is not a multiple of L: the last vector, ending at n, is
 * computed first, from the original prev, and stored after the loop over
 * the others.  It overlaps the vector before it, whose cells it rewrites
 * with the same values: a cell's rule reads cur and its own prev only, and
 * that prev was read before anything was stored.  So no cell is left to the
 * scalar rule, nothing outside [0, n) is read from prev or written.  Inlined
 * with a constant `tail`, so the test leaves the loops. */
RPL_FORCE_INLINE vec_t row(vec_t acc, const int16_t *c, int16_t *p, ptrdiff_t w, ptrdiff_t n,
                           const int tail, const rule_t *r)
{
    vec_t last = vec_zero();
    if (tail)
        last = rule_vec(c + n - L, p + n - L, w, r);
    RPL_ROWS_HIDE(c, p);
    ptrdiff_t i = 0;
    /* Two independent vectors per pass so their loads and shifts overlap
     * (the P6 core too issues MMX ops to two ports). */
    for (; i <= n - 2 * L; i += 2 * L) {
        vec_t a = rule_vec(c + i, p + i, w, r);
        vec_t b = rule_vec(c + i + L, p + i + L, w, r);
        vec_store(p + i, a);
        vec_store(p + i + L, b);
        acc = vec_or(vec_or(acc, a), b);
    }
    if (i <= n - L) {
        vec_t a = rule_vec(c + i, p + i, w, r);
        vec_store(p + i, a);
        acc = vec_or(acc, a);
    }
    if (tail) {
        vec_store(p + n - L, last);
        acc = vec_or(acc, last);
    }
    return acc;
}

/* The kernel (kernels/kernels.h): k is the wave model's coefficients, NULL for the classic rule. */
RPL_FORCE_INLINE int rows(int16_t *prev, const int16_t *cur, int w, int x0, int x1, int y0,
                          int y1, const rpl_wave_coef_t *k)
{
    assert(prev && cur && (k || !RPL_ROWS_WAVE));
    assert(w >= RPL_DIM_MIN);
    assert(1 <= x0 && x0 <= x1 && x1 <= w - 1);
    assert(1 <= y0 && y0 <= y1);

    const int n = x1 - x0;
    if (n < RPL_ROWS_MIN) /* narrower than a vector: the scalar rule, no vector state touched */
#if RPL_ROWS_WAVE
        return rpl_step_wave_c(prev, cur, w, x0, x1, y0, y1, k);
#else
        return rpl_step_c(prev, cur, w, x0, x1, y0, y1);
#endif

    rule_t r;
    rule_init(&r, k);
#ifdef RPL_ROWS_HALF
    if (n < L) {
        /* narrower than a whole vector: two halves, at x0 and ending at
         * x1, both computed before either is stored (they overlap unless
         * n == L / 2) */
        half_t acc = half_zero();
        for (int y = y0; y < y1; y++) {
            ptrdiff_t at = (ptrdiff_t)y * w;
            const int16_t *c = cur + at;
            int16_t *p = prev + at;
            half_t a = rule_half(c + x0, p + x0, w, &r);
            half_t b = rule_half(c + x1 - L / 2, p + x1 - L / 2, w, &r);
            half_store(p + x0, a);
            half_store(p + x1 - L / 2, b);
            acc = half_or(acc, half_or(a, b));
        }
        return half_any(acc);
    }
#endif

    vec_t acc = vec_zero();
    if (n % L) {
        for (int y = y0; y < y1; y++) {
            ptrdiff_t at = (ptrdiff_t)y * w + x0;
            acc = row(acc, cur + at, prev + at, w, n, 1, &r);
        }
    } else {
        for (int y = y0; y < y1; y++) {
            ptrdiff_t at = (ptrdiff_t)y * w + x0;
            acc = row(acc, cur + at, prev + at, w, n, 0, &r);
        }
    }
    return vec_any(acc);
}

#if RPL_ROWS_WAVE
int RPL_ROWS_FN(int16_t *prev, const int16_t *cur, int w, int x0, int x1, int y0, int y1,
                const rpl_wave_coef_t *k)
{
    return rows(prev, cur, w, x0, x1, y0, y1, k);
}
#else
int RPL_ROWS_FN(int16_t *prev, const int16_t *cur, int w, int x0, int x1, int y0, int y1)
{
    return rows(prev, cur, w, x0, x1, y0, y1, NULL);
}
#endif
