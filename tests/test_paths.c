/* test_paths.c - exactness suite: every kernel path this machine has must
 * compute bit for bit what the scalar "c" reference computes (cmocka).
 *
 *   test_paths                  runs the suite (prints which paths it skips)
 *   test_paths --list           prints the paths available here, one a line
 *   test_paths --case step N    replays step case N on every path, verbosely
 *   test_paths --case wave N    replays wave case N (the wave model's step)
 *   test_paths --case refract N replays refraction case N
 *   test_paths --case side N    replays case N of the side view's deep water
 *   test_paths --case shallow N replays case N of its water near the surface
 *   test_paths --case foam N    replays case N of its foam
 *
 * Every case is built from its number alone (a seeded generator of the
 * test's own), so a failing case printed as "step case 1234" replays with
 * --case step 1234.  The kernels are called through the function pointers
 * of their tables (kernels/kernels.h), the reference on exact-size heap
 * buffers, the path under test on buffers that sit against PROT_NONE guard
 * pages, so that any read or write outside what the contract allows
 * crashes; the suite then names the case it was running.
 *
 * Contract the guards enforce (kernels/kernels.h):
 *   step over [x0,x1)x[y0,y1): reads cur rows y0-1..y1, columns x0-1..x1,
 *     reads and writes prev only inside the rectangle, never writes cur;
 *   refraction over [x0,x1)x[y0,y1), in each format (XRGB8888, RGB565,
 *     INDEX8): reads heights rows y0-1..y1 and columns x0-1..x1 (clipped
 *     to the field), any background texel (and for INDEX8 any entry of the
 *     shade table), and writes exactly the rectangle's pixels (never the
 *     pitch padding).
 * Heights given to the kernels always keep the height contract (ripple.h):
 * values in [RPL_HEIGHT_MIN, RPL_HEIGHT_MAX], zero border.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ripple.h"
#include "kernels/kernels.h"
#include "host.h"
#include "util.h"

/* ---- the paths -------------------------------------------------------- */

#define MAX_PATHS 8

static const rpl_kernels_t *ref_k;            /* "c", the scalar reference */
static const rpl_kernels_t *simd[MAX_PATHS]; /* every other path available here */
static int nsimd;

/* --subset N (an emulated CPU, where every case costs ten times more):
 * of the randomly drawn cases only every Nth runs, counted from the first
 * of its family: the random step and refraction cases, the wave cases on
 * the geometry of random step cases, the side view's deep and shallow
 * cases past the first SD_FIXED (row lengths 1..SD_FIXED), and in
 * test_guards_on_reference the sweeps' cases of a random rectangle.  The
 * sweeps of every small size (and each size's whole rectangle), the odd
 * sizes, the drift, the wave cases on those and the whole-field
 * agreement run in full.  The pinned reference CRCs (step, wave,
 * refraction) are then taken over the same subset; they are pinned for
 * subsets 1, 4 and 16 (any other N skips those three tests).  N = 1 is
 * the full suite. */
static int subset = 1;

/* Whether the i-th (from 0) randomly drawn case of a family runs under
 * --subset. */
static int random_in_subset(int i)
{
    return i % subset == 0;
}

/* Whether path k's kernel `field` (of struct rpl_kernels) is the very
 * same function as the reference's (a path that reuses the scalar kernel):
 * then it is not compared, there being nothing to compare; the reference
 * itself always runs (the guarded harness, the rules written here). */
#define SAME_AS_REF(k, field) ((k) != ref_k && (k)->field == ref_k->field)

/* What a verbose replay says of such a path. */
static void say_same(int verbose, const char *desc, const rpl_kernels_t *k)
{
    if (verbose)
        printf("%s: %s uses the \"c\" kernel itself, not compared\n", desc, k->name);
}

static void find_paths(void)
{
    ref_k = rpl_kernels_get("c");
    nsimd = 0;
    for (int i = 0; rpl_kernels_known(i) != NULL; i++) {
        const char *name = rpl_kernels_known(i);
        const rpl_kernels_t *k = NULL;
        if (strcmp(name, "c") != 0 && rpl_kernels_find(name, &k) == RPL_OK && nsimd < MAX_PATHS)
            simd[nsimd++] = k;
    }
}

/* ---- small tools ------------------------------------------------------ */

/* The generator state of case n of a family: a function of (family, n) only. */
static uint64_t case_seed(uint64_t family, int n)
{
    uint64_t s = family << 40 ^ (uint64_t)(unsigned)n;
    rnd_next(&s);
    return rnd_next(&s);
}

static int imax(int a, int b)
{
    return a > b ? a : b;
}

static int imin(int a, int b)
{
    return a < b ? a : b;
}

/* ---- guarded buffers -------------------------------------------------- */

/* Where the path under test finds its buffers. */
enum {
    G_HEAP,        /* exact-size malloc blocks (ASan's redzones in the san build) */
    G_END,         /* whole buffers flush against a trailing guard page */
    G_START,       /* whole buffers right after a leading guard page */
    G_TIGHT_END,   /* only what the contract lets the kernel touch is mapped, */
    G_TIGHT_START, /*   flush against the trailing / after the leading guard */
    NGUARD
};
static const char *const guard_name[NGUARD] = {
    "heap", "guard-end", "guard-start", "tight-end", "tight-start",
};

/* A view of elements [lo, hi] of a logical array of elements of `size`
 * bytes: only those are backed by memory (a slot or the heap); the
 * returned base pointer is indexed like the whole array. */
typedef struct slice {
    void *heap;
    unsigned char *data; /* element lo */
} slice_t;

static void *slice_alloc(slice_t *s, int slot, size_t lo, size_t hi, size_t size, int guard,
                         const void *init)
{
    size_t len = (hi - lo + 1) * size;
    s->heap = NULL;
    if (guard == G_HEAP) {
        s->heap = xmalloc(len);
        s->data = s->heap;
    } else {
        s->data = guard_slot(slot, len, guard == G_END || guard == G_TIGHT_END);
    }
    if (init)
        memcpy(s->data, (const unsigned char *)init + lo * size, len);
    /* base = data - lo elements, computed without pointer arithmetic
     * outside an object */
    return (void *)((uintptr_t)s->data - lo * size);
}

static void slice_free(slice_t *s)
{
    free(s->heap);
    s->heap = NULL;
}

/* ---- naming the case that crashed ------------------------------------- */

/* If a kernel hits a guard page, this handler prints which case was
 * running, puts back the handler it replaced (cmocka's) and returns: the
 * faulting access repeats and cmocka reports the test as failed. */
static char crash_note[640];
static size_t crash_len;

static void on_crash(void)
{
    ssize_t r = write(STDERR_FILENO, crash_note, crash_len);
    (void)r;
}

static void crash_hook_on(void)
{
    crash_len = 0;
    host_crash_note_on(on_crash);
}

static void crash_hook_off(void)
{
    host_crash_note_off();
}

static void crash_set(const char *kind, int n, const char *desc)
{
    int len = snprintf(crash_note, sizeof crash_note,
                       "\n*** crashed (guard page?) in %s\n*** replay: test_paths --case %s %d\n",
                       desc, kind, n);
    crash_len = len < 0 ? 0 : imin(len, (int)sizeof crash_note - 1);
}

/* ---- height patterns -------------------------------------------------- */

enum {
    PAT_UNIFORM,     /* uniform over the whole range */
    PAT_MAX,         /* every cell 8191 */
    PAT_MIN,         /* every cell -8192 */
    PAT_CHECKER,     /* 8191 / -8192 alternating like a chessboard */
    PAT_CHECKER_INV, /* the same, other phase */
    PAT_STRIPES,     /* alternating columns of 8191 and -8192 */
    PAT_SPIKES,      /* small noise with 10% spikes of the extremes */
    PAT_SPARSE,      /* mostly zero, 3% random values */
    PAT_EDGES,       /* values at the edges of the range and of the shifts */
    PAT_SMALL,       /* uniform in [-100, 100] */
    PAT_MODERATE,    /* uniform in [-700, 700] */
    PAT_RAMP,        /* smooth slopes in [-300, 300] */
    PAT_FLAT,        /* all zero */
    NPAT
};
static const char *const pat_name[NPAT] = {
    "uniform", "max", "min", "checker", "checker-inv", "stripes", "spikes",
    "sparse", "edges", "small", "moderate", "ramp", "flat",
};

static int16_t pat_cell(int pat, int x, int y, uint64_t *s)
{
    static const int16_t edges[] = {-8192, -8191, -8161, -8160, -33, -32, -31, -2,
                                    -1, 0, 1, 31, 32, 33, 8160, 8190, 8191};
    int r;
    switch (pat) {
    case PAT_UNIFORM: return (int16_t)rnd_range(s, RPL_HEIGHT_MIN, RPL_HEIGHT_MAX);
    case PAT_MAX: return RPL_HEIGHT_MAX;
    case PAT_MIN: return RPL_HEIGHT_MIN;
    case PAT_CHECKER: return (x + y) & 1 ? RPL_HEIGHT_MAX : RPL_HEIGHT_MIN;
    case PAT_CHECKER_INV: return (x + y) & 1 ? RPL_HEIGHT_MIN : RPL_HEIGHT_MAX;
    case PAT_STRIPES: return x & 1 ? RPL_HEIGHT_MAX : RPL_HEIGHT_MIN;
    case PAT_SPIKES:
        r = rnd_range(s, 0, 99);
        return (int16_t)(r < 5 ? RPL_HEIGHT_MAX : r < 10 ? RPL_HEIGHT_MIN : rnd_range(s, -3, 3));
    case PAT_SPARSE:
        return (int16_t)(rnd_range(s, 0, 99) < 3 ? rnd_range(s, RPL_HEIGHT_MIN, RPL_HEIGHT_MAX)
                                                  : 0);
    case PAT_EDGES: return edges[rnd_range(s, 0, (int)(sizeof edges / sizeof edges[0]) - 1)];
    case PAT_SMALL: return (int16_t)rnd_range(s, -100, 100);
    case PAT_MODERATE: return (int16_t)rnd_range(s, -700, 700);
    case PAT_RAMP: return (int16_t)((x * 37 + y * 53) % 601 - 300);
    default: return 0;
    }
}

/* Fills a w*h plane with a pattern, border 0. */
static void fill_plane(int16_t *p, int w, int h, int pat, uint64_t *s)
{
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int border = x == 0 || y == 0 || x == w - 1 || y == h - 1;
            p[(size_t)y * (size_t)w + (size_t)x] = border ? 0 : pat_cell(pat, x, y, s);
        }
}

/* Sizes that are not multiples of the vector widths, tiny, or long and thin. */
static const int odd_sizes[][2] = {
    {1921, 5}, {5, 1081}, {3, 3}, {4, 4}, {3, 17}, {17, 3}, {7, 9}, {9, 7},
    {15, 15}, {16, 16}, {17, 17}, {18, 5}, {23, 7}, {31, 31}, {32, 32}, {33, 33},
    {34, 4}, {47, 5}, {63, 4}, {64, 3}, {65, 6}, {127, 3}, {129, 5}, {255, 3},
    {257, 4}, {100, 100}, {333, 11}, {641, 3}, {1023, 3}, {1025, 4}, {3, 500}, {6, 300},
};
enum { NODD = (int)(sizeof odd_sizes / sizeof odd_sizes[0]) };

/* ---- step cases ------------------------------------------------------- */

/*
 * Case numbers:
 *   [0, STEP_SWEEP)                 every size 3..40 x 3..40, STEP_SWEEP_PER
 *                                   cases each (full interior, then other
 *                                   rectangles)
 *   [STEP_ODD_FIRST, ...)           STEP_ODD_PER cases on each odd_sizes entry
 *   [STEP_RANDOM_FIRST, ...)        random sizes up to 300 x 40, any rectangle,
 *                                   up to 24 steps
 *   [STEP_DRIFT_FIRST, STEP_CASES)  30 to 100 consecutive steps
 */
enum {
    STEP_SWEEP_PER = 4,
    STEP_SWEEP = 38 * 38 * STEP_SWEEP_PER,
    STEP_ODD_PER = 24,
    STEP_ODD_FIRST = STEP_SWEEP,
    STEP_RANDOM_FIRST = STEP_ODD_FIRST + NODD * STEP_ODD_PER,
    STEP_RANDOM = 20000,
    STEP_DRIFT_FIRST = STEP_RANDOM_FIRST + STEP_RANDOM,
    STEP_DRIFT = 200,
    STEP_CASES = STEP_DRIFT_FIRST + STEP_DRIFT
};

/* Whether step case n runs under --subset. */
static int step_in_subset(int n)
{
    return n < STEP_RANDOM_FIRST || n >= STEP_DRIFT_FIRST || random_in_subset(n - STEP_RANDOM_FIRST);
}

/* Whether case n of a sweep of `per` cases a size (step or refraction)
 * runs in the guarded reference check under --subset: each size's first
 * case (the whole rectangle) always, of the others (random rectangles)
 * every Nth. */
static int sweep_in_subset(int n, int per)
{
    return n % per == 0 || random_in_subset(n / per * (per - 1) + n % per - 1);
}

enum { R_FULL, R_RANDOM, R_EMPTY_X, R_EMPTY_Y, R_COLUMN, R_ROW, R_CELL, R_CORNER, R_BAND, NRECT };

typedef struct step_case {
    int n;
    int w, h;
    int x0, x1, y0, y1;
    int steps;       /* consecutive steps, buffers swapped between them */
    int pcur, pprev; /* patterns of the two buffers */
    int guard;       /* G_*: buffers of the path under test */
    uint64_t seed;   /* of the heights */
    int wave;        /* 1: a wave case, the wave model's step with k */
    rpl_wave_coef_t k;
} step_case_t;

