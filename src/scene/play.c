/* scene/play.c - the side scene as every front end plays it: what a click drops, and the timedemo's drops, steps and CRC of its state and picture. */
#include <math.h>
#include <stdlib.h>

#include "core/base/dmath.h"
#include "ripple_support.h"
#include "scene/internal.h"

/* What a click drops, and how heavy it is against the water. */
static const struct {
    const char *name;
    side_shape shape;
    double density;
} kinds[SIDE_KINDS] = {
    { "crate", SIDE_CRATE, 0.5 },
    { "ball", SIDE_BALL, 0.35 },
    { "iron ball", SIDE_BALL, 3.0 },
};

const char *side_kind_name(int kind)
{
    return kind >= 0 && kind < SIDE_KINDS ? kinds[kind].name : "";
}

int side_scene_drop_kind(side_scene_t *s, double x, double y, int kind)
{
    if (kind < 0 || kind >= SIDE_KINDS)
        return -1;
    return side_scene_drop(s, x, y, kinds[kind].shape, kinds[kind].density, 1);
}

int side_scene_bench_steps(void)
{
    return (int)(1.0 / (SIDE_BENCH_HZ * SIDE_STEP) + 0.5);
}

/* The n-th body of the timedemo: over the big pool (three in four) or the
 * small basin, spread over its width by a fixed stride, let go from 5% to
 * 20% of the height, crates and balls in turn, light and heavy from a
 * fixed list; its size comes from the scene's own generator.  Worked out
 * under rpl_double_precision: at the x87's own 64 bits, where x comes
 * out a last bit off now and then, the body lands elsewhere a few hundred
 * frames on. */
struct bench_drop_call {
    side_scene_t *s;
    long n;
};

static void bench_drop_fn(void *arg)
{
    static const double density[] = { 0.45, 0.7, 0.35, 1.3, 0.55, 2.6, 0.9, 0.4 };
    const struct bench_drop_call *c = arg;
    side_scene_t *s = c->s;
    long n = c->n;
    side_stats_t st;
    side_scene_stats(s, &st);
    if (st.waters < 1) /* a failed scene */
        return;
    for (int i = st.bodies; i >= SIDE_BENCH_BODIES; i--)
        side_scene_remove(s, 0);
    int basin = n % 4 == 3 && st.waters > 1;
    const rpl_water_params_t *p = rpl_water_params(side_scene_water(s, basin));
    double across = ((double)((n * 37 + 11) % 64) + 0.5) / 64;
    double x = p->x0 + (RPL_D(0.08) + RPL_D(0.84) * across) * (p->x1 - p->x0);
    double y = s->h * (RPL_D(0.05) + RPL_D(0.01) * (double)((n * 23) % 16));
    side_scene_drop(s, x, y, n & 1 ? SIDE_BALL : SIDE_CRATE,
                    density[n % (long)(sizeof density / sizeof density[0])], 1);
}

static void bench_drop(side_scene_t *s, long n)
{
    struct bench_drop_call c = { s, n };
    rpl_double_precision(bench_drop_fn, &c);
}

void side_scene_bench_input(side_scene_t *s, long frame)
{
    if (frame >= 0 && frame % SIDE_BENCH_DROP_EVERY == 0)
        bench_drop(s, frame / SIDE_BENCH_DROP_EVERY);
}

void side_scene_bench_step(side_scene_t *s)
{
    for (int i = 0, n = side_scene_bench_steps(); i < n; i++)
        side_scene_step(s);
}

/* v rounded to a whole number of 1/q, as 4 bytes into the CRC.  The
 * state is doubles: rounded, a last-bit difference between two builds
 * would not show, yet a body a sixteenth of a pixel elsewhere does. */
static uint32_t crc_fixed(uint32_t crc, double v, double q)
{
    double r = isfinite(v) ? nearbyint(v * q) : 0;
    uint32_t u = (uint32_t)(int32_t)(r > 2147483647.0 ? 2147483647.0
                                     : r < -2147483648.0 ? -2147483648.0 : r);
    unsigned char b[4] = { (unsigned char)u, (unsigned char)(u >> 8), (unsigned char)(u >> 16),
                           (unsigned char)(u >> 24) };
    return rpl_crc32(crc, b, 4);
}

uint32_t side_scene_bench_crc(side_scene_t *s)
{
    side_stats_t st;
    side_scene_stats(s, &st);
    uint32_t crc = crc_fixed(0, st.bodies, 1);
    for (int k = 0; k < st.waters; k++) {
        const rpl_water_t *w = side_scene_water(s, k);
        const rpl_water_params_t *p = rpl_water_params(w);
        for (double x = ceil(p->x0); x <= p->x1; x += 1)
            crc = crc_fixed(crc, rpl_water_height(w, x), 16);
    }
    double x, y, angle, sub;
    for (int i = 0; side_scene_body(s, i, &x, &y, &angle, &sub) == 0; i++) {
        crc = crc_fixed(crc, x, 16);
        crc = crc_fixed(crc, y, 16);
        crc = crc_fixed(crc, angle, 1024);
    }
    return crc;
}

/* The picture as the timedemo's CRC takes it in: the scene drawn now in
 * XRGB8888, each pixel as a 32-bit little-endian integer (its top byte
 * 0xFF), row after row. */
uint32_t side_scene_bench_crc_picture(side_scene_t *s)
{
    uint32_t crc = side_scene_bench_crc(s);
    uint32_t *px = side_scene_picture(s);
    if (!px)
        return ~crc; /* no picture: never the CRC of one */
    unsigned char b[1024];
    size_t n = (size_t)s->w * (size_t)s->h, k = 0;
    for (size_t i = 0; i < n; i++) {
        for (int j = 0; j < 32; j += 8)
            b[k++] = (unsigned char)(px[i] >> j);
        if (k == sizeof b || i + 1 == n) {
            crc = rpl_crc32(crc, b, k);
            k = 0;
        }
    }
    free(px);
    return crc;
}
