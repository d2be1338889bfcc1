/* test_walls.c - walls, absorbing edges and the drop hook: the API, the same bytes on every path, thread count and sleeping setting, and what the water does (cmocka). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ripple.h"
#include "util.h"

/* ---- a reference of the rule with walls and edges ---------------------- */

/*
 * Written from ripple.h alone: the wave rule ("the height contract" and
 * rpl_sim_step), then for absorbing edges the band of rpl_sim_set_edges,
 * then walls to 0.  Steps plain arrays; never calls the core.
 */
typedef struct ref {
    int w, h;
    int16_t *cur, *prev;
    const uint8_t *walls; /* NULL: none */
    int absorb;
} ref_t;

static int ref_band(int w, int h)
{
    int m = w < h ? w : h;
    int b = m / 4;
    return b > RPL_ABSORB_BAND ? RPL_ABSORB_BAND : b < 1 ? 1 : b;
}

/* k(d) = round(96 * (band + 1 - d)^4 / (band + 1)^4), for d in 1..band. */
static int ref_k(int band, int d)
{
    if (d < 1 || d > band)
        return 0;
    double s = (double)(band + 1 - d) / (band + 1);
    return (int)floor(96.0 * s * s * s * s + 0.5);
}

static void ref_step(ref_t *r)
{
    int w = r->w, h = r->h, band = ref_band(w, h);
    int16_t *next = new_plane(w, h);
    for (int y = 1; y < h - 1; y++)
        for (int x = 1; x < w - 1; x++) {
            size_t i = (size_t)y * (size_t)w + (size_t)x;
            int64_t sum = (int64_t)r->cur[i - 1] + r->cur[i + 1] + r->cur[i - (size_t)w] +
                          r->cur[i + (size_t)w];
            int64_t n = floor_div_pow2(sum, 1) - r->prev[i];
            n -= floor_div_pow2(n, 5);
            n = clamp64(n, RPL_HEIGHT_MIN, RPL_HEIGHT_MAX);
            if (r->absorb) {
                int d = x;
                d = y < d ? y : d;
                d = w - 1 - x < d ? w - 1 - x : d;
                d = h - 1 - y < d ? h - 1 - y : d;
                /* (n - u) * k / 256, rounded towards 0 */
                int64_t cut = (n - r->cur[i]) * ref_k(band, d);
                n -= cut >= 0 ? cut / 256 : -(-cut / 256);
            }
            if (r->walls && r->walls[i])
                n = 0;
            next[i] = (int16_t)n;
        }
    free(r->prev);
    r->prev = r->cur;
    r->cur = next;
}

/* ---- random walls ----------------------------------------------------- */

/* Random rectangles and lines (through the API, some reaching off the
 * field, some opening again), or a random mask, on sim. */
static void random_walls(rpl_sim_t *sim, uint64_t *s)
{
    int w = width_of(sim), h = height_of(sim);
    if (rnd_range(s, 0, 2) == 0) {
        uint8_t *m = xmalloc(cells(sim));
        int pct = rnd_range(s, 1, 40);
        for (size_t i = 0; i < cells(sim); i++)
            m[i] = (uint8_t)(rnd_range(s, 0, 99) < pct ? rnd_range(s, 1, 255) : 0);
        assert_int_equal(rpl_sim_set_walls(sim, m), RPL_OK);
        free(m);
        return;
    }
    int n = rnd_range(s, 1, 8);
    for (int i = 0; i < n; i++) {
        int solid = rnd_range(s, 0, 4) != 0;
        if (rnd_range(s, 0, 1))
            assert_int_equal(rpl_sim_wall_rect(sim, rnd_range(s, -5, w), rnd_range(s, -5, h),
                                               rnd_range(s, 0, w / 2 + 2),
                                               rnd_range(s, 0, h / 2 + 2), solid),
                             RPL_OK);
        else
            assert_int_equal(rpl_sim_wall_line(sim, rnd_range(s, -10, w + 10),
                                               rnd_range(s, -10, h + 10),
                                               rnd_range(s, -10, w + 10),
                                               rnd_range(s, -10, h + 10), rnd_range(s, 1, 5),
                                               solid),
                             RPL_OK);
    }
}

/* A random state: heights of every kind, with calm areas (so that tiles
 * sleep) or without. */
static void random_heights(rpl_sim_t *sim, uint64_t *s)
{
    int w = width_of(sim), h = height_of(sim);
    int16_t *c = new_plane(w, h), *p = new_plane(w, h);
    int kind = rnd_range(s, 0, 3);
    for (int y = 1; y < h - 1; y++)
        for (int x = 1; x < w - 1; x++) {
            size_t i = (size_t)y * (size_t)w + (size_t)x;
            switch (kind) {
            case 0: /* anything in the range */
                c[i] = (int16_t)rnd_range(s, RPL_HEIGHT_MIN, RPL_HEIGHT_MAX);
                p[i] = (int16_t)rnd_range(s, RPL_HEIGHT_MIN, RPL_HEIGHT_MAX);
                break;
            case 1: /* the extremes only, like a chessboard */
                c[i] = (x + y) % 2 ? RPL_HEIGHT_MAX : RPL_HEIGHT_MIN;
                p[i] = (x + y) % 2 ? RPL_HEIGHT_MIN : RPL_HEIGHT_MAX;
                break;
            case 2: /* blobs in calm water: tiles asleep around them */
                if ((x / 16 + y / 8) % 5 == 0) {
                    c[i] = (int16_t)rnd_range(s, -3000, 3000);
                    p[i] = (int16_t)rnd_range(s, -300, 300);
                }
                break;
            default: /* small values, where the rounding of >> shows */
                c[i] = (int16_t)rnd_range(s, -40, 40);
                p[i] = (int16_t)rnd_range(s, -40, 40);
                break;
            }
        }
    assert_int_equal(rpl_sim_set_state(sim, c, p), RPL_OK);
    free(c);
    free(p);
}

