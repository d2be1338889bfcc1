/* test_side_render.c - the side-view water renderer: refusals leave the framebuffer alone, a frame without water is the scene in every format, water only under its surface and within its columns, determinism, caustics that step at a fixed rate, droplets, frames drawn in parts (blocks, skipped copies) agreeing whatever came before, frames drawn over the last one the same bytes as whole ones (also the side scene with more moving than its lists hold), and the polygon and circle fills (cmocka). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/side/side_renderer.h"
#include "ripple.h"
#include "scene/scene.h"
#include "util.h"

#define W 96
#define H 64

/* A scene with smooth areas, hard edges and saturated pixels. */
static uint32_t *make_scene(uint64_t seed)
{
    uint32_t *px = random_bg(W, H, seed);
    for (int y = 0; y < H / 2; y++)
        for (int x = 0; x < W; x++)
            px[y * W + x] = 0xFF000000u | (uint32_t)(60 + y) << 16 | (uint32_t)(120 + x) << 8 | 220u;
    return px;
}

static int chan(uint32_t c, int shift)
{
    return (int)(c >> shift & 0xFF);
}

/* The largest channel difference between two colours. */
static int color_dist(uint32_t a, uint32_t b)
{
    int m = 0;
    for (int s = 0; s <= 16; s += 8) {
        int d = abs(chan(a, s) - chan(b, s));
        if (d > m)
            m = d;
    }
    return m;
}

/* RGB565 as ripple.h documents the backdrop's conversion, written here
 * from the formula. */
static uint16_t ref565(uint32_t c)
{
    unsigned r = c >> 16 & 0xFF, g = c >> 8 & 0xFF, b = c & 0xFF;
    return (uint16_t)(((r * 31 + 127) / 255) << 11 | ((g * 63 + 127) / 255) << 5 | ((b * 31 + 127) / 255));
}

static rpl_side_renderer_t *new_renderer(const uint32_t *art, rpl_format f)
{
    rpl_status st = RPL_ENOMEM;
    rpl_side_renderer_t *r;
    st = rpl_side_renderer_create(art, W, H, f, &r);
    assert_non_null(r);
    assert_int_equal(st, RPL_OK);
    return r;
}

/* ---- creating ------------------------------------------------------------ */

static void test_create_refusals(void **state)
{
    (void)state;
    uint32_t *art = make_scene(1);
    rpl_status st = RPL_OK;
    {
        rpl_side_renderer_t *f_ = NULL;
        st = rpl_side_renderer_create(art, 2, H, RPL_XRGB8888, &f_);
        assert_non_null(f_); /* a failed handle, which says why */
        assert_true(rpl_side_renderer_error(f_)[0] != '\0');
        rpl_side_renderer_destroy(f_);
    }
    assert_int_equal(st, RPL_EINVAL);
    st = RPL_OK;
    {
        rpl_side_renderer_t *f_ = NULL;
        st = rpl_side_renderer_create(art, W, RPL_DIM_MAX + 1, RPL_XRGB8888, &f_);
        assert_non_null(f_); /* a failed handle, which says why */
        assert_true(rpl_side_renderer_error(f_)[0] != '\0');
        rpl_side_renderer_destroy(f_);
    }
    assert_int_equal(st, RPL_EINVAL);
    st = RPL_OK;
    {
        rpl_side_renderer_t *f_ = NULL;
        st = rpl_side_renderer_create(art, W, H, (rpl_format)7, &f_);
        assert_non_null(f_); /* a failed handle, which says why */
        assert_true(rpl_side_renderer_error(f_)[0] != '\0');
        rpl_side_renderer_destroy(f_);
    }
    assert_int_equal(st, RPL_EINVAL);
    st = RPL_OK;
    /* INDEX8 needs the art for its palette */
    {
        rpl_side_renderer_t *f_ = NULL;
        st = rpl_side_renderer_create(NULL, W, H, RPL_INDEX8, &f_);
        assert_non_null(f_); /* a failed handle, which says why */
        assert_true(rpl_side_renderer_error(f_)[0] != '\0');
        rpl_side_renderer_destroy(f_);
    }
    assert_int_equal(st, RPL_EINVAL);
    assert_int_equal(rpl_side_renderer_create(NULL, W, H, RPL_INDEX8, NULL), RPL_EINVAL); /* NULL status is fine */

    /* getters on NULL and on formats without a palette */
    assert_non_null(rpl_side_renderer_error(NULL));
    assert_true(strlen(rpl_side_renderer_error(NULL)) > 0);
    assert_null(rpl_side_renderer_palette(NULL));
    rpl_side_renderer_destroy(NULL);
    rpl_side_renderer_t *r = new_renderer(NULL, RPL_RGB565); /* no art needed */
    assert_null(rpl_side_renderer_palette(r));
    assert_string_equal(rpl_side_renderer_error(r), "");
    rpl_side_renderer_destroy(r);
    free(art);
}

/* ---- refusing a frame -------------------------------------------------------- */

static void test_render_refusals(void **state)
{
    (void)state;
    uint32_t *scene = make_scene(2);
    rpl_side_renderer_t *r = new_renderer(scene, RPL_XRGB8888);
    size_t fbn = (size_t)W * H + 8;
    uint32_t *fb = xmalloc(fbn * 4), *keep = xmalloc(fbn * 4);
    memset(fb, 0xAB, fbn * 4);
    memcpy(keep, fb, fbn * 4);
    float surf[W + 2];
    for (int i = 0; i < W + 2; i++)
        surf[i] = 20.5f;
    rpl_side_water_t ok = {0, W, surf, 50.0f, 1};
    rpl_droplet_t drop = {10, 10, 0, 0, 0, 1, 2};
    const ptrdiff_t sp = W * 4;

    assert_int_equal(rpl_side_render(NULL, scene, sp, &ok, 1, &drop, 1, 0, fb, sp), RPL_EINVAL);

#define REFUSED(...)                                                         \
    do {                                                                     \
        assert_int_equal(rpl_side_render(r, __VA_ARGS__), RPL_EINVAL);       \
        assert_true(strlen(rpl_side_renderer_error(r)) > 0);                 \
        assert_null(strchr(rpl_side_renderer_error(r), '\n'));               \
        assert_memory_equal(fb, keep, fbn * 4);                              \
    } while (0)

    REFUSED(NULL, sp, &ok, 1, &drop, 1, 0, fb, sp);
    REFUSED(scene, sp, &ok, 1, &drop, 1, 0, NULL, sp);
    REFUSED(scene, sp - 4, &ok, 1, &drop, 1, 0, fb, sp);     /* scene pitch too small */
    REFUSED(scene, sp + 2, &ok, 1, &drop, 1, 0, fb, sp);     /* not a whole pixel */
    REFUSED(scene, sp, &ok, 1, &drop, 1, 0, fb, sp - 4);     /* fb pitch too small */
    REFUSED(scene, sp, &ok, 1, &drop, 1, 0, fb, sp + 1);     /* misaligned */
    REFUSED(scene, sp, &ok, 1, &drop, 1, 0, fb, 0);
    REFUSED(scene, sp, &ok, 1, &drop, 1, 0, fb, -sp);
    REFUSED(scene, sp, &ok, 1, &drop, 1, 0, (char *)fb + 1, sp); /* fb not aligned */
    REFUSED(scene, sp, &ok, -1, &drop, 1, 0, fb, sp);
    REFUSED(scene, sp, NULL, 1, &drop, 1, 0, fb, sp);
    REFUSED(scene, sp, &ok, 1, &drop, -1, 0, fb, sp);
    REFUSED(scene, sp, &ok, 1, NULL, 1, 0, fb, sp);
    REFUSED(scene, sp, &ok, 1, &drop, 1, NAN, fb, sp);
    REFUSED(scene, sp, &ok, 1, &drop, 1, INFINITY, fb, sp);

    rpl_side_water_t bad = ok;
    bad.x1 = bad.x0 - 1;
    REFUSED(scene, sp, &bad, 1, NULL, 0, 0, fb, sp);
    bad = ok;
    bad.surface = NULL;
    REFUSED(scene, sp, &bad, 1, NULL, 0, 0, fb, sp);
    bad = ok;
    bad.bottom = NAN;
    REFUSED(scene, sp, &bad, 1, NULL, 0, 0, fb, sp);
    /* a second body is checked as well as the first */
    rpl_side_water_t two[2] = {ok, ok};
    surf[40] = NAN;
    two[1].x0 = 30;
    two[1].x1 = 50;
    REFUSED(scene, sp, two, 2, NULL, 0, 0, fb, sp);
    surf[40] = INFINITY;
    REFUSED(scene, sp, &ok, 1, NULL, 0, 0, fb, sp);
    surf[40] = 20.5f;
    rpl_droplet_t bd = drop;
    bd.y = NAN;
    REFUSED(scene, sp, &ok, 1, &bd, 1, 0, fb, sp);
    bd = drop;
    bd.life = INFINITY;
    REFUSED(scene, sp, &ok, 1, &bd, 1, 0, fb, sp);
#undef REFUSED

    /* and a good frame after all that */
    assert_int_equal(rpl_side_render(r, scene, sp, &ok, 1, &drop, 1, 0, fb, sp), RPL_OK);
    assert_string_equal(rpl_side_renderer_error(r), "");
    rpl_side_renderer_destroy(r);
    free(fb);
    free(keep);
    free(scene);
}

/* ---- no water: the scene ---------------------------------------------------------- */

