/* runner.c - what is measured and in which order: paths, thread counts, interleaved runs, verification, the calm scene. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "ripple_support.h"

static const int default_sizes[MAX_SIZES][2] = {
    { 320, 200 }, { 640, 480 }, { 1280, 720 }, { 1920, 1080 },
};

/* CPU ms a frame of a run. */
static double cpu_ms(const result_t *res)
{
    return (double)res->cpu_ns / 1e6 / (double)res->frames;
}

static void note_disagree(run_t *r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void note_disagree(run_t *r, const char *fmt, ...)
{
    if (!r->agree)
        return; /* the first one is the interesting one */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->disagree, sizeof r->disagree, fmt, ap);
    va_end(ap);
    r->agree = 0;
    fprintf(stderr, "ripple-bench: warning: %s\n", r->disagree);
}

static const char *entry_name(const entry_t *e)
{
    return e->path ? e->path->name : "seed";
}

/* Appends the row of an entry's best run (and the least CPU time a frame
 * of its runs); vs_seed and vs_1t wait for ratios(), once every row they
 * compare with is there. */
static void add_row(run_t *r, int stage, int w, int h, const entry_t *e, const result_t *best,
                    double least_cpu_ms)
{
    if (r->nrows >= MAX_ROWS)
        return;
    double px = (double)w * h;
    row_t *x = &r->rows[r->nrows++];
    x->stage = stage;
    x->w = w;
    x->h = h;
    x->threads = e->path ? e->threads : 1;
    x->bpp = is_sim_only(stage) ? 0 : e->bpp;
    x->sleep = e->path ? e->sleep : -1;
    x->path = entry_name(e);
    x->ns_px = (double)best->ns / ((double)best->frames * px);
    x->fps = 1e9 / (x->ns_px * px);
    x->vs_seed = x->vs_1t = -1;
    x->awake = best->awake;
    x->redrawn = best->redrawn;
    x->frames = best->frames;
    x->cpu_ms = least_cpu_ms;
}

/* Times every entry on one stage, runs of each interleaved so that noise
 * hits them alike, and appends one row per entry.  Fixed-length runs of
 * the product must all end with the same bytes. */
static int measure(run_t *r, bed_t *b, int stage, const entry_t *ents, int ne, int repeats,
                   long fixed)
{
    result_t best[MAX_ENTRIES];
    double cpu[MAX_ENTRIES];
    uint64_t ref_hash = 0;
    int have_ref = 0;
    for (int i = 0; i < ne; i++)
        best[i].ns = 0;
    for (int rep = 0; rep < repeats; rep++)
        for (int i = 0; i < ne; i++) {
            result_t res;
            if (run_once(b, stage, &ents[i], fixed, &res) != 0)
                return -1;
            r->checksum ^= mix64(res.hash + (uint64_t)i);
            if (fixed > 0 && ents[i].path) {
                if (!have_ref)
                    ref_hash = res.hash, have_ref = 1;
                else if (res.hash != ref_hash)
                    note_disagree(r, "%s %dx%d %d bpp: %s on %d threads, sleeping %s, differs "
                                  "from %s", stage_names[stage], b->w, b->h, ents[i].bpp,
                                  entry_name(&ents[i]), ents[i].threads,
                                  ents[i].sleep ? "on" : "off", entry_name(&ents[0]));
            }
            /* compare per frame: time-based runs differ in length */
            if (rep == 0 || cpu_ms(&res) < cpu[i])
                cpu[i] = cpu_ms(&res);
            if (best[i].ns == 0 ||
                (double)res.ns / (double)res.frames < (double)best[i].ns / (double)best[i].frames)
                best[i] = res;
        }
    for (int i = 0; i < ne; i++)
        add_row(r, stage, b->w, b->h, &ents[i], &best[i], cpu[i]);
    return 0;
}

/* The busy entries of a stage: the seed, then every path on every thread
 * count with sleeping on, and for the full frame with sleeping off too. */