static void assert_walls_zero(const rpl_sim_t *sim)
{
    const uint8_t *m = rpl_sim_walls(sim);
    if (!m)
        return;
    const int16_t *c = cur_of(sim), *p = prev_of(sim);
    for (size_t i = 0, n = cells(sim); i < n; i++)
        if (m[i] && (c[i] || p[i]))
            fail_msg("wall cell (%zu, %zu) holds %d / %d", i % (size_t)width_of(sim),
                     i / (size_t)width_of(sim), c[i], p[i]);
}

/* ---- the API ------------------------------------------------------------ */

static void test_null_and_bad_arguments(void **state)
{
    (void)state;
    uint8_t m[9] = {0};
    assert_int_equal(rpl_sim_set_walls(NULL, m), RPL_EINVAL);
    assert_int_equal(rpl_sim_wall_rect(NULL, 0, 0, 1, 1, 1), RPL_EINVAL);
    assert_int_equal(rpl_sim_wall_line(NULL, 0, 0, 1, 1, 1, 1), RPL_EINVAL);
    assert_null(rpl_sim_walls(NULL));
    assert_int_equal(rpl_sim_set_edges(NULL, RPL_EDGES_ABSORB), RPL_EINVAL);
    assert_int_equal(rpl_sim_edges(NULL), RPL_EDGES_REFLECT);
    rpl_sim_set_drop_hook(NULL, NULL, NULL); /* harmless */

    rpl_sim_t *sim = new_sim(20, 10, 1);
    assert_null(rpl_sim_walls(sim)); /* no walls to start with */
    assert_int_equal(rpl_sim_edges(sim), RPL_EDGES_REFLECT);
    assert_int_equal(rpl_sim_wall_rect(sim, 2, 2, -1, 3, 1), RPL_EINVAL);
    assert_true(strstr(rpl_sim_error(sim), "negative") != NULL);
    assert_int_equal(rpl_sim_wall_rect(sim, 2, 2, 3, INT_MIN, 1), RPL_EINVAL);
    assert_int_equal(rpl_sim_wall_line(sim, 0, 0, 5, 5, 0, 1), RPL_EINVAL);
    assert_true(strstr(rpl_sim_error(sim), "thickness 0") != NULL);
    assert_int_equal(rpl_sim_wall_line(sim, 0, 0, 5, 5, RPL_WALL_THICK_MAX + 1, 1), RPL_EINVAL);
    assert_int_equal(rpl_sim_wall_line(sim, 0, 0, 5, 5, -3, 1), RPL_EINVAL);
    assert_null(rpl_sim_walls(sim)); /* refused calls changed nothing */
    assert_int_equal(rpl_sim_set_edges(sim, (rpl_edges)2), RPL_EINVAL);
    assert_int_equal(rpl_sim_set_edges(sim, (rpl_edges)-1), RPL_EINVAL);
    assert_int_equal(rpl_sim_edges(sim), RPL_EDGES_REFLECT);
    assert_int_equal(rpl_sim_set_edges(sim, RPL_EDGES_ABSORB), RPL_OK);
    assert_int_equal(rpl_sim_edges(sim), RPL_EDGES_ABSORB);
    assert_int_equal(rpl_sim_set_edges(sim, (rpl_edges)7), RPL_EINVAL);
    assert_int_equal(rpl_sim_edges(sim), RPL_EDGES_ABSORB);
    assert_int_equal(rpl_sim_set_edges(sim, RPL_EDGES_REFLECT), RPL_OK);
    assert_int_equal(rpl_sim_edges(sim), RPL_EDGES_REFLECT);
    /* empty or wholly outside: nothing, and no mask is made */
    assert_int_equal(rpl_sim_wall_rect(sim, 3, 3, 0, 4, 1), RPL_OK);
    assert_int_equal(rpl_sim_wall_rect(sim, 20, 0, 5, 5, 1), RPL_OK);
    assert_int_equal(rpl_sim_wall_rect(sim, -10, 0, 10, 5, 1), RPL_OK);
    assert_int_equal(rpl_sim_wall_rect(sim, INT_MAX, INT_MAX, INT_MAX, INT_MAX, 1), RPL_OK);
    assert_int_equal(rpl_sim_wall_line(sim, -100, -100, -50, -50, 3, 1), RPL_OK);
    assert_int_equal(rpl_sim_wall_line(sim, INT_MIN, INT_MIN, INT_MIN, INT_MAX, 9, 1), RPL_OK);
    assert_null(rpl_sim_walls(sim));
    rpl_sim_destroy(sim);
}

