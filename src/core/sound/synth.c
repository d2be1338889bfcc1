/* core/sound/synth.c - the music's synthesizer: band-limited oscillators and noise, ADSR envelopes, a resonant filter, an echo and a room, in integer arithmetic so every machine plays the same samples. */
#include <stdlib.h>
#include <string.h>

#include "core/base/base.h"
#include "core/sound/dsp.h"
#include "core/sound/music.h"

/* Fixed point as in dsp.h.  Products that feed back into themselves (the
 * filter, the echo, the room) are rounded towards zero, never down, so
 * that silence in gives exactly silence out after a while instead of a
 * tail stuck at -1. */

enum { ST_FREE, ST_ATTACK, ST_DECAY, ST_RELEASE, ST_FADE };
enum { COMBS = 4, ALLPASSES = 2 };
enum { FADES = 8 };          /* voices fading out after a new note took their place */
#define ENV_END 64           /* Q22: an envelope this low (-96 dB) has ended */
#define STATE_MAX (1 << 24) /* the filter's states are held within this */
#define TWO_PI_Q16 411775   /* 2 pi in Q16 */

/* An instrument at this rate. */
typedef struct inst {
    int wave, filter;
    uint32_t width;          /* the pulse's second saw, as a phase */
    int32_t gain;            /* Q15: volume and master */
    int32_t gl, gr;          /* Q15 pan */
    int32_t att;             /* Q30 a frame */
    uint32_t dec, rel;       /* Q16 a frame */
    int32_t sus;             /* Q30 */
    int cutoff, envmod;      /* Hz */
    int32_t k;               /* Q16 damping of the filter: 2 - 2 * resonance, about */
    uint32_t det_lo, det_hi; /* Q16 pitch ratios of the two oscillators */
    int two;                 /* two oscillators */
    uint32_t sweep;          /* Q16 ratio of the pitch at the start, 65536 if none */
    uint32_t sweep_c;        /* Q16 a frame of the sweep's fall */
    int32_t echo, space;     /* Q15 sends */
} inst_t;

typedef struct voice {
    int state;
    const inst_t *in;
    uint32_t ph[2], inc[2];  /* the oscillators */
    int32_t sweep;           /* Q16: what is left of the pitch's fall */
    int32_t env;             /* Q30 */
    uint32_t gate;           /* frames until the note is let go */
    int32_t amp;             /* Q15: the note's velocity */
    int32_t ic1, ic2;        /* the filter's states */
    int32_t a1, a2, a3;      /* Q16 filter coefficients, updated every few frames */
    int coef_left;
    uint32_t noise;
} voice_t;

typedef struct line {
    int32_t *buf;
    int32_t n, i;
    int32_t lp;              /* a comb's damping state */
} line_t;

struct synth {
    int rate;
    int nnotes;
    mus_note_t *notes;
    uint64_t *at;            /* the frame each note starts at */
    uint32_t *gate;          /* and how many frames it is held */
    uint64_t loop, pos;
    int next;                /* the next note to start */
    int ntracks;
    int track_inst[RPL_MUSIC_TRACKS_MAX];
    int turn[RPL_MUSIC_TRACKS_MAX];
    inst_t inst[RPL_MUSIC_INSTRUMENTS_MAX];
    voice_t v[2 * RPL_MUSIC_TRACKS_MAX + FADES];
    uint32_t fade;           /* Q16 a frame: 2 ms */
    /* the echo: a ping-pong between the channels */
    int32_t *echo[2];
    int32_t echo_n, echo_i;
    int32_t echo_fb, echo_lp[2];
    uint32_t echo_damp;
    /* the room: parallel combs into allpasses, each channel its own lengths */
    line_t comb[2][COMBS], ap[2][ALLPASSES];
    int32_t room_fb;
    uint32_t room_damp;
    int room_on;
};