static void test_no_water_is_scene(void **state)
{
    (void)state;
    uint32_t *scene = make_scene(3);
    /* padded rows on both sides: the padding must stay as it was */
    const int pad = 5;
    ptrdiff_t spitch = (W + 3) * 4;
    uint32_t *sc = xmalloc((size_t)spitch * H);
    memset(sc, 0x5A, (size_t)spitch * H);
    for (int y = 0; y < H; y++)
        memcpy((char *)sc + y * spitch, scene + y * W, W * 4);

    /* XRGB8888: exactly the scene, top bytes included */
    rpl_side_renderer_t *r = new_renderer(scene, RPL_XRGB8888);
    ptrdiff_t p4 = (W + pad) * 4;
    uint32_t *fb = xmalloc((size_t)p4 * H);
    memset(fb, 0xCD, (size_t)p4 * H);
    assert_int_equal(rpl_side_render(r, sc, spitch, NULL, 0, NULL, 0, 3.5, fb, p4), RPL_OK);
    for (int y = 0; y < H; y++) {
        const uint32_t *row = (const uint32_t *)(const void *)((const char *)fb + y * p4);
        assert_memory_equal(row, scene + y * W, W * 4);
        for (int x = W; x < W + pad; x++)
            assert_int_equal(row[x], 0xCDCDCDCDu);
    }
    rpl_side_renderer_destroy(r);

    /* RGB565: the documented conversion of each pixel */
    r = new_renderer(scene, RPL_RGB565);
    ptrdiff_t p2 = (W + pad) * 2;
    uint16_t *fb2 = xmalloc((size_t)p2 * H);
    memset(fb2, 0xCD, (size_t)p2 * H);
    assert_int_equal(rpl_side_render(r, sc, spitch, NULL, 0, NULL, 0, 0, fb2, p2), RPL_OK);
    for (int y = 0; y < H; y++) {
        const uint16_t *row = (const uint16_t *)(const void *)((const char *)fb2 + y * p2);
        for (int x = 0; x < W; x++)
            assert_int_equal(row[x], ref565(scene[y * W + x]));
        for (int x = W; x < W + pad; x++)
            assert_int_equal(row[x], 0xCDCD);
    }
    /* the formula at the ends and in between, by hand: 255 -> 31/63/31,
     * 0 -> 0, 128 -> (128*31+127)/255 = 16 and (128*63+127)/255 = 32 */
    assert_int_equal(ref565(0xFFFFFF), 0xFFFF);
    assert_int_equal(ref565(0x808080), 16 << 11 | 32 << 5 | 16);
    rpl_side_renderer_destroy(r);
    free(fb2);
    free(fb);
    free(sc);
    free(scene);
}

/* INDEX8: indices through the palette come close to the XRGB8888 frame,
 * for the art's own colours and for the water's. */
static void test_index8_palette(void **state)
{
    (void)state;
    /* art of a few flat colours plus a smooth sky */
    uint32_t *art = xmalloc((size_t)W * H * 4);
    static const uint32_t flat[4] = {0xFF8A5A2Cu, 0xFF3C3C44u, 0xFF5FA040u, 0xFFE04A3Au};
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            art[y * W + x] = y < H / 2 ? 0xFF000000u | (uint32_t)(90 + y * 2) << 16 |
                                             (uint32_t)(150 + y) << 8 | 235u
                                       : flat[(x / 24) % 4];
    rpl_side_renderer_t *rx = new_renderer(art, RPL_XRGB8888);
    rpl_side_renderer_t *ri = new_renderer(art, RPL_INDEX8);
    const uint32_t *pal = rpl_side_renderer_palette(ri);
    assert_non_null(pal);
    uint32_t *fx = xmalloc((size_t)W * H * 4);
    uint8_t *fi = xmalloc((size_t)W * H);

    /* no water: each pixel is the art; the palette's entry within a small
     * distance (a cell of the 5-bit cube is 8 levels wide, so up to 4
     * levels off its centre, plus the median cut's own error) */
    assert_int_equal(rpl_side_render(ri, art, W * 4, NULL, 0, NULL, 0, 0, fi, W), RPL_OK);
    int worst = 0;
    for (int i = 0; i < W * H; i++) {
        int d = color_dist(pal[fi[i]], art[i]);
        if (d > worst)
            worst = d;
    }
    assert_true(worst <= 12);
    /* the flat colours, which fill big areas, come out nearly exact */
    for (int k = 0; k < 4; k++)
        assert_true(color_dist(pal[fi[(H - 1) * W + k * 24]], flat[k]) <= 6);

    /* with water and droplets: the same frame as XRGB8888 within a bound */
    float surf[W];
    for (int x = 0; x < W; x++)
        surf[x] = (float)(28.0 + 3.0 * sin(x * 0.3));
    rpl_side_water_t wb = {0, W, surf, (float)H, 1};
    rpl_droplet_t dr[2] = {{20, 12, 0, 0, 0.1f, 1, 2}, {60, 18, 0, 0, 0.5f, 1, 1.5f}};
    assert_int_equal(rpl_side_render(rx, art, W * 4, &wb, 1, dr, 2, 1.25, fx, W * 4), RPL_OK);
    assert_int_equal(rpl_side_render(ri, art, W * 4, &wb, 1, dr, 2, 1.25, fi, W), RPL_OK);
    worst = 0;
    long sum = 0;
    for (int i = 0; i < W * H; i++) {
        int d = color_dist(pal[fi[i]], fx[i]);
        sum += d;
        if (d > worst)
            worst = d;
    }
    assert_true(worst <= 40);
    assert_true(sum <= 8L * W * H); /* on average within 8 levels */
    /* the palette's top bytes are 0xFF, like the backdrop's */
    for (int i = 0; i < 256; i++)
        assert_int_equal(pal[i] >> 24, 0xFF);
    free(fx);
    free(fi);
    free(art);
    rpl_side_renderer_destroy(rx);
    rpl_side_renderer_destroy(ri);
}

/* ---- where the water goes ------------------------------------------------------ */

static void test_water_region(void **state)
{
    (void)state;
    uint32_t *scene = make_scene(4);
    rpl_side_renderer_t *r = new_renderer(scene, RPL_XRGB8888);
    uint32_t *fb = xmalloc((size_t)W * H * 4);
    const int x0 = 17, x1 = 71;
    /* room past the body's end holding a surface too: drawing a column
     * too many would show */
    float surf[71 - 17 + 4];
    for (int x = x0; x < x1 + 4; x++)
        surf[x - x0] = (float)(24.3 + 6.0 * sin(x * 0.25));
    const float bottom = 55.0f;
    rpl_side_water_t wb = {x0, x1, surf, bottom, 1};
    assert_int_equal(rpl_side_render(r, scene, W * 4, &wb, 1, NULL, 0, 0.75, fb, W * 4), RPL_OK);
    int changed = 0, under = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int in_cols = x >= x0 && x < x1;
            /* the first row touched is the one holding the surface */
            int in_rows = in_cols && y >= (int)floor(surf[x - x0]) && y < 55;
            if (!in_rows)
                assert_int_equal(fb[y * W + x], scene[y * W + x]);
            else {
                under++;
                changed += fb[y * W + x] != scene[y * W + x];
            }
        }
    /* nearly every pixel under water is tinted */
    assert_true(changed >= under * 95 / 100);

    /* bodies reaching out of the frame are clipped, not read or written
     * outside: a body from -40 to W + 40 (its surface array that long) */
    float wide[W + 80];
    for (int i = 0; i < W + 80; i++)
        wide[i] = 40.0f;
    rpl_side_water_t out[3] = {
        {-40, W + 40, wide, 1e9f, 1},      /* the floor far below: to the frame's end */
        {-1000000, -10, wide, 60.0f, 1},  /* wholly left, surface array never read */
        {W + 5, 2000000000, wide, 60.0f, 0},
    };
    assert_int_equal(rpl_side_render(r, scene, W * 4, out, 3, NULL, 0, 0, fb, W * 4), RPL_OK);
    for (int y = 0; y < 40; y++)
        assert_memory_equal(fb + y * W, scene + y * W, W * 4);
    for (int x = 0; x < W; x++)
        assert_true(fb[(H - 1) * W + x] != scene[(H - 1) * W + x] ||
                    fb[(H - 2) * W + x] != scene[(H - 2) * W + x]);
    /* a surface under the floor, or a body with no columns: nothing */
    rpl_side_water_t dry[2] = {{10, 20, wide, 30.0f, 1}, {50, 50, NULL, 30.0f, 1}};
    assert_int_equal(rpl_side_render(r, scene, W * 4, dry, 2, NULL, 0, 0, fb, W * 4), RPL_OK);
    assert_memory_equal(fb, scene, (size_t)W * H * 4);
    /* huge but finite values are safe */
    float huge[W];
    for (int x = 0; x < W; x++)
        huge[x] = (x & 1) ? -3e38f : 3e38f;
    rpl_side_water_t hb = {0, W, huge, 3e38f, 1};
    assert_int_equal(rpl_side_render(r, scene, W * 4, &hb, 1, NULL, 0, 1e300, fb, W * 4), RPL_OK);
    free(fb);
    free(scene);
    rpl_side_renderer_destroy(r);
}

