/* test_render.c - refraction: rpl_refract, rpl_render in every format, and renderers that redraw what changed (cmocka). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "ripple.h"
#include "util.h"

/* H of the documented formula: the height, 0 outside the field. */
static int ref_H(const int16_t *hs, int w, int h, int x, int y)
{
    if (x < 0 || y < 0 || x >= w || y >= h)
        return 0;
    return hs[y * w + x];
}

/* The documented formula, pixel by pixel. */
static uint32_t ref_pixel(const int16_t *hs, const uint32_t *bg, int w, int h, int x, int y,
                          int strength, int shading)
{
    int64_t xoff = ref_H(hs, w, h, x - 1, y) - ref_H(hs, w, h, x + 1, y);
    int64_t yoff = ref_H(hs, w, h, x, y - 1) - ref_H(hs, w, h, x, y + 1);
    int64_t sx = clamp64(x + floor_div_pow2(xoff * strength, 4), 0, w - 1);
    int64_t sy = clamp64(y + floor_div_pow2(yoff * strength, 4), 0, h - 1);
    uint32_t px = bg[sy * w + sx];
    if (!shading)
        return px;
    int d = (int)clamp64(floor_div_pow2(-(xoff + yoff), 2), -RPL_SHADE_MAX, RPL_SHADE_MAX);
    return (px & 0xFF000000u) | sat_add(px, 16, d) | sat_add(px, 8, d) | sat_add(px, 0, d);
}

/* What the framebuffer bytes a render must not touch are filled with. */
#define GUARD 0xA5u

/* Renders with pitch = w*4 + pad bytes (pad a multiple of 4: rows of
 * uint32 pixels stay aligned) into a guarded buffer and compares with the
 * reference; padding and the bytes after the frame must stay. */
static void check_refract(rpl_sim_t *sim, const uint32_t *bg, int strength, int shading,
                          int pad)
{
    int w = width_of(sim), h = height_of(sim);
    ptrdiff_t pitch = (ptrdiff_t)w * 4 + pad;
    size_t total = (size_t)pitch * (size_t)h + 64;
    unsigned char *fb = malloc(total);
    assert_non_null(fb);
    memset(fb, GUARD, total);
    rpl_view_t view = {strength, shading};
    assert_int_equal(rpl_refract(sim, bg, fb, pitch, RPL_XRGB8888, &view), RPL_OK);
    for (int y = 0; y < h; y++) {
        const unsigned char *row = fb + (size_t)y * (size_t)pitch;
        for (int x = 0; x < w; x++) {
            uint32_t got;
            memcpy(&got, row + 4 * x, 4);
            uint32_t want = ref_pixel(cur_of(sim), bg, w, h, x, y, strength, shading);
            if (got != want)
                fail_msg("%dx%d strength %d shading %d: pixel (%d,%d) is %08x, want %08x", w, h,
                         strength, shading, x, y, got, want);
        }
        for (int b = 0; b < pad; b++)
            if (row[4 * w + b] != GUARD)
                fail_msg("padding byte %d of row %d was written", b, y);
    }
    for (size_t i = (size_t)pitch * (size_t)h; i < total; i++)
        assert_int_equal(fb[i], GUARD);
    free(fb);
}

/* Every refraction test goes through these: the smallest field, odd and
 * long thin shapes; strengths 0, 1, the 1:1 mapping, the largest and odd
 * values between. */
static const int refract_sizes[][2] = {{3, 3}, {7, 5}, {5, 7}, {641, 3}, {3, 641}, {4, 4}, {33, 17}};
static const int strengths[] = {0, 1, 5, RPL_STRENGTH_ONE, 37, RPL_STRENGTH_MAX};

/* ---- raw background (rpl_refract) ------------------------------------- */

static void test_refract_flat_is_background(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof refract_sizes / sizeof refract_sizes[0]; k++) {
        int w = refract_sizes[k][0], h = refract_sizes[k][1];
        rpl_sim_t *sim = new_sim(w, h, 1);
        uint32_t *bg = random_bg(w, h, 50 + k);
        uint32_t *fb = malloc((size_t)w * (size_t)h * 4);
        assert_non_null(fb);
        for (size_t si = 0; si < sizeof strengths / sizeof strengths[0]; si++)
            for (int shading = 0; shading < 2; shading++) {
                memset(fb, 0x5A, (size_t)w * (size_t)h * 4);
                rpl_view_t view = {strengths[si], shading};
                assert_int_equal(rpl_refract(sim, bg, fb, (ptrdiff_t)w * 4, RPL_XRGB8888, &view),
                                 RPL_OK);
                assert_memory_equal(fb, bg, (size_t)w * (size_t)h * 4);
            }
        free(fb);
        free(bg);
        rpl_sim_destroy(sim);
    }
}

static void test_refract_matches_reference(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof refract_sizes / sizeof refract_sizes[0]; k++) {
        int w = refract_sizes[k][0], h = refract_sizes[k][1];
        rpl_sim_t *sim = new_sim(w, h, 1);
        uint32_t *bg = random_bg(w, h, 70 + k);
        for (int range = 0; range < 3; range++) {
            static const int lims[3] = {40, 700, RPL_HEIGHT_MAX};
            random_state(sim, 300 + 10 * k + (uint64_t)range, -lims[range] - 1, lims[range]);
            for (size_t si = 0; si < sizeof strengths / sizeof strengths[0]; si++)
                for (int shading = 0; shading < 2; shading++)
                    check_refract(sim, bg, strengths[si], shading,
                                  (int)(si % 3) * 4 + (int)(si & 1) * 8);
        }
        /* a wave grown by the core's own step (realistic states) */
        rpl_sim_reset(sim, 3);
        assert_int_equal(rpl_sim_drop(sim, w / 2, h / 2, 3, 2000), RPL_OK);
        for (int i = 0; i < 7; i++)
            rpl_sim_step(sim);
        check_refract(sim, bg, RPL_STRENGTH_ONE, 1, 12);
        check_refract(sim, bg, 9, 0, 20);
        free(bg);
        rpl_sim_destroy(sim);
    }
}

