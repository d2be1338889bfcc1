/* test_kernels.c - kernel tables by name, the table a field uses, shared refraction kernels and the status strings (cmocka). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "ripple.h"
#include "ripple_support.h"
#include "util.h"

static void test_kernels_and_strings(void **state)
{
    (void)state;
    const rpl_kernels_t *def = rpl_kernels_get(NULL);
    assert_non_null(def);
    assert_ptr_equal(rpl_kernels_get("auto"), def);
    const rpl_kernels_t *c = rpl_kernels_get("c");
    assert_non_null(c);
    assert_string_equal(rpl_kernels_name(c), "c");
    assert_true(strlen(rpl_kernels_name(def)) > 0);
    assert_null(rpl_kernels_get("nope"));
    assert_null(rpl_kernels_get(""));

    rpl_sim_t *sim = new_sim(5, 5, 1);
    assert_ptr_equal(kern_of(sim), def);
    assert_int_equal(rpl_sim_set_kernels(sim, NULL), RPL_EINVAL);
    assert_ptr_equal(kern_of(sim), def);
    assert_int_equal(rpl_sim_set_kernels(sim, c), RPL_OK);
    assert_ptr_equal(kern_of(sim), c);
    rpl_sim_destroy(sim);

    const rpl_status all[] = {RPL_OK, RPL_EINVAL, RPL_ENOMEM, RPL_EIO,
                              RPL_EFORMAT, RPL_ESIZE, RPL_ENOTSUP};
    const size_t n = sizeof all / sizeof all[0];
    for (size_t i = 0; i < n; i++) {
        const char *s = rpl_strerror(all[i]);
        assert_non_null(s);
        assert_true(strlen(s) > 0);
        for (size_t j = 0; j < i; j++)
            assert_string_not_equal(s, rpl_strerror(all[j]));
    }
    assert_non_null(rpl_strerror((rpl_status)99));
    assert_non_null(rpl_strerror((rpl_status)-1));
}

/* Whether two tables refract a format with the same kernel.  Which paths
 * have kernels of their own is the table's business (kernels/dispatch.c):
 * every SIMD path ("mmx", "sse2", "avx2") has its own in all three.  Paths
 * this build or CPU lacks are left out of the comparisons that need them. */
static void test_kernels_same_refract(void **state)
{
    (void)state;
    const rpl_kernels_t *c = rpl_kernels_get("c");
    const rpl_kernels_t *mmx = rpl_kernels_get("mmx");
    const rpl_kernels_t *simd[2] = {rpl_kernels_get("sse2"), rpl_kernels_get("avx2")};
    assert_non_null(c);
    const rpl_kernels_t *any[4] = {c, mmx, simd[0], simd[1]};
    for (int f = 0; f < 3; f++) {
        rpl_format fmt = all_formats[f];
        /* every table shares its own kernels, and the relation is symmetric */
        for (int i = 0; i < 4; i++) {
            if (!any[i])
                continue;
            assert_int_equal(rpl_kernels_same_refract(any[i], any[i], fmt), 1);
            for (int j = 0; j < 4; j++)
                if (any[j])
                    assert_int_equal(rpl_kernels_same_refract(any[i], any[j], fmt),
                                     rpl_kernels_same_refract(any[j], any[i], fmt));
        }
        /* "auto" is one of the named tables, so it shares that one's */
        const rpl_kernels_t *def = rpl_kernels_get(NULL);
        assert_non_null(def);
        assert_int_equal(rpl_kernels_same_refract(def, rpl_kernels_get(rpl_kernels_name(def)),
                                                  fmt), 1);
        if (mmx)
            assert_int_equal(rpl_kernels_same_refract(mmx, c, fmt), 0);
        for (int i = 0; i < 2; i++) {
            if (!simd[i])
                continue;
            assert_int_equal(rpl_kernels_same_refract(simd[i], c, fmt), 0);
            if (mmx)
                assert_int_equal(rpl_kernels_same_refract(simd[i], mmx, fmt), 0);
        }
        if (simd[0] && simd[1])
            assert_int_equal(rpl_kernels_same_refract(simd[0], simd[1], fmt), 0);
        /* no table, no kernel to share */
        assert_int_equal(rpl_kernels_same_refract(NULL, c, fmt), 0);
        assert_int_equal(rpl_kernels_same_refract(c, NULL, fmt), 0);
        assert_int_equal(rpl_kernels_same_refract(NULL, NULL, fmt), 0);
    }
    /* values that are no format, even for one table with itself */
    const int bogus[] = {-1, 3, 4, 255, INT_MAX, INT_MIN};
    for (size_t i = 0; i < sizeof bogus / sizeof bogus[0]; i++) {
        assert_int_equal(rpl_format_bytes((rpl_format)bogus[i]), 0);
        assert_int_equal(rpl_kernels_same_refract(c, c, (rpl_format)bogus[i]), 0);
        if (mmx)
            assert_int_equal(rpl_kernels_same_refract(mmx, c, (rpl_format)bogus[i]), 0);
    }
}

