/* util.c - helpers shared by the ripple test programs: generator, planes, pictures, CRC-32, guard pages. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "pages.h"
#include "ripple.h"
#include "util.h"

/* ---- seeded generator -------------------------------------------------- */

uint64_t rnd_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

uint64_t rnd_mod(uint64_t x, uint64_t m)
{
    if (m > 0x10000u)
        return x % m;
    if ((m & (m - 1)) == 0)
        return x & (m - 1);
    /* The same remainder without a division of 64 bits, which a 32-bit
     * ARM does in a library routine of hundreds of instructions (the most
     * of the exactness suite's time under qemu-arm, which draws every
     * pixel of a case so): by 16-bit digits, r = (r * 2^16 + digit) mod
     * m, each below 2^32 as r < m <= 2^16, with one reciprocal.
     * q = t * inv / 2^32 is at most t / m and more than t / m - 2
     * (inv = (2^32 - 1) / m >= 2^32 / m - 1, t < 2^32), so t - q m < 2 m:
     * one subtraction at most.  The reciprocal by the FPU, which divides
     * in one instruction where the CPU may not: the double quotient is
     * exact to 2^-21, and (2^32 - 1) / m, unless whole, is at least
     * 1 / m >= 2^-16 from the next whole number, so its integer part is
     * the integer quotient's. */
    uint32_t d = (uint32_t)m, inv = (uint32_t)(4294967295.0 / (double)d), r = 0;
    for (int k = 48; k >= 0; k -= 16) {
        uint32_t t = r << 16 | (uint32_t)(x >> k & 0xFFFFu);
        r = t - (uint32_t)((uint64_t)t * inv >> 32) * d;
        r -= r >= d ? d : 0;
    }
    return r;
}

int rnd_range(uint64_t *s, int lo, int hi)
{
    /* the span in 64 bits: [INT_MIN, INT_MAX] does not fit an int */
    uint64_t x = rnd_next(s), span = (uint64_t)((int64_t)hi - lo + 1);
#if UINTPTR_MAX > 0xFFFFFFFFu
    return lo + (int)(x % span); /* one instruction here, faster than rnd_mod */
#else
    return lo + (int)rnd_mod(x, span);
#endif
}

/* ---- arithmetic of the references -------------------------------------- */

int64_t floor_div_pow2(int64_t a, int k)
{
    int64_t d = (int64_t)1 << k;
    return a >= 0 ? a / d : -((-a + d - 1) / d);
}

int64_t clamp64(int64_t v, int64_t lo, int64_t hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

uint32_t sat_add(uint32_t px, int shift, int d)
{
    int v = (int)((px >> shift) & 0xFF) + d;
    v = v < 0 ? 0 : v > 255 ? 255 : v;
    return (uint32_t)v << shift;
}

/* ---- memory ------------------------------------------------------------ */

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    assert_non_null(p);
    return p;
}

/* ---- fields and height planes ------------------------------------------ */

rpl_autopilot_t *new_autopilot(uint64_t seed)
{
    rpl_autopilot_t *ap = NULL;
    assert_int_equal(rpl_autopilot_create(seed, &ap), RPL_OK);
    assert_non_null(ap);
    return ap;
}

rpl_sim_t *new_sim(int w, int h, uint64_t seed)
{
    rpl_status st = RPL_EIO;
    rpl_sim_t *sim;
    st = rpl_sim_create(w, h, seed, &sim);
    assert_non_null(sim);
    assert_int_equal(st, RPL_OK);
    assert_int_equal(width_of(sim), w);
    assert_int_equal(height_of(sim), h);
    return sim;
}

size_t cells(const rpl_sim_t *sim)
{
    return (size_t)width_of(sim) * (size_t)height_of(sim);
}

int16_t at(const rpl_sim_t *sim, const int16_t *p, int x, int y)
{
    return p[(size_t)y * (size_t)width_of(sim) + (size_t)x];
}

int16_t *new_plane(int w, int h)
{
    int16_t *p = calloc((size_t)w * (size_t)h, sizeof *p);
    assert_non_null(p);
    return p;
}

int16_t *copy_plane(const int16_t *src, size_t n)
{
    int16_t *p = xmalloc(n * sizeof *p);
    memcpy(p, src, n * sizeof *p);
    return p;
}

void random_plane(int16_t *p, int w, int h, uint64_t *s, int lo, int hi)
{
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int border = x == 0 || y == 0 || x == w - 1 || y == h - 1;
            p[(size_t)y * (size_t)w + (size_t)x] = border ? 0 : (int16_t)rnd_range(s, lo, hi);
        }
}

void random_state(rpl_sim_t *sim, uint64_t seed, int lo, int hi)
{
    uint64_t s = seed;
    int w = width_of(sim), h = height_of(sim);
    int16_t *c = new_plane(w, h), *p = new_plane(w, h);
    random_plane(c, w, h, &s, lo, hi);
    random_plane(p, w, h, &s, lo, hi);
    assert_int_equal(rpl_sim_set_state(sim, c, p), RPL_OK);
    free(c);
    free(p);
}

void assert_plane_equal(const int16_t *a, const int16_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i])
            fail_msg("planes differ at %zu: %d vs %d", i, a[i], b[i]);
}

