/* test_core.c - unit tests of the platform-free ripple core (cmocka).
 *
 * Expected values are either worked out by hand (the arithmetic is in the
 * comments) or computed by small reference implementations written here
 * from the documented formulas (ripple.h, kernels/kernels.h); the references
 * never call the core's own kernels.  Random states come from a seeded
 * PRNG of the test's own, so every run is the same.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ripple.h"

/* ---- helpers ---------------------------------------------------------- */

/* splitmix64: the test's own generator, independent of the core's. */
static uint64_t tr_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform integer in [lo, hi] (hi - lo small). */
static int tr_range(uint64_t *s, int lo, int hi)
{
    return lo + (int)(tr_next(s) % (uint64_t)((int64_t)hi - lo + 1));
}

/* Floor division by 2^k written without >>, so the references do not
 * depend on how the compiler shifts negative numbers. */
static int64_t floor_div_pow2(int64_t a, int k)
{
    int64_t d = (int64_t)1 << k;
    return a >= 0 ? a / d : -((-a + d - 1) / d);
}

static int64_t clamp64(int64_t v, int64_t lo, int64_t hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

static rpl_sim_t *new_sim(int w, int h, uint64_t seed)
{
    rpl_status st = RPL_EIO;
    rpl_sim_t *sim = rpl_sim_create(w, h, seed, &st);
    assert_non_null(sim);
    assert_int_equal(st, RPL_OK);
    assert_int_equal(sim->w, w);
    assert_int_equal(sim->h, h);
    return sim;
}

static int16_t *new_plane(int w, int h)
{
    int16_t *p = calloc((size_t)w * (size_t)h, sizeof *p);
    assert_non_null(p);
    return p;
}

/* Fills the interior with uniform heights in [lo, hi], border 0. */
static void random_plane(int16_t *p, int w, int h, uint64_t *s, int lo, int hi)
{
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int border = x == 0 || y == 0 || x == w - 1 || y == h - 1;
            p[(size_t)y * (size_t)w + (size_t)x] = border ? 0 : (int16_t)tr_range(s, lo, hi);
        }
}

/* Puts a random in-contract state into sim. */
static void random_state(rpl_sim_t *sim, uint64_t seed, int lo, int hi)
{
    uint64_t s = seed;
    int16_t *c = new_plane(sim->w, sim->h), *p = new_plane(sim->w, sim->h);
    random_plane(c, sim->w, sim->h, &s, lo, hi);
    random_plane(p, sim->w, sim->h, &s, lo, hi);
    assert_int_equal(rpl_sim_set_state(sim, c, p), RPL_OK);
    free(c);
    free(p);
}

static size_t cells(const rpl_sim_t *sim)
{
    return (size_t)sim->w * (size_t)sim->h;
}

static int16_t *copy_plane(const int16_t *src, size_t n)
{
    int16_t *p = malloc(n * sizeof *p);
    assert_non_null(p);
    memcpy(p, src, n * sizeof *p);
    return p;
}

static void assert_plane_equal(const int16_t *a, const int16_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i])
            fail_msg("planes differ at %zu: %d vs %d", i, a[i], b[i]);
}

static void assert_border_zero(const int16_t *p, int w, int h)
{
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            if ((x == 0 || y == 0 || x == w - 1 || y == h - 1) && p[y * w + x] != 0)
                fail_msg("border cell (%d,%d) is %d", x, y, p[y * w + x]);
}

static int16_t at(const rpl_sim_t *sim, const int16_t *p, int x, int y)
{
    return p[(size_t)y * (size_t)sim->w + (size_t)x];
}

static void assert_heights_in_range(const int16_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] < RPL_HEIGHT_MIN || p[i] > RPL_HEIGHT_MAX)
            fail_msg("height %d out of range at %zu", p[i], i);
}

/* Reference step from kernels/kernels.h:
 *   n = ((l + r + u + d) >> 1) - prev;  n -= n >> 5;  clamp
 * over the interior, result into prev, then the buffers swap. */
static void ref_step(int16_t **cur, int16_t **prev, int w, int h)
{
    int16_t *c = *cur, *p = *prev;
    for (int y = 1; y < h - 1; y++)
        for (int x = 1; x < w - 1; x++) {
            int64_t sum = (int64_t)c[y * w + x - 1] + c[y * w + x + 1] +
                          c[(y - 1) * w + x] + c[(y + 1) * w + x];
            int64_t n = floor_div_pow2(sum, 1) - p[y * w + x];
            n -= floor_div_pow2(n, 5);
            p[y * w + x] = (int16_t)clamp64(n, RPL_HEIGHT_MIN, RPL_HEIGHT_MAX);
        }
    *cur = p;
    *prev = c;
}

/* Temporary file path made by mkstemp (the file exists, empty). */
static void temp_path(char *buf, size_t len)
{
    snprintf(buf, len, "/tmp/rpl-test-XXXXXX");
    int fd = mkstemp(buf);
    assert_true(fd >= 0);
    close(fd);
}

static void write_file(const char *path, const unsigned char *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    if (len)
        assert_int_equal(fwrite(data, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

static unsigned char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    size_t cap = 1024, n = 0;
    unsigned char *buf = malloc(cap);
    assert_non_null(buf);
    for (;;) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n < cap)
            break;
        cap *= 2;
        buf = realloc(buf, cap);
        assert_non_null(buf);
    }
    fclose(f);
    *len = n;
    return buf;
}

static int file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* ---- step rule -------------------------------------------------------- */

/* 3x3: the only interior cell (1,1) has four border neighbours (0), so
 * n = (0 >> 1) - prev = -prev, then n -= n >> 5. */
static void test_step_3x3_single_cell(void **state)
{
    (void)state;
    static const struct {
        int prev, want;
    } cases[] = {
        {0, 0},       /* n = 0 */
        {1, 0},       /* n = -1; -1 >> 5 = -1; -1 - (-1) = 0 (damps to 0) */
        {-31, 31},    /* n = 31; 31 >> 5 = 0; stays 31 */
        {-32, 31},    /* n = 32; 32 >> 5 = 1; 31 */
        {31, -30},    /* n = -31; -31 >> 5 = -1; -31 + 1 = -30 */
        {33, -31},    /* n = -33; -33 >> 5 = floor(-1.03) = -2; -33 + 2 = -31 */
        {-33, 32},    /* n = 33; 33 >> 5 = 1; 32 */
        {-8192, 7936}, /* n = 8192; 8192 >> 5 = 256; 7936 */
        {8191, -7935}, /* n = -8191; -8191 >> 5 = floor(-255.97) = -256; -7935 */
    };
    rpl_sim_t *sim = new_sim(3, 3, 1);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int16_t cur[9] = {0}, prev[9] = {0};
        prev[4] = (int16_t)cases[i].prev;
        cur[4] = 77; /* becomes prev after the step */
        assert_int_equal(rpl_sim_set_state(sim, cur, prev), RPL_OK);
        uint64_t steps = sim->steps;
        rpl_sim_step(sim);
        assert_int_equal(sim->steps, steps + 1);
        assert_int_equal(sim->cur[4], cases[i].want);
        assert_int_equal(sim->prev[4], 77);
        assert_border_zero(sim->cur, 3, 3);
        assert_border_zero(sim->prev, 3, 3);
    }
    rpl_sim_destroy(sim);
}

/* 4x4: interior a=(1,1) b=(2,1) c=(1,2) d=(2,2); a and d have b and c as
 * interior neighbours, b and c have a and d (the others are border 0). */
static void test_step_4x4_hand(void **state)
{
    (void)state;
    rpl_sim_t *sim = new_sim(4, 4, 1);
    int16_t cur[16] = {0}, prev[16] = {0};
    cur[5] = 5;   /* a */
    cur[6] = -3;  /* b */
    cur[9] = -4;  /* c */
    cur[10] = 7;  /* d */
    prev[5] = -5;
    prev[6] = 2;
    prev[9] = -1;
    prev[10] = 1;
    assert_int_equal(rpl_sim_set_state(sim, cur, prev), RPL_OK);
    rpl_sim_step(sim);
    /* a: b + c = -7 (odd negative); -7 >> 1 = floor(-3.5) = -4 (truncation
     *    would give -3); n = -4 - (-5) = 1; 1 >> 5 = 0 -> 1 (truncation: 2) */
    assert_int_equal(sim->cur[5], 1);
    /* b: a + d = 12; 12 >> 1 = 6; n = 6 - 2 = 4; 4 >> 5 = 0 -> 4 */
    assert_int_equal(sim->cur[6], 4);
    /* c: 6 - (-1) = 7 -> 7 */
    assert_int_equal(sim->cur[9], 7);
    /* d: -7 >> 1 = -4; n = -4 - 1 = -5; -5 >> 5 = -1; -5 + 1 = -4 */
    assert_int_equal(sim->cur[10], -4);
    /* the old current is now the previous buffer */
    assert_memory_equal(sim->prev, cur, sizeof cur);
    assert_border_zero(sim->cur, 4, 4);
    rpl_sim_destroy(sim);
}

/* 5x5 with a single spike at the centre (2,2), two steps. */
static void test_step_5x5_spike(void **state)
{
    (void)state;
    rpl_sim_t *sim = new_sim(5, 5, 1);
    int16_t cur[25] = {0}, prev[25] = {0};
    cur[12] = 100;
    assert_int_equal(rpl_sim_set_state(sim, cur, prev), RPL_OK);
    rpl_sim_step(sim);
    /* step 1: centre: neighbours 0, prev 0 -> 0.
     * its 4 neighbours: sum 100 >> 1 = 50; 50 >> 5 = 1 -> 49.
     * the 4 interior corners (1,1)...: all their neighbours 0 -> 0. */
    int16_t want1[25] = {0};
    want1[7] = want1[11] = want1[13] = want1[17] = 49;
    assert_memory_equal(sim->cur, want1, sizeof want1);
    assert_memory_equal(sim->prev, cur, sizeof cur);
    rpl_sim_step(sim);
    /* step 2 (prev is the spike):
     * centre: 4 * 49 = 196 >> 1 = 98; n = 98 - 100 = -2; -2 >> 5 = -1 -> -1
     * (1,2) etc.: neighbours (0,2)=0 (2,2)=0 (1,1)=0 (1,3)=0, prev 0 -> 0
     * corners (1,1): (2,1)=49 + (1,2)=49 = 98 >> 1 = 49; 49 >> 5 = 1 -> 48 */
    int16_t want2[25] = {0};
    want2[12] = -1;
    want2[6] = want2[8] = want2[16] = want2[18] = 48;
    assert_memory_equal(sim->cur, want2, sizeof want2);
    assert_memory_equal(sim->prev, want1, sizeof want1);
    rpl_sim_destroy(sim);

    /* Negative spike -102 in a fresh field: its neighbours get
     * -102 >> 1 = -51; -51 >> 5 = floor(-1.59) = -2; -51 + 2 = -49. */
    sim = new_sim(5, 5, 1);
    memset(cur, 0, sizeof cur);
    cur[12] = -102;
    assert_int_equal(rpl_sim_set_state(sim, cur, prev), RPL_OK);
    rpl_sim_step(sim);
    int16_t want3[25] = {0};
    want3[7] = want3[11] = want3[13] = want3[17] = -49;
    assert_memory_equal(sim->cur, want3, sizeof want3);
    rpl_sim_destroy(sim);
}

