/* test_image.c - rpl_image_fit: scaling a picture to cover the target and cropping its centre (cmocka). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>
#include <stdlib.h>

#include "ripple.h"
#include "util.h"

static void test_image_fit_same_size(void **state)
{
    (void)state;
    const int w = 23, h = 11, pad = 3; /* source rows padded by 3 pixels */
    uint32_t *src = random_bg(w + pad, h, 5);
    uint32_t *dst = malloc((size_t)w * h * 4);
    assert_non_null(dst);
    assert_int_equal(rpl_image_fit(src, w, h, (ptrdiff_t)(w + pad) * 4, dst, w, h), RPL_OK);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            assert_int_equal(dst[y * w + x], src[y * (w + pad) + x] | 0xFF000000u);
    free(src);
    free(dst);
}

static void test_image_fit_downscale_blocks(void **state)
{
    (void)state;
    /* 10x6 of 2x2 blocks -> 5x3: each output pixel is its block's colour */
    const int dw = 5, dh = 3;
    uint32_t src[10 * 6], dst[5 * 3], block[5 * 3];
    uint64_t s = 11;
    for (int i = 0; i < dw * dh; i++)
        block[i] = (uint32_t)rnd_next(&s);
    for (int y = 0; y < 6; y++)
        for (int x = 0; x < 10; x++)
            src[y * 10 + x] = block[(y / 2) * dw + x / 2];
    assert_int_equal(rpl_image_fit(src, 10, 6, 40, dst, dw, dh), RPL_OK);
    for (int i = 0; i < dw * dh; i++)
        assert_int_equal(dst[i], block[i] | 0xFF000000u);

    /* a 2x2 picture of four colours shrunk to 1x1 is their mean (hand;
     * no sum ends in .5, so the rounding rule does not matter):
     * R: (0x0A + 0x14 + 0x1E + 0x29) = 10 + 20 + 30 + 41 = 101 / 4 = 25.25 -> 25 = 0x19
     * G: (255 + 255 + 255 + 0) = 765 / 4 = 191.25 -> 191 = 0xBF
     * B: (1 + 2 + 3 + 6) = 12 / 4 = 3 */
    uint32_t four[4] = {0x000AFF01u, 0x0014FF02u, 0x001EFF03u, 0x00290006u}, one = 0;
    assert_int_equal(rpl_image_fit(four, 2, 2, 8, &one, 1, 1), RPL_OK);
    assert_int_equal(one, 0xFF19BF03u);
}

static void test_image_fit_crop_centre(void **state)
{
    (void)state;
    /* 300x100, grey with a red stripe in columns 140..159 (the centre
     * third is 100..199): fitted to 100x100 the scale is 1 and the crop
     * keeps columns 100..199, so the stripe lands at 40..59. */
    uint32_t *src = malloc(300 * 100 * 4), *dst = malloc(100 * 100 * 4);
    assert_non_null(src);
    assert_non_null(dst);
    for (int y = 0; y < 100; y++)
        for (int x = 0; x < 300; x++)
            src[y * 300 + x] = (x >= 140 && x < 160) ? 0x00FF0000u : (x < 100 ? 0x000000FFu : 0x00808080u);
    assert_int_equal(rpl_image_fit(src, 300, 100, 1200, dst, 100, 100), RPL_OK);
    for (int y = 0; y < 100; y++)
        for (int x = 0; x < 100; x++)
            assert_int_equal(dst[y * 100 + x], (x >= 40 && x < 60) ? 0xFFFF0000u : 0xFF808080u);

    /* the tall version: 100x300 with a stripe in rows 140..159 */
    for (int y = 0; y < 300; y++)
        for (int x = 0; x < 100; x++)
            src[y * 100 + x] = (y >= 140 && y < 160) ? 0x0000FF00u : 0x00404040u;
    assert_int_equal(rpl_image_fit(src, 100, 300, 400, dst, 100, 100), RPL_OK);
    for (int y = 0; y < 100; y++)
        for (int x = 0; x < 100; x++)
            assert_int_equal(dst[y * 100 + x], (y >= 40 && y < 60) ? 0xFF00FF00u : 0xFF404040u);

    /* shrinking and cropping: 600x200 -> 100x100 is a 2x box over
     * columns 200..399; stripe 280..319 -> 40..59 */
    uint32_t *big = malloc(600 * 200 * 4);
    assert_non_null(big);
    for (int y = 0; y < 200; y++)
        for (int x = 0; x < 600; x++)
            big[y * 600 + x] = (x >= 280 && x < 320) ? 0x00FF0000u : 0x00808080u;
    assert_int_equal(rpl_image_fit(big, 600, 200, 2400, dst, 100, 100), RPL_OK);
    for (int y = 0; y < 100; y++)
        for (int x = 0; x < 100; x++)
            assert_int_equal(dst[y * 100 + x], (x >= 40 && x < 60) ? 0xFFFF0000u : 0xFF808080u);
    free(big);
    free(src);
    free(dst);
}

