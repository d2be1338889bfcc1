/* tests/web_exact.c - standalone exactness check: the "sse2" kernel row against "c", bit for bit, for the WebAssembly build (run in node) and natively. */
/*
 *   web_exact [--cases N] [--seed S]
 *
 * A plain C11 program (no test framework), so that one source runs where
 * the unit suites do not: built with emscripten, whose SSE2 headers turn
 * the x86 kernels into WebAssembly SIMD, and run in node; built natively
 * it checks the x86 kernels the same way.  Each kernel family (the
 * classic step, the wave step, the refraction in its three formats, the
 * upscale, the side view's deep and shallow water and its foam) gets N cases (default
 * DEFAULT_CASES) built from the case number and the seed alone: awkward
 * sizes first (every width 3..42, so rectangles 1..40 wide around the
 * vector widths; 3x3, 17x5, 641x3, 640x480 and the like), then random
 * ones, with extreme values (the ends of the height contract, saturating
 * channels, the ends of every coefficient's range) and rectangles that
 * touch the borders.  Both rows run on copies of the same inputs and
 * their whole outputs are compared, including what lies outside the
 * rectangle (which neither may write).
 *
 * One line per family on success; on the first mismatch, the kernel, the
 * case, its size, the place and both values, and exit status 1.  A build
 * without the "sse2" row (or where it is not selectable) fails too: the
 * check never passes by comparing nothing.  Exit 2: bad arguments.
 *
 * Built for the web (emscripten 3.1.6): the core with -O2 -DRPL_HAVE_SSE2
 * and the project's flags, the kernels/x86/ *_sse2.c files with -msimd128
 * -msse2 as well, then this file linked with -sALLOW_MEMORY_GROWTH
 * -sENVIRONMENT=node; run with node.  There, rpl_cpu_features
 * (kernels/x86/cpu.c) must report SSE2, or no "sse2" row is found and the
 * check fails, saying so.
 *
 * Heights stay inside the contract of ripple.h ([RPL_HEIGHT_MIN,
 * RPL_HEIGHT_MAX], zero border): outside it the kernels owe nothing (the
 * refraction would index past its row table), so the extremes used are
 * the contract's.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/kernels.h"
#include "ripple.h"

#define DEFAULT_CASES 25000

static const rpl_kernels_t *kc, *ks; /* "c" and "sse2" */
static uint64_t base_seed = 0x5EEDC0FFEE123457ull;

/* ---- generator and small tools ------------------------------------------ */

/* splitmix64 */
static uint64_t next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform in [lo, hi] (the modulo bias is negligible for these spans). */
static int rnd(uint64_t *s, int lo, int hi)
{
    return lo + (int)(next(s) % (uint64_t)((int64_t)hi - lo + 1));
}

/* A quarter each lo, hi; else anything between. */
static int pick_end(uint64_t *s, int lo, int hi)
{
    int k = rnd(s, 0, 3);
    return k == 0 ? lo : k == 1 ? hi : rnd(s, lo, hi);
}

/* The generator of case n of a family: a function of (seed, family, n). */
static uint64_t case_gen(int family, int n)
{
    uint64_t s = base_seed ^ (uint64_t)family << 48 ^ (uint64_t)(unsigned)n;
    next(&s);
    return next(&s);
}

static void *xalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "web_exact: out of memory (%zu bytes)\n", n);
        exit(3);
    }
    return p;
}

static int imin(int a, int b)
{
    return a < b ? a : b;
}

/* A value that differs at every index, for what a kernel must not write. */
static uint32_t filler(size_t i)
{
    return 0xA5C3E187u ^ (uint32_t)(i * 2654435761u);
}

/* First byte offset where a and b differ, or -1. */
static long first_diff(const void *a, const void *b, size_t n)
{
    const unsigned char *p = a, *q = b;
    for (size_t i = 0; i < n; i++)
        if (p[i] != q[i])
            return (long)i;
    return -1;
}

/* Loads an element of `size` bytes at index i (little or big endian alike:
 * read through its own type). */
static uint32_t elem(const void *buf, size_t size, size_t i)
{
    if (size == 4) {
        uint32_t v;
        memcpy(&v, (const unsigned char *)buf + i * 4, 4);
        return v;
    }
    if (size == 2) {
        uint16_t v;
        memcpy(&v, (const unsigned char *)buf + i * 2, 2);
        return v;
    }
    return ((const unsigned char *)buf)[i];
}

