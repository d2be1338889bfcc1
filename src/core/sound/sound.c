/* core/sound/sound.c - drip sounds and a soft water bed, mixed in integer arithmetic so every machine gives the same samples. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/base.h"
#include "core/sound/dsp.h"
#include "core/sound/music.h"
#include "ripple/sound.h"
#include "ripple_support.h"

enum {
    SLOTS = 2 * RPL_SOUND_VOICES, /* sounding voices and those fading after a steal */
    PENDING_MAX = 64,             /* drips waiting for their start */
    WEIGHT_MAX = 8192,
    AMP_MAX = 16000,              /* peak of the loudest drip, before the pan */
    LIMIT_AT = 22000,             /* the limiter holds peaks to about this */
    KNEE = 26000,                 /* the saturation starts here */
    FULL = 32767
};

enum { V_FREE = 0, V_PLAY, V_FADE };

typedef struct voice {
    int state;
    uint64_t serial;         /* order of start, to steal the oldest among equals */
    uint32_t phase, inc, inc_end; /* the sine, and where its pitch glides to */
    uint32_t glide;          /* Q16 of the remaining glide taken per frame */
    int32_t env, senv;       /* Q30 envelopes of the tone and of the splash */
    int32_t att;             /* Q30 per frame while attacking, 0 after */
    uint32_t decay, sdecay;  /* Q16 per frame */
    int32_t amp, samp;       /* peaks of the tone and of the splash */
    int32_t gl, gr;          /* Q15 pan */
    uint32_t noise;          /* the splash's generator */
    int32_t lp;              /* the splash's low-pass */
} voice_t;

typedef struct pending {
    uint64_t start;          /* frame to start at */
    voice_t v;
} pending_t;

struct rpl_sound {
    int rate;
    uint64_t rng;
    uint64_t now;            /* frames mixed */
    uint64_t serial;
    uint64_t burst_at;       /* `now` of the last drip, and drips queued at it */
    int burst;

    /* coefficients for this rate */
    int32_t att_step;        /* Q30 per frame: 1.5 ms attack */
    uint32_t fade;           /* Q16: a stolen voice's 1.5 ms fade */
    uint32_t splash_lp;      /* Q16: the splash's low-pass, about 6 kHz */
    uint32_t lim_att, lim_rel; /* Q16: the limiter's attack (0.3 ms) and release (150 ms) */
    uint32_t bed_lp;         /* Q16: the bed's low-passes, about 400 Hz */
    uint32_t bed_mod;        /* Q16: the bed's swell follows its target (0.5 s) */
    int32_t bed_step, vol_step; /* Q16 per frame: 0.5 s and 20 ms ramps */
    int32_t bed_period;      /* frames between new swell targets */

    voice_t v[SLOTS];
    pending_t pend[PENDING_MAX];
    int npend;
    uint64_t next_start;     /* earliest pending start, UINT64_MAX if none */

    int32_t lim;             /* the limiter's level */
    int32_t vol, vol_to;     /* Q16 master volume and where it goes */
    int32_t bed, bed_to;     /* Q16 bed level and where it goes */
    int32_t swell, swell_to; /* Q16 swell of the bed */
    int32_t swell_left;      /* frames to the next swell target */
    uint32_t bed_noise[2];
    int32_t bed_a[2], bed_b[2]; /* two low-passes per channel */

    synth_t *music;          /* the music, NULL if none */
    int32_t mvol, mvol_to;   /* Q16 music volume and where it goes */

    rpl_err_t err;
};

static uint32_t isqrt(uint32_t v)
{
    uint32_t r = 0;
    for (uint32_t bit = 1u << 30; bit; bit >>= 2) {
        if (v >= r + bit) {
            v -= r + bit;
            r = (r >> 1) + bit;
        } else {
            r >>= 1;
        }
    }
    return r;
}

/* Two draws, the first the high half: in two statements, since C leaves
 * the order of the operands of one expression to the compiler. */