static void test_deterministic(void **state)
{
    (void)state;
    uint32_t *scene = make_scene(5);
    float surf[W];
    for (int x = 0; x < W; x++)
        surf[x] = (float)(30.0 + 4.0 * cos(x * 0.2));
    rpl_side_water_t wb = {0, W, surf, 60.0f, 1};
    rpl_droplet_t dr[3] = {{5, 5, 0, 0, 0, 1, 2}, {50, 20, 1, 1, 0.3f, 0.6f, 3}, {90, 28, 0, 0, 0, 0, 1}};
    for (int f = 0; f < 3; f++) {
        rpl_format fmt = all_formats[f];
        size_t n = (size_t)W * H * (size_t)rpl_format_bytes(fmt);
        rpl_side_renderer_t *a = new_renderer(scene, fmt), *b = new_renderer(scene, fmt);
        unsigned char *fa = xmalloc(n), *fb = xmalloc(n), *fc = xmalloc(n);
        ptrdiff_t pitch = W * rpl_format_bytes(fmt);
        assert_int_equal(rpl_side_render(a, scene, W * 4, &wb, 1, dr, 3, 2.5, fa, pitch), RPL_OK);
        /* another frame between: nothing is carried over */
        assert_int_equal(rpl_side_render(a, scene, W * 4, &wb, 1, dr, 3, 9.0, fc, pitch), RPL_OK);
        assert_int_equal(rpl_side_render(a, scene, W * 4, &wb, 1, dr, 3, 2.5, fb, pitch), RPL_OK);
        assert_memory_equal(fa, fb, n);
        assert_int_equal(rpl_side_render(b, scene, W * 4, &wb, 1, dr, 3, 2.5, fb, pitch), RPL_OK);
        assert_memory_equal(fa, fb, n);
        /* the caustics move with time */
        assert_true(memcmp(fa, fc, n) != 0);
        free(fa);
        free(fb);
        free(fc);
        rpl_side_renderer_destroy(a);
        rpl_side_renderer_destroy(b);
    }
    /* the formats agree: RGB565 is the XRGB8888 frame converted */
    rpl_side_renderer_t *rx = new_renderer(scene, RPL_XRGB8888), *r5 = new_renderer(scene, RPL_RGB565);
    uint32_t *fx = xmalloc((size_t)W * H * 4);
    uint16_t *f5 = xmalloc((size_t)W * H * 2);
    assert_int_equal(rpl_side_render(rx, scene, W * 4, &wb, 1, dr, 3, 4.0, fx, W * 4), RPL_OK);
    assert_int_equal(rpl_side_render(r5, scene, W * 4, &wb, 1, dr, 3, 4.0, f5, W * 2), RPL_OK);
    for (int i = 0; i < W * H; i++)
        assert_int_equal(f5[i], ref565(fx[i]));
    free(fx);
    free(f5);
    rpl_side_renderer_destroy(rx);
    rpl_side_renderer_destroy(r5);
    free(scene);
}

/* The caustics step 20 times a second, not with every frame: two times
 * within a step draw the same bytes, the next step other ones; a time on
 * a step's boundary reached as a sum of frame times is on that step; and
 * after 128 s the loop and its drift start again. */
static void test_caustic_steps(void **state)
{
    (void)state;
    uint32_t *scene = make_scene(9);
    float surf[W];
    for (int x = 0; x < W; x++)
        surf[x] = 12.0f;
    rpl_side_water_t wb = {0, W, surf, 62.0f, 0};
    rpl_side_renderer_t *r = new_renderer(scene, RPL_XRGB8888);
    const size_t n = (size_t)W * H;
    uint32_t *f0 = xmalloc(n * 4), *f1 = xmalloc(n * 4);
    assert_int_equal(rpl_side_render(r, scene, W * 4, &wb, 1, NULL, 0, 2.50, f0, W * 4), RPL_OK);
    assert_int_equal(rpl_side_render(r, scene, W * 4, &wb, 1, NULL, 0, 2.549, f1, W * 4), RPL_OK);
    assert_memory_equal(f0, f1, n * 4);
    assert_int_equal(rpl_side_render(r, scene, W * 4, &wb, 1, NULL, 0, 2.551, f1, W * 4), RPL_OK);
    assert_true(memcmp(f0, f1, n * 4) != 0);
    assert_int_equal(rpl_side_render(r, scene, W * 4, &wb, 1, NULL, 0, 130.50, f1, W * 4), RPL_OK);
    assert_memory_equal(f0, f1, n * 4);
    assert_int_equal(rpl_side_render(r, scene, W * 4, &wb, 1, NULL, 0, -125.50, f1, W * 4), RPL_OK);
    assert_memory_equal(f0, f1, n * 4);
    double t = 0;
    for (int i = 0; i < 6; i++)
        t += 1.0 / 120;
    assert_int_equal(rpl_side_render(r, scene, W * 4, &wb, 1, NULL, 0, t, f0, W * 4), RPL_OK);
    assert_int_equal(rpl_side_render(r, scene, W * 4, &wb, 1, NULL, 0, 0.06, f1, W * 4), RPL_OK);
    assert_memory_equal(f0, f1, n * 4);
    assert_int_equal(rpl_side_render(r, scene, W * 4, &wb, 1, NULL, 0, 0.049, f1, W * 4), RPL_OK);
    assert_true(memcmp(f0, f1, n * 4) != 0);
    free(f0);
    free(f1);
    free(scene);
    rpl_side_renderer_destroy(r);
}

/* rpl_side_renderer_bake makes the caustics' whole loop at once (every
 * frame of it marked made), and the frames drawn after it are the bytes
 * of a renderer that bakes each loop frame as it first shows it, over a
 * whole loop and then some; NULL and a failed renderer are no-ops. */
static void test_bake_whole_loop(void **state)
{
    (void)state;
    rpl_side_renderer_bake(NULL);
    rpl_side_renderer_t *bad = NULL;
    assert_int_not_equal(rpl_side_renderer_create(NULL, 0, 0, RPL_XRGB8888, &bad), RPL_OK);
    rpl_side_renderer_bake(bad);
    rpl_side_renderer_destroy(bad);
    uint32_t *scene = make_scene(13);
    float surf[W];
    for (int x = 0; x < W; x++)
        surf[x] = (float)(20.0 + 3.0 * sin(x * 0.3));
    rpl_side_water_t wb = {0, W, surf, 60.0f, 1};
    rpl_side_renderer_t *a = new_renderer(scene, RPL_XRGB8888), *b = new_renderer(scene, RPL_XRGB8888);
    for (int k = 0; k < CAUS_FRAMES; k++)
        assert_int_equal(a->baked[k], 0);
    rpl_side_renderer_bake(a);
    for (int k = 0; k < CAUS_FRAMES; k++)
        assert_int_equal(a->baked[k], 1);
    const size_t n = (size_t)W * H;
    uint32_t *fa = xmalloc(n * 4), *fb = xmalloc(n * 4);
    for (int i = 0; i < CAUS_FRAMES + 8; i++) {
        double t = 0.01 + i / (double)CAUS_RATE;
        assert_int_equal(rpl_side_render(a, scene, W * 4, &wb, 1, NULL, 0, t, fa, W * 4), RPL_OK);
        assert_int_equal(rpl_side_render(b, scene, W * 4, &wb, 1, NULL, 0, t, fb, W * 4), RPL_OK);
        assert_memory_equal(fa, fb, n * 4);
    }
    for (int k = 0; k < CAUS_FRAMES; k++) /* and the lazy one has made them all by now */
        assert_int_equal(b->baked[k], 1);
    free(fa);
    free(fb);
    free(scene);
    rpl_side_renderer_destroy(a);
    rpl_side_renderer_destroy(b);
}

/* Every kernel path this machine has draws a frame (foam, shallow and
 * deep water, a dry column, droplets, in each format) to the same bytes
 * as the scalar one; a renderer refuses no table. */
static void test_paths_same_frame(void **state)
{
    (void)state;
    uint32_t *scene = make_scene(31);
    float surf[W];
    for (int x = 0; x < W; x++)
        surf[x] = (float)(14.0 + 5.0 * sin(x * 0.21) + 2.0 * cos(x * 0.57));
    surf[W - 3] = 1000.0f;
    /* the first body wholly wet (its deep rows by the deep kernel), the
     * second with a dry column */
    rpl_side_water_t wb[2] = {{0, 60, surf, 63.0f, 1}, {60, W, surf + 60, 63.0f, 1}};
    rpl_droplet_t dr[2] = {{30.5f, 8.0f, 0, 0, 0.2f, 1, 2.5f}, {70.2f, 20.7f, 0, 0, 0, 1, 3}};
    const rpl_kernels_t *c = rpl_kernels_get("c");
    assert_non_null(c);
    for (int f = 0; f < 3; f++) {
        rpl_format fmt = all_formats[f];
        size_t n = (size_t)W * H * (size_t)rpl_format_bytes(fmt);
        ptrdiff_t pitch = W * rpl_format_bytes(fmt);
        unsigned char *want = xmalloc(n), *got = xmalloc(n);
        rpl_side_renderer_t *r = new_renderer(scene, fmt);
        assert_int_equal(rpl_side_renderer_set_kernels(r, NULL), RPL_EINVAL);
        assert_int_equal(rpl_side_renderer_set_kernels(NULL, c), RPL_EINVAL);
        assert_int_equal(rpl_side_renderer_set_kernels(r, c), RPL_OK);
        assert_int_equal(rpl_side_render(r, scene, W * 4, wb, 2, dr, 2, 5.3, want, pitch), RPL_OK);
        for (int p = 0; rpl_kernels_known(p); p++) {
            const rpl_kernels_t *k = rpl_kernels_get(rpl_kernels_known(p));
            if (!k)
                continue;
            assert_int_equal(rpl_side_renderer_set_kernels(r, k), RPL_OK);
            memset(got, 0x5A, n);
            assert_int_equal(rpl_side_render(r, scene, W * 4, wb, 2, dr, 2, 5.3, got, pitch), RPL_OK);
            assert_memory_equal(got, want, n);
        }
        rpl_side_renderer_destroy(r);
        free(want);
        free(got);
    }
    free(scene);
}

static void test_droplets(void **state)
{
    (void)state;
    uint32_t *scene = make_scene(6);
    rpl_side_renderer_t *r = new_renderer(scene, RPL_XRGB8888);
    uint32_t *fb = xmalloc((size_t)W * H * 4);
    /* a live droplet of radius 3 at (40.5, 10.5) brightens its centre and
     * leaves pixels 6 away alone; a dead one (age = life) draws nothing;
     * one far outside the frame neither */
    rpl_droplet_t dr[3] = {{40.5f, 10.5f, 0, 0, 0, 1, 3}, {70.5f, 10.5f, 0, 0, 1, 1, 3},
                           {-500, 1e6f, 0, 0, 0, 1, 3}};
    assert_int_equal(rpl_side_render(r, scene, W * 4, NULL, 0, dr, 3, 0, fb, W * 4), RPL_OK);
    uint32_t c = fb[10 * W + 40], s = scene[10 * W + 40];
    assert_true(chan(c, 0) + chan(c, 8) + chan(c, 16) > chan(s, 0) + chan(s, 8) + chan(s, 16));
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            double dx = x + 0.5 - 40.5, dy = y + 0.5 - 10.5;
            if (dx * dx + dy * dy > 5.0 * 5.0)
                assert_int_equal(fb[y * W + x], scene[y * W + x]);
        }
    free(fb);
    free(scene);
    rpl_side_renderer_destroy(r);
}

