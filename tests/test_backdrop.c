/* test_backdrop.c - pixel formats and backdrops: RGB565 conversion, the INDEX8 palette, its median cut and shade table (cmocka). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>
#include <math.h>
#include <stdlib.h>

#include "ripple.h"
#include "util.h"

/* The 8-bit channel of px at bit `shift`. */
static int chan_of(uint32_t px, int shift)
{
    return (int)((px >> shift) & 0xFF);
}

/* Brute force: the entry of the 256 nearest to colour c (R, G, B), ties
 * to the lowest index. */
static int brute_nearest(const uint32_t *pal, uint32_t c)
{
    int best = -1;
    long bestd = LONG_MAX;
    for (int e = 0; e < 256; e++) {
        long dr = chan_of(c, 16) - chan_of(pal[e], 16);
        long dg = chan_of(c, 8) - chan_of(pal[e], 8);
        long db = chan_of(c, 0) - chan_of(pal[e], 0);
        long d = dr * dr + dg * dg + db * db;
        if (d < bestd)
            bestd = d, best = e;
    }
    return best;
}

/* The level of `bits` nearest to the 8-bit value v: the L minimising
 * |v * (2^bits - 1) - 255 * L|.  Never a tie: that would need
 * v * (2^bits - 1) = 255 * L + 127.5. */
static int nearest_level(int v, int bits)
{
    int top = (1 << bits) - 1, best = 0;
    for (int l = 1; l <= top; l++)
        if (labs((long)v * top - 255L * l) < labs((long)v * top - 255L * best))
            best = l;
    return best;
}

static uint16_t ref_565(uint32_t px)
{
    return (uint16_t)(nearest_level(chan_of(px, 16), 5) << 11 |
                      nearest_level(chan_of(px, 8), 6) << 5 | nearest_level(chan_of(px, 0), 5));
}

static void test_format_bytes(void **state)
{
    (void)state;
    assert_int_equal(RPL_XRGB8888, 0);
    assert_int_equal(rpl_format_bytes(RPL_XRGB8888), 4);
    assert_int_equal(rpl_format_bytes(RPL_RGB565), 2);
    assert_int_equal(rpl_format_bytes(RPL_INDEX8), 1);
    assert_int_equal(rpl_format_bytes((rpl_format)3), 0);
    assert_int_equal(rpl_format_bytes((rpl_format)-1), 0);
    assert_int_equal(RPL_SHADE_LEVELS, 2 * RPL_SHADE_STEPS + 1);
    /* the INDEX8 levels cover d exactly: (d + 2) >> 2 of +-RPL_SHADE_MAX */
    assert_int_equal(floor_div_pow2(RPL_SHADE_MAX + 2, 2), RPL_SHADE_STEPS);
    assert_int_equal(floor_div_pow2(-RPL_SHADE_MAX + 2, 2), -RPL_SHADE_STEPS);
}

