/* report.c - the text report: header, one row per measurement, the calm scene's table and the summary. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

/* "x.xx" or "-" into buf. */
static const char *fmt_ratio(char *buf, size_t len, double v)
{
    if (v < 0)
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%.2f", v);
    return buf;
}

/* The goal's words at the size it was set for, "" at any other. */
static const char *goal_at(int w, int h, int goal_w, int goal_h, const char *goal)
{
    return w == goal_w && h == goal_h ? goal : "";
}

static const char *fmt_pct(char *buf, size_t len, double v)
{
    if (v < 0)
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%.1f%%", 100.0 * v);
    return buf;
}

void print_header(const run_t *r, const char *cpu, const char *autop)
{
    const char *env = getenv("RIPPLE_SIMD");
    int fw, fh, bw, bh;
    summary_sizes(r, &fw, &fh, &bw, &bh); /* where the 16- and 8-bit rows are measured */
    printf("ripple-bench %s: the core's kernel paths, threads and formats against the seed's "
           "literal code\n", RPL_VERSION);
    printf("cpu: %s | %d processors online | auto path: %s%s%s%s\n", cpu, rpl_cpu_count(), autop,
           env && *env ? " (RIPPLE_SIMD=" : "", env && *env ? env : "", env && *env ? ")" : "");
    printf("paths:");
    for (int p = 0; p < r->npaths; p++)
        printf(" %s", r->paths[p].name);
    for (int i = 0; i < r->nskipped; i++)
        printf("%s%s (%s)", i ? ", " : " | skipped: ", r->skipped[i], r->skip_why[i]);
    printf(" | threads:");
    for (int t = 0; t < r->ntcounts; t++)
        printf(" %d", r->tcounts[t]);
    printf(" | seed %" PRIu64 "\n", r->o.seed);
    if (r->load_start >= 0)
        printf("load average at start: %.2f on %d processors%s\n", r->load_start, rpl_cpu_count(),
               r->load_start > 0.5 ? " (other work is running: figures are noisy, above all "
                                     "with threads)"
                                   : "");
    if (r->o.frames > 0)
        printf("each busy figure: best of %d runs of %ld frames", REPEATS, r->o.frames);
    else
        printf("each busy figure: best of %d runs of >= %.1f s", REPEATS, MIN_RUN_NS / 1e9);
    printf(", every run from the same water\n\n");
    printf("busy scene: steady rain (0.15 stones a step per 640x480, radius 1-2 units, a heavy\n"
           "  stone every 10 steps), %d warm-up steps: nearly every tile is awake (column awake)\n",
           WARMUP_STEPS);
    printf("  sim      stones + one wave step (the classic rule)\n"
           "  wave     the same under the wave model (the demo's: k 0.16, u*dt 0.02, alpha\n"
           "           0.985), from the same water; every path and thread count, sleeping on\n"
           "  refract  one full render, strength 1:1, no light\n"
           "  frame    stones + step + full render: the full frame\n"
           "  sleep    on: sleeping tiles as the product ships (rpl_sim_set_sleeping(sim, 1),\n"
           "           the step skips tiles at rest); off: every tile computed; the seed has none\n"
           "  bpp      framebuffer bits per pixel: 32 XRGB8888 (rpl_refract of the picture),\n"
           "           16 RGB565 and 8 INDEX8 (rpl_render of a backdrop made once); 16 and 8\n"
           "           at %dx%d only, on %d thread%s, sleeping on; their refract rows only for\n"
           "           paths with their own kernel of the format (others share an earlier one's)\n"
           "calm scene: one stone (the demo's mouse stone) every %d frames, %d warm-up frames,\n"
           "  then %ld timed frames, best of %d; stones + step + render each frame\n"
           "  calm-sleep  sleeping on, a renderer keeps the frame and redraws what changed\n"
           "  calm-full   sleeping off, so the same renderer redraws every tile: the same\n"
           "              scene, path and threads\n",
           fw, fh, r->tcounts[0], r->tcounts[0] > 1 ? "s" : "", CALM_PERIOD, CALM_WARMUP,
           r->o.frames > 0 ? r->o.frames : (long)CALM_FRAMES, CALM_REPEATS);
    printf("ns/px: nanoseconds per pixel per frame, lower is better; fps = 1e9 / (ns/px * W * H)\n"
           "vs seed: seed ns/px / row ns/px, same stage and size (the seed runs on one thread)\n"
           "vs 1t: the same path, stage, size and sleep on one thread / this row\n"
           "awake: tiles stepped / tiles, average per frame (redrawn: tiles rendered / tiles)\n"
           "ns/px and fps are wall time (the best run's); cpu ms: the process's CPU time a frame,\n"
           "  every thread, the least of the runs: on a busy machine it holds where they swing\n\n");
    printf("%-7s  %-9s  %-6s  %3s  %7s  %5s  %8s  %10s  %7s  %5s  %6s  %8s\n", "stage", "size",
           "path", "bpp", "threads", "sleep", "ns/px", "fps", "vs seed", "vs 1t", "awake",
           "cpu ms");
    printf("%-7s  %-9s  %-6s  %3s  %7s  %5s  %8s  %10s  %7s  %5s  %6s  %8s\n", "-------",
           "---------", "------", "---", "-------", "-----", "--------", "----------", "-------",
           "-----", "------", "--------");
    fflush(stdout); /* the rows take a while: the header shows at once */
}

