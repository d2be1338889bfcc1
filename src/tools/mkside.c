/* mkside.c - paints the side-view demo's art (a sky with clouds and distant hills, and a tileable stone texture) and saves it as PNG. */

#define SDL_MAIN_HANDLED
#include <SDL.h>
#include <SDL_image.h>

#include "ripple.h"
#include "ripple_support.h"
#include "tools/paint.h"
#include "tools/save.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/*
 * Two pictures, both procedural and deterministic (an integer hash with
 * fixed seeds, no rand()):
 *   the sky, W x H (640 x 480 by default): a vertical gradient from a deep
 *   blue zenith to a warm pale horizon, a soft sun glow, layered soft
 *   clouds, and two ranges of distant hills in muted, hazy colours;
 *   the stone, 64 x 64 and tileable both ways: staggered blocks of
 *   weathered stone with dark mortar, bevelled edges and grain.
 * Everything is laid out in fractions of the picture, so another size
 * shows the same sky.
 */
#define MIN_SIDE 16
#define MAX_SIDE 8192
#define STONE 64
#define SS 3 /* supersamples per pixel side */

/* ---- noise ------------------------------------------------------------------ */

static uint32_t hash3(int x, int y, uint32_t seed)
{
    uint32_t h = (uint32_t)x * 0x8DA6B343u ^ (uint32_t)y * 0xD8163841u ^ seed * 0xCB1AB31Fu;
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 12;
    h *= 0x297A2D39u;
    h ^= h >> 15;
    return h;
}

static double lattice(int x, int y, uint32_t seed, int period)
{
    if (period > 0) {
        x = ((x % period) + period) % period;
        y = ((y % period) + period) % period;
    }
    return (hash3(x, y, seed) >> 8) / 16777216.0;
}

/* Value noise in [0, 1), smooth; tileable with `period` lattice cells
 * (0: not tiled). */
static double vnoise(double x, double y, uint32_t seed, int period)
{
    int xi = (int)floor(x), yi = (int)floor(y);
    double fx = x - xi, fy = y - yi;
    double sx = fx * fx * (3 - 2 * fx), sy = fy * fy * (3 - 2 * fy);
    double a = lattice(xi, yi, seed, period), b = lattice(xi + 1, yi, seed, period);
    double c = lattice(xi, yi + 1, seed, period), d = lattice(xi + 1, yi + 1, seed, period);
    return mixd(mixd(a, b, sx), mixd(c, d, sx), sy);
}

static double fbm(double x, double y, uint32_t seed, int octaves, int period)
{
    double sum = 0, amp = 0.5, norm = 0;
    for (int o = 0; o < octaves; o++) {
        sum += amp * vnoise(x, y, seed + (uint32_t)o * 101u, period);
        norm += amp;
        amp *= 0.5;
        x *= 2;
        y *= 2;
        if (period > 0)
            period *= 2;
    }
    return sum / norm;
}

/* fbm over the stone tile with `cells` lattice cells across it: tiles. */
static double tfbm(double x, double y, int cells, uint32_t seed, int octaves)
{
    return fbm(x * cells / STONE, y * cells / STONE, seed, octaves, cells);
}

/* ---- the sky -------------------------------------------------------------------- */

/* A hill range's height (fraction of the picture from the top) at u. */
static double ridge(double u, uint32_t seed, double base, double amp, double freq)
{
    double n = fbm(u * freq, 0.5, seed, 5, 0);
    /* sharpen the peaks a little */
    return base - amp * pow(n, 1.4);
}

