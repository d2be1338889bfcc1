/* json.c - the --json report: the text report's rows and summaries as one object, built and printed with cJSON. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "bench.h"

/* The document being built.  cJSON returns NULL when an allocation fails
 * and leaves the rest to the caller: ok turns 0 at the first such failure
 * so that a document with holes is never printed. */
typedef struct jdoc {
    int ok;
} jdoc_t;

/* Adds item to obj under key, or to the array obj when key is NULL;
 * returns item, or NULL (and item freed) on failure. */
static cJSON *put(jdoc_t *d, cJSON *obj, const char *key, cJSON *item)
{
    int added = obj && item &&
                (key ? cJSON_AddItemToObject(obj, key, item) : cJSON_AddItemToArray(obj, item));
    if (!added) {
        cJSON_Delete(item);
        d->ok = 0;
        return NULL;
    }
    return item;
}

static cJSON *integer(long long v)
{
    return cJSON_CreateNumber((double)v);
}

/* Written out in full: seeds go past 2^53, where a double loses digits. */
static cJSON *u64(uint64_t v)
{
    char buf[24];
    snprintf(buf, sizeof buf, "%" PRIu64, v);
    return cJSON_CreateRaw(buf);
}

/* A figure with the decimals it has always had here ("fps":922.00, not
 * 922 or 922.0000000001): people compare these files across machines and
 * versions, and tools that tell integers from reals see the same types. */
static cJSON *fixed(double v, int decimals)
{
    char buf[400];
    if (!isfinite(v))
        return cJSON_CreateNull();
    int n = snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return n > 0 && (size_t)n < sizeof buf ? cJSON_CreateRaw(buf) : cJSON_CreateNull();
}

/* The same, or null when negative: not applicable. */
static cJSON *fixed_or_null(double v, int decimals)
{
    return v < 0 ? cJSON_CreateNull() : fixed(v, decimals);
}

static cJSON *string(const char *s)
{
    return cJSON_CreateString(s);
}

static void put_header(jdoc_t *d, cJSON *root, const run_t *r, const char *cpu,
                       const char *autop)
{
    put(d, root, "version", string(RPL_VERSION));
    put(d, root, "seed", u64(r->o.seed));
    put(d, root, "cpu", string(cpu));
    put(d, root, "cpu_count", integer(rpl_cpu_count()));
    put(d, root, "loadavg_start", fixed_or_null(r->load_start, 2));
    put(d, root, "loadavg_end", fixed_or_null(r->load_end, 2));
    put(d, root, "auto_path", string(autop));
    cJSON *paths = put(d, root, "paths", cJSON_CreateArray());
    for (int p = 0; p < r->npaths; p++)
        put(d, paths, NULL, string(r->paths[p].name));
    cJSON *skipped = put(d, root, "skipped", cJSON_CreateArray());
    for (int i = 0; i < r->nskipped; i++) {
        cJSON *s = put(d, skipped, NULL, cJSON_CreateObject());
        put(d, s, "path", string(r->skipped[i]));
        put(d, s, "reason", string(r->skip_why[i]));
    }
    cJSON *threads = put(d, root, "threads", cJSON_CreateArray());
    for (int t = 0; t < r->ntcounts; t++)
        put(d, threads, NULL, integer(r->tcounts[t]));
    put(d, root, "repeats", integer(REPEATS));
    put(d, root, "warmup_steps", integer(WARMUP_STEPS));
    put(d, root, "frames", r->o.frames > 0 ? integer(r->o.frames) : cJSON_CreateNull());
    put(d, root, "min_run_s", r->o.frames > 0 ? cJSON_CreateNull() : fixed(MIN_RUN_NS / 1e9, 3));

    char calm_sleep[160];
    snprintf(calm_sleep, sizeof calm_sleep,
             "one stone every %d frames, sleeping on, a renderer (rpl_renderer_draw) keeps the "
             "frame and redraws what changed", CALM_PERIOD);
    cJSON *stages = put(d, root, "stages", cJSON_CreateObject());
    put(d, stages, "sim", string("busy: stones + one wave step (the classic rule)"));
    put(d, stages, "wave",
        string("the same with the wave model (k 0.16, u*dt 0.02, alpha 0.985), sleeping on"));
    put(d, stages, "refract",
        string("busy: one full render (32 bpp rpl_refract, 16 and 8 bpp rpl_render)"));
    put(d, stages, "frame", string("busy: stones + step + full render"));
    put(d, stages, "calm-sleep", string(calm_sleep));
    put(d, stages, "calm-full",
        string("the same scene, sleeping off, so the same renderer redraws every tile"));
    cJSON *bpp = put(d, root, "bpp", cJSON_CreateObject());
    put(d, bpp, "32", string("XRGB8888"));
    put(d, bpp, "16", string("RGB565"));
    put(d, bpp, "8", string("INDEX8"));
}