/* x * c / 65536 rounded towards zero. */
static inline int32_t mul16(int32_t x, int32_t c)
{
    return (int32_t)((int64_t)x * c / Q16);
}

static inline int32_t clamp(int32_t x, int32_t lim)
{
    return x > lim ? lim : x < -lim ? -lim : x;
}

/* One-pole low-pass, at least one step towards its input so it reaches it. */
static inline int32_t follow(int32_t y, int32_t x, uint32_t c)
{
    int32_t d = mul16(x - y, (int32_t)c);
    if (d == 0 && x != y)
        d = x > y ? 1 : -1;
    return y + d;
}

/* 2^(k/12) in Q16, k = 0..11. */
static const uint32_t SEMITONE[12] = { 65536, 69433, 73562, 77936, 82570, 87480,
                                       92682, 98193, 104032, 110218, 116772, 123715 };
/* The frequency of MIDI note 0 (C-1), 440 / 2^(69/12) Hz, in Q24. */
#define NOTE0_Q24 137167144u

/* The phase increment of MIDI note n (0..127) at rate: f 2^32 / rate,
 * kept below 0.45 of the rate. */
static uint32_t note_inc(int n, int rate)
{
    uint64_t f = ((uint64_t)SEMITONE[n % 12] * NOTE0_Q24 >> 16) << (n / 12); /* Q24 Hz */
    uint64_t inc = (f << 8) / (uint64_t)rate;
    uint64_t top = ((uint64_t)9 << 32) / 20;
    return (uint32_t)(inc > top ? top : inc);
}

/* 2^(s/12) in Q16, s = 0..48. */
static uint32_t semitones(int s)
{
    return SEMITONE[s % 12] << (s / 12);
}

static void make_inst(inst_t *o, const mus_inst_t *in, int master, int rate)
{
    memset(o, 0, sizeof *o);
    o->wave = in->wave;
    o->filter = in->filter;
    o->width = (uint32_t)((uint64_t)in->width * 0xFFFFFFFFu / 100u);
    o->gain = in->volume * master * 32768 / 10000;
    int32_t p = in->pan * 32768 / 200; /* at most half to a side */
    o->gl = 32768 - p;
    o->gr = 32768 + p;
    int64_t af = (int64_t)rate * in->attack / 1000, amin = rate / 2000; /* at least 0.5 ms */
    af = af < amin ? amin : af;
    o->att = (int32_t)(ENV_ONE / (af < 1 ? 1 : af));
    o->dec = dsp_per_tau(rate, (uint32_t)in->decay * 1000u);
    o->rel = dsp_per_tau(rate, (uint32_t)in->release * 1000u);
    o->sus = (int32_t)((int64_t)ENV_ONE * in->sustain / 100);
    o->cutoff = in->cutoff;
    o->envmod = in->envmod;
    o->k = 92682 - in->resonance * (92682 - 3277) / 100; /* sqrt 2 (no peak) down to 0.05 */
    o->two = in->detune > 0;
    o->det_lo = (uint32_t)(65536 - in->detune * 19); /* half the cents each way (ln 2 / 1200 in Q16 is 37.8) */
    o->det_hi = (uint32_t)(65536 + in->detune * 19);
    o->sweep = semitones(in->sweep);
    o->sweep_c = dsp_per_tau(rate, (uint32_t)in->sweep_ms * 1000u);
    o->echo = in->echo * 32768 / 100;
    o->space = in->space * 32768 / 100;
}

/*
 * The filter: a state-variable filter integrated by the trapezoidal rule
 * (stable at any cutoff and resonance, unlike the older forward-Euler
 * form).  With g = tan(pi fc / rate) and k the damping,
 *   a1 = 1 / (1 + g (g + k)),  a2 = g a1,  a3 = g a2,
 *   v3 = x - ic2,  v1 = a1 ic1 + a2 v3,  v2 = ic2 + a2 ic1 + a3 v3,
 *   ic1 = 2 v1 - ic1,  ic2 = 2 v2 - ic2,
 * v2 the low-pass, v1 the band-pass, x - k v1 - v2 the high-pass.
 */
