/* kernels/x86/refract_rgb565_mmx.c - MMX refraction into RGB565: texels by scalar loads, the light per 5-6-5 channel. */
#include <mmintrin.h>
#include <stdint.h>

#define RPL_REFRACT_FN rpl_refract_rgb565_mmx
#define RPL_FMT_RGB565
#include "kernels/refract_fmt.h"

typedef struct {
    __m64 m5, m6;     /* the channel masks and maxima */
    __m64 s5, s6;     /* 32767 - 31 and 32767 - 63: a channel's clamp by saturation */
    __m64 m3, m2;     /* RPL_SHADE_MAX >> 3, >> 2: the light's bias in each width */
} fmt_t;

#include "kernels/x86/refract_mmx_tpl.h"

_Static_assert(RPL_SHADE_MAX % 8 == 0, "the light's bias must shift out whole");

RPL_FORCE_INLINE void fmt_init(fmt_t *f, const rpl_refract_job_t *j, const int shading)
{
    (void)j;
    (void)shading;
    f->m5 = _mm_set1_pi16(31);
    f->m6 = _mm_set1_pi16(63);
    f->s5 = _mm_set1_pi16(32767 - 31);
    f->s6 = _mm_set1_pi16(32767 - 63);
    f->m3 = _mm_set1_pi16(RPL_SHADE_MAX >> 3);
    f->m2 = _mm_set1_pi16(RPL_SHADE_MAX >> 2);
}

RPL_FORCE_INLINE void fmt_level(const fmt_t *f, px_t *o, const px_t *b, const int shading)
{
    (void)f;
    (void)shading;
    copy8(o, b);
}

/* clamp(v, 0, max) for v >= max - 32767 (the sums here lie in [-12, 87]):
 * paddsw(v, 32767 - max) is min(v, max) + 32767 - max, not negative, and
 * psubusw of 32767 - max from it leaves max(min(v, max), 0). */
RPL_FORCE_INLINE __m64 clamp0(__m64 v, __m64 sat)
{
    return _mm_subs_pu16(_mm_adds_pi16(v, sat), sat);
}

RPL_FORCE_INLINE void fmt_pixels(const consts_t *c, const fmt_t *f, px_t *o, const px_t *bg,
                                 const uint32_t *ix, __m64 nx, __m64 ny, const int shading)
{
    if (!shading) {
        gather4(o, bg, ix);
        return;
    }
    __m64 p = _mm_unpacklo_pi32(_mm_cvtsi32_si64((int)(bg[ix[0]] | (uint32_t)bg[ix[1]] << 16)),
                                _mm_cvtsi32_si64((int)(bg[ix[2]] | (uint32_t)bg[ix[3]] << 16)));
    /* d >> 3 on R and B, d >> 2 on G: (d + M) >> k - (M >> k) is d >> k,
     * M being a multiple of 8 */
    const __m64 db = light_biased(c, nx, ny);
    const __m64 d3 = _mm_sub_pi16(_mm_srai_pi16(db, 3), f->m3);
    const __m64 d2 = _mm_sub_pi16(_mm_srai_pi16(db, 2), f->m2);
    __m64 rr = _mm_add_pi16(_mm_srli_pi16(p, 11), d3);
    __m64 gg = _mm_add_pi16(_mm_and_si64(_mm_srli_pi16(p, 5), f->m6), d2);
    __m64 bb = _mm_add_pi16(_mm_and_si64(p, f->m5), d3);
    rr = clamp0(rr, f->s5);
    gg = clamp0(gg, f->s6);
    bb = clamp0(bb, f->s5);
    p = _mm_or_si64(_mm_or_si64(_mm_slli_pi16(rr, 11), _mm_slli_pi16(gg, 5)), bb);
    mmx_st64(o, p);
}
