/* core/side/side_palette.c - the side renderer's INDEX8 palette: a median cut of the art and of its water, and the lookup cube. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/dmath.h"
#include "core/side/side_renderer.h"

/* ---- INDEX8: the palette and its lookup cube ------------------------------ */


/*
 * The palette comes from a picture of what the scene will show: the art
 * (scaled to PAL_W x PAL_ART_H) above the art again under water drawn by
 * the renderer itself (its gradient, caustics, foam on a wavy surface,
 * droplets), so the median cut sees the water's colours in about the
 * share of the screen water takes.  Then each cell of a 32^3 cube gets the
 * entry nearest its centre, and a pixel's index is one lookup.
 */
rpl_status rpl_side_make_palette(rpl_side_renderer_t *r, const uint32_t *art)
{
    const int pw = PAL_W, ph = PAL_ART_H + PAL_WATER_H;
    uint32_t *pic = malloc((size_t)pw * ph * sizeof *pic);
    uint32_t *dry = malloc((size_t)pw * ph * sizeof *dry);
    float *surf = malloc((size_t)pw * sizeof *surf);
    r->cube = malloc((size_t)1 << (3 * CUBE_BITS));
    if (!pic || !dry || !surf || !r->cube) {
        free(pic);
        free(dry);
        free(surf);
        return rpl_err_set(&r->err, RPL_ENOMEM, "out of memory for the INDEX8 palette");
    }
    for (int y = 0; y < ph; y++) {
        int ay = y < PAL_ART_H ? y : y - PAL_ART_H;
        int sy = (int)(((long long)ay * r->h + r->h / 2) / PAL_ART_H);
        if (y >= PAL_ART_H) /* under water: the art's lower part mostly */
            sy = (int)(((long long)ay * r->h) / (2 * PAL_WATER_H) + r->h / 2);
        sy = clampi(sy, 0, r->h - 1);
        for (int x = 0; x < pw; x++) {
            int sx = clampi((int)(((long long)x * r->w + r->w / 2) / pw), 0, r->w - 1);
            dry[(size_t)y * pw + x] = art[(size_t)sy * r->w + sx] | 0xFF000000u;
        }
    }
    memcpy(pic, dry, (size_t)pw * ph * sizeof *pic);
    for (int x = 0; x < pw; x++)
        surf[x] = (float)(PAL_ART_H + 6 + 4.0 * rpl_sin(x * 0.11) + 1.5 * rpl_sin(x * 0.37));
    rpl_side_water_t wb = {0, pw, surf, (float)ph, 1};
    anim_t an;
    rpl_side_make_anim(r, &an, 1.7);
    rpl_side_draw_water(pic, pw, dry, pw, pw, ph, &wb, &an, &r->depth, &r->col, r->kern);
    for (int i = 0; i < 24; i++) {
        rpl_droplet_t dp = {(float)(5 + i * 10.5), (float)(PAL_ART_H - 14 + (i * 7) % 30), 0, 0,
                            (float)(i % 5) * 0.1f, 0.6f, (float)(1.0 + (i % 3))};
        rpl_side_draw_drop(pic, pw, pw, ph, &dp);
    }
    rpl_backdrop_t *bd;
    rpl_status st = rpl_backdrop_create(pic, pw, ph, RPL_INDEX8, &bd);
    free(pic);
    free(dry);
    free(surf);
    if (st != RPL_OK) {
        rpl_backdrop_destroy(bd);
        return rpl_err_set(&r->err, st, "cannot make the INDEX8 palette: %s", rpl_strerror(st));
    }
    memcpy(r->palette, rpl_backdrop_palette(bd), sizeof r->palette);
    int colors = rpl_backdrop_colors(bd);
    rpl_backdrop_destroy(bd);
    if (colors < 1)
        colors = 1;

    /* The entries sorted by green: a cell's search starts at its green
     * and walks outwards both ways until the green difference alone
     * exceeds the best distance found (ties go to the lowest index, so the
     * order of the walk does not matter). */
    uint8_t order[256];
    int ng = 0;
    for (int gl = 0; gl < 256; gl++)
        for (int k = 0; k < colors; k++)
            if ((int)(r->palette[k] >> 8 & 0xFF) == gl)
                order[ng++] = (uint8_t)k;
    const int side = 1 << CUBE_BITS;
    for (int gi = 0; gi < side; gi++) {
        /* the cell's centre, in 8-bit levels */
        int cg = (gi << (8 - CUBE_BITS)) + (1 << (7 - CUBE_BITS));
        int start = 0;
        while (start < ng && (int)(r->palette[order[start]] >> 8 & 0xFF) < cg)
            start++;
        for (int ri = 0; ri < side; ri++)
            for (int bi = 0; bi < side; bi++) {
                int cr = (ri << (8 - CUBE_BITS)) + (1 << (7 - CUBE_BITS));
                int cb = (bi << (8 - CUBE_BITS)) + (1 << (7 - CUBE_BITS));
                int best = 0, bestd = 1 << 30;
                for (int dir = 0; dir < 2; dir++)
                    for (int j = dir ? start : start - 1; j >= 0 && j < ng; j += dir ? 1 : -1) {
                        int k = order[j];
                        uint32_t p = r->palette[k];
                        int dg = (int)(p >> 8 & 0xFF) - cg;
                        if (dg * dg > bestd)
                            break;
                        int dr = (int)(p >> 16 & 0xFF) - cr, db = (int)(p & 0xFF) - cb;
                        int dd = dr * dr + dg * dg + db * db;
                        if (dd < bestd || (dd == bestd && k < best)) {
                            bestd = dd;
                            best = k;
                        }
                    }
                r->cube[(ri << (2 * CUBE_BITS)) | (gi << CUBE_BITS) | bi] = (uint8_t)best;
            }
    }
    return RPL_OK;
}
