/* core/image.c - fitting a picture of any size to the field: scale to cover, crop the centre. */
#include <stdlib.h>

#include "ripple.h"

/*
 * Fixed point with 16 fraction bits throughout.  The source is scaled by
 * s = max(dw/sw, dh/sh) so it covers the target, and the target's pixel
 * (x, y) looks at source position ((x + 0.5) / s + ox, (y + 0.5) / s + oy)
 * where ox, oy centre the crop.  When shrinking, each target pixel
 * averages the source texels its footprint (1/s wide) covers; when
 * enlarging, it interpolates the four nearest texels.
 */

static inline uint32_t px_at(const uint32_t *src, ptrdiff_t spitch, int x, int y)
{
    return *(const uint32_t *)((const unsigned char *)src + (ptrdiff_t)y * spitch +
                               (ptrdiff_t)x * 4);
}

static inline int clampi(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

rpl_status rpl_image_fit(const uint32_t *src, int sw, int sh, ptrdiff_t spitch,
                         uint32_t *dst, int dw, int dh)
{
    if (!src || !dst || sw <= 0 || sh <= 0 || dw <= 0 || dh <= 0 ||
        sw > 65536 || sh > 65536 || dw > 65536 || dh > 65536 || spitch < (ptrdiff_t)sw * 4)
        return RPL_EINVAL;
    /* step = source texels per target pixel = 1/s, in 16.16 */
    int64_t stepx = ((int64_t)sw << 16) / dw, stepy = ((int64_t)sh << 16) / dh;
    int64_t step = stepx < stepy ? stepx : stepy;
    if (step < 1)
        step = 1;
    /* crop offsets: centre the covered area */
    int64_t ox = (((int64_t)sw << 16) - step * dw) / 2;
    int64_t oy = (((int64_t)sh << 16) - step * dh) / 2;

    for (int y = 0; y < dh; y++) {
        uint32_t *out = dst + (ptrdiff_t)y * dw;
        int64_t fy0 = oy + step * y; /* footprint top, 16.16 */
        for (int x = 0; x < dw; x++) {
            int64_t fx0 = ox + step * x;
            uint32_t r, g, b;
            if (step > (1 << 16)) {
                /* shrink: box average over the footprint (whole texels) */
                int x0 = (int)(fx0 >> 16), x1 = (int)((fx0 + step - 1) >> 16);
                int y0 = (int)(fy0 >> 16), y1 = (int)((fy0 + step - 1) >> 16);
                x0 = clampi(x0, 0, sw - 1);
                x1 = clampi(x1, x0, sw - 1);
                y0 = clampi(y0, 0, sh - 1);
                y1 = clampi(y1, y0, sh - 1);
                uint64_t sr = 0, sg = 0, sb = 0, cnt = 0;
                for (int yy = y0; yy <= y1; yy++)
                    for (int xx = x0; xx <= x1; xx++) {
                        uint32_t p = px_at(src, spitch, xx, yy);
                        sr += (p >> 16) & 0xFF;
                        sg += (p >> 8) & 0xFF;
                        sb += p & 0xFF;
                        cnt++;
                    }
                r = (uint32_t)((sr + cnt / 2) / cnt);
                g = (uint32_t)((sg + cnt / 2) / cnt);
                b = (uint32_t)((sb + cnt / 2) / cnt);
            } else {
                /* enlarge: bilinear around the footprint centre */
                int64_t cx = fx0 + step / 2 - (1 << 15), cy = fy0 + step / 2 - (1 << 15);
                if (cx < 0)
                    cx = 0;
                if (cy < 0)
                    cy = 0;
                int x0 = clampi((int)(cx >> 16), 0, sw - 1), y0 = clampi((int)(cy >> 16), 0, sh - 1);
                int x1 = clampi(x0 + 1, 0, sw - 1), y1 = clampi(y0 + 1, 0, sh - 1);
                uint32_t fx = (uint32_t)(cx & 0xFFFF) >> 8, fy = (uint32_t)(cy & 0xFFFF) >> 8;
                uint32_t p00 = px_at(src, spitch, x0, y0), p10 = px_at(src, spitch, x1, y0);
                uint32_t p01 = px_at(src, spitch, x0, y1), p11 = px_at(src, spitch, x1, y1);
                uint32_t ch[3];
                for (int c = 0; c < 3; c++) {
                    int sh8 = 16 - 8 * c;
                    uint32_t a = (p00 >> sh8) & 0xFF, bb = (p10 >> sh8) & 0xFF;
                    uint32_t cc = (p01 >> sh8) & 0xFF, d = (p11 >> sh8) & 0xFF;
                    uint32_t top = a * (256 - fx) + bb * fx;
                    uint32_t bot = cc * (256 - fx) + d * fx;
                    ch[c] = (top * (256 - fy) + bot * fy + (1u << 15)) >> 16;
                }
                r = ch[0];
                g = ch[1];
                b = ch[2];
            }
            out[x] = 0xFF000000u | r << 16 | g << 8 | b;
        }
    }
    return RPL_OK;
}