static int busy_entries(const run_t *r, int stage, entry_t *ents)
{
    int n = 0;
    ents[n++] = (entry_t){ NULL, 1, 0, 32 };
    for (int p = 0; p < r->npaths; p++)
        for (int t = 0; t < r->ntcounts; t++)
            for (int sl = 1; sl >= (stage == ST_FRAME ? 0 : 1); sl--)
                ents[n++] = (entry_t){ &r->paths[p], r->tcounts[t], sl, 32 };
    return n;
}

static rpl_format bpp_format(int bpp)
{
    return bpp == 16 ? RPL_RGB565 : bpp == 8 ? RPL_INDEX8 : RPL_XRGB8888;
}

/* The 16- and 8-bit entries of a stage: every path for the frame (the
 * step differs), for the refraction alone only the paths whose kernel of
 * that format no earlier path has; the first thread count, sleeping on. */
static int format_entries(const run_t *r, int stage, int bpp, entry_t *ents)
{
    int n = 0;
    for (int p = 0; p < r->npaths; p++) {
        int dup = 0;
        for (int q = 0; q < p && stage == ST_REFRACT; q++)
            dup |= rpl_kernels_same_refract(r->paths[q].k, r->paths[p].k, bpp_format(bpp));
        if (!dup)
            ents[n++] = (entry_t){ &r->paths[p], r->tcounts[0], 1, bpp };
    }
    return n;
}

/* Every path, thread count and sleeping mode must give the same water and
 * picture from the same start, in every format the bed has. */
static int verify_paths(run_t *r, bed_t *b)
{
    for (int f = 0; f < MAX_BPPS; f++) {
        if (bpps[f] != 32 && !b->formats)
            continue;
        uint64_t first = 0;
        int n = 0;
        for (int p = 0; p < r->npaths; p++)
            for (int t = 0; t < r->ntcounts; t++)
                for (int sl = 1; sl >= 0; sl--, n++) {
                    entry_t e = { &r->paths[p], r->tcounts[t], sl, bpps[f] };
                    result_t res;
                    if (run_once(b, ST_FRAME, &e, VERIFY_FRAMES, &res) != 0)
                        return -1;
                    if (n == 0)
                        first = res.hash;
                    else if (res.hash != first)
                        note_disagree(r, "%dx%d %d bpp: path %s on %d threads, sleeping %s, "
                                      "differs from path %s on %d thread(s), sleeping on",
                                      b->w, b->h, bpps[f], e.path->name, e.threads,
                                      sl ? "on" : "off", r->paths[0].name, r->tcounts[0]);
                    r->checksum ^= mix64(res.hash);
                }
        bed_drop_backdrop(b);
    }
    return 0;
}

/* Fills in vs_seed and vs_1t of every row. */
static void ratios(run_t *r)
{
    for (int i = 0; i < r->nrows; i++) {
        row_t *x = &r->rows[i];
        double s = is_calm(x->stage) ? -1 : find_ns(r, x->stage, x->w, x->h, "seed", 1, -1);
        double one = x->sleep < 0 ? -1
                                  : find_ns_bpp(r, x->stage, x->w, x->h, x->path, 1, x->sleep,
                                                x->bpp);
        x->vs_seed = s > 0 ? s / x->ns_px : -1;
        x->vs_1t = one > 0 ? one / x->ns_px : -1;
    }
}

/* The path with the fastest full frame (sleeping on) at w x h on the first
 * thread count measured. */
static const path_t *best_path(const run_t *r, int w, int h)
{
    const path_t *best = &r->paths[r->npaths - 1];
    double best_ns = -1;
    for (int p = 0; p < r->npaths; p++) {
        double ns = find_ns(r, ST_FRAME, w, h, r->paths[p].name, r->tcounts[0], 1);
        if (ns > 0 && (best_ns < 0 || ns < best_ns))
            best_ns = ns, best = &r->paths[p];
    }
    return best;
}

/* The calm scene at w x h on path p, sleeping on against off, every thread
 * count.  Appends the rows and fills r->calm. */
