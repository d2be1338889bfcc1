/* kernels/refract_fmt.h - what a refraction kernel's pixel format is on every instruction set:
 * its pixel type, its background and one texel.  Define RPL_FMT_XRGB8888, RPL_FMT_RGB565 or
 * RPL_FMT_INDEX8, then include this before the instruction set's refraction template. */
#ifndef RPL_REFRACT_FMT_H
#define RPL_REFRACT_FMT_H

#include <stdint.h>
#include <string.h>

#include "kernels/simd.h"

#if defined(RPL_FMT_XRGB8888)
typedef uint32_t px_t;
#define RPL_FMT_BG bg
#define RPL_FMT_TEXEL rpl_texel
#elif defined(RPL_FMT_RGB565)
typedef uint16_t px_t;
#define RPL_FMT_BG bg16
#define RPL_FMT_TEXEL rpl_texel565
#elif defined(RPL_FMT_INDEX8)
typedef uint8_t px_t;
#define RPL_FMT_BG bg8
#define RPL_FMT_TEXEL rpl_texel8
#else
#error "define RPL_FMT_XRGB8888, RPL_FMT_RGB565 or RPL_FMT_INDEX8 before including refract_fmt.h"
#endif

/* The background in the format. */
RPL_FORCE_INLINE const px_t *fmt_bg(const rpl_refract_job_t *j)
{
    return j->RPL_FMT_BG;
}

/* One pixel by the scalar rule (borders and tails). */
RPL_FORCE_INLINE px_t fmt_texel(const rpl_refract_job_t *j, int x, int y, int xoff, int yoff)
{
    return RPL_FMT_TEXEL(j, x, y, xoff, yoff);
}

#if defined(RPL_FMT_INDEX8)
/* Whether the shade table's level-0 row (what level water shows, d = 0)
 * is the identity, as the backdrop makes it: level water then copies the
 * background instead of looking every pixel up.  Eight entries a word. */
RPL_FORCE_INLINE int fmt_level_same(const uint8_t *shade)
{
    const uint8_t *lv = shade + RPL_SHADE_STEPS * 256;
    uint64_t want = 0x0706050403020100ull, diff = 0;
    for (int e = 0; e < 256; e += 8, want += 0x0808080808080808ull) {
        uint64_t w;
        memcpy(&w, lv + e, sizeof w);
        diff |= w ^ want;
    }
    return diff == 0;
}
#endif

#endif
