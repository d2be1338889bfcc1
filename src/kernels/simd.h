/* kernels/simd.h - what the SIMD kernels share: inlining control; for the refraction, strength classes, preconditions, the zero row. */
#ifndef RPL_SIMD_H
#define RPL_SIMD_H

#include <assert.h>

#include "kernels/scalar.h"

/* The row loops are instantiated per strength class and light (and the
 * step's per tail); forced inlining lets those flags fold away in every
 * copy. */
#if defined(__GNUC__)
#define RPL_FORCE_INLINE static inline __attribute__((always_inline))
#define RPL_NOINLINE __attribute__((noinline))
/* the compiler must assume obj changed here: it stores it, then reloads */
#define RPL_OPAQUE(obj) __asm__("" : "+m"(obj))
#else
#define RPL_FORCE_INLINE static inline
#define RPL_NOINLINE
#define RPL_OPAQUE(obj) (void)0
#endif

/* Strength classes: K0..K3 scale the offset with one pmulhw after a shift
 * of 0..3 (see kernels/x86/refract_sse2_tpl.h); ONE is strength 16, no multiply. */
enum { K0, K1, K2, K3, ONE };

static inline int rpl_strength_class(int s)
{
    return s == RPL_STRENGTH_ONE ? ONE : s <= 8 ? K0 : s <= 16 ? K1 : s <= 32 ? K2 : K3;
}

/* Calls render(job, x0, x1, y0, y1, class, shading) with the class and
 * the light as constants, so each of the ten copies folds its flags. */
#define RPL_RENDER_BY_CLASS(render, job, x0, x1, y0, y1)                        \
    do {                                                                        \
        switch (rpl_strength_class((job)->strength) * 2 + ((job)->shading != 0)) { \
        case K0 * 2: render(job, x0, x1, y0, y1, K0, 0); break;                 \
        case K0 * 2 + 1: render(job, x0, x1, y0, y1, K0, 1); break;             \
        case K1 * 2: render(job, x0, x1, y0, y1, K1, 0); break;                 \
        case K1 * 2 + 1: render(job, x0, x1, y0, y1, K1, 1); break;             \
        case K2 * 2: render(job, x0, x1, y0, y1, K2, 0); break;                 \
        case K2 * 2 + 1: render(job, x0, x1, y0, y1, K2, 1); break;             \
        case K3 * 2: render(job, x0, x1, y0, y1, K3, 0); break;                 \
        case K3 * 2 + 1: render(job, x0, x1, y0, y1, K3, 1); break;             \
        case ONE * 2: render(job, x0, x1, y0, y1, ONE, 0); break;               \
        default: render(job, x0, x1, y0, y1, ONE, 1); break;                    \
        }                                                                       \
    } while (0)

/* Asserts the preconditions of a refraction kernel (kernels/kernels.h) on
 * a job (not NULL) whose background in the kernel's format is bg, of px
 * bytes a pixel. */
static inline void rpl_refract_check(const rpl_refract_job_t *job, const void *bg, int px,
                                     int x0, int x1, int y0, int y1)
{
    assert(job->h && bg && job->fb);
    assert(job->w >= RPL_DIM_MIN && job->w <= RPL_DIM_MAX);
    assert(job->hgt >= RPL_DIM_MIN && job->hgt <= RPL_DIM_MAX);
    assert(job->strength >= 0 && job->strength <= RPL_STRENGTH_MAX);
    assert(job->shading == 0 || job->shading == 1);
    assert(job->pitch % px == 0 && job->pitch >= (ptrdiff_t)job->w * px);
    assert(0 <= x0 && x0 <= x1 && x1 <= job->w);
    assert(0 <= y0 && y0 <= y1 && y1 <= job->hgt);
    (void)job, (void)bg, (void)px, (void)x0, (void)x1, (void)y0, (void)y1; /* NDEBUG */
}

/* Stands in for the missing row above the top or below the bottom row, so
 * those rows take the vector path too.  All zeros, never written
 * (kernels/zero_row.c). */
extern const int16_t rpl_zero_row[RPL_DIM_MAX];

#endif