/* Reports the first mismatch and leaves. */
static void fail(const char *family, int n, const char *what, const char *where,
                 long long cval, long long sval, int hex)
{
    printf("web_exact: MISMATCH %s case %d (seed %llu): %s\n", family, n,
           (unsigned long long)base_seed, what);
    if (hex)
        printf("  at %s: c 0x%llX, sse2 0x%llX\n", where, (unsigned long long)cval,
               (unsigned long long)sval);
    else
        printf("  at %s: c %lld, sse2 %lld\n", where, cval, sval);
    fflush(stdout);
    exit(1);
}

/* ---- sizes and heights ---------------------------------------------------- */

/* Field sizes off the vector widths, tiny, long and thin, and one screen. */
static const int odd_sizes[][2] = {
    {3, 3}, {17, 5}, {641, 3}, {640, 480}, {5, 17}, {4, 4}, {9, 7}, {15, 4}, {16, 3},
    {18, 5}, {33, 3}, {34, 6}, {65, 4}, {127, 3}, {129, 5}, {255, 3}, {1023, 3}, {3, 60},
    {31, 31}, {100, 9},
};
enum { NODD = (int)(sizeof odd_sizes / sizeof odd_sizes[0]) };

/* Sweep of every width 3..42 (interiors 1..40) over heights 3..6, then
 * the odd sizes, then random: mostly narrow, some up to 300 wide.  The
 * 640x480 one only now and then, for time. */
static void field_size(int n, uint64_t *s, int *w, int *h)
{
    if (n < 160) {
        *w = 3 + n % 40, *h = 3 + n / 40;
    } else if (n % 7 == 0) {
        int i = n / 7 % NODD;
        if (odd_sizes[i][0] == 640 && n % 4 != 0)
            i++; /* a quarter of its turns */
        *w = odd_sizes[i][0], *h = odd_sizes[i][1];
    } else {
        *w = 3 + rnd(s, 0, rnd(s, 0, 2) ? 40 : 297);
        *h = 3 + rnd(s, 0, rnd(s, 0, 3) ? 8 : 40);
    }
}

enum {
    P_UNIFORM, P_MAX, P_MIN, P_CHECKER, P_CHECKER2, P_STRIPES, P_SPIKES, P_SPARSE, P_EDGES,
    P_SMALL, P_FLAT, NPAT
};

static int16_t cell(int pat, int x, int y, uint64_t *s)
{
    static const int16_t edges[] = {RPL_HEIGHT_MIN, RPL_HEIGHT_MIN + 1, -8161, -8160, -33, -32,
                                    -31, -1, 0, 1, 31, 32, 33, 8160, RPL_HEIGHT_MAX - 1,
                                    RPL_HEIGHT_MAX};
    int r;
    switch (pat) {
    case P_UNIFORM: return (int16_t)rnd(s, RPL_HEIGHT_MIN, RPL_HEIGHT_MAX);
    case P_MAX: return RPL_HEIGHT_MAX;
    case P_MIN: return RPL_HEIGHT_MIN;
    case P_CHECKER: return (x + y) & 1 ? RPL_HEIGHT_MAX : RPL_HEIGHT_MIN;
    case P_CHECKER2: return (x + y) & 1 ? RPL_HEIGHT_MIN : RPL_HEIGHT_MAX;
    case P_STRIPES: return x & 1 ? RPL_HEIGHT_MAX : RPL_HEIGHT_MIN;
    case P_SPIKES:
        r = rnd(s, 0, 19);
        return (int16_t)(r == 0 ? RPL_HEIGHT_MAX : r == 1 ? RPL_HEIGHT_MIN : rnd(s, -3, 3));
    case P_SPARSE:
        return (int16_t)(rnd(s, 0, 29) == 0 ? rnd(s, RPL_HEIGHT_MIN, RPL_HEIGHT_MAX) : 0);
    case P_EDGES: return edges[rnd(s, 0, (int)(sizeof edges / sizeof edges[0]) - 1)];
    case P_SMALL: return (int16_t)rnd(s, -300, 300);
    default: return 0;
    }
}

/* A w x h plane of pattern pat, border 0 (the contract). */
static int16_t *plane(int w, int h, int pat, uint64_t *s)
{
    int16_t *p = xalloc((size_t)w * (size_t)h * sizeof *p);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            p[(size_t)y * (size_t)w + (size_t)x] =
                x == 0 || y == 0 || x == w - 1 || y == h - 1 ? 0 : cell(pat, x, y, s);
    return p;
}

/* A rectangle [x0, x1) x [y0, y1) inside [lo, wx) x [lo, hy): the whole,
 * random, touching each border, empty, one column, one row, one cell, a
 * narrow one (1..40 wide) anywhere. */