static int measure_calm(run_t *r, int w, int h, const path_t *p)
{
    bed_t b;
    if (bed_init(&b, w, h, r->o.seed, p->k,
                 BED_SIM | BED_CALM | ((long)w * h >= MEMCPY_MIN_PX ? BED_KEEP : 0),
                 CALM_WARMUP) != 0)
        return -1;
    entry_t ents[2 * MAX_TCOUNTS];
    int ne = 0;
    for (int t = 0; t < r->ntcounts; t++) {
        ents[ne++] = (entry_t){ p, r->tcounts[t], 1, 32 };
        ents[ne++] = (entry_t){ p, r->tcounts[t], 0, 32 };
    }
    long frames = r->o.frames > 0 ? r->o.frames : CALM_FRAMES;
    int rc = 0;
    /* both stages in one interleaved series: sleeping on then off, per count */
    result_t best[2 * MAX_TCOUNTS];
    double cpu[2 * MAX_TCOUNTS];
    uint64_t ref = 0;
    for (int i = 0; i < ne; i++)
        best[i].ns = 0;
    for (int rep = 0; rep < CALM_REPEATS && rc == 0; rep++)
        for (int i = 0; i < ne; i++) {
            result_t res;
            int stage = ents[i].sleep ? ST_CALM_SLEEP : ST_CALM_FULL;
            if (run_once(&b, stage, &ents[i], frames, &res) != 0) {
                rc = -1;
                break;
            }
            r->checksum ^= mix64(res.hash);
            if (rep == 0 && i == 0)
                ref = res.hash;
            else if (res.hash != ref)
                note_disagree(r, "calm %dx%d: %s on %d threads, sleeping %s, differs from "
                              "sleeping on, %d thread(s)",
                              w, h, p->name, ents[i].threads, ents[i].sleep ? "on" : "off",
                              ents[0].threads);
            if (rep == 0 || cpu_ms(&res) < cpu[i])
                cpu[i] = cpu_ms(&res);
            if (best[i].ns == 0 || res.ns < best[i].ns)
                best[i] = res;
        }
    if (rc == 0) {
        for (int i = 0; i < ne; i++)
            add_row(r, ents[i].sleep ? ST_CALM_SLEEP : ST_CALM_FULL, w, h, &ents[i], &best[i],
                    cpu[i]);
        calm_sum_t *c = &r->calm;
        c->done = 1;
        c->w = w;
        c->h = h;
        c->radius = sched_calm_radius(&b.sched0);
        c->path = p->name;
        c->frames = frames;
        for (int t = 0; t < r->ntcounts; t++)
            c->ratio[t] = (double)best[2 * t + 1].ns / (double)best[2 * t].ns;
        c->awake = best[0].awake;
        c->redrawn = best[0].redrawn;
    }
    bed_free(&b);
    return rc;
}

/* Every path ripple knows that this build and CPU run (or only --path). */
void collect_paths(run_t *r)
{
    for (int i = 0; rpl_kernels_known(i) != NULL; i++) {
        const char *name = rpl_kernels_known(i);
        const rpl_kernels_t *k = NULL;
        rpl_status st = rpl_kernels_find(name, &k);
        int dup = 0;
        for (int j = 0; k && j < r->npaths; j++)
            dup |= r->paths[j].k == k;
        const char *why = st == RPL_ENOTSUP ? "not available on this CPU or in this build"
                          : st != RPL_OK    ? rpl_strerror(st)
                          : dup             ? "same kernels as another path"
                          : r->npaths == MAX_PATHS ? "too many paths"
                                                   : NULL;
        if (why) {
            if (r->nskipped < MAX_PATHS) {
                r->skipped[r->nskipped] = name;
                r->skip_why[r->nskipped++] = why;
            }
            continue;
        }
        if (r->o.path && strcmp(r->o.path, rpl_kernels_name(k)) != 0)
            continue; /* not asked for */
        r->paths[r->npaths].name = rpl_kernels_name(k);
        r->paths[r->npaths].k = k;
        r->npaths++;
    }
}

/* 1..N (N = processors online, at least 2), or with many processors
 * 1, 2, 4, ... and N; only --threads N if given. */
void collect_tcounts(run_t *r)
{
    if (r->o.threads) {
        r->tcounts[r->ntcounts++] = r->o.threads;
        return;
    }
    int n = rpl_cpu_count();
    n = n < 2 ? 2 : n;
    if (n <= MAX_TCOUNTS) {
        for (int t = 1; t <= n; t++)
            r->tcounts[r->ntcounts++] = t;
        return;
    }
    for (int t = 1; t < n && r->ntcounts < MAX_TCOUNTS - 1; t *= 2)
        r->tcounts[r->ntcounts++] = t;
    r->tcounts[r->ntcounts++] = n;
}