/* +8191 / -8192 checkerboards: the largest offsets there are; every
 * source coordinate must be clamped (ASan reports any stray read). */
static void test_refract_extreme_heights(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof refract_sizes / sizeof refract_sizes[0]; k++) {
        int w = refract_sizes[k][0], h = refract_sizes[k][1];
        rpl_sim_t *sim = new_sim(w, h, 1);
        uint32_t *bg = random_bg(w, h, 90 + k);
        for (int phase = 0; phase < 2; phase++) {
            int16_t *c = new_plane(w, h), *p = new_plane(w, h);
            for (int y = 1; y < h - 1; y++)
                for (int x = 1; x < w - 1; x++)
                    c[y * w + x] = ((x + y + phase) & 1) ? RPL_HEIGHT_MAX : RPL_HEIGHT_MIN;
            assert_int_equal(rpl_sim_set_state(sim, c, p), RPL_OK);
            for (size_t si = 0; si < sizeof strengths / sizeof strengths[0]; si++)
                for (int shading = 0; shading < 2; shading++)
                    check_refract(sim, bg, strengths[si], shading, 8);
            /* rows and columns of alternating sign too */
            for (int y = 1; y < h - 1; y++)
                for (int x = 1; x < w - 1; x++)
                    c[y * w + x] = ((phase ? x : y) & 1) ? RPL_HEIGHT_MAX : RPL_HEIGHT_MIN;
            assert_int_equal(rpl_sim_set_state(sim, c, p), RPL_OK);
            check_refract(sim, bg, RPL_STRENGTH_MAX, 1, 4);
            check_refract(sim, bg, RPL_STRENGTH_MAX, 0, 0);
            free(c);
            free(p);
        }
        free(bg);
        rpl_sim_destroy(sim);
    }
}

/* Hand-worked pixel: 5x5, one raised cell (2,2) = 32, strength 16,
 * shading on.  Pixel (1,2): xoff = H(0,2) - H(2,2) = -32, yoff = 0;
 * source x = 1 + (-32*16 >> 4) = 1 - 32 -> clamped 0, y = 2: bg(0,2).
 * d = (-(-32 + 0)) >> 2 = 8: each channel + 8, saturating.
 * Pixel (3,2): xoff = 32 - 0 = 32 -> source x = 35 -> 4; d = -32 >> 2 = -8.
 * Pixel (2,1): yoff = H(2,0) - H(2,2) = -32 -> source y 0; d = +8. */
static void test_refract_hand_pixel(void **state)
{
    (void)state;
    rpl_sim_t *sim = new_sim(5, 5, 1);
    int16_t c[25] = {0}, p[25] = {0};
    c[12] = 32;
    assert_int_equal(rpl_sim_set_state(sim, c, p), RPL_OK);
    uint32_t bg[25];
    for (int i = 0; i < 25; i++)
        bg[i] = 0x10203040u + (uint32_t)i;
    bg[2 * 5 + 0] = 0x7FFA0105u; /* (0,2) */
    bg[2 * 5 + 4] = 0x80FF0703u; /* (4,2) */
    bg[0 * 5 + 2] = 0x01F8F9FAu; /* (2,0) */
    uint32_t fb[25];
    rpl_view_t view = {RPL_STRENGTH_ONE, 1};
    assert_int_equal(rpl_refract(sim, bg, fb, 20, RPL_XRGB8888, &view), RPL_OK);
    /* 0x7F FA 01 05 + 8: FA+8 = 0x102 -> FF, 01+8 = 09, 05+8 = 0D */
    assert_int_equal(fb[2 * 5 + 1], 0x7FFF090Du);
    /* 0x80 FF 07 03 - 8: FF-8 = F7, 07-8 -> 00, 03-8 -> 00 */
    assert_int_equal(fb[2 * 5 + 3], 0x80F70000u);
    /* 0x01 F8 F9 FA + 8: F8+8 = 0x100 -> FF, FF, FF */
    assert_int_equal(fb[1 * 5 + 2], 0x01FFFFFFu);
    /* centre (2,2): both offsets 0 -> bg(2,2) unchanged */
    assert_int_equal(fb[12], bg[12]);
    /* a far corner (0,0): all neighbours 0 -> bg(0,0) */
    assert_int_equal(fb[0], bg[0]);
    rpl_sim_destroy(sim);
}