static void test_rect_and_mask(void **state)
{
    (void)state;
    const int w = 12, h = 9;
    rpl_sim_t *sim = new_sim(w, h, 2);
    random_state(sim, 5, -2000, 2000);
    int16_t *c0 = copy_plane(cur_of(sim), cells(sim)), *p0 = copy_plane(prev_of(sim), cells(sim));
    assert_true(rpl_sim_walls_serial(NULL) == 0);
    uint64_t serial = rpl_sim_walls_serial(sim);
    /* clipped at the top left: cells x 0..2, y 0..1 */
    assert_int_equal(rpl_sim_wall_rect(sim, -2, -3, 5, 5, 1), RPL_OK);
    assert_true(rpl_sim_walls_serial(sim) != serial); /* the walls changed */
    serial = rpl_sim_walls_serial(sim);
    assert_int_equal(rpl_sim_wall_rect(sim, 40, 40, 5, 5, 1), RPL_OK); /* off the field */
    assert_true(rpl_sim_walls_serial(sim) == serial);
    rpl_sim_step(sim);
    assert_true(rpl_sim_walls_serial(sim) == serial); /* water moving is no change */
    rpl_sim_destroy(sim);
    sim = new_sim(w, h, 2);
    random_state(sim, 5, -2000, 2000);
    assert_int_equal(rpl_sim_wall_rect(sim, -2, -3, 5, 5, 1), RPL_OK);
    /* and a big one reaching out at the bottom right: x 9..11, y 6..8 */
    assert_int_equal(rpl_sim_wall_rect(sim, 9, 6, INT_MAX, INT_MAX, 7), RPL_OK);
    const uint8_t *m = rpl_sim_walls(sim);
    assert_non_null(m);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            size_t i = (size_t)(y * w + x);
            int solid = (x <= 2 && y <= 1) || (x >= 9 && y >= 6);
            if (m[i] != solid)
                fail_msg("cell (%d, %d) is %d, want %d", x, y, m[i], solid);
            /* heights under the walls went to 0 at once, the rest stayed */
            assert_int_equal(cur_of(sim)[i], solid ? 0 : c0[i]);
            assert_int_equal(prev_of(sim)[i], solid ? 0 : p0[i]);
        }
    /* opening a part; the mask stays while a cell is solid */
    assert_int_equal(rpl_sim_wall_rect(sim, 0, 0, 12, 2, 0), RPL_OK);
    m = rpl_sim_walls(sim);
    assert_non_null(m);
    assert_int_equal(m[0], 0);
    assert_int_equal(m[8 * w + 11], 1);
    /* opening the last solid cells lets the mask go */
    serial = rpl_sim_walls_serial(sim);
    assert_int_equal(rpl_sim_wall_rect(sim, 0, 0, w, h, 0), RPL_OK);
    assert_null(rpl_sim_walls(sim));
    assert_true(rpl_sim_walls_serial(sim) != serial);

    /* a whole mask: nonzero bytes are solid, kept as 1 */
    uint8_t *mask = calloc(cells(sim), 1);
    assert_non_null(mask);
    mask[3 * w + 4] = 200;
    mask[5 * w + 5] = 1;
    random_state(sim, 6, -2000, 2000);
    assert_int_equal(rpl_sim_set_walls(sim, mask), RPL_OK);
    mask[3 * w + 4] = 0; /* the field keeps its own copy */
    m = rpl_sim_walls(sim);
    assert_non_null(m);
    for (size_t i = 0; i < cells(sim); i++)
        assert_int_equal(m[i], i == (size_t)(3 * w + 4) || i == (size_t)(5 * w + 5));
    assert_walls_zero(sim);
    /* an all-open mask is no walls */
    memset(mask, 0, cells(sim));
    assert_int_equal(rpl_sim_set_walls(sim, mask), RPL_OK);
    assert_null(rpl_sim_walls(sim));
    assert_int_equal(rpl_sim_wall_rect(sim, 1, 1, 1, 1, 1), RPL_OK);
    assert_int_equal(rpl_sim_set_walls(sim, NULL), RPL_OK);
    assert_null(rpl_sim_walls(sim));
    free(mask);
    free(c0);
    free(p0);
    rpl_sim_destroy(sim);
}

/* Distance squared from (px, py) to the segment, by the textbook formula
 * in doubles. */
static double seg_dist2(double px, double py, double x0, double y0, double x1, double y1)
{
    double dx = x1 - x0, dy = y1 - y0, l2 = dx * dx + dy * dy;
    double t = l2 > 0 ? ((px - x0) * dx + (py - y0) * dy) / l2 : 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    double ex = x0 + t * dx - px, ey = y0 + t * dy - py;
    return ex * ex + ey * ey;
}

static void test_line(void **state)
{
    (void)state;
    const int w = 40, h = 30;
    uint64_t s = 77;
    for (int n = 0; n < 300; n++) {
        rpl_sim_t *sim = new_sim(w, h, 1);
        int x0 = rnd_range(&s, -8, w + 8), y0 = rnd_range(&s, -8, h + 8);
        int x1 = rnd_range(&s, -8, w + 8), y1 = rnd_range(&s, -8, h + 8);
        if (n % 10 == 0) { /* a point */
            x1 = x0;
            y1 = y0;
        }
        int t = rnd_range(&s, 1, 9);
        assert_int_equal(rpl_sim_wall_line(sim, x0, y0, x1, y1, t, 1), RPL_OK);
        const uint8_t *m = rpl_sim_walls(sim);
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                double d2 = seg_dist2(x, y, x0, y0, x1, y1), lim = t * t / 4.0;
                if (fabs(d2 - lim) < 1e-9)
                    continue; /* exactly on the rim: the doubles cannot tell */
                int want = d2 < lim;
                int got = m ? m[y * w + x] : 0;
                if (got != want)
                    fail_msg("line (%d,%d)-(%d,%d) thickness %d: cell (%d, %d) is %d, want %d",
                             x0, y0, x1, y1, t, x, y, got, want);
            }
        /* opening the same line again leaves nothing */
        assert_int_equal(rpl_sim_wall_line(sim, x0, y0, x1, y1, t, 0), RPL_OK);
        assert_null(rpl_sim_walls(sim));
        rpl_sim_destroy(sim);
    }
    /* ends far outside: the part across the field is still drawn */
    rpl_sim_t *sim = new_sim(w, h, 1);
    assert_int_equal(rpl_sim_wall_line(sim, INT_MIN / 2, 15, INT_MAX / 2, 15, 1, 1), RPL_OK);
    const uint8_t *m = rpl_sim_walls(sim);
    assert_non_null(m);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            assert_int_equal(m[y * w + x], y == 15);
    rpl_sim_destroy(sim);
}