/* ---- frames made in parts -------------------------------------------------------- */

/* The renderer draws the water in blocks, deep rows apart from those
 * near the surface, and copies or converts the scene only where no water
 * will cover it.  Whatever the parts: a frame does not depend on what
 * the framebuffer held before nor on the frame drawn before; the scene
 * shows unchanged wherever neither water nor a droplet is; RGB565 is the
 * XRGB8888 frame converted and INDEX8 maps equal colours to equal
 * indices.  Bodies here: one wider than the frame with deep rows, one
 * overlapping it, one with a dry column, one so steep that its surface
 * lies far off its mean. */
#define FW 200
#define FH 160

typedef struct frame_case {
    float s0[FW + 20], s1[60], s2[40], s3[50];
    rpl_side_water_t wb[4];
    rpl_droplet_t dr[4];
} frame_case_t;

static void make_case(frame_case_t *fc, double phase)
{
    for (int i = 0; i < FW + 20; i++)
        fc->s0[i] = (float)(40.0 + 3.0 * sin((i - 10) * 0.2 + phase) + 1.5 * sin((i - 10) * 0.77));
    for (int i = 0; i < 60; i++)
        fc->s1[i] = (float)(70.0 + 2.0 * cos((120 + i) * 0.3 + phase));
    for (int i = 0; i < 40; i++)
        fc->s2[i] = i == 10 ? 200.0f : (float)(20.0 + 4.0 * sin(i * 0.5));
    for (int i = 0; i < 50; i++)
        fc->s3[i] = (float)(10.0 + 1.5 * i);
    fc->wb[0] = (rpl_side_water_t){-10, FW + 10, fc->s0, 150.0f, 1};
    fc->wb[1] = (rpl_side_water_t){120, 180, fc->s1, 130.0f, 1};
    fc->wb[2] = (rpl_side_water_t){20, 60, fc->s2, 100.0f, 1};
    fc->wb[3] = (rpl_side_water_t){60, 110, fc->s3, 159.0f, 1};
    fc->dr[0] = (rpl_droplet_t){50.5f, 38.0f, 0, 0, 0.1f, 1, 2};
    fc->dr[1] = (rpl_droplet_t){1.0f, 150.0f, 0, 0, 0, 1, 3};
    fc->dr[2] = (rpl_droplet_t){199.0f, 5.0f, 0, 0, 0.2f, 1, 2.5f};
    fc->dr[3] = (rpl_droplet_t){140.0f, 100.0f, 0, 0, 0.5f, 1, 1.5f};
}

/* Is (x, y) under some body's surface, or near a droplet? */
static int touched(const frame_case_t *fc, int x, int y)
{
    for (int k = 0; k < 4; k++) {
        const rpl_side_water_t *b = &fc->wb[k];
        if (x >= b->x0 && x < b->x1 && y >= (int)floor(b->surface[x - b->x0]) && y < b->bottom)
            return 1;
    }
    for (int k = 0; k < 4; k++) {
        double dx = x + 0.5 - fc->dr[k].x, dy = y + 0.5 - fc->dr[k].y, r = fc->dr[k].size + 2;
        if (dx * dx + dy * dy <= r * r)
            return 1;
    }
    return 0;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void test_frame_parts(void **state)
{
    (void)state;
    uint32_t *scene = random_bg(FW, FH, 11);
    frame_case_t *a = xmalloc(sizeof *a), *b = xmalloc(sizeof *b);
    make_case(a, 0.0);
    make_case(b, 2.0);
    b->wb[0].x0 = 0; /* another frame: fewer bodies, elsewhere */
    b->wb[0].x1 = FW;
    const int pad = 3;
    uint32_t *fx = NULL;
    for (int f = 0; f < 3; f++) {
        rpl_format fmt = all_formats[f];
        int bytes = rpl_format_bytes(fmt);
        ptrdiff_t pitch = (ptrdiff_t)(FW + pad) * bytes;
        size_t n = (size_t)pitch * FH;
        unsigned char *f0 = xmalloc(n), *f1 = xmalloc(n), *f2 = xmalloc(n);
        rpl_status st = RPL_ENOMEM;
        rpl_side_renderer_t *r;
        st = rpl_side_renderer_create(scene, FW, FH, fmt, &r);
        assert_int_equal(st, RPL_OK);
        rpl_side_renderer_t *r2;
        st = rpl_side_renderer_create(scene, FW, FH, fmt, &r2);
        assert_int_equal(st, RPL_OK);
        assert_non_null(r);
        assert_non_null(r2);
        memset(f0, 0x00, n);
        memset(f1, 0xFF, n);
        assert_int_equal(rpl_side_render(r, scene, FW * 4, a->wb, 4, a->dr, 4, 1.5, f0, pitch), RPL_OK);
        assert_int_equal(rpl_side_render(r, scene, FW * 4, b->wb, 2, b->dr, 1, 7.0, f2, pitch), RPL_OK);
        assert_int_equal(rpl_side_render(r, scene, FW * 4, a->wb, 4, a->dr, 4, 1.5, f1, pitch), RPL_OK);
        memset(f2, 0x5A, n);
        assert_int_equal(rpl_side_render(r2, scene, FW * 4, a->wb, 4, a->dr, 4, 1.5, f2, pitch), RPL_OK);
        for (int y = 0; y < FH; y++) {
            const unsigned char *r0 = f0 + y * pitch, *r1 = f1 + y * pitch, *rr = f2 + y * pitch;
            assert_memory_equal(r0, r1, (size_t)FW * bytes);
            assert_memory_equal(r0, rr, (size_t)FW * bytes);
            for (int i = FW * bytes; i < (FW + pad) * bytes; i++) {
                /* the padding is never written */
                assert_int_equal(r0[i], 0x00);
                assert_int_equal(r1[i], 0xFF);
                assert_int_equal(rr[i], 0x5A);
            }
        }
        if (fmt == RPL_XRGB8888) {
            fx = xmalloc((size_t)FW * FH * 4);
            int water = 0;
            for (int y = 0; y < FH; y++)
                for (int x = 0; x < FW; x++) {
                    uint32_t c = ((const uint32_t *)(const void *)(f0 + y * pitch))[x];
                    fx[y * FW + x] = c;
                    if (!touched(a, x, y))
                        assert_int_equal(c, scene[y * FW + x]);
                    else if (c != scene[y * FW + x])
                        water++;
                }
            assert_true(water > FW * FH / 2); /* most of the frame is water */
        } else if (fmt == RPL_RGB565) {
            for (int y = 0; y < FH; y++)
                for (int x = 0; x < FW; x++)
                    assert_int_equal(((const uint16_t *)(const void *)(f0 + y * pitch))[x],
                                     ref565(fx[y * FW + x]));
        } else {
            /* the index is a function of the colour: sorted by colour,
             * equal colours sit side by side with equal indices */
            uint64_t *ci = xmalloc((size_t)FW * FH * sizeof *ci);
            for (int y = 0; y < FH; y++)
                for (int x = 0; x < FW; x++)
                    ci[y * FW + x] = (uint64_t)(fx[y * FW + x] & 0xFFFFFFu) << 8 | f0[y * pitch + x];
            qsort(ci, (size_t)FW * FH, sizeof *ci, cmp_u64);
            for (int i = 1; i < FW * FH; i++)
                if (ci[i] >> 8 == ci[i - 1] >> 8)
                    assert_int_equal(ci[i] & 0xFF, ci[i - 1] & 0xFF);
            free(ci);
        }
        rpl_side_renderer_destroy(r);
        rpl_side_renderer_destroy(r2);
        free(f0);
        free(f1);
        free(f2);
    }
    free(fx);
    free(a);
    free(b);
    free(scene);
}

/* Where the blocks fall does not change a pixel.  A wavy body whose
 * surface stays within one pixel row (so its mean level and the top of
 * its gradient stay put), drawn from column 0, then from column 3 and 5
 * on, and then with its last column dry (which makes the renderer take
 * its general path on every row): on the columns whose slopes are the
 * same in both (four from a body's end), every pixel agrees, though the
 * blocks of 16 pixels, the pixels done one by one, the columns near the
 * frame's side and the rows drawn as deep water fall differently: near
 * the surface (foam, darkening of the slope), a little deeper (the
 * refraction's weight varying with depth) and deep down. */
static void test_blocks_agree(void **state)
{
    (void)state;
    uint32_t *scene = random_bg(FW, FH, 12);
    float wavy[100], dry[100];
    for (int i = 0; i < 100; i++)
        wavy[i] = dry[i] = (float)(40.45 + 0.45 * sin(i * 0.3));
    dry[99] = 1000.0f;
    uint32_t *fa = xmalloc((size_t)FW * FH * 4), *fb = xmalloc((size_t)FW * FH * 4);
    rpl_status st = RPL_ENOMEM;
    rpl_side_renderer_t *r;
    st = rpl_side_renderer_create(scene, FW, FH, RPL_XRGB8888, &r);
    assert_int_equal(st, RPL_OK);
    rpl_side_water_t wa = {0, 100, wavy, 150.0f, 1};
    assert_int_equal(rpl_side_render(r, scene, FW * 4, &wa, 1, NULL, 0, 3.25, fa, FW * 4), RPL_OK);
    for (int from = 3; from <= 5; from += 2) {
        rpl_side_water_t wb = {from, 100, wavy + from, 150.0f, 1};
        assert_int_equal(rpl_side_render(r, scene, FW * 4, &wb, 1, NULL, 0, 3.25, fb, FW * 4), RPL_OK);
        for (int y = 0; y < FH; y++) {
            assert_memory_equal(fa + y * FW + from + 4, fb + y * FW + from + 4,
                                (size_t)(100 - from - 4) * 4);
            assert_memory_equal(fb + y * FW, scene + y * FW, (size_t)from * 4);
        }
    }
    rpl_side_water_t wc = {0, 100, dry, 150.0f, 1};
    assert_int_equal(rpl_side_render(r, scene, FW * 4, &wc, 1, NULL, 0, 3.25, fb, FW * 4), RPL_OK);
    for (int y = 0; y < FH; y++) {
        assert_memory_equal(fa + y * FW, fb + y * FW, 95 * 4);
        assert_int_equal(fb[y * FW + 99], scene[y * FW + 99]); /* the dry column */
    }
    /* the same with steep slopes (a refraction's weight that moves the
     * scene by whole pixels), over the rows where it still falls with
     * depth and the first where it no longer does */
    for (int i = 0; i < 100; i++)
        wavy[i] = dry[i] = (float)(30.0 + 9.0 * sin(i * 0.45));
    dry[99] = 1000.0f;
    wa.x1 = wc.x1 = 100;
    assert_int_equal(rpl_side_render(r, scene, FW * 4, &wa, 1, NULL, 0, 3.25, fa, FW * 4), RPL_OK);
    assert_int_equal(rpl_side_render(r, scene, FW * 4, &wc, 1, NULL, 0, 3.25, fb, FW * 4), RPL_OK);
    for (int y = 0; y < FH; y++)
        assert_memory_equal(fa + y * FW, fb + y * FW, 95 * 4);
    /* a crest far above the mean level (its columns' gradient their own,
     * not the mean's) between calm stretches: deep rows shaded partly by
     * the one-entry kernel, partly column by column, against the dry
     * twin's general rule */
    for (int i = 0; i < 100; i++)
        wavy[i] = dry[i] = (float)(i >= 40 && i < 55 ? -30.0 : 60.0 + 0.4 * sin(i * 0.5));
    dry[99] = 1000.0f;
    assert_int_equal(rpl_side_render(r, scene, FW * 4, &wa, 1, NULL, 0, 3.25, fa, FW * 4), RPL_OK);
    assert_int_equal(rpl_side_render(r, scene, FW * 4, &wc, 1, NULL, 0, 3.25, fb, FW * 4), RPL_OK);
    for (int y = 0; y < FH; y++)
        assert_memory_equal(fa + y * FW, fb + y * FW, 95 * 4);
    rpl_side_renderer_destroy(r);
    free(fa);
    free(fb);
    free(scene);
}

/* A droplet as the renderer's definition draws it, pixel by pixel over
 * the whole picture: within rad + 0.5 of its centre, anti-aliased over
 * its last pixel, a highlight from the top left, over what is there. */
static void drop_by_pixel(uint32_t *px, int w, int h, const rpl_droplet_t *dp)
{
    double rad = fmin(fmax(dp->size, 0.8), 32.0), fade = 1.0;
    if (dp->life > 0)
        fade = fmin(fmax(1.0 - dp->age / dp->life, 0.0), 1.0);
    int alpha = (int)lrint(235.0 * sqrt(fade));
    double cx = dp->x, cy = dp->y;
    if (alpha <= 0 || !(cx > -rad - 2 && cx < w + rad + 2 && cy > -rad - 2 && cy < h + rad + 2))
        return;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            double dx = x + 0.5 - cx, dy = y + 0.5 - cy;
            double cv = fmin(fmax(rad + 0.5 - sqrt(dx * dx + dy * dy), 0.0), 1.0);
            if (cv <= 0)
                continue;
            double q = sqrt((dx + rad * 0.35) * (dx + rad * 0.35) + (dy + rad * 0.35) * (dy + rad * 0.35));
            double hl = fmin(fmax(1.0 - q / rad, 0.0), 1.0);
            int want[3] = {255, (int)(214 + 41 * hl), (int)(150 + 105 * hl)}, a = (int)(alpha * cv);
            uint32_t o = px[y * w + x], out = 0xFF000000u;
            for (int k = 0; k < 3; k++) {
                int c = (int)(o >> (8 * k) & 0xFF);
                c += (want[k] - c) * a >> 8;
                out |= (uint32_t)(c < 0 ? 0 : c > 255 ? 255 : c) << (8 * k);
            }
            px[y * w + x] = out;
        }
}