/* A rectangle of the given kind inside the interior [1, w-1) x [1, h-1). */
static void step_rect(step_case_t *c, int kind, uint64_t *s)
{
    int w = c->w, h = c->h;
    c->x0 = 1, c->x1 = w - 1, c->y0 = 1, c->y1 = h - 1;
    switch (kind) {
    case R_RANDOM:
        c->x0 = rnd_range(s, 1, w - 1), c->x1 = rnd_range(s, c->x0, w - 1);
        c->y0 = rnd_range(s, 1, h - 1), c->y1 = rnd_range(s, c->y0, h - 1);
        break;
    case R_EMPTY_X:
        c->x0 = c->x1 = rnd_range(s, 0, 3) == 0 ? (rnd_range(s, 0, 1) ? 1 : w - 1)
                                                : rnd_range(s, 1, w - 1);
        c->y0 = rnd_range(s, 1, h - 1), c->y1 = rnd_range(s, c->y0, h - 1);
        break;
    case R_EMPTY_Y:
        c->y0 = c->y1 = rnd_range(s, 0, 3) == 0 ? (rnd_range(s, 0, 1) ? 1 : h - 1)
                                                : rnd_range(s, 1, h - 1);
        c->x0 = rnd_range(s, 1, w - 1), c->x1 = rnd_range(s, c->x0, w - 1);
        break;
    case R_COLUMN:
        c->x0 = rnd_range(s, 1, w - 2), c->x1 = c->x0 + 1;
        c->y0 = rnd_range(s, 1, h - 2), c->y1 = rnd_range(s, c->y0 + 1, h - 1);
        break;
    case R_ROW:
        c->y0 = rnd_range(s, 1, h - 2), c->y1 = c->y0 + 1;
        c->x0 = rnd_range(s, 1, w - 2), c->x1 = rnd_range(s, c->x0 + 1, w - 1);
        break;
    case R_CELL:
        c->x0 = rnd_range(s, 1, w - 2), c->x1 = c->x0 + 1;
        c->y0 = rnd_range(s, 1, h - 2), c->y1 = c->y0 + 1;
        break;
    case R_CORNER:
        c->x0 = rnd_range(s, 1, w - 2), c->y0 = rnd_range(s, 1, h - 2);
        break;
    case R_BAND:
        c->y0 = rnd_range(s, 1, h - 2), c->y1 = rnd_range(s, c->y0 + 1, h - 1);
        break;
    default:
        break;
    }
}

static void step_case_make(int n, step_case_t *c)
{
    uint64_t s = case_seed(1, n);
    int kind;
    memset(c, 0, sizeof *c);
    c->n = n;
    if (n < STEP_SWEEP) {
        int i = n / STEP_SWEEP_PER;
        c->w = 3 + i % 38;
        c->h = 3 + i / 38;
        kind = n % STEP_SWEEP_PER ? rnd_range(&s, R_RANDOM, NRECT - 1) : R_FULL;
        c->steps = rnd_range(&s, 0, 9) == 0 ? rnd_range(&s, 2, 4) : 1;
    } else if (n < STEP_RANDOM_FIRST) {
        int i = n - STEP_ODD_FIRST;
        c->w = odd_sizes[i / STEP_ODD_PER][0];
        c->h = odd_sizes[i / STEP_ODD_PER][1];
        kind = i % STEP_ODD_PER % NRECT;
        c->steps = i % STEP_ODD_PER >= NRECT ? rnd_range(&s, 2, 8) : 1;
    } else if (n < STEP_DRIFT_FIRST) {
        c->w = 3 + rnd_range(&s, 0, rnd_range(&s, 0, 1) ? 37 : 297);
        c->h = 3 + rnd_range(&s, 0, 37);
        kind = rnd_range(&s, 0, NRECT - 1);
        int r = rnd_range(&s, 0, 9);
        c->steps = r < 6 ? 1 : r < 9 ? rnd_range(&s, 2, 6) : rnd_range(&s, 7, 24);
    } else {
        c->w = rnd_range(&s, 3, 90);
        c->h = rnd_range(&s, 3, 60);
        kind = rnd_range(&s, 0, 3) ? R_FULL : R_BAND;
        c->steps = rnd_range(&s, 30, 100);
    }
    c->pcur = rnd_range(&s, 0, NPAT - 1);
    c->pprev = rnd_range(&s, 0, NPAT - 1);
    step_rect(c, kind, &s);
    c->guard = rnd_range(&s, 0, NGUARD - 1);
    c->seed = rnd_next(&s);
}

/* One step of the case's rule (classic, or the wave model's) on path k. */
static int step_with(const rpl_kernels_t *k, const step_case_t *c, int16_t *prev,
                     const int16_t *cur)
{
    if (c->wave)
        return k->step_wave(prev, cur, c->w, c->x0, c->x1, c->y0, c->y1, &c->k);
    return k->step(prev, cur, c->w, c->x0, c->x1, c->y0, c->y1);
}

/*
 * Wave cases [0, WAVE_CASES): the wave model's step (kernels/kernels.h)
 * on the geometry, patterns and buffers of step case n * STEP_CASES /
 * WAVE_CASES (so every family of sizes and rectangles), with coefficients
 * of their own: the classic ones (a = 0, b = -2^13, c = 2^12, m = 8), sets
 * rpl_wave_info makes from random parameters, and random sets anywhere in
 * the kernels' contract (a + b + 4c = 2^13, a, c >= 0, b in [-2^13, 2^13),
 * rp in [-2^13, 0], rn in [0, 2^13), m in [0, 256], their ends included).
 */
enum {
    WAVE_CASES = 9000,
    /* the first wave case on a random step case's geometry, and the first
     * on a drift case's */
    WAVE_RANDOM_FIRST = (int)(((long long)STEP_RANDOM_FIRST * WAVE_CASES + STEP_CASES - 1) / STEP_CASES),
    WAVE_DRIFT_FIRST = (int)(((long long)STEP_DRIFT_FIRST * WAVE_CASES + STEP_CASES - 1) / STEP_CASES)
};

/* Whether wave case n runs under --subset: those on the geometry of the
 * random step cases are thinned, the others run. */
static int wave_in_subset(int n)
{
    return n < WAVE_RANDOM_FIRST || n >= WAVE_DRIFT_FIRST || random_in_subset(n - WAVE_RANDOM_FIRST);
}

static void wave_case_make(int n, step_case_t *c)
{
    step_case_make((int)((long long)n * STEP_CASES / WAVE_CASES), c);
    uint64_t s = case_seed(3, n);
    rpl_wave_coef_t *k = &c->k;
    c->n = n;
    c->wave = 1;
    int kind = rnd_range(&s, 0, 9);
    if (kind == 0) {
        *k = (rpl_wave_coef_t){0, -8192, 4096, 0, 0, 8};
    } else if (kind < 5) {
        rpl_wave_info_t info;
        rpl_wave_params_t p = {0, 0, 1, 1, 1};
        do {
            p.speed = (double)rnd_range(&s, 1, 70711) / 100000.0;
            p.viscosity = rnd_range(&s, 0, 3) ? (double)rnd_range(&s, 0, 100000) / 100000.0 : 0;
            p.attenuation = rnd_range(&s, 0, 2) ? 1 - (double)rnd_range(&s, 0, 256) / 1024.0 : 1;
        } while (rpl_wave_info(&p, &info) != RPL_OK);
        *k = (rpl_wave_coef_t){info.a, info.b, info.c, info.rp, info.rn, info.m};
    } else {
        static const int ends_b[] = {-8192, -8191, 0, 8190, 8191};
        k->b = rnd_range(&s, 0, 1) ? ends_b[rnd_range(&s, 0, 4)] : rnd_range(&s, -8192, 8191);
        int cmax = (8192 - k->b) / 4;
        k->c = rnd_range(&s, 0, 2) ? rnd_range(&s, 0, cmax) : rnd_range(&s, 0, 1) * cmax;
        k->a = 8192 - k->b - 4 * k->c;
        k->rp = rnd_range(&s, 0, 1) ? -8192 * rnd_range(&s, 0, 1) : -rnd_range(&s, 0, 8192);
        k->rn = rnd_range(&s, 0, 1) ? 8191 * rnd_range(&s, 0, 1) : rnd_range(&s, 0, 8191);
        static const int ends_m[] = {0, 1, 8, 255, 256};
        k->m = rnd_range(&s, 0, 1) ? ends_m[rnd_range(&s, 0, 4)] : rnd_range(&s, 0, 256);
    }
}

static int rect_empty(int x0, int x1, int y0, int y1)
{
    return x0 == x1 || y0 == y1;
}

/* Tight guards need one step (the buffers swap roles) and some area. */
static int step_guard(const step_case_t *c)
{
    if ((c->guard == G_TIGHT_END || c->guard == G_TIGHT_START) &&
        (c->steps > 1 || rect_empty(c->x0, c->x1, c->y0, c->y1)))
        return c->guard == G_TIGHT_END ? G_END : G_START;
    return c->guard;
}

static void step_desc(const step_case_t *c, const char *path, char *buf, size_t len)
{
    char coef[96] = "";
    if (c->wave)
        snprintf(coef, sizeof coef, ", a %d b %d c %d rp %d rn %d m %d", c->k.a, c->k.b, c->k.c,
                 c->k.rp, c->k.rn, c->k.m);
    snprintf(buf, len,
             "%s case %d [path %s, %dx%d, rect x %d..%d y %d..%d (half-open), "
             "%d step%s, cur %s / prev %s, buffers %s%s]",
             c->wave ? "wave" : "step", c->n, path, c->w, c->h, c->x0, c->x1, c->y0, c->y1,
             c->steps, c->steps == 1 ? "" : "s", pat_name[c->pcur], pat_name[c->pprev],
             guard_name[step_guard(c)], coef);
}

/* The reference run: the initial buffers, then after each step k the
 * buffer written (hist + k*w*h) and whether the kernel returned nonzero. */
typedef struct step_ref {
    int16_t *cur0, *prev0, *hist;
    unsigned char *rc;
} step_ref_t;

static void step_reference(const step_case_t *c, step_ref_t *r)
{
    size_t n = (size_t)c->w * (size_t)c->h;
    uint64_t s = c->seed;
    r->cur0 = xmalloc(n * sizeof *r->cur0);
    r->prev0 = xmalloc(n * sizeof *r->prev0);
    r->hist = xmalloc((size_t)c->steps * n * sizeof *r->hist);
    r->rc = xmalloc((size_t)c->steps);
    fill_plane(r->cur0, c->w, c->h, c->pcur, &s);
    fill_plane(r->prev0, c->w, c->h, c->pprev, &s);
    int16_t *cur = xmalloc(n * sizeof *cur), *prev = xmalloc(n * sizeof *prev);
    memcpy(cur, r->cur0, n * sizeof *cur);
    memcpy(prev, r->prev0, n * sizeof *prev);
    for (int k = 0; k < c->steps; k++) {
        r->rc[k] = step_with(ref_k, c, prev, cur) != 0;
        memcpy(r->hist + (size_t)k * n, prev, n * sizeof *prev);
        int16_t *t = cur;
        cur = prev;
        prev = t;
    }
    free(cur);
    free(prev);
}

static void step_ref_free(step_ref_t *r)
{
    free(r->cur0);
    free(r->prev0);
    free(r->hist);
    free(r->rc);
}

/* First index in [lo, hi] where a and b differ, or -1. */
static long first_diff16(const int16_t *a, const int16_t *b, size_t lo, size_t hi)
{
    for (size_t i = lo; i <= hi; i++)
        if (a[i] != b[i])
            return (long)i;
    return -1;
}

/* The reference's own return value must say whether the rectangle holds
 * a nonzero cell after the step. */
static int step_ref_selfcheck(const step_case_t *c, const step_ref_t *r)
{
    size_t n = (size_t)c->w * (size_t)c->h;
    for (int k = 0; k < c->steps; k++) {
        int any = 0;
        const int16_t *p = r->hist + (size_t)k * n;
        for (int y = c->y0; y < c->y1; y++)
            for (int x = c->x0; x < c->x1; x++)
                any |= p[(size_t)y * (size_t)c->w + (size_t)x] != 0;
        if (any != r->rc[k]) {
            printf("REFERENCE %s case %d, step %d: c returned %d with %s cell in the "
                   "rectangle\n", c->wave ? "wave" : "step", c->n, k + 1, r->rc[k],
                   any ? "a nonzero" : "no nonzero");
            return 1;
        }
    }
    return 0;
}

/* Runs the case on one path; 0 if it matches the reference. */
static int step_run_path(const step_case_t *c, const step_ref_t *r, const rpl_kernels_t *k,
                         int verbose)
{
    const int w = c->w, guard = step_guard(c);
    const size_t n = (size_t)w * (size_t)c->h;
    size_t clo = 0, chi = n - 1, plo = 0, phi = n - 1;
    char desc[400];
    step_desc(c, k->name, desc, sizeof desc);
    if (c->wave ? SAME_AS_REF(k, step_wave) : SAME_AS_REF(k, step)) {
        say_same(verbose, desc, k);
        return 0;
    }
    crash_set(c->wave ? "wave" : "step", c->n, desc);
    if (verbose)
        printf("%s\n", desc);
    if (guard == G_TIGHT_END || guard == G_TIGHT_START) {
        clo = (size_t)(c->y0 - 1) * (size_t)w + (size_t)(c->x0 - 1);
        chi = (size_t)c->y1 * (size_t)w + (size_t)c->x1;
        plo = (size_t)c->y0 * (size_t)w + (size_t)c->x0;
        phi = (size_t)(c->y1 - 1) * (size_t)w + (size_t)(c->x1 - 1);
    }
    slice_t sc, sp;
    int16_t *cur = slice_alloc(&sc, 0, clo, chi, sizeof *cur, guard, r->cur0);
    int16_t *prev = slice_alloc(&sp, 1, plo, phi, sizeof *prev, guard, r->prev0);
    size_t wlo = plo, whi = phi; /* what the buffer written by the step holds */
    size_t rlo = clo, rhi = chi; /* what the buffer read holds */
    int bad = 0;
    for (int s = 0; s < c->steps && !bad; s++) {
        const int16_t *want = r->hist + (size_t)s * n;
        const int16_t *want_cur = s == 0 ? r->cur0 : r->hist + (size_t)(s - 1) * n;
        int rc = step_with(k, c, prev, cur) != 0;
        long d = first_diff16(prev, want, wlo, whi);
        long dc = first_diff16(cur, want_cur, rlo, rhi);
        if (d >= 0 || dc >= 0 || rc != r->rc[s]) {
            bad = 1;
            printf("MISMATCH %s, after step %d:\n", desc, s + 1);
            if (d >= 0)
                printf("  prev differs at (%ld, %ld): c %d, %s %d%s\n", d % w, d / w, want[d],
                       k->name, prev[d],
                       d % w >= c->x0 && d % w < c->x1 && d / w >= c->y0 && d / w < c->y1
                           ? "" : " (outside the rectangle)");
            if (dc >= 0)
                printf("  cur was written at (%ld, %ld): %d became %d\n", dc % w, dc / w,
                       want_cur[dc], cur[dc]);
            if (rc != r->rc[s])
                printf("  returned %s, c returned %s\n", rc ? "nonzero" : "0",
                       r->rc[s] ? "nonzero" : "0");
            printf("  replay: test_paths --case %s %d\n", c->wave ? "wave" : "step", c->n);
        }
        int16_t *t = cur;
        cur = prev;
        prev = t;
        size_t a = wlo, b = whi;
        wlo = rlo, whi = rhi, rlo = a, rhi = b;
    }
    if (verbose && !bad)
        printf("  %s: identical over %d step%s\n", k->name, c->steps, c->steps == 1 ? "" : "s");
    slice_free(&sc);
    slice_free(&sp);
    return bad;
}