/* A thin line is watertight: water dropped on one side of a closed line
 * of thickness 1, at any slope, never reaches the other side. */
static void test_thin_line_is_watertight(void **state)
{
    (void)state;
    const int w = 96, h = 96;
    static const int ends[][2] = {{95, 0}, {95, 40}, {95, 95}, {60, 95}, {20, 95}};
    for (size_t k = 0; k < sizeof ends / sizeof ends[0]; k++) {
        rpl_sim_t *sim = new_sim(w, h, 1);
        /* the line from the top left corner splits the field in two */
        assert_int_equal(rpl_sim_wall_line(sim, 0, 0, ends[k][0], ends[k][1], 1, 1), RPL_OK);
        /* a stone below the line, far from it */
        int sx = 6, sy = 90;
        assert_int_equal(rpl_sim_drop(sim, sx, sy, 3, 5000), RPL_OK);
        for (int i = 0; i < 400; i++) {
            rpl_sim_step(sim);
            /* above the line (cross product of the other sign) stays 0 */
            const int16_t *c = cur_of(sim);
            const uint8_t *walls = rpl_sim_walls(sim);
            for (int y = 1; y < h - 1; y++)
                for (int x = 1; x < w - 1; x++) {
                    long side = (long)ends[k][0] * y - (long)ends[k][1] * x;
                    long stone = (long)ends[k][0] * sy - (long)ends[k][1] * sx;
                    if ((side > 0) != (stone > 0) && c[y * w + x] != 0 && !walls[y * w + x])
                        fail_msg("line to (%d, %d): water at (%d, %d) after %d steps",
                                 ends[k][0], ends[k][1], x, y, i + 1);
                }
        }
        rpl_sim_destroy(sim);
    }
}

static void test_walls_win_over_stones_and_states(void **state)
{
    (void)state;
    const int w = 30, h = 20;
    rpl_sim_t *sim = new_sim(w, h, 3);
    assert_int_equal(rpl_sim_wall_rect(sim, 10, 5, 4, 4, 1), RPL_OK);
    assert_int_equal(rpl_sim_drop(sim, 12, 7, 6, 3000), RPL_OK);
    assert_int_equal(rpl_sim_trail(sim, 2, 7, 28, 7, 2, 3000), RPL_OK);
    assert_walls_zero(sim);
    assert_int_equal(at(sim, cur_of(sim), 9, 7), -3000); /* beside the wall */
    assert_int_equal(at(sim, cur_of(sim), 14, 7), -3000);
    /* a whole state is taken with the wall cells zeroed */
    int16_t *c = new_plane(w, h), *p = new_plane(w, h);
    uint64_t s = 9;
    random_plane(c, w, h, &s, -5000, 5000);
    random_plane(p, w, h, &s, -5000, 5000);
    assert_int_equal(rpl_sim_set_state(sim, c, p), RPL_OK);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int solid = x >= 10 && x < 14 && y >= 5 && y < 9;
            assert_int_equal(at(sim, cur_of(sim), x, y), solid ? 0 : c[y * w + x]);
            assert_int_equal(at(sim, prev_of(sim), x, y), solid ? 0 : p[y * w + x]);
        }
    for (int i = 0; i < 50; i++) {
        rpl_sim_step(sim);
        assert_walls_zero(sim);
    }
    /* a reset calms the water and keeps the walls and the edges */
    assert_int_equal(rpl_sim_set_edges(sim, RPL_EDGES_ABSORB), RPL_OK);
    rpl_sim_reset(sim, 4);
    assert_non_null(rpl_sim_walls(sim));
    assert_int_equal(rpl_sim_walls(sim)[6 * w + 11], 1);
    assert_int_equal(rpl_sim_edges(sim), RPL_EDGES_ABSORB);
    free(c);
    free(p);
    rpl_sim_destroy(sim);
}

/* ---- the drop hook ------------------------------------------------------ */

typedef struct heard {
    rpl_sim_t *sim;
    int n;
    int x[4096], y[4096], r[4096], wt[4096];
    int landed; /* every call found its stone already there */
} heard_t;

static void hear(void *user, int x, int y, int radius, int weight)
{
    heard_t *h = user;
    if (h->n < 4096) {
        h->x[h->n] = x;
        h->y[h->n] = y;
        h->r[h->n] = radius;
        h->wt[h->n] = weight;
    }
    h->n++;
    int16_t want = (int16_t)-weight;
    int w = width_of(h->sim), hh = height_of(h->sim);
    if (x >= 1 && y >= 1 && x <= w - 2 && y <= hh - 2 &&
        !(rpl_sim_walls(h->sim) && rpl_sim_walls(h->sim)[y * w + x]) &&
        at(h->sim, cur_of(h->sim), x, y) != want)
        h->landed = 0;
}