void print_rows(const run_t *r, int from)
{
    for (int i = from; i < r->nrows; i++) {
        const row_t *w = &r->rows[i];
        char size[24], bpp[8], a[16], b[16], c[16];
        snprintf(size, sizeof size, "%dx%d", w->w, w->h);
        if (w->bpp)
            snprintf(bpp, sizeof bpp, "%d", w->bpp);
        else
            snprintf(bpp, sizeof bpp, "-");
        printf("%-7s  %-9s  %-6s  %3s  %7d  %5s  %8.3f  %10.1f  %7s  %5s  %6s  %8.4f\n",
               stage_names[w->stage], size, w->path, bpp, w->threads,
               w->sleep < 0 ? "-" : w->sleep ? "on" : "off", w->ns_px, w->fps,
               fmt_ratio(a, sizeof a, w->vs_seed), fmt_ratio(b, sizeof b, w->vs_1t),
               w->stage == ST_REFRACT ? "-" : fmt_pct(c, sizeof c, w->awake), w->cpu_ms);
    }
    fflush(stdout);
}

void print_calm(const run_t *r)
{
    const calm_sum_t *c = &r->calm;
    printf("\ncalm scene %dx%d on %s: one stone (radius %d, weight %d) every %d frames\n", c->w,
           c->h, c->path, c->radius, CALM_WEIGHT, CALM_PERIOD);
    printf("%-10s  %-9s  %-6s  %7s  %9s  %8s  %7s  %7s  %10s  %8s\n", "stage", "size", "path",
           "threads", "ms/frame", "ns/px", "awake", "redrawn", "full/sleep", "cpu ms");
    printf("%-10s  %-9s  %-6s  %7s  %9s  %8s  %7s  %7s  %10s  %8s\n", "----------", "---------",
           "------", "-------", "---------", "--------", "-------", "-------", "----------",
           "--------");
    for (int i = 0; i < r->nrows; i++) {
        const row_t *w = &r->rows[i];
        if (!is_calm(w->stage))
            continue;
        char size[24], a[16], b[16], q[16];
        int t = 0;
        while (t < r->ntcounts && r->tcounts[t] != w->threads)
            t++;
        snprintf(size, sizeof size, "%dx%d", w->w, w->h);
        printf("%-10s  %-9s  %-6s  %7d  %9.3f  %8.3f  %7s  %7s  %10s  %8.4f\n",
               stage_names[w->stage], size, w->path, w->threads, w->ns_px * w->w * w->h / 1e6,
               w->ns_px, fmt_pct(a, sizeof a, w->awake), fmt_pct(b, sizeof b, w->redrawn),
               w->stage == ST_CALM_SLEEP && t < r->ntcounts
                   ? fmt_ratio(q, sizeof q, c->ratio[t])
                   : "1.00",
               w->cpu_ms);
    }
}

/* The row of a simulation stage (sleeping on), or NULL. */
static const row_t *sim_row(const run_t *r, int stage, int w, int h, const char *path,
                            int threads)
{
    for (int i = 0; i < r->nrows; i++) {
        const row_t *x = &r->rows[i];
        if (x->stage == stage && x->w == w && x->h == h && strcmp(x->path, path) == 0 &&
            x->threads == threads && x->sleep == 1)
            return x;
    }
    return NULL;
}