static void filter_coef(voice_t *v, int rate)
{
    const inst_t *in = v->in;
    int64_t fc = in->cutoff + (int64_t)in->envmod * (v->env >> 14) / 65536;
    int64_t top = (int64_t)rate * 45 / 100;
    fc = fc < 20 ? 20 : fc > top ? top : fc;
    uint32_t ph = (uint32_t)(((uint64_t)fc << 31) / (uint64_t)rate); /* pi fc / rate as a phase */
    int64_t s = dsp_sine(ph), c = dsp_sine(ph + 0x40000000u);
    if (c < 1)
        c = 1;
    int64_t g = s * Q16 / c;                        /* Q16 */
    g = g > 64 * Q16 ? 64 * Q16 : g;
    int64_t den = Q16 + (g * (g + in->k) >> 16);    /* Q16 */
    v->a1 = (int32_t)((int64_t)Q16 * Q16 / den);
    v->a2 = (int32_t)(g * v->a1 >> 16);
    v->a3 = (int32_t)(g * v->a2 >> 16);
}

static int32_t filter(voice_t *v, int32_t x)
{
    int32_t v3 = x - v->ic2;
    int32_t v1 = clamp(mul16(v->ic1, v->a1) + mul16(v3, v->a2), STATE_MAX);
    int32_t v2 = clamp(v->ic2 + mul16(v->ic1, v->a2) + mul16(v3, v->a3), STATE_MAX);
    v->ic1 = clamp(2 * v1 - v->ic1, STATE_MAX);
    v->ic2 = clamp(2 * v2 - v->ic2, STATE_MAX);
    switch (v->in->filter) {
    case FILTER_LP: return v2;
    case FILTER_BP: return v1;
    default: return clamp(x - mul16(v1, v->in->k) - v2, STATE_MAX);
    }
}

/* A saw's step smoothed over a frame each side (polyBLEP): t the phase,
 * dt its increment; Q15. */
static int32_t blep(uint32_t t, uint32_t dt)
{
    if (dt == 0)
        return 0;
    if (t < dt) {
        int32_t x = (int32_t)(((uint64_t)t << 15) / dt); /* 0..1 in Q15 */
        return 2 * x - ((x * x) >> 15) - 32768;
    }
    if (t > 0xFFFFFFFFu - dt) {
        int32_t x = -(int32_t)(((uint64_t)(0xFFFFFFFFu - t) << 15) / dt); /* -1..0 */
        return ((x * x) >> 15) + 2 * x + 32768;
    }
    return 0;
}

static int32_t saw(uint32_t t, uint32_t dt)
{
    return (int32_t)(t >> 16) - 32768 - blep(t, dt);
}

/* One oscillator's sample, Q15. */
static int32_t osc(voice_t *v, int i, uint32_t inc)
{
    uint32_t t = v->ph[i];
    v->ph[i] = t + inc;
    switch (v->in->wave) {
    case WAVE_SINE: return dsp_sine(t);
    case WAVE_TRIANGLE: return t < 0x80000000u ? (int32_t)(t >> 15) - 32768 : 98304 - (int32_t)(t >> 15);
    case WAVE_SAW: return saw(t, inc);
    case WAVE_SQUARE: return (saw(t, inc) - saw(t + 0x80000000u, inc)) / 2;
    case WAVE_PULSE: return (saw(t, inc) - saw(t + v->in->width, inc)) / 2;
    default: return dsp_white(&v->noise);
    }
}