static void test_drop_hook(void **state)
{
    (void)state;
    const int w = 100, h = 80;
    rpl_sim_t *sim = new_sim(w, h, 5);
    heard_t *hd = calloc(1, sizeof *hd);
    assert_non_null(hd);
    hd->sim = sim;
    hd->landed = 1;
    rpl_sim_set_drop_hook(sim, hear, hd);

    assert_int_equal(rpl_sim_drop(sim, 10, 20, 4, 700), RPL_OK);
    assert_int_equal(hd->n, 1);
    assert_int_equal(hd->x[0], 10);
    assert_int_equal(hd->y[0], 20);
    assert_int_equal(hd->r[0], 4);
    assert_int_equal(hd->wt[0], 700);
    /* the weight as applied: clamped so that -weight is a height */
    assert_int_equal(rpl_sim_drop(sim, 50, 40, 2, 30000), RPL_OK);
    assert_int_equal(hd->wt[1], -RPL_HEIGHT_MIN);
    assert_int_equal(rpl_sim_drop(sim, 50, 40, 2, -30000), RPL_OK);
    assert_int_equal(hd->wt[2], -RPL_HEIGHT_MAX);
    /* refused stones and stones wholly off the interior are not told */
    assert_int_equal(rpl_sim_drop(sim, 50, 40, 0, 100), RPL_EINVAL);
    assert_int_equal(rpl_sim_drop(sim, -10, 40, 5, 100), RPL_OK);
    assert_int_equal(rpl_sim_drop(sim, INT_MAX, INT_MIN, 5, 100), RPL_OK);
    assert_int_equal(hd->n, 3);
    /* half off the edge: told, with its centre */
    assert_int_equal(rpl_sim_drop(sim, -2, 40, 5, 100), RPL_OK);
    assert_int_equal(hd->n, 4);
    assert_int_equal(hd->x[3], -2);
    /* a trail tells each of its stones: radius 4, spacing 2, 20 cells: 11 */
    hd->n = 0;
    assert_int_equal(rpl_sim_trail(sim, 20, 10, 40, 10, 4, 500), RPL_OK);
    assert_int_equal(hd->n, 11);
    for (int i = 0; i < 11; i++) {
        assert_int_equal(hd->x[i], 20 + 2 * i);
        assert_int_equal(hd->y[i], 10);
        assert_int_equal(hd->r[i], 4);
        assert_int_equal(hd->wt[i], 500);
    }
    /* on a wall: told (the stone fell), the wall stays 0 */
    assert_int_equal(rpl_sim_wall_rect(sim, 60, 60, 10, 10, 1), RPL_OK);
    hd->n = 0;
    assert_int_equal(rpl_sim_drop(sim, 65, 65, 3, 900), RPL_OK);
    assert_int_equal(hd->n, 1);
    assert_walls_zero(sim);
    /* the rain and the autopilot drop through rpl_sim_drop: one call each */
    hd->n = 0;
    rpl_rain_t rain = {5000, 1, 4, 100, 900}; /* five stones a step */
    for (int i = 0; i < 10; i++)
        assert_int_equal(rpl_sim_rain(sim, &rain), RPL_OK);
    assert_int_equal(hd->n, 50);
    for (int i = 0; i < 50; i++) {
        assert_true(hd->r[i] >= 1 && hd->r[i] <= 4);
        assert_true(hd->wt[i] >= 100 && hd->wt[i] <= 900);
        assert_true(hd->x[i] >= 1 && hd->x[i] <= w - 2);
    }
    hd->n = 0;
    rpl_autopilot_t *ap = new_autopilot(3);
    for (int i = 0; i < 600; i++)
        rpl_autopilot_tick(ap, sim);
    rpl_autopilot_destroy(ap);
    assert_true(hd->n > 0);
    assert_true(hd->landed);
    /* NULL removes the hook */
    rpl_sim_set_drop_hook(sim, NULL, hd);
    int before = hd->n;
    assert_int_equal(rpl_sim_drop(sim, 30, 30, 3, 100), RPL_OK);
    assert_int_equal(rpl_sim_trail(sim, 5, 5, 50, 50, 3, 100), RPL_OK);
    assert_int_equal(hd->n, before);
    free(hd);
    rpl_sim_destroy(sim);
}

/* ---- exactness ------------------------------------------------------------ */

static const rpl_kernels_t *paths[8];
static int npaths;

/* Every path this CPU has; when RIPPLE_SIMD names one (the test programs
 * run once per path that way), "c" and that one only: the runs on every
 * path then compare each of them with "c", as one run over all would,
 * for a quarter of the work. */
static void find_paths(void)
{
    const char *forced = getenv("RIPPLE_SIMD");
    if (forced && (!*forced || strcmp(forced, "auto") == 0))
        forced = NULL;
    npaths = 0;
    for (int i = 0; rpl_kernels_known(i) != NULL && npaths < 8; i++) {
        const char *name = rpl_kernels_known(i);
        const rpl_kernels_t *k = rpl_kernels_get(name);
        if (k && (!forced || strcmp(name, "c") == 0 || strcmp(name, forced) == 0))
            paths[npaths++] = k;
    }
}

/* Random states, walls and edges stepped by the reference and by the "c"
 * path (one thread, sleeping off): the same bytes after every step. */
static void test_reference(void **state)
{
    (void)state;
    static const int sizes[][2] = {{3, 3}, {4, 3}, {3, 7}, {5, 5}, {65, 33}, {64, 32},
                                   {100, 40}, {17, 130}, {130, 17}, {3, 90}, {90, 4},
                                   {6, 7}, {130, 66}};
    const rpl_kernels_t *c = rpl_kernels_get("c");
    assert_non_null(c);
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++)
        for (int rep = 0; rep < 6; rep++) {
            int w = sizes[z][0], h = sizes[z][1];
            uint64_t s = 1000 * z + (uint64_t)rep;
            rpl_sim_t *sim = new_sim(w, h, 1);
            assert_int_equal(rpl_sim_set_kernels(sim, c), RPL_OK);
            rpl_sim_set_sleeping(sim, 0);
            random_heights(sim, &s);
            if (rep % 3 != 2)
                random_walls(sim, &s);
            int absorb = rep % 2 == 0;
            assert_int_equal(rpl_sim_set_edges(sim, absorb ? RPL_EDGES_ABSORB : RPL_EDGES_REFLECT),
                             RPL_OK);
            ref_t r = {w, h, copy_plane(cur_of(sim), cells(sim)),
                       copy_plane(prev_of(sim), cells(sim)), rpl_sim_walls(sim), absorb};
            for (int i = 0; i < 40; i++) {
                ref_step(&r);
                rpl_sim_step(sim);
                const int16_t *sc = cur_of(sim), *sp = prev_of(sim);
                for (size_t j = 0, n = cells(sim); j < n; j++)
                    if (sc[j] != r.cur[j] || sp[j] != r.prev[j])
                        fail_msg("%dx%d rep %d (absorb %d): cell (%zu, %zu) after step %d is "
                                 "%d, the reference says %d",
                                 w, h, rep, absorb, j % (size_t)w, j / (size_t)w, i + 1,
                                 sc[j], r.cur[j]);
            }
            free(r.cur);
            free(r.prev);
            rpl_sim_destroy(sim);
        }
}

