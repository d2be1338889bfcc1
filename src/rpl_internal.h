/* rpl_internal.h - helpers shared by the core's files, not part of the API. */
#ifndef RPL_INTERNAL_H
#define RPL_INTERNAL_H

#include "ripple.h"

/* Stores a detail message in sim->err and returns st. */
rpl_status rpl_fail(rpl_sim_t *sim, rpl_status st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

uint64_t rpl_seed_mix(uint64_t seed);
uint32_t rpl_rng_next(uint64_t *state);
/* Uniform-ish integer in [lo, hi]. */
int rpl_rng_range(uint64_t *state, int lo, int hi);

/* Activity bits of a tile: a nonzero cell in the current / previous buffer. */
#define RPL_ACT_CUR 1
#define RPL_ACT_PREV 2

/* Rebuilds the tiles' activity bits after the buffers changed wholesale. */
void rpl_sim_rescan(rpl_sim_t *sim);

/* Checks a w*h buffer against the height contract. */
rpl_status rpl_check_buffer(rpl_sim_t *sim, const int16_t *b, int w, int h,
                            const char *what);

#endif