static void test_refract_rejects(void **state)
{
    (void)state;
    rpl_sim_t *sim = new_sim(8, 6, 1);
    uint32_t bg[48] = {0}, fb[48 + 8];
    for (size_t i = 0; i < sizeof fb / sizeof fb[0]; i++)
        fb[i] = 0xDEADBEEFu;
    rpl_view_t ok = {RPL_STRENGTH_ONE, 1};
    rpl_view_t neg = {-1, 0}, big = {RPL_STRENGTH_MAX + 1, 0}, huge = {INT_MAX, 1},
               tiny = {INT_MIN, 1};
    assert_int_equal(rpl_refract(NULL, bg, fb, 32, RPL_XRGB8888, &ok), RPL_EINVAL);
    assert_int_equal(rpl_refract(sim, NULL, fb, 32, RPL_XRGB8888, &ok), RPL_EINVAL);
    assert_int_equal(rpl_refract(sim, bg, NULL, 32, RPL_XRGB8888, &ok), RPL_EINVAL);
    assert_int_equal(rpl_refract(sim, bg, fb, 32, RPL_XRGB8888, NULL), RPL_EINVAL);
    assert_int_equal(rpl_refract(sim, bg, fb, 32, RPL_XRGB8888, &neg), RPL_EINVAL);
    assert_int_equal(rpl_refract(sim, bg, fb, 32, RPL_XRGB8888, &big), RPL_EINVAL);
    assert_int_equal(rpl_refract(sim, bg, fb, 32, RPL_XRGB8888, &huge), RPL_EINVAL);
    assert_int_equal(rpl_refract(sim, bg, fb, 32, RPL_XRGB8888, &tiny), RPL_EINVAL);
    assert_int_equal(rpl_refract(sim, bg, fb, 31, RPL_XRGB8888, &ok), RPL_EINVAL);
    assert_int_equal(rpl_refract(sim, bg, fb, 0, RPL_XRGB8888, &ok), RPL_EINVAL);
    assert_int_equal(rpl_refract(sim, bg, fb, 34, RPL_XRGB8888, &ok), RPL_EINVAL); /* not whole pixels */
    assert_int_equal(rpl_refract(sim, bg, fb, -32, RPL_XRGB8888, &ok), RPL_EINVAL);
    assert_int_equal(rpl_refract(sim, bg, fb, 32, (rpl_format)1, &ok), RPL_EINVAL);
    assert_int_equal(rpl_refract(sim, bg, fb, 32, (rpl_format)-1, &ok), RPL_EINVAL);
    for (size_t i = 0; i < sizeof fb / sizeof fb[0]; i++)
        assert_int_equal(fb[i], 0xDEADBEEFu);
    /* the limits are accepted */
    rpl_view_t zero = {0, 0}, max = {RPL_STRENGTH_MAX, 1};
    assert_int_equal(rpl_refract(sim, bg, fb, 32, RPL_XRGB8888, &zero), RPL_OK);
    assert_int_equal(rpl_refract(sim, bg, fb, 36, RPL_XRGB8888, &max), RPL_OK);
    rpl_sim_destroy(sim);
}

/* ---- through a backdrop (rpl_render) ---------------------------------- */

/* The documented shading of an RGB565 pixel. */
static uint16_t ref_shade565(uint16_t px, int d)
{
    int r = (int)clamp64((px >> 11) + floor_div_pow2(d, 3), 0, 31);
    int g = (int)clamp64(((px >> 5) & 63) + floor_div_pow2(d, 2), 0, 63);
    int b = (int)clamp64((px & 31) + floor_div_pow2(d, 3), 0, 31);
    return (uint16_t)(r << 11 | g << 5 | b);
}

/* The documented pixel of any format from the backdrop's own pixels (and
 * for INDEX8 its shade table). */
static uint32_t ref_pixel_fmt(const int16_t *hs, const rpl_backdrop_t *bd, int w, int h, int x,
                              int y, int strength, int shading)
{
    int64_t xoff = ref_H(hs, w, h, x - 1, y) - ref_H(hs, w, h, x + 1, y);
    int64_t yoff = ref_H(hs, w, h, x, y - 1) - ref_H(hs, w, h, x, y + 1);
    int64_t sx = clamp64(x + floor_div_pow2(xoff * strength, 4), 0, w - 1);
    int64_t sy = clamp64(y + floor_div_pow2(yoff * strength, 4), 0, h - 1);
    int d = (int)clamp64(floor_div_pow2(-(xoff + yoff), 2), -RPL_SHADE_MAX, RPL_SHADE_MAX);
    size_t i = (size_t)(sy * w + sx);
    switch (rpl_backdrop_format(bd)) {
    case RPL_RGB565: {
        uint16_t px = ((const uint16_t *)rpl_backdrop_pixels(bd))[i];
        return shading ? ref_shade565(px, d) : px;
    }
    case RPL_INDEX8: {
        uint8_t px = ((const uint8_t *)rpl_backdrop_pixels(bd))[i];
        int q = (int)floor_div_pow2(d + 2, 2);
        return shading ? rpl_backdrop_shade_table(bd)[(q + RPL_SHADE_STEPS) * 256 + px] : px;
    }
    default:
        return ref_pixel(hs, rpl_backdrop_pixels(bd), w, h, x, y, strength, shading);
    }
}

static uint32_t read_px(const unsigned char *p, int bytes)
{
    if (bytes == 4) {
        uint32_t v;
        memcpy(&v, p, 4);
        return v;
    }
    if (bytes == 2) {
        uint16_t v;
        memcpy(&v, p, 2);
        return v;
    }
    return *p;
}

/* rpl_render (or, with `changed`, a renderer drawing twice: the first
 * draw of a renderer draws every tile, the second only those that may
 * have changed, which must leave the same frame) with pitch = w + padpx
 * pixels into a guarded buffer, compared pixel by pixel with the
 * reference. */
static void check_render(rpl_sim_t *sim, const rpl_backdrop_t *bd, int strength, int shading,
                         int padpx, int changed)
{
    int w = width_of(sim), h = height_of(sim), bytes = rpl_format_bytes(rpl_backdrop_format(bd));
    int pad = padpx * bytes;
    ptrdiff_t pitch = (ptrdiff_t)w * bytes + pad;
    size_t total = (size_t)pitch * (size_t)h + 64;
    unsigned char *fb = malloc(total);
    assert_non_null(fb);
    memset(fb, GUARD, total);
    rpl_view_t view = {strength, shading};
    if (changed) {
        rpl_renderer_t *ren;
        assert_int_equal(rpl_renderer_create(sim, &ren), RPL_OK);
        assert_non_null(ren);
        assert_ptr_equal(rpl_renderer_field(ren), sim);
        rpl_stats_t st;
        assert_int_equal(rpl_renderer_draw(ren, bd, fb, pitch, &view), RPL_OK);
        rpl_sim_stats(sim, &st);
        assert_int_equal(rpl_renderer_drawn(ren), st.tiles);
        assert_int_equal(rpl_renderer_draw(ren, bd, fb, pitch, &view), RPL_OK);
        assert_string_equal(rpl_renderer_error(ren), "");
        rpl_renderer_destroy(ren);
    } else {
        assert_int_equal(rpl_render(sim, bd, fb, pitch, &view), RPL_OK);
    }
    for (int y = 0; y < h; y++) {
        const unsigned char *row = fb + (size_t)y * (size_t)pitch;
        for (int x = 0; x < w; x++) {
            uint32_t got = read_px(row + (size_t)x * (size_t)bytes, bytes);
            uint32_t want = ref_pixel_fmt(cur_of(sim), bd, w, h, x, y, strength, shading);
            if (got != want)
                fail_msg("%d bpp %dx%d strength %d shading %d: pixel (%d,%d) is %x, want %x",
                         8 * bytes, w, h, strength, shading, x, y, got, want);
        }
        for (int b = 0; b < pad; b++)
            if (row[(size_t)w * (size_t)bytes + (size_t)b] != GUARD)
                fail_msg("padding byte %d of row %d was written", b, y);
    }
    for (size_t i = (size_t)pitch * (size_t)h; i < total; i++)
        assert_int_equal(fb[i], GUARD);
    free(fb);
}