/* Every path x threads 1, 2, 3, 7 x sleeping off and on: the same random
 * state, walls (changed on the way), edges, stones, trails and rain give
 * the same heights and the same frames after every step.  A sleeping
 * field steps on one thread until 128 of its tiles are awake (field.c):
 * under an emulated CPU, whose fields are all smaller than that, the
 * sleeping variants take two of the thread counts, 1 and 7, the others
 * being the same work again. */
static void run_matrix(int w, int h, int steps, uint64_t seed, int absorb)
{
    static const int threads[] = {1, 2, 3, 7};
    enum { NT = 4, MAXV = 8 * NT * 2 };
    rpl_sim_t *v[MAXV];
    rpl_renderer_t *ren[MAXV];
    uint32_t *fb[MAXV];
    int vp[MAXV], vt[MAXV], vs[MAXV]; /* each variant's path, thread count, sleeping */
    int nv = 0;
    size_t npx = (size_t)w * (size_t)h;
    uint32_t *bg = random_bg(w, h, seed);
    rpl_backdrop_t *bd = new_backdrop(bg, w, h, RPL_XRGB8888);
    uint64_t s = seed;
    for (int p = 0; p < npaths; p++)
        for (int t = 0; t < NT; t++)
            for (int sl = 0; sl < 2; sl++) {
                int tiles = (w + RPL_TILE_W - 1) / RPL_TILE_W * ((h + RPL_TILE_H - 1) / RPL_TILE_H);
                if (sl && test_quick() && threads[t] != 1 && threads[t] != 7 && tiles < 128)
                    continue;
                vp[nv] = p, vt[nv] = threads[t], vs[nv] = sl;
                rpl_sim_t *sim = new_sim(w, h, seed);
                assert_int_equal(rpl_sim_set_kernels(sim, paths[p]), RPL_OK);
                assert_int_equal(rpl_sim_set_threads(sim, threads[t]), RPL_OK);
                rpl_sim_set_sleeping(sim, sl);
                uint64_t s2 = seed;
                random_heights(sim, &s2);
                random_walls(sim, &s2);
                s = s2;
                assert_int_equal(rpl_sim_set_edges(sim, absorb ? RPL_EDGES_ABSORB
                                                               : RPL_EDGES_REFLECT),
                                 RPL_OK);
                rpl_status st = RPL_EIO;
                st = rpl_renderer_create(sim, &ren[nv]);
                assert_int_equal(st, RPL_OK);
                fb[nv] = xmalloc(npx * 4);
                v[nv++] = sim;
            }
    rpl_rain_t rain = {200, 1, 5, -3000, 9000};
    rpl_view_t view = {RPL_STRENGTH_ONE, 1};
    for (int i = 0; i < steps; i++) {
        uint64_t s0 = s;
        for (int k = 0; k < nv; k++) {
            s = s0;
            if (i % 7 == 3)
                assert_int_equal(rpl_sim_drop(v[k], rnd_range(&s, -3, w + 3),
                                              rnd_range(&s, -3, h + 3), rnd_range(&s, 1, 9),
                                              rnd_range(&s, -30000, 30000)),
                                 RPL_OK);
            if (i % 11 == 5)
                assert_int_equal(rpl_sim_trail(v[k], rnd_range(&s, 0, w), rnd_range(&s, 0, h),
                                               rnd_range(&s, 0, w), rnd_range(&s, 0, h),
                                               rnd_range(&s, 1, 4), 8000),
                                 RPL_OK);
            if (i % 13 == 6) /* the walls change while the water moves */
                random_walls(v[k], &s);
            assert_int_equal(rpl_sim_rain(v[k], &rain), RPL_OK);
            rpl_sim_step(v[k]);
            assert_int_equal(rpl_renderer_draw(ren[k], bd, fb[k], (ptrdiff_t)w * 4, &view),
                             RPL_OK);
        }
        assert_walls_zero(v[0]);
        assert_heights_in_range(cur_of(v[0]), npx);
        assert_border_zero(cur_of(v[0]), w, h);
        for (int k = 1; k < nv; k++) {
            if (memcmp(cur_of(v[0]), cur_of(v[k]), npx * 2) != 0 ||
                memcmp(prev_of(v[0]), prev_of(v[k]), npx * 2) != 0)
                fail_msg("%dx%d seed %llu absorb %d: path %s, %d threads, sleeping %d differs "
                         "after step %d",
                         w, h, (unsigned long long)seed, absorb, rpl_kernels_name(paths[vp[k]]),
                         vt[k], vs[k], i + 1);
            if (memcmp(fb[0], fb[k], npx * 4) != 0)
                fail_msg("%dx%d seed %llu absorb %d: path %s, %d threads, sleeping %d draws "
                         "another frame after step %d",
                         w, h, (unsigned long long)seed, absorb, rpl_kernels_name(paths[vp[k]]),
                         vt[k], vs[k], i + 1);
        }
    }
    for (int k = 0; k < nv; k++) {
        rpl_renderer_destroy(ren[k]);
        rpl_sim_destroy(v[k]);
        free(fb[k]);
    }
    rpl_backdrop_destroy(bd);
    free(bg);
}