static uint64_t next_u64(rpl_sound_t *s)
{
    uint64_t hi = rpl_rng_next(&s->rng);
    uint64_t lo = rpl_rng_next(&s->rng);
    return hi << 32 | lo;
}

rpl_status rpl_sound_create(int sample_rate, uint64_t seed, rpl_sound_t **out)
{
    if (!out)
        return RPL_EINVAL;
    rpl_sound_t *s = *out = calloc(1, sizeof *s);
    if (!s)
        return RPL_ENOMEM;
    if (sample_rate < RPL_SOUND_RATE_MIN || sample_rate > RPL_SOUND_RATE_MAX)
        return rpl_err_set(&s->err, RPL_EINVAL, "sample rate %d out of range %d..%d",
                           sample_rate, RPL_SOUND_RATE_MIN, RPL_SOUND_RATE_MAX);
    int r = sample_rate;
    s->rate = r;
    s->rng = rpl_seed_mix(seed ^ 0x50554E44534F554Eull); /* not the field's sequence */
    s->next_start = UINT64_MAX;
    s->burst_at = UINT64_MAX;
    s->att_step = ENV_ONE / dsp_frames_in(r, 1) * 2 / 3; /* 1.5 ms: two thirds of a ms's step */
    s->fade = dsp_per_tau(r, 1500);
    s->splash_lp = dsp_lowpass(r, 6000);
    s->lim_att = dsp_per_tau(r, 300);
    s->lim_rel = dsp_per_tau(r, 150000);
    s->bed_lp = dsp_lowpass(r, 400);
    s->bed_mod = dsp_per_tau(r, 500000);
    s->bed_step = Q16 / dsp_frames_in(r, 500) + 1;
    s->vol_step = Q16 / dsp_frames_in(r, 20) + 1;
    s->bed_period = dsp_frames_in(r, 350);
    s->vol = s->vol_to = Q16;
    s->mvol = s->mvol_to = Q16;
    s->swell = s->swell_to = Q16 * 3 / 4;
    for (int c = 0; c < 2; c++)
        s->bed_noise[c] = (uint32_t)next_u64(s) | 1u; /* xorshift must not start at 0 */
    return RPL_OK;
}

/* A mixer that can be used: created whole (rate set; a failed handle only
 * reports its error and is destroyed). */
static int usable(const rpl_sound_t *snd)
{
    return snd && snd->rate > 0;
}

void rpl_sound_destroy(rpl_sound_t *snd)
{
    if (snd)
        synth_destroy(snd->music);
    free(snd);
}

int rpl_sound_rate(const rpl_sound_t *snd)
{
    return usable(snd) ? snd->rate : 0;
}

int rpl_sound_voices(const rpl_sound_t *snd)
{
    int n = 0;
    for (int i = 0; usable(snd) && i < SLOTS; i++)
        n += snd->v[i].state != V_FREE;
    return n;
}

int rpl_sound_pending(const rpl_sound_t *snd)
{
    return usable(snd) ? snd->npend : 0;
}

uint64_t rpl_sound_frames(const rpl_sound_t *snd)
{
    return usable(snd) ? snd->now : 0;
}

const char *rpl_sound_error(const rpl_sound_t *snd)
{
    return snd ? rpl_err_text(&snd->err) : "no sound (NULL)";
}