static void start_note(synth_t *s, int k)
{
    const mus_note_t *n = &s->notes[k];
    int tr = n->track;
    voice_t *a = &s->v[2 * tr], *b = a + 1;
    /* each note on a voice of its own while the one before it fades: the
     * free one, or the quieter */
    voice_t *v = a->state == ST_FREE ? a : b->state == ST_FREE ? b : a->env <= b->env ? a : b;
    const inst_t *in = &s->inst[s->track_inst[tr]];
    if (v->state != ST_FREE) {
        /* still sounding: it fades out in a slot of its own (or, with
         * every such slot busy, stops) */
        voice_t *f = &s->v[2 * RPL_MUSIC_TRACKS_MAX];
        for (int i = 0; i < FADES; i++, f++)
            if (f->state == ST_FREE) {
                *f = *v;
                f->state = ST_FADE;
                f->gate = 0;
                break;
            }
    }
    /* every note starts afresh, its noise from the note alone: what a
     * note sounds depends on nothing before it, so each loop is the one
     * before again */
    memset(v, 0, sizeof *v);
    v->noise = (uint32_t)rpl_seed_mix(0x4D55534943ull + (uint64_t)k) | 1u;
    v->in = in;
    v->state = ST_ATTACK;
    v->gate = s->gate[k];
    v->amp = n->vel * 32768 / 100;
    uint32_t inc = note_inc(n->pitch, s->rate);
    v->inc[0] = in->two ? (uint32_t)((uint64_t)inc * in->det_lo >> 16) : inc;
    v->inc[1] = (uint32_t)((uint64_t)inc * in->det_hi >> 16);
    v->sweep = Q16;
    v->coef_left = 0;
}

/* One voice's sample into the sums. */
static void voice_frame(synth_t *s, voice_t *v, int32_t *l, int32_t *r, int32_t *el, int32_t *er,
                        int32_t *room)
{
    const inst_t *in = v->in;
    switch (v->state) {
    case ST_ATTACK:
        v->env = v->env > ENV_ONE - in->att ? ENV_ONE : v->env + in->att;
        if (v->env == ENV_ONE)
            v->state = ST_DECAY;
        break;
    case ST_DECAY:
        v->env = follow(v->env >> 8, in->sus >> 8, in->dec) << 8; /* Q22 steps reach the level */
        break;
    case ST_RELEASE:
        v->env = follow(v->env >> 8, 0, in->rel) << 8;
        break;
    default:
        v->env = follow(v->env >> 8, 0, s->fade) << 8;
        break;
    }
    if (v->gate > 0 && --v->gate == 0)
        v->state = ST_RELEASE;
    if ((v->env >> 8) < ENV_END && (v->state >= ST_RELEASE || (v->state == ST_DECAY && in->sus < (ENV_END << 8)))) {
        v->state = ST_FREE;
        return;
    }
    /* the pitch: the sweep falls from its start to the note */
    uint32_t i0 = v->inc[0], i1 = v->inc[1];
    if (in->sweep != Q16) {
        uint64_t ratio = Q16 + (((uint64_t)(in->sweep - Q16) * (uint32_t)v->sweep) >> 16);
        uint64_t top = ((uint64_t)9 << 32) / 20;
        uint64_t a = (uint64_t)i0 * ratio >> 16, b = (uint64_t)i1 * ratio >> 16;
        i0 = (uint32_t)(a > top ? top : a);
        i1 = (uint32_t)(b > top ? top : b);
        v->sweep = follow(v->sweep, 0, in->sweep_c);
    }
    int32_t x = osc(v, 0, i0);
    if (in->two)
        x = (x + osc(v, 1, i1)) / 2;
    if (in->filter != FILTER_OFF) {
        if (v->coef_left-- <= 0) {
            filter_coef(v, s->rate);
            v->coef_left = in->envmod ? 15 : 1 << 30; /* a moving cutoff every 16 frames */
        }
        x = filter(v, x);
    }
    int32_t e = (int32_t)(((int64_t)x * (v->env >> 15)) >> 15); /* Q15 env */
    e = (int32_t)(((int64_t)e * v->amp) >> 15);
    e = (int32_t)(((int64_t)e * in->gain) >> 15);
    int32_t xl = (int32_t)(((int64_t)e * in->gl) >> 15), xr = (int32_t)(((int64_t)e * in->gr) >> 15);
    *l += xl;
    *r += xr;
    *el += (int32_t)(((int64_t)xl * in->echo) >> 15);
    *er += (int32_t)(((int64_t)xr * in->echo) >> 15);
    *room += (int32_t)(((int64_t)e * in->space) >> 15);
}

