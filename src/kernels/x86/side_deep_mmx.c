/* kernels/x86/side_deep_mmx.c - MMX side-view deep water: two pixels a register, the scene's pixels read one by one. */
#include <mmintrin.h>

#include "kernels/kernels.h"
#include "kernels/x86/side_mmx.h"

/*
 * Four pixels a step.  Each pixel's column (sx) is worked out in a scalar
 * register and its scene pixel loaded straight into an MMX register (the
 * gather MMX lacks).  Two pixels share a register, their channels spread
 * to 16-bit lanes: c * inva + p fits 16 bits (the callers' bounds), so
 * pmullw's low half is the whole product; the light is added in bytes by
 * a saturating add, which is the rule's min(255, ...).
 */
void rpl_side_deep_mmx(const rpl_side_deep_job_t *job, int x0, int x1)
{
    const uint32_t *src = job->src;
    uint32_t *out = job->out;
    const int32_t *rd = job->rd, *wob = job->wob + job->phase;
    const uint8_t *light = job->light;
    const int lx = job->lx;
    const __m64 zero = _mm_setzero_si64();
    const __m64 ia = _mm_set1_pi16((short)job->inva);
    const __m64 pre = _mm_setr_pi16((short)job->pb, (short)job->pg, (short)job->pr, 0);
    const __m64 cw = _mm_set1_pi16((short)job->cw);
    const __m64 kba = _mm_setr_pi16(230, 256, 200, 0);
    const __m64 alpha = _mm_set1_pi32((int)0xFF000000u);
    int x = x0;
    for (; x + 4 <= x1; x += 4) {
        /* wob[(x + i + phase) & 255] is wob[phase + (x & 255) + i]: the
         * table runs on past 256 */
        const int32_t *wx = wob + (x & 255);
        const uint32_t *s = src + x;
        const __m64 p0 = mmx_ld32(s + ((rd[x] + wx[0]) >> 16));
        const __m64 p1 = mmx_ld32(s + 1 + ((rd[x + 1] + wx[1]) >> 16));
        const __m64 p2 = mmx_ld32(s + 2 + ((rd[x + 2] + wx[2]) >> 16));
        const __m64 p3 = mmx_ld32(s + 3 + ((rd[x + 3] + wx[3]) >> 16));
        /* the light's four bytes: the row runs 32 bytes past its 256 */
        const __m64 l = mmx_ld32(light + ((unsigned)(x + lx) & 255));
        const __m64 a = _mm_srli_pi16(_mm_mullo_pi16(_mm_unpacklo_pi8(l, zero), cw), 8);
        const __m64 a01 = _mm_unpacklo_pi16(a, a), a23 = _mm_unpackhi_pi16(a, a);
        const __m64 add01 = _mm_packs_pu16(side_light_rgb(_mm_unpacklo_pi32(a01, a01), kba),
                                           side_light_rgb(_mm_unpackhi_pi32(a01, a01), kba));
        const __m64 add23 = _mm_packs_pu16(side_light_rgb(_mm_unpacklo_pi32(a23, a23), kba),
                                           side_light_rgb(_mm_unpackhi_pi32(a23, a23), kba));
        const __m64 p01 = _mm_unpacklo_pi32(p0, p1), p23 = _mm_unpacklo_pi32(p2, p3);
        __m64 lo = _mm_unpacklo_pi8(p01, zero), hi = _mm_unpackhi_pi8(p01, zero);
        lo = _mm_srli_pi16(_mm_add_pi16(_mm_mullo_pi16(lo, ia), pre), 8);
        hi = _mm_srli_pi16(_mm_add_pi16(_mm_mullo_pi16(hi, ia), pre), 8);
        mmx_st64(out + x, _mm_or_si64(_mm_adds_pu8(_mm_packs_pu16(lo, hi), add01), alpha));
        lo = _mm_unpacklo_pi8(p23, zero);
        hi = _mm_unpackhi_pi8(p23, zero);
        lo = _mm_srli_pi16(_mm_add_pi16(_mm_mullo_pi16(lo, ia), pre), 8);
        hi = _mm_srli_pi16(_mm_add_pi16(_mm_mullo_pi16(hi, ia), pre), 8);
        mmx_st64(out + x + 2, _mm_or_si64(_mm_adds_pu8(_mm_packs_pu16(lo, hi), add23), alpha));
    }
    _mm_empty();
    rpl_side_deep_c(job, x, x1);
}