/* A pinned reference CRC (below) and what it was taken over. */
typedef struct ref_crc {
    uint32_t crc;
    unsigned long long bytes;
    int ncases;
    int next; /* the family's case the sum has reached; -1 once it missed one */
} ref_crc_t;

/* The reference CRCs taken along the way: each family's tests run its
 * cases in order from case 0, and add each reference they make to the
 * family's sum, so that the pinned-CRC test after them need not make every
 * reference again (it did, a third of the suite's time); if the cases did
 * not all run in order (a test stopped early), it makes them again. */
static ref_crc_t step_sum, wave_sum, refract_sum;

/* Whether a run of cases [first, ...) can add to the sum; sum_done says
 * where it ended (last: every case of the subset added, else none more). */
static int sum_follows(const ref_crc_t *sum, int first)
{
    return sum && sum->next == first;
}

static void sum_done(ref_crc_t *sum, int follows, int completed, int last)
{
    if (sum)
        sum->next = follows && completed ? last : -1;
}

/* Adds a step or wave case's reference: each step's cells, then its answer. */
static void step_ref_crc_add(ref_crc_t *sum, const step_case_t *c, const step_ref_t *r)
{
    size_t cells = (size_t)c->w * (size_t)c->h;
    for (int k = 0; k < c->steps; k++) {
        sum->crc = crc_plane(sum->crc, r->hist + (size_t)k * cells, cells);
        sum->crc = crc_bytes(sum->crc, &r->rc[k], 1);
        sum->bytes += 2 * cells + 1;
    }
    sum->ncases++;
}

/* Runs cases [first, last) on the given paths (those of --subset; with
 * thin_sweep, of the sweep's random rectangles every Nth only); fails the
 * test on any mismatch, after reporting up to ten of them. */
static void cases_run(int first, int last, const rpl_kernels_t *const *paths, int npaths,
                      int wave, int thin_sweep)
{
    int bad = 0, n = first;
    ref_crc_t *sum = thin_sweep ? NULL : wave ? &wave_sum : &step_sum;
    int follows = sum_follows(sum, first);
    crash_hook_on();
    for (; n < last; n++) {
        step_case_t c;
        step_ref_t r;
        if (wave ? !wave_in_subset(n) : !step_in_subset(n))
            continue;
        if (thin_sweep && !wave && n < STEP_SWEEP && !sweep_in_subset(n, STEP_SWEEP_PER))
            continue;
        if (wave)
            wave_case_make(n, &c);
        else
            step_case_make(n, &c);
        step_reference(&c, &r);
        if (follows)
            step_ref_crc_add(sum, &c, &r);
        bad += step_ref_selfcheck(&c, &r);
        for (int p = 0; p < npaths && bad < 10; p++)
            bad += step_run_path(&c, &r, paths[p], 0);
        step_ref_free(&r);
        if (bad >= 10) {
            printf("(stopping after %d mismatches)\n", bad);
            break;
        }
    }
    sum_done(sum, follows, n >= last, last);
    crash_hook_off();
    guard_slots_release();
    if (bad)
        fail_msg("%d mismatches in %s cases %d..%d", bad, wave ? "wave" : "step", first,
                 last - 1);
}

static void step_cases(int first, int last, const rpl_kernels_t *const *paths, int npaths)
{
    cases_run(first, last, paths, npaths, 0, 0);
}

static void test_wave_cases(void **state)
{
    (void)state;
    cases_run(0, WAVE_CASES, simd, nsimd, 1, 0);
}

static void test_step_size_sweep(void **state)
{
    (void)state;
    step_cases(0, STEP_SWEEP, simd, nsimd);
}

static void test_step_odd_and_large_sizes(void **state)
{
    (void)state;
    step_cases(STEP_ODD_FIRST, STEP_RANDOM_FIRST, simd, nsimd);
}

static void test_step_random(void **state)
{
    (void)state;
    step_cases(STEP_RANDOM_FIRST, STEP_DRIFT_FIRST, simd, nsimd);
}

static void test_step_drift(void **state)
{
    (void)state;
    step_cases(STEP_DRIFT_FIRST, STEP_CASES, simd, nsimd);
}

/*
 * The reference pinned: CRC-32 (see crc_bytes) over, for step cases 0 to
 * STEP_CASES-1 in order and each of their steps in order, the w*h cells of
 * the buffer the "c" kernel wrote (int16, little-endian), then one byte, 1
 * if it returned nonzero, else 0.  Only rpl_kernels_get("c") and the case
 * generator take part, so the value is the same on every machine, path
 * and RIPPLE_SIMD setting.  It was obtained by running this test once with
 * the constant at 0 and copying the printed value; the same value came out
 * of a build whose rpl_step_c was replaced by an independent rewrite of the
 * rule (floor divisions instead of shifts, long arithmetic), of a SIMD=0
 * build, and of runs with RIPPLE_SIMD=c, sse2 and avx2.  If this fails, the
 * scalar rule or the case generator (or the case counts) changed: update
 * the constant only for an intended change of the specification.
 */
#define STEP_REF_CRC 0x51E8EC49u

/* The same over the cases of --subset 4, obtained the same way from a
 * native build whose full CRC above matched; and over those of --subset
 * 16, obtained the same way (the test run with --subset 16 natively, the
 * constant at 0, the printed value copied) from a native build whose full
 * CRCs (step, wave, refraction) all matched. */
#define STEP_REF_CRC_SUBSET4 0x2DA82C60u
#define STEP_REF_CRC_SUBSET16 0x0E3DA65Du

/* The pinned CRC for the current subset: full, 4 or 16 (else the test skips). */
static uint32_t pinned_crc(uint32_t full, uint32_t s4, uint32_t s16)
{
    return subset == 1 ? full : subset == 4 ? s4 : s16;
}

static void test_step_reference_crc(void **state)
{
    (void)state;
    uint32_t want = pinned_crc(STEP_REF_CRC, STEP_REF_CRC_SUBSET4, STEP_REF_CRC_SUBSET16);
    if (subset != 1 && subset != 4 && subset != 16)
        skip(); /* no CRC pinned for this subset */
    ref_crc_t sum = step_sum;
    if (sum.next != STEP_CASES) { /* not taken along the way: the references again */
        memset(&sum, 0, sizeof sum);
        for (int n = 0; n < STEP_CASES; n++) {
            step_case_t c;
            step_ref_t r;
            if (!step_in_subset(n))
                continue;
            step_case_make(n, &c);
            step_reference(&c, &r);
            step_ref_crc_add(&sum, &c, &r);
            step_ref_free(&r);
        }
    }
    uint32_t crc = sum.crc;
    printf("reference step CRC-32: 0x%08X over %d cases, %llu bytes\n", (unsigned)crc,
           sum.ncases, sum.bytes);
    if (crc != want)
        fail_msg("the \"c\" step outputs have CRC-32 0x%08X, pinned 0x%08X: the scalar rule "
                 "(or the case generator) changed",
                 (unsigned)crc, (unsigned)want);
}

/*
 * The wave model's reference pinned the same way: CRC-32 over wave cases
 * 0 to WAVE_CASES-1 (those of --subset N only), each step's buffer written by the "c" kernel and its
 * answer.  Obtained by running this test once with the constant at 0 and
 * copying the printed value; the same value came out of a build whose "c"
 * wave kernel was replaced by an independent rewrite of the rule (64-bit
 * arithmetic, floor divisions instead of shifts), and every path matched
 * that rewrite too.  If this fails, the scalar wave rule or the wave case
 * generator changed: update the constant only for an intended change of
 * the specification.
 */
#define WAVE_REF_CRC 0xAB4658B3u

/* The same over the wave cases of --subset 4 and of --subset 16, obtained
 * as STEP_REF_CRC_SUBSET16 was (native build, full CRCs all matching, the
 * test run with --subset N and the constant at 0, the printed value
 * copied). */
#define WAVE_REF_CRC_SUBSET4 0xC8E00A9Fu
#define WAVE_REF_CRC_SUBSET16 0xBE7ADE3Eu

static void test_wave_reference_crc(void **state)
{
    (void)state;
    uint32_t want = pinned_crc(WAVE_REF_CRC, WAVE_REF_CRC_SUBSET4, WAVE_REF_CRC_SUBSET16);
    if (subset != 1 && subset != 4 && subset != 16)
        skip(); /* no CRC pinned for this subset */
    ref_crc_t sum = wave_sum;
    if (sum.next != WAVE_CASES) { /* not taken along the way: the references again */
        memset(&sum, 0, sizeof sum);
        for (int n = 0; n < WAVE_CASES; n++) {
            step_case_t c;
            step_ref_t r;
            if (!wave_in_subset(n))
                continue;
            wave_case_make(n, &c);
            step_reference(&c, &r);
            step_ref_crc_add(&sum, &c, &r);
            step_ref_free(&r);
        }
    }
    uint32_t crc = sum.crc;
    printf("reference wave CRC-32: 0x%08X over %d cases, %llu bytes\n", (unsigned)crc,
           sum.ncases, sum.bytes);
    if (crc != want)
        fail_msg("the \"c\" wave step outputs have CRC-32 0x%08X, pinned 0x%08X: the scalar "
                 "wave rule (or the wave case generator) changed",
                 (unsigned)crc, (unsigned)want);
}

static void test_crc32_check_value(void **state)
{
    (void)state;
    const char *s = "123456789";
    assert_int_equal(crc_bytes(0, (const unsigned char *)s, 9), 0xCBF43926u);
    int16_t v[2] = {0x0102, -2};
    unsigned char le[4] = {0x02, 0x01, 0xFE, 0xFF};
    assert_int_equal(crc_plane(0, v, 2), crc_bytes(0, le, 4));
}

/* The cases' generator: rnd_range takes rnd_next's value modulo the span
 * by rnd_mod, which must give the plain 64-bit remainder (the cases, and
 * so the pinned CRCs, stand on it): for every span up to 1024 (the cases
 * draw from those, powers of two among them, which rnd_mod takes apart),
 * the 1024 below 2^16 and a few past it (where it changes its way again),
 * and random ones between; values whose 16-bit digits
 * sit at their extremes, and random ones. */
static void test_rnd_mod(void **state)
{
    (void)state;
    static const uint64_t digit[] = {0, 1, 0x7FFF, 0x8000, 0xFFFE, 0xFFFF};
    enum { ND = sizeof digit / sizeof digit[0] };
    uint64_t s = case_seed(9, 0);
    for (int n = 0; n < 2 * 1024 + 3 + 512; n++) {
        uint64_t m = n < 1024 ? (uint64_t)n + 1
                     : n < 2 * 1024 + 3 ? 0x10000u - 2 * 1024 + (uint64_t)n
                                        : 1024 + rnd_next(&s) % (0x10000u - 2 * 1024);
        for (int i = 0; i < ND * ND; i++) {
            uint64_t a = digit[i % ND], b = digit[i / ND];
            uint64_t x = a << 48 | b << 32 | a << 16 | b;
            if (rnd_mod(x, m) != x % m)
                fail_msg("rnd_mod(0x%016llX, %llu) = %llu, not %llu", (unsigned long long)x,
                         (unsigned long long)m, (unsigned long long)rnd_mod(x, m),
                         (unsigned long long)(x % m));
        }
        for (int i = 0; i < 4; i++) {
            uint64_t x = rnd_next(&s);
            if (rnd_mod(x, m) != x % m)
                fail_msg("rnd_mod(0x%016llX, %llu) = %llu, not %llu", (unsigned long long)x,
                         (unsigned long long)m, (unsigned long long)rnd_mod(x, m),
                         (unsigned long long)(x % m));
        }
    }
    assert_true(rnd_mod(UINT64_MAX, 0x100000000ull) == 0xFFFFFFFFu);
}

/* ---- refraction cases ------------------------------------------------- */

/*
 * Case numbers:
 *   [0, RF_SWEEP)            every size 3..40 x 3..40, RF_SWEEP_PER cases each
 *   [RF_ODD_FIRST, ...)      RF_ODD_PER cases on each odd_sizes entry
 *   [RF_RANDOM_FIRST, ...)   random sizes up to 300 x 40
 * Strength is n % 65 and shading (n / 65) % 2, so every strength meets
 * both shadings many times over.  Every case is rendered in all three
 * formats, each from its own background: XRGB8888 pixels, RGB565 pixels
 * made from them, and palette indices with a shade table of random bytes
 * (the kernels must only look entries up, whatever they hold).
 */
enum {
    RF_SWEEP_PER = 2,
    RF_SWEEP = 38 * 38 * RF_SWEEP_PER,
    RF_ODD_PER = 24,
    RF_ODD_FIRST = RF_SWEEP,
    RF_RANDOM_FIRST = RF_ODD_FIRST + NODD * RF_ODD_PER,
    RF_RANDOM = 12000,
    RF_CASES = RF_RANDOM_FIRST + RF_RANDOM
};

enum {
    F_FULL, F_RANDOM, F_EMPTY, F_COLUMN, F_ROW, F_TOP, F_BOTTOM, F_LEFT, F_RIGHT,
    F_INTERIOR, F_BAND, NFRECT
};

enum { BG_RANDOM, BG_EDGES, NBG };
static const char *const bg_name[NBG] = {"random", "saturating"};

enum { NFMT = 3 };
static const char *const fmt_name[NFMT] = {"XRGB8888", "RGB565", "INDEX8"};
static const size_t fmt_size[NFMT] = {4, 2, 1};
enum { SHADE_LEN = RPL_SHADE_LEVELS * 256 };

static rpl_refract_fn fmt_kernel(const rpl_kernels_t *k, int f)
{
    return f == 0 ? k->refract_xrgb8888 : f == 1 ? k->refract_rgb565 : k->refract_index8;
}

typedef struct refract_case {
    int n;
    int w, h;
    int x0, x1, y0, y1;
    int pitch_px; /* framebuffer pitch in pixels, >= w */
    int strength, shading;
    int hpat, bgpat, guard;
    uint64_t seed;
} refract_case_t;