/* A 5x5 field, one cell (2,2) raised to 400, strength 16, shading on:
 * pixel (1,2): xoff = 0 - 400, yoff = 0: source x 1 - 400 -> 0, so bg(0,2),
 *   d = 400 >> 2 = 100 -> clamped 96;
 * pixel (3,2): xoff = 400: source x -> 4, bg(4,2), d = -100 -> -96;
 * with 32 instead of 400 the same pixels get d = +8 and -8. */
static void test_render_rgb565_hand(void **state)
{
    (void)state;
    rpl_sim_t *sim = new_sim(5, 5, 1);
    int16_t c[25] = {0}, p[25] = {0};
    uint32_t bg[25];
    for (int i = 0; i < 25; i++)
        bg[i] = 0x00102030u;
    bg[2 * 5 + 0] = 0x00A5A229u; /* 565: r 20, g 40, b 5 = 0xA505 */
    bg[2 * 5 + 4] = 0x00A5A229u;
    rpl_backdrop_t *bd = new_backdrop(bg, 5, 5, RPL_RGB565);
    uint16_t fb[25];
    rpl_view_t view = {RPL_STRENGTH_ONE, 1};

    c[12] = 400;
    assert_int_equal(rpl_sim_set_state(sim, c, p), RPL_OK);
    assert_int_equal(rpl_render(sim, bd, fb, 10, &view), RPL_OK);
    /* d = 96: r 20 + 12 = 32 -> 31, g 40 + 24 = 64 -> 63, b 5 + 12 = 17 */
    assert_int_equal(fb[2 * 5 + 1], 31 << 11 | 63 << 5 | 17);
    /* d = -96: r 20 - 12 = 8, g 40 - 24 = 16, b 5 - 12 -> 0 */
    assert_int_equal(fb[2 * 5 + 3], 8 << 11 | 16 << 5 | 0);

    c[12] = 32;
    assert_int_equal(rpl_sim_set_state(sim, c, p), RPL_OK);
    assert_int_equal(rpl_render(sim, bd, fb, 10, &view), RPL_OK);
    /* d = 8: r + 1, g + 2, b + 1 */
    assert_int_equal(fb[2 * 5 + 1], 21 << 11 | 42 << 5 | 6);
    /* d = -8: r - 1, g - 2, b - 1 */
    assert_int_equal(fb[2 * 5 + 3], 19 << 11 | 38 << 5 | 4);
    /* far corner: background 0x102030 -> 16: 623/255 = 2, 32: 2143/255 = 8,
     * 48: 1615/255 = 6 */
    assert_int_equal(fb[0], 2 << 11 | 8 << 5 | 6);
    /* d = 5 (xoff -20 at pixel (1,2)): 5 >> 3 = 0 in red and blue, 5 >> 2 = 1 in green */
    c[12] = 20;
    assert_int_equal(rpl_sim_set_state(sim, c, p), RPL_OK);
    assert_int_equal(rpl_render(sim, bd, fb, 10, &view), RPL_OK);
    assert_int_equal(fb[2 * 5 + 1], 20 << 11 | 41 << 5 | 5);
    /* d = -5: -5 >> 3 = -1, -5 >> 2 = -2 (arithmetic shifts round down) */
    assert_int_equal(fb[2 * 5 + 3], 19 << 11 | 38 << 5 | 4);
    /* shading off: the plain texels */
    view.shading = 0;
    assert_int_equal(rpl_render(sim, bd, fb, 10, &view), RPL_OK);
    assert_int_equal(fb[2 * 5 + 1], 0xA505);
    assert_int_equal(fb[2 * 5 + 3], 0xA505);
    rpl_backdrop_destroy(bd);
    rpl_sim_destroy(sim);
}

/* Flat water shows the backdrop's own pixels in every format. */
static void test_render_flat_is_backdrop(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof refract_sizes / sizeof refract_sizes[0]; k++) {
        int w = refract_sizes[k][0], h = refract_sizes[k][1];
        rpl_sim_t *sim = new_sim(w, h, 1);
        uint32_t *bg = random_bg(w, h, 150 + k);
        for (int f = 0; f < 3; f++) {
            rpl_backdrop_t *bd = new_backdrop(bg, w, h, all_formats[f]);
            size_t bytes = (size_t)rpl_format_bytes(all_formats[f]), row = (size_t)w * bytes;
            size_t pitch = row + 3 * bytes;
            unsigned char *fb = malloc(pitch * (size_t)h);
            assert_non_null(fb);
            for (size_t si = 0; si < sizeof strengths / sizeof strengths[0]; si++)
                for (int shading = 0; shading < 2; shading++) {
                    memset(fb, 0x5A, pitch * (size_t)h);
                    rpl_view_t view = {strengths[si], shading};
                    assert_int_equal(rpl_render(sim, bd, fb, (ptrdiff_t)pitch, &view), RPL_OK);
                    for (int y = 0; y < h; y++)
                        assert_memory_equal(fb + (size_t)y * pitch,
                                            (const unsigned char *)rpl_backdrop_pixels(bd) +
                                                (size_t)y * row,
                                            row);
                }
            if (all_formats[f] == RPL_XRGB8888) /* a copy of the picture as given */
                assert_memory_equal(rpl_backdrop_pixels(bd), bg, (size_t)w * (size_t)h * 4);
            free(fb);
            rpl_backdrop_destroy(bd);
        }
        free(bg);
        rpl_sim_destroy(sim);
    }
}

