/* schedule.h - the bench's drop schedule: the same seeded stream of stones for the seed and every path. */
#ifndef BENCH_SCHEDULE_H
#define BENCH_SCHEDULE_H

#include <stdint.h>

#define MAX_DROPS 64           /* stones per step, at most */

/* The calm scene: one stone every CALM_PERIOD frames (one a second at
 * 60 Hz), as heavy as the demo's mouse stone. */
#define CALM_PERIOD 60
#define CALM_WEIGHT 300

typedef struct drop {
    int x, y, r, weight;
} drop_t;

/* The drop schedule: a deterministic stream of stones, one batch per step,
 * fed identically to the seed baseline and to every product path.  Busy:
 * steady rain like the demo's (radius unit..2 unit, weight 150..450,
 * density kept per area) plus a heavy stone every 10 steps like the
 * autopilot's.  Calm: one mouse-sized stone every CALM_PERIOD steps. */
typedef struct sched {
    uint64_t rng;
    uint32_t step;
    int w, h;
    int calm;
    int per_kilostep;  /* rain stones per 1000 steps */
    int unit, big;     /* rain radius unit, heavy stone radius */
} sched_t;

/* splitmix64's finaliser: spreads a seed or folds a hash into the checksum. */
uint64_t mix64(uint64_t z);

void sched_init(sched_t *s, int w, int h, uint64_t seed, int calm);

/* The stones of the next step into out (room for MAX_DROPS); returns how
 * many. */
int sched_next(sched_t *s, drop_t *out);

/* The calm scene's stone radius: the demo's mouse stone (4 units). */
int sched_calm_radius(const sched_t *s);

#endif