static void refract_rect(refract_case_t *c, int kind, uint64_t *s)
{
    int w = c->w, h = c->h;
    c->x0 = 0, c->x1 = w, c->y0 = 0, c->y1 = h;
    switch (kind) {
    case F_RANDOM:
        c->x0 = rnd_range(s, 0, w), c->x1 = rnd_range(s, c->x0, w);
        c->y0 = rnd_range(s, 0, h), c->y1 = rnd_range(s, c->y0, h);
        break;
    case F_EMPTY:
        if (rnd_range(s, 0, 1)) {
            c->x0 = c->x1 = rnd_range(s, 0, w);
            c->y0 = rnd_range(s, 0, h), c->y1 = rnd_range(s, c->y0, h);
        } else {
            c->y0 = c->y1 = rnd_range(s, 0, h);
            c->x0 = rnd_range(s, 0, w), c->x1 = rnd_range(s, c->x0, w);
        }
        break;
    case F_COLUMN:
        c->x0 = rnd_range(s, 0, w - 1), c->x1 = c->x0 + 1;
        c->y0 = rnd_range(s, 0, h - 1), c->y1 = rnd_range(s, c->y0 + 1, h);
        break;
    case F_ROW:
        c->y0 = rnd_range(s, 0, h - 1), c->y1 = c->y0 + 1;
        c->x0 = rnd_range(s, 0, w - 1), c->x1 = rnd_range(s, c->x0 + 1, w);
        break;
    case F_TOP: c->y1 = 1; break;
    case F_BOTTOM: c->y0 = h - 1; break;
    case F_LEFT: c->x1 = 1; break;
    case F_RIGHT: c->x0 = w - 1; break;
    case F_INTERIOR: c->x0 = 1, c->x1 = w - 1, c->y0 = 1, c->y1 = h - 1; break;
    case F_BAND: c->y0 = rnd_range(s, 0, h - 1), c->y1 = rnd_range(s, c->y0 + 1, h); break;
    default: break;
    }
}

static void refract_case_make(int n, refract_case_t *c)
{
    uint64_t s = case_seed(2, n);
    int kind;
    memset(c, 0, sizeof *c);
    c->n = n;
    if (n < RF_SWEEP) {
        int i = n / RF_SWEEP_PER;
        c->w = 3 + i % 38;
        c->h = 3 + i / 38;
        kind = n % RF_SWEEP_PER == 0 ? F_FULL : rnd_range(&s, 0, NFRECT - 1);
    } else if (n < RF_RANDOM_FIRST) {
        int i = n - RF_ODD_FIRST;
        c->w = odd_sizes[i / RF_ODD_PER][0];
        c->h = odd_sizes[i / RF_ODD_PER][1];
        kind = i % RF_ODD_PER < NFRECT ? i % RF_ODD_PER : rnd_range(&s, 0, NFRECT - 1);
    } else {
        c->w = 3 + rnd_range(&s, 0, rnd_range(&s, 0, 1) ? 37 : 297);
        c->h = 3 + rnd_range(&s, 0, 37);
        kind = rnd_range(&s, 0, 2) == 0 ? F_FULL : rnd_range(&s, 0, NFRECT - 1);
    }
    c->strength = n % (RPL_STRENGTH_MAX + 1);
    c->shading = n / (RPL_STRENGTH_MAX + 1) % 2;
    c->pitch_px = rnd_range(&s, 0, 1) ? c->w : c->w + rnd_range(&s, 1, 17);
    c->hpat = rnd_range(&s, 0, NPAT - 1);
    c->bgpat = rnd_range(&s, 0, NBG - 1);
    refract_rect(c, kind, &s);
    c->guard = rnd_range(&s, 0, NGUARD - 1);
    if ((c->guard == G_TIGHT_END || c->guard == G_TIGHT_START) &&
        rect_empty(c->x0, c->x1, c->y0, c->y1))
        c->guard = c->guard == G_TIGHT_END ? G_END : G_START;
    c->seed = rnd_next(&s);
}

static void refract_desc(const refract_case_t *c, const char *path, int f, char *buf, size_t len)
{
    snprintf(buf, len,
             "refract case %d [path %s, %s, %dx%d, pitch %d px, rect x %d..%d y %d..%d "
             "(half-open), strength %d, shading %s, heights %s, background %s, buffers %s]",
             c->n, path, fmt_name[f], c->w, c->h, c->pitch_px, c->x0, c->x1, c->y0, c->y1,
             c->strength, c->shading ? "on" : "off", pat_name[c->hpat], bg_name[c->bgpat],
             guard_name[c->guard]);
}

/* What a framebuffer holds before rendering: a pattern no pixel is likely
 * to reproduce by chance, different at every index (truncated to the
 * pixel size). */
static uint32_t fb_guard(size_t i)
{
    return 0xA5C3E187u ^ (uint32_t)(i * 2654435761u);
}

/* Pixel i of a framebuffer of format f, and setting it. */
static uint32_t px_get(const void *fb, int f, size_t i)
{
    return f == 0 ? ((const uint32_t *)fb)[i]
           : f == 1 ? ((const uint16_t *)fb)[i]
                    : ((const uint8_t *)fb)[i];
}

static void px_set(void *fb, int f, size_t i, uint32_t v)
{
    if (f == 0)
        ((uint32_t *)fb)[i] = v;
    else if (f == 1)
        ((uint16_t *)fb)[i] = (uint16_t)v;
    else
        ((uint8_t *)fb)[i] = (uint8_t)v;
}

static uint8_t bg_channel(uint64_t *s)
{
    static const uint8_t v[] = {0, 1, 2, 95, 96, 97, 158, 159, 160, 253, 254, 255};
    return rnd_range(s, 0, 3) == 0 ? (uint8_t)rnd_range(s, 0, 255)
                                   : v[rnd_range(s, 0, (int)sizeof v - 1)];
}

/* The shade table every case uses: random bytes, made once. */
static uint8_t shade_random[SHADE_LEN];

static void shade_init(void)
{
    uint64_t s = case_seed(3, 0);
    for (size_t i = 0; i < SHADE_LEN; i++)
        shade_random[i] = (uint8_t)rnd_next(&s);
}

typedef struct refract_ref {
    int16_t *hts;
    uint32_t *bg;
    uint16_t *bg16;
    uint8_t *bg8;
    void *fb[NFMT]; /* pitch_px * h pixels of each format */
    int32_t *rows_mem; /* the jobs' row table (rpl_refract_rows) */
    const int32_t *rows;
} refract_ref_t;

static rpl_refract_job_t refract_job(const refract_case_t *c, int f, const int16_t *hts,
                                     const void *bg, const uint8_t *shade, void *fb,
                                     const int32_t *rows)
{
    rpl_refract_job_t job = {hts, NULL, fb, (ptrdiff_t)c->pitch_px * (ptrdiff_t)fmt_size[f],
                             c->w, c->h, c->strength, c->shading, NULL, NULL, NULL, rows};
    if (f == 0)
        job.bg = bg;
    else if (f == 1)
        job.bg16 = bg;
    else
        job.bg8 = bg, job.shade8 = shade;
    return job;
}

static const void *ref_bg(const refract_ref_t *r, int f)
{
    return f == 0 ? (const void *)r->bg : f == 1 ? (const void *)r->bg16 : (const void *)r->bg8;
}

static void refract_reference(const refract_case_t *c, refract_ref_t *r)
{
    size_t n = (size_t)c->w * (size_t)c->h, nfb = (size_t)c->pitch_px * (size_t)c->h;
    uint64_t s = c->seed;
    r->hts = xmalloc(n * sizeof *r->hts);
    r->bg = xmalloc(n * sizeof *r->bg);
    r->bg16 = xmalloc(n * sizeof *r->bg16);
    r->bg8 = xmalloc(n * sizeof *r->bg8);
    r->rows_mem = xmalloc(RPL_ROWS_LEN(c->h) * sizeof *r->rows_mem);
    r->rows = rpl_refract_rows(r->rows_mem, c->w, c->h);
    fill_plane(r->hts, c->w, c->h, c->hpat, &s);
    for (size_t i = 0; i < n; i++) {
        if (c->bgpat == BG_RANDOM)
            r->bg[i] = (uint32_t)rnd_next(&s);
        else
            r->bg[i] = (uint32_t)rnd_range(&s, 0, 255) << 24 | (uint32_t)bg_channel(&s) << 16 |
                       (uint32_t)bg_channel(&s) << 8 | bg_channel(&s);
    }
    /* RGB565 by truncation (any value will do; saturating channels stay
     * at the ends), indices from the bytes of the same pixels */
    for (size_t i = 0; i < n; i++) {
        uint32_t v = r->bg[i];
        r->bg16[i] = (uint16_t)((v >> 19 & 0x1F) << 11 | (v >> 10 & 0x3F) << 5 | (v >> 3 & 0x1F));
        r->bg8[i] = (uint8_t)(v ^ v >> 8 ^ v >> 24);
    }
    for (int f = 0; f < NFMT; f++) {
        r->fb[f] = xmalloc(nfb * fmt_size[f]);
        for (size_t i = 0; i < nfb; i++)
            px_set(r->fb[f], f, i, fb_guard(i));
        rpl_refract_job_t job =
            refract_job(c, f, r->hts, ref_bg(r, f), shade_random, r->fb[f], r->rows);
        fmt_kernel(ref_k, f)(&job, c->x0, c->x1, c->y0, c->y1);
    }
}

static void refract_ref_free(refract_ref_t *r)
{
    free(r->hts);
    free(r->bg);
    free(r->bg16);
    free(r->bg8);
    free(r->rows_mem);
    for (int f = 0; f < NFMT; f++)
        free(r->fb[f]);
}

/* The reference must leave every pixel outside the rectangle alone. */
static int refract_ref_selfcheck(const refract_case_t *c, const refract_ref_t *r)
{
    size_t nfb = (size_t)c->pitch_px * (size_t)c->h;
    for (int f = 0; f < NFMT; f++)
        for (size_t i = 0; i < nfb; i++) {
            int x = (int)(i % (size_t)c->pitch_px), y = (int)(i / (size_t)c->pitch_px);
            int inside = x >= c->x0 && x < c->x1 && y >= c->y0 && y < c->y1;
            uint32_t g = fb_guard(i) & (f == 0 ? 0xFFFFFFFFu : f == 1 ? 0xFFFFu : 0xFFu);
            if (!inside && px_get(r->fb[f], f, i) != g) {
                printf("REFERENCE refract case %d (%s) wrote pixel (%d, %d) outside its "
                       "rectangle\n", c->n, fmt_name[f], x, y);
                return 1;
            }
        }
    return 0;
}

/* Runs the case on one path in format f; 0 if it matches the reference. */
static int refract_run_format(const refract_case_t *c, const refract_ref_t *r,
                              const rpl_kernels_t *k, int f, int verbose)
{
    const int w = c->w, h = c->h, pp = c->pitch_px;
    const size_t n = (size_t)w * (size_t)h, nfb = (size_t)pp * (size_t)h, px = fmt_size[f];
    size_t hlo = 0, hhi = n - 1, flo = 0, fhi = nfb - 1;
    char desc[400];
    refract_desc(c, k->name, f, desc, sizeof desc);
    if (k != ref_k && fmt_kernel(k, f) == fmt_kernel(ref_k, f)) {
        say_same(verbose, desc, k);
        return 0;
    }
    crash_set("refract", c->n, desc);
    if (verbose)
        printf("%s\n", desc);
    if (c->guard == G_TIGHT_END || c->guard == G_TIGHT_START) {
        int xl = imax(c->x0 - 1, 0), xh = imin(c->x1, w - 1);
        int yl = imax(c->y0 - 1, 0), yh = imin(c->y1, h - 1);
        hlo = (size_t)yl * (size_t)w + (size_t)xl;
        hhi = (size_t)yh * (size_t)w + (size_t)xh;
        flo = (size_t)c->y0 * (size_t)pp + (size_t)c->x0;
        fhi = (size_t)(c->y1 - 1) * (size_t)pp + (size_t)(c->x1 - 1);
    }
    int bguard = c->guard == G_HEAP ? G_HEAP
                 : c->guard == G_END || c->guard == G_TIGHT_END ? G_END : G_START;
    slice_t sh, sb, sf, ss = {NULL, NULL};
    const int16_t *hts = slice_alloc(&sh, 0, hlo, hhi, sizeof *hts, c->guard, r->hts);
    const void *bg = slice_alloc(&sb, 1, 0, n - 1, px, bguard, ref_bg(r, f));
    void *fb = slice_alloc(&sf, 2, flo, fhi, px, c->guard, NULL);
    const uint8_t *shade = NULL;
    if (f == 2)
        shade = slice_alloc(&ss, 3, 0, SHADE_LEN - 1, 1, bguard, shade_random);
    for (size_t i = flo; i <= fhi; i++)
        px_set(fb, f, i, fb_guard(i));
    rpl_refract_job_t job = refract_job(c, f, hts, bg, shade, fb, r->rows);
    fmt_kernel(k, f)(&job, c->x0, c->x1, c->y0, c->y1);

    int bad = 0;
    for (size_t i = flo; i <= fhi; i++) {
        uint32_t got = px_get(fb, f, i), want = px_get(r->fb[f], f, i);
        if (got != want) {
            int x = (int)(i % (size_t)pp), y = (int)(i / (size_t)pp);
            int inside = x >= c->x0 && x < c->x1 && y >= c->y0 && y < c->y1;
            printf("MISMATCH %s:\n  pixel (%d, %d)%s: c 0x%0*X, %s 0x%0*X\n", desc, x, y,
                   x >= w ? " (pitch padding)" : inside ? "" : " (outside the rectangle)",
                   (int)(2 * px), (unsigned)want, k->name, (int)(2 * px), (unsigned)got);
            bad = 1;
            break;
        }
    }
    if (memcmp(hts + hlo, r->hts + hlo, (hhi - hlo + 1) * sizeof *hts) != 0 ||
        memcmp(bg, ref_bg(r, f), n * px) != 0 ||
        (shade && memcmp(shade, shade_random, SHADE_LEN) != 0)) {
        printf("MISMATCH %s:\n  the kernel wrote into its inputs\n", desc);
        bad = 1;
    }
    if (bad)
        printf("  replay: test_paths --case refract %d\n", c->n);
    else if (verbose)
        printf("  %s: identical\n", k->name);
    slice_free(&sh);
    slice_free(&sb);
    slice_free(&sf);
    slice_free(&ss);
    return bad;
}

/* Runs the case on one path in every format; 0 if all match. */
static int refract_run_path(const refract_case_t *c, const refract_ref_t *r,
                            const rpl_kernels_t *k, int verbose)
{
    int bad = 0;
    for (int f = 0; f < NFMT && !bad; f++)
        bad += refract_run_format(c, r, k, f, verbose);
    return bad;
}

/* Adds a refraction case's reference: its framebuffer in each format,
 * pitch padding and all, little-endian. */
static void refract_ref_crc_add(ref_crc_t *sum, const refract_case_t *c, const refract_ref_t *r)
{
    size_t nfb = (size_t)c->pitch_px * (size_t)c->h;
    for (int f = 0; f < NFMT; f++)
        for (size_t i = 0; i < nfb; i++) {
            uint32_t v = px_get(r->fb[f], f, i);
            unsigned char le[4] = {(unsigned char)v, (unsigned char)(v >> 8),
                                   (unsigned char)(v >> 16), (unsigned char)(v >> 24)};
            sum->crc = crc_bytes(sum->crc, le, fmt_size[f]);
            sum->bytes += fmt_size[f];
        }
    sum->ncases++;
}