/* The clamp at both ends on a 5x5 field. */
static void test_step_clamp(void **state)
{
    (void)state;
    rpl_sim_t *sim = new_sim(5, 5, 1);
    int16_t cur[25], prev[25];
    /* All interior cur 8191, prev -8192.
     * centre: 4*8191 = 32764 >> 1 = 16382; n = 16382 + 8192 = 24574;
     *   24574 >> 5 = 767; 24574 - 767 = 23807 -> 8191
     * edge middle (2,1): 3*8191 = 24573 >> 1 = 12286; +8192 = 20478;
     *   20478 >> 5 = 639; 19839 -> 8191
     * corner (1,1): 2*8191 = 16382 >> 1 = 8191; +8192 = 16383;
     *   16383 >> 5 = 511; 15872 -> 8191 */
    for (int i = 0; i < 25; i++) {
        int x = i % 5, y = i / 5, in = x > 0 && y > 0 && x < 4 && y < 4;
        cur[i] = in ? 8191 : 0;
        prev[i] = in ? -8192 : 0;
    }
    assert_int_equal(rpl_sim_set_state(sim, cur, prev), RPL_OK);
    rpl_sim_step(sim);
    for (int i = 0; i < 25; i++) {
        int x = i % 5, y = i / 5, in = x > 0 && y > 0 && x < 4 && y < 4;
        assert_int_equal(sim->cur[i], in ? 8191 : 0);
    }
    /* Mirror: cur -8192, prev 8191.
     * centre: -32768 >> 1 = -16384; n = -16384 - 8191 = -24575;
     *   -24575 >> 5 = floor(-767.97) = -768; -24575 + 768 = -23807 -> -8192
     * edge middle: -24576 >> 1 = -12288; -20479; >> 5 = -640; -19839 -> -8192
     * corner: -16384 >> 1 = -8192; -16383; >> 5 = -512; -15871 -> -8192 */
    for (int i = 0; i < 25; i++) {
        int x = i % 5, y = i / 5, in = x > 0 && y > 0 && x < 4 && y < 4;
        cur[i] = in ? -8192 : 0;
        prev[i] = in ? 8191 : 0;
    }
    assert_int_equal(rpl_sim_set_state(sim, cur, prev), RPL_OK);
    rpl_sim_step(sim);
    for (int i = 0; i < 25; i++) {
        int x = i % 5, y = i / 5, in = x > 0 && y > 0 && x < 4 && y < 4;
        assert_int_equal(sim->cur[i], in ? -8192 : 0);
    }
    /* Only the centre pushed past the top: cur cross (2,1) (1,2) (3,2)
     * (2,3) = 8191 with the same prev 8191, centre cur 0, prev -8192.
     * centre: 4*8191 >> 1 = 16382; + 8192 = 24574 -> 23807 -> 8191 (clamped)
     * (2,1): neighbours (1,1) (3,1) (2,0) (2,2) all 0 -> 0; 0 - 8191 = -8191;
     *   -8191 >> 5 = floor(-255.97) = -256; -8191 + 256 = -7935 (not clamped)
     * (1,1): (2,1) + (1,2) = 16382 >> 1 = 8191; prev 0; 8191 >> 5 = 255;
     *   8191 - 255 = 7936 */
    memset(cur, 0, sizeof cur);
    memset(prev, 0, sizeof prev);
    cur[7] = cur[11] = cur[13] = cur[17] = 8191;
    prev[7] = prev[11] = prev[13] = prev[17] = 8191;
    prev[12] = -8192;
    assert_int_equal(rpl_sim_set_state(sim, cur, prev), RPL_OK);
    rpl_sim_step(sim);
    assert_int_equal(sim->cur[12], 8191);
    assert_int_equal(sim->cur[7], -7935);
    assert_int_equal(sim->cur[11], -7935);
    assert_int_equal(sim->cur[13], -7935);
    assert_int_equal(sim->cur[17], -7935);
    assert_int_equal(sim->cur[6], 7936);
    assert_int_equal(sim->cur[8], 7936);
    assert_int_equal(sim->cur[16], 7936);
    assert_int_equal(sim->cur[18], 7936);
    rpl_sim_destroy(sim);
}

/* Random in-contract states, many steps, against the reference rule. */
static void test_step_matches_reference(void **state)
{
    (void)state;
    static const int sizes[][2] = {{3, 3}, {4, 7}, {31, 17}, {64, 5}, {129, 65}};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        int w = sizes[k][0], h = sizes[k][1];
        for (int range = 0; range < 2; range++) {
            rpl_sim_t *sim = new_sim(w, h, 7);
            /* full range (exercises the clamp) and small values (rounding) */
            if (range == 0)
                random_state(sim, 1000 + k, RPL_HEIGHT_MIN, RPL_HEIGHT_MAX);
            else
                random_state(sim, 2000 + k, -70, 70);
            int16_t *c = copy_plane(sim->cur, cells(sim));
            int16_t *p = copy_plane(sim->prev, cells(sim));
            for (int s = 0; s < 60; s++) {
                rpl_sim_step(sim);
                ref_step(&c, &p, w, h);
                assert_plane_equal(sim->cur, c, cells(sim));
                assert_plane_equal(sim->prev, p, cells(sim));
            }
            free(c);
            free(p);
            rpl_sim_destroy(sim);
        }
    }
}

static void test_zero_field_stays_zero(void **state)
{
    (void)state;
    rpl_sim_t *sim = new_sim(37, 23, 5);
    int16_t *zero = new_plane(37, 23);
    for (int i = 0; i < 200; i++)
        rpl_sim_step(sim);
    assert_int_equal(sim->steps, 200);
    assert_plane_equal(sim->cur, zero, cells(sim));
    assert_plane_equal(sim->prev, zero, cells(sim));
    assert_int_equal(rpl_sim_energy(sim), 0);
    free(zero);
    rpl_sim_destroy(sim);
}

static void test_border_stays_zero(void **state)
{
    (void)state;
    uint64_t s = 42;
    rpl_sim_t *sim = new_sim(50, 33, 3);
    for (int i = 0; i < 1500; i++) {
        if (i % 3 == 0 && i < 1200) {
            int x = tr_range(&s, -10, 60), y = tr_range(&s, -10, 43);
            int r = tr_range(&s, 1, 15), wt = tr_range(&s, -20000, 20000);
            assert_int_equal(rpl_sim_drop(sim, x, y, r, wt), RPL_OK);
        }
        rpl_sim_step(sim);
        assert_border_zero(sim->cur, 50, 33);
        assert_border_zero(sim->prev, 50, 33);
        assert_heights_in_range(sim->cur, cells(sim));
    }
    rpl_sim_destroy(sim);
}

static void check_symmetry(const rpl_sim_t *sim, int transpose)
{
    int w = sim->w, h = sim->h;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int v = at(sim, sim->cur, x, y);
            if (v != at(sim, sim->cur, w - 1 - x, y))
                fail_msg("left-right asymmetry at (%d,%d) after %llu steps", x, y,
                         (unsigned long long)sim->steps);
            if (v != at(sim, sim->cur, x, h - 1 - y))
                fail_msg("up-down asymmetry at (%d,%d) after %llu steps", x, y,
                         (unsigned long long)sim->steps);
            if (transpose && v != at(sim, sim->cur, y, x))
                fail_msg("transpose asymmetry at (%d,%d) after %llu steps", x, y,
                         (unsigned long long)sim->steps);
        }
}

static void test_centred_drop_symmetric(void **state)
{
    (void)state;
    /* square: mirror both ways and transpose */
    rpl_sim_t *sim = new_sim(65, 65, 1);
    assert_int_equal(rpl_sim_drop(sim, 32, 32, 6, 3000), RPL_OK);
    assert_true(rpl_sim_energy(sim) > 0);
    int last_moving = -1;
    for (int i = 0; i < 400; i++) {
        rpl_sim_step(sim);
        check_symmetry(sim, 1);
        if (rpl_sim_energy(sim) > 0)
            last_moving = i;
    }
    assert_true(last_moving >= 250); /* the water moved for hundreds of the checked steps */
    rpl_sim_destroy(sim);

    /* odd non-square: mirror both ways, also with a heavy (clamped) stone */
    sim = new_sim(41, 27, 1);
    assert_int_equal(rpl_sim_drop(sim, 20, 13, 9, 50000), RPL_OK);
    for (int i = 0; i < 300; i++) {
        rpl_sim_step(sim);
        check_symmetry(sim, 0);
    }
    rpl_sim_destroy(sim);
}

/* Energy after drops stop.  "Near rest": the integer damping
 * n - (n >> 5) leaves 1..31 unchanged (31 >> 5 = 0), so it cannot promise
 * an exact 0; the bound used is |height| <= 31 everywhere, hence energy
 * <= 31 * interior cells, and well below a thousandth of the peak. */
static void test_energy_decays(void **state)
{
    (void)state;
    rpl_sim_t *sim = new_sim(80, 64, 11);
    rpl_rain_t rain = {3000, 1, 12, -8192, 8192};
    uint64_t peak = 0;
    for (int i = 0; i < 200; i++) {
        assert_int_equal(rpl_sim_rain(sim, &rain), RPL_OK);
        rpl_sim_step(sim);
        uint64_t e = rpl_sim_energy(sim);
        if (e > peak)
            peak = e;
    }
    assert_true(peak > 100000);
    for (int i = 0; i < 1500; i++)
        rpl_sim_step(sim);
    uint64_t e = rpl_sim_energy(sim);
    uint64_t bound = 31u * 78u * 62u;
    assert_true(e <= bound);
    assert_true(e * 1000 < peak);
    for (size_t i = 0; i < cells(sim); i++)
        assert_in_range(sim->cur[i] < 0 ? -sim->cur[i] : sim->cur[i], 0, 31);

    /* energy is the sum of |height| (hand: 3 + 8192 + 8191 + 0 = 16386) */
    rpl_sim_t *small = new_sim(4, 4, 1);
    int16_t cur[16] = {0}, prev[16] = {0};
    cur[5] = -3;
    cur[6] = -8192;
    cur[9] = 8191;
    prev[10] = 1000;
    assert_int_equal(rpl_sim_set_state(small, cur, prev), RPL_OK);
    assert_int_equal(rpl_sim_energy(small), 16386);
    rpl_sim_destroy(small);
    rpl_sim_destroy(sim);
}

/* ---- drops ------------------------------------------------------------ */

/* Independent expected result of a drop. */
static void ref_drop(int16_t *p, int w, int h, int x, int y, int r, int weight)
{
    int64_t v = clamp64(-(int64_t)weight, RPL_HEIGHT_MIN, RPL_HEIGHT_MAX);
    for (int cy = 1; cy < h - 1; cy++)
        for (int cx = 1; cx < w - 1; cx++) {
            int64_t dx = (int64_t)cx - x, dy = (int64_t)cy - y;
            if (dx <= -r || dx >= r || dy <= -r || dy >= r)
                continue; /* outside the bounding square; also keeps dx*dx small */
            if (dx * dx + dy * dy < (int64_t)r * r)
                p[cy * w + cx] = (int16_t)v;
        }
}

