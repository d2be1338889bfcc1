/* kernels/x86/refract_xrgb8888_mmx.c - MMX refraction into XRGB8888: texels by scalar loads, the light by a saturating byte add. */
#include <mmintrin.h>
#include <stdint.h>

#define RPL_REFRACT_FN rpl_refract_xrgb8888_mmx
#define RPL_FMT_XRGB8888
#include "kernels/refract_fmt.h"

typedef struct {
    __m64 bias; /* 0x80 in R, G and B: the light's clamp as a signed add */
    __m64 m;    /* RPL_SHADE_MAX, to take the light's bias off */
} fmt_t;

#include "kernels/x86/refract_mmx_tpl.h"

RPL_FORCE_INLINE void fmt_init(fmt_t *f, const rpl_refract_job_t *j, const int shading)
{
    (void)j;
    (void)shading;
    f->bias = _mm_set1_pi32(0x00808080);
    f->m = _mm_set1_pi16(RPL_SHADE_MAX);
}

RPL_FORCE_INLINE void fmt_level(const fmt_t *f, px_t *o, const px_t *b, const int shading)
{
    (void)f;
    (void)shading;
    copy8(o, b);
}

RPL_FORCE_INLINE void fmt_pixels(const consts_t *c, const fmt_t *f, px_t *o, const px_t *bg,
                                 const uint32_t *ix, __m64 nx, __m64 ny, const int shading)
{
    if (!shading) {
        gather4(o, bg, ix);
        return;
    }
    /* d (|d| <= 96 fits a byte) into bytes 0-2 of each pixel, 0 in byte
     * 3; biasing the channels by 0x80 turns the clamp to 0..255 into a
     * signed saturating add */
    const __m64 dv = _mm_sub_pi16(light_biased(c, nx, ny), f->m);
    const __m64 b = _mm_packs_pi16(dv, dv);
    const __m64 dd = _mm_unpacklo_pi8(b, b), d0 = _mm_unpacklo_pi8(b, c->zero);
    const __m64 m0 = _mm_unpacklo_pi16(dd, d0), m1 = _mm_unpackhi_pi16(dd, d0);
    __m64 p0 = _mm_unpacklo_pi32(mmx_ld32(bg + ix[0]), mmx_ld32(bg + ix[1]));
    __m64 p1 = _mm_unpacklo_pi32(mmx_ld32(bg + ix[2]), mmx_ld32(bg + ix[3]));
    p0 = _mm_xor_si64(_mm_adds_pi8(_mm_xor_si64(p0, f->bias), m0), f->bias);
    p1 = _mm_xor_si64(_mm_adds_pi8(_mm_xor_si64(p1, f->bias), m1), f->bias);
    mmx_st64(o, p0);
    mmx_st64(o + 2, p1);
}