/* Runs refraction cases [first, last) on the given paths (those of
 * --subset; with thin_sweep, of the sweep's random rectangles every Nth
 * only, see sweep_in_subset). */
static void refract_cases_thin(int first, int last, const rpl_kernels_t *const *paths,
                               int npaths, int thin_sweep)
{
    int bad = 0, n = first;
    ref_crc_t *sum = thin_sweep ? NULL : &refract_sum;
    int follows = sum_follows(sum, first);
    crash_hook_on();
    for (; n < last; n++) {
        refract_case_t c;
        refract_ref_t r;
        if (n >= RF_RANDOM_FIRST && !random_in_subset(n - RF_RANDOM_FIRST))
            continue; /* not in --subset */
        if (thin_sweep && n < RF_SWEEP && !sweep_in_subset(n, RF_SWEEP_PER))
            continue;
        refract_case_make(n, &c);
        refract_reference(&c, &r);
        if (follows)
            refract_ref_crc_add(sum, &c, &r);
        bad += refract_ref_selfcheck(&c, &r);
        for (int p = 0; p < npaths && bad < 10; p++)
            bad += refract_run_path(&c, &r, paths[p], 0);
        refract_ref_free(&r);
        if (bad >= 10) {
            printf("(stopping after %d mismatches)\n", bad);
            break;
        }
    }
    sum_done(sum, follows, n >= last, last);
    crash_hook_off();
    guard_slots_release();
    if (bad)
        fail_msg("%d mismatches in refraction cases %d..%d", bad, first, last - 1);
}

static void refract_cases(int first, int last, const rpl_kernels_t *const *paths, int npaths)
{
    refract_cases_thin(first, last, paths, npaths, 0);
}

/*
 * The refraction's reference pinned like the step's: CRC-32 over, for
 * refraction cases 0 to RF_CASES-1 in order (those of --subset N only),
 * the framebuffers the "c" kernels wrote in XRGB8888, RGB565 and INDEX8,
 * pitch padding and the untouched pixels around the rectangle included
 * (little-endian).  Only the scalar kernels and the case generator take
 * part.  It was obtained by running this test with the constants at 0 on
 * the scalar kernels as they were before they were rewritten for fewer
 * instructions, so it holds every later change of refract_c.c to the same
 * bytes; every other path is held to "c" by the cases themselves.
 */
#define REFRACT_REF_CRC 0xFBF6EAADu
/* Over the cases of --subset 4 and 16: obtained as STEP_REF_CRC_SUBSET16 was. */
#define REFRACT_REF_CRC_SUBSET4 0x5DFAB4CFu
#define REFRACT_REF_CRC_SUBSET16 0x835B62BBu

static void test_refract_reference_crc(void **state)
{
    (void)state;
    uint32_t want = pinned_crc(REFRACT_REF_CRC, REFRACT_REF_CRC_SUBSET4, REFRACT_REF_CRC_SUBSET16);
    if (subset != 1 && subset != 4 && subset != 16)
        skip(); /* no CRC pinned for this subset */
    ref_crc_t sum = refract_sum;
    if (sum.next != RF_CASES) { /* not taken along the way: the references again */
        memset(&sum, 0, sizeof sum);
        for (int n = 0; n < RF_CASES; n++) {
            refract_case_t c;
            refract_ref_t r;
            if (n >= RF_RANDOM_FIRST && (n - RF_RANDOM_FIRST) % subset != 0)
                continue;
            refract_case_make(n, &c);
            refract_reference(&c, &r);
            refract_ref_crc_add(&sum, &c, &r);
            refract_ref_free(&r);
        }
    }
    uint32_t crc = sum.crc;
    printf("reference refraction CRC-32: 0x%08X over %d cases, %llu bytes\n", (unsigned)crc,
           sum.ncases, sum.bytes);
    if (crc != want)
        fail_msg("the \"c\" refraction outputs have CRC-32 0x%08X, pinned 0x%08X: the scalar "
                 "kernels (or the case generator) changed",
                 (unsigned)crc, (unsigned)want);
}

static void test_refract_size_sweep(void **state)
{
    (void)state;
    refract_cases(0, RF_SWEEP, simd, nsimd);
}

static void test_refract_odd_and_large_sizes(void **state)
{
    (void)state;
    refract_cases(RF_ODD_FIRST, RF_RANDOM_FIRST, simd, nsimd);
}

static void test_refract_random(void **state)
{
    (void)state;
    refract_cases(RF_RANDOM_FIRST, RF_CASES, simd, nsimd);
}

/* ---- the side view's deep water --------------------------------------- */

/*
 * Case n: a row of len pixels, the kernel asked for [x0, x1), tables and
 * an entry drawn from the case's seed, extremes among them (the
 * gradient's entry at its bounds, light and pixels of 0 and 255, the
 * light's offset at 0 and 255).  The scalar kernel is checked against
 * the rule written here from kernels.h, every path against the scalar
 * kernel, over the whole row (nothing outside [x0, x1) written); the
 * path under test reads its scene row, light and shifts from buffers
 * flush against guard pages (the row and the light whole, the shifts and
 * the output only over [x0, x1)).
 */
enum {
    SD_CASES = 3000,
    SD_FIXED = 64 /* cases 0..SD_FIXED-1: rows of 1..SD_FIXED pixels; then random lengths */
};

typedef struct side_case {
    int n, len, x0, x1, guard;
    uint32_t *src;
    int32_t *rd;
    int32_t wob[512 + 32];
    uint8_t light[256 + 32];
    rpl_side_deep_job_t job;
} side_case_t;

static int side_pick(uint64_t *s, int lo, int hi)
{
    int k = rnd_range(s, 0, 3); /* a quarter each: lo, hi, anything */
    return k == 0 ? lo : k == 1 ? hi : rnd_range(s, lo, hi);
}

static void side_case_make(int n, side_case_t *c)
{
    uint64_t s = case_seed(5, n);
    memset(c, 0, sizeof *c);
    c->n = n;
    c->len = n < SD_FIXED ? n + 1 : rnd_range(&s, 0, 9) == 0 ? rnd_range(&s, 1000, 2100) : rnd_range(&s, 1, 300);
    c->x0 = rnd_range(&s, 0, 2) == 0 ? 0 : rnd_range(&s, 0, c->len);
    c->x1 = rnd_range(&s, 0, 2) == 0 ? c->len : rnd_range(&s, c->x0, c->len);
    c->guard = n % 3 == 0 ? G_HEAP : n % 3 == 1 ? G_TIGHT_END : G_TIGHT_START;
    int srcpat = rnd_range(&s, 0, 3), lightpat = rnd_range(&s, 0, 3);
    c->src = xmalloc((size_t)c->len * 4);
    for (int x = 0; x < c->len; x++)
        c->src[x] = srcpat == 0 ? 0xFFFFFFFFu : srcpat == 1 ? 0 : (uint32_t)rnd_next(&s);
    int phase = rnd_range(&s, 0, 255);
    int wmax = rnd_range(&s, 0, 1) ? 1 << 20 : 1 << 12;
    for (int i = 0; i < 256; i++) {
        c->wob[i] = rnd_range(&s, -wmax, wmax);
        c->light[i] = (uint8_t)(lightpat == 0 ? 255 : lightpat == 1 ? 0
                                : lightpat == 2 ? (int)(rnd_next(&s) & 255) : side_pick(&s, 0, 255));
    }
    for (int i = 256; i < 512 + 32; i++)
        c->wob[i] = c->wob[i & 255];
    for (int i = 256; i < 256 + 32; i++)
        c->light[i] = c->light[i & 255];
    /* shifts that land anywhere in the row, with any fraction */
    c->rd = xmalloc((size_t)c->len * 4);
    int near = rnd_range(&s, 0, 1);
    for (int x = 0; x < c->len; x++) {
        int t = near ? imin(imax(x + rnd_range(&s, -3, 3), 0), c->len - 1) : rnd_range(&s, 0, c->len - 1);
        c->rd[x] = (t - x) * 65536 - c->wob[(x + phase) & 255] + rnd_range(&s, 0, 65535);
    }
    int inva = side_pick(&s, 0, 256);
    int pmax = 65535 - 255 * inva;
    int pr = side_pick(&s, 0, pmax), pg = side_pick(&s, 0, pmax), pb = side_pick(&s, 0, pmax);
    c->job = (rpl_side_deep_job_t){c->src, NULL, c->rd, c->wob, c->light, phase,
                                   side_pick(&s, 0, 255), inva, pr, pg, pb,
                                   side_pick(&s, 0, RPL_SIDE_CW_MAX), c->len};
}

static void side_case_free(side_case_t *c)
{
    free(c->src);
    free(c->rd);
}

/* The rule of kernels.h for one pixel, written out again. */
static uint32_t side_rule(const rpl_side_deep_job_t *j, int x)
{
    int64_t sh = (int64_t)j->rd[x] + j->wob[(x + j->phase) % 256];
    int sx = x + (int)floor_div_pow2(sh, 16);
    int add = j->light[(x + j->lx) % 256] * j->cw / 256;
    int adds[3] = {add * 230 / 256, add, add * 200 / 256}, pre[3] = {j->pb, j->pg, j->pr};
    uint32_t p = j->src[sx], out = 0xFF000000u;
    for (int k = 0; k < 3; k++) {
        int ch = (int)(p >> (8 * k) & 0xFF);
        int o = (ch * j->inva + pre[k]) / 256 + adds[k];
        out |= (uint32_t)(o > 255 ? 255 : o) << (8 * k);
    }
    return out;
}

static uint32_t side_sentinel(int x)
{
    return 0x5A000000u ^ (uint32_t)x * 2654435761u;
}

/* Runs the case on path k (the reference's buffers when guard is G_HEAP
 * and k is the reference) into out (len pixels, sentinels first). */
static void side_run(const side_case_t *c, const rpl_kernels_t *k, uint32_t *out)
{
    for (int x = 0; x < c->len; x++)
        out[x] = side_sentinel(x);
    rpl_side_deep_job_t j = c->job;
    if (c->guard == G_HEAP || c->x0 == c->x1) {
        j.out = out;
        k->side_deep(&j, c->x0, c->x1);
        return;
    }
    slice_t ss, sc, sr, so;
    int g = c->guard;
    j.src = slice_alloc(&ss, 0, 0, (size_t)c->len - 1, 4, g, c->src);
    j.light = slice_alloc(&sc, 1, 0, 256 + 31, 1, g, c->light);
    j.rd = slice_alloc(&sr, 2, (size_t)c->x0, (size_t)c->x1 - 1, 4, g, c->rd);
    j.out = slice_alloc(&so, 3, (size_t)c->x0, (size_t)c->x1 - 1, 4, g, out);
    k->side_deep(&j, c->x0, c->x1);
    memcpy(out + c->x0, j.out + c->x0, (size_t)(c->x1 - c->x0) * 4);
    slice_free(&ss);
    slice_free(&sc);
    slice_free(&sr);
    slice_free(&so);
}

/* 1 (and a line saying where) when path `name`'s row differs from c's. */
static int side_row_differs(const char *desc, const char *name, const uint32_t *got,
                            const uint32_t *ref, int len)
{
    for (int x = 0; x < len; x++)
        if (got[x] != ref[x]) {
            printf("%s: %s at x %d: 0x%08X, c 0x%08X\n", desc, name, x, (unsigned)got[x],
                   (unsigned)ref[x]);
            return 1;
        }
    return 0;
}

/* Runs every side case of a kind (side_check_case or shallow_check_case). */
static void side_cases(int (*check)(int, const rpl_kernels_t *const *, int, int), const char *kind)
{
    crash_hook_on();
    int bad = 0;
    for (int n = 0; n < SD_CASES; n++)
        if (n < SD_FIXED || random_in_subset(n - SD_FIXED))
            bad += check(n, simd, nsimd, 0);
    crash_hook_off();
    guard_slots_release();
    if (bad)
        fail_msg("%d %s cases differ (replay: test_paths --case %s N)", bad, kind, kind);
}

static int side_check_case(int n, const rpl_kernels_t *const *paths, int npaths, int verbose)
{
    side_case_t c;
    side_case_make(n, &c);
    uint32_t *ref = xmalloc((size_t)c.len * 4), *got = xmalloc((size_t)c.len * 4);
    int bad = 0;
    char desc[200];
    snprintf(desc, sizeof desc, "side case %d (row %d, [%d, %d), %s)", n, c.len, c.x0, c.x1,
             guard_name[c.guard]);
    crash_set("side", n, desc);
    side_run(&c, ref_k, ref);
    for (int x = 0; x < c.len && !bad; x++) {
        uint32_t want = x >= c.x0 && x < c.x1 ? side_rule(&c.job, x) : side_sentinel(x);
        if (ref[x] != want) {
            printf("%s: c at x %d: 0x%08X, the rule 0x%08X\n", desc, x, (unsigned)ref[x], (unsigned)want);
            bad = 1;
        }
    }
    for (int p = 0; p < npaths; p++) {
        if (SAME_AS_REF(paths[p], side_deep)) {
            say_same(verbose, desc, paths[p]);
            continue;
        }
        side_run(&c, paths[p], got);
        bad += side_row_differs(desc, paths[p]->name, got, ref, c.len);
        if (verbose)
            printf("%s: %s %s\n", desc, paths[p]->name, bad ? "differs" : "agrees");
    }
    free(ref);
    free(got);
    side_case_free(&c);
    return bad;
}

static void test_side_deep_cases(void **state)
{
    (void)state;
    side_cases(side_check_case, "side");
}

/*
 * The water near the surface: case n as above, and per column a depth
 * under the surface from far above it through the foam's rows to far
 * under the table's end, shifts, gradient bases, slopes and darkening at
 * their bounds, tables of entries at theirs; the row read clamped (any
 * slope), the pixels left alone (above the surface, foam) checked to keep
 * what the row held.  The foam's cases (foam: most columns' depths in
 * the foam's rows, its width and the top's cover at their bounds) run
 * the foam kernel on the same kind of row.
 */
typedef struct shallow_case {
    side_case_t base; /* the row, light, shimmer, offsets */
    int foam;
    int32_t *ys, *shift, *gbase, *sfx, *dcol, *fwq, *cov;
    uint32_t te[RPL_SIDE_DEPTHS], tbg[RPL_SIDE_DEPTHS], tr[RPL_SIDE_DEPTHS], tia[RPL_SIDE_DEPTHS];
    int32_t wraw[512 + 32];
    uint32_t *init; /* what out holds before */
    rpl_side_shallow_job_t job;
} shallow_case_t;