static void test_backdrop_rejects(void **state)
{
    (void)state;
    uint32_t px[16 * 16] = {0};
    rpl_status st = RPL_OK;
    {
        rpl_backdrop_t *f_ = NULL;
        st = rpl_backdrop_create(NULL, 4, 4, RPL_XRGB8888, &f_);
        assert_non_null(f_); /* a failed handle, which says why */
        assert_true(rpl_backdrop_error(f_)[0] != '\0');
        rpl_backdrop_destroy(f_);
    }
    assert_int_equal(st, RPL_EINVAL);
    const int bad[][2] = {{2, 4}, {4, 2}, {0, 4}, {-1, 4}, {RPL_DIM_MAX + 1, 4},
                          {4, RPL_DIM_MAX + 1}, {INT_MIN, 4}, {4, INT_MAX}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        for (int f = 0; f < 3; f++) {
            st = RPL_OK;
            {
                rpl_backdrop_t *f_ = NULL;
                st = rpl_backdrop_create(px, bad[i][0], bad[i][1], all_formats[f], &f_);
                assert_non_null(f_); /* a failed handle, which says why */
                assert_true(rpl_backdrop_error(f_)[0] != '\0');
                rpl_backdrop_destroy(f_);
            }
            assert_int_equal(st, RPL_EINVAL);
        }
    st = RPL_OK;
    {
        rpl_backdrop_t *f_ = NULL;
        st = rpl_backdrop_create(px, 4, 4, (rpl_format)3, &f_);
        assert_non_null(f_); /* a failed handle, which says why */
        assert_true(rpl_backdrop_error(f_)[0] != '\0');
        rpl_backdrop_destroy(f_);
    }
    assert_int_equal(st, RPL_EINVAL);
    assert_int_equal(rpl_backdrop_create(px, 4, 4, (rpl_format)-1, NULL), RPL_EINVAL); /* status may be NULL */
    rpl_backdrop_destroy(NULL);
    /* the palette and shade table belong to INDEX8 only */
    for (int f = 0; f < 2; f++) {
        rpl_backdrop_t *bd = new_backdrop(px, 16, 16, all_formats[f]);
        assert_null(rpl_backdrop_palette(bd));
        assert_null(rpl_backdrop_shade_table(bd));
        assert_int_equal(rpl_backdrop_colors(bd), 0);
        rpl_backdrop_destroy(bd);
    }
    assert_null(rpl_backdrop_palette(NULL));
    assert_null(rpl_backdrop_shade_table(NULL));
    assert_int_equal(rpl_backdrop_colors(NULL), 0);
    rpl_backdrop_t *bd = new_backdrop(px, 3, 3, RPL_INDEX8);
    assert_int_equal(rpl_backdrop_colors(bd), 1); /* all black */
    assert_int_equal(rpl_backdrop_palette(bd)[0], 0xFF000000u);
    rpl_backdrop_destroy(bd);
}

/* Hand-worked RGB565 conversions: level = (v * 31 + 127) / 255 (5 bits),
 * (v * 63 + 127) / 255 (6 bits). */
static void test_backdrop_rgb565_hand(void **state)
{
    (void)state;
    const uint32_t in[9] = {
        0x00000000u, /* 0 0 0 -> 0x0000 */
        0xFFFFFFFFu, /* 31 63 31 -> 0xFFFF */
        0x12FF0000u, /* red: 31 << 11 = 0xF800 (the top byte is dropped) */
        0x0000FF00u, /* green: 63 << 5 = 0x07E0 */
        0x000000FFu, /* blue: 0x001F */
        0x00808080u, /* 128: (3968+127)/255 = 16, (8064+127)/255 = 32, 16 -> 0x8410 */
        0x00123456u, /* 0x12 = 18: 685/255 = 2; 0x34 = 52: 3403/255 = 13; 0x56 = 86: 2793/255 = 10
                      * -> 2 << 11 | 13 << 5 | 10 = 0x11AA */
        0x00A5A229u, /* 165: 5242/255 = 20; 162: 10333/255 = 40; 41: 1398/255 = 5 -> 0xA505 */
        0x00040204u, /* 4: 251/255 = 0; 2: 253/255 = 0; 4 -> 0 ... and 5 would be 1 */
    };
    const uint16_t want[9] = {0x0000, 0xFFFF, 0xF800, 0x07E0, 0x001F,
                              0x8410, 0x11AA, 0xA505, 0x0000};
    rpl_backdrop_t *bd = new_backdrop(in, 3, 3, RPL_RGB565);
    const uint16_t *p = rpl_backdrop_pixels(bd);
    for (int i = 0; i < 9; i++)
        if (p[i] != want[i])
            fail_msg("pixel %d: 0x%08x -> 0x%04x, want 0x%04x", i, in[i], p[i], want[i]);
    rpl_backdrop_destroy(bd);
    /* every channel value: the nearest level (no ties: v * 31 - 255 * L is
     * never +-127.5), checked against an independent search */
    uint32_t ramp[256 * 3];
    for (int v = 0; v < 256; v++) {
        ramp[v] = (uint32_t)v << 16;
        ramp[256 + v] = (uint32_t)v << 8;
        ramp[512 + v] = (uint32_t)v;
    }
    bd = new_backdrop(ramp, 256, 3, RPL_RGB565);
    p = rpl_backdrop_pixels(bd);
    for (int i = 0; i < 256 * 3; i++)
        if (p[i] != ref_565(ramp[i]))
            fail_msg("0x%06x -> 0x%04x, want 0x%04x", ramp[i], p[i], ref_565(ramp[i]));
    rpl_backdrop_destroy(bd);
}

/* A four-colour picture keeps its colours (sorted), and the shade table
 * worked by hand:
 *   palette 0: 000000, 1: 404040, 2: 808080, 3: FFFFFF
 *   404040 + 4 (q = 1)   = 444444: nearest 404040 (3*4^2) -> 1
 *   404040 + 96 (q = 24) = A0A0A0: 808080 is 3*32^2 = 3072 away, FFFFFF
 *                          3*95^2 = 27075 -> 2
 *   808080 + 64 (q = 16) = C0C0C0: 808080 3*64^2 = 12288, FFFFFF 3*63^2 =
 *                          11907 -> 3
 *   808080 - 64 (q = -16) = 404040 -> 1;  000000 - 4 = 000000 -> 0
 *   FFFFFF - 96 = 9F9F9F: 808080 3*31^2 = 2883, FFFFFF 3*96^2 -> 2 */
static void test_backdrop_index8_hand(void **state)
{
    (void)state;
    uint32_t bg[25];
    static const uint32_t cols[4] = {0x00FFFFFFu, 0x11808080u, 0x22404040u, 0x33000000u};
    for (int i = 0; i < 25; i++)
        bg[i] = cols[i % 4];
    rpl_backdrop_t *bd = new_backdrop(bg, 5, 5, RPL_INDEX8);
    assert_int_equal(rpl_backdrop_colors(bd), 4);
    const uint32_t *pal = rpl_backdrop_palette(bd);
    assert_non_null(pal);
    assert_int_equal(pal[0], 0xFF000000u);
    assert_int_equal(pal[1], 0xFF404040u);
    assert_int_equal(pal[2], 0xFF808080u);
    assert_int_equal(pal[3], 0xFFFFFFFFu);
    for (int e = 4; e < 256; e++)
        assert_int_equal(pal[e], 0xFFFFFFFFu); /* unused entries repeat the last */
    const uint8_t *idx = rpl_backdrop_pixels(bd);
    static const uint8_t want_idx[4] = {3, 2, 1, 0};
    for (int i = 0; i < 25; i++)
        assert_int_equal(idx[i], want_idx[i % 4]);
    const uint8_t *sh = rpl_backdrop_shade_table(bd);
    assert_non_null(sh);
#define SHADE(q, i) sh[((q) + RPL_SHADE_STEPS) * 256 + (i)]
    assert_int_equal(SHADE(1, 1), 1);
    assert_int_equal(SHADE(24, 1), 2);
    assert_int_equal(SHADE(16, 2), 3);
    assert_int_equal(SHADE(-16, 2), 1);
    assert_int_equal(SHADE(-1, 0), 0);
    assert_int_equal(SHADE(-24, 3), 2);
    for (int i = 0; i < 256; i++)
        assert_int_equal(SHADE(0, i), i);
#undef SHADE

    /* rendering through the table: one cell (2,2) = 32 makes d = +8 at
     * pixel (1,2) (q = (8 + 2) >> 2 = 2: +8) and -8 at (3,2) (q = -2) */
    rpl_sim_t *sim = new_sim(5, 5, 1);
    int16_t c[25] = {0}, p[25] = {0};
    c[12] = 32;
    assert_int_equal(rpl_sim_set_state(sim, c, p), RPL_OK);
    uint8_t fb[25];
    rpl_view_t view = {RPL_STRENGTH_ONE, 1};
    assert_int_equal(rpl_render(sim, bd, fb, 5, &view), RPL_OK);
    /* (1,2) shows bg(0,2) = index 0 of bg[10] = cols[2] = 404040 (index 1),
     * + 8 = 484848: nearest 404040 -> 1 */
    assert_int_equal(fb[2 * 5 + 1], 1);
    /* (3,2) shows bg(4,2) = bg[14] = cols[2] too, - 8 = 383838 -> 1 */
    assert_int_equal(fb[2 * 5 + 3], 1);
    /* (2,1) shows bg(2,0) = bg[2] = cols[2] = 404040, d = +8 -> 1 */
    assert_int_equal(fb[1 * 5 + 2], 1);
    assert_int_equal(fb[0], idx[0]);
    /* a steeper cell: 400 gives d = +-96 (q = +-24) */
    c[12] = 400;
    assert_int_equal(rpl_sim_set_state(sim, c, p), RPL_OK);
    assert_int_equal(rpl_render(sim, bd, fb, 5, &view), RPL_OK);
    assert_int_equal(fb[2 * 5 + 1], 2); /* 404040 + 96 -> 808080 */
    assert_int_equal(fb[2 * 5 + 3], 0); /* 404040 - 96 = 000000 -> 0 */
    rpl_sim_destroy(sim);
    rpl_backdrop_destroy(bd);
}

/* A picture of random colours sprinkled with fixed ones: at most 256
 * distinct colours are kept exactly; more go through the median cut. */
static uint32_t *picture_with_colors(int w, int h, int ncol, uint64_t seed)
{
    uint32_t *cols = malloc((size_t)ncol * sizeof *cols), *px = malloc((size_t)w * h * 4);
    assert_non_null(cols);
    assert_non_null(px);
    uint64_t s = seed;
    for (int i = 0; i < ncol; i++) {
        uint32_t c;
        int dup;
        do { /* distinct in R, G, B */
            c = (uint32_t)rnd_next(&s) & 0xFFFFFFu;
            dup = 0;
            for (int j = 0; j < i; j++)
                dup |= cols[j] == c;
        } while (dup);
        cols[i] = c;
    }
    for (int i = 0; i < w * h; i++) /* every colour at least once, random top bytes */
        px[i] = (uint32_t)rnd_next(&s) << 24 |
                cols[i < ncol ? i : rnd_range(&s, 0, ncol - 1)];
    free(cols);
    return px;
}

static void check_index8_nearest(const rpl_backdrop_t *bd, const uint32_t *px, int n)
{
    const uint32_t *pal = rpl_backdrop_palette(bd);
    const uint8_t *idx = rpl_backdrop_pixels(bd);
    int colors = rpl_backdrop_colors(bd);
    assert_true(colors >= 1 && colors <= 256);
    for (int e = 0; e < 256; e++) {
        assert_int_equal(pal[e] >> 24, 0xFF);
        if (e >= colors)
            assert_int_equal(pal[e], pal[colors - 1]);
    }
    for (int i = 0; i < n; i++) {
        int want = brute_nearest(pal, px[i]);
        if (idx[i] != want)
            fail_msg("pixel %d (%06x) maps to %d (%06x), the nearest is %d (%06x)", i,
                     px[i] & 0xFFFFFF, idx[i], pal[idx[i]] & 0xFFFFFF, want,
                     pal[want] & 0xFFFFFF);
        assert_true(idx[i] < colors);
    }
}

static void test_backdrop_index8_few_colors_exact(void **state)
{
    (void)state;
    static const int ncols[] = {1, 2, 17, 200, 255, 256};
    for (size_t k = 0; k < sizeof ncols / sizeof ncols[0]; k++) {
        int w = 37, h = 23, n = w * h;
        uint32_t *px = picture_with_colors(w, h, ncols[k], 40 + k);
        rpl_backdrop_t *bd = new_backdrop(px, w, h, RPL_INDEX8);
        assert_int_equal(rpl_backdrop_colors(bd), ncols[k]);
        const uint32_t *pal = rpl_backdrop_palette(bd);
        const uint8_t *idx = rpl_backdrop_pixels(bd);
        for (int e = 1; e < ncols[k]; e++)
            assert_true(pal[e - 1] < pal[e]); /* ascending, distinct */
        for (int i = 0; i < n; i++)
            if ((pal[idx[i]] & 0xFFFFFFu) != (px[i] & 0xFFFFFFu))
                fail_msg("%d colours: pixel %d is %06x, shown as %06x", ncols[k], i,
                         px[i] & 0xFFFFFF, pal[idx[i]] & 0xFFFFFF);
        check_index8_nearest(bd, px, n);
        rpl_backdrop_destroy(bd);
        free(px);
    }
}

/* Pictures with many colours: a photo-like gradient with noise, pure
 * noise, and 257 colours (one too many to keep). */
static void test_backdrop_index8_median_cut(void **state)
{
    (void)state;
    for (int kind = 0; kind < 3; kind++) {
        int w = kind == 2 ? 40 : 160, h = kind == 2 ? 20 : 100, n = w * h;
        uint32_t *px;
        if (kind == 2) {
            px = picture_with_colors(w, h, 257, 77);
        } else {
            px = malloc((size_t)n * 4);
            assert_non_null(px);
            uint64_t s = 5;
            for (int y = 0; y < h; y++)
                for (int x = 0; x < w; x++) {
                    uint32_t v = (uint32_t)rnd_next(&s);
                    if (kind == 0) {
                        int r = x * 255 / (w - 1), g = y * 255 / (h - 1);
                        int b = ((x / 16 + y / 16) & 1) ? 200 : 40;
                        r = (int)clamp64(r + (int)(v & 7) - 3, 0, 255);
                        b = (int)clamp64(b + (int)(v >> 8 & 15) - 7, 0, 255);
                        v = (uint32_t)(r << 16 | g << 8 | b);
                    }
                    px[y * w + x] = v;
                }
        }
        rpl_backdrop_t *bd = new_backdrop(px, w, h, RPL_INDEX8);
        assert_int_equal(rpl_backdrop_colors(bd), 256); /* all used: plenty of colours */
        check_index8_nearest(bd, px, n);
        /* a real quantizer: the gradient comes out close (RMS error per
         * channel under 6 levels), all 256 entries are shown somewhere */
        const uint32_t *pal = rpl_backdrop_palette(bd);
        const uint8_t *idx = rpl_backdrop_pixels(bd);
        if (kind == 0) {
            double se = 0;
            int used[256] = {0};
            for (int i = 0; i < n; i++) {
                for (int sh = 0; sh <= 16; sh += 8) {
                    double d = chan_of(px[i], sh) - chan_of(pal[idx[i]], sh);
                    se += d * d;
                }
                used[idx[i]] = 1;
            }
            int nused = 0;
            for (int e = 0; e < 256; e++)
                nused += used[e];
            double rms = sqrt(se / (3.0 * n));
            if (rms >= 6.0 || nused < 200)
                fail_msg("gradient: RMS error %.2f per channel, %d entries used", rms, nused);
        }
        /* deterministic: the same picture gives the same bytes */
        rpl_backdrop_t *again = new_backdrop(px, w, h, RPL_INDEX8);
        assert_memory_equal(rpl_backdrop_palette(again), pal, 256 * 4);
        assert_memory_equal(rpl_backdrop_pixels(again), idx, (size_t)n);
        assert_memory_equal(rpl_backdrop_shade_table(again), rpl_backdrop_shade_table(bd),
                            RPL_SHADE_LEVELS * 256);
        rpl_backdrop_destroy(again);
        rpl_backdrop_destroy(bd);
        free(px);
    }
}

/* Every row of the shade table: q = 0 is the identity, any other q the
 * entry nearest to the entry shaded by 4q the XRGB8888 way. */
static void test_backdrop_index8_shade_table(void **state)
{
    (void)state;
    int w = 64, h = 48;
    uint32_t *px = picture_with_colors(w, h, 1000, 9);
    for (int pass = 0; pass < 2; pass++) {
        rpl_backdrop_t *bd = new_backdrop(px, w, h, RPL_INDEX8);
        const uint32_t *pal = rpl_backdrop_palette(bd);
        const uint8_t *sh = rpl_backdrop_shade_table(bd);
        for (int q = -RPL_SHADE_STEPS; q <= RPL_SHADE_STEPS; q++)
            for (int e = 0; e < 256; e++) {
                int got = sh[(q + RPL_SHADE_STEPS) * 256 + e];
                uint32_t shaded = sat_add(pal[e], 16, 4 * q) | sat_add(pal[e], 8, 4 * q) |
                                  sat_add(pal[e], 0, 4 * q);
                int want = q == 0 ? e : brute_nearest(pal, shaded);
                if (got != want)
                    fail_msg("shade[%d][%d] = %d, want %d", q, e, got, want);
            }
        rpl_backdrop_destroy(bd);
        /* then a picture of 5 colours (few entries, the rest repeats) */
        free(px);
        px = picture_with_colors(w, h, 5, 10);
    }
    free(px);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_format_bytes),
        cmocka_unit_test(test_backdrop_rejects),
        cmocka_unit_test(test_backdrop_rgb565_hand),
        cmocka_unit_test(test_backdrop_index8_hand),
        cmocka_unit_test(test_backdrop_index8_few_colors_exact),
        cmocka_unit_test(test_backdrop_index8_median_cut),
        cmocka_unit_test(test_backdrop_index8_shade_table),
    };
    return cmocka_run_group_tests_name("backdrop", tests, NULL, NULL);
}