static void test_paths_threads_sleeping(void **state)
{
    (void)state;
    static const int sizes[][3] = {{3, 3, 30}, {3, 5, 30}, {65, 33, 60}, {130, 97, 60},
                                   {200, 45, 80}, {513, 545, 20}};
    /* under an emulated CPU the largest field, 90% of the time, is left to
     * the native run: the others cross tiles, bands and threads as well */
    size_t nsizes = sizeof sizes / sizeof sizes[0] - (test_quick() ? 1 : 0);
    for (size_t z = 0; z < nsizes; z++)
        for (int absorb = 0; absorb < 2; absorb++)
            run_matrix(sizes[z][0], sizes[z][1], sizes[z][2], 40 + z * 2 + (uint64_t)absorb,
                       absorb);
}

/*
 * The band can move a cell the kernel left at 0: a cell at 50 whose four
 * neighbours were 25 a step ago computes 0 everywhere around it, but in
 * the band its change (-50) is cut, so it stays above 0.  Sitting on the
 * right edge of its tile, it must wake the tile beside it for the next
 * step, as it does with sleeping off.
 */
static void test_band_wakes_neighbours(void **state)
{
    (void)state;
    const int w = 200, h = 100, cx = RPL_TILE_W - 1, cy = 5;
    for (int p = 0; p < npaths; p++) {
        rpl_sim_t *v[2];
        for (int sl = 0; sl < 2; sl++) {
            v[sl] = new_sim(w, h, 1);
            assert_int_equal(rpl_sim_set_kernels(v[sl], paths[p]), RPL_OK);
            rpl_sim_set_sleeping(v[sl], sl);
            assert_int_equal(rpl_sim_set_edges(v[sl], RPL_EDGES_ABSORB), RPL_OK);
            int16_t *c = new_plane(w, h), *q = new_plane(w, h);
            c[cy * w + cx] = 50;
            q[cy * w + cx - 1] = q[cy * w + cx + 1] = 25;
            q[(cy - 1) * w + cx] = q[(cy + 1) * w + cx] = 25;
            assert_int_equal(rpl_sim_set_state(v[sl], c, q), RPL_OK);
            free(c);
            free(q);
        }
        for (int i = 0; i < 6; i++) {
            rpl_sim_step(v[0]);
            rpl_sim_step(v[1]);
            if (i == 0) /* the kernel made it 0, the band did not */
                assert_true(at(v[0], cur_of(v[0]), cx, cy) > 0);
            if (memcmp(cur_of(v[0]), cur_of(v[1]), cells(v[0]) * 2) != 0)
                fail_msg("path %s: sleeping differs after step %d", rpl_kernels_name(paths[p]),
                         i + 1);
        }
        rpl_sim_destroy(v[0]);
        rpl_sim_destroy(v[1]);
    }
}

/* Both buffers all 0. */
static int flat(const rpl_sim_t *sim)
{
    const int16_t *c = cur_of(sim), *p = prev_of(sim);
    for (size_t i = 0, n = cells(sim); i < n; i++)
        if (c[i] || p[i])
            return 0;
    return 1;
}

/* Absorbing edges come to rest like reflecting ones: after heavy rain the
 * water goes back to all 0 and every tile sleeps. */
static void test_absorbing_edges_come_to_rest(void **state)
{
    (void)state;
    for (int e = 0; e < 2; e++) {
        rpl_sim_t *sim = new_sim(320, 200, 1);
        assert_int_equal(rpl_sim_set_edges(sim, e ? RPL_EDGES_ABSORB : RPL_EDGES_REFLECT), RPL_OK);
        assert_int_equal(rpl_sim_wall_line(sim, 40, 150, 280, 30, 3, 1), RPL_OK);
        rpl_rain_t rain = {3000, 1, 8, -3000, 8000};
        for (int i = 0; i < 200; i++) {
            assert_int_equal(rpl_sim_rain(sim, &rain), RPL_OK);
            rpl_sim_step(sim);
        }
        assert_true(rpl_sim_energy(sim) > 0);
        int t = 0;
        for (; t < 1000 && !flat(sim); t++)
            rpl_sim_step(sim);
        for (int i = 0; i < 2; i++) /* the tiles' bits follow */
            rpl_sim_step(sim);
        rpl_stats_t st;
        rpl_sim_stats(sim, &st);
        print_message("%s edges: at rest %d steps after the rain\n", e ? "absorbing" : "reflecting",
                      t);
        assert_true(t < 1000);
        assert_true(flat(sim));
        assert_int_equal(st.stepped, 0);
        rpl_sim_destroy(sim);
    }
}

/* ---- what the water does ------------------------------------------------ */

/*
 * Absorbing edges.  A stone near the left edge of a 256x256 field; what
 * the edge sends back is the difference between the field and the same
 * stone on open water (a 768x768 field, whose edges are too far to answer
 * within the run), summed as squared heights over a region beside the
 * stone, away from the edge, over every step of the run: the ring goes
 * out, meets the edge, and what comes back crosses the region.  With
 * absorbing edges that must be less than a tenth of what a reflecting
 * edge sends back.
 */
