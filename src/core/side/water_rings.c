/* core/side/water_rings.c - the side-view water's analytic rings: their sources, their terms (each source with what its wave needs, listed by the stretches of the basin it reaches), the surface they make, their ageing. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/dmath.h"
#include "core/side/water_grid.h"
#include "core/side/water_state.h"

/* x86-64 has SSE2 always: a height sums its terms' waves two at a time
 * there; elsewhere (the i586 build's x87, ARMv7, the page) one at a time,
 * with the same bits. */
#if defined(__SSE2__) && defined(__SSE2_MATH__)
#include <emmintrin.h>
#define RINGS_SSE2 1
#else
#define RINGS_SSE2 0
#endif
/* AArch64 has NEON always: two at a time there too. */
#if !RINGS_SSE2 && defined(__aarch64__) && defined(__ARM_NEON)
#include <arm_neon.h>
#define RINGS_NEON 1
#else
#define RINGS_NEON 0
#endif
/* The SIMD sums read each bucket's terms from arrays of its own, side by
 * side (terms_t's bsrc ..); one at a time, the terms themselves through
 * in[] serve as well and cost no copies at each step. */
#define RINGS_PACKED (RINGS_SSE2 || RINGS_NEON)
#if RINGS_PACKED
#define B_SRC(tm, i) ((tm)->bsrc[i])
#define B_REACH(tm, i) ((tm)->breach[i])
#define B_PH(tm, i) ((tm)->bph[i])
#define B_ENV(tm, i) ((tm)->benv[i])
#else
#define B_SRC(tm, i) ((tm)->t[(tm)->in[i]].src)
#define B_REACH(tm, i) ((tm)->t[(tm)->in[i]].reach)
#define B_PH(tm, i) ((tm)->t[(tm)->in[i]].ph)
#define B_ENV(tm, i) ((tm)->t[(tm)->in[i]].env)
#endif
/* On x86-64, with the avx2 kernels, four at a time (bucket_sum_avx2):
 * compiled for AVX2 here, run only where the kernel path is avx2, which
 * only a CPU with AVX2 gets (rpl_water_set_kernels).  Not on Windows,
 * whose stack GCC does not keep aligned for AVX's spills. */
#if RINGS_SSE2 && defined(__x86_64__) && defined(__GNUC__) && !defined(_WIN32)
#include <immintrin.h>
#define RINGS_AVX2 1
#else
#define RINGS_AVX2 0
#endif

/* A ring lives while its age in whole steps is below life / step, counted
 * in steps so that rounding of age = steps * step never decides it. */
uint64_t rpl_water_life_steps(const rpl_water_params_t *p)
{
    return (uint64_t)ceil(p->life / p->step - 1e-9);
}

/* Where a ring's waves come from: the ring itself, and with FREE or
 * REFLECT ends its images in the walls, to second order: mirrored in x0
 * (the wave once reflected off the left wall), in x1, and the images of
 * those in the other wall (reflected off both, left then right and right
 * then left).  An image's wave is the ring's own (same amplitude and
 * birth) from that place, so on the wall a ring and its image meet in
 * phase and the surface there has no slope: the upright bounce of a
 * mirrored spring chain.  Third and later reflections are left out (a
 * wave that has crossed the basin three times runs on through the wall);
 * ABSORB has no images, its waves leave. */
int rpl_water_ring_sources(const rpl_water_params_t *p, double xr, double *src)
{
    src[0] = xr;
    if (p->ends == RPL_ENDS_ABSORB)
        return 1;
    double left = 2 * p->x0 - xr, right = 2 * p->x1 - xr;
    src[1] = left;
    src[2] = right;
    src[3] = 2 * p->x1 - left;  /* off the left wall, then the right */
    src[4] = 2 * p->x0 - right; /* off the right wall, then the left */
    return RING_SOURCES_MAX;
}

/* ---- the rings' terms (water_state.h) ------------------------------------------ */

/* A term goes into the buckets its reach meets, that reach widened by
 * TERM_SLACK of a bucket on each side, which covers any rounding smaller
 * than that in where its reach ends and in which bucket a height's x
 * falls (the walls' too: x1 may come out at the far end of the last
 * bucket or just past it).  The rounding is far smaller: a bucket is at
 * least a quarter of a wavelength and 1e-3 of |x0| + |x1| wide, a reach at
 * most c * life = f * life wavelengths <= 6e4 of them, and the sources lie
 * within a few |x0| + |x1|, so the sums and quotients below are off by
 * less than 1e-9 of a bucket (test_water's sums still match with a slack
 * of 1e-13, and fail at the walls with none).  A basin too narrow for that
 * has one bucket, which holds every term.  (A whole bucket of slack each
 * side, as it was, put a term into two buckets more that its wave never
 * reaches: side-waves-3's simulation cost 2% more.  Narrower buckets
 * would spare a height a few terms its wave has not reached, but each term
 * goes into more of them, and the steps' keeping them up costs more than
 * that saves: a fifth or an eighth of a wavelength made side-waves-3's
 * step 1-2% dearer; a third, no cheaper.) */
#define TERM_SLACK 1e-6

static int bucket_count(const rpl_water_params_t *p)
{
    double span = p->x1 - p->x0;
    double nb = floor(span / (p->wavelength / 4));
    if (!(nb >= 2))
        return 1;
    if (nb > TERM_BUCKETS_MAX)
        nb = TERM_BUCKETS_MAX;
    if (!(span / nb >= 1e-3 * (fabs(p->x0) + fabs(p->x1))))
        return 1;
    return (int)nb;
}

/* The quotients whose floors place term e's wave among the buckets: where
 * its reach ends on the left and on the right, in buckets from x0. */
static void term_quotients(const terms_t *tm, const rpl_water_params_t *p, const term_t *e, double *ql,
                           double *qh)
{
    *ql = (e->src - e->reach - p->x0) / tm->bw - TERM_SLACK;
    *qh = (e->src + e->reach - p->x0) / tm->bw + TERM_SLACK;
}