/* rpl_upscale on every path this CPU runs, against the definition: the
 * byte b of pixel (x, y) is the byte b of every pixel of the block
 * (x*s + i, y*s + j); the bytes between rows (pitch padding) untouched. */
static void test_upscale(void **state)
{
    (void)state;
    static const int scales[] = { 1, 2, 3, 4, 5, 7, RPL_UPSCALE_MAX };
    static const int widths[] = { 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33 };
    uint64_t rs = 11;
    int paths = 0;
    for (int p = 0; rpl_kernels_known(p); p++) {
        const rpl_kernels_t *k = rpl_kernels_get(rpl_kernels_known(p));
        if (!k)
            continue;
        paths++;
        for (int bytes = 1; bytes <= 4; bytes *= 2)
            for (size_t si = 0; si < sizeof scales / sizeof scales[0]; si++)
                for (size_t wi = 0; wi < sizeof widths / sizeof widths[0]; wi++) {
                    int s = scales[si], w = widths[wi], h = 1 + (int)(wi % 4);
                    ptrdiff_t sp = (ptrdiff_t)w * bytes + bytes * (int)(wi % 3);
                    ptrdiff_t dp = (ptrdiff_t)w * bytes * s + bytes * (int)(si % 3);
                    size_t slen = (size_t)sp * h, dlen = (size_t)dp * h * s;
                    unsigned char *src = xmalloc(slen), *dst = xmalloc(dlen);
                    for (size_t i = 0; i < slen; i++)
                        src[i] = (unsigned char)rnd_next(&rs);
                    memset(dst, 0xA5, dlen);
                    assert_int_equal(rpl_upscale(k, src, sp, dst, dp, w, h, bytes, s), RPL_OK);
                    for (int y = 0; y < h * s; y++)
                        for (ptrdiff_t i = 0; i < dp; i++) {
                            unsigned char got = dst[(size_t)y * dp + i];
                            if (i >= (ptrdiff_t)w * bytes * s) {
                                assert_int_equal(got, 0xA5);
                                continue;
                            }
                            int x = (int)(i / bytes) / s, b = (int)(i % bytes);
                            assert_int_equal(got, src[(size_t)(y / s) * sp + x * bytes + b]);
                        }
                    free(src);
                    free(dst);
                }
    }
    assert_true(paths >= 1);
    /* bad arguments: refused, dst untouched */
    uint32_t src[4] = { 1, 2, 3, 4 }, dst[32];
    memset(dst, 0, sizeof dst);
    assert_int_equal(rpl_upscale(NULL, src, 16, dst, 32, 4, 1, 4, 2), RPL_OK); /* best path */
    assert_int_equal(dst[0], 1);
    assert_int_equal(dst[7], 4);
    memset(dst, 0, sizeof dst);
    assert_int_equal(rpl_upscale(NULL, NULL, 16, dst, 32, 4, 1, 4, 2), RPL_EINVAL);
    assert_int_equal(rpl_upscale(NULL, src, 16, NULL, 32, 4, 1, 4, 2), RPL_EINVAL);
    assert_int_equal(rpl_upscale(NULL, src, 16, dst, 32, 0, 1, 4, 2), RPL_EINVAL);
    assert_int_equal(rpl_upscale(NULL, src, 16, dst, 32, 4, -1, 4, 2), RPL_EINVAL);
    assert_int_equal(rpl_upscale(NULL, src, 16, dst, 32, 4, 1, 3, 2), RPL_EINVAL);
    assert_int_equal(rpl_upscale(NULL, src, 16, dst, 32, 4, 1, 4, 0), RPL_EINVAL);
    assert_int_equal(rpl_upscale(NULL, src, 16, dst, 512, 4, 1, 4, RPL_UPSCALE_MAX + 1),
                     RPL_EINVAL);
    assert_int_equal(rpl_upscale(NULL, src, 12, dst, 32, 4, 1, 4, 2), RPL_EINVAL); /* spitch */
    assert_int_equal(rpl_upscale(NULL, src, 16, dst, 28, 4, 1, 4, 2), RPL_EINVAL); /* dpitch */
    assert_int_equal(rpl_upscale(NULL, src, 18, dst, 32, 4, 1, 4, 2), RPL_EINVAL);
    assert_int_equal(rpl_upscale(NULL, (const char *)src + 1, 16, dst, 32, 3, 1, 4, 2),
                     RPL_EINVAL);
    assert_int_equal(rpl_upscale(NULL, src, 16, dst, INT_MAX, INT_MAX, 1, 4, 2), RPL_EINVAL);
    for (size_t i = 0; i < sizeof dst / sizeof dst[0]; i++)
        assert_int_equal(dst[i], 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kernels_and_strings),
        cmocka_unit_test(test_kernels_same_refract),
        cmocka_unit_test(test_upscale),
    };
    return cmocka_run_group_tests_name("kernels", tests, NULL, NULL);
}