static void test_render_matches_reference(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof refract_sizes / sizeof refract_sizes[0]; k++) {
        int w = refract_sizes[k][0], h = refract_sizes[k][1];
        rpl_sim_t *sim = new_sim(w, h, 1);
        uint32_t *bg = random_bg(w, h, 170 + k);
        rpl_backdrop_t *bd[3];
        for (int f = 0; f < 3; f++)
            bd[f] = new_backdrop(bg, w, h, all_formats[f]);
        for (int range = 0; range < 3; range++) {
            static const int lims[3] = {40, 700, RPL_HEIGHT_MAX};
            random_state(sim, 500 + 10 * k + (uint64_t)range, -lims[range] - 1, lims[range]);
            for (size_t si = 0; si < sizeof strengths / sizeof strengths[0]; si++)
                for (int shading = 0; shading < 2; shading++)
                    for (int f = 0; f < 3; f++)
                        check_render(sim, bd[f], strengths[si], shading,
                                     (int)(si % 3) * 4 + f, 0);
        }
        /* a wave of the core's own, drawn whole and then changed-only */
        rpl_sim_reset(sim, 3);
        assert_int_equal(rpl_sim_drop(sim, w / 2, h / 2, 3, 2000), RPL_OK);
        for (int i = 0; i < 7; i++)
            rpl_sim_step(sim);
        for (int f = 0; f < 3; f++) {
            check_render(sim, bd[f], RPL_STRENGTH_ONE, 1, 6, 0);
            check_render(sim, bd[f], 9, 0, 2, 1);
            rpl_backdrop_destroy(bd[f]);
        }
        free(bg);
        rpl_sim_destroy(sim);
    }
}

/* rpl_refract and rpl_render of an XRGB8888 backdrop draw the same bytes. */
static void test_render_xrgb_same_as_refract(void **state)
{
    (void)state;
    int w = 70, h = 45;
    rpl_sim_t *sim = new_sim(w, h, 1);
    random_state(sim, 44, -900, 900);
    uint32_t *bg = random_bg(w, h, 45);
    rpl_backdrop_t *bd = new_backdrop(bg, w, h, RPL_XRGB8888);
    uint32_t *a = malloc((size_t)w * h * 4), *b = malloc((size_t)w * h * 4);
    assert_non_null(a);
    assert_non_null(b);
    for (int shading = 0; shading < 2; shading++) {
        rpl_view_t view = {23, shading};
        assert_int_equal(rpl_refract(sim, bg, a, (ptrdiff_t)w * 4, RPL_XRGB8888, &view), RPL_OK);
        assert_int_equal(rpl_render(sim, bd, b, (ptrdiff_t)w * 4, &view), RPL_OK);
        assert_memory_equal(a, b, (size_t)w * h * 4);
    }
    free(a);
    free(b);
    free(bg);
    rpl_backdrop_destroy(bd);
    rpl_sim_destroy(sim);
}

static void test_render_rejects(void **state)
{
    (void)state;
    rpl_sim_t *sim = new_sim(7, 6, 1);
    uint32_t bg[7 * 7] = {0};
    unsigned char fb[7 * 6 * 4 + 64];
    rpl_view_t ok = {RPL_STRENGTH_ONE, 1}, neg = {-1, 0}, big = {RPL_STRENGTH_MAX + 1, 0};
    rpl_renderer_t *ren;
    assert_int_equal(rpl_renderer_create(sim, &ren), RPL_OK);
    assert_non_null(ren);
    for (int f = 0; f < 3; f++) {
        rpl_backdrop_t *bd = new_backdrop(bg, 7, 6, all_formats[f]);
        rpl_backdrop_t *tall = new_backdrop(bg, 7, 7, all_formats[f]);
        rpl_backdrop_t *wide = new_backdrop(bg, 6, 6, all_formats[f]);
        ptrdiff_t b = rpl_format_bytes(all_formats[f]), row = 7 * b;
        memset(fb, 0xC3, sizeof fb);
        assert_int_equal(rpl_render(NULL, bd, fb, row, &ok), RPL_EINVAL);
        assert_int_equal(rpl_render(sim, NULL, fb, row, &ok), RPL_EINVAL);
        assert_int_equal(rpl_render(sim, bd, NULL, row, &ok), RPL_EINVAL);
        assert_int_equal(rpl_render(sim, bd, fb, row, NULL), RPL_EINVAL);
        assert_int_equal(rpl_render(sim, bd, fb, row, &neg), RPL_EINVAL);
        assert_int_equal(rpl_render(sim, bd, fb, row, &big), RPL_EINVAL);
        assert_int_equal(rpl_render(sim, tall, fb, row, &ok), RPL_EINVAL); /* sizes differ */
        assert_true(strlen(rpl_sim_error(sim)) > 0);
        assert_int_equal(rpl_render(sim, wide, fb, row, &ok), RPL_EINVAL);
        assert_int_equal(rpl_renderer_draw(ren, wide, fb, row, &ok), RPL_EINVAL);
        assert_non_null(strstr(rpl_renderer_error(ren), "6x6")); /* names the wrong size */
        assert_int_equal(rpl_render(sim, bd, fb, row - b, &ok), RPL_EINVAL); /* too short */
        assert_int_equal(rpl_render(sim, bd, fb, 0, &ok), RPL_EINVAL);
        assert_int_equal(rpl_render(sim, bd, fb, -row, &ok), RPL_EINVAL);
        if (b > 1) /* not whole pixels */
            assert_int_equal(rpl_render(sim, bd, fb, row + 1, &ok), RPL_EINVAL);
        for (size_t i = 0; i < sizeof fb; i++)
            assert_int_equal(fb[i], 0xC3);
        /* the limits are accepted: pitch of exactly w pixels (7 bytes in INDEX8) */
        assert_int_equal(rpl_render(sim, bd, fb, row, &ok), RPL_OK);
        assert_int_equal(rpl_renderer_draw(ren, bd, fb, row + b, &ok), RPL_OK);
        rpl_backdrop_destroy(bd);
        rpl_backdrop_destroy(tall);
        rpl_backdrop_destroy(wide);
    }
    /* the raw-background calls draw XRGB8888 only; through a renderer a
     * raw background is an XRGB8888 backdrop, which a pitch of 16-bit
     * pixels cannot hold */
    assert_int_equal(rpl_refract(sim, bg, fb, 14, RPL_RGB565, &ok), RPL_EINVAL);
    assert_int_equal(rpl_refract(sim, bg, fb, 7, RPL_INDEX8, &ok), RPL_EINVAL);
    rpl_backdrop_t *raw = new_backdrop(bg, 7, 6, RPL_XRGB8888);
    assert_int_equal(rpl_renderer_draw(ren, raw, fb, 14, &ok), RPL_EINVAL);
    assert_non_null(strstr(rpl_renderer_error(ren), "pitch"));
    rpl_backdrop_destroy(raw);
    rpl_renderer_destroy(ren);
    rpl_sim_destroy(sim);
}