/* The buckets a term goes into from the floors of its quotients, *blo ..
 * *bhi; 0 when none (its wave cannot reach the basin). */
static int floors_buckets(const terms_t *tm, double fl, double fh, uint8_t *blo, uint8_t *bhi)
{
    double lo = fl, hi = fh;
    *blo = *bhi = 0;
    if (!(hi >= 0 && lo <= tm->nb - 1))
        return 0;
    *blo = (uint8_t)(lo <= 0 ? 0 : lo);
    *bhi = (uint8_t)(hi >= tm->nb - 1 ? tm->nb - 1 : hi);
    return 1;
}

/* The buckets term e goes into, *lo .. *hi; 0 when none (its wave cannot
 * reach the basin).  The floors of its quotients into *fl, *fh (with more
 * than one bucket): while a step leaves them alone, so are its buckets. */
static int term_buckets(const terms_t *tm, const rpl_water_params_t *p, const term_t *e,
                        uint8_t *blo, uint8_t *bhi, double *fl, double *fh)
{
    *blo = *bhi = 0;
    if (tm->nb == 1)
        return 1;
    double ql, qh;
    term_quotients(tm, p, e, &ql, &qh);
    *fl = floor(ql);
    *fh = floor(qh);
    return floors_buckets(tm, *fl, *fh, blo, bhi);
}

/* What a term's sums take from its ring's amplitude (water_state.h). */
static void term_envelope(const rpl_water_params_t *p, term_t *e, double amp)
{
    e->env = amp * e->fade * e->fade;
    e->vs = amp * (-2 / p->life) * e->fade;
    e->vc = e->env * (RPL_TWO_PI * p->frequency);
    e->sx = e->env * (-RPL_TWO_PI / p->wavelength);
}

/* Source src of ring r as a term: what the sums work out for it once (the
 * same expressions in both ways of summing, for the same bits). */
static term_t term_of(const rpl_water_t *w, int r, double src)
{
    const rpl_water_params_t *p = &w->p;
    const ring_t *g = &w->rings[r];
    double age = (double)(w->steps - g->born) * p->step;
    /* a wave has gone c * age from its source: further away it has not
     * arrived, and that costs a compare, not a sine */
    term_t e = {src, p->frequency * p->wavelength * age, p->frequency * age * RPL_SINTAB_N, 0, 0, 0, 0,
                1 - age / p->life};
    term_envelope(p, &e, g->amp);
    return e;
}

/* A wave fainter than sleep_epsilon (its envelope; all of a ring's terms
 * have the same) is left out of the sum: as springs that quiet sleep, it
 * is not worth a sine, and most rings spend the end of their life so (a
 * quarter of them and more, with splashes' droplets about). */
static int faint(const rpl_water_params_t *p, const term_t *e)
{
    return fabs(e->env) < p->sleep_epsilon;
}

/* Ring r's slot: its terms are TERM_RING_SLOTS slots from there on in t[]. */
static int ring_slot(const terms_t *tm, int r)
{
    return (tm->base + r) & (RPL_WAVES_MAX - 1);
}

_Static_assert((RPL_WAVES_MAX & (RPL_WAVES_MAX - 1)) == 0, "ring slots count round RPL_WAVES_MAX");
_Static_assert((int)RING_SOURCES_MAX <= (int)TERM_RING_SLOTS && (int)TERM_SLOTS <= 65536, "slots fit in[]");

/* Where the term in slot s comes in the sum, ring 0's slot being base:
 * its ring's place among the rings alive (oldest first), then its
 * source. */
static unsigned order_of(int base, unsigned s)
{
    unsigned r = (s / TERM_RING_SLOTS - (unsigned)base) & (RPL_WAVES_MAX - 1);
    return r * TERM_RING_SLOTS + s % TERM_RING_SLOTS;
}

static unsigned slot_order(const terms_t *tm, unsigned s)
{
    return order_of(tm->base, s);
}