/* The voice of a drip, from the stone's size and weight. */
static void make_voice(rpl_sound_t *s, voice_t *v, int x, int radius, int weight, int field_w)
{
    memset(v, 0, sizeof *v);
    const int r = s->rate;
    /* pitch: small stones high; a jitter of +-8% so rain is not one note */
    int64_t hz = 8400 / (radius + 3);
    hz = hz < 200 ? 200 : hz > 3000 ? 3000 : hz;
    uint64_t j = 60293 + rpl_rng_next(&s->rng) % 10487; /* Q16: 0.92..1.08 */
    uint64_t inc = ((uint64_t)hz * j << 16) / (uint64_t)r;
    uint64_t top = (uint64_t)r * 45 / 100; /* the glide stays below 0.45 of the rate */
    uint64_t inc_top = (top << 32) / (uint64_t)r;
    uint64_t end = inc * 7 / 4;
    v->inc_end = (uint32_t)(end > inc_top ? inc_top : end);
    v->inc = (uint32_t)(inc > v->inc_end ? v->inc_end : inc);
    int32_t glide_ms = 6 + radius / 2;
    v->glide = dsp_per_tau(r, (uint32_t)(glide_ms > 24 ? 24 : glide_ms) * 1000u);
    /* level: the square root of the weight */
    uint32_t w = (uint32_t)(weight < 0 ? -(int64_t)weight : weight);
    w = w > WEIGHT_MAX ? WEIGHT_MAX : w;
    int32_t amp = (int32_t)isqrt(w) * 320;
    v->amp = amp > AMP_MAX ? AMP_MAX : amp;
    v->samp = v->amp / 5;
    /* shape: a 1.5 ms attack, then the tone rings 20 ms + 2 ms per cell of
     * radius (at most 140 ms), the splash 3 ms + 0.25 ms per cell (10 ms) */
    v->att = s->att_step;
    int32_t tau = 20 + 2 * radius;
    v->decay = dsp_per_tau(r, (uint32_t)(tau > 140 ? 140 : tau) * 1000u);
    int32_t stau = 3000 + 250 * radius;
    v->sdecay = dsp_per_tau(r, (uint32_t)(stau > 10000 ? 10000 : stau));
    v->noise = rpl_rng_next(&s->rng) | 1u;
    /* pan: at most 30% to a side */
    int64_t xc = x < 0 ? 0 : x >= field_w ? field_w - 1 : x;
    int64_t p = field_w > 1 ? (2 * xc - (field_w - 1)) * 32768 / (field_w - 1) : 0; /* -1..1 */
    int32_t pan = (int32_t)(p * 3 / 10);
    v->gl = 32768 - pan;
    v->gr = 32768 + pan;
}

/* The level a voice is heard at now, to pick the one to steal. */
static int32_t level(const voice_t *v)
{
    return (int32_t)(((int64_t)v->amp * v->env + (int64_t)v->samp * v->senv) >> 30);
}

static void start_voice(rpl_sound_t *s, const voice_t *nv)
{
    int playing = 0, victim = -1, slot = -1;
    for (int i = 0; i < SLOTS; i++) {
        voice_t *v = &s->v[i];
        if (v->state == V_FREE) {
            if (slot < 0)
                slot = i;
            continue;
        }
        if (v->state != V_PLAY)
            continue;
        playing++;
        if (victim < 0 || level(v) < level(&s->v[victim]) ||
            (level(v) == level(&s->v[victim]) && v->serial < s->v[victim].serial))
            victim = i;
    }
    if (playing >= RPL_SOUND_VOICES) {
        /* the quietest fades out fast, from wherever its envelope is */
        voice_t *v = &s->v[victim];
        v->state = V_FADE;
        v->att = 0;
        v->decay = v->sdecay = s->fade;
    }
    if (slot < 0)
        return; /* every slot busy, half of them fading: this drip is lost in the crowd */
    s->v[slot] = *nv;
    s->v[slot].state = V_PLAY;
    s->v[slot].serial = s->serial++;
}