static int32_t comb(line_t *c, int32_t x, int32_t fb, uint32_t damp)
{
    int32_t y = c->buf[c->i];
    c->lp = follow(c->lp, y, damp);
    c->buf[c->i] = clamp(x + mul16(c->lp, fb), STATE_MAX);
    c->i = c->i + 1 == c->n ? 0 : c->i + 1;
    return y;
}

static int32_t allpass(line_t *a, int32_t x)
{
    int32_t b = a->buf[a->i];
    a->buf[a->i] = clamp(x + b / 2, STATE_MAX);
    a->i = a->i + 1 == a->n ? 0 : a->i + 1;
    return b - x;
}

void synth_frame(synth_t *s, int32_t *l, int32_t *r)
{
    while (s->next < s->nnotes && s->at[s->next] == s->pos)
        start_note(s, s->next++);
    if (++s->pos == s->loop) {
        s->pos = 0;
        s->next = 0;
    }
    int32_t dl = 0, dr = 0, el = 0, er = 0, room = 0;
    for (int i = 0; i < 2 * s->ntracks; i++)
        if (s->v[i].state != ST_FREE)
            voice_frame(s, &s->v[i], &dl, &dr, &el, &er, &room);
    for (int i = 2 * RPL_MUSIC_TRACKS_MAX; i < 2 * RPL_MUSIC_TRACKS_MAX + FADES; i++)
        if (s->v[i].state != ST_FREE)
            voice_frame(s, &s->v[i], &dl, &dr, &el, &er, &room);
    dl = clamp(dl, STATE_MAX);
    dr = clamp(dr, STATE_MAX);
    if (s->echo_n) {
        int32_t ol = s->echo[0][s->echo_i], or_ = s->echo[1][s->echo_i];
        s->echo_lp[0] = follow(s->echo_lp[0], ol, s->echo_damp);
        s->echo_lp[1] = follow(s->echo_lp[1], or_, s->echo_damp);
        /* each repeat crosses to the other side */
        s->echo[0][s->echo_i] = clamp(clamp(el, STATE_MAX) + mul16(s->echo_lp[1], s->echo_fb), STATE_MAX);
        s->echo[1][s->echo_i] = clamp(clamp(er, STATE_MAX) + mul16(s->echo_lp[0], s->echo_fb), STATE_MAX);
        s->echo_i = s->echo_i + 1 == s->echo_n ? 0 : s->echo_i + 1;
        dl += ol;
        dr += or_;
    }
    if (s->room_on) {
        int32_t in = clamp(room, STATE_MAX) / 8;
        for (int c = 0; c < 2; c++) {
            int32_t sum = 0;
            for (int j = 0; j < COMBS; j++)
                sum += comb(&s->comb[c][j], in, s->room_fb, s->room_damp);
            for (int j = 0; j < ALLPASSES; j++)
                sum = allpass(&s->ap[c][j], sum);
            if (c == 0)
                dl += sum / 2;
            else
                dr += sum / 2;
        }
    }
    *l += clamp(dl, STATE_MAX);
    *r += clamp(dr, STATE_MAX);
}

uint64_t synth_position(const synth_t *s)
{
    return s ? s->pos : 0;
}

static int32_t *zeros(int32_t n)
{
    return calloc((size_t)n, sizeof(int32_t));
}

