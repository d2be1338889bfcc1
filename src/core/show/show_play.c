/* core/show/show_play.c - the show player: plays a show read by show_read.c into a field, a tick a step. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/base.h"
#include "ripple_support.h"
#include "core/field/field.h"
#include "core/show/show.h"

#define TAU 6.283185307179586

/* ---- the player ------------------------------------------------------- */

typedef struct active {
    size_t ev;   /* the command */
    uint64_t e;  /* steps since it started */
} active_t;

struct rpl_show_player {
    const rpl_show_t *show; /* NULL in a failed handle */
    rpl_err_t err;
    uint64_t seed;
    uint64_t t;        /* the step the next tick plays */
    uint64_t loops;
    size_t next;       /* the next command to apply */
    int done;
    int rain_allowed;
    unsigned changed;
    const ev_t *rain;  /* the last `rain RATE ...`, NULL for the default */
    int wf[2];         /* `weights`: thousandths, classic and wave */
    rpl_show_view_t view;
    active_t act[RPL_SHOW_ACTIVE_MAX];
    int nact;
    uint64_t calm_at, calm_len; /* a `calm` from step calm_at; 0: none */
    uint64_t fade_at, fade_len; /* a `fade` likewise */
    uint64_t card_at, card_len; /* a `card` likewise */
};

static void initial_view(rpl_show_player_t *p)
{
    p->view.light = 1;
    p->view.strength = RPL_STRENGTH_ONE;
    p->view.stone = 0;
    p->view.rain_on = 0;
    memset(&p->view.rain, 0, sizeof p->view.rain);
    p->view.picture = "";
    p->view.stones = RPL_STONES_BUMPS;
    p->view.fade = 0;
    p->view.fade_colour = 0;
    p->fade_len = 0;
    p->view.card = "";
    p->view.card_level = 0;
    p->card_len = 0;
    p->rain = NULL;
    p->wf[0] = p->wf[1] = 1000;
}

/* A player that can play: created whole (a failed handle only reports its
 * error and is destroyed). */
static int usable(const rpl_show_player_t *p)
{
    return p && p->show;
}

rpl_status rpl_show_player_create(const rpl_show_t *show, uint64_t seed,
                                  rpl_show_player_t **out)
{
    if (!out)
        return RPL_EINVAL;
    rpl_show_player_t *p = *out = calloc(1, sizeof *p);
    if (!p)
        return RPL_ENOMEM;
    if (!show || !show->ok)
        return rpl_err_set(&p->err, RPL_EINVAL, "no show to play (%s)",
                           show ? "it failed to be read" : "NULL");
    p->show = show;
    p->seed = seed;
    p->rain_allowed = 1;
    initial_view(p);
    return RPL_OK;
}

const char *rpl_show_player_error(const rpl_show_player_t *p)
{
    return p ? rpl_err_text(&p->err) : "no show player (NULL)";
}

void rpl_show_player_destroy(rpl_show_player_t *p)
{
    free(p);
}

void rpl_show_player_rewind(rpl_show_player_t *p)
{
    if (!usable(p))
        return;
    p->t = 0;
    p->loops = 0;
    p->next = 0;
    p->done = 0;
    p->changed = 0;
    p->nact = 0;
    p->calm_len = 0;
    initial_view(p);
}

void rpl_show_player_set_rain(rpl_show_player_t *p, int on)
{
    if (usable(p))
        p->rain_allowed = on != 0;
}

unsigned rpl_show_player_changed(const rpl_show_player_t *p)
{
    return usable(p) ? p->changed : 0;
}

const rpl_show_view_t *rpl_show_player_view(const rpl_show_player_t *p)
{
    return usable(p) ? &p->view : NULL;
}

uint64_t rpl_show_player_time(const rpl_show_player_t *p)
{
    return usable(p) ? p->t : 0;
}

uint64_t rpl_show_player_loops(const rpl_show_player_t *p)
{
    return usable(p) ? p->loops : 0;
}