static void shallow_case_make(int n, shallow_case_t *c, int foam)
{
    side_case_make(n, &c->base);
    const side_case_t *b = &c->base;
    c->foam = foam;
    uint64_t s = case_seed(foam ? 7 : 6, n);
    const int len = b->len, wide = rnd_range(&s, 0, 3) == 0;
    int y = side_pick(&s, -100, 3000);
    int32_t **cols[] = {&c->ys, &c->shift, &c->gbase, &c->sfx, &c->dcol, &c->fwq, &c->cov};
    for (size_t i = 0; i < sizeof cols / sizeof cols[0]; i++)
        *cols[i] = xmalloc((size_t)len * 4);
    c->init = xmalloc((size_t)len * 4);
    for (int x = 0; x < len; x++) {
        int kind = rnd_range(&s, 0, foam ? 9 : 5), d;
        d = kind == 0 ? rnd_range(&s, -50, -1) : kind == 1 ? rnd_range(&s, 0, 4)
          : kind == 2 ? rnd_range(&s, 5, 15) : kind == 3 ? rnd_range(&s, 16, 520)
          : kind == 4 ? side_pick(&s, 5, 1 << 29) : kind == 5 ? side_pick(&s, -(1 << 29), 16)
          : side_pick(&s, 0, 4);
        c->ys[x] = y - d;
        c->shift[x] = wide ? side_pick(&s, -32767, 32767) : side_pick(&s, -64, 64);
        c->gbase[x] = y - (wide ? side_pick(&s, -(1 << 29), 1 << 29) : side_pick(&s, -40, 600));
        c->sfx[x] = wide ? side_pick(&s, -32767, 32767) : side_pick(&s, -384, 384);
        c->dcol[x] = side_pick(&s, 0, 256);
        c->fwq[x] = wide ? side_pick(&s, -(1 << 30), 1 << 30) : side_pick(&s, -300, 1400);
        c->cov[x] = side_pick(&s, 0, 256);
        c->init[x] = (uint32_t)rnd_next(&s);
    }
    /* a case in four a flat bed (by n / 16, so that the subsets of the
     * emulated CPUs have some): one gradient's base for the row, as the
     * renderer gives, and every other run of 8 columns 16 or more deep,
     * where every column's gradient depth is then the same (a kernel may
     * read the tables once for such a run) */
    if (n / 16 % 4 == 3)
        for (int x = 0; x < len; x++) {
            c->gbase[x] = c->gbase[0];
            if (x / 8 % 2 == 1)
                c->ys[x] = y - 16 - x % 500;
        }
    for (int d = 0; d < RPL_SIDE_DEPTHS; d++) {
        int inva = side_pick(&s, 0, 256), pmax = 65535 - 255 * inva;
        c->te[d] = (uint32_t)side_pick(&s, 0, 2047) | (uint32_t)side_pick(&s, 0, 511) << 11 |
                   (uint32_t)side_pick(&s, 0, 256) << 20;
        c->tbg[d] = (uint32_t)side_pick(&s, 0, pmax) | (uint32_t)side_pick(&s, 0, pmax) << 16;
        c->tr[d] = (uint32_t)side_pick(&s, 0, pmax) |
                   (uint32_t)side_pick(&s, 0, RPL_SIDE_CW_MAX) << 16;
        c->tia[d] = (uint32_t)inva;
    }
    for (int i = 0; i < 512 + 32; i++)
        c->wraw[i] = i < 256 ? side_pick(&s, -32767, 32767) : c->wraw[i & 255];
    c->job = (rpl_side_shallow_job_t){b->src, NULL, c->ys, c->shift, c->gbase, c->sfx, c->dcol,
                                      c->fwq, c->cov, c->te, c->tbg, c->tr, c->tia, c->wraw,
                                      b->light, b->job.phase, y, len, b->job.lx};
}

static void shallow_case_free(shallow_case_t *c)
{
    side_case_free(&c->base);
    free(c->ys);
    free(c->shift);
    free(c->gbase);
    free(c->sfx);
    free(c->dcol);
    free(c->fwq);
    free(c->cov);
    free(c->init);
}

/* The rule of kernels.h for one pixel near the surface at depth d >= 0,
 * its gradient's depth dg, written out again: the channels (blue first)
 * before their clamp. */
static void near_rule(const rpl_side_shallow_job_t *j, int x, int64_t d, int64_t dg, int64_t ch[3])
{
    const int D = RPL_SIDE_DEPTHS;
    uint32_t e = j->te[d < D ? d : D - 1];
    int64_t refr = e % 2048, ew = e / 2048 % 512, dk = e / (1u << 20) % 512;
    int64_t pre[3] = {j->tbg[dg] % 65536, j->tbg[dg] / 65536, j->tr[dg] % 65536};
    int64_t cw = j->tr[dg] / 65536, inva = j->tia[dg];
    int64_t sx = x + floor_div_pow2((int64_t)j->sfx[x] * refr + (int64_t)j->wob[(x + j->phase) % 256] * ew, 16);
    sx = clamp64(sx, 0, j->w - 1);
    int64_t add = j->light[(x + j->lx) % 256] * cw / 256;
    int64_t adds[3] = {add * 230 / 256, add, add * 200 / 256};
    int64_t k = 256 - (int64_t)j->dcol[x] * dk / 256;
    uint32_t p = j->src[sx];
    for (int i = 0; i < 3; i++) {
        int64_t c = p >> (8 * i) & 0xFF;
        ch[i] = ((c * inva + pre[i]) / 256 + adds[i]) * k / 256;
    }
}

/* The shallow water's rule for one pixel (0: left alone). */
static int shallow_rule(const rpl_side_shallow_job_t *j, int x, uint32_t *px)
{
    int64_t d = (int64_t)j->y - j->ys[x];
    if (d < 5)
        return 0;
    int64_t dg = d < 16 ? d + floor_div_pow2((int64_t)j->shift[x] * d, 4) : (int64_t)j->y - j->gbase[x];
    int64_t ch[3];
    near_rule(j, x, d, clamp64(dg, 0, RPL_SIDE_DEPTHS - 1), ch);
    uint32_t out = 0xFF000000u;
    for (int i = 0; i < 3; i++)
        out |= (uint32_t)(ch[i] > 255 ? 255 : ch[i]) << (8 * i);
    *px = out;
    return 1;
}

/* The foam's rule for one pixel (0: left alone). */
static int foam_rule(const rpl_side_shallow_job_t *j, int x, uint32_t *px)
{
    int64_t d = (int64_t)j->y - j->ys[x];
    if (d < 0 || d >= 5)
        return 0;
    int64_t dg = d + floor_div_pow2((int64_t)j->shift[x] * d, 4), ch[3];
    near_rule(j, x, d, clamp64(dg, 0, RPL_SIDE_DEPTHS - 1), ch);
    int64_t fa = clamp64((int64_t)j->fwq[x] - 256 * d, 0, 256) * 220 / 256;
    if (d == 0)
        fa += (256 - fa) * 60 / 256;
    int64_t sp = j->light[(x + j->lx) % 256] / 8, cv = d == 0 ? j->cov[x] : 256;
    int64_t white[3] = {255, 250 + sp, 236 + sp};
    uint32_t out = 0xFF000000u, o = j->src[x];
    for (int i = 0; i < 3; i++) {
        int64_t c = ch[i] > 255 ? 255 : ch[i], t = white[i] > 255 ? 255 : white[i];
        c = (c * (256 - fa) + t * fa) / 256;
        c = ((int64_t)(o >> (8 * i) & 0xFF) * (256 - cv) + c * cv) / 256;
        out |= (uint32_t)c << (8 * i);
    }
    *px = out;
    return 1;
}

static void shallow_run(const shallow_case_t *c, const rpl_kernels_t *k, uint32_t *out)
{
    const side_case_t *b = &c->base;
    rpl_side_shallow_fn fn = c->foam ? k->side_foam : k->side_shallow;
    memcpy(out, c->init, (size_t)b->len * 4);
    rpl_side_shallow_job_t j = c->job;
    if (b->guard == G_HEAP || b->x0 == b->x1) {
        j.out = out;
        fn(&j, b->x0, b->x1);
        return;
    }
    int g = b->guard;
    size_t lo = (size_t)b->x0, hi = (size_t)b->x1 - 1;
    slice_t ss, sc, so, sy, s1, s2, s3, s4, s5, s6;
    j.src = slice_alloc(&ss, 0, 0, (size_t)b->len - 1, 4, g, b->src);
    j.light = slice_alloc(&sc, 1, 0, 256 + 31, 1, g, b->light);
    j.out = slice_alloc(&so, 2, lo, hi, 4, g, out);
    j.ys = slice_alloc(&sy, 3, lo, hi, 4, g, c->ys);
    j.shift = slice_alloc(&s1, 0, lo, hi, 4, G_HEAP, c->shift);
    j.gbase = slice_alloc(&s2, 0, lo, hi, 4, G_HEAP, c->gbase);
    j.sfx = slice_alloc(&s3, 0, lo, hi, 4, G_HEAP, c->sfx);
    j.dcol = slice_alloc(&s4, 0, lo, hi, 4, G_HEAP, c->dcol);
    j.fwq = slice_alloc(&s5, 0, lo, hi, 4, G_HEAP, c->fwq);
    j.cov = slice_alloc(&s6, 0, lo, hi, 4, G_HEAP, c->cov);
    fn(&j, b->x0, b->x1);
    memcpy(out + b->x0, j.out + b->x0, (size_t)(b->x1 - b->x0) * 4);
    slice_t *all[] = {&ss, &sc, &so, &sy, &s1, &s2, &s3, &s4, &s5, &s6};
    for (int i = 0; i < 10; i++)
        slice_free(all[i]);
}

static int near_check_case(int n, const rpl_kernels_t *const *paths, int npaths, int verbose,
                           int foam)
{
    shallow_case_t *c = xmalloc(sizeof *c);
    shallow_case_make(n, c, foam);
    const int len = c->base.len, x0 = c->base.x0, x1 = c->base.x1;
    uint32_t *ref = xmalloc((size_t)len * 4), *got = xmalloc((size_t)len * 4);
    int bad = 0;
    const char *kind = foam ? "foam" : "shallow";
    char desc[200];
    snprintf(desc, sizeof desc, "%s case %d (row %d, [%d, %d), %s)", kind, n, len, x0, x1,
             guard_name[c->base.guard]);
    crash_set(kind, n, desc);
    shallow_run(c, ref_k, ref);
    for (int x = 0; x < len && !bad; x++) {
        uint32_t want = c->init[x];
        if (x >= x0 && x < x1)
            (foam ? foam_rule : shallow_rule)(&c->job, x, &want);
        if (ref[x] != want) {
            printf("%s: c at x %d: 0x%08X, the rule 0x%08X\n", desc, x, (unsigned)ref[x], (unsigned)want);
            bad = 1;
        }
    }
    for (int p = 0; p < npaths; p++) {
        if (foam ? SAME_AS_REF(paths[p], side_foam) : SAME_AS_REF(paths[p], side_shallow)) {
            say_same(verbose, desc, paths[p]);
            continue;
        }
        shallow_run(c, paths[p], got);
        bad += side_row_differs(desc, paths[p]->name, got, ref, len);
        if (verbose)
            printf("%s: %s %s\n", desc, paths[p]->name, bad ? "differs" : "agrees");
    }
    free(ref);
    free(got);
    shallow_case_free(c);
    free(c);
    return bad;
}

static int shallow_check_case(int n, const rpl_kernels_t *const *paths, int npaths, int verbose)
{
    return near_check_case(n, paths, npaths, verbose, 0);
}

static int foam_check_case(int n, const rpl_kernels_t *const *paths, int npaths, int verbose)
{
    return near_check_case(n, paths, npaths, verbose, 1);
}

static void test_side_shallow_cases(void **state)
{
    (void)state;
    side_cases(shallow_check_case, "shallow");
}

/* ---- the side renderer's path ------------------------------------------- */

/* Calls of the spy table's side kernels (the scalar ones, counting). */
static long spy_deep, spy_shallow;

static void spy_side_deep(const rpl_side_deep_job_t *job, int x0, int x1)
{
    spy_deep++;
    ref_k->side_deep(job, x0, x1);
}

static void spy_side_shallow(const rpl_side_shallow_job_t *job, int x0, int x1)
{
    spy_shallow++;
    ref_k->side_shallow(job, x0, x1);
}

/* A side renderer starts on the path rpl_kernels_get(NULL) names (auto,
 * or RIPPLE_SIMD's) and then draws its water with the table it is given,
 * none other, and says so: a table of the scalar kernels that count their
 * calls draws the bytes of the renderer's own choice, and once the
 * renderer is back on its own table is not called again.  NULL is refused
 * and changes nothing. */
static void test_side_renderer_kernels(void **state)
{
    (void)state;
    enum { SW = 128, SH = 96 };
    uint32_t *scene = random_bg(SW, SH, 77);
    uint32_t *a = calloc((size_t)SW * SH, 4), *b = calloc((size_t)SW * SH, 4);
    float surf[SW];
    assert_non_null(scene);
    assert_non_null(a);
    assert_non_null(b);
    for (int x = 0; x < SW; x++) /* a slope and a crest: foam, steep and deep water */
        surf[x] = 30.0f + (float)(x % 40) * 0.4f - (x > 60 && x < 70 ? 6.0f : 0.0f);
    const rpl_side_water_t water = { 4, SW - 4, surf + 4, 90.0f, 1 };
    rpl_side_renderer_t *r = NULL;
    assert_int_equal(rpl_side_renderer_create(NULL, SW, SH, RPL_XRGB8888, &r), RPL_OK);
    const rpl_kernels_t *own = rpl_side_renderer_kernels(r);
    assert_non_null(own);
    assert_ptr_equal(own, rpl_kernels_get(NULL));
    assert_int_equal(rpl_side_render(r, scene, SW * 4, &water, 1, NULL, 0, 0.75, a, SW * 4),
                     RPL_OK);

    rpl_kernels_t spy = *ref_k;
    spy.side_deep = spy_side_deep;
    spy.side_shallow = spy_side_shallow;
    assert_int_equal(rpl_side_renderer_set_kernels(r, &spy), RPL_OK);
    assert_ptr_equal(rpl_side_renderer_kernels(r), &spy);
    spy_deep = spy_shallow = 0;
    assert_int_equal(rpl_side_render(r, scene, SW * 4, &water, 1, NULL, 0, 0.75, b, SW * 4),
                     RPL_OK);
    assert_true(spy_deep > 0);
    assert_true(spy_shallow > 0);
    assert_memory_equal(a, b, (size_t)SW * SH * 4);

    assert_int_equal(rpl_side_renderer_set_kernels(r, NULL), RPL_EINVAL);
    assert_true(strlen(rpl_side_renderer_error(r)) > 0);
    assert_ptr_equal(rpl_side_renderer_kernels(r), &spy);

    assert_int_equal(rpl_side_renderer_set_kernels(r, own), RPL_OK);
    spy_deep = spy_shallow = 0;
    memset(b, 0, (size_t)SW * SH * 4);
    assert_int_equal(rpl_side_render(r, scene, SW * 4, &water, 1, NULL, 0, 0.75, b, SW * 4),
                     RPL_OK);
    assert_true(spy_deep == 0 && spy_shallow == 0);
    assert_memory_equal(a, b, (size_t)SW * SH * 4);

    assert_int_equal(rpl_side_renderer_set_kernels(NULL, own), RPL_EINVAL);
    assert_null(rpl_side_renderer_kernels(NULL));
    rpl_side_renderer_destroy(r);
    free(scene);
    free(a);
    free(b);
}

