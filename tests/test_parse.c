/* test_parse.c - the strict number and size parsers, and picture sizes read from headers (cmocka). */
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "ripple.h"
#include "ripple_support.h"

static void test_int_accepts_decimal(void **state)
{
    (void)state;
    long long v = 0;
    assert_int_equal(rpl_parse_int("0", 0, 10, &v), RPL_OK);
    assert_int_equal(v, 0);
    /* leading zeros are decimal, never octal */
    assert_int_equal(rpl_parse_int("010", 0, 100, &v), RPL_OK);
    assert_int_equal(v, 10);
    assert_int_equal(rpl_parse_int("08", 0, 100, &v), RPL_OK);
    assert_int_equal(v, 8);
    assert_int_equal(rpl_parse_int("-5", -10, 10, &v), RPL_OK);
    assert_int_equal(v, -5);
    assert_int_equal(rpl_parse_int("9223372036854775807", LLONG_MIN, LLONG_MAX, &v), RPL_OK);
    assert_true(v == LLONG_MAX);
    assert_int_equal(rpl_parse_int("-9223372036854775808", LLONG_MIN, LLONG_MAX, &v), RPL_OK);
    assert_true(v == LLONG_MIN);
    assert_int_equal(rpl_parse_int("64", 1, 64, &v), RPL_OK);
    assert_int_equal(v, 64);
}

static void test_int_refuses(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "", " 8", "8 ", "\t8", "8\n", "+8", "0x8", "0X8", "8e0", "8.0", "--8", "-", "- 8",
        "1_000", "１", "9223372036854775808", "-9223372036854775809",
        "99999999999999999999999", "65", "0", "-1", "-0",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        long long v = 12345;
        assert_int_equal(rpl_parse_int(bad[i], 1, 64, &v), RPL_EINVAL);
        assert_int_equal(v, 12345); /* untouched */
    }
    long long v = 7;
    assert_int_equal(rpl_parse_int(NULL, 0, 10, &v), RPL_EINVAL);
    assert_int_equal(rpl_parse_int("5", 0, 10, NULL), RPL_EINVAL);
    assert_int_equal(rpl_parse_int("5", 10, 0, &v), RPL_EINVAL); /* empty range */
    assert_int_equal(v, 7);
}

static void test_u64(void **state)
{
    (void)state;
    uint64_t v = 0;
    assert_int_equal(rpl_parse_u64("18446744073709551615", &v), RPL_OK);
    assert_true(v == UINT64_MAX);
    assert_int_equal(rpl_parse_u64("010", &v), RPL_OK);
    assert_true(v == 10);
    static const char *const bad[] = { "18446744073709551616", "-1", " -1", "+1", "0x10", "", " 1",
                                       "1 ", "99999999999999999999999999" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        v = 42;
        assert_int_equal(rpl_parse_u64(bad[i], &v), RPL_EINVAL);
        assert_true(v == 42);
    }
    assert_int_equal(rpl_parse_u64(NULL, &v), RPL_EINVAL);
}

static void test_real(void **state)
{
    (void)state;
    double v = 0;
    static const struct {
        const char *s;
        double want;
    } good[] = { { "0", 0 }, { "1.5", 1.5 }, { "-2.25", -2.25 }, { ".5", 0.5 }, { "3.", 3 },
                 { "1e3", 1000 }, { "2.5E-1", 0.25 }, { "7e+0", 7 }, { "1e-400", 0 } };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        assert_int_equal(rpl_parse_real(good[i].s, -1e9, 1e9, &v), RPL_OK);
        assert_true(v == good[i].want);
    }
    static const char *const bad[] = { "", " 1", "1 ", "+1", "0x1p3", "inf", "nan", "-inf", "1e",
                                       "1e+", ".", "-.", "e5", "1.2.3", "1,5", "1e999", "--1",
                                       "2e9" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        v = 9;
        assert_int_equal(rpl_parse_real(bad[i], -1e9, 1e9, &v), RPL_EINVAL);
        assert_true(v == 9);
    }
    assert_int_equal(rpl_parse_real("0.5", 1, 2, &v), RPL_EINVAL);
    assert_int_equal(rpl_parse_real("1", NAN, 2, &v), RPL_EINVAL);
}