void synth_destroy(synth_t *s)
{
    if (!s)
        return;
    free(s->notes);
    free(s->at);
    free(s->gate);
    free(s->echo[0]);
    free(s->echo[1]);
    for (int c = 0; c < 2; c++) {
        for (int j = 0; j < COMBS; j++)
            free(s->comb[c][j].buf);
        for (int j = 0; j < ALLPASSES; j++)
            free(s->ap[c][j].buf);
    }
    free(s);
}

synth_t *synth_create(const rpl_music_t *m, int rate)
{
    synth_t *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->rate = rate;
    s->nnotes = m->nnotes;
    s->loop = mus_step_frame(m, m->steps, rate);
    s->ntracks = m->ntracks;
    size_t n = (size_t)(m->nnotes ? m->nnotes : 1);
    s->notes = malloc(n * sizeof *s->notes);
    s->at = malloc(n * sizeof *s->at);
    s->gate = malloc(n * sizeof *s->gate);
    if (!s->notes || !s->at || !s->gate) {
        synth_destroy(s);
        return NULL;
    }
    if (m->nnotes)
        memcpy(s->notes, m->notes, (size_t)m->nnotes * sizeof *s->notes);
    for (int i = 0; i < m->nnotes; i++) {
        const mus_note_t *t = &m->notes[i];
        s->at[i] = mus_step_frame(m, t->step, rate);
        uint64_t g = mus_step_frame(m, (uint64_t)t->step + t->len, rate) - s->at[i];
        s->gate[i] = (uint32_t)(g < 1 ? 1 : g);
    }
    for (int i = 0; i < m->ntracks; i++)
        s->track_inst[i] = m->track_inst[i];
    for (int i = 0; i < m->ninst; i++)
        make_inst(&s->inst[i], &m->inst[i], m->master, rate);
    for (int i = 0; i < 2 * RPL_MUSIC_TRACKS_MAX + FADES; i++)
        s->v[i].in = &s->inst[0];
    s->fade = dsp_per_tau(rate, 2000);
    if (m->echo_steps) {
        uint64_t d = mus_step_frame(m, (uint64_t)m->echo_steps, rate);
        uint64_t most = 2 * (uint64_t)rate; /* two seconds at most */
        s->echo_n = (int32_t)(d > most ? most : d < 1 ? 1 : d);
        s->echo[0] = zeros(s->echo_n);
        s->echo[1] = zeros(s->echo_n);
        s->echo_fb = m->echo_feedback * Q16 / 100;
        s->echo_damp = dsp_lowpass(rate, 2500);
        if (!s->echo[0] || !s->echo[1]) {
            synth_destroy(s);
            return NULL;
        }
    }
    if (m->room) {
        /* lengths in tenths of a millisecond, none a multiple of another,
         * the right channel's a little longer */
        static const int32_t comb_t[COMBS] = { 233, 261, 287, 311 }, ap_t[ALLPASSES] = { 113, 59 };
        s->room_on = 1;
        s->room_fb = (int32_t)(Q16 * 70 / 100 + (int64_t)Q16 * 27 * m->room / 10000); /* 0.70..0.97 */
        s->room_damp = dsp_lowpass(rate, 3000);
        for (int c = 0; c < 2; c++) {
            for (int j = 0; j < COMBS; j++) {
                line_t *L = &s->comb[c][j];
                L->n = (int32_t)((int64_t)rate * (comb_t[j] + 6 * c) / 10000);
                L->buf = zeros(L->n);
                if (!L->buf) {
                    synth_destroy(s);
                    return NULL;
                }
            }
            for (int j = 0; j < ALLPASSES; j++) {
                line_t *L = &s->ap[c][j];
                L->n = (int32_t)((int64_t)rate * (ap_t[j] + 3 * c) / 10000);
                L->buf = zeros(L->n);
                if (!L->buf) {
                    synth_destroy(s);
                    return NULL;
                }
            }
        }
    }
    return s;
}