static void rect(int kind, int lo, int wx, int hy, uint64_t *s, int r[4])
{
    int x0 = lo, x1 = wx, y0 = lo, y1 = hy;
    switch (kind % 12) {
    case 0: break;
    case 1:
        x0 = rnd(s, lo, wx), x1 = rnd(s, x0, wx), y0 = rnd(s, lo, hy), y1 = rnd(s, y0, hy);
        break;
    case 2: x1 = rnd(s, lo + 1, wx), y0 = rnd(s, lo, hy - 1); break; /* left and bottom */
    case 3: x0 = rnd(s, lo, wx - 1), y1 = rnd(s, lo + 1, hy); break; /* right and top */
    case 4: y1 = lo + 1; break;
    case 5: y0 = hy - 1; break;
    case 6: x1 = lo + 1; break;
    case 7: x0 = wx - 1; break;
    case 8:
        if (rnd(s, 0, 1))
            x0 = x1 = rnd(s, lo, wx);
        else
            y0 = y1 = rnd(s, lo, hy);
        break;
    case 9: x0 = rnd(s, lo, wx - 1), x1 = x0 + 1, y0 = rnd(s, lo, hy - 1), y1 = y0 + 1; break;
    case 10: x0 = rnd(s, lo, wx - 1), x1 = rnd(s, x0 + 1, wx); break; /* a band of columns */
    default:
        x0 = rnd(s, lo, wx - 1), x1 = x0 + rnd(s, 1, imin(40, wx - x0));
        y0 = rnd(s, lo, hy - 1), y1 = rnd(s, y0 + 1, hy);
        break;
    }
    r[0] = x0, r[1] = x1, r[2] = y0, r[3] = y1;
}

/* ---- the step and the wave step ---------------------------------------- */

/* Fixed parameter sets of the wave model; the coefficients come from
 * rpl_wave_info, as a field gets them. */
static const rpl_wave_params_t wave_sets[] = {
    {0.70710678, 0, 1, 1, 1 - 1.0 / 32}, /* k = 1/2: the classic rule's bytes */
    {0.5, 0, 1, 1, 1},                   /* alpha 1: rounding towards zero */
    {0.6, 0.02, 1, 1, 0.99},
    {0.3, 0.1, 1, 1, 0.995},
    {0.1, 0, 1, 1, 0.9},
    {0.7, 0.5, 1, 1, 1 - 1.0 / 256},
};
enum { NWAVE = (int)(sizeof wave_sets / sizeof wave_sets[0]) };
static rpl_wave_coef_t wave_coefs[NWAVE];

static void wave_sets_init(void)
{
    for (int i = 0; i < NWAVE; i++) {
        rpl_wave_info_t info;
        if (rpl_wave_info(&wave_sets[i], &info) != RPL_OK) {
            printf("web_exact: wave set %d refused: %s\n", i, info.why);
            exit(1);
        }
        wave_coefs[i] = (rpl_wave_coef_t){info.a, info.b, info.c, info.rp, info.rn, info.m};
    }
}

/* Coefficients for wave case n: the classic ones, the fixed sets, or
 * random ones anywhere in the kernels' contract, their ends included. */
static rpl_wave_coef_t wave_coef(int n, uint64_t *s)
{
    int kind = n % 10;
    if (kind == 0)
        return (rpl_wave_coef_t){0, -8192, 4096, 0, 0, 8};
    if (kind <= 5)
        return wave_coefs[(n / 10 + kind) % NWAVE];
    static const int ends_b[] = {-8192, -8191, 0, 8190, 8191}, ends_m[] = {0, 1, 8, 255, 256};
    rpl_wave_coef_t k;
    k.b = rnd(s, 0, 1) ? ends_b[rnd(s, 0, 4)] : rnd(s, -8192, 8191);
    int cmax = (8192 - k.b) / 4;
    k.c = rnd(s, 0, 2) ? rnd(s, 0, cmax) : rnd(s, 0, 1) * cmax;
    k.a = 8192 - k.b - 4 * k.c;
    k.rp = rnd(s, 0, 1) ? -8192 * rnd(s, 0, 1) : -rnd(s, 0, 8192);
    k.rn = rnd(s, 0, 1) ? 8191 * rnd(s, 0, 1) : rnd(s, 0, 8191);
    k.m = rnd(s, 0, 1) ? ends_m[rnd(s, 0, 4)] : rnd(s, 0, 256);
    return k;
}

/* Step case n (wave: the wave model's step): both rows run 1..4
 * consecutive steps from the same buffers; after each, both buffers and
 * the answer (zero or not) must agree. */