static void test_image_fit_enlarge_uniform(void **state)
{
    (void)state;
    uint32_t one = 0x12345678u;
    uint32_t *dst = malloc(97 * 61 * 4);
    assert_non_null(dst);
    assert_int_equal(rpl_image_fit(&one, 1, 1, 4, dst, 97, 61), RPL_OK);
    for (int i = 0; i < 97 * 61; i++)
        assert_int_equal(dst[i], 0xFF345678u);
    /* a 3x2 single-colour picture enlarged to a different aspect */
    uint32_t six[6];
    for (int i = 0; i < 6; i++)
        six[i] = 0x00C81E64u;
    assert_int_equal(rpl_image_fit(six, 3, 2, 12, dst, 61, 97), RPL_OK);
    for (int i = 0; i < 97 * 61; i++)
        assert_int_equal(dst[i], 0xFFC81E64u);
    /* shrinking a single colour too */
    uint32_t *src = malloc(50 * 40 * 4);
    assert_non_null(src);
    for (int i = 0; i < 50 * 40; i++)
        src[i] = 0x00ABCDEFu;
    assert_int_equal(rpl_image_fit(src, 50, 40, 200, dst, 7, 13), RPL_OK);
    for (int i = 0; i < 7 * 13; i++)
        assert_int_equal(dst[i], 0xFFABCDEFu);
    free(src);
    free(dst);
}

/* Pictures far longer than the field is wide: the cover scale makes the
 * short side fill the field and the crop keeps a sliver from the middle of
 * the long side, never a side of zero pixels. */
static void test_image_fit_thin(void **state)
{
    (void)state;
    /* 100000x1 -> 64x48: scale 48, the crop is 64/48 = 1.33 texels about
     * x = 50000; bilinear reads at most texels 49998..50001 (by hand: the
     * footprint starts at 49999.33, centres run 49998.85 .. 50000.16), so
     * with 49990..50009 green and the rest red every pixel is green. */
    const int n = 100000;
    uint32_t *line = malloc((size_t)n * 4), *dst = malloc(64 * 48 * 4);
    assert_non_null(line);
    assert_non_null(dst);
    for (int x = 0; x < n; x++)
        line[x] = x >= 49990 && x < 50010 ? 0x0000FF00u : 0x00FF0000u;
    assert_int_equal(rpl_image_fit(line, n, 1, (ptrdiff_t)n * 4, dst, 64, 48), RPL_OK);
    for (int i = 0; i < 64 * 48; i++)
        assert_int_equal(dst[i], 0xFF00FF00u);
    /* the same line standing: 1x100000 -> 48x64, a pitch of one pixel */
    assert_int_equal(rpl_image_fit(line, 1, n, 4, dst, 48, 64), RPL_OK);
    for (int i = 0; i < 48 * 64; i++)
        assert_int_equal(dst[i], 0xFF00FF00u);
    free(line);

    /* shrinking a wide one: 140000x4 -> 2x2 is a 2x box over the centre
     * 4x4 texels, columns 69998..70001; four 2x2 blocks of four colours
     * there come out as the four pixels */
    const int w = 140000;
    uint32_t *wide = malloc((size_t)w * 4 * 4);
    assert_non_null(wide);
    static const uint32_t quad[4] = { 0x00112233u, 0x00445566u, 0x00778899u, 0x00AABBCCu };
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < w; x++)
            wide[(size_t)y * w + x] = x >= 69998 && x < 70002
                                          ? quad[(y / 2) * 2 + (x - 69998) / 2] : 0x00FFFFFFu;
    assert_int_equal(rpl_image_fit(wide, w, 4, (ptrdiff_t)w * 4, dst, 2, 2), RPL_OK);
    for (int i = 0; i < 4; i++)
        assert_int_equal(dst[i], quad[i] | 0xFF000000u);
    free(wide);
    free(dst);
}

static void test_image_fit_rejects(void **state)
{
    (void)state;
    uint32_t src[16] = {0}, dst[16];
    for (int i = 0; i < 16; i++)
        dst[i] = 0xCAFEBABEu;
    assert_int_equal(rpl_image_fit(NULL, 4, 4, 16, dst, 4, 4), RPL_EINVAL);
    assert_int_equal(rpl_image_fit(src, 4, 4, 16, NULL, 4, 4), RPL_EINVAL);
    assert_int_equal(rpl_image_fit(src, 0, 4, 16, dst, 4, 4), RPL_EINVAL);
    assert_int_equal(rpl_image_fit(src, 4, 0, 16, dst, 4, 4), RPL_EINVAL);
    assert_int_equal(rpl_image_fit(src, -4, 4, 16, dst, 4, 4), RPL_EINVAL);
    assert_int_equal(rpl_image_fit(src, 4, 4, 16, dst, 0, 4), RPL_EINVAL);
    assert_int_equal(rpl_image_fit(src, 4, 4, 16, dst, 4, 0), RPL_EINVAL);
    assert_int_equal(rpl_image_fit(src, 4, 4, 16, dst, -1, 4), RPL_EINVAL);
    assert_int_equal(rpl_image_fit(src, 4, 4, 15, dst, 4, 4), RPL_EINVAL);
    assert_int_equal(rpl_image_fit(src, 4, 4, 0, dst, 4, 4), RPL_EINVAL);
    assert_int_equal(rpl_image_fit(src, 4, 4, -16, dst, 4, 4), RPL_EINVAL);
    assert_int_equal(rpl_image_fit(src, INT_MAX, 4, 16, dst, 4, 4), RPL_EINVAL);
    for (int i = 0; i < 16; i++)
        assert_int_equal(dst[i], 0xCAFEBABEu);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_image_fit_same_size),
        cmocka_unit_test(test_image_fit_downscale_blocks),
        cmocka_unit_test(test_image_fit_crop_centre),
        cmocka_unit_test(test_image_fit_enlarge_uniform),
        cmocka_unit_test(test_image_fit_thin),
        cmocka_unit_test(test_image_fit_rejects),
    };
    return cmocka_run_group_tests_name("image", tests, NULL, NULL);
}