/* The sizes measured: --size, or every default one. */
void collect_sizes(run_t *r)
{
    if (r->o.w) {
        r->sizes[0][0] = r->o.w;
        r->sizes[0][1] = r->o.h;
        r->nsizes = 1;
    } else {
        memcpy(r->sizes, default_sizes, sizeof r->sizes);
        r->nsizes = MAX_SIZES;
    }
}

/* The busy stages on every size (at the summary size in every format
 * too), then the calm scene and memory.  The text rows are printed as
 * they come, so a long run shows its progress. */
int run_all(run_t *r)
{
    int fw, fh, lw, lh;
    summary_sizes(r, &fw, &fh, &lw, &lh);
    for (int si = 0; si < r->nsizes; si++) {
        int w = r->sizes[si][0], h = r->sizes[si][1];
        int formats = w == fw && h == fh;
        long fixed = r->o.frames > 0 ? r->o.frames : 0;
        bed_t b;
        if (bed_init(&b, w, h, r->o.seed, r->paths[r->npaths - 1].k,
                     BED_SIM | BED_SEED | (formats ? BED_FORMATS : 0) |
                         ((long)w * h >= MEMCPY_MIN_PX ? BED_KEEP : 0),
                     WARMUP_STEPS) != 0)
            return -1;
        for (int st = ST_SIM; st <= ST_FRAME; st++) {
            entry_t ents[MAX_ENTRIES];
            int ne = busy_entries(r, st, ents), from = r->nrows;
            if (measure(r, &b, st, ents, ne, REPEATS, fixed) != 0) {
                bed_free(&b);
                return -1;
            }
            /* the same stage into 16- and 8-bit framebuffers, each format
             * measured apart (fixed runs must agree within a format) */
            for (int f = 1; formats && st != ST_SIM && f < MAX_BPPS; f++) {
                ne = format_entries(r, st, bpps[f], ents);
                int rc = measure(r, &b, st, ents, ne, REPEATS, fixed);
                bed_drop_backdrop(&b); /* one format's backdrop at a time */
                if (rc != 0) {
                    bed_free(&b);
                    return -1;
                }
            }
            ratios(r);
            if (!r->o.json)
                print_rows(r, from);
        }
        /* the wave model's step beside the classic one: every path and
         * thread count, sleeping on (no seed: it has no such rule) */
        entry_t wents[MAX_ENTRIES];
        int nw = busy_entries(r, ST_WAVE, wents) - 1, wfrom = r->nrows;
        if (measure(r, &b, ST_WAVE, wents + 1, nw, REPEATS, fixed) != 0) {
            bed_free(&b);
            return -1;
        }
        ratios(r);
        if (!r->o.json)
            print_rows(r, wfrom);
        int rc = verify_paths(r, &b);
        bed_free(&b);
        if (rc != 0)
            return -1;
        if (!r->o.json && si + 1 < r->nsizes)
            printf("\n");
    }

    const path_t *best = best_path(r, lw, lh);
    if (measure_calm(r, lw, lh, best) != 0)
        return -1;
    ratios(r);
    if (!r->o.json)
        print_calm(r);

    /* Memory bandwidth matters only where a frame does not fit in the
     * caches; below that the 128 MB of memcpy buffers would also swamp
     * the resident size people measure on small machines. */
    if ((long)lw * lh < MEMCPY_MIN_PX)
        return 0;
    uint64_t sink = 0;
    mem_sum_t *m = &r->mem;
    m->memcpy_gbps = memcpy_gbps(&sink);
    r->checksum ^= sink;
    m->w = lw;
    m->h = lh;
    m->path = best->name;
    for (int t = 0; t < r->ntcounts; t++) {
        double ns = find_ns(r, ST_FRAME, lw, lh, best->name, r->tcounts[t], 1);
        m->ns_frame[t] = ns > 0 ? ns * lw * lh : -1;
    }
    m->done = m->memcpy_gbps > 0;
    return 0;
}