static void step_case(int n, int wave)
{
    const char *fam = wave ? "wave" : "step";
    uint64_t s = case_gen(wave ? 2 : 1, n);
    int w, h, r[4];
    field_size(n, &s, &w, &h);
    rect(n < 160 ? 0 : rnd(&s, 0, 11), 1, w - 1, h - 1, &s, r);
    int steps = rnd(&s, 0, 3) ? 1 : rnd(&s, 2, 4);
    if ((size_t)w * (size_t)h > 100000)
        steps = 1;
    rpl_wave_coef_t k = wave ? wave_coef(n, &s) : (rpl_wave_coef_t){0, 0, 0, 0, 0, 0};
    int pc = rnd(&s, 0, NPAT - 1), pp = rnd(&s, 0, NPAT - 1);
    size_t cells = (size_t)w * (size_t)h, bytes = cells * sizeof(int16_t);
    int16_t *b[2][2]; /* [row][buffer] */
    b[0][0] = plane(w, h, pc, &s);
    b[0][1] = plane(w, h, pp, &s);
    b[1][0] = xalloc(bytes);
    b[1][1] = xalloc(bytes);
    memcpy(b[1][0], b[0][0], bytes);
    memcpy(b[1][1], b[0][1], bytes);
    for (int st = 0; st < steps; st++) {
        int cur = st & 1, prev = cur ^ 1, rc[2];
        for (int row = 0; row < 2; row++) {
            const rpl_kernels_t *kk = row ? ks : kc;
            rc[row] = wave ? kk->step_wave(b[row][prev], b[row][cur], w, r[0], r[1], r[2], r[3], &k)
                           : kk->step(b[row][prev], b[row][cur], w, r[0], r[1], r[2], r[3]);
        }
        char what[256], where[96];
        int m = snprintf(what, sizeof what, "%dx%d, rect x %d..%d y %d..%d (half-open), step %d of %d",
                         w, h, r[0], r[1], r[2], r[3], st + 1, steps);
        if (wave && m > 0 && (size_t)m < sizeof what)
            snprintf(what + m, sizeof what - (size_t)m, ", a %d b %d c %d rp %d rn %d m %d", k.a,
                     k.b, k.c, k.rp, k.rn, k.m);
        for (int buf = 0; buf < 2; buf++) {
            int which = buf ? cur : prev;
            long d = first_diff(b[0][which], b[1][which], bytes);
            if (d >= 0) {
                size_t i = (size_t)d / 2;
                snprintf(where, sizeof where, "%s (%zu, %zu)%s", buf ? "cur, never written," : "cell",
                         i % (size_t)w, i / (size_t)w,
                         (int)(i % (size_t)w) >= r[0] && (int)(i % (size_t)w) < r[1] &&
                                 (int)(i / (size_t)w) >= r[2] && (int)(i / (size_t)w) < r[3]
                             ? ""
                             : " (outside the rectangle)");
                fail(fam, n, what, where, b[0][which][i], b[1][which][i], 0);
            }
        }
        if ((rc[0] != 0) != (rc[1] != 0))
            fail(fam, n, what, "the answer (any cell nonzero)", rc[0] != 0, rc[1] != 0, 0);
    }
    for (int row = 0; row < 2; row++)
        for (int i = 0; i < 2; i++)
            free(b[row][i]);
}

static void classic_case(int n)
{
    step_case(n, 0);
}

static void wave_case(int n)
{
    step_case(n, 1);
}

/* ---- the refraction ------------------------------------------------------ */

static uint8_t shade_table[RPL_SHADE_LEVELS * 256];
static const char *const fmt_name[3] = {"XRGB8888", "RGB565", "INDEX8"};
static const size_t fmt_bytes[3] = {4, 2, 1};

static rpl_refract_fn refract_of(const rpl_kernels_t *k, int f)
{
    return f == 0 ? k->refract_xrgb8888 : f == 1 ? k->refract_rgb565 : k->refract_index8;
}

/* Channels at and near the ends (saturation) and the middle. */
static uint32_t channel(uint64_t *s)
{
    static const uint8_t v[] = {0, 1, 2, 127, 128, 253, 254, 255};
    return rnd(s, 0, 3) ? v[rnd(s, 0, 7)] : (uint32_t)rnd(s, 0, 255);
}

/* Refraction case n, rendered in all three formats by both rows into
 * framebuffers (pitch padding included) filled alike beforehand. */