/* Droplets by the runs of their rows against the definition: seeded
 * ones from under a pixel to wider than the frame, young and old, whole
 * and half positions, in, across and out of the frame's edges,
 * overlapping. */
static void test_droplet_runs(void **state)
{
    (void)state;
    uint32_t *scene = make_scene(21);
    rpl_side_renderer_t *r = new_renderer(scene, RPL_XRGB8888);
    uint32_t *fb = xmalloc((size_t)W * H * 4), *want = xmalloc((size_t)W * H * 4);
    uint32_t s = 4242;
#define NEXT (s ^= s << 13, s ^= s >> 17, s ^= s << 5, s)
    for (int t = 0, nt = test_quick() ? 100 : 800; t < nt; t++) {
        rpl_droplet_t dr[6];
        int n = 1 + (int)(NEXT % 6);
        for (int i = 0; i < n; i++) {
            float x = (float)(-15.0 + NEXT % 126000 / 1000.0), y = (float)(-15.0 + NEXT % 94000 / 1000.0);
            if (t % 5 == 0) {
                x = floorf(x) + 0.5f * (float)(t & 1);
                y = floorf(y);
            }
            float size = t % 7 == 0 ? (float)(NEXT % 40) + 0.5f : (float)(0.1 + NEXT % 8000 / 1000.0);
            float life = (float)(NEXT % 3000 / 1000.0), age = (float)(NEXT % 3000 / 1000.0);
            dr[i] = (rpl_droplet_t){x, y, 0, 0, age, life, size};
        }
        memcpy(want, scene, (size_t)W * H * 4);
        for (int i = 0; i < n; i++)
            drop_by_pixel(want, W, H, &dr[i]);
        assert_int_equal(rpl_side_render(r, scene, W * 4, NULL, 0, dr, n, 0, fb, W * 4), RPL_OK);
        assert_memory_equal(fb, want, (size_t)W * H * 4);
    }
#undef NEXT
    free(fb);
    free(want);
    free(scene);
    rpl_side_renderer_destroy(r);
}

/* ---- frames drawn over the last one ------------------------------------------------ */

/* A busy scene over many frames: surfaces that rise, fall and go to
 * sleep, bodies that move in and out of the frame and get dry columns,
 * droplets flying about, the scene painted over in rectangles.  One
 * renderer draws every frame into the same framebuffer, told what of the
 * scene changed (now and then nothing, now and then more than it keeps,
 * now and then not told at all); another draws each frame whole into a
 * buffer of garbage.  Every frame must be the same bytes, in every format
 * and on the kernel path the tests run with.  Then a change of the scene
 * left undeclared shows that the first one indeed drew only in part. */
#define IW 150
#define IH 110

static void inc_frame(int f, float *s0, float *s1, rpl_side_water_t *wb, rpl_droplet_t *dr,
                      int *ndr)
{
    double t = f * 0.37;
    int sleep0 = f % 7 == 3; /* asleep: flat at its level */
    for (int i = 0; i < IW + 40; i++)
        s0[i] = sleep0 ? 60.0f
                       : (float)(60.0 + 9.0 * sin((i - 20) * 0.13 + t) + 4.0 * sin(i * 0.57 - 2 * t) +
                                 (f % 5 == 0 && i == 70 ? 80.0 : 0.0)); /* a dry column now and then */
    for (int i = 0; i < 50; i++)
        s1[i] = (float)(30.0 + 6.0 * cos(i * 0.3 + 1.7 * t) + (f % 4) * 5.0);
    wb[0] = (rpl_side_water_t){-20, IW + 20, s0, 104.0f, !sleep0};
    /* the second body slides across and out of the frame */
    int x0 = (f * 9) % (IW + 60) - 50;
    wb[1] = (rpl_side_water_t){x0, x0 + 50, s1, (float)(70 + f % 11), 1};
    *ndr = f % 6;
    for (int k = 0; k < *ndr; k++)
        dr[k] = (rpl_droplet_t){(float)(fmod(17.0 * k + 11.0 * f, IW + 10) - 5),
                                (float)(fmod(23.0 * k + 7.0 * f, IH + 10) - 5), 0, 0,
                                (float)(0.1 * k), 1, (float)(1.0 + k % 3)};
}