static void test_drop_clipped_everywhere(void **state)
{
    (void)state;
    const int w = 16, h = 12;
    const int radii[] = {1, 2, 3, 5, 20, RPL_RADIUS_MAX};
    rpl_sim_t *sim = new_sim(w, h, 1);
    random_state(sim, 99, -500, 500);
    int16_t *base_c = copy_plane(sim->cur, cells(sim));
    int16_t *base_p = copy_plane(sim->prev, cells(sim));
    int16_t *want = new_plane(w, h);
    int inside_hits = 0;
    for (size_t ri = 0; ri < sizeof radii / sizeof radii[0]; ri++) {
        int r = radii[ri];
        const int xs[] = {INT_MIN, INT_MIN + 1, -100000, -r - 2, -r - 1, -r, -r + 1, -1, 0, 1,
                          w / 2, w - 2, w - 1, w, w + r - 1, w + r, w + r + 1, 100000,
                          INT_MAX - 1, INT_MAX};
        const int ys[] = {INT_MIN, -100000, -r - 1, -r, -r + 1, -1, 0, 1, h / 2, h - 2,
                          h - 1, h, h + r - 1, h + r, 100000, INT_MAX};
        for (size_t xi = 0; xi < sizeof xs / sizeof xs[0]; xi++)
            for (size_t yi = 0; yi < sizeof ys / sizeof ys[0]; yi++) {
                assert_int_equal(rpl_sim_set_state(sim, base_c, base_p), RPL_OK);
                memcpy(want, base_c, cells(sim) * sizeof *want);
                ref_drop(want, w, h, xs[xi], ys[yi], r, 777);
                assert_int_equal(rpl_sim_drop(sim, xs[xi], ys[yi], r, 777), RPL_OK);
                if (memcmp(want, base_c, cells(sim) * sizeof *want) != 0)
                    inside_hits++;
                for (size_t i = 0; i < cells(sim); i++)
                    if (sim->cur[i] != want[i])
                        fail_msg("drop (%d,%d) r=%d: cell (%zu,%zu) is %d, want %d", xs[xi],
                                 ys[yi], r, i % (size_t)w, i / (size_t)w, sim->cur[i], want[i]);
                assert_plane_equal(sim->prev, base_p, cells(sim));
                assert_border_zero(sim->cur, w, h);
            }
    }
    assert_true(inside_hits > 100); /* many of the drops did touch the interior */

    /* Hand check: a drop centred on the corner (0,0) with radius 2 reaches
     * only (1,1) (1+1 = 2 < 4); (2,1): 4+1 = 5 >= 4 no; (1,0),(0,1) are border. */
    int16_t zero[16 * 12] = {0};
    assert_int_equal(rpl_sim_set_state(sim, zero, zero), RPL_OK);
    assert_int_equal(rpl_sim_drop(sim, 0, 0, 2, 100), RPL_OK);
    for (int i = 0; i < w * h; i++)
        assert_int_equal(sim->cur[i], i == 1 * w + 1 ? -100 : 0);
    free(base_c);
    free(base_p);
    free(want);
    rpl_sim_destroy(sim);
}

static void test_drop_bad_radius(void **state)
{
    (void)state;
    rpl_sim_t *sim = new_sim(20, 20, 1);
    random_state(sim, 5, -100, 100);
    int16_t *c = copy_plane(sim->cur, cells(sim));
    int16_t *p = copy_plane(sim->prev, cells(sim));
    const int bad[] = {0, -1, -5, RPL_RADIUS_MAX + 1, 100000, INT_MIN, INT_MAX};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(rpl_sim_drop(sim, 10, 10, bad[i], 500), RPL_EINVAL);
        assert_int_equal(rpl_sim_trail(sim, 2, 2, 15, 15, bad[i], 500), RPL_EINVAL);
        assert_plane_equal(sim->cur, c, cells(sim));
        assert_plane_equal(sim->prev, p, cells(sim));
    }
    assert_true(strlen(rpl_sim_error(sim)) > 0);
    assert_int_equal(rpl_sim_drop(NULL, 10, 10, 3, 500), RPL_EINVAL);
    assert_int_equal(rpl_sim_trail(NULL, 1, 1, 3, 3, 3, 500), RPL_EINVAL);
    /* radius 1 and RPL_RADIUS_MAX are valid */
    assert_int_equal(rpl_sim_drop(sim, 10, 10, 1, 500), RPL_OK);
    assert_int_equal(sim->cur[10 * 20 + 10], -500);
    assert_int_equal(rpl_sim_drop(sim, 10, 10, RPL_RADIUS_MAX, 1), RPL_OK);
    for (int y = 1; y < 19; y++)
        for (int x = 1; x < 19; x++)
            assert_int_equal(at(sim, sim->cur, x, y), -1);
    free(c);
    free(p);
    rpl_sim_destroy(sim);
}

static void test_drop_weight_clamped(void **state)
{
    (void)state;
    static const struct {
        int weight, want;
    } cases[] = {
        {100000, -8192},  /* -100000 below -8192 */
        {-100000, 8191},  /* 100000 above 8191 */
        {INT_MAX, -8192}, /* -2147483647 */
        {INT_MIN, 8191},  /* -INT_MIN does not fit int: still 8191 */
        {8192, -8192},    /* exactly the minimum */
        {8193, -8192},
        {-8191, 8191},    /* exactly the maximum */
        {-8192, 8191},    /* 8192 is one too many */
        {0, 0},
        {1, -1},
        {-1, 1},
    };
    rpl_sim_t *sim = new_sim(9, 9, 1);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rpl_sim_reset(sim, 1);
        assert_int_equal(rpl_sim_drop(sim, 4, 4, 2, cases[i].weight), RPL_OK);
        /* r = 2: dx, dy in {-1, 0, 1} give dx^2 + dy^2 in {0, 1, 2}, all
         * < 4; any |dx| = 2 gives >= 4: exactly the 3x3 block around (4,4). */
        for (int y = 0; y < 9; y++)
            for (int x = 0; x < 9; x++) {
                int in = x >= 3 && x <= 5 && y >= 3 && y <= 5;
                assert_int_equal(at(sim, sim->cur, x, y), in ? cases[i].want : 0);
            }
    }
    rpl_sim_destroy(sim);
}

/* ---- trails ----------------------------------------------------------- */

static void test_trail_basic(void **state)
{
    (void)state;
    const int w = 40, h = 30;
    rpl_sim_t *sim = new_sim(w, h, 1);
    int16_t *want = new_plane(w, h);

    /* horizontal, radius 3 (spacing max(1, 3/2) = 1): a stone at every
     * cell from x = 5 to 30, i.e. exactly the union of those circles */
    assert_int_equal(rpl_sim_trail(sim, 5, 10, 30, 10, 3, 600), RPL_OK);
    for (int x = 5; x <= 30; x++)
        ref_drop(want, w, h, x, 10, 3, 600);
    assert_plane_equal(sim->cur, want, cells(sim));

    /* diagonal, radius 4 (spacing 2) from (3,26) to (25,4): both end
     * circles stamped whole, every cell of the diagonal stamped, nothing
     * stamped farther than the radius from the segment */
    rpl_sim_reset(sim, 1);
    assert_int_equal(rpl_sim_trail(sim, 3, 26, 25, 4, 4, -300), RPL_OK);
    memset(want, 0, cells(sim) * sizeof *want);
    ref_drop(want, w, h, 3, 26, 4, -300);
    ref_drop(want, w, h, 25, 4, 4, -300);
    for (size_t i = 0; i < cells(sim); i++)
        if (want[i])
            assert_int_equal(sim->cur[i], 300);
    for (int t = 0; t <= 22; t++)
        assert_int_equal(at(sim, sim->cur, 3 + t, 26 - t), 300);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            if (!at(sim, sim->cur, x, y))
                continue;
            /* distance^2 from (x,y) to the segment, in exact rationals:
             * project on direction (1,-1) */
            double px = x - 3, py = y - 26;
            double tt = (px - py) / 2.0;
            if (tt < 0)
                tt = 0;
            if (tt > 22)
                tt = 22;
            double ex = px - tt, ey = py + tt;
            assert_true(ex * ex + ey * ey < 16.0);
            assert_int_equal(at(sim, sim->cur, x, y), 300);
        }

    /* a zero-length trail is one stone */
    rpl_sim_reset(sim, 1);
    assert_int_equal(rpl_sim_trail(sim, 12, 12, 12, 12, 5, 100), RPL_OK);
    memset(want, 0, cells(sim) * sizeof *want);
    ref_drop(want, w, h, 12, 12, 5, 100);
    assert_plane_equal(sim->cur, want, cells(sim));

    /* ends far outside: no crash, border intact, heights in range */
    rpl_sim_reset(sim, 1);
    assert_int_equal(rpl_sim_trail(sim, INT_MIN, INT_MIN, INT_MAX, INT_MAX, 3, 100), RPL_OK);
    assert_int_equal(rpl_sim_trail(sim, INT_MAX, INT_MIN, INT_MIN, INT_MAX, 7, -100), RPL_OK);
    assert_int_equal(rpl_sim_trail(sim, INT_MIN, 0, INT_MIN, INT_MAX, 1, 100), RPL_OK);
    assert_border_zero(sim->cur, w, h);
    free(want);
    rpl_sim_destroy(sim);
}

/* A trail whose ends lie off the field still has to put its stones
 * max(1, radius/2) apart along the part that crosses the field.
 * Radius 1 (spacing 1) along row 32 of a 64x64 field from x = -400 to
 * x = 464: every interior cell (1..62, 32) lies on the segment at an
 * integer position, so every one of them gets a stone. */
static void test_trail_long_segment_spacing(void **state)
{
    (void)state;
    rpl_sim_t *sim = new_sim(64, 64, 1);
    assert_int_equal(rpl_sim_trail(sim, -400, 32, 464, 32, 1, 100), RPL_OK);
    int missing1 = 0;
    for (int x = 1; x <= 62; x++)
        missing1 += at(sim, sim->cur, x, 32) != -100;
    /* and a trail across the whole int range, radius 4 (spacing 2): the
     * row must be covered inside the field too */
    rpl_sim_reset(sim, 1);
    assert_int_equal(rpl_sim_trail(sim, INT_MIN, 20, INT_MAX, 20, 4, 100), RPL_OK);
    int missing2 = 0;
    for (int x = 1; x <= 62; x++)
        missing2 += at(sim, sim->cur, x, 20) != -100;
    assert_border_zero(sim->cur, 64, 64);
    rpl_sim_destroy(sim); /* before a failure jumps out */
    if (missing1 || missing2)
        fail_msg("CORE BUG (rpl_sim_trail caps the stone count at 4*(w+h)): "
                 "trail (-400,32)-(464,32) r=1 left %d of 62 row cells without a stone; "
                 "trail (INT_MIN,20)-(INT_MAX,20) r=4 left %d of 62", missing1, missing2);
}

/* ---- rain ------------------------------------------------------------- */

