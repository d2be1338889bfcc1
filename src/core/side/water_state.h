/* core/side/water_state.h - the side-view water's state, shared by its files:
 * the water itself (water.c), its springs (water_springs.c), its analytic rings (water_rings.c) and the
 * cache of a waves surface's heights (water_cache.c); not part of the API. */
#ifndef RPL_CORE_WATER_STATE_H
#define RPL_CORE_WATER_STATE_H

#include <stdint.h>

#include "core/base/dmath.h"
#include "core/base/error.h"
#include "ripple/side.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* Rings this close in time (seconds) and within a quarter wavelength are one. */
#define RPL_RING_MERGE_S RPL_D(0.1)

typedef struct ring {
    double x;        /* centre */
    double amp;      /* amplitude at birth, world units (down positive) */
    uint64_t born;   /* step count at birth: its age is (steps - born) * step */
} ring_t;

/* Where a ring's waves come from (water_rings.c): the ring and its images. */
enum { RING_SOURCES_MAX = 5 };

/* The rings' terms as they stand (water_rings.c; their memory follows the
 * grid's in one block, water_cache.c): every source of every ring alive
 * whose wave can reach the basin, in the order the surface sums them
 * (oldest ring first, its sources in rpl_water_ring_sources' order), each
 * with what the sum works out per ring; and the basin cut into nb
 * stretches ("buckets") of width bw, each with the terms whose reach meets
 * it (or all but meets it: a millionth of a bucket spare, water_rings.c).  A height in a bucket then walks that bucket's terms
 * only, and each still makes the sum's own test (|x - src| <= reach), in
 * the same order: the same sum, bit for bit, without looking at the rings
 * and images that cannot reach it (rpl_water_rings_eval).  Each term keeps
 * one slot of t[] for its ring's life (ring r's are base + r, counted
 * round RPL_WAVES_MAX, times TERM_RING_SLOTS, plus its source), so that
 * its place in the buckets never has to be told again: a step moves the
 * terms on where they are (rpl_water_terms_step: the dead and the newly
 * faint rings' terms out, a term into the buckets its reach has just
 * met, at its place in the order, and what changes with age refreshed), a
 * new ring's terms go after the others, a disturbance merged into a ring
 * changes only that ring's envelopes, the oldest ring dropped takes its
 * terms from the front; new parameters or a reset make them all again
 * (rpl_water_terms_build), which each of those must equal, bit for bit
 * (tests/test_water.c).  (Filling a bucket only when a height is asked
 * for in it would spare little: between two draws the simulation alone
 * reads heights in nearly every bucket, 20 of side-waves-3's 22.)  Each
 * bucket has room for every term (TERMS_MAX),
 * so that terms are put into it in the sum's order without counting them
 * first. */
enum {
    TERMS_MAX = RPL_WAVES_MAX * RING_SOURCES_MAX,
    TERM_BUCKETS_MAX = 32,
    TERM_RING_SLOTS = 8, /* a ring's slots in t[]: its sources, rounded up to a power of 2 */
    TERM_SLOTS = RPL_WAVES_MAX * TERM_RING_SLOTS
};

/* A term's wave at x, s = |x - src| <= reach, has the phase ph - s k in
 * the sine table's cells, RPL_SINTAB_N a turn (f (age - s / c) turns:
 * k = RPL_SINTAB_N / wavelength) and the height env sin, read from the
 * terms' table (core/base/dmath.h, rpl_sintab); its d/dt is
 * vs sin + vc cos, its d/dx sx cos times the sign of x - src. */
#define RPL_SINTAB_N (1 << RPL_SINTAB_BITS)
/* 2 pi in hex: on the x87 a decimal constant may keep more bits */
#define RPL_TWO_PI 0x1.921fb54442d18p+2

typedef struct term {
    double src;      /* where the wave comes from */
    double reach;    /* how far it has gone: c * age */
    double ph;       /* the phase at src: f * age * RPL_SINTAB_N */
    double env;      /* amp * fade * fade */
    double vs, vc;   /* amp * (-2 / life) * fade (the fading), env * 2 pi f */
    double sx;       /* env * -2 pi / wavelength */
    double fade;     /* 1 - age / life */
} term_t;

typedef struct terms {
    int nb;                             /* buckets, >= 1 */
    double bw;                          /* their width: (x1 - x0) / nb */
    double k;                           /* RPL_SINTAB_N / wavelength */
    int base;                           /* ring 0's slot, 0 .. RPL_WAVES_MAX - 1 */
    uint8_t faint[RPL_WAVES_MAX];       /* by ring slot: left out, fainter than sleep_epsilon */
    uint8_t gone[RPL_WAVES_MAX];        /* by ring slot: its terms to go (a step's scratch) */
    uint8_t live[TERM_SLOTS];           /* slot k holds a term of the sum */
    uint8_t lo[TERM_SLOTS], hi[TERM_SLOTS]; /* the buckets term k is in: lo[k] .. hi[k] */
    double fl[TERM_SLOTS], fh[TERM_SLOTS];  /* the floors that placed them (term_buckets) */
    int cnt[TERM_BUCKETS_MAX];          /* bucket j's terms: in[j * TERMS_MAX] .. cnt[j] of them */
    int npend[TERM_BUCKETS_MAX];        /* a step's terms new to bucket j, in the sum's order */
    term_t t[TERM_SLOTS];
    uint16_t in[TERM_BUCKETS_MAX * TERMS_MAX];  /* the terms' slots, in the sum's order */
    uint16_t pend[TERM_BUCKETS_MAX * TERMS_MAX];
    /* what a height reads of term in[i], at i: each bucket's terms side by
     * side, so that the sum loads two at a time (rpl_water_rings_eval) */
    double bsrc[TERM_BUCKETS_MAX * TERMS_MAX], breach[TERM_BUCKETS_MAX * TERMS_MAX];
    double bph[TERM_BUCKETS_MAX * TERMS_MAX], benv[TERM_BUCKETS_MAX * TERMS_MAX];
    rpl_sintab_t sintab;                /* the sines, made as the block is attached (water_cache.c) */
} terms_t;