/* Renderers in each format give the frames a full render gives, and
 * anything that changes what a renderer draws (framebuffer, backdrop,
 * view) redraws every tile. */
static void test_render_changed_formats(void **state)
{
    (void)state;
    int w = 200, h = 97;
    size_t npx = (size_t)w * h;
    uint32_t *bg = random_bg(w, h, 61);
    rpl_sim_t *a = new_sim(w, h, 8), *b = new_sim(w, h, 8);
    rpl_sim_set_sleeping(b, 0);
    rpl_backdrop_t *bd[3];
    rpl_renderer_t *keep[3];
    unsigned char *fa[3], *fb[3], *fk[3];
    for (int f = 0; f < 3; f++) {
        bd[f] = new_backdrop(bg, w, h, all_formats[f]);
        assert_int_equal(rpl_renderer_create(a, &keep[f]), RPL_OK);
        assert_non_null(keep[f]);
        fa[f] = calloc(npx, 4);
        fb[f] = calloc(npx, 4);
        fk[f] = calloc(npx, 4);
        assert_non_null(fa[f]);
        assert_non_null(fb[f]);
        assert_non_null(fk[f]);
    }
    /* one renderer taking turns over the three framebuffers */
    rpl_renderer_t *turns;
    assert_int_equal(rpl_renderer_create(a, &turns), RPL_OK);
    assert_non_null(turns);
    rpl_view_t view = {RPL_STRENGTH_ONE, 1};
    rpl_stats_t st;
    unsigned fewest = UINT_MAX;
    uint64_t r = 99;
    for (int s = 0; s < 400; s++) {
        if (s % 50 == 0) {
            int x = rnd_range(&r, 0, w - 1), y = rnd_range(&r, 0, h - 1);
            assert_int_equal(rpl_sim_drop(a, x, y, 4, 800), RPL_OK);
            assert_int_equal(rpl_sim_drop(b, x, y, 4, 800), RPL_OK);
        }
        rpl_sim_step(a);
        rpl_sim_step(b);
        for (int f = 0; f < 3; f++) {
            ptrdiff_t pitch = (ptrdiff_t)w * rpl_format_bytes(all_formats[f]);
            assert_int_equal(rpl_render(b, bd[f], fb[f], pitch, &view), RPL_OK);
            /* a renderer that keeps one framebuffer redraws what changed */
            assert_int_equal(rpl_renderer_draw(keep[f], bd[f], fk[f], pitch, &view), RPL_OK);
            assert_memory_equal(fk[f], fb[f], (size_t)pitch * (size_t)h);
            if (rpl_renderer_drawn(keep[f]) < fewest)
                fewest = rpl_renderer_drawn(keep[f]);
            /* switching framebuffer and format every call: each is a full redraw */
            assert_int_equal(rpl_renderer_draw(turns, bd[f], fa[f], pitch, &view), RPL_OK);
            assert_memory_equal(fa[f], fb[f], (size_t)pitch * (size_t)h);
            rpl_sim_stats(a, &st);
            assert_int_equal(st.rendered, st.tiles);
            assert_int_equal(rpl_renderer_drawn(turns), st.tiles);
        }
    }
    rpl_sim_stats(a, &st);
    assert_true(fewest < st.tiles); /* the kept framebuffers were not all redrawn whole */
    rpl_renderer_destroy(turns);
    for (int f = 0; f < 3; f++)
        rpl_renderer_destroy(keep[f]);

    /* a calm field: a renderer draws only the stone's tiles, unless what
     * it draws from or into changed */
    rpl_sim_t *c = new_sim(w, h, 8);
    rpl_renderer_t *ren;
    assert_int_equal(rpl_renderer_create(c, &ren), RPL_OK);
    assert_non_null(ren);
    assert_int_equal(rpl_sim_drop(c, 10, 10, 3, 500), RPL_OK);
    for (int s = 0; s < 3; s++)
        rpl_sim_step(c);
    rpl_backdrop_t *other = new_backdrop(bg, w, h, RPL_INDEX8);
    /* the raw background, as a renderer takes it: a backdrop of its own */
    rpl_backdrop_t *raw = new_backdrop(bg, w, h, RPL_XRGB8888);
    uint8_t *want = malloc(npx);
    assert_non_null(want);
    static const struct {
        int which;    /* 0: bd[2] into fa[2], 1: other into fa[2], 2: bd[0] into fa[0],
                       * 3: the raw background into fa[0], 4: bd[2] into fa[1],
                       * 5: bd[2] into fa[2] with a longer pitch, 6: bd[2] into fa[2]
                       * at another strength */
        int full;     /* 1: every tile redrawn */
    } seq[] = {{0, 1}, {0, 0}, {1, 1}, {1, 0}, {0, 1}, {4, 1}, {4, 0}, {0, 1}, {5, 1}, {5, 0},
               {0, 1}, {6, 1}, {6, 0}, {0, 1}, {2, 1}, {2, 0}, {3, 1}, {3, 0}, {2, 1}};
    const rpl_view_t stronger = {view.strength + 1, view.shading};
    for (size_t i = 0; i < sizeof seq / sizeof seq[0]; i++) {
        rpl_status rs;
        switch (seq[i].which) {
        case 0: rs = rpl_renderer_draw(ren, bd[2], fa[2], w, &view); break;
        case 1: rs = rpl_renderer_draw(ren, other, fa[2], w, &view); break;
        case 2: rs = rpl_renderer_draw(ren, bd[0], fa[0], (ptrdiff_t)w * 4, &view); break;
        case 3: rs = rpl_renderer_draw(ren, raw, fa[0], (ptrdiff_t)w * 4, &view); break;
        case 4: rs = rpl_renderer_draw(ren, bd[2], fa[1], w, &view); break;
        case 5: rs = rpl_renderer_draw(ren, bd[2], fa[2], (ptrdiff_t)w + 8, &view); break;
        default: rs = rpl_renderer_draw(ren, bd[2], fa[2], w, &stronger); break;
        }
        assert_int_equal(rs, RPL_OK);
        rpl_sim_stats(c, &st);
        assert_int_equal(rpl_renderer_drawn(ren), st.rendered);
        if (seq[i].full ? st.rendered != st.tiles : !(st.rendered > 0 && st.rendered < st.tiles))
            fail_msg("render %zu: %u of %u tiles drawn", i, st.rendered, st.tiles);
    }
    view.shading = 0; /* another view: everything */
    assert_int_equal(rpl_renderer_draw(ren, bd[2], fa[2], w, &view), RPL_OK);
    rpl_sim_stats(c, &st);
    assert_int_equal(st.rendered, st.tiles);
    assert_int_equal(rpl_render(b, bd[2], want, w, &view), RPL_OK);
    rpl_sim_set_sleeping(b, 1);
    assert_int_equal(rpl_sim_set_state(b, cur_of(c), prev_of(c)), RPL_OK);
    assert_int_equal(rpl_render(b, bd[2], want, w, &view), RPL_OK);
    assert_memory_equal(fa[2], want, npx);
    free(want);
    rpl_renderer_destroy(ren);
    rpl_sim_destroy(c);
    rpl_backdrop_destroy(other);
    rpl_backdrop_destroy(raw);
    for (int f = 0; f < 3; f++) {
        rpl_backdrop_destroy(bd[f]);
        free(fa[f]);
        free(fb[f]);
        free(fk[f]);
    }
    free(bg);
    rpl_sim_destroy(a);
    rpl_sim_destroy(b);
}