static void refract_case(int n)
{
    static const int strengths[16] = {0, 1, 2, 7, 8, 9, 15, 16, 17, 24, 31, 32, 33, 48, 63,
                                      RPL_STRENGTH_MAX};
    uint64_t s = case_gen(3, n);
    int w, h, r[4];
    field_size(n, &s, &w, &h);
    rect(n < 160 ? n / 40 * 3 : rnd(&s, 0, 11), 0, w, h, &s, r);
    int strength = n / 16 % 2 ? rnd(&s, 0, RPL_STRENGTH_MAX) : strengths[n % 16];
    int shading = n / 32 % 2;
    int pitch_px = rnd(&s, 0, 1) ? w : w + rnd(&s, 1, 17);
    int16_t *ht = plane(w, h, rnd(&s, 0, NPAT - 1), &s);
    size_t cells = (size_t)w * (size_t)h, npx = (size_t)pitch_px * (size_t)h;
    uint32_t *bg = xalloc(cells * 4);
    uint16_t *bg16 = xalloc(cells * 2);
    uint8_t *bg8 = xalloc(cells);
    int sat = rnd(&s, 0, 1);
    for (size_t i = 0; i < cells; i++) {
        uint32_t v = sat ? (uint32_t)rnd(&s, 0, 255) << 24 | channel(&s) << 16 | channel(&s) << 8 |
                               channel(&s)
                         : (uint32_t)next(&s);
        bg[i] = v;
        bg16[i] = (uint16_t)((v >> 19 & 0x1F) << 11 | (v >> 10 & 0x3F) << 5 | (v >> 3 & 0x1F));
        bg8[i] = (uint8_t)(v ^ v >> 8 ^ v >> 24);
    }
    int32_t *rows_mem = xalloc(RPL_ROWS_LEN(h) * sizeof *rows_mem);
    const int32_t *rows = rpl_refract_rows(rows_mem, w, h);
    for (int f = 0; f < 3; f++) {
        size_t nb = npx * fmt_bytes[f];
        unsigned char *fb[2];
        for (int row = 0; row < 2; row++) {
            fb[row] = xalloc(nb);
            for (size_t i = 0; i < nb; i++)
                fb[row][i] = (unsigned char)(filler(i / fmt_bytes[f]) >> (8 * (i % fmt_bytes[f])));
            rpl_refract_job_t job = {ht, f == 0 ? bg : NULL, fb[row],
                                     (ptrdiff_t)pitch_px * (ptrdiff_t)fmt_bytes[f], w, h,
                                     strength, shading, f == 1 ? bg16 : NULL,
                                     f == 2 ? bg8 : NULL, f == 2 ? shade_table : NULL, rows};
            refract_of(row ? ks : kc, f)(&job, r[0], r[1], r[2], r[3]);
        }
        long d = first_diff(fb[0], fb[1], nb);
        if (d >= 0) {
            size_t i = (size_t)d / fmt_bytes[f];
            int x = (int)(i % (size_t)pitch_px), y = (int)(i / (size_t)pitch_px);
            char what[256], where[96];
            snprintf(what, sizeof what,
                     "%s, %dx%d, pitch %d px, rect x %d..%d y %d..%d (half-open), strength %d, "
                     "shading %s",
                     fmt_name[f], w, h, pitch_px, r[0], r[1], r[2], r[3], strength,
                     shading ? "on" : "off");
            snprintf(where, sizeof where, "pixel (%d, %d)%s", x, y,
                     x >= w ? " (pitch padding)"
                     : x >= r[0] && x < r[1] && y >= r[2] && y < r[3] ? ""
                                                                       : " (outside the rectangle)");
            fail("refract", n, what, where, elem(fb[0], fmt_bytes[f], i),
                 elem(fb[1], fmt_bytes[f], i), 1);
        }
        free(fb[0]);
        free(fb[1]);
    }
    free(ht);
    free(bg);
    free(bg16);
    free(bg8);
    free(rows_mem);
}

/* ---- the upscale --------------------------------------------------------- */

/* Upscale case n: 1, 2 or 4 bytes a pixel, scales 1..RPL_UPSCALE_MAX (2..4
 * most often, where the SIMD kernel has its own code), pitches with and
 * without padding; the whole destination compared. */