/* The droplets' kernels against the scalar one, and the scalar one
 * against its definition (kernels.h) computed here, its square roots the
 * correctly rounded ones (rpl_sqrt, which test_dmath holds to that: the
 * C library's is not on every x87 target): random droplets over
 * random pixels (their top bytes too, which a drawn pixel sets to 0xFF
 * and a pixel left keeps), runs of every length and offset, centres on
 * and between pixels, pixels on the rim; those outside the run kept. */
static uint32_t drop_def(const rpl_side_drop_job_t *j, int x, uint32_t o)
{
    double dx = (double)x + 0.5 - j->cx;
    double cv = j->rad + 0.5 - rpl_sqrt(dx * dx + j->dy * j->dy);
    cv = cv < 0 ? 0 : cv > 1 ? 1 : cv;
    if (!(cv > 0))
        return o;
    double t = j->rad * 0.35, q = rpl_sqrt((dx + t) * (dx + t) + (j->dy + t) * (j->dy + t));
    double hl = 1.0 - q / j->rad;
    hl = hl < 0 ? 0 : hl > 1 ? 1 : hl;
    int col[3] = { (int)(150.0 + 105.0 * hl), (int)(214.0 + 41.0 * hl), 255 };
    int a = (int)((double)j->alpha * cv);
    uint32_t out = 0xFF000000u;
    for (int i = 0; i < 3; i++) {
        int c = (int)(o >> (16 - 8 * i) & 0xFF);
        c += (col[i] - c) * a >> 8;
        out |= (uint32_t)c << (16 - 8 * i);
    }
    return out;
}

static void test_side_drop_cases(void **state)
{
    (void)state;
    enum { LEN = 80, CASES = 3000 };
    uint64_t seed = 0x5D209u;
    uint32_t src[LEN], ref[LEN], got[LEN];
    int bad = 0, drawn = 0;
    for (int n = 0; n < CASES && bad < 10; n++) {
        for (int x = 0; x < LEN; x++)
            src[x] = (uint32_t)rnd_next(&seed);
        double rad = 0.8 + rnd_range(&seed, 0, 3120) / 100.0;
        double cx = rnd_range(&seed, -500, 8500) / 100.0;
        if (n % 4 == 0)
            cx = floor(cx) + 0.5; /* on a pixel's centre */
        double dy = rnd_range(&seed, -3300, 3300) / 100.0 + (n % 3 ? 0.5 : 0.0);
        if (n % 5 == 0)
            dy = rnd_range(&seed, -4, 4) * 0.5; /* rows through the centre */
        int alpha = rnd_range(&seed, 1, 235);
        int x0 = rnd_range(&seed, 0, LEN), x1 = rnd_range(&seed, x0, LEN);
        rpl_side_drop_job_t j = { ref, cx, dy, rad, alpha };
        memcpy(ref, src, sizeof ref);
        ref_k->side_drop(&j, x0, x1);
        for (int x = 0; x < LEN; x++) {
            uint32_t want = x >= x0 && x < x1 ? drop_def(&j, x, src[x]) : src[x];
            drawn += want != src[x];
            if (ref[x] != want && bad++ < 10)
                printf("drop case %d: c at x %d: 0x%08X, the definition 0x%08X\n", n, x,
                       (unsigned)ref[x], (unsigned)want);
        }
        for (int p = 0; p < nsimd; p++) {
            memcpy(got, src, sizeof got);
            j.row = got;
            simd[p]->side_drop(&j, x0, x1);
            for (int x = 0; x < LEN; x++)
                if (got[x] != ref[x] && bad++ < 10)
                    printf("drop case %d: %s at x %d: 0x%08X, c 0x%08X\n", n, simd[p]->name, x,
                           (unsigned)got[x], (unsigned)ref[x]);
        }
    }
    assert_int_equal(bad, 0);
    assert_true(drawn > CASES); /* the cases drew, not only left pixels */
}

static void test_side_foam_cases(void **state)
{
    (void)state;
    side_cases(foam_check_case, "foam");
}

/*
 * A row wider than 32768 pixels (kernels.h bounds no row's width): the
 * water near the surface and the foam at both ends of it, the scene read
 * clamped at the far end (the MMX kernels' pairs clamp columns in 16-bit
 * lanes, so such a row takes their pixel-at-a-time path).  Every path
 * against the scalar one.
 */
static void test_side_wide_row(void **state)
{
    (void)state;
    enum { W = 40000, N = 48 };
    uint64_t s = case_seed(12, 0);
    uint32_t *src = xmalloc((size_t)W * 4), *ref = xmalloc((size_t)W * 4);
    uint32_t *got = xmalloc((size_t)W * 4);
    int32_t *cols[7];
    for (int i = 0; i < 7; i++)
        cols[i] = xmalloc((size_t)W * 4);
    static uint32_t te[RPL_SIDE_DEPTHS], tbg[RPL_SIDE_DEPTHS], tr[RPL_SIDE_DEPTHS];
    static uint32_t tia[RPL_SIDE_DEPTHS];
    int32_t wob[512 + 32];
    uint8_t light[256 + 32];
    const int y = 1000;
    for (int x = 0; x < W; x++) {
        src[x] = (uint32_t)rnd_next(&s);
        cols[0][x] = y - rnd_range(&s, 0, 40); /* ys: foam, near and deeper rows */
        cols[1][x] = rnd_range(&s, -64, 64);   /* shift */
        cols[2][x] = y - rnd_range(&s, 0, 600); /* gbase */
        cols[3][x] = rnd_range(&s, -32767, 32767); /* sfx: far past either end */
        cols[4][x] = rnd_range(&s, 0, 256);    /* dcol */
        cols[5][x] = rnd_range(&s, -300, 1400); /* fwq */
        cols[6][x] = rnd_range(&s, 0, 256);    /* cov */
    }
    for (int d = 0; d < RPL_SIDE_DEPTHS; d++) {
        int inva = rnd_range(&s, 0, 256), pmax = 65535 - 255 * inva;
        te[d] = (uint32_t)rnd_range(&s, 1024, 2047) | (uint32_t)rnd_range(&s, 0, 511) << 11 |
                (uint32_t)rnd_range(&s, 0, 256) << 20;
        tbg[d] = (uint32_t)rnd_range(&s, 0, pmax) | (uint32_t)rnd_range(&s, 0, pmax) << 16;
        tr[d] = (uint32_t)rnd_range(&s, 0, pmax) | (uint32_t)rnd_range(&s, 0, RPL_SIDE_CW_MAX) << 16;
        tia[d] = (uint32_t)inva;
    }
    for (int i = 0; i < 512 + 32; i++)
        wob[i] = i < 256 ? rnd_range(&s, -32767, 32767) : wob[i & 255];
    for (int i = 0; i < 256 + 32; i++)
        light[i] = i < 256 ? (uint8_t)rnd_range(&s, 0, 255) : light[i & 255];
    const rpl_side_shallow_job_t job = {src, NULL, cols[0], cols[1], cols[2], cols[3], cols[4],
                                        cols[5], cols[6], te, tbg, tr, tia, wob, light, 77, y, W, 5};
    int bad = 0;
    for (int foam = 0; foam < 2; foam++)
        for (int end = 0; end < 2; end++) {
            const int x0 = end ? W - N : 0, x1 = end ? W : N;
            rpl_side_shallow_job_t j = job;
            j.out = ref;
            memset(ref, 0, (size_t)W * 4);
            (foam ? ref_k->side_foam : ref_k->side_shallow)(&j, x0, x1);
            for (int p = 0; p < nsimd; p++) {
                j.out = got;
                memset(got, 0, (size_t)W * 4);
                (foam ? simd[p]->side_foam : simd[p]->side_shallow)(&j, x0, x1);
                bad += side_row_differs(foam ? "foam, wide row" : "shallow, wide row",
                                        simd[p]->name, got + x0, ref + x0, N);
            }
        }
    for (int i = 0; i < 7; i++)
        free(cols[i]);
    free(src);
    free(ref);
    free(got);
    assert_int_equal(bad, 0);
}

/* ---- the harness itself ----------------------------------------------- */

/* Touching one byte past a guarded buffer, or one before, must kill the
 * process: otherwise the guard modes above would prove nothing. */
typedef struct touch {
    int at_end, offset;
} touch_t;

static int touch(void *arg)
{
    const touch_t *t = arg;
    volatile unsigned char *p = guard_slot(0, 100, t->at_end);
    p[t->offset] = 1;
    return 0;
}

static int child_touch(int at_end, int offset)
{
    touch_t t = { at_end, offset };
    int rc = host_child(touch, &t);
    assert_true(rc >= 0);
    return rc == 0; /* 1: survived */
}

static void test_guard_pages_fault(void **state)
{
    (void)state;
    fflush(stdout);
    fflush(stderr);
    assert_true(child_touch(1, 99));   /* last byte: fine */
    assert_true(child_touch(0, 0));    /* first byte: fine */
    assert_false(child_touch(1, 100)); /* one past the end */
    assert_false(child_touch(0, -1));  /* one before the start */
}

/* The scalar kernels through the same guarded harness (a share of the
 * cases): they keep to the contract the guards check, and the harness
 * reports no false alarm. */
static void test_guards_on_reference(void **state)
{
    (void)state;
    const rpl_kernels_t *const only_c[1] = {ref_k};
    cases_run(0, STEP_SWEEP, only_c, 1, 0, 1);
    step_cases(STEP_ODD_FIRST, STEP_RANDOM_FIRST, only_c, 1);
    refract_cases_thin(0, RF_SWEEP, only_c, 1, 1);
    refract_cases(RF_ODD_FIRST, RF_RANDOM_FIRST, only_c, 1);
}

/* ---- whole simulations ------------------------------------------------ */

/* A still field stepped and rendered by the kernels of k. */
static rpl_sim_t *new_sim_on(int w, int h, uint64_t seed, const rpl_kernels_t *k)
{
    rpl_sim_t *sim = new_sim(w, h, seed);
    assert_int_equal(rpl_sim_set_kernels(sim, k), RPL_OK);
    return sim;
}

/* The same schedule of autopilot, rain, heavy stones and trails on a field
 * stepped by "c" and one stepped by k; buffers, energy and rendered frames
 * (through rpl_refract, so through each field's own refraction kernel)
 * must stay identical.  With `walls`, both fields have the same random
 * walls (rectangles and lines, some opened again) and absorbing edges;
 * with `wave`, both step by the wave model with those parameters. */
static void sim_agree(const rpl_kernels_t *k, int w, int h, int nsteps, uint64_t seed, int walls,
                      const rpl_wave_params_t *wave)
{
    rpl_sim_t *a = new_sim_on(w, h, seed, ref_k), *b = new_sim_on(w, h, seed, k);
    if (wave) {
        assert_int_equal(rpl_sim_set_model(a, RPL_MODEL_WAVE, wave), RPL_OK);
        assert_int_equal(rpl_sim_set_model(b, RPL_MODEL_WAVE, wave), RPL_OK);
    }
    /* (narrow fields get the edges only: walls could cover all their water) */
    for (int i = 0, n = walls && w >= 16 && h >= 16 ? 6 : 0; i < n; i++) {
        uint64_t ws = seed * 31 + (uint64_t)i;
        int x0 = rnd_range(&ws, -4, w + 4), y0 = rnd_range(&ws, -4, h + 4);
        int x1 = rnd_range(&ws, -4, w + 4), y1 = rnd_range(&ws, -4, h + 4);
        int t = rnd_range(&ws, 1, 4), solid = i != 3;
        rpl_sim_t *both[2] = {a, b};
        for (int j = 0; j < 2; j++) {
            if (i % 2)
                assert_int_equal(rpl_sim_wall_line(both[j], x0, y0, x1, y1, t, solid), RPL_OK);
            else
                assert_int_equal(rpl_sim_wall_rect(both[j], x0, y0, t * 3, t * 5, solid),
                                 RPL_OK);
        }
    }
    if (walls) {
        assert_int_equal(rpl_sim_set_edges(a, RPL_EDGES_ABSORB), RPL_OK);
        assert_int_equal(rpl_sim_set_edges(b, RPL_EDGES_ABSORB), RPL_OK);
    }
    rpl_autopilot_t *pa = new_autopilot(seed * 7 + 1), *pb = new_autopilot(seed * 7 + 1);
    const rpl_rain_t rain = {300, 1, 6, -4000, 12000};
    const int pp = w + 3; /* padded pitch, in pixels */
    const size_t n = (size_t)w * (size_t)h, nfb = (size_t)pp * (size_t)h;
    uint32_t *bg = xmalloc(n * sizeof *bg);
    uint32_t *fa = xmalloc(nfb * sizeof *fa), *fbb = xmalloc(nfb * sizeof *fbb);
    uint64_t s = seed;
    for (size_t i = 0; i < n; i++)
        bg[i] = (uint32_t)rnd_next(&s);
    uint64_t max_energy = 0;
    for (int i = 1; i <= nsteps; i++) {
        rpl_autopilot_tick(pa, a);
        rpl_autopilot_tick(pb, b);
        assert_int_equal(rpl_sim_rain(a, &rain), RPL_OK);
        assert_int_equal(rpl_sim_rain(b, &rain), RPL_OK);
        if (i % 53 == 0) { /* a heavy stone: weights beyond the range clamp */
            int x = rnd_range(&s, -5, w + 5), y = rnd_range(&s, -5, h + 5);
            int r = rnd_range(&s, 1, 12);
            int wt = rnd_range(&s, 0, 1) ? 30000 : -30000;
            assert_int_equal(rpl_sim_drop(a, x, y, r, wt), RPL_OK);
            assert_int_equal(rpl_sim_drop(b, x, y, r, wt), RPL_OK);
        }
        if (i % 71 == 0) {
            int x0 = rnd_range(&s, 0, w - 1), y0 = rnd_range(&s, 0, h - 1);
            int x1 = rnd_range(&s, 0, w - 1), y1 = rnd_range(&s, 0, h - 1), r = rnd_range(&s, 1, 4);
            assert_int_equal(rpl_sim_trail(a, x0, y0, x1, y1, r, 9000), RPL_OK);
            assert_int_equal(rpl_sim_trail(b, x0, y0, x1, y1, r, 9000), RPL_OK);
        }
        uint64_t e = rpl_sim_energy(a);
        if (e > max_energy)
            max_energy = e;
        rpl_sim_step(a);
        rpl_sim_step(b);
        if (i % 20 == 0 || i == nsteps) {
            if (memcmp(cur_of(a), cur_of(b), n * sizeof *cur_of(a)) != 0 ||
                memcmp(prev_of(a), prev_of(b), n * sizeof *prev_of(a)) != 0)
                fail_msg("simulation %dx%d seed %llu: path %s differs from c after step %d", w,
                         h, (unsigned long long)seed, k->name, i);
            assert_true(rpl_sim_energy(a) == rpl_sim_energy(b));
            /* the generators agree: each draws one value, so they stay in step */
            assert_true(rpl_sim_random(a) == rpl_sim_random(b));
            rpl_view_t view = {(i / 20 * 7) % (RPL_STRENGTH_MAX + 1), i / 20 % 2};
            for (size_t j = 0; j < nfb; j++)
                fa[j] = fbb[j] = fb_guard(j);
            assert_int_equal(rpl_refract(a, bg, fa, (ptrdiff_t)pp * 4, RPL_XRGB8888, &view),
                             RPL_OK);
            assert_int_equal(rpl_refract(b, bg, fbb, (ptrdiff_t)pp * 4, RPL_XRGB8888, &view),
                             RPL_OK);
            if (memcmp(fa, fbb, nfb * sizeof *fa) != 0)
                fail_msg("simulation %dx%d seed %llu: path %s renders a different frame after "
                         "step %d (strength %d, shading %d)",
                         w, h, (unsigned long long)seed, k->name, i, view.strength,
                         view.shading);
        }
    }
    assert_true(max_energy > 0); /* the schedule did move the water */
    free(bg);
    free(fa);
    free(fbb);
    rpl_autopilot_destroy(pa);
    rpl_autopilot_destroy(pb);
    rpl_sim_destroy(a);
    rpl_sim_destroy(b);
}