int rpl_show_player_done(const rpl_show_player_t *p)
{
    return usable(p) ? p->done : 0;
}

static double len_of(coord_t c, const rpl_sim_t *sim)
{
    return len_wh(c, rpl_sim_width(sim), rpl_sim_height(sim));
}

static int clampi(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* A stone's weight on this field: as written (times the show's `weights`
 * for the field's model) when its radius is in cells; with its radius a
 * share of the field, also in proportion to the field's shorter side
 * against 480 cells, so that its slopes (radius and depth alike) and so
 * the refraction look the same at every size.  In integers, rounded half
 * away from zero, the same on every machine. */
static int weight_of(const rpl_show_player_t *p, int w, coord_t r, const rpl_sim_t *sim)
{
    int64_t f = p->wf[rpl_sim_model(sim) == RPL_MODEL_WAVE], den = 1000;
    int64_t num = (int64_t)w * f;
    if (!r.px) {
        int side = rpl_sim_width(sim) < rpl_sim_height(sim) ? rpl_sim_width(sim) : rpl_sim_height(sim);
        num *= side;
        den *= 480;
    }
    int64_t v = num >= 0 ? (num + den / 2) / den : -((-num + den / 2) / den);
    return (int)v; /* |v| < 2^20: 8192 x 4 x 8192 / 480 at most */
}

static rpl_status drop(rpl_sim_t *sim, double x, double y, int r, int w, rpl_status st)
{
    rpl_status d = rpl_sim_bump(sim, cell(x), cell(y), r, w);
    return st != RPL_OK ? st : d;
}

/* Lays stones [lo, hi) of a command. */
static rpl_status lay(const rpl_show_player_t *p, const ev_t *e, const path_t *pa, rpl_sim_t *sim,
                      size_t lo, size_t hi)
{
    const rpl_show_t *s = p->show;
    rpl_status st = RPL_OK;
    double x = pos(e->c[0], rpl_sim_width(sim)), y = pos(e->c[1], rpl_sim_height(sim));
    switch (e->cmd) {
    case C_DROP:
        st = drop(sim, x, y, radius(len_of(e->c[2], sim)), weight_of(p, e->w0, e->c[2], sim), st);
        break;
    case C_RING: {
        double rr = len_of(e->c[2], sim);
        int r = radius(len_of(e->c[3], sim)), w = weight_of(p, e->w0, e->c[3], sim);
        for (size_t i = lo; i < hi; i++) {
            double a = TAU * (double)i / e->count - TAU / 4; /* from the top, clockwise */
            st = drop(sim, x + rr * cos(a), y + rr * sin(a), r, w, st);
        }
        break;
    }
    case C_TRAIL: {
        int r = radius(len_of(e->c[0], sim)), w = weight_of(p, e->w0, e->c[0], sim);
        size_t seg = 0;
        double total = pa->at[pa->n - 1];
        for (size_t i = lo; i < hi; i++) {
            double d = pa->segs ? total * (double)i / pa->segs : 0;
            while (seg + 2 < pa->n && pa->at[seg + 1] < d)
                seg++;
            double l = pa->at[seg + 1] - pa->at[seg];
            double f = l > 0 ? (d - pa->at[seg]) / l : 0;
            f = f < 0 ? 0 : f > 1 ? 1 : f;
            st = drop(sim, pa->x[seg] + f * (pa->x[seg + 1] - pa->x[seg]),
                      pa->y[seg] + f * (pa->y[seg + 1] - pa->y[seg]), r, w, st);
        }
        break;
    }
    case C_TEXT: {
        double c = len_of(e->c[2], sim);
        int r = radius(len_of(e->radius, sim)), w = weight_of(p, e->w0, e->radius, sim);
        for (size_t i = lo; i < hi; i++) {
            const int16_t *d = s->dots + 2 * (e->first + i);
            st = drop(sim, x + (d[0] - (e->tw - 1) / 2.0) * c, y + (d[1] - (e->th - 1) / 2.0) * c,
                      r, w, st);
        }
        break;
    }
    }
    return st;
}

/* What is left of the water i steps into a calm of n, in 1/65536: 1 -
 * smoothstep(i / n), so the water settles gently and ends flat. */
static int32_t calm_left(uint64_t i, uint64_t n)
{
    if (i >= n)
        return 0;
    int64_t x = (int64_t)((i << 16) / n); /* i / n in 1/65536, i < 2^27 */
    return (int32_t)(65536 - ((x * x * (3 * 65536 - 2 * x)) >> 32));
}

/* How far a fade of n steps has gone to its colour at its step i, 0..256:
 * there and back, eased at both ends (smoothstep), all the colour at the
 * middle, none after its last step. */
static int fade_level(uint64_t i, uint64_t n)
{
    uint64_t k = 2 * (i + 1);
    if (i + 1 >= n)
        return 0;
    int64_t x = (int64_t)(((k <= n ? k : 2 * n - k) << 16) / n); /* 0..65536 */
    return (int)((x * x * (3 * 65536 - 2 * x) >> 32) * 256 >> 16);
}

/* One step of a running command; 1 when it is finished. */
static int run_action(rpl_show_player_t *p, active_t *a, rpl_sim_t *sim, rpl_status *st)
{
    const rpl_show_t *s = p->show;
    const ev_t *e = &s->ev[a->ev];
    uint64_t span = e->over > 1 ? e->over : 1;
    uint64_t l = e->every ? a->e % e->every : a->e;
    if (l < span) {
        static const path_t none;
        path_t pa;
        const path_t *pp = &none;
        if (e->cmd == C_TRAIL) {
            rpl_show_trail_path(s, e, rpl_sim_width(sim), rpl_sim_height(sim), &pa);
            pp = &pa;
        }
        /* stone i is laid at step floor(i * span / n) of the repetition */
        uint64_t n = rpl_show_stone_count(e, pp);
        uint64_t lo = (l * n + span - 1) / span, hi = ((l + 1) * n + span - 1) / span;
        if (hi > lo) {
            /* silent stones: the field's drop hook (the drips) is not told */
            rpl_drop_fn hook = sim->drop_fn;
            if (e->quiet)
                sim->drop_fn = NULL;
            rpl_status d = lay(p, e, pp, sim, (size_t)lo, (size_t)hi);
            sim->drop_fn = hook;
            if (*st == RPL_OK)
                *st = d;
        }
    }
    a->e++;
    if (!e->every)
        return a->e >= span;
    if (!e->times)
        return 0;
    return a->e >= (e->times - 1) * e->every + span;
}

static void resolve_rain(rpl_show_player_t *p, const rpl_sim_t *sim)
{
    rpl_rain_t *r = &p->view.rain;
    if (p->rain) {
        r->per_kilostep = p->rain->count;
        r->rmin = radius(len_of(p->rain->c[0], sim));
        r->rmax = radius(len_of(p->rain->c[1], sim));
        r->wmin = weight_of(p, p->rain->w0, p->rain->c[0], sim);
        r->wmax = weight_of(p, p->rain->w1, p->rain->c[0], sim);
    } else {
        /* the default: as the demo's own rain */
        int unit = (rpl_sim_width(sim) < rpl_sim_height(sim) ? rpl_sim_width(sim) : rpl_sim_height(sim)) / 240;
        unit = unit < 1 ? 1 : unit;
        *r = (rpl_rain_t){ .per_kilostep = 120, .rmin = unit, .rmax = 2 * unit,
                           .wmin = 24, .wmax = 80 };
    }
    if (r->rmax < r->rmin)
        r->rmax = r->rmin;
}

/* Applies one command that is not an action. */
static rpl_status apply(rpl_show_player_t *p, const ev_t *e, rpl_sim_t *sim)
{
    const rpl_show_t *s = p->show;
    double x0 = pos(e->c[0], rpl_sim_width(sim)), y0 = pos(e->c[1], rpl_sim_height(sim));
    double x1 = pos(e->c[2], rpl_sim_width(sim)), y1 = pos(e->c[3], rpl_sim_height(sim));
    switch (e->cmd) {
    case C_RAIN_SET:
        p->rain = e;
        /* fall through */
    case C_RAIN_ON:
    case C_RAIN_OFF:
        p->view.rain_on = e->cmd != C_RAIN_OFF;
        resolve_rain(p, sim);
        p->changed |= RPL_SHOW_RAIN;
        return RPL_OK;
    case C_LIGHT:
        p->view.light = e->count;
        p->changed |= RPL_SHOW_LIGHT;
        return RPL_OK;
    case C_STRENGTH:
        p->view.strength = e->count;
        p->changed |= RPL_SHOW_STRENGTH;
        return RPL_OK;
    case C_STONES:
        p->view.stones = (rpl_stones)e->count;
        p->changed |= RPL_SHOW_STONES;
        return RPL_OK;
    case C_WEIGHTS:
        p->wf[0] = e->wf[0];
        p->wf[1] = e->wf[1];
        return RPL_OK;
    case C_STONE:
        p->view.stone = radius(len_of(e->c[0], sim));
        p->changed |= RPL_SHOW_STONE;
        return RPL_OK;
    case C_PICTURE:
        p->view.picture = s->strs + e->first;
        p->changed |= RPL_SHOW_PICTURE;
        return RPL_OK;
    case C_WALL_RECT:
    case C_WALL_OPEN: {
        /* the cells from the smaller corner up to the larger, clipped */
        int ax = clampi(cell(x0 < x1 ? x0 : x1), 0, rpl_sim_width(sim)), bx = clampi(cell(x0 < x1 ? x1 : x0), 0, rpl_sim_width(sim));
        int ay = clampi(cell(y0 < y1 ? y0 : y1), 0, rpl_sim_height(sim)), by = clampi(cell(y0 < y1 ? y1 : y0), 0, rpl_sim_height(sim));
        if (bx <= ax || by <= ay)
            return RPL_OK;
        return rpl_sim_wall_rect(sim, ax, ay, bx - ax, by - ay, e->cmd == C_WALL_RECT);
    }
    case C_WALL_LINE: {
        int th = clampi(cell(len_of(e->c[4], sim)), 1, rpl_sim_width(sim) + rpl_sim_height(sim));
        /* the part of the segment that can touch the field */
        double m = th, t0 = 0, t1 = 1;
        if (!rpl_clip_axis(x0, x1 - x0, -m, rpl_sim_width(sim) + m, &t0, &t1) ||
            !rpl_clip_axis(y0, y1 - y0, -m, rpl_sim_height(sim) + m, &t0, &t1))
            return RPL_OK;
        return rpl_sim_wall_line(sim, cell(x0 + t0 * (x1 - x0)), cell(y0 + t0 * (y1 - y0)),
                                 cell(x0 + t1 * (x1 - x0)), cell(y0 + t1 * (y1 - y0)), th, 1);
    }
    case C_WALL_CLEAR:
        return rpl_sim_set_walls(sim, NULL);
    case C_EDGES:
        return rpl_sim_set_edges(sim, (rpl_edges)e->count);
    case C_CUT:
        rpl_sim_reset(sim, p->seed);
        p->changed |= RPL_SHOW_CUT;
        return RPL_OK;
    case C_CALM:
        p->calm_at = p->t;
        p->calm_len = e->over;
        return RPL_OK;
    case C_CARD:
        p->card_at = p->t;
        p->card_len = e->over;
        p->view.card = s->strs + e->first;
        return RPL_OK;
    case C_FADE:
        p->fade_at = p->t;
        p->fade_len = e->over;
        p->view.fade_colour = (uint32_t)e->w0;
        return RPL_OK;
    default:
        return RPL_OK;
    }
}

rpl_status rpl_show_player_tick(rpl_show_player_t *p, rpl_sim_t *sim)
{
    if (!usable(p))
        return RPL_EINVAL;
    if (rpl_sim_width(sim) < 1)
        return rpl_err_set(&p->err, RPL_EINVAL, "no field to play into (%s)",
                           sim ? "it failed to be created" : "NULL");
    const rpl_show_t *s = p->show;
    rpl_status st = RPL_OK;
    p->changed = 0;
    int restarted = 0;
    while (!p->done && p->next < s->n && s->ev[p->next].at == p->t) {
        const ev_t *e = &s->ev[p->next++];
        if (is_action(e->cmd)) {
            if (p->nact < RPL_SHOW_ACTIVE_MAX) /* always: the parser counted them */
                p->act[p->nact++] = (active_t){ (size_t)(e - s->ev), 0 };
        } else if (e->cmd == C_LOOP) {
            p->t = 0;
            p->next = 0;
            p->nact = 0;
            p->calm_len = 0;
            if (p->card_len) { /* so does a card */
                p->card_len = 0;
                p->view.card = "";
                p->view.card_level = 0;
                p->changed |= RPL_SHOW_CARD;
            }
            if (p->fade_len) { /* a fade cut short clears */
                p->fade_len = 0;
                p->view.fade = 0;
                p->changed |= RPL_SHOW_FADE;
            }
            p->loops++;
            p->changed |= RPL_SHOW_LOOPED;
            if (restarted++) /* never: a loop is past step 0 */
                break;
        } else if (e->cmd == C_END) {
            p->done = 1;
            p->nact = 0;
            p->changed |= RPL_SHOW_ENDED;
        } else {
            rpl_status d = apply(p, e, sim);
            if (st == RPL_OK)
                st = d;
        }
    }
    if (!p->done && p->calm_len) {
        /* the water settles before this step's stones */
        uint64_t i = p->t - p->calm_at;
        int32_t from = calm_left(i, p->calm_len), to = calm_left(i + 1, p->calm_len);
        rpl_sim_scale(sim, to, from);
        if (i + 1 >= p->calm_len)
            p->calm_len = 0;
    }
    if (!p->done && p->card_len) {
        /* in and out over a quarter of its time, half a second at most */
        uint64_t i = p->t - p->card_at, n = p->card_len, r = n / 4 < 30 ? n / 4 : 30;
        r = r < 1 ? 1 : r;
        uint64_t in = i + 1 < r ? i + 1 : r, out = n - 1 - i < r ? n - 1 - i : r;
        p->view.card_level = (int)((in < out ? in : out) * 256 / r);
        p->changed |= RPL_SHOW_CARD;
        if (i + 1 >= n) {
            p->card_len = 0;
            p->view.card = "";
        }
    }
    if (!p->done && p->fade_len) {
        uint64_t i = p->t - p->fade_at;
        p->view.fade = fade_level(i, p->fade_len);
        p->changed |= RPL_SHOW_FADE;
        if (i + 1 >= p->fade_len)
            p->fade_len = 0;
    }
    if (!p->done) {
        int k = 0;
        for (int i = 0; i < p->nact; i++)
            if (!run_action(p, &p->act[i], sim, &st))
                p->act[k++] = p->act[i];
        p->nact = k;
        p->t++;
        if (!s->ending && p->next >= s->n && p->nact == 0 && p->t >= s->length) {
            p->done = 1;
            p->changed |= RPL_SHOW_ENDED;
        }
    }
    /* the weather outlasts the script */
    if (p->view.rain_on) {
        resolve_rain(p, sim);
        if (p->rain_allowed) {
            rpl_status d = rpl_sim_rain_bumps(sim, &p->view.rain);
            if (st == RPL_OK)
                st = d;
        }
    }
    return st;
}