struct rpl_water {
    rpl_water_params_t p;
    int n;            /* springs allocated (p.springs) */
    double *y, *v;    /* displacement (down +) and velocity per step */
    double *d;        /* one pass's deltas (scratch) */
    double *absorb;   /* ABSORB: the band's extra damping per spring, else NULL */
    ring_t rings[RPL_WAVES_MAX];
    int nrings;       /* oldest first */
    uint64_t steps;
    double acc;       /* seconds not yet stepped */
    int awake;
    int calm;         /* steps in a row below sleep_epsilon / without a ring */
    /* waves: the surface at the coupling's grid (core/side/water_grid.h), filled in
     * point by point as buoyancy.c reads it: gh[k] holds while gstamp[k]
     * == gen.  gen moves on when the whole surface may change (a step, new
     * parameters, flattening); a disturbance marks stale only the samples
     * its ring reaches (grid_stale_ring).  So each point is summed over
     * the rings about once a step instead of once per body (and per
     * crossing) that reads it.  The readers that fill it (submerged, forces,
     * crossing) take the body non-const: they write it. */
    long glast;       /* intervals; 0 (and gh NULL) for springs */
    double *gh;       /* glast + 1 heights, then glast + 1 stamps, one block */
    uint64_t *gstamp;
    uint64_t gen;     /* >= 1 once created; stamps start at 0 */
    terms_t *tm;      /* waves: the rings' terms (in the grid's block), else NULL */
    int avx2;         /* the sums four terms at a time (rpl_water_set_kernels) */
    rpl_err_t err;
};

/* A body that can be used: not NULL, and created whole (a failed handle
 * only reports its error and is destroyed). */
static inline int water_usable(const rpl_water_t *w)
{
    return w && w->y;
}

/* The uniform Catmull-Rom segment from a[i] to a[i+1] as c0 + t (c1 + t
 * (c2 + t c3)), t in [0, 1]: through both points, with tangents half the
 * difference of their neighbours. */
typedef struct seg {
    int i;
    double c0, c1, c2, c3;
} seg_t;

/* A spring's velocity held to its bound (ripple/side.h, RPL_WATER_REACH):
 * the depth per step. */
static inline double rpl_water_bound_v(const rpl_water_params_t *p, double v)
{
    double most = p->bottom - p->level;
    return v > most ? most : v < -most ? -most : v;
}

/* A ring's amplitude held to its bound: RPL_WATER_REACH times the depth. */
static inline double rpl_water_bound_amp(const rpl_water_params_t *p, double a)
{
    double most = RPL_WATER_REACH * (p->bottom - p->level);
    return a > most ? most : a < -most ? -most : a;
}

/* water_springs.c: the spline through the springs, their step */
void rpl_water_seg_make(seg_t *s, const double *a, int n, rpl_water_ends ends, int i);
double rpl_water_seg_value(const seg_t *s, double t);
double rpl_water_seg_deriv(const seg_t *s, double t);
void rpl_water_springs_step(rpl_water_t *w);

/* water_rings.c */
uint64_t rpl_water_life_steps(const rpl_water_params_t *p);
int rpl_water_ring_sources(const rpl_water_params_t *p, double xr, double *src);
void rpl_water_rings_eval(const rpl_water_t *w, double x, double *h, double *dt, double *dx);
void rpl_water_rings_heights(const rpl_water_t *w, const double *x, int n, double *h);
void rpl_water_rings_step(rpl_water_t *w);
int rpl_water_rings_avx2(const rpl_kernels_t *k);
void rpl_water_terms_build(rpl_water_t *w);
void rpl_water_terms_fresh(const rpl_water_t *w, terms_t *out);
void rpl_water_terms_step(rpl_water_t *w, int dead);
void rpl_water_terms_add(rpl_water_t *w);
void rpl_water_terms_drop(rpl_water_t *w);
void rpl_water_terms_amp(rpl_water_t *w, int r);

/* water_cache.c */
long rpl_water_grid_last(const rpl_water_params_t *p);
double *rpl_water_grid_alloc(long last);
void rpl_water_grid_attach(rpl_water_t *w, double *block, long last);
void rpl_water_grid_stale_ring(rpl_water_t *w, const ring_t *g);

#endif
