/* core/render/look.c - how well the refracted water reads: speckle, mean offset and mean light, measured with the renderer's offsets and shading (rpl_look_measure). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ripple_support.h"

static int clampi(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

static int height(const int16_t *h, int w, int hgt, int x, int y)
{
    return x < 0 || y < 0 || x >= w || y >= hgt ? 0 : h[(size_t)y * (size_t)w + (size_t)x];
}

/* Row y's offsets as the renderer takes them (rpl_src_index): the
 * source texel, clamped to the picture, minus the pixel; nz[x] is 1 where
 * the height or a height difference is not 0; lt[x] the size of the
 * light's change, |d| of the renderer's shading (ripple/render.h). */
static void offset_at(int w, int hgt, int s, int x, int y, int xoff, int yoff, int c, int *dx,
                      int *dy, unsigned char *nz, unsigned char *lt)
{
    dx[x] = clampi(x + ((xoff * s) >> 4), 0, w - 1) - x;
    dy[x] = clampi(y + ((yoff * s) >> 4), 0, hgt - 1) - y;
    nz[x] = (xoff | yoff | c) != 0;
    lt[x] = (unsigned char)abs(clampi((-(xoff + yoff)) >> 2, -RPL_SHADE_MAX, RPL_SHADE_MAX));
}

/* 1 if row y is all 0 (rows outside the field are). */
static int row_level(const int16_t *h, int w, int hgt, int y)
{
    if (y < 0 || y >= hgt)
        return 1;
    const int16_t *row = h + (size_t)y * (size_t)w;
    int16_t any = 0;
    for (int x = 0; x < w; x++)
        any |= row[x];
    return any == 0;
}

/* Fills row y's offsets and light; 1 when they are all 0 and no height
 * is. */
static int offsets(const int16_t *h, int w, int hgt, int s, int y, int *dx, int *dy,
                   unsigned char *nz, unsigned char *lt)
{
    if (row_level(h, w, hgt, y - 1) && row_level(h, w, hgt, y) && row_level(h, w, hgt, y + 1)) {
        memset(dx, 0, (size_t)w * sizeof *dx);
        memset(dy, 0, (size_t)w * sizeof *dy);
        memset(nz, 0, (size_t)w);
        memset(lt, 0, (size_t)w);
        return 1;
    }
    if (y == 0 || y == hgt - 1) {
        for (int x = 0; x < w; x++)
            offset_at(w, hgt, s, x, y,
                      height(h, w, hgt, x - 1, y) - height(h, w, hgt, x + 1, y),
                      height(h, w, hgt, x, y - 1) - height(h, w, hgt, x, y + 1),
                      height(h, w, hgt, x, y), dx, dy, nz, lt);
        return 0;
    }
    /* inside: the neighbours without bounds checks, level water at once */
    const int16_t *row = h + (size_t)y * (size_t)w, *up = row - w, *down = row + w;
    for (int x = 0; x < w; x++) {
        if (x == 0 || x == w - 1) {
            offset_at(w, hgt, s, x, y,
                      height(h, w, hgt, x - 1, y) - height(h, w, hgt, x + 1, y),
                      up[x] - down[x], row[x], dx, dy, nz, lt);
            continue;
        }
        int xoff = row[x - 1] - row[x + 1], yoff = up[x] - down[x];
        if ((xoff | yoff | row[x]) == 0) {
            dx[x] = dy[x] = 0;
            nz[x] = lt[x] = 0;
            continue;
        }
        offset_at(w, hgt, s, x, y, xoff, yoff, row[x], dx, dy, nz, lt);
    }
    return 0;
}

static int apart(int a, int b)
{
    return abs(a - b) > RPL_LOOK_SPECKLE_PX;
}

rpl_status rpl_look_measure(const int16_t *h, int w, int hgt, int strength, rpl_look_t *out)
{
    if (!h || !out || w < RPL_DIM_MIN || hgt < RPL_DIM_MIN || w > RPL_DIM_MAX ||
        hgt > RPL_DIM_MAX || strength < 0 || strength > RPL_STRENGTH_MAX)
        return RPL_EINVAL;
    int tiles_x = (w + RPL_TILE_W - 1) / RPL_TILE_W, tiles_y = (hgt + RPL_TILE_H - 1) / RPL_TILE_H;
    int *rows = malloc((size_t)w * 4 * sizeof *rows);
    unsigned char *nz = malloc((size_t)w), *lt = malloc((size_t)w);
    double *sum = calloc((size_t)tiles_x, sizeof *sum);
    long *light = calloc((size_t)tiles_x, sizeof *light);
    long *px = calloc((size_t)tiles_x, sizeof *px);
    unsigned char *awake = calloc((size_t)tiles_x, 1);
    if (!rows || !nz || !lt || !sum || !light || !px || !awake) {
        free(rows), free(nz), free(lt), free(sum), free(light), free(px), free(awake);
        return RPL_ENOMEM;
    }
    int *dx = rows, *dy = rows + w, *ndx = rows + 2 * w, *ndy = rows + 3 * w;
    double total = 0, total_light = 0;
    long speckled = 0, awake_px = 0;
    int awake_tiles = 0;
    int level = offsets(h, w, hgt, strength, 0, dx, dy, nz, lt), next_level = 1;
    for (int y = 0; y < hgt; y++) {
        /* row y's tiles take its offsets and light, and nz and lt before
         * row y + 1's replace them */
        for (int x = 0; x < w; x++) {
            int t = x / RPL_TILE_W;
            px[t]++;
            if (!nz[x])
                continue;
            awake[t] = 1;
            light[t] += lt[x];
            if (dx[x] | dy[x])
                sum[t] += sqrt((double)dx[x] * dx[x] + (double)dy[x] * dy[x]);
        }
        if (y + 1 < hgt)
            next_level = offsets(h, w, hgt, strength, y + 1, ndx, ndy, nz, lt);
        for (int x = 0; x < w && !(level && next_level); x++) {
            int right = x + 1 < w && (apart(dx[x], dx[x + 1]) || apart(dy[x], dy[x + 1]));
            int down = y + 1 < hgt && (apart(dx[x], ndx[x]) || apart(dy[x], ndy[x]));
            speckled += right || down;
        }
        if (y + 1 == hgt || (y + 1) % RPL_TILE_H == 0) {
            for (int t = 0; t < tiles_x; t++) {
                if (awake[t]) {
                    total += sum[t];
                    total_light += (double)light[t];
                    awake_px += px[t];
                    awake_tiles++;
                }
                sum[t] = 0, light[t] = 0, px[t] = 0, awake[t] = 0;
            }
        }
        level = next_level;
        int *s0 = dx, *s1 = dy;
        dx = ndx, dy = ndy, ndx = s0, ndy = s1;
    }
    out->speckle = (double)speckled / ((double)w * hgt);
    out->offset = awake_px ? total / (double)awake_px : 0;
    out->light = awake_px ? total_light / (double)awake_px : 0;
    out->awake = (double)awake_tiles / ((double)tiles_x * tiles_y);
    free(rows), free(nz), free(lt), free(sum), free(light), free(px), free(awake);
    return RPL_OK;
}