rpl_status rpl_sound_drip(rpl_sound_t *snd, int x, int y, int radius, int weight, int field_w)
{
    (void)y;
    if (!usable(snd))
        return RPL_EINVAL;
    if (radius < 1 || radius > RPL_RADIUS_MAX)
        return rpl_err_set(&snd->err, RPL_EINVAL, "drip radius %d out of range 1..%d", radius,
                          RPL_RADIUS_MAX);
    if (field_w < 1)
        return rpl_err_set(&snd->err, RPL_EINVAL, "field width %d: want at least 1", field_w);
    if (weight == 0)
        return RPL_OK;
    pending_t p;
    make_voice(snd, &p.v, x, radius, weight, field_w);
    /* the first drip of a moment starts at once, the others of the same
     * moment are spread over 1/60 s: a trail patters */
    if (snd->burst_at == snd->now) {
        snd->burst++;
        p.start = snd->now + rpl_rng_next(&snd->rng) % (uint32_t)dsp_frames_in(snd->rate, 16);
    } else {
        snd->burst_at = snd->now;
        snd->burst = 0;
        p.start = snd->now;
    }
    if (snd->npend == PENDING_MAX) {
        /* full: the new drip replaces the quietest waiting, if louder */
        int q = 0;
        for (int i = 1; i < PENDING_MAX; i++)
            if (snd->pend[i].v.amp < snd->pend[q].v.amp)
                q = i;
        if (snd->pend[q].v.amp >= p.v.amp)
            return RPL_OK;
        snd->pend[q] = p;
    } else {
        snd->pend[snd->npend++] = p;
    }
    if (p.start < snd->next_start)
        snd->next_start = p.start;
    return RPL_OK;
}

/* Starts the drips due at frame t, in the order they were queued. */
static void start_due(rpl_sound_t *s, uint64_t t)
{
    uint64_t next = UINT64_MAX;
    int k = 0;
    for (int i = 0; i < s->npend; i++) {
        if (s->pend[i].start <= t) {
            start_voice(s, &s->pend[i].v);
            continue;
        }
        if (s->pend[i].start < next)
            next = s->pend[i].start;
        s->pend[k++] = s->pend[i];
    }
    s->npend = k;
    s->next_start = next;
}

/* One-pole decay of a Q30 envelope, at least one step so it reaches 0. */
static int32_t decay(int32_t e, uint32_t c)
{
    int32_t d = (int32_t)(((int64_t)e * c) >> 16);
    e -= d > 0 ? d : 1;
    return e > 0 ? e : 0;
}

/* Adds one frame of voice v to *l, *r; frees it when it has died away. */
static void voice_frame(rpl_sound_t *s, voice_t *v, int32_t *l, int32_t *r)
{
    if (v->att) {
        v->env += v->att;
        v->senv += v->att;
        if (v->env >= ENV_ONE) {
            v->env = v->senv = ENV_ONE;
            v->att = 0;
        }
    } else {
        v->env = decay(v->env, v->decay);
        v->senv = decay(v->senv, v->sdecay);
    }
    int32_t tone = (int32_t)(((int64_t)v->amp * v->env) >> 30);
    int32_t spl = (int32_t)(((int64_t)v->samp * v->senv) >> 30);
    if (!v->att && tone == 0 && spl == 0) {
        v->state = V_FREE;
        return;
    }
    int32_t x = (dsp_sine(v->phase) * tone) >> 15;
    v->phase += v->inc;
    if (v->inc < v->inc_end) {
        uint32_t d = (uint32_t)(((uint64_t)(v->inc_end - v->inc) * v->glide) >> 16);
        v->inc += d ? d : 1;
    }
    v->lp += (int32_t)(((int64_t)(dsp_white(&v->noise) - v->lp) * s->splash_lp) >> 16);
    x += (v->lp * spl) >> 15;
    *l += (x * v->gl) >> 15;
    *r += (x * v->gr) >> 15;
}

