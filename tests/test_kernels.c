/* test_kernels.c - kernel tables by name, the table a field uses, shared refraction kernels and the status strings (cmocka). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>
#include <string.h>

#include "ripple.h"
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
 * "mmx" has none and renders with "c"'s in every format, "sse2" and
 * "avx2" have their own in all three.  Paths this build or CPU lacks are
 * left out of the comparisons that need them. */
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
        if (mmx) {
            assert_int_equal(rpl_kernels_same_refract(mmx, c, fmt), 1);
            assert_int_equal(rpl_kernels_same_refract(c, mmx, fmt), 1);
        }
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kernels_and_strings),
        cmocka_unit_test(test_kernels_same_refract),
    };
    return cmocka_run_group_tests_name("kernels", tests, NULL, NULL);
}
