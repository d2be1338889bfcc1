/* rows.c - the measured rows read back: a row's ns/px, ratios of rows, a frame's milliseconds, the summary's sizes; the stages' names and the formats. */
#include <string.h>

#include "bench.h"

const char *const stage_names[ST_COUNT] = { "sim", "refract", "frame", "calm-sleep",
                                            "calm-full", "wave" };

const int bpps[MAX_BPPS] = { 32, 16, 8 };

/* ns/px of the row that matches, or -1. */
double find_ns_bpp(const run_t *r, int stage, int w, int h, const char *path, int threads,
                   int sleep, int bpp)
{
    for (int i = 0; i < r->nrows; i++) {
        const row_t *x = &r->rows[i];
        if (x->stage == stage && x->w == w && x->h == h && strcmp(x->path, path) == 0 &&
            x->threads == threads && x->sleep == sleep && x->bpp == bpp)
            return x->ns_px;
    }
    return -1;
}

double find_ns(const run_t *r, int stage, int w, int h, const char *path, int threads,
               int sleep)
{
    return find_ns_bpp(r, stage, w, h, path, threads, sleep, is_sim_only(stage) ? 0 : 32);
}

/* ns/px of row a over ns/px of row b (a "b is x times faster" figure), or -1. */
double ratio_rows(const run_t *r, int stage, int w, int h, const char *pa, int ta, int sa,
                  const char *pb, int tb, int sb)
{
    double a = find_ns(r, stage, w, h, pa, ta, sa), b = find_ns(r, stage, w, h, pb, tb, sb);
    return a > 0 && b > 0 ? a / b : -1;
}

/* Milliseconds of a full frame (sleeping on) at bpp, or -1. */
double frame_ms(const run_t *r, int w, int h, const char *path, int threads, int bpp)
{
    double ns = find_ns_bpp(r, ST_FRAME, w, h, path, threads, 1, bpp);
    return ns > 0 ? ns * w * h / 1e6 : -1;
}

/* The size the "vs seed" summary and the 16- and 8-bit rows use: 640x480
 * if measured, else the first; and the largest size (bw x bh). */
void summary_sizes(const run_t *r, int *sw, int *sh, int *bw, int *bh)
{
    *sw = r->sizes[0][0], *sh = r->sizes[0][1];
    *bw = r->sizes[0][0], *bh = r->sizes[0][1];
    for (int i = 0; i < r->nsizes; i++) {
        if (r->sizes[i][0] == 640 && r->sizes[i][1] == 480)
            *sw = 640, *sh = 480;
        if ((double)r->sizes[i][0] * r->sizes[i][1] > (double)*bw * *bh)
            *bw = r->sizes[i][0], *bh = r->sizes[i][1];
    }
}