/* The first of entries in[0 .. m) (in the sum's order) from order ord on. */
static int entry_find(int base, const uint16_t *in, int m, unsigned ord)
{
    int lo = 0, hi = m;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (order_of(base, in[mid]) < ord)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Slot s's term as bucket entry at. */
static void entry_put(terms_t *tm, int at, int s)
{
    tm->in[at] = (uint16_t)s;
#if RINGS_PACKED
    const term_t *e = &tm->t[s];
    tm->bsrc[at] = e->src;
    tm->breach[at] = e->reach;
    tm->bph[at] = e->ph;
    tm->benv[at] = e->env;
#endif
}

/* Ring r's terms after the others, each at the end of its buckets; none
 * when dead or faint. */
static void ring_terms(const rpl_water_t *w, terms_t *tm, int r, uint64_t lives)
{
    int rs = ring_slot(tm, r);
    tm->faint[rs] = 0;
    memset(tm->live + rs * TERM_RING_SLOTS, 0, TERM_RING_SLOTS);
    if (w->steps - w->rings[r].born >= lives)
        return;
    double src[RING_SOURCES_MAX];
    int ns = rpl_water_ring_sources(&w->p, w->rings[r].x, src);
    term_t e = term_of(w, r, src[0]); /* its sources differ in src alone */
    if (faint(&w->p, &e)) {
        tm->faint[rs] = 1;
        return;
    }
    for (int i = 0; i < ns; i++) {
        int s = rs * TERM_RING_SLOTS + i;
        e.src = src[i];
        tm->t[s] = e; /* kept for the steps (terms_step) if not yet in the sum */
        if (!term_buckets(tm, &w->p, &e, &tm->lo[s], &tm->hi[s], &tm->fl[s], &tm->fh[s]))
            continue; /* its wave cannot reach the basin yet */
        tm->live[s] = 1;
        for (int j = tm->lo[s]; j <= tm->hi[s]; j++)
            entry_put(tm, j * TERMS_MAX + tm->cnt[j]++, s);
    }
}

/* Every term of w into tm again (its base kept), and the buckets, filled
 * in the terms' order, so that each lists its terms in the sum's order. */
static void terms_make(const rpl_water_t *w, terms_t *tm)
{
    const rpl_water_params_t *p = &w->p;
    tm->nb = bucket_count(p);
    tm->bw = (p->x1 - p->x0) / tm->nb;
    tm->k = RPL_SINTAB_N / p->wavelength;
    tm->base &= RPL_WAVES_MAX - 1;
    memset(tm->cnt, 0, sizeof tm->cnt);
    memset(tm->npend, 0, sizeof tm->npend);
    memset(tm->faint, 0, sizeof tm->faint);
    memset(tm->gone, 0, sizeof tm->gone);
    memset(tm->live, 0, sizeof tm->live);
    uint64_t lives = rpl_water_life_steps(p);
    for (int r = 0; r < w->nrings; r++)
        ring_terms(w, tm, r, lives);
}

/* (Under rpl_double_precision, as everything the sums read: the x87 then
 * rounds as every other machine does, wherever it is called from.) */
static void terms_build(void *arg)
{
    rpl_water_t *w = arg;
    terms_make(w, w->tm);
}

void rpl_water_terms_build(rpl_water_t *w)
{
    if (w->tm)
        rpl_double_precision(terms_build, w);
}

typedef struct fresh_call {
    const rpl_water_t *w;
    terms_t *out;
} fresh_call_t;

static void terms_fresh(void *arg)
{
    const fresh_call_t *c = arg;
    terms_make(c->w, c->out);
}

/* The terms as rpl_water_terms_build would make them now, with the same
 * slots, into *out (the sine table left alone): what the terms kept up
 * step by step must equal (tests/test_water.c). */
void rpl_water_terms_fresh(const rpl_water_t *w, terms_t *out)
{
    if (!w->tm)
        return;
    out->base = w->tm->base;
    fresh_call_t c = {w, out};
    rpl_double_precision(terms_fresh, &c);
}

typedef struct step_call {
    rpl_water_t *w;
    int dead;
} step_call_t;

#if RINGS_PACKED
/* Entries 0 .. m - 1's reach, phase and envelope read again from their
 * terms (one at a time, the terms themselves are what the sums read). */
static void entries_refresh(const terms_t *tm, const uint16_t *in, int m, double *breach, double *bph,
                            double *benv)
{
    int i = 0;
#if RINGS_SSE2
    for (; i + 2 <= m; i += 2) { /* two at a time, reach and phase side by side in a term */
        const term_t *e0 = &tm->t[in[i]], *e1 = &tm->t[in[i + 1]];
        __m128d a0 = _mm_loadu_pd(&e0->reach), a1 = _mm_loadu_pd(&e1->reach);
        _mm_storeu_pd(breach + i, _mm_unpacklo_pd(a0, a1));
        _mm_storeu_pd(bph + i, _mm_unpackhi_pd(a0, a1));
        _mm_storeu_pd(benv + i, _mm_loadh_pd(_mm_load_sd(&e0->env), &e1->env));
    }
#endif
    for (; i < m; i++) {
        const term_t *e = &tm->t[in[i]];
        breach[i] = e->reach;
        bph[i] = e->ph;
        benv[i] = e->env;
    }
}

#if RINGS_AVX2
/* entries_refresh four at a time, the fields gathered from the terms (8
 * doubles each). */
__attribute__((target("avx2"))) static void entries_refresh_avx2(const terms_t *tm, const uint16_t *in,
                                                                 int m, double *breach, double *bph,
                                                                 double *benv)
{
    int i = 0;
    for (; i + 4 <= m; i += 4) {
        __m256i at = _mm256_slli_epi64(_mm256_cvtepu16_epi64(_mm_loadl_epi64((const __m128i *)(in + i))), 3);
        _mm256_storeu_pd(breach + i, _mm256_i64gather_pd(&tm->t[0].reach, at, 8));
        _mm256_storeu_pd(bph + i, _mm256_i64gather_pd(&tm->t[0].ph, at, 8));
        _mm256_storeu_pd(benv + i, _mm256_i64gather_pd(&tm->t[0].env, at, 8));
    }
    entries_refresh(tm, in + i, m - i, breach + i, bph + i, benv + i);
}
#endif
#endif

/* Entries in[0 .. m) (and their src) from entry b on moved to a. */
static void entries_move(terms_t *tm, int at, int a, int b, int m)
{
    memmove(tm->in + at + a, tm->in + at + b, (size_t)(m - b) * sizeof *tm->in);
#if RINGS_PACKED
    memmove(tm->bsrc + at + a, tm->bsrc + at + b, (size_t)(m - b) * sizeof *tm->bsrc);
#endif
}

/* Bucket j after a step: the entries of the rings gone out (ngone of
 * them, their places in the order from old_base ascending in gone_ord),
 * the terms new to it (pend) merged in at their places in the order, and
 * what changes with age read again from the terms (avx2: four at a time).
 * A few rings' entries or new terms are found by halving and moved by
 * memmove, more in one pass. */
static void bucket_step(terms_t *tm, int j, const int *gone_ord, int ngone, int old_base, int avx2)
{
    int at = j * TERMS_MAX, m = tm->cnt[j];
    uint16_t *in = tm->in + at;
    double *bsrc = tm->bsrc + at;
    if (ngone > 2) {
        int o = 0;
        for (int i = 0; i < m; i++) {
            if (tm->gone[in[i] / TERM_RING_SLOTS])
                continue;
            in[o] = in[i];
#if RINGS_PACKED
            bsrc[o] = bsrc[i];
#endif
            o++;
        }
        m = o;
    } else {
        for (int g = ngone - 1; g >= 0; g--) { /* the later first: the earlier stay where they are */
            unsigned o = (unsigned)gone_ord[g] * TERM_RING_SLOTS;
            int a = entry_find(old_base, in, m, o);
            int b = a + entry_find(old_base, in + a, m - a, o + TERM_RING_SLOTS);
            if (b > a) {
                entries_move(tm, at, a, b, m);
                m -= b - a;
            }
        }
    }
    int np = tm->npend[j];
    const uint16_t *pend = tm->pend + at;
    if (np > 2) { /* from the back: an entry moves up by the new ones before it */
        int i = m - 1;
        for (int q = np - 1; q >= 0; q--) {
            unsigned s = pend[q], ord = slot_order(tm, s);
            while (i >= 0 && slot_order(tm, in[i]) > ord) {
                in[i + q + 1] = in[i];
#if RINGS_PACKED
                bsrc[i + q + 1] = bsrc[i];
#endif
                i--;
            }
            in[i + q + 1] = (uint16_t)s;
#if RINGS_PACKED
            bsrc[i + q + 1] = tm->t[s].src;
#endif
        }
        m += np;
    } else {
        for (int q = 0; q < np; q++) {
            unsigned s = pend[q];
            int i = entry_find(tm->base, in, m, slot_order(tm, s));
            entries_move(tm, at, i + 1, i, m);
            in[i] = (uint16_t)s;
#if RINGS_PACKED
            bsrc[i] = tm->t[s].src;
#endif
            m++;
        }
    }
    tm->npend[j] = 0;
    tm->cnt[j] = m;
#if RINGS_PACKED
#if RINGS_AVX2
    if (avx2)
        entries_refresh_avx2(tm, in, m, tm->breach + at, tm->bph + at, tm->benv + at);
    else
#endif
        entries_refresh(tm, in, m, tm->breach + at, tm->bph + at, tm->benv + at);
#endif
    (void)bsrc;
    (void)avx2;
}

/* Ring slot rs's terms to leave the buckets (bucket_step): the buckets
 * they are in, as a mask. */
static uint64_t ring_out(terms_t *tm, int rs)
{
    uint64_t in = 0;
    for (int s = rs * TERM_RING_SLOTS; s < (rs + 1) * TERM_RING_SLOTS; s++)
        if (tm->live[s])
            in |= (UINT64_C(2) << tm->hi[s]) - (UINT64_C(1) << tm->lo[s]);
    memset(tm->live + rs * TERM_RING_SLOTS, 0, TERM_RING_SLOTS);
    tm->gone[rs] = 1;
    return in;
}

/* The terms a step on (w->steps moved on, the dead rings, the oldest
 * `dead` of them, dropped from w->rings): the same as terms_make would
 * give, made from the last step's.  Each term keeps its slot and so its
 * place; what changes with age is worked out again as terms_make would
 * (term_of).  A term's reach only grows with age, and so do its
 * quotients' distance apart (term_quotients): while their floors stay,
 * so do its buckets, and once it is in every bucket it stays there; else
 * it goes into the buckets its reach has got to.  The dead rings' terms
 * and those of rings that have become faint (an envelope only fades with
 * age: faint stays faint) leave.  Anything else (never expected):
 * terms_make. */
static void terms_step(void *arg)
{
    const step_call_t *c = arg;
    rpl_water_t *w = c->w;
    terms_t *tm = w->tm;
    const rpl_water_params_t *p = &w->p;
    uint64_t gone = 0; /* the buckets with terms to leave */
    int gone_ord[RPL_WAVES_MAX], ngone = 0, old_base = tm->base; /* the rings that leave */
    for (int d = 0; d < c->dead; d++) {
        int rs = ring_slot(tm, d);
        tm->faint[rs] = 0;
        gone |= ring_out(tm, rs);
        gone_ord[ngone++] = d;
    }
    tm->base = ring_slot(tm, c->dead);
    uint64_t lives = rpl_water_life_steps(p);
    double src[RING_SOURCES_MAX];
    int ns = rpl_water_ring_sources(p, p->x0, src); /* how many: each term keeps its own src */
    for (int r = 0; r < w->nrings; r++) {
        int rs = ring_slot(tm, r);
        if (tm->faint[rs])
            continue;
        if (w->steps - w->rings[r].born >= lives)
            goto again;
        term_t e = term_of(w, r, w->rings[r].x);
        if (faint(p, &e)) {
            tm->faint[rs] = 1;
            gone |= ring_out(tm, rs);
            gone_ord[ngone++] = c->dead + r;
            continue;
        }
        for (int i = 0; i < ns; i++) {
            int s = rs * TERM_RING_SLOTS + i;
            e.src = tm->t[s].src;
            tm->t[s] = e;
            if (tm->live[s] && tm->lo[s] == 0 && tm->hi[s] == tm->nb - 1)
                continue; /* in every bucket */
            double ql, qh;
            term_quotients(tm, p, &e, &ql, &qh);
            if (ql >= tm->fl[s] && qh < tm->fh[s] + 1)
                continue; /* the same floors */
            tm->fl[s] = floor(ql);
            tm->fh[s] = floor(qh);
            uint8_t lo, hi;
            if (!floors_buckets(tm, tm->fl[s], tm->fh[s], &lo, &hi)) {
                if (tm->live[s])
                    goto again;
                continue;
            }
            int was = tm->live[s], a = was ? tm->lo[s] : hi + 1, b = was ? tm->hi[s] : hi;
            if (was && (lo > a || hi < b))
                goto again;
            for (int j = lo; j < a; j++)
                tm->pend[j * TERMS_MAX + tm->npend[j]++] = (uint16_t)s;
            for (int j = b + 1; j <= hi; j++)
                tm->pend[j * TERMS_MAX + tm->npend[j]++] = (uint16_t)s;
            tm->live[s] = 1;
            tm->lo[s] = lo;
            tm->hi[s] = hi;
        }
    }
    for (int j = 0; j < tm->nb; j++)
        bucket_step(tm, j, gone_ord, gone >> j & 1 ? ngone : 0, old_base, w->avx2);
    if (gone)
        memset(tm->gone, 0, sizeof tm->gone);
    return;
again:
    terms_make(w, tm);
}

/* w->steps moved on one and the `dead` oldest rings were dropped. */
void rpl_water_terms_step(rpl_water_t *w, int dead)
{
    step_call_t c = {w, dead};
    if (w->tm)
        rpl_double_precision(terms_step, &c);
}

/* The oldest ring was dropped (the others moved down one, nrings one
 * less), and nothing else changed since the terms were made: its terms
 * out of the front of each bucket, its slot the newest's from now on. */
static void terms_drop(void *arg)
{
    rpl_water_t *w = arg;
    terms_t *tm = w->tm;
    int rs = tm->base;
    for (int j = 0; j < tm->nb; j++) {
        int at = j * TERMS_MAX, c = 0;
        while (c < tm->cnt[j] && tm->in[at + c] / TERM_RING_SLOTS == rs)
            c++;
        if (!c)
            continue;
        int m = tm->cnt[j] -= c;
        memmove(tm->in + at, tm->in + at + c, (size_t)m * sizeof *tm->in);
#if RINGS_PACKED
        memmove(tm->bsrc + at, tm->bsrc + at + c, (size_t)m * sizeof(double));
        memmove(tm->breach + at, tm->breach + at + c, (size_t)m * sizeof(double));
        memmove(tm->bph + at, tm->bph + at + c, (size_t)m * sizeof(double));
        memmove(tm->benv + at, tm->benv + at + c, (size_t)m * sizeof(double));
#endif
    }
    tm->faint[rs] = 0;
    memset(tm->live + rs * TERM_RING_SLOTS, 0, TERM_RING_SLOTS);
    tm->base = ring_slot(tm, 1);
}

void rpl_water_terms_drop(rpl_water_t *w)
{
    if (w->tm)
        terms_drop(w);
}

static void terms_add(void *arg)
{
    rpl_water_t *w = arg;
    ring_terms(w, w->tm, w->nrings - 1, rpl_water_life_steps(&w->p));
}

/* A ring was put after the others, and nothing else changed since the
 * terms were made: its terms after theirs, where terms_build would put
 * them. */
void rpl_water_terms_add(rpl_water_t *w)
{
    if (w->tm && w->nrings > 0)
        rpl_double_precision(terms_add, w);
}

typedef struct amp_call {
    rpl_water_t *w;
    int r;
} amp_call_t;

static void terms_amp(void *arg)
{
    const amp_call_t *a = arg;
    rpl_water_t *w = a->w;
    terms_t *tm = w->tm;
    const ring_t *g = &w->rings[a->r];
    int rs = ring_slot(tm, a->r);
    term_t e = term_of(w, a->r, g->x);
    if (faint(&w->p, &e) != tm->faint[rs]) { /* in or out of the sum now: the terms again */
        terms_make(w, tm);
        return;
    }
    for (int s = rs * TERM_RING_SLOTS; s < (rs + 1) * TERM_RING_SLOTS; s++) {
        if (!tm->live[s])
            continue;
        term_envelope(&w->p, &tm->t[s], g->amp);
#if RINGS_PACKED
        unsigned ord = slot_order(tm, (unsigned)s);
        for (int j = tm->lo[s]; j <= tm->hi[s]; j++) { /* its place in bucket j: the order ascends */
            int at = j * TERMS_MAX;
            tm->benv[at + entry_find(tm->base, tm->in + at, tm->cnt[j], ord)] = tm->t[s].env;
        }
#endif
    }
}

/* Ring r's amplitude changed (a disturbance merged into it): its terms'
 * envelope again, the rest stays. */
void rpl_water_terms_amp(rpl_water_t *w, int r)
{
    amp_call_t a = {w, r};
    if (w->tm)
        rpl_double_precision(terms_amp, &a);
}

/* ---- the surface ------------------------------------------------------------- */

/* Term e's wave at x, if it has got there, added to the height, d/dt
 * (per second, when sdt) and d/dx (when sdx). */
static void term_add(const terms_t *tm, const term_t *e, double x, double *sh, double *sdt,
                     double *sdx)
{
    double dist = x - e->src, s = fabs(dist);
    if (s > e->reach)
        return;
    double sn, cs;
    rpl_sintab2(&tm->sintab, e->ph - s * tm->k, &sn, &cs);
    *sh += e->env * sn;
    if (sdt)
        *sdt += e->vs * sn + e->vc * cs;
    if (sdx)
        *sdx += e->sx * cs * (dist < 0 ? -1 : dist > 0 ? 1 : 0);
}

/* Displacement, d/dt and d/dx at x of the rings alive, from the rings
 * themselves: every source of every ring, the sum as the header has it. */
static void rings_sum_all(const rpl_water_t *w, double x, double *h, double *dt, double *dx)
{
    double sh = 0, sdt = 0, sdx = 0;
    uint64_t lives = rpl_water_life_steps(&w->p);
    for (int r = 0; r < w->nrings; r++) {
        if (w->steps - w->rings[r].born >= lives)
            continue;
        double src[RING_SOURCES_MAX];
        int ns = rpl_water_ring_sources(&w->p, w->rings[r].x, src);
        term_t e = term_of(w, r, src[0]);
        for (int i = 0; i < ns && !faint(&w->p, &e); i++) {
            e.src = src[i];
            term_add(w->tm, &e, x, &sh, dt ? &sdt : NULL, dx ? &sdx : NULL);
        }
    }
    *h = sh;
    if (dt)
        *dt = sdt;
    if (dx)
        *dx = sdx;
}

/* The height at x (and its d/dt, when sdt) from bucket entries
 * i .. end - 1: each term's wave, if it has got there, env sin(ph - |x -
 * src| k) (and vs sin + vc cos: term_add's arithmetic), added in the
 * terms' order.  With SSE2 two terms' waves are worked out at once and
 * then added one after the other, the same sum; a term whose wave has not
 * got there adds +0 rather than being skipped, which leaves the sum as it
 * was: it starts at +0 and never becomes -0 (x + y is -0 only for x = y =
 * -0), and v + 0 = v for every other v, NaN and infinities too. */
static double bucket_sum(const terms_t *tm, double x, int i, int end, double sh, double *sdt)
{
    const rpl_sintab_t *tab = &tm->sintab;
    double k = tm->k, st = sdt ? *sdt : 0;
#if RINGS_SSE2
    const __m128d vx = _mm_set1_pd(x), vk = _mm_set1_pd(k), big = _mm_set1_pd(0x1.8p52);
    const __m128d mag = _mm_castsi128_pd(_mm_set1_epi64x(0x7fffffffffffffffLL));
    const __m128i cells = _mm_set1_epi32(RPL_SINTAB_N - 1);
    __m128d acc = _mm_set_sd(sh), dacc = _mm_set_sd(st);
    for (; i + 2 <= end; i += 2) {
        __m128d s = _mm_and_pd(_mm_sub_pd(vx, _mm_loadu_pd(tm->bsrc + i)), mag);
        __m128d got = _mm_cmpngt_pd(s, _mm_loadu_pd(tm->breach + i)); /* !(s > reach) */
        __m128d c = _mm_sub_pd(_mm_loadu_pd(tm->bph + i), _mm_mul_pd(s, vk));
        __m128d v = _mm_add_pd(c, big); /* rpl_sintab_cell, two at a time */
        __m128d f = _mm_sub_pd(c, _mm_sub_pd(v, big));
        __m128i cell = _mm_and_si128(_mm_castpd_si128(v), cells);
        unsigned i0 = (unsigned)_mm_extract_epi16(cell, 0), i1 = (unsigned)_mm_extract_epi16(cell, 4);
        __m128d ts = _mm_loadh_pd(_mm_load_sd(&tab->s[i0]), &tab->s[i1]);
        __m128d hc = _mm_loadh_pd(_mm_load_sd(&tab->hc[i0]), &tab->hc[i1]);
        __m128d sn = _mm_add_pd(ts, _mm_mul_pd(hc, f));
        __m128d h = _mm_and_pd(got, _mm_mul_pd(_mm_loadu_pd(tm->benv + i), sn));
        acc = _mm_add_sd(_mm_add_sd(acc, h), _mm_unpackhi_pd(h, h));
        if (sdt) { /* rpl_sintab2's cosine; vs and vc from the terms */
            const term_t *e0 = &tm->t[tm->in[i]], *e1 = &tm->t[tm->in[i + 1]];
            __m128d cs = _mm_sub_pd(_mm_mul_pd(hc, _mm_set1_pd(RPL_SINTAB_INV_H)),
                                    _mm_mul_pd(ts, _mm_mul_pd(_mm_set1_pd(RPL_SINTAB_H), f)));
            __m128d d = _mm_add_pd(_mm_mul_pd(_mm_set_pd(e1->vs, e0->vs), sn),
                                   _mm_mul_pd(_mm_set_pd(e1->vc, e0->vc), cs));
            d = _mm_and_pd(got, d);
            dacc = _mm_add_sd(_mm_add_sd(dacc, d), _mm_unpackhi_pd(d, d));
        }
    }
    sh = _mm_cvtsd_f64(acc);
    st = _mm_cvtsd_f64(dacc);
#elif RINGS_NEON
    const float64x2_t vx = vdupq_n_f64(x), vk = vdupq_n_f64(k), big = vdupq_n_f64(0x1.8p52);
    const uint64x2_t cells = vdupq_n_u64(RPL_SINTAB_N - 1);
    for (; i + 2 <= end; i += 2) {
        float64x2_t s = vabsq_f64(vsubq_f64(vx, vld1q_f64(tm->bsrc + i)));
        uint64x2_t past = vcgtq_f64(s, vld1q_f64(tm->breach + i)); /* s > reach: not there */
        float64x2_t c = vsubq_f64(vld1q_f64(tm->bph + i), vmulq_f64(s, vk));
        float64x2_t v = vaddq_f64(c, big); /* rpl_sintab_cell, two at a time */
        float64x2_t f = vsubq_f64(c, vsubq_f64(v, big));
        uint64x2_t cell = vandq_u64(vreinterpretq_u64_f64(v), cells);
        unsigned i0 = (unsigned)vgetq_lane_u64(cell, 0), i1 = (unsigned)vgetq_lane_u64(cell, 1);
        float64x2_t ts = vcombine_f64(vld1_f64(&tab->s[i0]), vld1_f64(&tab->s[i1]));
        float64x2_t hc = vcombine_f64(vld1_f64(&tab->hc[i0]), vld1_f64(&tab->hc[i1]));
        float64x2_t sn = vaddq_f64(ts, vmulq_f64(hc, f));
        float64x2_t h = vmulq_f64(vld1q_f64(tm->benv + i), sn);
        h = vreinterpretq_f64_u64(vbicq_u64(vreinterpretq_u64_f64(h), past));
        sh += vgetq_lane_f64(h, 0);
        sh += vgetq_lane_f64(h, 1);
        if (sdt) { /* rpl_sintab2's cosine; vs and vc from the terms */
            const term_t *e0 = &tm->t[tm->in[i]], *e1 = &tm->t[tm->in[i + 1]];
            float64x2_t cs = vsubq_f64(vmulq_f64(hc, vdupq_n_f64(RPL_SINTAB_INV_H)),
                                       vmulq_f64(ts, vmulq_f64(vdupq_n_f64(RPL_SINTAB_H), f)));
            float64x2_t vs = vcombine_f64(vld1_f64(&e0->vs), vld1_f64(&e1->vs));
            float64x2_t vc = vcombine_f64(vld1_f64(&e0->vc), vld1_f64(&e1->vc));
            float64x2_t d = vaddq_f64(vmulq_f64(vs, sn), vmulq_f64(vc, cs));
            d = vreinterpretq_f64_u64(vbicq_u64(vreinterpretq_u64_f64(d), past));
            st += vgetq_lane_f64(d, 0);
            st += vgetq_lane_f64(d, 1);
        }
    }
#endif
    if (!sdt) {
        for (; i < end; i++) {
            double s = fabs(x - B_SRC(tm, i));
            if (s > B_REACH(tm, i))
                continue;
            sh += B_ENV(tm, i) * rpl_sintab(tab, B_PH(tm, i) - s * k);
        }
        return sh;
    }
    for (; i < end; i++) {
        double s = fabs(x - B_SRC(tm, i));
        if (s > B_REACH(tm, i))
            continue;
        double sn, cs;
        rpl_sintab2(tab, B_PH(tm, i) - s * k, &sn, &cs);
        const term_t *e = &tm->t[tm->in[i]];
        sh += B_ENV(tm, i) * sn;
        st += e->vs * sn + e->vc * cs;
    }
    if (sdt)
        *sdt = st;
    return sh;
}

#if RINGS_AVX2
/* (the gathers of vs and vc step through the terms 8 doubles at a time) */
_Static_assert(sizeof(term_t) == 8 * sizeof(double), "term_t is 8 doubles");

/* acc's low lane plus v's four lanes, in order. */
__attribute__((target("avx2"))) static inline __m128d add4(__m128d acc, __m256d v)
{
    __m128d lo = _mm256_castpd256_pd128(v), hi = _mm256_extractf128_pd(v, 1);
    acc = _mm_add_sd(_mm_add_sd(acc, lo), _mm_unpackhi_pd(lo, lo));
    return _mm_add_sd(_mm_add_sd(acc, hi), _mm_unpackhi_pd(hi, hi));
}

/* The sines of four phases c (in the table's cells) as rpl_sintab reads
 * them: the nearest cell by adding 1.5 * 2^52, its sine and its step
 * (ts, hc) gathered, the rest f; the sine ts + hc f. */
__attribute__((target("avx2"))) static inline __m256d sintab4(const rpl_sintab_t *tab, __m256d c,
                                                              __m256d *ts, __m256d *hc, __m256d *f)
{
    const __m256d big = _mm256_set1_pd(0x1.8p52);
    __m256d v = _mm256_add_pd(c, big);
    *f = _mm256_sub_pd(c, _mm256_sub_pd(v, big));
    __m256i cell = _mm256_and_si256(_mm256_castpd_si256(v), _mm256_set1_epi64x(RPL_SINTAB_N - 1));
    *ts = _mm256_i64gather_pd(tab->s, cell, 8);
    *hc = _mm256_i64gather_pd(tab->hc, cell, 8);
    return _mm256_add_pd(*ts, _mm256_mul_pd(*hc, *f));
}

/* bucket_sum four terms at a time (the table read by gathers), the same
 * sum; the last one to three terms by bucket_sum. */
__attribute__((target("avx2"))) static double bucket_sum_avx2(const terms_t *tm, double x, int i,
                                                              int end, double *sdt)
{
    const rpl_sintab_t *tab = &tm->sintab;
    const __m256d vx = _mm256_set1_pd(x), vk = _mm256_set1_pd(tm->k);
    const __m256d mag = _mm256_castsi256_pd(_mm256_set1_epi64x(0x7fffffffffffffffLL));
    __m128d acc = _mm_setzero_pd(), dacc = _mm_setzero_pd();
    for (; i + 4 <= end; i += 4) {
        __m256d s = _mm256_and_pd(_mm256_sub_pd(vx, _mm256_loadu_pd(tm->bsrc + i)), mag);
        __m256d got = _mm256_cmp_pd(s, _mm256_loadu_pd(tm->breach + i), _CMP_NGT_UQ);
        __m256d ts, hc, f;
        __m256d sn = sintab4(tab, _mm256_sub_pd(_mm256_loadu_pd(tm->bph + i), _mm256_mul_pd(s, vk)),
                             &ts, &hc, &f);
        acc = add4(acc, _mm256_and_pd(got, _mm256_mul_pd(_mm256_loadu_pd(tm->benv + i), sn)));
        if (sdt) { /* vs and vc gathered from the terms (8 doubles each) */
            __m256i at = _mm256_slli_epi64(
                _mm256_cvtepu16_epi64(_mm_loadl_epi64((const __m128i *)(tm->in + i))), 3);
            __m256d cs = _mm256_sub_pd(_mm256_mul_pd(hc, _mm256_set1_pd(RPL_SINTAB_INV_H)),
                                       _mm256_mul_pd(ts, _mm256_mul_pd(_mm256_set1_pd(RPL_SINTAB_H), f)));
            __m256d d = _mm256_add_pd(_mm256_mul_pd(_mm256_i64gather_pd(&tm->t[0].vs, at, 8), sn),
                                      _mm256_mul_pd(_mm256_i64gather_pd(&tm->t[0].vc, at, 8), cs));
            dacc = add4(dacc, _mm256_and_pd(got, d));
        }
    }
    double st = _mm_cvtsd_f64(dacc);
    double sh = bucket_sum(tm, x, i, end, _mm_cvtsd_f64(acc), sdt ? &st : NULL);
    if (sdt)
        *sdt = st;
    return sh;
}
#endif

#if RINGS_AVX2
/* Four heights at once, at x[0..3] of one bucket: each lane sums the
 * bucket's terms in their order, with bucket_sum_avx2's arithmetic per
 * term (+0 where the wave has not got there), so each lane has the bits
 * of that x's own sum, and no lane waits on the others' adds. */
__attribute__((target("avx2"))) static void bucket_sum4_avx2(const terms_t *tm, const double *x,
                                                              int i, int end, double *h)
{
    const __m256d vx = _mm256_loadu_pd(x);
    const rpl_sintab_t *tab = &tm->sintab;
    const __m256d vk = _mm256_set1_pd(tm->k);
    const __m256d mag = _mm256_castsi256_pd(_mm256_set1_epi64x(0x7fffffffffffffffLL));
    __m256d acc = _mm256_setzero_pd();
    for (; i < end; i++) {
        __m256d s = _mm256_and_pd(_mm256_sub_pd(vx, _mm256_broadcast_sd(tm->bsrc + i)), mag);
        __m256d got = _mm256_cmp_pd(s, _mm256_broadcast_sd(tm->breach + i), _CMP_NGT_UQ);
        __m256d ts, hc, f;
        __m256d sn = sintab4(tab, _mm256_sub_pd(_mm256_broadcast_sd(tm->bph + i), _mm256_mul_pd(s, vk)),
                             &ts, &hc, &f);
        acc = _mm256_add_pd(
            acc, _mm256_and_pd(got, _mm256_mul_pd(_mm256_broadcast_sd(tm->benv + i), sn)));
    }
    _mm256_storeu_pd(h, acc);
}
#endif

/* The bucket of x, in the basin (x0 <= x <= x1): the floor of u = (x -
 * x0) / bw held to 0 .. nb - 1; between those the conversion's truncation
 * is that floor, without a call to floor. */
static int bucket_of(const rpl_water_params_t *p, const terms_t *tm, double x)
{
    if (tm->nb <= 1)
        return 0;
    double u = (x - p->x0) / tm->bw;
    return u <= 0 ? 0 : u >= tm->nb - 1 ? tm->nb - 1 : (int)u;
}

typedef struct eval_call {
    const rpl_water_t *w;
    double x;
    double *h, *dt, *dx;
} eval_call_t;

static void rings_eval(void *arg)
{
    const eval_call_t *c = arg;
    const rpl_water_t *w = c->w;
    const rpl_water_params_t *p = &w->p;
    const terms_t *tm = w->tm;
    double x = c->x, *dt = c->dt, *dx = c->dx;
    if (!(x >= p->x0 && x <= p->x1)) {
        rings_sum_all(w, x, c->h, dt, dx);
        return;
    }
    int b = bucket_of(p, tm, x);
    const uint16_t *in = tm->in + b * TERMS_MAX, *end = in + tm->cnt[b];
    double sh = 0, sdt = 0, sdx = 0;
    if (!dx) {
        int i0 = b * TERMS_MAX, i1 = i0 + tm->cnt[b];
#if RINGS_AVX2
        if (w->avx2)
            sh = bucket_sum_avx2(tm, x, i0, i1, dt ? &sdt : NULL);
        else
#endif
            sh = bucket_sum(tm, x, i0, i1, 0, dt ? &sdt : NULL);
    } else {
        for (; in < end; in++)
            term_add(tm, &tm->t[*in], x, &sh, dt ? &sdt : NULL, dx ? &sdx : NULL);
    }
    *c->h = sh;
    if (dt)
        *dt = sdt;
    if (dx)
        *dx = sdx;
}

/* Displacement, d/dt (per second) and d/dx at x of the rings alive: the
 * same sum from the terms of x's bucket (water_state.h).  The terms left
 * out of it are ones the sum skips at x, as their wave has not got there
 * (|x - src| > reach by more than TERM_SLACK of a bucket's width, against
 * rounding below 1e-9 of one: bucket_count), and the rest come in the sum's order through
 * the sum's own test and arithmetic: the same bits (tests/test_water.c
 * checks them against the full sum).  The height alone reads the table
 * once a term, not twice.  x outside the basin: rings_sum_all.  Under
 * rpl_double_precision, so that the x87 rounds the phase as the others do
 * when the caller did not ask for it (drawing, reading the surface). */
void rpl_water_rings_eval(const rpl_water_t *w, double x, double *h, double *dt, double *dx)
{
    if (!w->tm) { /* waves always have their terms: never expected */
        *h = 0;
        if (dt)
            *dt = 0;
        if (dx)
            *dx = 0;
        return;
    }
    eval_call_t c = {w, x, h, dt, dx};
    rpl_double_precision(rings_eval, &c);
}

typedef struct heights_call {
    const rpl_water_t *w;
    const double *x;
    int n;
    double *h;
} heights_call_t;


static void rings_heights(void *arg)
{
    const heights_call_t *c = arg;
    const rpl_water_t *w = c->w;
    int i = 0;
#if RINGS_AVX2
    const rpl_water_params_t *p = &w->p;
    const terms_t *tm = w->tm;
    /* four x of one bucket in the basin at a time, across the lanes */
    while (w->avx2 && i + 4 <= c->n) {
        const double *x = c->x + i;
        int in = 1;
        for (int j = 0; j < 4; j++)
            in &= x[j] >= p->x0 && x[j] <= p->x1;
        int b = in ? bucket_of(p, tm, x[0]) : -1;
        if (b < 0 || bucket_of(p, tm, x[1]) != b || bucket_of(p, tm, x[2]) != b ||
            bucket_of(p, tm, x[3]) != b) {
            eval_call_t e = {w, x[0], c->h + i, NULL, NULL};
            rings_eval(&e);
            i++;
            continue;
        }
        int i0 = b * TERMS_MAX;
        bucket_sum4_avx2(tm, x, i0, i0 + tm->cnt[b], c->h + i);
        i += 4;
    }
#endif
    for (; i < c->n; i++) {
        eval_call_t e = {w, c->x[i], c->h + i, NULL, NULL};
        rings_eval(&e);
    }
}

/* The displacement at x[0 .. n-1] (h), each with the bits of
 * rpl_water_rings_eval's at that x; with avx2, several x at once. */
void rpl_water_rings_heights(const rpl_water_t *w, const double *x, int n, double *h)
{
    if (!w->tm) {
        for (int i = 0; i < n; i++)
            h[i] = 0;
        return;
    }
    heights_call_t c = {w, x, n, h};
    rpl_double_precision(rings_heights, &c);
}

/* Whether the sums may take AVX2: with the avx2 kernels, in a build that
 * has them. */
int rpl_water_rings_avx2(const rpl_kernels_t *k)
{
#if RINGS_AVX2
    return k && strcmp(rpl_kernels_name(k), "avx2") == 0;
#else
    (void)k;
    return 0;
#endif
}

void rpl_water_rings_step(rpl_water_t *w)
{
    w->steps++;
    w->gen++; /* every ring is a step older */
    /* All rings live equally long, so the dead ones are the oldest. */
    int dead = 0;
    uint64_t lives = rpl_water_life_steps(&w->p);
    while (dead < w->nrings && w->steps - w->rings[dead].born >= lives)
        dead++;
    if (dead) {
        memmove(w->rings, w->rings + dead, (size_t)(w->nrings - dead) * sizeof *w->rings);
        w->nrings -= dead;
    }
    w->calm = w->nrings == 0 ? w->calm + 1 : 0;
    rpl_water_terms_step(w, dead);
}