static void put_rows(jdoc_t *d, cJSON *root, const run_t *r)
{
    cJSON *results = put(d, root, "results", cJSON_CreateArray());
    for (int i = 0; i < r->nrows; i++) {
        const row_t *w = &r->rows[i];
        cJSON *o = put(d, results, NULL, cJSON_CreateObject());
        put(d, o, "stage", string(stage_names[w->stage]));
        put(d, o, "width", integer(w->w));
        put(d, o, "height", integer(w->h));
        put(d, o, "path", string(w->path));
        put(d, o, "bpp", w->bpp ? integer(w->bpp) : cJSON_CreateNull());
        put(d, o, "threads", integer(w->threads));
        put(d, o, "sleeping", w->sleep < 0 ? cJSON_CreateNull() : cJSON_CreateBool(w->sleep));
        put(d, o, "ns_per_px", fixed(w->ns_px, 4));
        put(d, o, "fps", fixed(w->fps, 2));
        put(d, o, "speedup_vs_seed", fixed_or_null(w->vs_seed, 3));
        put(d, o, "speedup_vs_1t", fixed_or_null(w->vs_1t, 3));
        put(d, o, "awake_fraction", fixed_or_null(w->stage == ST_REFRACT ? -1 : w->awake, 4));
        put(d, o, "redrawn_fraction",
            fixed_or_null(is_sim_only(w->stage) ? -1 : w->redrawn, 4));
        put(d, o, "frames", u64(w->frames));
        put(d, o, "cpu_ms_per_frame", fixed(w->cpu_ms, 4));
        put(d, o, "cpu_ns_per_px", fixed(w->cpu_ms * 1e6 / ((double)w->w * w->h), 4));
    }
}

/* {"width", "height", "threads", then a ratio per path (sleeping on) and
 * "sleep_off": {the same ratios with sleeping off}}: row a / row b, where
 * a is the seed (vs_seed) or the path on one thread. */
static void put_ratios(jdoc_t *d, cJSON *summary, const char *key, const run_t *r, int w, int h,
                       int threads, int vs_seed)
{
    cJSON *o = put(d, summary, key, cJSON_CreateObject());
    put(d, o, "width", integer(w));
    put(d, o, "height", integer(h));
    put(d, o, "threads", integer(threads));
    for (int sleep = 1; sleep >= 0; sleep--) {
        cJSON *to = sleep ? o : put(d, o, "sleep_off", cJSON_CreateObject());
        for (int p = 0; p < r->npaths; p++) {
            const char *n = r->paths[p].name;
            double v = -1;
            if (vs_seed)
                v = ratio_rows(r, ST_FRAME, w, h, "seed", 1, -1, n, threads, sleep);
            else if (threads > 1)
                v = ratio_rows(r, ST_FRAME, w, h, n, 1, sleep, n, threads, sleep);
            put(d, to, n, fixed_or_null(v, 3));
        }
    }
}