/* One frame of the bed into *l, *r. */
static void bed_frame(rpl_sound_t *s, int32_t *l, int32_t *r)
{
    if (s->bed != s->bed_to) {
        int32_t d = s->bed_to - s->bed;
        s->bed += d > s->bed_step ? s->bed_step : d < -s->bed_step ? -s->bed_step : d;
    }
    if (s->bed == 0)
        return; /* silent and staying so: nothing to compute */
    if (--s->swell_left <= 0) {
        s->swell_left = s->bed_period;
        s->swell_to = Q16 * 2 / 5 + (int32_t)(rpl_rng_next(&s->rng) % (Q16 * 3 / 5 + 1));
    }
    s->swell += (int32_t)(((int64_t)(s->swell_to - s->swell) * s->bed_mod) >> 16);
    int32_t g = (int32_t)(((int64_t)s->bed * s->swell) >> 16); /* Q16 */
    int32_t out[2];
    for (int c = 0; c < 2; c++) {
        int32_t w = dsp_white(&s->bed_noise[c]);
        s->bed_a[c] += (int32_t)(((int64_t)(w - s->bed_a[c]) * s->bed_lp) >> 16);
        s->bed_b[c] += (int32_t)(((int64_t)(s->bed_a[c] - s->bed_b[c]) * s->bed_lp) >> 16);
        /* about -45 dBFS at full swell */
        out[c] = (int32_t)(((int64_t)s->bed_b[c] * g) >> 19);
    }
    *l += out[0];
    *r += out[1];
}

/* Soft saturation above KNEE: continuous, slope 1 at the knee, and
 * never reaching FULL (the rational curve's asymptote). */
static int32_t saturate(int32_t x)
{
    int32_t a = x < 0 ? -x : x;
    if (a > KNEE) {
        int64_t over = a - KNEE, room = FULL - KNEE;
        a = KNEE + (int32_t)(over * room / (over + room));
    }
    return x < 0 ? -a : a;
}

rpl_status rpl_sound_mix(rpl_sound_t *snd, int16_t *out, int frames)
{
    if (!usable(snd))
        return RPL_EINVAL;
    if (frames < 0 || (!out && frames > 0))
        return rpl_err_set(&snd->err, RPL_EINVAL, "mix of %d frames into %s", frames,
                          out ? "a buffer" : "NULL");
    for (int f = 0; f < frames; f++) {
        uint64_t t = snd->now++;
        if (t >= snd->next_start)
            start_due(snd, t);
        int32_t l = 0, r = 0;
        for (int i = 0; i < SLOTS; i++)
            if (snd->v[i].state != V_FREE)
                voice_frame(snd, &snd->v[i], &l, &r);
        bed_frame(snd, &l, &r);
        if (snd->music) {
            /* the music keeps time while silenced, so it comes back in step */
            int32_t ml = 0, mr = 0;
            synth_frame(snd->music, &ml, &mr);
            if (snd->mvol != snd->mvol_to) {
                int32_t dv = snd->mvol_to - snd->mvol;
                snd->mvol += dv > snd->vol_step ? snd->vol_step : dv < -snd->vol_step ? -snd->vol_step : dv;
            }
            l += (int32_t)(((int64_t)ml * snd->mvol) >> 16);
            r += (int32_t)(((int64_t)mr * snd->mvol) >> 16);
        }
        /* the limiter: a level that rises in 0.3 ms and falls in 150 ms,
         * and a gain that holds it to LIMIT_AT */
        int32_t p = l < 0 ? -l : l, pr = r < 0 ? -r : r;
        p = p > pr ? p : pr;
        int32_t d = (int32_t)(((int64_t)(p - snd->lim) * (p > snd->lim ? snd->lim_att : snd->lim_rel)) >> 16);
        snd->lim += d;
        int64_t g = snd->lim > LIMIT_AT ? ((int64_t)LIMIT_AT << 16) / snd->lim : Q16;
        if (snd->vol != snd->vol_to) {
            int32_t dv = snd->vol_to - snd->vol;
            snd->vol += dv > snd->vol_step ? snd->vol_step : dv < -snd->vol_step ? -snd->vol_step : dv;
        }
        int32_t lo = saturate((int32_t)(l * g >> 16)), ro = saturate((int32_t)(r * g >> 16));
        out[2 * f] = (int16_t)(((int64_t)lo * snd->vol) >> 16);
        out[2 * f + 1] = (int16_t)(((int64_t)ro * snd->vol) >> 16);
    }
    return RPL_OK;
}