static void test_sim_agreement(void **state)
{
    (void)state;
    static const int sizes[][3] = {
        {160, 120, 600}, {97, 61, 500}, {33, 257, 400}, {641, 9, 400}, {5, 1081, 300}, {3, 3, 300},
    };
    for (int p = 0; p < nsimd; p++)
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
            for (int walls = 0; walls < 2; walls++)
                sim_agree(simd[p], sizes[i][0], sizes[i][1], sizes[i][2], 1000 + i, walls, NULL);
}

/* The same with the wave model: slow, viscous water; fast water at the
 * edge of stability; lossless water with alpha 1. */
static void test_sim_agreement_wave(void **state)
{
    (void)state;
    static const int sizes[][3] = {
        {160, 120, 400}, {97, 61, 300}, {33, 257, 300}, {641, 9, 300}, {5, 1081, 200}, {3, 3, 200},
    };
    static const rpl_wave_params_t params[] = {
        {24, 1.2, 1, 1.0 / 60, 0.985},          /* k 0.16, u t 0.02 */
        {0.70710678118, 0, 1, 1, 0.97},         /* k 1/2 */
        {0.3, 0.05, 1, 1, 1},                   /* alpha 1 */
    };
    for (int p = 0; p < nsimd; p++)
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
            for (int walls = 0; walls < 2; walls++)
                sim_agree(simd[p], sizes[i][0], sizes[i][1], sizes[i][2], 2000 + i, walls,
                          &params[(i + (size_t)walls) % 3]);
}

/* ---- finding paths ---------------------------------------------------- */

static void test_kernels_find(void **state)
{
    (void)state;
    const rpl_kernels_t *k = NULL;
    assert_int_equal(rpl_kernels_find("nope", &k), RPL_EINVAL);
    assert_int_equal(rpl_kernels_find("", &k), RPL_EINVAL);
    assert_int_equal(rpl_kernels_find("avx512", &k), RPL_EINVAL);
    assert_null(rpl_kernels_get("nope"));
    assert_null(rpl_kernels_known(-1));

    /* every known name is available (a full table of its own name) or
     * RPL_ENOTSUP, never RPL_EINVAL */
    const char *missing = NULL;
    int nknown = 0, navail = 0;
    for (int i = 0; rpl_kernels_known(i) != NULL; i++, nknown++) {
        const char *name = rpl_kernels_known(i);
        for (int j = 0; j < i; j++)
            assert_string_not_equal(name, rpl_kernels_known(j));
        k = NULL;
        rpl_status st = rpl_kernels_find(name, &k);
        if (st == RPL_OK) {
            navail++;
            assert_non_null(k);
            assert_string_equal(k->name, name);
            assert_string_equal(rpl_kernels_name(k), name);
            assert_non_null(k->step);
            assert_non_null(k->refract_xrgb8888);
            assert_ptr_equal(rpl_kernels_get(name), k);
        } else {
            assert_int_equal(st, RPL_ENOTSUP);
            assert_null(rpl_kernels_get(name));
            missing = name;
        }
    }
    assert_true(nknown >= 4);
    assert_int_equal(navail, 1 + nsimd);
    assert_ptr_equal(rpl_kernels_get("c"), ref_k);
    assert_non_null(ref_k);
    k = NULL;
    rpl_status mmx = rpl_kernels_find("mmx", &k);
    assert_true(mmx == RPL_OK || mmx == RPL_ENOTSUP);

    /* "auto" and RIPPLE_SIMD */
    const char *env = getenv("RIPPLE_SIMD");
    char *saved = env ? strdup(env) : NULL;
    assert_int_equal(host_setenv("RIPPLE_SIMD", NULL), 0);
    const rpl_kernels_t *best = NULL;
    assert_int_equal(rpl_kernels_find("auto", &best), RPL_OK);
    assert_ptr_equal(rpl_kernels_get(NULL), best);
    int listed = best == ref_k;
    for (int p = 0; p < nsimd; p++)
        listed |= best == simd[p];
    assert_true(listed);
    if (nsimd > 0)
        assert_ptr_not_equal(best, ref_k);
    assert_int_equal(host_setenv("RIPPLE_SIMD", ""), 0);
    assert_ptr_equal(rpl_kernels_get("auto"), best);
    assert_int_equal(host_setenv("RIPPLE_SIMD", "auto"), 0);
    assert_ptr_equal(rpl_kernels_get("auto"), best);

    assert_int_equal(host_setenv("RIPPLE_SIMD", "c"), 0);
    assert_ptr_equal(rpl_kernels_get("auto"), ref_k);
    assert_ptr_equal(rpl_kernels_get(NULL), ref_k);
    rpl_status st = RPL_EIO;
    rpl_sim_t *sim;
    st = rpl_sim_create(8, 8, 1, &sim);
    assert_non_null(sim);
    assert_int_equal(st, RPL_OK);
    assert_ptr_equal(kern_of(sim), ref_k);
    rpl_sim_destroy(sim);
    for (int p = 0; p < nsimd; p++) /* names given explicitly ignore it */
        assert_ptr_equal(rpl_kernels_get(simd[p]->name), simd[p]);
    for (int p = 0; p < nsimd; p++) {
        assert_int_equal(host_setenv("RIPPLE_SIMD", simd[p]->name), 0);
        assert_ptr_equal(rpl_kernels_get("auto"), simd[p]);
        assert_ptr_equal(rpl_kernels_get("c"), ref_k);
    }
    assert_int_equal(host_setenv("RIPPLE_SIMD", "nope"), 0);
    assert_int_equal(rpl_kernels_find("auto", &k), RPL_EINVAL);
    st = rpl_sim_create(8, 8, 1, &sim);
    assert_non_null(sim); /* a failed field, which says why */
    assert_true(rpl_sim_error(sim)[0] != '\0');
    rpl_sim_destroy(sim);
    assert_int_not_equal(st, RPL_OK);
    if (missing) {
        assert_int_equal(host_setenv("RIPPLE_SIMD", missing), 0);
        assert_int_equal(rpl_kernels_find("auto", &k), RPL_ENOTSUP);
        assert_int_equal(rpl_kernels_find(NULL, &k), RPL_ENOTSUP);
        st = rpl_sim_create(8, 8, 1, &sim);
        assert_non_null(sim);
        assert_int_equal(rpl_sim_width(sim), 0); /* it refuses everything */
        rpl_sim_destroy(sim);
        assert_int_equal(st, RPL_ENOTSUP);
    }

    if (saved) {
        assert_int_equal(host_setenv("RIPPLE_SIMD", saved), 0);
        free(saved);
    } else {
        assert_int_equal(host_setenv("RIPPLE_SIMD", NULL), 0);
    }
}

/* ---- main ------------------------------------------------------------- */

static int replay(const char *kind, const char *num)
{
    char *end = NULL;
    long n = strtol(num, &end, 10);
    const rpl_kernels_t *const *paths = simd;
    int npaths = nsimd;
    const rpl_kernels_t *const only_c[1] = {ref_k};
    if (npaths == 0) { /* still exercise the harness */
        paths = only_c;
        npaths = 1;
    }
    int bad = 0;
    if (end == num || *end != '\0' || n < 0) {
        fprintf(stderr, "test_paths: bad case number '%s'\n", num);
        return 2;
    }
    crash_hook_on();
    if (strcmp(kind, "step") == 0 && n < STEP_CASES) {
        step_case_t c;
        step_ref_t r;
        step_case_make((int)n, &c);
        step_reference(&c, &r);
        bad += step_ref_selfcheck(&c, &r);
        for (int p = 0; p < npaths; p++)
            bad += step_run_path(&c, &r, paths[p], 1);
        step_ref_free(&r);
    } else if (strcmp(kind, "wave") == 0 && n < WAVE_CASES) {
        step_case_t c;
        step_ref_t r;
        wave_case_make((int)n, &c);
        step_reference(&c, &r);
        bad += step_ref_selfcheck(&c, &r);
        for (int p = 0; p < npaths; p++)
            bad += step_run_path(&c, &r, paths[p], 1);
        step_ref_free(&r);
    } else if (strcmp(kind, "refract") == 0 && n < RF_CASES) {
        refract_case_t c;
        refract_ref_t r;
        refract_case_make((int)n, &c);
        refract_reference(&c, &r);
        bad += refract_ref_selfcheck(&c, &r);
        for (int p = 0; p < npaths; p++)
            bad += refract_run_path(&c, &r, paths[p], 1);
        refract_ref_free(&r);
    } else if (strcmp(kind, "side") == 0 && n < SD_CASES) {
        bad += side_check_case((int)n, paths, npaths, 1);
    } else if (strcmp(kind, "shallow") == 0 && n < SD_CASES) {
        bad += shallow_check_case((int)n, paths, npaths, 1);
    } else if (strcmp(kind, "foam") == 0 && n < SD_CASES) {
        bad += foam_check_case((int)n, paths, npaths, 1);
    } else {
        fprintf(stderr, "test_paths: no %s case %ld (step 0..%d, wave 0..%d, refract 0..%d, "
                "side, shallow and foam 0..%d)\n", kind, n, STEP_CASES - 1, WAVE_CASES - 1, RF_CASES - 1,
                SD_CASES - 1);
        return 2;
    }
    crash_hook_off();
    guard_slots_release();
    return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
    shade_init();
    find_paths();
    if (argc == 2 && strcmp(argv[1], "--list") == 0) {
        if (!ref_k)
            return 1;
        puts("c");
        for (int p = 0; p < nsimd; p++)
            puts(simd[p]->name);
        return 0;
    }
    if (argc == 4 && strcmp(argv[1], "--case") == 0)
        return replay(argv[2], argv[3]);
    if (argc == 3 && strcmp(argv[1], "--subset") == 0) {
        char *end;
        long v = strtol(argv[2], &end, 10);
        if (*argv[2] < '1' || *argv[2] > '9' || *end || v > 1000) {
            fprintf(stderr, "test_paths: --subset wants a whole number 1..1000\n");
            return 2;
        }
        subset = (int)v;
    } else if (argc != 1) {
        fprintf(stderr, "usage: test_paths [--list | --case step|wave|refract|side|shallow N | --subset N]\n");
        return 2;
    }
    if (!ref_k) {
        printf("the \"c\" kernels are missing\n");
        return 1;
    }

    printf("paths compared with c:");
    for (int p = 0; p < nsimd; p++)
        printf(" %s", simd[p]->name);
    printf("%s\n", nsimd ? "" : " none (only the reference's own checks run)");
    for (int i = 0; rpl_kernels_known(i) != NULL; i++) {
        const rpl_kernels_t *k = NULL;
        rpl_status st = rpl_kernels_find(rpl_kernels_known(i), &k);
        if (st == RPL_ENOTSUP)
            printf("skipped: %s (not supported on this CPU or not in this build)\n",
                   rpl_kernels_known(i));
        else if (st != RPL_OK)
            printf("skipped: %s (%s)\n", rpl_kernels_known(i), rpl_strerror(st));
    }
    printf("%d step cases, %d wave cases, %d refraction cases (each in XRGB8888, RGB565 and "
           "INDEX8)", STEP_CASES, WAVE_CASES, RF_CASES);
    if (subset != 1)
        printf("; of the random cases every %dth only (--subset)", subset);
    printf("\n");
    fflush(stdout);

    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kernels_find),
        cmocka_unit_test(test_crc32_check_value),
        cmocka_unit_test(test_rnd_mod),
        cmocka_unit_test(test_guard_pages_fault),
        cmocka_unit_test(test_step_size_sweep),
        cmocka_unit_test(test_step_odd_and_large_sizes),
        cmocka_unit_test(test_step_random),
        cmocka_unit_test(test_step_drift),
        cmocka_unit_test(test_step_reference_crc),
        cmocka_unit_test(test_wave_cases),
        cmocka_unit_test(test_wave_reference_crc),
        cmocka_unit_test(test_refract_size_sweep),
        cmocka_unit_test(test_refract_odd_and_large_sizes),
        cmocka_unit_test(test_refract_random),
        cmocka_unit_test(test_refract_reference_crc),
        cmocka_unit_test(test_guards_on_reference),
        cmocka_unit_test(test_sim_agreement),
        cmocka_unit_test(test_sim_agreement_wave),
        cmocka_unit_test(test_side_deep_cases),
        cmocka_unit_test(test_side_shallow_cases),
        cmocka_unit_test(test_side_renderer_kernels),
        cmocka_unit_test(test_side_foam_cases),
        cmocka_unit_test(test_side_drop_cases),
        cmocka_unit_test(test_side_wide_row),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