static void test_size(void **state)
{
    (void)state;
    int w = 0, h = 0;
    assert_int_equal(rpl_parse_size("640x480", 3, 8192, &w, &h), RPL_OK);
    assert_int_equal(w, 640);
    assert_int_equal(h, 480);
    assert_int_equal(rpl_parse_size("3X8192", 3, 8192, &w, &h), RPL_OK);
    assert_int_equal(w, 3);
    assert_int_equal(h, 8192);
    assert_int_equal(rpl_parse_size("0640x0480", 3, 8192, &w, &h), RPL_OK);
    assert_int_equal(w, 640);
    static const char *const bad[] = { "", "x", "640", "640x", "x480", "640x480x2", "640 x480",
                                       " 640x480", "640x480 ", "+640x480", "-640x480", "2x100",
                                       "8193x100", "640by480", "0x8x480", "640x0x1E0",
                                       "99999999999999999999x3" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        w = h = 77;
        assert_int_equal(rpl_parse_size(bad[i], 3, 8192, &w, &h), RPL_EINVAL);
        assert_int_equal(w, 77);
        assert_int_equal(h, 77);
    }
    assert_int_equal(rpl_parse_size("4x4", -1, 8, &w, &h), RPL_EINVAL);
    assert_int_equal(rpl_parse_size(NULL, 3, 8, &w, &h), RPL_EINVAL);
}

/* ---- picture headers ------------------------------------------------------- */

static size_t png_header(unsigned char *p, uint32_t w, uint32_t h)
{
    static const unsigned char sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n' };
    memcpy(p, sig, 8);
    const unsigned char ihdr[8] = { 0, 0, 0, 13, 'I', 'H', 'D', 'R' };
    memcpy(p + 8, ihdr, 8);
    for (int i = 0; i < 4; i++) {
        p[16 + i] = (unsigned char)(w >> (24 - 8 * i));
        p[20 + i] = (unsigned char)(h >> (24 - 8 * i));
    }
    memset(p + 24, 0, 9); /* depth, colour type..., CRC: not read */
    return 33;
}

static void test_probe_png(void **state)
{
    (void)state;
    unsigned char p[64];
    size_t n = png_header(p, 27000, 26000);
    rpl_image_kind k;
    int w = 0, h = 0;
    assert_int_equal(rpl_image_probe(p, n, &k, &w, &h), RPL_OK);
    assert_int_equal(k, RPL_IMAGE_PNG);
    assert_int_equal(w, 27000);
    assert_int_equal(h, 26000);
    /* every truncation is refused, none read past the end */
    for (size_t len = 0; len < 24; len++)
        assert_int_not_equal(rpl_image_probe(p, len, &k, &w, &h), RPL_OK);
    png_header(p, 0, 5);
    assert_int_equal(rpl_image_probe(p, n, &k, &w, &h), RPL_EFORMAT);
    png_header(p, 0x80000000u, 5);
    assert_int_equal(rpl_image_probe(p, n, &k, &w, &h), RPL_EFORMAT);
    png_header(p, 5, 5);
    p[12] = 'X'; /* first chunk not IHDR */
    assert_int_equal(rpl_image_probe(p, n, &k, &w, &h), RPL_EFORMAT);
    assert_int_equal(k, RPL_IMAGE_PNG);
}