/* ---- what a renderer reports it changed --------------------------------- */

/* The tiles (64 x 32, clipped) of a w x h field that rectangle r covers,
 * after checking that r is made of whole tiles. */
static unsigned tiles_in(const rpl_rect_t *r, int w, int h)
{
    assert_true(r->w > 0 && r->h > 0);
    assert_int_equal(r->x % RPL_TILE_W, 0);
    assert_int_equal(r->y % RPL_TILE_H, 0);
    assert_true(r->x + r->w <= w && r->y + r->h <= h);
    assert_true((r->x + r->w) % RPL_TILE_W == 0 || r->x + r->w == w);
    assert_true((r->y + r->h) % RPL_TILE_H == 0 || r->y + r->h == h);
    return (unsigned)(((r->w + RPL_TILE_W - 1) / RPL_TILE_W) *
                      ((r->h + RPL_TILE_H - 1) / RPL_TILE_H));
}

/* The changed rectangles of a renderer's last draw: whole tiles, never
 * overlapping, as many tiles as it drew, and every pixel that differs
 * between before and after inside one of them.  Returns their count. */
static int check_changed(rpl_renderer_t *ren, const uint32_t *before, const uint32_t *after,
                         int w, int h)
{
    int n = rpl_renderer_changed(ren, NULL, 0);
    assert_true(n >= 0);
    rpl_rect_t *rc = xmalloc(((size_t)n + 1) * sizeof *rc);
    rc[n] = (rpl_rect_t){ -7, -7, -7, -7 }; /* not written past the count */
    assert_int_equal(rpl_renderer_changed(ren, rc, n), n);
    assert_int_equal(rc[n].x, -7);
    unsigned tiles = 0;
    unsigned char *cover = calloc((size_t)w * h, 1);
    assert_non_null(cover);
    for (int i = 0; i < n; i++) {
        tiles += tiles_in(&rc[i], w, h);
        for (int y = rc[i].y; y < rc[i].y + rc[i].h; y++)
            for (int x = rc[i].x; x < rc[i].x + rc[i].w; x++) {
                assert_int_equal(cover[(size_t)y * w + x], 0); /* no overlap */
                cover[(size_t)y * w + x] = 1;
            }
    }
    assert_int_equal(tiles, rpl_renderer_drawn(ren));
    for (size_t i = 0; i < (size_t)w * h; i++)
        if (before[i] != after[i])
            assert_int_equal(cover[i], 1);
    if (n > 1) { /* a shorter list gets the first ones */
        rpl_rect_t one = { 0, 0, 0, 0 };
        assert_int_equal(rpl_renderer_changed(ren, &one, 1), n);
        assert_memory_equal(&one, &rc[0], sizeof one);
    }
    free(cover);
    free(rc);
    return n;
}

