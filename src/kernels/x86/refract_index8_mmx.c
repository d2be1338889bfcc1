/* kernels/x86/refract_index8_mmx.c - MMX refraction into INDEX8: texels and shade table entries by scalar loads. */
#include <assert.h>
#include <mmintrin.h>
#include <stdint.h>

#define RPL_REFRACT_FN rpl_refract_index8_mmx
#define RPL_FMT_INDEX8
#include "kernels/refract_fmt.h"

typedef struct {
    const uint8_t *shade; /* the light's table, NULL without light; a local,
                           * as stores to the bytes of fb could change job */
    __m64 two;
} fmt_t;

#include "kernels/x86/refract_mmx_tpl.h"

_Static_assert(RPL_SHADE_MAX == 4 * RPL_SHADE_STEPS, "the biased light must give the row");

RPL_FORCE_INLINE void fmt_init(fmt_t *f, const rpl_refract_job_t *j, const int shading)
{
    assert(!shading || j->shade8);
    f->shade = shading ? j->shade8 : NULL;
    f->two = _mm_set1_pi16(2);
}

/* Through the table's level-0 row when shading: that row need not be the
 * identity. */
RPL_FORCE_INLINE void fmt_level(const fmt_t *f, px_t *o, const px_t *b, const int shading)
{
    if (!shading) {
        copy8(o, b);
        return;
    }
    const uint8_t *lv = f->shade + RPL_SHADE_STEPS * 256;
    for (int i = 0; i < 8; i++)
        o[i] = lv[b[i]];
}

RPL_FORCE_INLINE void fmt_pixels(const consts_t *c, const fmt_t *f, px_t *o, const px_t *bg,
                                 const uint32_t *ix, __m64 nx, __m64 ny, const int shading)
{
    if (!shading) {
        gather4(o, bg, ix);
        return;
    }
    /* the table row q + STEPS with q = (d + 2) >> 2 is (d + M + 2) >> 2,
     * M = 4 * STEPS; times 256, in [0, 48 * 256]: fits int16 */
    uint16_t rw[4];
    mmx_st64(rw, _mm_slli_pi16(_mm_srai_pi16(_mm_add_pi16(light_biased(c, nx, ny), f->two), 2), 8));
    RPL_OPAQUE(rw);
    const uint8_t *shade = f->shade;
    o[0] = shade[rw[0] + bg[ix[0]]];
    o[1] = shade[rw[1] + bg[ix[1]]];
    o[2] = shade[rw[2] + bg[ix[2]]];
    o[3] = shade[rw[3] + bg[ix[3]]];
}