static void test_probe_jpeg(void **state)
{
    (void)state;
    /* SOI, APP0 of 16 bytes, a fill byte, DQT of 4, SOF0 */
    unsigned char p[64] = { 0xFF, 0xD8, 0xFF, 0xE0, 0, 16, 'J', 'F', 'I', 'F', 0 };
    size_t i = 4 + 16;
    p[i++] = 0xFF;
    p[i++] = 0xFF; /* fill */
    p[i++] = 0xDB;
    p[i++] = 0;
    p[i++] = 4;
    p[i++] = 0;
    p[i++] = 0;
    p[i++] = 0xFF;
    p[i++] = 0xC2; /* progressive SOF */
    p[i++] = 0;
    p[i++] = 17;
    p[i++] = 8;
    p[i++] = 0x75; /* height 30000 */
    p[i++] = 0x30;
    p[i++] = 0x9C; /* width 40000 */
    p[i++] = 0x40;
    size_t need = i; /* the frame header up to the width */
    p[i++] = 3;
    size_t n = i + 10;
    rpl_image_kind k;
    int w = 0, h = 0;
    assert_int_equal(rpl_image_probe(p, n, &k, &w, &h), RPL_OK);
    assert_int_equal(k, RPL_IMAGE_JPEG);
    assert_int_equal(w, 40000);
    assert_int_equal(h, 30000);
    for (size_t len = 0; len < need; len++)
        assert_int_not_equal(rpl_image_probe(p, len, &k, &w, &h), RPL_OK);
    assert_int_equal(rpl_image_probe(p, need, &k, &w, &h), RPL_OK);
    /* image data before any frame */
    unsigned char q[8] = { 0xFF, 0xD8, 0xFF, 0xDA, 0, 2, 0, 0 };
    assert_int_equal(rpl_image_probe(q, sizeof q, &k, &w, &h), RPL_EFORMAT);
    /* a segment length running off the end */
    unsigned char r[8] = { 0xFF, 0xD8, 0xFF, 0xE1, 0xFF, 0xFF, 0, 0 };
    assert_int_equal(rpl_image_probe(r, sizeof r, &k, &w, &h), RPL_EFORMAT);
}

