/* schedule.c - the seeded drop schedule both the seed baseline and the product paths are fed. */
#include "schedule.h"

uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void sched_init(sched_t *s, int w, int h, uint64_t seed, int calm)
{
    int m = w < h ? w : h;
    s->rng = mix64(seed + 0x9E3779B97F4A7C15ull);
    if (s->rng == 0)
        s->rng = 1; /* xorshift never leaves 0 */
    s->step = 0;
    s->w = w;
    s->h = h;
    s->calm = calm;
    s->per_kilostep = (int)(150.0 * ((double)w * h) / (640.0 * 480.0));
    if (s->per_kilostep < 150)
        s->per_kilostep = 150;
    s->unit = m / 240 > 1 ? m / 240 : 1;
    s->big = 3 * (m / 160 > 1 ? m / 160 : 1);
}

int sched_calm_radius(const sched_t *s)
{
    return 4 * s->unit;
}

static uint32_t sched_rand(sched_t *s)
{
    /* xorshift64* */
    s->rng ^= s->rng >> 12;
    s->rng ^= s->rng << 25;
    s->rng ^= s->rng >> 27;
    return (uint32_t)((s->rng * 0x2545F4914F6CDD1Dull) >> 32);
}

static int sched_range(sched_t *s, int lo, int hi)
{
    return hi <= lo ? lo : lo + (int)(sched_rand(s) % (uint32_t)(hi - lo + 1));
}

int sched_next(sched_t *s, drop_t *out)
{
    int k = 0;
    if (s->calm) {
        if (s->step % CALM_PERIOD == 0) {
            out[0].x = sched_range(s, 1, s->w - 2);
            out[0].y = sched_range(s, 1, s->h - 2);
            out[0].r = sched_calm_radius(s);
            out[0].weight = CALM_WEIGHT;
            k = 1;
        }
        s->step++;
        return k;
    }
    int n = s->per_kilostep / 1000;
    if ((int)(sched_rand(s) % 1000u) < s->per_kilostep % 1000)
        n++;
    if (n > MAX_DROPS - 1)
        n = MAX_DROPS - 1; /* room for the heavy stone */
    for (int i = 0; i < n; i++, k++) {
        out[k].x = sched_range(s, 1, s->w - 2);
        out[k].y = sched_range(s, 1, s->h - 2);
        out[k].r = sched_range(s, s->unit, 2 * s->unit);
        out[k].weight = sched_range(s, 150, 450);
    }
    if (s->step % 10 == 0) {
        out[k].x = sched_range(s, 1, s->w - 2);
        out[k].y = sched_range(s, 1, s->h - 2);
        out[k].r = s->big;
        out[k].weight = 900;
        k++;
    }
    s->step++;
    return k;
}
