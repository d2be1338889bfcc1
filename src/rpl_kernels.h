/* rpl_kernels.h - the kernel table: one entry per instruction set, prototypes of every kernel. */
#ifndef RPL_KERNELS_H
#define RPL_KERNELS_H

#include "ripple.h"

/* Everything a refraction kernel needs for one frame; rows are given
 * separately so a frame can be cut into bands. */
typedef struct rpl_refract_job {
    const int16_t *h;   /* current heights, w*h */
    const uint32_t *bg; /* background, w*h XRGB8888 */
    void *fb;           /* framebuffer */
    ptrdiff_t pitch;    /* framebuffer row pitch in bytes */
    int w, hgt;
    int strength;       /* 0..RPL_STRENGTH_MAX */
    int shading;        /* 0 or 1 */
} rpl_refract_job_t;

/* Computes rows [y0, y1) of the next step into `prev` in place:
 *   prev[i] = clamp(n - (n >> 5)),  n = ((l + r + u + d) >> 1) - prev[i]
 * over columns 1..w-2.  Callers keep 1 <= y0 <= y1 <= h-1. */
typedef void (*rpl_step_fn)(int16_t *prev, const int16_t *cur, int w,
                            int y0, int y1);

/* Renders rows [y0, y1) of a frame (any rows, borders included). */
typedef void (*rpl_refract_fn)(const rpl_refract_job_t *job, int y0, int y1);

struct rpl_kernels {
    const char *name;
    rpl_step_fn step;
    rpl_refract_fn refract_xrgb8888;
};

void rpl_step_c(int16_t *prev, const int16_t *cur, int w, int y0, int y1);
void rpl_refract_xrgb8888_c(const rpl_refract_job_t *job, int y0, int y1);

#endif