static void put32le(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static void test_probe_bmp(void **state)
{
    (void)state;
    unsigned char p[54] = { 'B', 'M' };
    put32le(p + 14, 40);
    put32le(p + 18, 30000);
    put32le(p + 22, (uint32_t)-20000); /* top-down */
    rpl_image_kind k;
    int w = 0, h = 0;
    assert_int_equal(rpl_image_probe(p, sizeof p, &k, &w, &h), RPL_OK);
    assert_int_equal(k, RPL_IMAGE_BMP);
    assert_int_equal(w, 30000);
    assert_int_equal(h, 20000);
    put32le(p + 22, 0x80000000u);
    assert_int_equal(rpl_image_probe(p, sizeof p, &k, &w, &h), RPL_EFORMAT);
    put32le(p + 18, (uint32_t)-5);
    put32le(p + 22, 5);
    assert_int_equal(rpl_image_probe(p, sizeof p, &k, &w, &h), RPL_EFORMAT);
    /* OS/2 header, 16-bit sides */
    unsigned char o[26] = { 'B', 'M' };
    put32le(o + 14, 12);
    o[18] = 0x10, o[19] = 0x27; /* 10000 */
    o[20] = 0x20, o[21] = 0x4E; /* 20000 */
    assert_int_equal(rpl_image_probe(o, sizeof o, &k, &w, &h), RPL_OK);
    assert_int_equal(w, 10000);
    assert_int_equal(h, 20000);
    for (size_t len = 0; len < 22; len++)
        assert_int_not_equal(rpl_image_probe(o, len, &k, &w, &h), RPL_OK);
}

static void test_probe_other(void **state)
{
    (void)state;
    rpl_image_kind k = RPL_IMAGE_PNG;
    int w = 1, h = 1;
    const char *text = "this is not a picture";
    assert_int_equal(rpl_image_probe(text, strlen(text), &k, &w, &h), RPL_EFORMAT);
    assert_int_equal(k, RPL_IMAGE_UNKNOWN);
    assert_int_equal(rpl_image_probe(NULL, 4, &k, &w, &h), RPL_EINVAL);
    assert_int_equal(rpl_image_probe(text, 4, NULL, &w, &h), RPL_EINVAL);
    assert_int_equal(rpl_image_probe(text, 4, &k, NULL, &h), RPL_EINVAL);
    assert_int_equal(rpl_image_probe(text, 0, &k, &w, &h), RPL_EFORMAT);
}

/* A small JPEG's structure (no real pictures in it: the check reads the
 * markers, not the pixels): SOI; an Exif APP1 holding a thumbnail with its
 * own SOI and EOI; DQT; SOF0; DHT; a scan whose data has a stuffed FF 00,
 * a restart marker and fill bytes; a second scan after a DHT, as a
 * progressive file has; EOI.  *eoi is where the final EOI starts. */
static size_t jpeg_file(unsigned char *p, size_t *eoi)
{
    static const unsigned char parts[] = {
        0xFF, 0xD8,
        0xFF, 0xE1, 0, 12, 'E', 'x', 'i', 'f', 0, 0, 0xFF, 0xD8, 0xFF, 0xD9,
        0xFF, 0xDB, 0, 4, 0, 0,
        0xFF, 0xC0, 0, 11, 8, 0, 16, 0, 16, 1, 1, 0x11, 0,
        0xFF, 0xC4, 0, 4, 0, 0,
        0xFF, 0xDA, 0, 8, 1, 1, 0, 0, 63, 0,
        0x12, 0x34, 0xFF, 0x00, 0x56, 0xFF, 0xD3, 0x78, 0xFF, 0xFF, 0x00, 0x9A,
        0xFF, 0xFF, 0xC4, 0, 4, 0, 0,
        0xFF, 0xDA, 0, 8, 1, 1, 0, 0, 63, 0,
        0xBC, 0xFF, 0x00, 0xDE,
    };
    memcpy(p, parts, sizeof parts);
    *eoi = sizeof parts;
    p[sizeof parts] = 0xFF;
    p[sizeof parts + 1] = 0xD9;
    return sizeof parts + 2;
}

static void test_complete_jpeg(void **state)
{
    (void)state;
    unsigned char p[128];
    size_t eoi, n = jpeg_file(p, &eoi);
    assert_int_equal(rpl_image_complete(p, n), RPL_OK);
    /* every cut before the end-of-image marker is a truncated file: in
     * the headers, in the thumbnail (its EOI is not the file's), in either
     * scan's data, between the two bytes of the marker */
    for (size_t len = 0; len < n; len++)
        if (rpl_image_complete(p, len) != RPL_EFORMAT)
            fail_msg("a JPEG cut to %zu of %zu bytes passes", len, n);
    /* bytes after the end are no harm (cameras append some) */
    memset(p + n, 0x55, 8);
    assert_int_equal(rpl_image_complete(p, n + 8), RPL_OK);
    /* a stray byte before a marker is skipped, as the decoder does */
    size_t m = jpeg_file(p, &eoi);
    memmove(p + 23, p + 22, m - 22);
    p[22] = 0x42; /* between the DQT and the SOF */
    assert_int_equal(rpl_image_complete(p, m + 1), RPL_OK);
    assert_int_equal(rpl_image_complete(p, m), RPL_EFORMAT);
    /* a segment whose length runs past the end */
    unsigned char r[8] = { 0xFF, 0xD8, 0xFF, 0xE1, 0xFF, 0xFF, 0xFF, 0xD9 };
    assert_int_equal(rpl_image_complete(r, sizeof r), RPL_EFORMAT);
    /* a scan that never ends */
    unsigned char q[16] = { 0xFF, 0xD8, 0xFF, 0xDA, 0, 2, 1, 2, 3, 0xFF, 0, 0xFF, 0xD0, 4, 5, 0xFF };
    assert_int_equal(rpl_image_complete(q, sizeof q), RPL_EFORMAT);
}

static void test_complete_other(void **state)
{
    (void)state;
    /* PNG and BMP decoders find their own truncation: only the kind is
     * checked; what is no picture is not complete */
    unsigned char p[64];
    size_t n = png_header(p, 5, 5);
    assert_int_equal(rpl_image_complete(p, n), RPL_OK);
    unsigned char b[54] = { 'B', 'M' };
    assert_int_equal(rpl_image_complete(b, sizeof b), RPL_OK);
    assert_int_equal(rpl_image_complete("text", 4), RPL_EFORMAT);
    assert_int_equal(rpl_image_complete(p, 0), RPL_EFORMAT);
    assert_int_equal(rpl_image_complete(NULL, 4), RPL_EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_int_accepts_decimal),
        cmocka_unit_test(test_int_refuses),
        cmocka_unit_test(test_u64),
        cmocka_unit_test(test_real),
        cmocka_unit_test(test_size),
        cmocka_unit_test(test_probe_png),
        cmocka_unit_test(test_probe_jpeg),
        cmocka_unit_test(test_probe_bmp),
        cmocka_unit_test(test_probe_other),
        cmocka_unit_test(test_complete_jpeg),
        cmocka_unit_test(test_complete_other),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