static void test_rain_reproducible(void **state)
{
    (void)state;
    rpl_rain_t rain = {700, 1, 6, 100, 2000};
    rpl_sim_t *a = new_sim(70, 50, 1234), *b = new_sim(70, 50, 1234), *c = new_sim(70, 50, 1235);
    for (int i = 0; i < 300; i++) {
        assert_int_equal(rpl_sim_rain(a, &rain), RPL_OK);
        assert_int_equal(rpl_sim_rain(b, &rain), RPL_OK);
        assert_int_equal(rpl_sim_rain(c, &rain), RPL_OK);
        rpl_sim_step(a);
        rpl_sim_step(b);
        rpl_sim_step(c);
    }
    assert_true(rpl_sim_energy(a) > 0);
    assert_plane_equal(a->cur, b->cur, cells(a));
    assert_plane_equal(a->prev, b->prev, cells(a));
    assert_true(memcmp(a->cur, c->cur, cells(a) * sizeof *a->cur) != 0);
    assert_int_equal(rpl_sim_random(a), rpl_sim_random(b));

    /* reset reseeds: same seed again gives the same rain */
    rpl_sim_reset(a, 1234);
    rpl_sim_reset(c, 1234);
    for (int i = 0; i < 100; i++) {
        rpl_sim_rain(a, &rain);
        rpl_sim_rain(c, &rain);
        rpl_sim_step(a);
        rpl_sim_step(c);
    }
    assert_int_equal(a->steps, 100);
    assert_plane_equal(a->cur, c->cur, cells(a));
    rpl_sim_destroy(a);
    rpl_sim_destroy(b);
    rpl_sim_destroy(c);
}

/* Counts the stones of one rain call: radius 1 stones stamp exactly their
 * centre; the field is zeroed before each call (set_state leaves the
 * generator alone). */
static int rain_once(rpl_sim_t *sim, const rpl_rain_t *rain, const int16_t *zero)
{
    assert_int_equal(rpl_sim_set_state(sim, zero, zero), RPL_OK);
    assert_int_equal(rpl_sim_rain(sim, rain), RPL_OK);
    int n = 0;
    for (size_t i = 0; i < cells(sim); i++) {
        if (sim->cur[i]) {
            assert_int_equal(sim->cur[i], -500);
            n++;
        }
    }
    assert_border_zero(sim->cur, sim->w, sim->h);
    return n;
}

static void test_rain_rate(void **state)
{
    (void)state;
    rpl_sim_t *sim = new_sim(256, 256, 77);
    int16_t *zero = new_plane(256, 256);
    rpl_rain_t rain = {250, 1, 1, 500, 500};
    /* 250 per kilostep over 4000 calls: mean 1000 stones, binomial sd
     * sqrt(4000 * 0.25 * 0.75) = 27.4; accept +-150 (5.5 sd) */
    int total = 0;
    for (int i = 0; i < 4000; i++) {
        int n = rain_once(sim, &rain, zero);
        assert_in_range(n, 0, 1);
        total += n;
    }
    assert_in_range(total, 850, 1150);

    /* 1000 per kilostep: exactly one stone on every call */
    rain.per_kilostep = 1000;
    for (int i = 0; i < 300; i++)
        assert_int_equal(rain_once(sim, &rain, zero), 1);

    /* 0: never any */
    rain.per_kilostep = 0;
    for (int i = 0; i < 300; i++)
        assert_int_equal(rain_once(sim, &rain, zero), 0);

    /* 2500: 2 or 3 stones per call, 2.5 on average: 400 calls give 1000,
     * sd sqrt(400 * 0.25) = 10; accept +-60.  Two stones may land on the
     * same cell (rare on 254x254), so a call may show 1. */
    rain.per_kilostep = 2500;
    total = 0;
    for (int i = 0; i < 400; i++) {
        int n = rain_once(sim, &rain, zero);
        assert_in_range(n, 1, 3);
        total += n;
    }
    assert_in_range(total, 940, 1060);
    free(zero);
    rpl_sim_destroy(sim);
}

static void test_rain_bad_settings(void **state)
{
    (void)state;
    rpl_sim_t *sim = new_sim(30, 30, 9);
    random_state(sim, 3, -50, 50);
    int16_t *c = copy_plane(sim->cur, cells(sim));
    int16_t *p = copy_plane(sim->prev, cells(sim));
    uint64_t rng = sim->rng;
    const rpl_rain_t bad[] = {
        {-1, 1, 3, 100, 200},
        {1000001, 1, 3, 100, 200},
        {INT_MIN, 1, 3, 100, 200},
        {INT_MAX, 1, 3, 100, 200},
        {500, 0, 3, 100, 200},
        {500, -3, 3, 100, 200},
        {500, 4, 3, 100, 200},
        {500, 1, RPL_RADIUS_MAX + 1, 100, 200},
        {500, 1, 3, 200, 100},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        sim->err[0] = '\0';
        assert_int_equal(rpl_sim_rain(sim, &bad[i]), RPL_EINVAL);
        assert_true(strlen(rpl_sim_error(sim)) > 0);
        assert_plane_equal(sim->cur, c, cells(sim));
        assert_plane_equal(sim->prev, p, cells(sim));
        assert_true(sim->rng == rng);
    }
    assert_int_equal(rpl_sim_rain(sim, NULL), RPL_EINVAL);
    rpl_rain_t ok = {500, 1, 3, 100, 200};
    assert_int_equal(rpl_sim_rain(NULL, &ok), RPL_EINVAL);
    /* the edges of the ranges are accepted */
    rpl_rain_t edge = {1000000, RPL_RADIUS_MAX, RPL_RADIUS_MAX, -5, -5};
    assert_int_equal(rpl_sim_rain(sim, &edge), RPL_OK);
    free(c);
    free(p);
    rpl_sim_destroy(sim);
}

/* Weights are clamped per stone, so the rain must accept any int weights
 * with wmin <= wmax (or refuse them with RPL_EINVAL), never crash or hit
 * undefined behaviour.  Run in a child process so a crash fails only
 * this test. */
static void test_rain_extreme_weights(void **state)
{
    (void)state;
    static const int ranges[][2] = {
        {INT_MIN, INT_MAX}, {INT_MIN, 0}, {-2000000000, 2000000000}, {-100000, 100000}};
    int failures = 0;
    for (size_t k = 0; k < sizeof ranges / sizeof ranges[0]; k++) {
        fflush(NULL);
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            /* cmocka's handlers must not run in the child */
            signal(SIGFPE, SIG_DFL);
            signal(SIGSEGV, SIG_DFL);
            signal(SIGILL, SIG_DFL);
            signal(SIGBUS, SIG_DFL);
            signal(SIGABRT, SIG_DFL);
            rpl_sim_t *sim = rpl_sim_create(40, 40, 5, NULL);
            if (!sim)
                _exit(10);
            rpl_rain_t rain = {3000, 1, 4, ranges[k][0], ranges[k][1]};
            for (int i = 0; i < 50; i++) {
                rpl_status st = rpl_sim_rain(sim, &rain);
                if (st == RPL_EINVAL)
                    break;
                if (st != RPL_OK)
                    _exit(11);
            }
            for (size_t i = 0; i < 1600; i++) {
                int x = (int)(i % 40), y = (int)(i / 40);
                if ((x == 0 || y == 0 || x == 39 || y == 39) && sim->cur[i] != 0)
                    _exit(12);
            }
            rpl_sim_destroy(sim);
            _exit(0);
        }
        int ws = 0;
        assert_int_equal(waitpid(pid, &ws, 0), pid);
        if (!WIFEXITED(ws) || WEXITSTATUS(ws) != 0) {
            print_error("rpl_sim_rain with weights [%d, %d]: %s %d\n", ranges[k][0],
                        ranges[k][1], WIFSIGNALED(ws) ? "killed by signal" : "exit status",
                        WIFSIGNALED(ws) ? WTERMSIG(ws) : WEXITSTATUS(ws));
            failures++;
        }
    }
    if (failures)
        fail_msg("CORE BUG (rpl_rng_range computes hi - lo + 1 in int): %d weight range(s) "
                 "crashed or hit undefined behaviour", failures);
}

/* ---- creation, state -------------------------------------------------- */

static void test_create_sizes(void **state)
{
    (void)state;
    const int bad[][2] = {{2, 3}, {3, 2}, {0, 10}, {10, 0}, {-1, 10}, {10, -5},
                          {RPL_DIM_MAX + 1, 10}, {10, RPL_DIM_MAX + 1}, {INT_MAX, 10},
                          {10, INT_MIN}, {INT_MIN, INT_MAX}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        rpl_status st = RPL_OK;
        assert_null(rpl_sim_create(bad[i][0], bad[i][1], 1, &st));
        assert_int_equal(st, RPL_EINVAL);
        assert_null(rpl_sim_create(bad[i][0], bad[i][1], 1, NULL));
    }
    const int good[][2] = {{RPL_DIM_MIN, RPL_DIM_MIN}, {RPL_DIM_MAX, 3}, {3, RPL_DIM_MAX}};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        rpl_sim_t *sim = new_sim(good[i][0], good[i][1], 0);
        assert_int_equal(sim->steps, 0);
        assert_int_equal(rpl_sim_energy(sim), 0);
        assert_non_null(sim->kern);
        assert_string_equal(rpl_sim_error(sim), "");
        rpl_sim_destroy(sim);
    }
    rpl_sim_destroy(NULL); /* harmless */
}