static void test_incremental_same_bytes(void **state)
{
    (void)state;
    uint32_t *art = random_bg(IW, IH, 21);
    float s0[IW + 40], s1[50];
    rpl_side_water_t wb[2];
    rpl_droplet_t dr[8];
    uint64_t rng = 77;
    for (int fi = 0; fi < (test_quick() ? 1 : 3); fi++) {
        rpl_format fmt = all_formats[fi];
        int bytes = rpl_format_bytes(fmt);
        ptrdiff_t pitch = (ptrdiff_t)IW * bytes + 12;
        size_t n = (size_t)pitch * IH;
        uint32_t *scene = xmalloc((size_t)IW * IH * 4);
        memcpy(scene, art, (size_t)IW * IH * 4);
        unsigned char *inc = xmalloc(n), *whole = xmalloc(n);
        memset(inc, 0x3C, n);
        rpl_side_renderer_t *ri, *rw;
        assert_int_equal(rpl_side_renderer_create(art, IW, IH, fmt, &ri), RPL_OK);
        assert_int_equal(rpl_side_renderer_create(art, IW, IH, fmt, &rw), RPL_OK);
        int parts = 0;
        for (int f = 0; f < 120; f++) {
            int ndr;
            inc_frame(f, s0, s1, wb, dr, &ndr);
            /* the scene painted over in a few rectangles, some off the frame */
            rpl_rect_t ch[8];
            int nch = rnd_range(&rng, 0, 4);
            for (int i = 0; i < nch; i++) {
                int x = rnd_range(&rng, -20, IW), y = rnd_range(&rng, -20, IH);
                ch[i] = (rpl_rect_t){x, y, rnd_range(&rng, 1, 40), rnd_range(&rng, 1, 40)};
                uint32_t c = 0xFF000000u | (uint32_t)rnd_next(&rng);
                for (int yy = y < 0 ? 0 : y; yy < y + ch[i].h && yy < IH; yy++)
                    for (int xx = x < 0 ? 0 : x; xx < x + ch[i].w && xx < IW; xx++)
                        scene[yy * IW + xx] = c;
            }
            int how = f % 10; /* 0: not told (whole frame); 1: more than kept; else the changes */
            if (how == 1) {
                rpl_rect_t many[70];
                for (int i = 0; i < 70; i++)
                    many[i] = i < nch ? ch[i] : (rpl_rect_t){0, 0, 1, 1};
                assert_int_equal(rpl_side_renderer_changed(ri, many, 70), RPL_OK);
            } else if (how != 0) {
                assert_int_equal(rpl_side_renderer_changed(ri, ch, nch), RPL_OK);
                parts++;
            }
            memset(whole, (int)(f * 37 & 0xFF), n);
            assert_int_equal(rpl_side_render(ri, scene, IW * 4, wb, 2, dr, ndr, f * 0.05, inc, pitch), RPL_OK);
            assert_int_equal(rpl_side_render(rw, scene, IW * 4, wb, 2, dr, ndr, f * 0.05, whole, pitch), RPL_OK);
            for (int y = 0; y < IH; y++)
                if (memcmp(inc + y * pitch, whole + y * pitch, (size_t)IW * bytes) != 0)
                    fail_msg("format %d, frame %d (%s), row %d: drawn over the last frame it differs "
                             "from the frame drawn whole", (int)fmt, f,
                             how == 0 ? "whole" : how == 1 ? "too many changes" : "in part", y);
        }
        assert_true(parts > 90);
        /* a change not declared stays unseen where nothing else is drawn:
         * the frame was indeed drawn in part (the top-left corner is dry
         * and out of the droplets' way in frame 120) */
        int ndr;
        inc_frame(120, s0, s1, wb, dr, &ndr);
        ndr = 0;
        assert_int_equal(rpl_side_renderer_changed(ri, NULL, 0), RPL_OK);
        assert_int_equal(rpl_side_render(ri, scene, IW * 4, wb, 2, dr, 0, 6.0, inc, pitch), RPL_OK);
        scene[2 * IW + 2] ^= 0x00FFFFFFu;
        assert_int_equal(rpl_side_renderer_changed(ri, NULL, 0), RPL_OK);
        assert_int_equal(rpl_side_render(ri, scene, IW * 4, wb, 2, dr, 0, 6.0, inc, pitch), RPL_OK);
        assert_int_equal(rpl_side_render(rw, scene, IW * 4, wb, 2, dr, 0, 6.0, whole, pitch), RPL_OK);
        assert_true(memcmp(inc + 2 * pitch, whole + 2 * pitch, (size_t)IW * bytes) != 0);
        /* declared, it shows */
        rpl_rect_t one = {2, 2, 1, 1};
        assert_int_equal(rpl_side_renderer_changed(ri, &one, 1), RPL_OK);
        assert_int_equal(rpl_side_render(ri, scene, IW * 4, wb, 2, dr, 0, 6.0, inc, pitch), RPL_OK);
        assert_memory_equal(inc + 2 * pitch, whole + 2 * pitch, (size_t)IW * bytes);
        /* another framebuffer: drawn whole whatever was declared */
        unsigned char *other = xmalloc(n);
        memset(other, 0x5A, n);
        assert_int_equal(rpl_side_renderer_changed(ri, NULL, 0), RPL_OK);
        assert_int_equal(rpl_side_render(ri, scene, IW * 4, wb, 2, dr, 0, 6.0, other, pitch), RPL_OK);
        for (int y = 0; y < IH; y++)
            assert_memory_equal(other + y * pitch, whole + y * pitch, (size_t)IW * bytes);
        /* refusals */
        assert_int_equal(rpl_side_renderer_changed(ri, NULL, 1), RPL_EINVAL);
        assert_int_equal(rpl_side_renderer_changed(ri, &one, -1), RPL_EINVAL);
        assert_int_equal(rpl_side_renderer_changed(NULL, &one, 1), RPL_EINVAL);
        free(other);
        rpl_side_renderer_destroy(ri);
        rpl_side_renderer_destroy(rw);
        free(inc);
        free(whole);
        free(scene);
    }
    free(art);
}

/* ---- the side scene with more moving than its lists hold ------------------------ */

/* 120 bodies dropped over a 640x480 scene: far more rectangles of what
 * moves than the scene lists (48) or the renderer keeps (64), which are
 * then merged.  One scene is drawn every frame over its last frame (the
 * art put back, and the frame redrawn, only in the merged rectangles);
 * its twin, stepped alike, is invalidated before every render and so
 * drawn whole from the art.  Every frame must be the same bytes, in every
 * format; the rectangles side_scene_changed lists must cover every pixel
 * that differs from the frame before, and most frames not be the whole
 * frame although more than 48 bodies are in view. */
#define BW 640
#define BH 480
#define BODIES 120

static side_scene_t *busy_scene(rpl_format fmt)
{
    side_config_t cfg = { .w = BW, .h = BH, .format = fmt, .surface = RPL_SURFACE_SPRINGS,
                          .seed = 5 };
    side_scene_t *s = NULL;
    if (side_scene_create(&cfg, &s) != RPL_OK)
        fail_msg("side_scene_create: %s", side_scene_error(s));
    side_scene_set_autoplay(s, 0);
    uint64_t rng = 99;
    for (int i = 0; i < BODIES; i++) {
        rpl_water_t *wt = side_scene_water(s, rnd_range(&rng, 0, 10) < 7 ? 0 : 1);
        const rpl_water_params_t *p = rpl_water_params(wt);
        double x = p->x0 + (0.1 + 0.8 * rnd_range(&rng, 0, 1000) / 1000.0) * (p->x1 - p->x0);
        double y = BH * (0.3 - 0.5 * rnd_range(&rng, 0, 1000) / 1000.0);
        assert_int_equal(side_scene_drop(s, x, y, i & 1 ? SIDE_BALL : SIDE_CRATE,
                                         0.3 + 1.3 * rnd_range(&rng, 0, 1000) / 1000.0, 0), 0);
    }
    return s;
}

static void test_scene_many_bodies(void **state)
{
    (void)state;
    for (int fi = 0; fi < (test_quick() ? 1 : 3); fi++) {
        rpl_format fmt = all_formats[fi];
        int bytes = rpl_format_bytes(fmt);
        side_scene_t *inc = busy_scene(fmt), *fresh = busy_scene(fmt);
        size_t len = (size_t)BW * BH * (size_t)bytes;
        unsigned char *drawn = xmalloc(len), *whole = xmalloc(len), *prev = xmalloc(len);
        uint8_t *covered = xmalloc((size_t)BW * BH);
        rpl_rect_t r[256];
        int partial = 0, crowded = 0;
        for (int frame = 0; frame < 90; frame++) {
            for (int i = 0; i < 2; i++) {
                side_scene_step(inc);
                side_scene_step(fresh);
            }
            memset(whole, frame & 0xFF, len);
            assert_int_equal(side_scene_render(inc, drawn, (ptrdiff_t)BW * bytes), 0);
            side_scene_invalidate(fresh);
            assert_int_equal(side_scene_render(fresh, whole, (ptrdiff_t)BW * bytes), 0);
            for (int y = 0; y < BH; y++)
                if (memcmp(drawn + (size_t)y * BW * bytes, whole + (size_t)y * BW * bytes,
                           (size_t)BW * bytes) != 0)
                    fail_msg("format %d, frame %d, row %d: drawn over the last frame it "
                             "differs from the frame drawn whole", (int)fmt, frame, y);
            int in_view = 0;
            for (int i = 0; i < BODIES; i++) {
                double x, y;
                assert_int_equal(side_scene_body(inc, i, &x, &y, NULL, NULL), 0);
                in_view += x > 0 && x < BW && y > 0 && y < BH;
            }
            crowded += in_view > 60;
            int max = frame % 2 ? 256 : 20; /* and merged into fewer than listed */
            int n = side_scene_changed(inc, r, max);
            assert_true(n >= 1 && n <= max);
            if (frame == 0) { /* the first render: the whole frame */
                memcpy(prev, drawn, len);
                continue;
            }
            memset(covered, 0, (size_t)BW * BH);
            long area = 0;
            for (int i = 0; i < n; i++) {
                assert_true(r[i].x >= 0 && r[i].y >= 0 && r[i].w > 0 && r[i].h > 0);
                assert_true(r[i].x + r[i].w <= BW && r[i].y + r[i].h <= BH);
                for (int y = r[i].y; y < r[i].y + r[i].h; y++)
                    for (int x = r[i].x; x < r[i].x + r[i].w; x++)
                        area += !covered[y * BW + x], covered[y * BW + x] = 1;
            }
            partial += in_view > 60 && area < (long)BW * BH * 3 / 4;
            for (int y = 0; y < BH; y++) {
                size_t row = (size_t)y * BW * (size_t)bytes;
                if (memcmp(prev + row, drawn + row, (size_t)BW * (size_t)bytes) == 0)
                    continue; /* a row alike in one call, not one a pixel */
                for (int x = 0; x < BW; x++) {
                    size_t o = row + (size_t)x * (size_t)bytes;
                    if (!covered[y * BW + x] && memcmp(prev + o, drawn + o, (size_t)bytes) != 0)
                        fail_msg("format %d frame %d: pixel %d,%d changed outside the "
                                 "rectangles", (int)fmt, frame, x, y);
                }
            }
            memcpy(prev, drawn, len);
        }
        assert_true(crowded > 30);          /* more in view than the lists hold */
        assert_true(partial > crowded / 2); /* and yet not redrawn whole */
        free(drawn);
        free(whole);
        free(prev);
        free(covered);
        side_scene_destroy(inc);
        side_scene_destroy(fresh);
    }
}