static void put_summary(jdoc_t *d, cJSON *root, const run_t *r)
{
    int sw, sh, bw, bh;
    summary_sizes(r, &sw, &sh, &bw, &bh);
    int t1 = r->tcounts[0], tn = r->tcounts[r->ntcounts - 1];
    cJSON *summary = put(d, root, "summary", cJSON_CreateObject());
    put_ratios(d, summary, "frame_vs_seed", r, sw, sh, t1, 1);

    cJSON *ms = put(d, summary, "frame_ms_by_bpp", cJSON_CreateObject());
    put(d, ms, "width", integer(sw));
    put(d, ms, "height", integer(sh));
    put(d, ms, "threads", integer(t1));
    for (int p = 0; p < r->npaths; p++) {
        cJSON *o = put(d, ms, r->paths[p].name, cJSON_CreateObject());
        for (int f = 0; f < MAX_BPPS; f++) {
            char key[8];
            snprintf(key, sizeof key, "%d", bpps[f]);
            put(d, o, key, fixed_or_null(frame_ms(r, sw, sh, r->paths[p].name, t1, bpps[f]), 4));
        }
    }

    put_ratios(d, summary, "threads_vs_1t", r, bw, bh, tn, 0);

    if (r->calm.done) {
        const calm_sum_t *c = &r->calm;
        cJSON *o = put(d, summary, "calm", cJSON_CreateObject());
        put(d, o, "width", integer(c->w));
        put(d, o, "height", integer(c->h));
        put(d, o, "path", string(c->path));
        put(d, o, "stone_every_frames", integer(CALM_PERIOD));
        put(d, o, "stone_radius", integer(c->radius));
        put(d, o, "stone_weight", integer(CALM_WEIGHT));
        put(d, o, "warmup_frames", integer(CALM_WARMUP));
        put(d, o, "frames", integer(c->frames));
        put(d, o, "repeats", integer(CALM_REPEATS));
        put(d, o, "awake_fraction", fixed(c->awake, 4));
        put(d, o, "redrawn_fraction", fixed(c->redrawn, 4));
        cJSON *sp = put(d, o, "sleep_speedup", cJSON_CreateArray());
        for (int t = 0; t < r->ntcounts; t++) {
            cJSON *x = put(d, sp, NULL, cJSON_CreateObject());
            put(d, x, "threads", integer(r->tcounts[t]));
            put(d, x, "full_over_sleep", fixed_or_null(c->ratio[t], 2));
        }
    }

    if (r->mem.done) {
        const mem_sum_t *m = &r->mem;
        double frame_bytes = (double)FRAME_BYTES_PX * m->w * m->h;
        cJSON *o = put(d, summary, "memory", cJSON_CreateObject());
        put(d, o, "memcpy_mb", integer(MEMCPY_MB));
        put(d, o, "memcpy_gbps", fixed(m->memcpy_gbps, 3));
        put(d, o, "memcpy_counts", string("read + write bytes"));
        put(d, o, "width", integer(m->w));
        put(d, o, "height", integer(m->h));
        put(d, o, "path", string(m->path));
        put(d, o, "bytes_per_px", integer(FRAME_BYTES_PX));
        put(d, o, "bytes_per_frame", fixed(frame_bytes, 0));
        put(d, o, "count",
            string("step 6 (reads cur and prev, writes prev, 2 B each), refraction 10 (reads "
                   "height 2, background texel 4, writes pixel 4)"));
        cJSON *frames = put(d, o, "frames", cJSON_CreateArray());
        for (int t = 0; t < r->ntcounts; t++) {
            if (m->ns_frame[t] <= 0)
                continue;
            double gbps = frame_bytes / m->ns_frame[t];
            cJSON *x = put(d, frames, NULL, cJSON_CreateObject());
            put(d, x, "threads", integer(r->tcounts[t]));
            put(d, x, "ns_per_frame", fixed(m->ns_frame[t], 0));
            put(d, x, "gbps", fixed(gbps, 3));
            put(d, x, "percent_of_memcpy",
                fixed(m->memcpy_gbps > 0 ? 100 * gbps / m->memcpy_gbps : 0.0, 1));
        }
    }
}

/* Prints the whole run as one JSON object on one line.  0, or -1 with a
 * message when memory ran out. */
int print_json(const run_t *r, const char *cpu, const char *autop, double total_s)
{
    jdoc_t d = { 1 };
    char checksum[24];
    snprintf(checksum, sizeof checksum, "%016" PRIx64, r->checksum);
    cJSON *root = cJSON_CreateObject();
    d.ok = root != NULL;
    put_header(&d, root, r, cpu, autop);
    put_rows(&d, root, r);
    put_summary(&d, root, r);
    put(&d, root, "paths_agree", cJSON_CreateBool(r->agree));
    put(&d, root, "checksum", string(checksum));
    put(&d, root, "total_s", fixed(total_s, 1));
    char *text = d.ok ? cJSON_PrintUnformatted(root) : NULL;
    cJSON_Delete(root);
    if (!text) {
        fprintf(stderr, "ripple-bench: out of memory for the JSON report\n");
        return -1;
    }
    printf("%s\n", text);
    cJSON_free(text);
    return 0;
}