static void upscale_case(int n)
{
    uint64_t s = case_gen(4, n);
    static const int bpp[3] = {1, 2, 4};
    int bytes = bpp[n % 3], w, h;
    if (n < 480) {
        w = 1 + n / 3 % 40, h = 1 + n / 120;
    } else {
        field_size(n, &s, &w, &h);
        if (rnd(&s, 0, 1))
            w = rnd(&s, 1, 40);
    }
    int scale = rnd(&s, 0, 4) ? rnd(&s, 1, 4) : rnd(&s, 5, RPL_UPSCALE_MAX);
    if (scale > 4) /* the SIMD kernel hands these to the scalar one: small ones will do */
        w = imin(w, 40), h = imin(h, 8);
    if (n < 480)
        scale = 2 + n / 3 % 3; /* the sweep: 2, 3, 4 at every width */
    while (scale > 1 && (size_t)w * (size_t)h * (size_t)bytes * (size_t)(scale * scale) > (1u << 20))
        scale--;
    ptrdiff_t spitch = (ptrdiff_t)w * bytes + (rnd(&s, 0, 1) ? 0 : rnd(&s, 1, 9) * bytes);
    ptrdiff_t dpitch = (ptrdiff_t)w * bytes * scale + (rnd(&s, 0, 1) ? 0 : rnd(&s, 1, 9) * bytes);
    size_t sn = (size_t)spitch * (size_t)h, dn = (size_t)dpitch * (size_t)h * (size_t)scale;
    unsigned char *src = xalloc(sn), *dst[2];
    int pat = rnd(&s, 0, 3);
    for (size_t i = 0; i < sn; i++)
        src[i] = pat == 0 ? 0xFF : pat == 1 ? 0 : (unsigned char)next(&s);
    for (int row = 0; row < 2; row++) {
        dst[row] = xalloc(dn);
        for (size_t i = 0; i < dn; i++)
            dst[row][i] = (unsigned char)filler(i);
        (row ? ks : kc)->upscale(src, spitch, dst[row], dpitch, w, h, bytes, scale);
    }
    long d = first_diff(dst[0], dst[1], dn);
    if (d >= 0) {
        char what[160], where[96];
        size_t i = (size_t)d / (size_t)bytes;
        size_t per_row = (size_t)dpitch / (size_t)bytes;
        snprintf(what, sizeof what, "%d bytes a pixel, %dx%d by %d, pitches %td and %td bytes",
                 bytes, w, h, scale, spitch, dpitch);
        snprintf(where, sizeof where, "destination pixel (%zu, %zu)", i % per_row, i / per_row);
        fail("upscale", n, what, where, elem(dst[0], (size_t)bytes, i),
             elem(dst[1], (size_t)bytes, i), 1);
    }
    free(src);
    free(dst[0]);
    free(dst[1]);
}

/* ---- the side view ------------------------------------------------------- */

/* What the side kernels read: a scene row, the caustics' light and the
 * shimmer, drawn for case n within the contract of kernels.h, its ends
 * included. */
typedef struct side_in {
    int len, x0, x1;
    uint32_t *src, *out[2];
    int32_t *rd;
    int32_t wob[512 + 32];
    uint8_t light[256 + 32];
    rpl_side_deep_job_t job;
} side_in_t;

static void side_in_make(side_in_t *c, int n, uint64_t *s)
{
    c->len = n < 64 ? n + 1 : rnd(s, 0, 9) ? rnd(s, 1, 300) : rnd(s, 1000, 2100);
    c->x0 = rnd(s, 0, 2) ? rnd(s, 0, c->len) : 0;
    c->x1 = rnd(s, 0, 2) ? rnd(s, c->x0, c->len) : c->len;
    if (n < 64)
        c->x0 = 0, c->x1 = c->len;
    int sp = rnd(s, 0, 3), lp = rnd(s, 0, 3);
    c->src = xalloc((size_t)c->len * 4);
    for (int x = 0; x < c->len; x++)
        c->src[x] = sp == 0 ? 0xFFFFFFFFu : sp == 1 ? 0 : (uint32_t)next(s);
    int phase = rnd(s, 0, 255), wmax = rnd(s, 0, 1) ? 1 << 20 : 1 << 12;
    for (int i = 0; i < 256; i++) {
        c->wob[i] = rnd(s, -wmax, wmax);
        /* all 255, all 0, any, and a third each 0 and 255 */
        c->light[i] = (uint8_t)(lp == 0 ? 255 : lp == 1 ? 0 : lp == 2 ? rnd(s, 0, 255)
                                : pick_end(s, 0, 255));
    }
    for (int i = 256; i < 512 + 32; i++)
        c->wob[i] = c->wob[i & 255];
    for (int i = 256; i < 256 + 32; i++)
        c->light[i] = c->light[i & 255];
    /* shifts landing anywhere in the row (or near x), any fraction */
    c->rd = xalloc((size_t)c->len * 4);
    int near = rnd(s, 0, 1);
    for (int x = 0; x < c->len; x++) {
        int t = near ? x + rnd(s, -3, 3) : rnd(s, 0, c->len - 1);
        t = t < 0 ? 0 : t > c->len - 1 ? c->len - 1 : t;
        c->rd[x] = (t - x) * 65536 - c->wob[(x + phase) & 255] + rnd(s, 0, 65535);
    }
    int inva = pick_end(s, 0, 256), pmax = 65535 - 255 * inva;
    int pr = pick_end(s, 0, pmax), pg = pick_end(s, 0, pmax), pb = pick_end(s, 0, pmax);
    c->job = (rpl_side_deep_job_t){c->src, NULL, c->rd, c->wob, c->light, phase,
                                   pick_end(s, 0, 255), inva, pr, pg, pb,
                                   pick_end(s, 0, RPL_SIDE_CW_MAX), c->len};
    c->out[0] = xalloc((size_t)c->len * 4);
    c->out[1] = xalloc((size_t)c->len * 4);
}