void rpl_sound_set_ambient(rpl_sound_t *snd, int on)
{
    if (usable(snd))
        snd->bed_to = on ? Q16 : 0;
}

rpl_status rpl_sound_set_volume(rpl_sound_t *snd, int volume)
{
    if (!usable(snd))
        return RPL_EINVAL;
    if (volume < 0 || volume > RPL_SOUND_VOLUME_ONE)
        return rpl_err_set(&snd->err, RPL_EINVAL, "volume %d out of range 0..%d", volume,
                          RPL_SOUND_VOLUME_ONE);
    snd->vol_to = (int32_t)((int64_t)volume * Q16 / RPL_SOUND_VOLUME_ONE);
    return RPL_OK;
}

rpl_status rpl_sound_set_music(rpl_sound_t *snd, const rpl_music_t *music)
{
    if (!usable(snd))
        return RPL_EINVAL;
    if (music && !music->ok)
        return rpl_err_set(&snd->err, RPL_EINVAL, "music: a score that failed to read");
    synth_t *sy = NULL;
    if (music && !(sy = synth_create(music, snd->rate)))
        return rpl_err_set(&snd->err, RPL_ENOMEM, "music: out of memory");
    synth_destroy(snd->music);
    snd->music = sy;
    snd->mvol = snd->mvol_to; /* a new piece starts at its volume, without a glide */
    return RPL_OK;
}

rpl_status rpl_sound_set_music_volume(rpl_sound_t *snd, int volume)
{
    if (!usable(snd))
        return RPL_EINVAL;
    if (volume < 0 || volume > RPL_SOUND_VOLUME_ONE)
        return rpl_err_set(&snd->err, RPL_EINVAL, "music volume %d out of range 0..%d", volume,
                          RPL_SOUND_VOLUME_ONE);
    snd->mvol_to = (int32_t)((int64_t)volume * Q16 / RPL_SOUND_VOLUME_ONE);
    return RPL_OK;
}

uint64_t rpl_sound_music_position(const rpl_sound_t *snd)
{
    return usable(snd) ? synth_position(snd->music) : 0;
}

static void put32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
    p[2] = (unsigned char)(v >> 16);
    p[3] = (unsigned char)(v >> 24);
}

static void put16(unsigned char *p, unsigned v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
}

rpl_status rpl_sound_wav_header(unsigned char *hdr, int rate, uint64_t frames)
{
    if (!hdr || rate < RPL_SOUND_RATE_MIN || rate > RPL_SOUND_RATE_MAX)
        return RPL_EINVAL;
    uint64_t data = frames <= (0xFFFFFFFFu - 36u) / 4 ? frames * 4 : UINT64_MAX;
    uint32_t riff = data == UINT64_MAX ? 0xFFFFFFFFu : (uint32_t)(data + 36);
    uint32_t dsz = data == UINT64_MAX ? 0xFFFFFFFFu : (uint32_t)data;
    memcpy(hdr, "RIFF", 4);
    put32(hdr + 4, riff);
    memcpy(hdr + 8, "WAVEfmt ", 8);
    put32(hdr + 16, 16);                 /* fmt chunk size */
    put16(hdr + 20, 1);                  /* PCM */
    put16(hdr + 22, 2);                  /* channels */
    put32(hdr + 24, (uint32_t)rate);
    put32(hdr + 28, (uint32_t)rate * 4); /* bytes per second */
    put16(hdr + 32, 4);                  /* bytes per frame */
    put16(hdr + 34, 16);                 /* bits per sample */
    memcpy(hdr + 36, "data", 4);
    put32(hdr + 40, dsz);
    return RPL_OK;
}