static double sent_back(int absorb, int radius)
{
    const int n = 256, big = 768, off = 256, sx = RPL_ABSORB_BAND + 24, sy = n / 2;
    rpl_sim_t *a = new_sim(n, n, 1), *open = new_sim(big, big, 1);
    assert_int_equal(rpl_sim_set_edges(a, absorb ? RPL_EDGES_ABSORB : RPL_EDGES_REFLECT),
                     RPL_OK);
    assert_int_equal(rpl_sim_drop(a, sx, sy, radius, 4000), RPL_OK);
    assert_int_equal(rpl_sim_drop(open, sx + off, sy + off, radius, 4000), RPL_OK);
    double e = 0;
    for (int t = 0; t < 400; t++) {
        rpl_sim_step(a);
        rpl_sim_step(open);
        /* x from just inside the band to the middle, 64 rows about the stone */
        const int16_t *ha = cur_of(a), *ho = cur_of(open);
        for (int y = sy - 32; y < sy + 32; y++)
            for (int x = RPL_ABSORB_BAND + 8; x < n / 2; x++) {
                double d = (double)ha[y * n + x] - ho[(y + off) * big + x + off];
                e += d * d;
            }
    }
    rpl_sim_destroy(a);
    rpl_sim_destroy(open);
    return e;
}

static void test_absorbing_edges(void **state)
{
    (void)state;
    static const int radii[] = {3, 6, 12};
    for (size_t i = 0; i < sizeof radii / sizeof radii[0]; i++) {
        double refl = sent_back(0, radii[i]), abs = sent_back(1, radii[i]);
        print_message("absorbing edges, stone radius %d: %.3g sent back against %.3g when "
                      "reflecting, ratio %.4f\n",
                      radii[i], abs, refl, abs / refl);
        assert_true(refl > 1e5); /* the reflecting edge does send a ring back */
        assert_true(abs < 0.1 * refl);
    }
}

/*
 * Two slits.  A straight front comes from a trail of stones along the top
 * and meets a wall across the field with two narrow slits.  Behind the
 * wall, water appears only through the slits: while the front passes, the
 * cells just behind a slit move and those just behind the solid wall,
 * farther than the front could have spread sideways, stay still.  Past the
 * wall each slit sends out a half circle (diffraction): 12 rows behind the
 * wall the water 12 cells to the side of a slit, in the wall's geometric
 * shadow, moves a good part (a quarter, measured) of what the water
 * straight behind it does, where a front merely cut by the wall would
 * leave it still.
 */
static uint64_t box_energy(const rpl_sim_t *sim, int x0, int x1, int y0, int y1)
{
    uint64_t e = 0;
    const int16_t *c = cur_of(sim);
    const int w = width_of(sim);
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++) {
            int v = c[y * w + x];
            e += (uint64_t)(v * v);
        }
    return e;
}

static void test_two_slits(void **state)
{
    (void)state;
    const int w = 200, h = 160, wy = 60, s1 = 70, s2 = 130, gap = 6;
    rpl_sim_t *sim = new_sim(w, h, 1);
    assert_int_equal(rpl_sim_set_edges(sim, RPL_EDGES_ABSORB), RPL_OK);
    assert_int_equal(rpl_sim_wall_rect(sim, 0, wy, w, 3, 1), RPL_OK);
    assert_int_equal(rpl_sim_wall_rect(sim, s1 - gap / 2, wy, gap, 3, 0), RPL_OK);
    assert_int_equal(rpl_sim_wall_rect(sim, s2 - gap / 2, wy, gap, 3, 0), RPL_OK);
    assert_int_equal(rpl_sim_trail(sim, 20, 30, w - 21, 30, 4, 3000), RPL_OK);
    int near = wy + 4, far = wy + 3 + 12;
    uint64_t slit = 0, solid = 0, straight = 0, side = 0;
    for (int t = 1; t <= 120; t++) {
        rpl_sim_step(sim);
        if (t <= 60) { /* the front passes the wall */
            uint64_t e = box_energy(sim, s1 - 2, s1 + 3, near, near + 3);
            slit = e > slit ? e : slit;
            e = box_energy(sim, 30, 40, near, near + 3); /* 30 cells from a slit */
            solid = e > solid ? e : solid;
        }
        uint64_t e = box_energy(sim, s1 - 2, s1 + 3, far, far + 3);
        straight = e > straight ? e : straight;
        /* 12 cells to the outer side of the slit, in the shadow */
        e = box_energy(sim, s1 - 14, s1 - 9, far, far + 3);
        side = e > side ? e : side;
        assert_walls_zero(sim);
    }
    print_message("two slits: behind a slit %llu, behind the wall %llu; 12 rows on, "
                  "straight behind a slit %llu, 12 cells aside %llu\n",
                  (unsigned long long)slit, (unsigned long long)solid,
                  (unsigned long long)straight, (unsigned long long)side);
    assert_true(slit > 1000000);        /* the front came through the slit */
    assert_true(solid * 1000 < slit);   /* and not through the wall */
    assert_true(side * 10 > straight);  /* it spread into the shadow */
    rpl_sim_destroy(sim);
}

int main(void)
{
    find_paths();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_null_and_bad_arguments),
        cmocka_unit_test(test_rect_and_mask),
        cmocka_unit_test(test_line),
        cmocka_unit_test(test_thin_line_is_watertight),
        cmocka_unit_test(test_walls_win_over_stones_and_states),
        cmocka_unit_test(test_drop_hook),
        cmocka_unit_test(test_reference),
        cmocka_unit_test(test_paths_threads_sleeping),
        cmocka_unit_test(test_band_wakes_neighbours),
        cmocka_unit_test(test_absorbing_edges_come_to_rest),
        cmocka_unit_test(test_absorbing_edges),
        cmocka_unit_test(test_two_slits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