static void side_in_free(side_in_t *c)
{
    free(c->src);
    free(c->rd);
    free(c->out[0]);
    free(c->out[1]);
}

/* Compares the two output rows (the whole row: outside [x0, x1) neither
 * may write). */
static void side_compare(const char *fam, int n, const side_in_t *c)
{
    long d = first_diff(c->out[0], c->out[1], (size_t)c->len * 4);
    if (d >= 0) {
        char what[96], where[64];
        int x = (int)(d / 4);
        snprintf(what, sizeof what, "row of %d, x %d..%d (half-open)", c->len, c->x0, c->x1);
        snprintf(where, sizeof where, "x %d%s", x,
                 x >= c->x0 && x < c->x1 ? "" : " (outside the range)");
        fail(fam, n, what, where, c->out[0][x], c->out[1][x], 1);
    }
}

static void side_deep_case(int n)
{
    uint64_t s = case_gen(5, n);
    side_in_t c;
    side_in_make(&c, n, &s);
    for (int row = 0; row < 2; row++) {
        for (int x = 0; x < c.len; x++)
            c.out[row][x] = filler((size_t)x);
        rpl_side_deep_job_t j = c.job;
        j.out = c.out[row];
        (row ? ks : kc)->side_deep(&j, c.x0, c.x1);
    }
    side_compare("side_deep", n, &c);
    side_in_free(&c);
}

/* The water near the surface (foam 0) or its foam (1): per column a
 * depth from far above the surface through the foam's rows to far under
 * the table's end, the other columns' values and the tables' entries at
 * their bounds. */
static void side_near_case(int n, int foam)
{
    uint64_t s = case_gen(foam ? 8 : 6, n);
    side_in_t c;
    side_in_make(&c, n, &s);
    static uint32_t te[RPL_SIDE_DEPTHS], tbg[RPL_SIDE_DEPTHS], tr[RPL_SIDE_DEPTHS],
        tia[RPL_SIDE_DEPTHS];
    int32_t wraw[512 + 32];
    const int len = c.len, wide = rnd(&s, 0, 3) == 0, y = pick_end(&s, -100, 3000);
    int32_t *col = xalloc((size_t)len * 7 * 4);
    int32_t *ys = col, *shift = col + len, *gbase = col + 2 * len, *sfx = col + 3 * len,
            *dcol = col + 4 * len, *fwq = col + 5 * len, *cov = col + 6 * len;
    uint32_t *init = xalloc((size_t)len * 4);
    for (int x = 0; x < len; x++) {
        /* depth under the surface: above it, the foam, the table, far under */
        int kind = rnd(&s, 0, foam ? 9 : 5);
        int d = kind == 0 ? rnd(&s, -50, -1) : kind == 1 ? rnd(&s, 0, 4)
              : kind == 2 ? rnd(&s, 5, 15) : kind == 3 ? rnd(&s, 16, 520)
              : kind == 4 ? pick_end(&s, 5, 1 << 29) : kind == 5 ? pick_end(&s, -(1 << 29), 16)
              : pick_end(&s, 0, 4);
        ys[x] = y - d;
        shift[x] = wide ? pick_end(&s, -32767, 32767) : pick_end(&s, -64, 64);
        gbase[x] = y - (wide ? pick_end(&s, -(1 << 29), 1 << 29) : pick_end(&s, -40, 600));
        sfx[x] = wide ? pick_end(&s, -32767, 32767) : pick_end(&s, -384, 384);
        dcol[x] = pick_end(&s, 0, 256);
        fwq[x] = wide ? pick_end(&s, -(1 << 30), 1 << 30) : pick_end(&s, -300, 1400);
        cov[x] = pick_end(&s, 0, 256);
        init[x] = (uint32_t)next(&s);
    }
    for (int d = 0; d < RPL_SIDE_DEPTHS; d++) {
        int inva = pick_end(&s, 0, 256), pmax = 65535 - 255 * inva;
        te[d] = (uint32_t)pick_end(&s, 0, 2047) | (uint32_t)pick_end(&s, 0, 511) << 11 |
                (uint32_t)pick_end(&s, 0, 256) << 20;
        tbg[d] = (uint32_t)pick_end(&s, 0, pmax) | (uint32_t)pick_end(&s, 0, pmax) << 16;
        tr[d] = (uint32_t)pick_end(&s, 0, pmax) | (uint32_t)pick_end(&s, 0, RPL_SIDE_CW_MAX) << 16;
        tia[d] = (uint32_t)inva;
    }
    for (int i = 0; i < 512 + 32; i++)
        wraw[i] = i < 256 ? pick_end(&s, -32767, 32767) : wraw[i & 255];
    for (int row = 0; row < 2; row++) {
        memcpy(c.out[row], init, (size_t)len * 4);
        rpl_side_shallow_job_t j = {c.src, c.out[row], ys, shift, gbase, sfx, dcol, fwq, cov,
                                    te, tbg, tr, tia, wraw, c.light, c.job.phase, y, len,
                                    c.job.lx};
        const rpl_kernels_t *k = row ? ks : kc;
        (foam ? k->side_foam : k->side_shallow)(&j, c.x0, c.x1);
    }
    side_compare(foam ? "side_foam" : "side_shallow", n, &c);
    free(col);
    free(init);
    side_in_free(&c);
}