/* ---- polygons and circles ------------------------------------------------------- */

#define BG 0x11223344u

static uint32_t *blank(int w, int h)
{
    uint32_t *px = xmalloc((size_t)w * h * 4);
    for (int i = 0; i < w * h; i++)
        px[i] = BG;
    return px;
}

static int count_not(const uint32_t *px, int n, uint32_t c)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        k += px[i] != c;
    return k;
}

static int count_eq(const uint32_t *px, int n, uint32_t c)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        k += px[i] == c;
    return k;
}

static void test_polygon(void **state)
{
    (void)state;
    const int w = 64, h = 48;
    uint32_t *px = blank(w, h);
    /* [10, 30) x [5, 25): 20 x 20 = 400 pixels, either winding */
    double rect[8] = {10, 5, 30, 5, 30, 25, 10, 25};
    rpl_draw_polygon(px, w * 4, w, h, rect, 4, 0xFF806040u, 0, 0);
    assert_int_equal(count_eq(px, w * h, 0xFF806040u), 400);
    assert_int_equal(count_not(px, w * h, BG), 400);
    assert_int_equal(px[5 * w + 10], 0xFF806040u);  /* corners in */
    assert_int_equal(px[24 * w + 29], 0xFF806040u);
    assert_int_equal(px[4 * w + 10], BG);           /* and just outside, out */
    assert_int_equal(px[5 * w + 30], BG);
    assert_int_equal(px[25 * w + 10], BG);
    double ccw[8] = {10, 5, 10, 25, 30, 25, 30, 5};
    uint32_t *px2 = blank(w, h);
    rpl_draw_polygon(px2, w * 4, w, h, ccw, 4, 0xFF806040u, 0, 0);
    assert_memory_equal(px, px2, (size_t)w * h * 4);

    /* an outline: the ring of the 20 x 20 square, 4*20 - 4 = 76 pixels */
    free(px);
    px = blank(w, h);
    rpl_draw_polygon(px, w * 4, w, h, rect, 4, 0xFF806040u, 0xFF000001u, 0);
    assert_int_equal(count_eq(px, w * h, 0xFF000001u), 76);
    assert_int_equal(count_eq(px, w * h, 0xFF806040u), 400 - 76);

    /* fractional corners: pixel centres x + 0.5 in [10.5, 20.5) are x =
     * 10..19, y + 0.5 in [5.25, 15.25) are y = 5..14: 10 x 10 */
    free(px);
    px = blank(w, h);
    double frac[8] = {10.5, 5.25, 20.5, 5.25, 20.5, 15.25, 10.5, 15.25};
    rpl_draw_polygon(px, w * 4, w, h, frac, 4, 0xFF0000FFu, 0, 0);
    assert_int_equal(count_not(px, w * h, BG), 100);

    /* shading: the top row untouched or nearly, the bottom one darker by
     * about `shade`; with 0xFF fill and shade 128 the bottom row's row
     * centre is at 19.5/20 of the height: 255 * (256 - 124) / 256 = 131 */
    free(px);
    px = blank(w, h);
    rpl_draw_polygon(px, w * 4, w, h, rect, 4, 0xFFFFFFFFu, 0, 128);
    int top = chan(px[5 * w + 15], 0), bot = chan(px[24 * w + 15], 0);
    assert_true(top >= 250);
    assert_true(bot >= 125 && bot <= 137);

    /* clipping: a square from (-20, -20) to (10, 10) leaves 10 x 10 in */
    free(px);
    px = blank(w, h);
    double cl[8] = {-20, -20, 10, -20, 10, 10, -20, 10};
    rpl_draw_polygon(px, w * 4, w, h, cl, 4, 0xFF00FF00u, 0xFF0000FFu, 50);
    assert_int_equal(count_not(px, w * h, BG), 100);
    /* the outline lies outside the picture on two sides: only the right
     * and bottom edges show, 10 + 10 - 1 = 19 pixels */
    assert_int_equal(count_eq(px, w * h, 0xFF0000FFu), 19);
    /* far beyond the picture on every side: all of it */
    double big[8] = {-1e9, -1e9, 1e9, -1e9, 1e9, 1e9, -1e9, 1e9};
    rpl_draw_polygon(px, w * 4, w, h, big, 4, 0xFF123456u, 0, 0);
    assert_int_equal(count_eq(px, w * h, 0xFF123456u), w * h);
    double far[6] = {1e300, 1e300, -1e300, 1e300, 0, -1e300};
    rpl_draw_polygon(px, w * 4, w, h, far, 3, 0xFF654321u, 0xFF000000u, 255);
    double off[8] = {100, 100, 120, 100, 120, 120, 100, 120};
    free(px);
    px = blank(w, h);
    rpl_draw_polygon(px, w * 4, w, h, off, 4, 0xFF654321u, 0, 0);
    assert_int_equal(count_not(px, w * h, BG), 0);

    /* a right triangle of legs 40: area 800, pixels within a row's worth */
    double tri[6] = {0, 0, 40, 0, 0, 40};
    rpl_draw_polygon(px, w * 4, w, h, tri, 3, 0xFFAA0000u, 0, 0);
    int n = count_not(px, w * h, BG);
    assert_true(n >= 780 && n <= 840);

    /* refused: nothing drawn */
    free(px);
    px = blank(w, h);
    double nan4[8] = {10, 5, 30, NAN, 30, 25, 10, 25};
    rpl_draw_polygon(px, w * 4, w, h, nan4, 4, 0xFF806040u, 0, 0);
    rpl_draw_polygon(px, w * 4, w, h, rect, 2, 0xFF806040u, 0, 0);
    rpl_draw_polygon(px, w * 4, w, h, rect, 65, 0xFF806040u, 0, 0);
    rpl_draw_polygon(px, w * 4, w, h, NULL, 4, 0xFF806040u, 0, 0);
    rpl_draw_polygon(px, w * 4 - 4, w, h, rect, 4, 0xFF806040u, 0, 0);
    rpl_draw_polygon(px, w * 4 + 2, w, h, rect, 4, 0xFF806040u, 0, 0);
    rpl_draw_polygon(px, w * 4, 0, h, rect, 4, 0xFF806040u, 0, 0);
    rpl_draw_polygon(NULL, w * 4, w, h, rect, 4, 0xFF806040u, 0, 0);
    assert_int_equal(count_not(px, w * h, BG), 0);
    free(px);
    free(px2);
}

static void test_circle(void **state)
{
    (void)state;
    const int w = 100, h = 80;
    uint32_t *px = blank(w, h);
    const double pi = 3.14159265358979;
    double radii[3] = {6.0, 15.5, 30.0};
    for (int i = 0; i < 3; i++) {
        double rr = radii[i];
        for (int k = 0; k < w * h; k++)
            px[k] = BG;
        rpl_draw_circle(px, w * 4, w, h, 50.3, 40.1, rr, 0xFF3060C0u, 0, 0);
        double n = count_not(px, w * h, BG), area = pi * rr * rr;
        assert_true(fabs(n - area) <= 0.04 * area);
    }
    /* with an outline: edge pixels on the rim.  A digital circle's rim of
     * pixels with a 4-neighbour outside takes one pixel per step along x
     * or y, diagonals counting once: about 4 sqrt(2) r = 113 for r = 20,
     * never more than the circumference 2 pi r = 126 by much */
    for (int k = 0; k < w * h; k++)
        px[k] = BG;
    rpl_draw_circle(px, w * 4, w, h, 50, 40, 20, 0xFF3060C0u, 0xFF000000u, 200);
    int edge = count_eq(px, w * h, 0xFF000000u);
    assert_true(edge >= (int)(4 * sqrt(2.0) * 20 * 0.9) && edge <= (int)(2 * pi * 20 * 1.1));
    assert_int_equal(px[40 * w + 30], 0xFF000000u); /* (30.5, 40.5): 19.5 from the centre, rim */
    assert_true(px[40 * w + 50] != 0xFF000000u && px[40 * w + 50] != BG);
    /* shaded: the bottom darker than the top */
    assert_true(chan(px[58 * w + 50], 0) < chan(px[22 * w + 50], 0));

    /* clipped: a circle at the corner shows a quarter */
    for (int k = 0; k < w * h; k++)
        px[k] = BG;
    rpl_draw_circle(px, w * 4, w, h, 0, 0, 20, 0xFF3060C0u, 0, 0);
    double q = count_not(px, w * h, BG);
    assert_true(fabs(q - pi * 400 / 4) <= 0.06 * pi * 400 / 4);
    rpl_draw_circle(px, w * 4, w, h, 1e300, -1e300, 1e300, 0xFF3060C0u, 0xFF000000u, 10);
    rpl_draw_circle(px, w * 4, w, h, 50, 40, 1e12, 0xFF777777u, 0, 0);
    assert_int_equal(count_eq(px, w * h, 0xFF777777u), w * h);

    /* refused */
    for (int k = 0; k < w * h; k++)
        px[k] = BG;
    rpl_draw_circle(px, w * 4, w, h, 50, 40, 0, 0xFF3060C0u, 0, 0);
    rpl_draw_circle(px, w * 4, w, h, 50, 40, -3, 0xFF3060C0u, 0, 0);
    rpl_draw_circle(px, w * 4, w, h, NAN, 40, 10, 0xFF3060C0u, 0, 0);
    rpl_draw_circle(px, w * 4, w, h, 50, 40, INFINITY, 0xFF3060C0u, 0, 0);
    rpl_draw_circle(px, w * 4 - 1, w, h, 50, 40, 10, 0xFF3060C0u, 0, 0);
    rpl_draw_circle(NULL, w * 4, w, h, 50, 40, 10, 0xFF3060C0u, 0, 0);
    assert_int_equal(count_not(px, w * h, BG), 0);
    free(px);
}