static void border_cell_zero(const int16_t *p, int w, int x, int y)
{
    if (p[y * w + x] != 0)
        fail_msg("border cell (%d,%d) is %d", x, y, p[y * w + x]);
}

void assert_border_zero(const int16_t *p, int w, int h)
{
    /* the border's cells only: the rows at the top and the bottom, then
     * the two columns between them */
    if (w <= 0 || h <= 0)
        return;
    for (int x = 0; x < w; x++) {
        border_cell_zero(p, w, x, 0);
        border_cell_zero(p, w, x, h - 1);
    }
    for (int y = 1; y < h - 1; y++) {
        border_cell_zero(p, w, 0, y);
        border_cell_zero(p, w, w - 1, y);
    }
}

void assert_heights_in_range(const int16_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] < RPL_HEIGHT_MIN || p[i] > RPL_HEIGHT_MAX)
            fail_msg("height %d out of range at %zu", p[i], i);
}

/* ---- pictures and backdrops -------------------------------------------- */

uint32_t *random_bg(int w, int h, uint64_t seed)
{
    uint32_t *bg = xmalloc((size_t)w * (size_t)h * sizeof *bg);
    uint64_t s = seed;
    for (size_t i = 0; i < (size_t)w * (size_t)h; i++) {
        uint32_t v = (uint32_t)rnd_next(&s);
        if ((v & 7) == 0)
            v |= 0x00FFFFFFu;
        else if ((v & 7) == 1)
            v &= 0xFF000000u;
        bg[i] = v;
    }
    return bg;
}

const rpl_format all_formats[3] = {RPL_XRGB8888, RPL_RGB565, RPL_INDEX8};

rpl_backdrop_t *new_backdrop(const uint32_t *px, int w, int h, rpl_format f)
{
    rpl_status st = RPL_EIO;
    rpl_backdrop_t *bd;
    st = rpl_backdrop_create(px, w, h, f, &bd);
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

/* ---- CRC-32 ------------------------------------------------------------ */

static uint32_t crc_table[256];
static int crc_ready;

static void crc_init(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
            c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
        crc_table[i] = c;
    }
    crc_ready = 1;
}

uint32_t crc_bytes(uint32_t crc, const unsigned char *p, size_t n)
{
    if (!crc_ready)
        crc_init();
    crc = ~crc;
    while (n--)
        crc = (crc >> 8) ^ crc_table[(crc ^ *p++) & 0xFFu];
    return ~crc;
}

uint32_t crc_plane(uint32_t crc, const int16_t *v, size_t n)
{
    unsigned char buf[512];
    while (n > 0) {
        size_t m = n < sizeof buf / 2 ? n : sizeof buf / 2;
        for (size_t i = 0; i < m; i++) {
            uint16_t u = (uint16_t)v[i];
            buf[2 * i] = (unsigned char)(u & 0xFFu);
            buf[2 * i + 1] = (unsigned char)(u >> 8);
        }
        crc = crc_bytes(crc, buf, 2 * m);
        v += m;
        n -= m;
    }
    return crc;
}

/* ---- guard pages ------------------------------------------------------- */

static size_t page_size(void)
{
    static size_t pg;
    if (pg == 0)
        pg = pages_size();
    return pg;
}

/*
 * Each slot is one mapping laid out as [unreachable page | `body` bytes
 * read-write | unreachable to the end].  A buffer flush against the trailing
 * guard has whatever alignment its length gives it, which also catches
 * aligned loads on unaligned data.  Slots are kept between calls because
 * mapping is slow: moving the boundary costs one protection change, and nothing
 * while sizes repeat.
 */
static struct gslot {
    unsigned char *map;
    size_t maplen, body;
} slots[GUARD_SLOTS];

unsigned char *guard_slot(int slot, size_t len, int at_end)
{
    assert_in_range(slot, 0, GUARD_SLOTS - 1);
    struct gslot *g = &slots[slot];
    size_t pg = page_size();
    size_t body = (len + pg - 1) / pg * pg;
    if (body == 0)
        body = pg;
    if (g->map == NULL || body + 2 * pg > g->maplen) {
        if (g->map)
            pages_unmap(g->map, g->maplen);
        g->maplen = body + 2 * pg < 64 * pg ? 64 * pg : 2 * body + 2 * pg;
        void *m = pages_map(g->maplen);
        if (!m)
            fail_msg("mapping %zu bytes failed", g->maplen);
        g->map = m;
        assert_int_equal(pages_protect(g->map, pg, 0), 0);
        assert_int_equal(pages_protect(g->map + pg + body, g->maplen - pg - body, 0), 0);
        g->body = body;
    } else if (body > g->body) {
        assert_int_equal(pages_protect(g->map + pg + g->body, body - g->body, 1), 0);
        g->body = body;
    } else if (body < g->body) {
        assert_int_equal(pages_protect(g->map + pg + body, g->body - body, 0), 0);
        g->body = body;
    }
    return at_end ? g->map + pg + body - len : g->map + pg;
}

void guard_slots_release(void)
{
    for (int i = 0; i < GUARD_SLOTS; i++) {
        if (slots[i].map)
            pages_unmap(slots[i].map, slots[i].maplen);
        slots[i].map = NULL;
    }
}