static Rgb sky_sample(double u, double v, double aspect)
{
    const Rgb zenith = {0.22, 0.45, 0.78}, horizon = {0.93, 0.90, 0.82};
    const Rgb mid = {0.50, 0.72, 0.92};
    Rgb c = v < 0.45 ? rgb_mix(zenith, mid, smoothstep(0.0, 0.45, v))
                     : rgb_mix(mid, horizon, smoothstep(0.45, 0.78, v));

    /* the sun low on the right, behind a veil */
    double sx = (u - 0.76) * aspect, sy = v - 0.30;
    double sd = sqrt(sx * sx + sy * sy);
    double glow = exp(-sd * 6.0) * 0.30 + exp(-sd * 26.0) * 0.30;
    double disc = smoothstep(0.036, 0.030, sd);
    c.r += glow * 1.00 + disc * 0.35;
    c.g += glow * 0.86 + disc * 0.30;
    c.b += glow * 0.55 + disc * 0.18;

    /* clouds: stretched fbm, thresholded softly, lit from the sun's side,
     * thinning towards the horizon */
    double cx = u * aspect * 3.2, cy = v * 9.0;
    double n = fbm(cx, cy, 77u, 6, 0);
    double band = smoothstep(0.02, 0.16, v) * (1.0 - smoothstep(0.40, 0.60, v));
    double cov = smoothstep(0.47, 0.68, n) * band;
    double shade = fbm(cx + 0.35, cy + 0.6, 77u, 6, 0); /* the same shape, offset: self shadow */
    double lit = clampd(0.6 + (n - shade) * 3.0, 0.0, 1.0);
    Rgb cloud = rgb_mix((Rgb){0.70, 0.77, 0.88}, (Rgb){1.0, 0.99, 0.97}, lit);
    cloud = rgb_mix(cloud, (Rgb){1.0, 0.93, 0.82}, glow * 0.6);
    c = rgb_mix(c, cloud, cov * 0.92);

    /* the far range: blue-grey mountains deep in haze, paler at their feet */
    double far = ridge(u * aspect, 5u, 0.70, 0.26, 3.0);
    if (v > far) {
        double t = clampd((v - 0.50) / 0.36, 0, 1); /* haze by altitude, not by the ridge */
        Rgb m = rgb_mix((Rgb){0.50, 0.58, 0.77}, (Rgb){0.72, 0.79, 0.89}, t);
        /* faint folds down the slopes */
        double fold = fbm(u * aspect * 9.0, v * 9.0, 17u, 4, 0);
        m.r *= 0.96 + 0.08 * fold;
        m.g *= 0.96 + 0.08 * fold;
        m.b *= 0.96 + 0.08 * fold;
        c = rgb_mix(c, m, smoothstep(far, far + 0.003, v));
    }
    /* the near range: rolling green hills, a bright rim on their crest */
    double near = ridge(u * aspect + 7.3, 9u, 0.90, 0.17, 1.1);
    if (v > near) {
        double t = clampd((v - near) / 0.18, 0, 1);
        double tex = fbm(u * aspect * 30.0, v * 30.0, 13u, 3, 0);
        Rgb hcol = rgb_mix((Rgb){0.36, 0.58, 0.44}, (Rgb){0.44, 0.62, 0.55}, t);
        hcol.r *= 0.94 + 0.12 * tex;
        hcol.g *= 0.94 + 0.12 * tex;
        hcol.b *= 0.94 + 0.12 * tex;
        hcol = rgb_mix(hcol, (Rgb){0.62, 0.78, 0.58}, smoothstep(0.006, 0.0, v - near) * 0.6);
        c = rgb_mix(c, hcol, smoothstep(near, near + 0.003, v));
    }
    /* haze settling at the bottom */
    c = rgb_mix(c, (Rgb){0.80, 0.86, 0.90}, smoothstep(0.80, 1.05, v) * 0.30);
    return c;
}

/* ---- the stone ---------------------------------------------------------------------- */

/*
 * Four rows of bricks per tile (16 px high), every other row shifted by
 * half a brick; bricks 32 px wide: every seam falls on whole cells of the
 * period, so the tile repeats seamlessly.
 */