static void side_shallow_case(int n)
{
    side_near_case(n, 0);
}

static void side_foam_case(int n)
{
    side_near_case(n, 1);
}

/* ---- main ------------------------------------------------------------------ */

static int parse_num(const char *a, unsigned long long max, unsigned long long *out)
{
    char *end;
    if (!a || !*a || *a == '-' || *a == '+')
        return 0;
    unsigned long long v = strtoull(a, &end, 10);
    if (*end || v > max)
        return 0;
    *out = v;
    return 1;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: web_exact [--cases N] [--seed S]\n"
               "  compares the \"sse2\" kernels with \"c\", bit for bit, on N seeded cases\n"
               "  per kernel family (default %d); exit 0 same, 1 a mismatch or no sse2 row,\n"
               "  2 bad arguments\n",
            DEFAULT_CASES);
}

int main(int argc, char **argv)
{
    unsigned long long v;
    int cases = DEFAULT_CASES;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--cases") == 0 && i + 1 < argc && parse_num(argv[i + 1], 10000000, &v) &&
            v > 0) {
            cases = (int)v, i++;
        } else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc &&
                   parse_num(argv[i + 1], UINT64_MAX, &v)) {
            base_seed = v, i++;
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "web_exact: bad argument '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    rpl_status st = rpl_kernels_find("c", &kc);
    if (st != RPL_OK) {
        printf("web_exact: FAIL: no \"c\" kernel row (%s)\n", rpl_strerror(st));
        return 1;
    }
    st = rpl_kernels_find("sse2", &ks);
    if (st != RPL_OK) {
        printf("web_exact: FAIL: no \"sse2\" kernel row here (%s): %s\n", rpl_strerror(st),
               st == RPL_ENOTSUP ? "not built in, or the CPU features say no SSE2"
                                 : "unknown path");
        return 1;
    }
    wave_sets_init();
    uint64_t s = case_gen(7, 0);
    for (size_t i = 0; i < sizeof shade_table; i++)
        shade_table[i] = (uint8_t)next(&s);

    static const struct family {
        const char *name;
        void (*one)(int);
    } fams[] = {{"step", classic_case},         {"wave", wave_case},
                {"refract", refract_case},      {"upscale", upscale_case},
                {"side_deep", side_deep_case},  {"side_shallow", side_shallow_case},
                {"side_foam", side_foam_case}};
    int compared = 0;
    for (size_t f = 0; f < sizeof fams / sizeof fams[0]; f++) {
        const char *name = fams[f].name;
        /* a row may reuse the scalar kernel: nothing to compare then */
        int same = f == 0   ? kc->step == ks->step
                   : f == 1 ? kc->step_wave == ks->step_wave
                   : f == 2 ? kc->refract_xrgb8888 == ks->refract_xrgb8888 &&
                                  kc->refract_rgb565 == ks->refract_rgb565 &&
                                  kc->refract_index8 == ks->refract_index8
                   : f == 3 ? kc->upscale == ks->upscale
                   : f == 4 ? kc->side_deep == ks->side_deep
                   : f == 5 ? kc->side_shallow == ks->side_shallow
                            : kc->side_foam == ks->side_foam;
        if (same) {
            printf("web_exact: %s: the sse2 row uses the c kernel itself, not compared\n", name);
            continue;
        }
        for (int n = 0; n < cases; n++)
            fams[f].one(n);
        compared++;
        printf("web_exact: %s %d cases same%s\n", name, cases,
               f == 2 ? " (each in the 3 formats)" : "");
    }
    if (compared == 0) {
        printf("web_exact: FAIL: the sse2 row has no kernel of its own\n");
        return 1;
    }
    return 0;
}