void print_summary(const run_t *r, double total_s)
{
    int sw, sh, bw, bh;
    char a[16], b[16];
    summary_sizes(r, &sw, &sh, &bw, &bh);
    int t1 = r->tcounts[0], tn = r->tcounts[r->ntcounts - 1];
    printf("\nsummary (sleeping on as the product ships; sleeping off in brackets)\n");
    printf("  full frame %dx%d, %d thread%s, vs seed%s:\n   ", sw, sh, t1, t1 > 1 ? "s" : "",
           goal_at(sw, sh, GOAL_SEED_W, GOAL_SEED_H, " (goal >= 6x, aim 10x on the best path)"));
    for (int p = 0; p < r->npaths; p++) {
        const char *n = r->paths[p].name;
        printf("%s %s %sx (%sx)", p ? "," : "", n,
               fmt_ratio(a, sizeof a, ratio_rows(r, ST_FRAME, sw, sh, "seed", 1, -1, n, t1, 1)),
               fmt_ratio(b, sizeof b, ratio_rows(r, ST_FRAME, sw, sh, "seed", 1, -1, n, t1, 0)));
    }
    printf("\n");
    printf("  full frame %dx%d, %d thread%s, ms per frame at 32 / 16 / 8 bpp:\n   ", sw, sh, t1,
           t1 > 1 ? "s" : "");
    for (int p = 0; p < r->npaths; p++) {
        printf("%s %s", p ? "," : "", r->paths[p].name);
        for (int f = 0; f < MAX_BPPS; f++) {
            double ms = frame_ms(r, sw, sh, r->paths[p].name, t1, bpps[f]);
            if (ms < 0)
                printf("%s-", f ? " / " : " ");
            else
                printf("%s%.3f", f ? " / " : " ", ms);
        }
    }
    printf("\n");
    printf("  the wave model's step vs the classic rule's on %d thread%s, sleeping on: ns/px,\n"
           "  and ns per cell stepped (ns/px / awake: the wave water wakes fewer tiles):\n",
           t1, t1 > 1 ? "s" : "");
    for (int i = 0; i < r->nsizes; i++) {
        int w = r->sizes[i][0], h = r->sizes[i][1];
        printf("   %dx%d:", w, h);
        for (int p = 0; p < r->npaths; p++) {
            const row_t *c = sim_row(r, ST_SIM, w, h, r->paths[p].name, t1);
            const row_t *v = sim_row(r, ST_WAVE, w, h, r->paths[p].name, t1);
            if (c && v && c->awake > 0 && v->awake > 0)
                printf("%s %s %.3f vs %.3f, %.3f vs %.3f (%.2fx)", p ? ";" : "", c->path,
                       v->ns_px, c->ns_px, v->ns_px / v->awake, c->ns_px / c->awake,
                       (v->ns_px / v->awake) / (c->ns_px / c->awake));
        }
        printf("\n");
    }
    if (r->ntcounts > 1 && t1 == 1) {
        printf("  full frame %dx%d, %d threads vs 1%s:\n   ", bw, bh, tn,
               goal_at(bw, bh, GOAL_BIG_W, GOAL_BIG_H, " (goal >= 1.7x)"));
        for (int p = 0; p < r->npaths; p++) {
            const char *n = r->paths[p].name;
            printf("%s %s %sx (%sx)", p ? "," : "", n,
                   fmt_ratio(a, sizeof a, ratio_rows(r, ST_FRAME, bw, bh, n, 1, 1, n, tn, 1)),
                   fmt_ratio(b, sizeof b, ratio_rows(r, ST_FRAME, bw, bh, n, 1, 0, n, tn, 0)));
        }
        printf("\n");
    } else {
        printf("  threads: only %d measured, no N-thread vs 1-thread figure\n", t1);
    }
    if (r->calm.done) {
        const calm_sum_t *c = &r->calm;
        printf("  calm %dx%d on %s, sleeping on vs off%s:", c->w, c->h, c->path,
               goal_at(c->w, c->h, GOAL_BIG_W, GOAL_BIG_H, " (goal >= 20x)"));
        for (int t = 0; t < r->ntcounts; t++)
            printf("%s %dt %sx", t ? "," : "", r->tcounts[t], fmt_ratio(a, sizeof a, c->ratio[t]));
        printf("; awake tiles %.1f%%, redrawn %.1f%% of %ld frames\n", 100 * c->awake,
               100 * c->redrawn, c->frames);
    }
    if (r->mem.done) {
        const mem_sum_t *m = &r->mem;
        printf("  memory: memcpy of %d MB %.2f GB/s (read + write bytes, best of %d, one thread)\n",
               MEMCPY_MB, m->memcpy_gbps, MEMCPY_REPEATS);
        printf("    full frame %dx%d on %s moves %d B/px = %.1f MB/frame (step %d: reads cur and "
               "prev, writes prev;\n    refraction %d: reads height 2, background texel 4, "
               "writes pixel 4):\n   ",
               m->w, m->h, m->path, FRAME_BYTES_PX, (double)FRAME_BYTES_PX * m->w * m->h / 1e6,
               STEP_BYTES_PX, REFRACT_BYTES_PX);
        for (int t = 0; t < r->ntcounts; t++) {
            if (m->ns_frame[t] <= 0)
                continue;
            double gbps = (double)FRAME_BYTES_PX * m->w * m->h / m->ns_frame[t];
            printf("%s %dt %.3f ms = %.2f GB/s = %.0f%% of memcpy", t ? "," : "", r->tcounts[t],
                   m->ns_frame[t] / 1e6, gbps,
                   m->memcpy_gbps > 0 ? 100 * gbps / m->memcpy_gbps : 0.0);
        }
        printf("\n");
    }
    printf("\nvariants agree (every path, thread count and sleeping mode, same bytes): %s | "
           "checksum %016" PRIx64 " | total %.1f s",
           r->agree ? "yes" : "NO", r->checksum, total_s);
    if (r->load_end >= 0)
        printf(" | load average at end %.2f", r->load_end);
    printf("\n");
    if (!r->agree)
        printf("  first difference: %s\n", r->disagree);
}