static void test_set_state_rejects(void **state)
{
    (void)state;
    const int w = 7, h = 6;
    rpl_sim_t *sim = new_sim(w, h, 1);
    random_state(sim, 17, -1000, 1000);
    int16_t *c0 = copy_plane(sim->cur, cells(sim));
    int16_t *p0 = copy_plane(sim->prev, cells(sim));
    int16_t *good = new_plane(w, h);
    uint64_t s = 8;
    random_plane(good, w, h, &s, RPL_HEIGHT_MIN, RPL_HEIGHT_MAX);

    /* cell index and value that break the contract */
    const struct {
        int idx, v;
    } bad[] = {
        {1 * 7 + 1, 8192},  {2 * 7 + 3, -8193}, {3 * 7 + 3, 32767}, {4 * 7 + 5, -32768},
        {0, 1},             {3, -1},            {6, 5},             {2 * 7 + 0, 8191},
        {3 * 7 + 6, -8192}, {5 * 7 + 0, 1},     {5 * 7 + 3, 2},     {5 * 7 + 6, -3},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        for (int which = 0; which < 2; which++) {
            int16_t *b = copy_plane(good, cells(sim));
            b[bad[i].idx] = (int16_t)bad[i].v;
            rpl_status st = which ? rpl_sim_set_state(sim, good, b) : rpl_sim_set_state(sim, b, good);
            /* ripple.h does not name the status; RPL_EINVAL ("an argument
             * is out of range") or RPL_EFORMAT are both taken */
            if (st != RPL_EINVAL && st != RPL_EFORMAT)
                fail_msg("set_state with %d at %d (%s): status %d", bad[i].v, bad[i].idx,
                         which ? "prev" : "cur", st);
            assert_plane_equal(sim->cur, c0, cells(sim));
            assert_plane_equal(sim->prev, p0, cells(sim));
            free(b);
        }
    assert_int_equal(rpl_sim_set_state(sim, NULL, good), RPL_EINVAL);
    assert_int_equal(rpl_sim_set_state(sim, good, NULL), RPL_EINVAL);
    assert_int_equal(rpl_sim_set_state(NULL, good, good), RPL_EINVAL);
    assert_plane_equal(sim->cur, c0, cells(sim));

    /* the limits themselves are accepted and copied */
    int16_t *p2 = copy_plane(good, cells(sim));
    p2[1 * 7 + 1] = RPL_HEIGHT_MIN;
    p2[4 * 7 + 5] = RPL_HEIGHT_MAX;
    assert_int_equal(rpl_sim_set_state(sim, good, p2), RPL_OK);
    assert_plane_equal(sim->cur, good, cells(sim));
    assert_plane_equal(sim->prev, p2, cells(sim));
    free(p2);
    free(good);
    free(c0);
    free(p0);
    rpl_sim_destroy(sim);
}

/* The field's own buffers are valid arguments ("read the fields
 * freely"): passing them swapped must swap the state. */
static void test_set_state_own_buffers(void **state)
{
    (void)state;
    rpl_sim_t *sim = new_sim(9, 8, 1);
    random_state(sim, 21, -300, 300);
    int16_t *c0 = copy_plane(sim->cur, cells(sim));
    int16_t *p0 = copy_plane(sim->prev, cells(sim));
    /* same buffers in place: nothing changes */
    assert_int_equal(rpl_sim_set_state(sim, sim->cur, sim->prev), RPL_OK);
    assert_plane_equal(sim->cur, c0, cells(sim));
    assert_plane_equal(sim->prev, p0, cells(sim));
    /* swapped */
    assert_int_equal(rpl_sim_set_state(sim, sim->prev, sim->cur), RPL_OK);
    int cur_ok = memcmp(sim->cur, p0, cells(sim) * sizeof *p0) == 0;
    int prev_ok = memcmp(sim->prev, c0, cells(sim) * sizeof *c0) == 0;
    free(c0);
    free(p0);
    rpl_sim_destroy(sim);
    if (!cur_ok || !prev_ok)
        fail_msg("CORE BUG (rpl_sim_set_state copies cur before reading prev): "
                 "set_state(sim, sim->prev, sim->cur) did not swap the buffers "
                 "(cur %s the old prev, prev %s the old cur)",
                 cur_ok ? "is" : "is not", prev_ok ? "is" : "is not");
}

/* ---- refraction ------------------------------------------------------- */

static int ref_H(const int16_t *hs, int w, int h, int x, int y)
{
    if (x < 0 || y < 0 || x >= w || y >= h)
        return 0;
    return hs[y * w + x];
}

static uint32_t sat_add(uint32_t px, int shift, int d)
{
    int v = (int)((px >> shift) & 0xFF) + d;
    v = v < 0 ? 0 : v > 255 ? 255 : v;
    return (uint32_t)v << shift;
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

static uint32_t *random_bg(int w, int h, uint64_t seed)
{
    uint32_t *bg = malloc((size_t)w * (size_t)h * sizeof *bg);
    assert_non_null(bg);
    uint64_t s = seed;
    for (size_t i = 0; i < (size_t)w * (size_t)h; i++) {
        uint32_t v = (uint32_t)tr_next(&s);
        /* plenty of saturated channels too */
        if ((v & 7) == 0)
            v |= 0x00FFFFFFu;
        else if ((v & 7) == 1)
            v &= 0xFF000000u;
        bg[i] = v;
    }
    return bg;
}

#define GUARD 0xA5u

/* Renders with pitch = w*4 + pad bytes (pad a multiple of 4: rows of
 * uint32 pixels stay aligned) into a guarded buffer and compares with the
 * reference; padding and the bytes after the frame must stay. */
static void check_refract(rpl_sim_t *sim, const uint32_t *bg, int strength, int shading,
                          int pad)
{
    int w = sim->w, h = sim->h;
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
            uint32_t want = ref_pixel(sim->cur, bg, w, h, x, y, strength, shading);
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

static const int refract_sizes[][2] = {{3, 3}, {7, 5}, {5, 7}, {641, 3}, {3, 641}, {4, 4}, {33, 17}};
static const int strengths[] = {0, 1, 5, RPL_STRENGTH_ONE, 37, RPL_STRENGTH_MAX};

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
        rpl_sim_drop(sim, w / 2, h / 2, 3, 2000);
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

/* ---- formats and backdrops -------------------------------------------- */

static const rpl_format all_formats[3] = {RPL_XRGB8888, RPL_RGB565, RPL_INDEX8};

static rpl_backdrop_t *new_backdrop(const uint32_t *px, int w, int h, rpl_format f)
{
    rpl_status st = RPL_EIO;
    rpl_backdrop_t *bd = rpl_backdrop_create(px, w, h, f, &st);
    assert_non_null(bd);
    assert_int_equal(st, RPL_OK);
    assert_int_equal(rpl_backdrop_format(bd), f);
    int bw = 0, bh = 0;
    rpl_backdrop_size(bd, &bw, &bh);
    assert_int_equal(bw, w);
    assert_int_equal(bh, h);
    assert_non_null(rpl_backdrop_pixels(bd));
    return bd;
}

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
    assert_null(rpl_backdrop_create(NULL, 4, 4, RPL_XRGB8888, &st));
    assert_int_equal(st, RPL_EINVAL);
    const int bad[][2] = {{2, 4}, {4, 2}, {0, 4}, {-1, 4}, {RPL_DIM_MAX + 1, 4},
                          {4, RPL_DIM_MAX + 1}, {INT_MIN, 4}, {4, INT_MAX}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        for (int f = 0; f < 3; f++) {
            st = RPL_OK;
            assert_null(rpl_backdrop_create(px, bad[i][0], bad[i][1], all_formats[f], &st));
            assert_int_equal(st, RPL_EINVAL);
        }
    st = RPL_OK;
    assert_null(rpl_backdrop_create(px, 4, 4, (rpl_format)3, &st));
    assert_int_equal(st, RPL_EINVAL);
    assert_null(rpl_backdrop_create(px, 4, 4, (rpl_format)-1, NULL)); /* status may be NULL */
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

/* rpl_render (or rpl_render_changed) with pitch = w + padpx pixels into a
 * guarded buffer, compared pixel by pixel with the reference. */
static void check_render(rpl_sim_t *sim, const rpl_backdrop_t *bd, int strength, int shading,
                         int padpx, int changed)
{
    int w = sim->w, h = sim->h, bytes = rpl_format_bytes(rpl_backdrop_format(bd));
    int pad = padpx * bytes;
    ptrdiff_t pitch = (ptrdiff_t)w * bytes + pad;
    size_t total = (size_t)pitch * (size_t)h + 64;
    unsigned char *fb = malloc(total);
    assert_non_null(fb);
    memset(fb, GUARD, total);
    rpl_view_t view = {strength, shading};
    assert_int_equal(changed ? rpl_render_changed(sim, bd, fb, pitch, &view)
                             : rpl_render(sim, bd, fb, pitch, &view), RPL_OK);
    for (int y = 0; y < h; y++) {
        const unsigned char *row = fb + (size_t)y * (size_t)pitch;
        for (int x = 0; x < w; x++) {
            uint32_t got = read_px(row + (size_t)x * (size_t)bytes, bytes);
            uint32_t want = ref_pixel_fmt(sim->cur, bd, w, h, x, y, strength, shading);
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
            c = (uint32_t)tr_next(&s) & 0xFFFFFFu;
            dup = 0;
            for (int j = 0; j < i; j++)
                dup |= cols[j] == c;
        } while (dup);
        cols[i] = c;
    }
    for (int i = 0; i < w * h; i++) /* every colour at least once, random top bytes */
        px[i] = (uint32_t)tr_next(&s) << 24 |
                cols[i < ncol ? i : tr_range(&s, 0, ncol - 1)];
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
                    uint32_t v = (uint32_t)tr_next(&s);
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
        rpl_sim_drop(sim, w / 2, h / 2, 3, 2000);
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
        assert_int_equal(rpl_render_changed(sim, wide, fb, row, &ok), RPL_EINVAL);
        assert_int_equal(rpl_render(sim, bd, fb, row - b, &ok), RPL_EINVAL); /* too short */
        assert_int_equal(rpl_render(sim, bd, fb, 0, &ok), RPL_EINVAL);
        assert_int_equal(rpl_render(sim, bd, fb, -row, &ok), RPL_EINVAL);
        if (b > 1) /* not whole pixels */
            assert_int_equal(rpl_render(sim, bd, fb, row + 1, &ok), RPL_EINVAL);
        for (size_t i = 0; i < sizeof fb; i++)
            assert_int_equal(fb[i], 0xC3);
        /* the limits are accepted: pitch of exactly w pixels (7 bytes in INDEX8) */
        assert_int_equal(rpl_render(sim, bd, fb, row, &ok), RPL_OK);
        assert_int_equal(rpl_render_changed(sim, bd, fb, row + b, &ok), RPL_OK);
        rpl_backdrop_destroy(bd);
        rpl_backdrop_destroy(tall);
        rpl_backdrop_destroy(wide);
    }
    /* the raw-background calls draw XRGB8888 only */
    assert_int_equal(rpl_refract(sim, bg, fb, 14, RPL_RGB565, &ok), RPL_EINVAL);
    assert_int_equal(rpl_refract(sim, bg, fb, 7, RPL_INDEX8, &ok), RPL_EINVAL);
    assert_int_equal(rpl_refract_changed(sim, bg, fb, 14, RPL_RGB565, &ok), RPL_EINVAL);
    rpl_sim_destroy(sim);
}

/* Changed-only rendering in each format gives the frames a full render
 * gives, and anything that changes what is drawn redraws every tile. */
static void test_render_changed_formats(void **state)
{
    (void)state;
    int w = 200, h = 97;
    size_t npx = (size_t)w * h;
    uint32_t *bg = random_bg(w, h, 61);
    rpl_sim_t *a = new_sim(w, h, 8), *b = new_sim(w, h, 8);
    rpl_sim_set_sleeping(b, 0);
    rpl_backdrop_t *bd[3];
    unsigned char *fa[3], *fb[3];
    for (int f = 0; f < 3; f++) {
        bd[f] = new_backdrop(bg, w, h, all_formats[f]);
        fa[f] = calloc(npx, 4);
        fb[f] = calloc(npx, 4);
        assert_non_null(fa[f]);
        assert_non_null(fb[f]);
    }
    rpl_view_t view = {RPL_STRENGTH_ONE, 1};
    rpl_stats_t st;
    uint64_t r = 99;
    for (int s = 0; s < 400; s++) {
        if (s % 50 == 0) {
            int x = tr_range(&r, 0, w - 1), y = tr_range(&r, 0, h - 1);
            assert_int_equal(rpl_sim_drop(a, x, y, 4, 800), RPL_OK);
            assert_int_equal(rpl_sim_drop(b, x, y, 4, 800), RPL_OK);
        }
        rpl_sim_step(a);
        rpl_sim_step(b);
        for (int f = 0; f < 3; f++) {
            ptrdiff_t pitch = (ptrdiff_t)w * rpl_format_bytes(all_formats[f]);
            /* a keeps one framebuffer per format and redraws what changed */
            assert_int_equal(rpl_render_changed(a, bd[f], fa[f], pitch, &view), RPL_OK);
            assert_int_equal(rpl_render(b, bd[f], fb[f], pitch, &view), RPL_OK);
            assert_memory_equal(fa[f], fb[f], (size_t)pitch * (size_t)h);
            /* switching format every call: each is a full redraw */
            rpl_sim_stats(a, &st);
            assert_int_equal(st.rendered, st.tiles);
        }
    }
    /* a calm field: a changed-only render draws only the stone's tiles,
     * unless what it draws from changed */
    rpl_sim_t *c = new_sim(w, h, 8);
    assert_int_equal(rpl_sim_drop(c, 10, 10, 3, 500), RPL_OK);
    for (int s = 0; s < 3; s++)
        rpl_sim_step(c);
    rpl_backdrop_t *other = new_backdrop(bg, w, h, RPL_INDEX8);
    uint8_t *want = malloc(npx);
    assert_non_null(want);
    static const struct {
        int which;    /* 0: bd[2] into fa[2], 1: other into fa[2], 2: bd[0] into fa[0],
                       * 3: the raw background into fa[0] */
        int full;     /* 1: every tile redrawn */
    } seq[] = {{0, 1}, {0, 0}, {1, 1}, {1, 0}, {0, 1}, {2, 1}, {2, 0}, {3, 1}, {3, 0}, {2, 1}};
    for (size_t i = 0; i < sizeof seq / sizeof seq[0]; i++) {
        rpl_status rs;
        switch (seq[i].which) {
        case 0: rs = rpl_render_changed(c, bd[2], fa[2], w, &view); break;
        case 1: rs = rpl_render_changed(c, other, fa[2], w, &view); break;
        case 2: rs = rpl_render_changed(c, bd[0], fa[0], (ptrdiff_t)w * 4, &view); break;
        default:
            rs = rpl_refract_changed(c, bg, fa[0], (ptrdiff_t)w * 4, RPL_XRGB8888, &view);
            break;
        }
        assert_int_equal(rs, RPL_OK);
        rpl_sim_stats(c, &st);
        if (seq[i].full ? st.rendered != st.tiles : !(st.rendered > 0 && st.rendered < st.tiles))
            fail_msg("render %zu: %u of %u tiles drawn", i, st.rendered, st.tiles);
    }
    view.shading = 0; /* another view: everything */
    assert_int_equal(rpl_render_changed(c, bd[2], fa[2], w, &view), RPL_OK);
    rpl_sim_stats(c, &st);
    assert_int_equal(st.rendered, st.tiles);
    assert_int_equal(rpl_render(b, bd[2], want, w, &view), RPL_OK);
    rpl_sim_set_sleeping(b, 1);
    assert_int_equal(rpl_sim_set_state(b, c->cur, c->prev), RPL_OK);
    assert_int_equal(rpl_render(b, bd[2], want, w, &view), RPL_OK);
    assert_memory_equal(fa[2], want, npx);
    free(want);
    rpl_sim_destroy(c);
    rpl_backdrop_destroy(other);
    for (int f = 0; f < 3; f++) {
        rpl_backdrop_destroy(bd[f]);
        free(fa[f]);
        free(fb[f]);
    }
    free(bg);
    rpl_sim_destroy(a);
    rpl_sim_destroy(b);
}

/* ---- snapshots -------------------------------------------------------- */

static void test_snapshot_round_trip(void **state)
{
    (void)state;
    char path[64];
    temp_path(path, sizeof path);
    rpl_sim_t *a = new_sim(37, 21, 1), *b = new_sim(37, 21, 2);
    random_state(a, 444, RPL_HEIGHT_MIN, RPL_HEIGHT_MAX);
    random_state(b, 555, -10, 10);
    assert_int_equal(rpl_sim_save(a, path), RPL_OK);
    char tmp[96];
    snprintf(tmp, sizeof tmp, "%s.tmp~", path);
    assert_false(file_exists(tmp)); /* the temporary was renamed away */
    int pw = 0, ph = 0;
    assert_int_equal(rpl_snapshot_probe(path, &pw, &ph, NULL, 0), RPL_OK);
    assert_int_equal(pw, 37);
    assert_int_equal(ph, 21);
    assert_int_equal(rpl_sim_load(b, path), RPL_OK);
    assert_plane_equal(b->cur, a->cur, cells(a));
    assert_plane_equal(b->prev, a->prev, cells(a));
    assert_string_equal(rpl_sim_error(b), "");
    /* stepping both gives the same future */
    for (int i = 0; i < 20; i++) {
        rpl_sim_step(a);
        rpl_sim_step(b);
    }
    assert_plane_equal(b->cur, a->cur, cells(a));
    /* saving over an existing snapshot replaces it */
    assert_int_equal(rpl_sim_save(a, path), RPL_OK);
    rpl_sim_reset(b, 0);
    assert_int_equal(rpl_sim_load(b, path), RPL_OK);
    assert_plane_equal(b->cur, a->cur, cells(a));
    assert_plane_equal(b->prev, a->prev, cells(a));
    assert_int_equal(remove(path), 0);
    rpl_sim_destroy(a);
    rpl_sim_destroy(b);
}

static void test_snapshot_layout(void **state)
{
    (void)state;
    char path[64];
    temp_path(path, sizeof path);
    /* 4x3 field: interior cells (1,1) and (2,1) = indexes 1*4+1 = 5, 6 */
    rpl_sim_t *sim = new_sim(4, 3, 1);
    int16_t c[12] = {0}, p[12] = {0};
    c[5] = 1;        /* 01 00 */
    c[6] = -8192;    /* 0xE000 -> 00 E0 */
    p[5] = -2;       /* 0xFFFE -> FE FF */
    p[6] = 8191;     /* 0x1FFF -> FF 1F */
    assert_int_equal(rpl_sim_set_state(sim, c, p), RPL_OK);
    assert_int_equal(rpl_sim_save(sim, path), RPL_OK);
    const unsigned char want[12 + 4 * 12] = {
        'R', 'P', 'L', '1',
        4, 0, 0, 0, /* width 4, LE */
        3, 0, 0, 0, /* height 3, LE */
        /* current, row 0 */ 0, 0, 0, 0, 0, 0, 0, 0,
        /* row 1 */ 0, 0, 0x01, 0x00, 0x00, 0xE0, 0, 0,
        /* row 2 */ 0, 0, 0, 0, 0, 0, 0, 0,
        /* previous, row 0 */ 0, 0, 0, 0, 0, 0, 0, 0,
        /* row 1 */ 0, 0, 0xFE, 0xFF, 0xFF, 0x1F, 0, 0,
        /* row 2 */ 0, 0, 0, 0, 0, 0, 0, 0,
    };
    size_t len = 0;
    unsigned char *got = read_file(path, &len);
    assert_int_equal(len, 12 + 4 * 4 * 3); /* 60 */
    assert_memory_equal(got, want, sizeof want);
    free(got);
    rpl_sim_destroy(sim);

    /* a 300x7 field: width above 255 shows the byte order (300 = 0x012C) */
    sim = new_sim(300, 7, 1);
    assert_int_equal(rpl_sim_save(sim, path), RPL_OK);
    got = read_file(path, &len);
    assert_int_equal(len, 12 + 4 * 300 * 7);
    const unsigned char hdr[12] = {'R', 'P', 'L', '1', 0x2C, 0x01, 0, 0, 7, 0, 0, 0};
    assert_memory_equal(got, hdr, 12);
    free(got);
    rpl_sim_destroy(sim);
    assert_int_equal(remove(path), 0);
}

/* Loads `data` as a snapshot into sim and checks the status, the
 * untouched state and that an error detail is given. */
static void expect_load_fails(rpl_sim_t *sim, const char *path, const unsigned char *data,
                              size_t len, rpl_status want, const char *what)
{
    int16_t *c = copy_plane(sim->cur, cells(sim));
    int16_t *p = copy_plane(sim->prev, cells(sim));
    write_file(path, data, len);
    sim->err[0] = '\0';
    rpl_status st = rpl_sim_load(sim, path);
    if (st != want)
        fail_msg("%s: load gave %d (%s), want %d", what, st, rpl_sim_error(sim), want);
    assert_true(strlen(rpl_sim_error(sim)) > 0);
    assert_plane_equal(sim->cur, c, cells(sim));
    assert_plane_equal(sim->prev, p, cells(sim));
    free(c);
    free(p);
}

static void put_le32(unsigned char *b, uint32_t v)
{
    b[0] = (unsigned char)(v & 0xFF);
    b[1] = (unsigned char)((v >> 8) & 0xFF);
    b[2] = (unsigned char)((v >> 16) & 0xFF);
    b[3] = (unsigned char)((v >> 24) & 0xFF);
}

static void put_le16(unsigned char *b, int v)
{
    uint16_t u = (uint16_t)(int16_t)v;
    b[0] = (unsigned char)(u & 0xFF);
    b[1] = (unsigned char)(u >> 8);
}

static void test_snapshot_bad_files(void **state)
{
    (void)state;
    const int w = 6, h = 5;
    const size_t good_len = 12 + 4 * (size_t)w * h; /* 132 */
    char path[64], missing[96];
    temp_path(path, sizeof path);
    snprintf(missing, sizeof missing, "%s-does-not-exist", path);

    /* a valid snapshot of a different state, built by hand */
    const size_t cap = 512; /* room for every variant below (the largest: 12 + 4*7*5 = 152) */
    unsigned char *good = calloc(cap, 1);
    assert_non_null(good);
    memcpy(good, "RPL1", 4);
    put_le32(good + 4, (uint32_t)w);
    put_le32(good + 8, (uint32_t)h);
    put_le16(good + 12 + 2 * (2 * w + 2), 123);         /* cur (2,2) */
    put_le16(good + 12 + 2 * (w * h + 3 * w + 4), -77); /* prev (4,3) */

    rpl_sim_t *sim = new_sim(w, h, 1);
    random_state(sim, 808, -4000, 4000);
    int16_t *c0 = copy_plane(sim->cur, cells(sim));

    /* missing file */
    sim->err[0] = '\0';
    assert_int_equal(rpl_sim_load(sim, missing), RPL_EIO);
    assert_true(strlen(rpl_sim_error(sim)) > 0);
    assert_plane_equal(sim->cur, c0, cells(sim));

    unsigned char *b = malloc(cap);
    assert_non_null(b);
#define RESET_B() memcpy(b, good, cap)

    expect_load_fails(sim, path, good, 0, RPL_EFORMAT, "empty file");
    RESET_B();
    b[3] = '2';
    expect_load_fails(sim, path, b, good_len, RPL_EFORMAT, "wrong magic RPL2");
    RESET_B();
    b[0] = 'r';
    expect_load_fails(sim, path, b, good_len, RPL_EFORMAT, "wrong magic rPL1");
    expect_load_fails(sim, path, good, 3, RPL_EFORMAT, "3 bytes");
    expect_load_fails(sim, path, good, 4, RPL_EFORMAT, "magic only");
    expect_load_fails(sim, path, good, 11, RPL_EFORMAT, "truncated header");
    expect_load_fails(sim, path, good, 12, RPL_EFORMAT, "header only");
    expect_load_fails(sim, path, good, good_len - 1, RPL_EFORMAT, "truncated data by 1");
    expect_load_fails(sim, path, good, good_len / 2, RPL_EFORMAT, "truncated data by half");
    expect_load_fails(sim, path, good, good_len + 1, RPL_EFORMAT, "one trailing byte");
    expect_load_fails(sim, path, good, good_len + 16, RPL_EFORMAT, "16 trailing bytes");

    /* sizes valid but not the field's */
    RESET_B();
    put_le32(b + 4, (uint32_t)(w + 1));
    expect_load_fails(sim, path, b, 12 + 4 * (size_t)(w + 1) * h, RPL_ESIZE, "width mismatch");
    RESET_B();
    put_le32(b + 8, (uint32_t)(h - 1));
    expect_load_fails(sim, path, b, 12 + 4 * (size_t)w * (h - 1), RPL_ESIZE, "height mismatch");
    RESET_B();
    put_le32(b + 4, (uint32_t)h); /* transposed: 5x6 into 6x5 */
    put_le32(b + 8, (uint32_t)w);
    expect_load_fails(sim, path, b, good_len, RPL_ESIZE, "transposed size");

    /* sizes that are no snapshot at all */
    const uint32_t badsz[][2] = {{0, (uint32_t)h}, {(uint32_t)w, 0}, {0, 0}, {2, (uint32_t)h},
                                 {RPL_DIM_MAX + 1, (uint32_t)h}, {0xFFFFFFFFu, 0xFFFFFFFFu},
                                 {0x80000000u, 5}, {(uint32_t)w, 0x80000006u}};
    for (size_t i = 0; i < sizeof badsz / sizeof badsz[0]; i++) {
        RESET_B();
        put_le32(b + 4, badsz[i][0]);
        put_le32(b + 8, badsz[i][1]);
        char what[64];
        snprintf(what, sizeof what, "header size %lux%lu", (unsigned long)badsz[i][0],
                 (unsigned long)badsz[i][1]);
        expect_load_fails(sim, path, b, good_len, RPL_EFORMAT, what);
        int pw = -7, ph = -9;
        char err[128] = "";
        assert_int_equal(rpl_snapshot_probe(path, &pw, &ph, err, sizeof err), RPL_EFORMAT);
        assert_int_equal(pw, -7);
        assert_int_equal(ph, -9);
        assert_true(strlen(err) > 0);
    }

    /* heights out of range, in either plane */
    const struct {
        int plane, x, y, v;
    } badh[] = {{0, 2, 2, 8192}, {0, 1, 3, -8193}, {1, 4, 1, 32767}, {1, 3, 2, -32768},
                {0, 4, 3, 20000}};
    for (size_t i = 0; i < sizeof badh / sizeof badh[0]; i++) {
        RESET_B();
        put_le16(b + 12 + 2 * ((size_t)badh[i].plane * w * h + (size_t)badh[i].y * w +
                               (size_t)badh[i].x), badh[i].v);
        expect_load_fails(sim, path, b, good_len, RPL_EFORMAT, "height out of range");
    }
    /* non-zero borders: each side and a corner, in either plane */
    const int bx[] = {0, 3, 5, 2, 0, 5}, by[] = {2, 0, 3, 4, 0, 4};
    for (int plane = 0; plane < 2; plane++)
        for (size_t i = 0; i < sizeof bx / sizeof bx[0]; i++) {
            RESET_B();
            put_le16(b + 12 + 2 * ((size_t)plane * w * h + (size_t)by[i] * w + (size_t)bx[i]),
                     (int)i % 2 ? -1 : 1);
            expect_load_fails(sim, path, b, good_len, RPL_EFORMAT, "non-zero border");
        }

    /* and the good one loads (the bad ones were bad for their own reason) */
    write_file(path, good, good_len);
    assert_int_equal(rpl_sim_load(sim, path), RPL_OK);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            assert_int_equal(at(sim, sim->cur, x, y), x == 2 && y == 2 ? 123 : 0);
            assert_int_equal(at(sim, sim->prev, x, y), x == 4 && y == 3 ? -77 : 0);
        }
    assert_int_equal(rpl_sim_load(sim, NULL), RPL_EINVAL);
    assert_int_equal(rpl_sim_load(NULL, path), RPL_EINVAL);
#undef RESET_B
    assert_int_equal(remove(path), 0);
    free(b);
    free(good);
    free(c0);
    rpl_sim_destroy(sim);
}

static void test_snapshot_probe(void **state)
{
    (void)state;
    char path[64], missing[96], err[160];
    temp_path(path, sizeof path);
    snprintf(missing, sizeof missing, "%s-does-not-exist", path);
    rpl_sim_t *sim = new_sim(13, 8, 1);
    assert_int_equal(rpl_sim_save(sim, path), RPL_OK);
    int w = 0, h = 0;
    assert_int_equal(rpl_snapshot_probe(path, &w, &h, err, sizeof err), RPL_OK);
    assert_int_equal(w, 13);
    assert_int_equal(h, 8);

    w = h = -1;
    err[0] = '\0';
    assert_int_equal(rpl_snapshot_probe(missing, &w, &h, err, sizeof err), RPL_EIO);
    assert_int_equal(w, -1);
    assert_int_equal(h, -1);
    assert_true(strlen(err) > 0);
    assert_int_equal(rpl_snapshot_probe(missing, &w, &h, NULL, 0), RPL_EIO);
    /* a tiny err buffer is truncated, still terminated */
    char small[4] = {'x', 'x', 'x', 'x'};
    assert_int_equal(rpl_snapshot_probe(missing, &w, &h, small, sizeof small), RPL_EIO);
    assert_true(memchr(small, '\0', sizeof small) != NULL);

    write_file(path, (const unsigned char *)"NOPE0000000000000000", 20);
    err[0] = '\0';
    assert_int_equal(rpl_snapshot_probe(path, &w, &h, err, sizeof err), RPL_EFORMAT);
    assert_true(strlen(err) > 0);
    assert_int_equal(w, -1);
    write_file(path, (const unsigned char *)"RPL1\x05\x00", 6);
    assert_int_equal(rpl_snapshot_probe(path, &w, &h, err, sizeof err), RPL_EFORMAT);
    write_file(path, (const unsigned char *)"", 0);
    assert_int_equal(rpl_snapshot_probe(path, &w, &h, err, sizeof err), RPL_EFORMAT);
    assert_int_equal(w, -1);
    assert_int_equal(h, -1);

    assert_int_equal(rpl_snapshot_probe(NULL, &w, &h, err, sizeof err), RPL_EINVAL);
    assert_int_equal(rpl_snapshot_probe(path, NULL, &h, err, sizeof err), RPL_EINVAL);
    assert_int_equal(rpl_snapshot_probe(path, &w, NULL, NULL, 0), RPL_EINVAL);
    assert_int_equal(remove(path), 0);
    rpl_sim_destroy(sim);
}

static void test_snapshot_save_fails(void **state)
{
    (void)state;
    char dir[64] = "/tmp/rpl-test-dir-XXXXXX";
    assert_non_null(mkdtemp(dir));
    assert_int_equal(rmdir(dir), 0); /* now surely missing */
    char path[128], tmp[160];
    snprintf(path, sizeof path, "%s/snap.rpl", dir);
    snprintf(tmp, sizeof tmp, "%s.tmp~", path);
    rpl_sim_t *sim = new_sim(10, 10, 1);
    random_state(sim, 1, -10, 10);
    int16_t *c = copy_plane(sim->cur, cells(sim));
    assert_int_equal(rpl_sim_save(sim, path), RPL_EIO);
    assert_true(strlen(rpl_sim_error(sim)) > 0);
    assert_false(file_exists(path));
    assert_false(file_exists(tmp));
    assert_false(file_exists(dir));
    assert_plane_equal(sim->cur, c, cells(sim));

    /* the target is a directory: the rename fails, no temporary left */
    assert_non_null(mkdtemp(strcpy(dir, "/tmp/rpl-test-dir-XXXXXX")));
    snprintf(tmp, sizeof tmp, "%s.tmp~", dir);
    assert_int_equal(rpl_sim_save(sim, dir), RPL_EIO);
    assert_false(file_exists(tmp));
    assert_int_equal(rmdir(dir), 0);

    assert_int_equal(rpl_sim_save(sim, NULL), RPL_EINVAL);
    assert_int_equal(rpl_sim_save(sim, ""), RPL_EINVAL);
    assert_int_equal(rpl_sim_save(NULL, "/tmp/x"), RPL_EINVAL);
    free(c);
    rpl_sim_destroy(sim);
}

/* ---- images ----------------------------------------------------------- */

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
        block[i] = (uint32_t)tr_next(&s);
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

/* ---- kernels, strings, autopilot -------------------------------------- */

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
    assert_ptr_equal(sim->kern, def);
    assert_int_equal(rpl_sim_set_kernels(sim, NULL), RPL_EINVAL);
    assert_ptr_equal(sim->kern, def);
    assert_int_equal(rpl_sim_set_kernels(sim, c), RPL_OK);
    assert_ptr_equal(sim->kern, c);
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

static void test_autopilot(void **state)
{
    (void)state;
    rpl_sim_t *a = new_sim(160, 120, 4), *b = new_sim(160, 120, 4), *c = new_sim(160, 120, 4);
    rpl_autopilot_t pa, pb, pc;
    rpl_autopilot_init(&pa, 31337);
    rpl_autopilot_init(&pb, 31337);
    rpl_autopilot_init(&pc, 31338);
    uint64_t max_energy = 0;
    for (int i = 0; i < 1000; i++) {
        rpl_autopilot_tick(&pa, a);
        rpl_autopilot_tick(&pb, b);
        rpl_autopilot_tick(&pc, c);
        uint64_t e = rpl_sim_energy(a);
        if (e > max_energy)
            max_energy = e;
        rpl_sim_step(a);
        rpl_sim_step(b);
        rpl_sim_step(c);
    }
    assert_true(max_energy > 1000); /* it did drop stones */
    assert_plane_equal(a->cur, b->cur, cells(a));
    assert_plane_equal(a->prev, b->prev, cells(a));
    assert_true(pa.rng == pb.rng);
    assert_int_equal(pa.t, pb.t);
    assert_int_equal(pa.scene, pb.scene);
    assert_true(memcmp(a->cur, c->cur, cells(a) * sizeof *a->cur) != 0);
    assert_border_zero(a->cur, 160, 120);
    assert_heights_in_range(a->cur, cells(a));

    /* tiny fields do not trip it */
    rpl_sim_t *t = new_sim(3, 3, 1);
    rpl_autopilot_t pt;
    rpl_autopilot_init(&pt, 0);
    for (int i = 0; i < 1500; i++) {
        rpl_autopilot_tick(&pt, t);
        rpl_sim_step(t);
        assert_border_zero(t->cur, 3, 3);
    }
    rpl_sim_destroy(t);
    rpl_sim_destroy(a);
    rpl_sim_destroy(b);
    rpl_sim_destroy(c);
}

/* ---- threads and sleeping tiles ------------------------------------------ */

/* Runs the same scripted stones on fields that differ only in threads and
 * sleeping; after every step all buffers and frames must be equal to the
 * plain one (one thread, sleeping off, full render). */
static void run_variants(int w, int h, int steps, int drop_every, uint64_t seed)
{
    enum { NV = 5 };
    static const int threads[NV] = { 1, 1, 2, 3, 2 };
    static const int sleeping[NV] = { 0, 1, 1, 1, 0 };
    rpl_sim_t *v[NV];
    uint32_t *fb[NV];
    size_t npx = (size_t)w * h;
    uint32_t *bg = malloc(npx * 4);
    assert_non_null(bg);
    uint64_t r = seed;
    for (size_t i = 0; i < npx; i++)
        bg[i] = 0xFF000000u | (uint32_t)(tr_next(&r) & 0xFFFFFF);
    for (int k = 0; k < NV; k++) {
        v[k] = new_sim(w, h, seed);
        assert_int_equal(rpl_sim_set_threads(v[k], threads[k]), RPL_OK);
        rpl_sim_set_sleeping(v[k], sleeping[k]);
        fb[k] = malloc(npx * 4);
        assert_non_null(fb[k]);
    }
    rpl_view_t view = { RPL_STRENGTH_ONE, 1 };
    for (int s = 0; s < steps; s++) {
        if (s % drop_every == 0) {
            int x = tr_range(&r, -5, w + 5), y = tr_range(&r, -5, h + 5);
            int rad = tr_range(&r, 1, 6), wt = tr_range(&r, -2000, 2000);
            for (int k = 0; k < NV; k++)
                assert_int_equal(rpl_sim_drop(v[k], x, y, rad, wt), RPL_OK);
        }
        for (int k = 0; k < NV; k++) {
            rpl_sim_step(v[k]);
            /* the sleeping variants redraw only what changed */
            if (sleeping[k])
                assert_int_equal(rpl_refract_changed(v[k], bg, fb[k], (ptrdiff_t)w * 4,
                                                     RPL_XRGB8888, &view), RPL_OK);
            else
                assert_int_equal(rpl_refract(v[k], bg, fb[k], (ptrdiff_t)w * 4,
                                             RPL_XRGB8888, &view), RPL_OK);
        }
        for (int k = 1; k < NV; k++) {
            assert_memory_equal(v[0]->cur, v[k]->cur, npx * 2);
            assert_memory_equal(v[0]->prev, v[k]->prev, npx * 2);
            assert_memory_equal(fb[0], fb[k], npx * 4);
        }
    }
    for (int k = 0; k < NV; k++) {
        rpl_sim_destroy(v[k]);
        free(fb[k]);
    }
    free(bg);
}

static void test_threads_and_sleeping_same_bytes(void **state)
{
    (void)state;
    run_variants(3, 3, 50, 7, 1);
    run_variants(65, 33, 300, 9, 2);    /* one cell past a tile edge */
    run_variants(200, 97, 600, 60, 3);  /* calm between stones: tiles fall asleep */
    run_variants(130, 70, 400, 1, 4);   /* a stone every step */
}

static void test_sleeping_tiles_fall_asleep(void **state)
{
    (void)state;
    rpl_sim_t *sim = new_sim(320, 200, 5);
    rpl_stats_t st;
    rpl_sim_stats(sim, &st);
    /* 320/64 = 5 across, 200/32 rounded up = 7 down */
    assert_int_equal(st.tiles, 35);
    rpl_sim_step(sim);
    rpl_sim_stats(sim, &st);
    assert_int_equal(st.stepped, 0); /* still water: nothing to compute */
    assert_int_equal(rpl_sim_drop(sim, 160, 100, 4, 500), RPL_OK);
    rpl_sim_step(sim);
    rpl_sim_stats(sim, &st);
    /* the stone's tile (2, 3) and the neighbours whose edge it touches */
    assert_true(st.stepped >= 1 && st.stepped <= 5);
    uint32_t *bg = calloc(320 * 200, 4), *fb = calloc(320 * 200, 4);
    rpl_view_t view = { RPL_STRENGTH_ONE, 0 };
    assert_int_equal(rpl_refract(sim, bg, fb, 320 * 4, RPL_XRGB8888, &view), RPL_OK);
    rpl_sim_stats(sim, &st);
    assert_int_equal(st.rendered, 35); /* a full render draws every tile */
    int quiet = -1;
    for (int s = 0; s < 5000 && quiet < 0; s++) {
        rpl_sim_step(sim);
        assert_int_equal(rpl_refract_changed(sim, bg, fb, 320 * 4, RPL_XRGB8888, &view), RPL_OK);
        rpl_sim_stats(sim, &st);
        if (rpl_sim_energy(sim) == 0 && st.stepped == 0)
            quiet = s;
    }
    assert_true(quiet > 0); /* the water comes to rest and every tile sleeps */
    /* one more changed-only render draws nothing: all tiles show the background */
    assert_int_equal(rpl_refract_changed(sim, bg, fb, 320 * 4, RPL_XRGB8888, &view), RPL_OK);
    rpl_sim_stats(sim, &st);
    assert_int_equal(st.rendered, 0);
    /* a different view redraws everything */
    view.shading = 1;
    assert_int_equal(rpl_refract_changed(sim, bg, fb, 320 * 4, RPL_XRGB8888, &view), RPL_OK);
    rpl_sim_stats(sim, &st);
    assert_int_equal(st.rendered, 35);
    free(bg);
    free(fb);
    rpl_sim_destroy(sim);
}

static void test_sleeping_after_set_state(void **state)
{
    (void)state;
    /* a state put in wholesale wakes exactly the tiles it needs */
    rpl_sim_t *a = new_sim(150, 90, 9), *b = new_sim(150, 90, 9);
    rpl_sim_set_sleeping(b, 0);
    random_state(a, 77, -300, 300);
    /* keep a patch across a tile corner (64, 32) and flatten the rest */
    int16_t *c = copy_plane(a->cur, cells(a)), *p = copy_plane(a->prev, cells(a));
    for (int y = 0; y < 90; y++)
        for (int x = 0; x < 150; x++)
            if (x < 58 || x > 70 || y < 28 || y > 36)
                c[y * 150 + x] = p[y * 150 + x] = 0;
    assert_int_equal(rpl_sim_set_state(a, c, p), RPL_OK);
    assert_int_equal(rpl_sim_set_state(b, c, p), RPL_OK);
    free(c);
    free(p);
    for (int s = 0; s < 200; s++) {
        rpl_sim_step(a);
        rpl_sim_step(b);
        assert_memory_equal(a->cur, b->cur, cells(a) * 2);
    }
    rpl_sim_destroy(a);
    rpl_sim_destroy(b);
}

static void test_set_threads_rejects(void **state)
{
    (void)state;
    rpl_sim_t *sim = new_sim(16, 16, 1);
    assert_int_equal(rpl_sim_set_threads(sim, 0), RPL_EINVAL);
    assert_int_equal(rpl_sim_set_threads(sim, -3), RPL_EINVAL);
    assert_int_equal(rpl_sim_set_threads(sim, RPL_THREADS_MAX + 1), RPL_EINVAL);
    assert_int_equal(sim->threads, 1);
    assert_int_equal(rpl_sim_set_threads(sim, RPL_THREADS_MAX), RPL_OK);
    rpl_sim_step(sim); /* more threads than strips: the extra ones find no work */
    assert_int_equal(rpl_sim_set_threads(sim, 1), RPL_OK);
    assert_int_equal(rpl_sim_set_threads(NULL, 2), RPL_EINVAL);
    assert_true(rpl_cpu_count() >= 1);
    rpl_sim_destroy(sim);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_step_3x3_single_cell),
        cmocka_unit_test(test_step_4x4_hand),
        cmocka_unit_test(test_step_5x5_spike),
        cmocka_unit_test(test_step_clamp),
        cmocka_unit_test(test_step_matches_reference),
        cmocka_unit_test(test_zero_field_stays_zero),
        cmocka_unit_test(test_border_stays_zero),
        cmocka_unit_test(test_centred_drop_symmetric),
        cmocka_unit_test(test_energy_decays),
        cmocka_unit_test(test_drop_clipped_everywhere),
        cmocka_unit_test(test_drop_bad_radius),
        cmocka_unit_test(test_drop_weight_clamped),
        cmocka_unit_test(test_trail_basic),
        cmocka_unit_test(test_trail_long_segment_spacing),
        cmocka_unit_test(test_rain_reproducible),
        cmocka_unit_test(test_rain_rate),
        cmocka_unit_test(test_rain_bad_settings),
        cmocka_unit_test(test_rain_extreme_weights),
        cmocka_unit_test(test_create_sizes),
        cmocka_unit_test(test_set_state_rejects),
        cmocka_unit_test(test_set_state_own_buffers),
        cmocka_unit_test(test_refract_flat_is_background),
        cmocka_unit_test(test_refract_matches_reference),
        cmocka_unit_test(test_refract_extreme_heights),
        cmocka_unit_test(test_refract_hand_pixel),
        cmocka_unit_test(test_refract_rejects),
        cmocka_unit_test(test_format_bytes),
        cmocka_unit_test(test_backdrop_rejects),
        cmocka_unit_test(test_backdrop_rgb565_hand),
        cmocka_unit_test(test_render_rgb565_hand),
        cmocka_unit_test(test_backdrop_index8_hand),
        cmocka_unit_test(test_backdrop_index8_few_colors_exact),
        cmocka_unit_test(test_backdrop_index8_median_cut),
        cmocka_unit_test(test_backdrop_index8_shade_table),
        cmocka_unit_test(test_render_flat_is_backdrop),
        cmocka_unit_test(test_render_matches_reference),
        cmocka_unit_test(test_render_xrgb_same_as_refract),
        cmocka_unit_test(test_render_rejects),
        cmocka_unit_test(test_render_changed_formats),
        cmocka_unit_test(test_snapshot_round_trip),
        cmocka_unit_test(test_snapshot_layout),
        cmocka_unit_test(test_snapshot_bad_files),
        cmocka_unit_test(test_snapshot_probe),
        cmocka_unit_test(test_snapshot_save_fails),
        cmocka_unit_test(test_image_fit_same_size),
        cmocka_unit_test(test_image_fit_downscale_blocks),
        cmocka_unit_test(test_image_fit_crop_centre),
        cmocka_unit_test(test_image_fit_enlarge_uniform),
        cmocka_unit_test(test_image_fit_rejects),
        cmocka_unit_test(test_kernels_and_strings),
        cmocka_unit_test(test_autopilot),
        cmocka_unit_test(test_threads_and_sleeping_same_bytes),
        cmocka_unit_test(test_sleeping_tiles_fall_asleep),
        cmocka_unit_test(test_sleeping_after_set_state),
        cmocka_unit_test(test_set_threads_rejects),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