static Rgb stone_sample(double x, double y)
{
    const double bw = 32.0, rh = 16.0, mortar = 1.4; /* block width, row height */
    int row = (int)floor(y / rh);
    double off = (row & 1) ? bw / 2 : 0;
    double bx = x + off;
    int col = (int)floor(bx / bw);
    double lx = bx - col * bw, ly = y - row * rh;
    /* the block's identity, wrapped to the tile so it tiles */
    int idc = ((col % 2) + 2) % 2 + 2 * (((row % 4) + 4) % 4);
    uint32_t hb = hash3(idc, 0, 4242u);
    double tint = (hb & 0xFF) / 255.0, tint2 = (hb >> 8 & 0xFF) / 255.0;
    /* distance to the block's edge, with a chipped, noisy outline */
    double chip = (tfbm(x, y, 16, 31u, 3) - 0.5) * 1.6;
    double edge = fmin(fmin(lx, bw - lx), fmin(ly, rh - ly)) + chip;
    double in = smoothstep(mortar - 0.6, mortar + 0.6, edge);

    Rgb base = rgb_mix((Rgb){0.40, 0.38, 0.35}, (Rgb){0.56, 0.51, 0.44}, tint);
    base = rgb_mix(base, (Rgb){0.42, 0.44, 0.47}, tint2 * 0.6);
    double grain = tfbm(x, y, 8, 7u, 4);
    double speck = tfbm(x, y, 32, 19u, 2);
    double k = 0.78 + 0.40 * grain + 0.10 * (speck - 0.5);
    /* moss creeping in at the bottoms of blocks */
    double moss = smoothstep(0.60, 0.80, tfbm(x, y, 11, 55u, 3)) *
                  smoothstep(rh * 0.5, rh - 2.0, ly) * 0.6;
    Rgb face = {base.r * k, base.g * k, base.b * k};
    face = rgb_mix(face, (Rgb){0.30, 0.40, 0.22}, moss);
    /* a bevel: lit top-left edges, shaded bottom-right */
    double bev = 3.0;
    double lt = smoothstep(mortar + bev, mortar, fmin(lx, ly) + chip);
    double dk = smoothstep(mortar + bev, mortar, fmin(bw - lx, rh - ly) + chip);
    double light = 1.0 + 0.28 * lt - 0.30 * dk;
    face.r *= light;
    face.g *= light;
    face.b *= light;
    Rgb mort = {0.16, 0.15, 0.14};
    double mn = tfbm(x, y, 21, 91u, 2);
    mort.r *= 0.8 + 0.4 * mn;
    mort.g *= 0.8 + 0.4 * mn;
    mort.b *= 0.8 + 0.4 * mn;
    return rgb_mix(mort, face, in);
}

/* ---- output ------------------------------------------------------------------------- */

static Uint8 to_byte(double v)
{
    return (Uint8)clampd(v * 255.0 + 0.5, 0, 255);
}

static void paint(SDL_Surface *surf, int stone)
{
    int w = surf->w, h = surf->h;
    double aspect = (double)w / h;
    for (int py = 0; py < h; py++) {
        Uint32 *row = (Uint32 *)((Uint8 *)surf->pixels + (size_t)py * (size_t)surf->pitch);
        for (int px = 0; px < w; px++) {
            Rgb acc = {0, 0, 0};
            for (int sy = 0; sy < SS; sy++)
                for (int sx = 0; sx < SS; sx++) {
                    double x = px + (sx + 0.5) / SS, y = py + (sy + 0.5) / SS;
                    Rgb c = stone ? stone_sample(fmod(x, STONE), fmod(y, STONE))
                                  : sky_sample(x / w, y / h, aspect);
                    acc.r += c.r;
                    acc.g += c.g;
                    acc.b += c.b;
                }
            double inv = 1.0 / (SS * SS);
            row[px] = SDL_MapRGB(surf->format, to_byte(acc.r * inv), to_byte(acc.g * inv),
                                 to_byte(acc.b * inv));
        }
    }
}

static int parse_side(const char *s, int *out)
{
    long long v;
    if (rpl_parse_int(s, MIN_SIDE, MAX_SIDE, &v) != RPL_OK)
        return 0;
    *out = (int)v;
    return 1;
}

static int make(const char *path, int w, int h, int stone)
{
    SDL_Surface *surf = SDL_CreateRGBSurfaceWithFormat(0, w, h, 32, SDL_PIXELFORMAT_RGB888);
    if (!surf) {
        fprintf(stderr, "mkside: cannot create a %dx%d surface: %s\n", w, h, SDL_GetError());
        return 0;
    }
    paint(surf, stone);
    int ok = tool_save_png(surf, path, "mkside");
    SDL_FreeSurface(surf);
    return ok;
}

int main(int argc, char **argv)
{
    int w = 640, h = 480;
    if ((argc != 3 && argc != 5) || argv[1][0] == '\0' || argv[2][0] == '\0') {
        fprintf(stderr, "usage: mkside SKY.png STONE.png [W H]  (the sky's size, default 640 480)\n");
        return 2;
    }
    if (argc == 5 && (!parse_side(argv[3], &w) || !parse_side(argv[4], &h))) {
        fprintf(stderr, "mkside: bad size '%s %s': W and H must be whole numbers from %d to %d\n",
                argv[3], argv[4], MIN_SIDE, MAX_SIDE);
        return 2;
    }
    SDL_SetMainReady();
    int ok = make(argv[1], w, h, 0) && make(argv[2], STONE, STONE, 1);
    IMG_Quit();
    SDL_Quit();
    return ok ? 0 : 1;
}