/* The circle's rule pixel by pixel, as its fill first tested every pixel
 * of the box (the fill now finds each row's run of pixels in the disc):
 * the same bytes wanted. */
static void circle_by_pixel(uint32_t *px, int w, int h, double cx, double cy, double r,
                            uint32_t fill, uint32_t edge, int shade)
{
    int ya = (int)fmax(0, fmin(h, floor(cy - r))), yb = (int)fmax(0, fmin(h, ceil(cy + r)));
    int xa = (int)fmax(0, fmin(w, floor(cx - r))), xb = (int)fmax(0, fmin(w, ceil(cx + r)));
    double inv = 1.0 / r, step = inv;
    for (int y = ya; y < yb; y++) {
        double dy = (y + 0.5 - cy) * inv;
        int k = (int)(shade * fmax(0, fmin(1, (dy + 1.0) * 0.5)));
        uint32_t m = (uint32_t)(256 - k), c = fill;
        if (k)
            c = (fill & 0xFF000000u) | ((fill >> 16 & 0xFF) * m >> 8) << 16 |
                ((fill >> 8 & 0xFF) * m >> 8) << 8 | ((fill & 0xFF) * m >> 8);
        for (int x = xa; x < xb; x++) {
            double dx = (x + 0.5 - cx) * inv;
            if (dx * dx + dy * dy > 1.0)
                continue;
            int border = 0;
            if (edge) {
                double up = dy - step, dn = dy + step, lf = dx - step, rt = dx + step;
                border = dx * dx + up * up > 1.0 || dx * dx + dn * dn > 1.0 ||
                         lf * lf + dy * dy > 1.0 || rt * rt + dy * dy > 1.0;
            }
            px[y * w + x] = border ? edge : c;
        }
    }
}

/* The polygon fill's definition, pixel by pixel: row y's span from every
 * edge that counts for it (min(y) <= y + 0.5 < max(y)), the pixel in it
 * when its centre is, on the outline at the span's ends and where the
 * row above or below does not reach. */
static int row_span_def(const double *xy, int n, int y, double *xa, double *xb)
{
    double yc = y + 0.5, lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < n; i++) {
        int j = (i + 1) % n;
        double x0 = xy[2 * i], y0 = xy[2 * i + 1], x1 = xy[2 * j], y1 = xy[2 * j + 1];
        if (y0 == y1 || !((y0 <= yc && yc < y1) || (y1 <= yc && yc < y0)))
            continue;
        double x = x0 + (x1 - x0) * (yc - y0) / (y1 - y0);
        lo = fmin(lo, x);
        hi = fmax(hi, x);
    }
    if (!(lo < hi))
        return 0;
    *xa = ceil(lo - 0.5);
    *xb = ceil(hi - 0.5) - 1.0;
    return *xa <= *xb;
}

static void polygon_by_pixel(uint32_t *px, int w, int h, const double *xy, int n, uint32_t fill,
                             uint32_t edge, int shade)
{
    double ymin = INFINITY, ymax = -INFINITY;
    for (int i = 0; i < n; i++) {
        ymin = fmin(ymin, xy[2 * i + 1]);
        ymax = fmax(ymax, xy[2 * i + 1]);
    }
    double span = ymax - ymin > 0 ? ymax - ymin : 1;
    for (int y = 0; y < h; y++) {
        if (y < floor(ymin) || y >= ceil(ymax))
            continue;
        double a, b, a0 = 0, b0 = -1, a2 = 0, b2 = -1;
        if (!row_span_def(xy, n, y, &a, &b))
            continue;
        int up = row_span_def(xy, n, y - 1, &a0, &b0), dn = row_span_def(xy, n, y + 1, &a2, &b2);
        int k = (int)(shade * fmax(0, fmin(1, (y + 0.5 - ymin) / span)));
        uint32_t m = (uint32_t)(256 - k), c = fill;
        if (k)
            c = (fill & 0xFF000000u) | ((fill >> 16 & 0xFF) * m >> 8) << 16 |
                ((fill >> 8 & 0xFF) * m >> 8) << 8 | ((fill & 0xFF) * m >> 8);
        for (int x = 0; x < w; x++) {
            if (x < a || x > b)
                continue;
            int inner = !edge || (up && dn && x >= fmax(fmax(a0, a2), a + 1) &&
                                  x <= fmin(fmin(b0, b2), b - 1));
            px[y * w + x] = inner ? c : edge;
        }
    }
}

/* The fill by each edge's rows against the definition on seeded convex
 * polygons: regular ones of 3 to 16 corners from under a pixel to wider
 * than the picture, turned any way, thin bands, corners on whole and
 * half values, in and out of the picture. */
static void test_polygon_rows(void **state)
{
    (void)state;
    const int w = 67, h = 45;
    uint32_t *a = blank(w, h), *b = blank(w, h);
    uint32_t s = 777;
#define NEXT (s ^= s << 13, s ^= s >> 17, s ^= s << 5, s)
    for (int t = 0, nt = test_quick() ? 500 : 4000; t < nt; t++) {
        double xy[2 * 16];
        double cx = -25.0 + NEXT % 117000 / 1000.0, cy = -25.0 + NEXT % 95000 / 1000.0;
        double turn = NEXT % 6283 / 1000.0;
        int n;
        if (t % 4 == 3) { /* a band, like a crate's planks */
            double len = NEXT % 60000 / 1000.0, thick = 0.3 + NEXT % 4000 / 1000.0;
            double ux = cos(turn), uy = sin(turn);
            double hx = -uy * thick / 2, hy = ux * thick / 2;
            double pts[8] = {cx + hx, cy + hy, cx + len * ux + hx, cy + len * uy + hy,
                             cx + len * ux - hx, cy + len * uy - hy, cx - hx, cy - hy};
            memcpy(xy, pts, sizeof pts);
            n = 4;
        } else {
            n = 3 + (int)(NEXT % 14);
            double r = t % 7 == 0 ? (double)(NEXT % 40) + 0.5 : 0.02 + NEXT % 40000 / 1000.0;
            for (int i = 0; i < n; i++) {
                xy[2 * i] = cx + r * cos(turn + 6.283185307179586 * i / n);
                xy[2 * i + 1] = cy + r * sin(turn + 6.283185307179586 * i / n);
            }
        }
        if (t % 5 == 0) /* corners on whole and half values */
            for (int i = 0; i < 2 * n; i++)
                xy[i] = floor(xy[i] * 2) / 2;
        uint32_t edge = t % 3 == 0 ? 0 : 0xFF102030u;
        int shade = (int)(NEXT >> 20 & 255);
        for (int k = 0; k < w * h; k++)
            a[k] = b[k] = BG;
        rpl_draw_polygon(a, w * 4, w, h, xy, n, 0xFF3060C0u, edge, shade);
        polygon_by_pixel(b, w, h, xy, n, 0xFF3060C0u, edge, shade);
        assert_memory_equal(a, b, (size_t)w * h * 4);
    }
#undef NEXT
    free(a);
    free(b);
}

static void test_circle_runs(void **state)
{
    (void)state;
    const int w = 67, h = 45;
    uint32_t *a = blank(w, h), *b = blank(w, h);
    uint32_t s = 12345;
    for (int t = 0, n = test_quick() ? 500 : 4000; t < n; t++) {
        s ^= s << 13, s ^= s >> 17, s ^= s << 5;
        double cx = -25.0 + (s % 117000) / 1000.0;
        s ^= s << 13, s ^= s >> 17, s ^= s << 5;
        double cy = -25.0 + (s % 95000) / 1000.0;
        s ^= s << 13, s ^= s >> 17, s ^= s << 5;
        /* from under a pixel to wider than the picture, whole and half
         * values among them */
        double r = t % 7 == 0 ? (double)(s % 40) + 0.5 * (s >> 8 & 1) + 0.25
                              : 0.02 + (s % 40000) / 1000.0;
        if (t % 5 == 0) {
            cx = floor(cx) + 0.5 * (t & 1);
            cy = floor(cy);
        }
        uint32_t edge = t % 3 == 0 ? 0 : 0xFF102030u;
        int shade = (int)(s >> 20 & 255);
        for (int k = 0; k < w * h; k++)
            a[k] = b[k] = BG;
        rpl_draw_circle(a, w * 4, w, h, cx, cy, r, 0xFF3060C0u, edge, shade);
        circle_by_pixel(b, w, h, cx, cy, r, 0xFF3060C0u, edge, shade);
        assert_memory_equal(a, b, (size_t)w * h * 4);
    }
    free(a);
    free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_create_refusals),
        cmocka_unit_test(test_circle_runs),
        cmocka_unit_test(test_render_refusals),
        cmocka_unit_test(test_no_water_is_scene),
        cmocka_unit_test(test_index8_palette),
        cmocka_unit_test(test_water_region),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_caustic_steps),
        cmocka_unit_test(test_bake_whole_loop),
        cmocka_unit_test(test_paths_same_frame),
        cmocka_unit_test(test_droplets),
        cmocka_unit_test(test_droplet_runs),
        cmocka_unit_test(test_frame_parts),
        cmocka_unit_test(test_blocks_agree),
        cmocka_unit_test(test_incremental_same_bytes),
        cmocka_unit_test(test_scene_many_bodies),
        cmocka_unit_test(test_polygon),
        cmocka_unit_test(test_polygon_rows),
        cmocka_unit_test(test_circle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