static void test_renderer_changed(void **state)
{
    (void)state;
    int w = 200, h = 100; /* 4 x 4 tiles, the last column 8 wide, the last row 4 high */
    size_t npx = (size_t)w * h;
    uint32_t *bg = random_bg(w, h, 5);
    rpl_backdrop_t *bd = new_backdrop(bg, w, h, RPL_XRGB8888);
    rpl_sim_t *sim = new_sim(w, h, 3);
    rpl_renderer_t *ren;
    assert_int_equal(rpl_renderer_create(sim, &ren), RPL_OK);
    assert_non_null(ren);
    uint32_t *fb = calloc(npx, 4), *old = calloc(npx, 4), *ref = calloc(npx, 4);
    assert_non_null(fb);
    assert_non_null(old);
    assert_non_null(ref);
    rpl_view_t view = { RPL_STRENGTH_ONE, 1 };
    ptrdiff_t pitch = (ptrdiff_t)w * 4;
    rpl_rect_t r;

    assert_int_equal(rpl_renderer_changed(ren, &r, 1), 0); /* nothing drawn yet */
    /* the first draw: everything, as one rectangle */
    assert_int_equal(rpl_renderer_draw(ren, bd, fb, pitch, &view), RPL_OK);
    assert_int_equal(check_changed(ren, old, fb, w, h), 1);
    assert_int_equal(rpl_renderer_changed(ren, &r, 1), 1);
    assert_int_equal(r.x, 0);
    assert_int_equal(r.y, 0);
    assert_int_equal(r.w, w);
    assert_int_equal(r.h, h);
    /* calm water: nothing */
    memcpy(old, fb, npx * 4);
    assert_int_equal(rpl_renderer_draw(ren, bd, fb, pitch, &view), RPL_OK);
    assert_int_equal(check_changed(ren, old, fb, w, h), 0);

    /* something drew over a pixel of tile (1, 1): that tile only, next time */
    rpl_renderer_invalidate_rect(ren, 70, 40, 1, 1);
    fb[40 * w + 70] ^= 0xFFFFFF;
    memcpy(old, fb, npx * 4);
    assert_int_equal(rpl_renderer_draw(ren, bd, fb, pitch, &view), RPL_OK);
    assert_int_equal(check_changed(ren, old, fb, w, h), 1);
    assert_int_equal(rpl_renderer_changed(ren, &r, 1), 1);
    assert_true(r.x == 64 && r.y == 32 && r.w == 64 && r.h == 32);
    assert_int_equal(rpl_render(sim, bd, ref, pitch, &view), RPL_OK);
    assert_memory_equal(fb, ref, npx * 4); /* the pixel is water again */
    /* clipped at every side: the corner tiles, and nothing for empty ones */
    rpl_renderer_invalidate_rect(ren, -50, -50, 51, 51);
    rpl_renderer_invalidate_rect(ren, 199, 99, INT_MAX, INT_MAX);
    rpl_renderer_invalidate_rect(ren, INT_MIN, 50, 10, 10); /* left of the field */
    rpl_renderer_invalidate_rect(ren, 10, 10, 0, 5);
    rpl_renderer_invalidate_rect(ren, 10, 10, 5, -1);
    rpl_renderer_invalidate_rect(NULL, 0, 0, 1, 1);
    assert_int_equal(rpl_renderer_draw(ren, bd, fb, pitch, &view), RPL_OK);
    rpl_rect_t two[2];
    assert_int_equal(rpl_renderer_changed(ren, two, 2), 2);
    assert_true(two[0].x == 0 && two[0].y == 0 && two[0].w == 64 && two[0].h == 32);
    assert_true(two[1].x == 192 && two[1].y == 96 && two[1].w == 8 && two[1].h == 4);

    /* moving water: compared with the frame before, draw after draw; a
     * band of tiles the same width on every row is one rectangle */
    uint64_t rs = 17;
    int most = 0;
    for (int s = 0; s < 300; s++) {
        if (s % 60 == 0)
            assert_int_equal(rpl_sim_drop(sim, rnd_range(&rs, 0, w - 1),
                                          rnd_range(&rs, 0, h - 1), 3, 600), RPL_OK);
        rpl_sim_step(sim);
        memcpy(old, fb, npx * 4);
        assert_int_equal(rpl_renderer_draw(ren, bd, fb, pitch, &view), RPL_OK);
        int n = check_changed(ren, old, fb, w, h);
        most = n > most ? n : most;
    }
    assert_true(most >= 1);
    assert_int_equal(rpl_render(sim, bd, ref, pitch, &view), RPL_OK);
    assert_memory_equal(fb, ref, npx * 4);

    /* a failed draw changed nothing */
    rpl_view_t bad = { -1, 0 };
    assert_int_equal(rpl_renderer_draw(ren, bd, fb, pitch, &bad), RPL_EINVAL);
    assert_int_equal(rpl_renderer_changed(ren, &r, 1), 0);
    /* without sleeping tiles every draw is the whole frame */
    rpl_sim_set_sleeping(sim, 0);
    assert_int_equal(rpl_renderer_draw(ren, bd, fb, pitch, &view), RPL_OK);
    assert_int_equal(rpl_renderer_changed(ren, &r, 1), 1);
    assert_true(r.x == 0 && r.y == 0 && r.w == w && r.h == h);
    assert_int_equal(rpl_renderer_changed(NULL, &r, 1), 0);

    free(fb);
    free(old);
    free(ref);
    rpl_renderer_destroy(ren);
    rpl_backdrop_destroy(bd);
    rpl_sim_destroy(sim);
    free(bg);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_refract_flat_is_background),
        cmocka_unit_test(test_refract_matches_reference),
        cmocka_unit_test(test_refract_extreme_heights),
        cmocka_unit_test(test_refract_hand_pixel),
        cmocka_unit_test(test_refract_rejects),
        cmocka_unit_test(test_render_rgb565_hand),
        cmocka_unit_test(test_render_flat_is_backdrop),
        cmocka_unit_test(test_render_matches_reference),
        cmocka_unit_test(test_render_xrgb_same_as_refract),
        cmocka_unit_test(test_render_rejects),
        cmocka_unit_test(test_render_changed_formats),
        cmocka_unit_test(test_renderer_changed),
    };
    return cmocka_run_group_tests_name("render", tests, NULL, NULL);
}
