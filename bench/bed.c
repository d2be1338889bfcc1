/* bed.c - one field size and scene: buffers shared by the product and the seed, warm-up, one timed run, --instr-run. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

/*
 * Memory: the bench is meant to fit old machines with a few MB of RAM, so
 * a bed holds one set of big buffers and the product and the seed, which
 * never run at the same time, take turns in it.  One picture buffer holds
 * the background in the layout of whoever runs next (tightly packed for
 * the product, the seed's padded page for the seed); one framebuffer is
 * the product's fb and the seed's out page.  The heights take turns too:
 * a field's buffers are its own, so before the seed runs the field is
 * destroyed and the seed's buf1 and buf2 are allocated into the memory it
 * freed, and before the product runs again they are freed and the field
 * made anew (bed_turn).  That costs nothing timed, because no copy of the
 * warmed-up water is kept either: before every run the water is rebuilt
 * from still with the same stones and steps (the product on the bed's
 * warm-up kernels), which gives the same state every time (the schedule
 * is deterministic), untimed; large fields (BED_KEEP, where the memory
 * section's buffers are far bigger anyway) keep a copy of each warmed-up
 * water after the first instead, which saves the bench minutes and gives
 * the same state.  The 16- and 8-bit backdrops exist one at a time, while
 * their format is measured.  The calm bed has no seed and draws through a
 * renderer, which needs a backdrop even at 32 bpp: that backdrop is the
 * picture, made once from the framebuffer, so the calm bed has no picture
 * buffer of its own.
 */
enum { PIC_NONE, PIC_PRODUCT, PIC_SEED };

uint64_t hash_bytes(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    while (n >= 8) {
        uint64_t v;
        memcpy(&v, p, 8);
        h = (h ^ v) * 0x100000001B3ull;
        h ^= h >> 29;
        p += 8;
        n -= 8;
    }
    while (n--)
        h = (h ^ *p++) * 0x100000001B3ull;
    return h;
}

void bed_drop_backdrop(bed_t *b)
{
    rpl_backdrop_destroy(b->bd);
    b->bd = NULL;
    b->bd_bpp = 0;
}

void bed_free(bed_t *b)
{
    bed_drop_backdrop(b);
    rpl_backdrop_destroy(b->calm_bd);
    rpl_renderer_destroy(b->rend); /* before its field */
    rpl_sim_destroy(b->sim);
    if (b->seed_owned) {
        seed_pool_free(&b->seed);
    } else { /* only the heights are the seed's own, while it has them */
        free(b->seed.buf1);
        free(b->seed.buf2);
    }
    free(b->pic);
    free(b->fb);
    free(b->keep_sim);
    free(b->keep_seed);
    memset(b, 0, sizeof *b);
}

/* A picture with edges in every direction, so that refraction shows. */
static uint32_t backdrop(int x, int y, int w, int h)
{
    uint32_t r = (uint32_t)(x * 255 / (w - 1));
    uint32_t g = (uint32_t)(y * 255 / (h - 1));
    uint32_t b = ((x / 16 + y / 16) & 1) ? 0xE0u : 0x30u;
    return 0xFF000000u | r << 16 | g << 8 | b;
}

/* Draws the w x h picture into pic, rows `pitch` bytes apart; with pad,
 * the bytes past each row's pixels and one row past the last are zeroed,
 * as seed_pool_init leaves the seed's page. */
static void draw_picture(unsigned char *pic, size_t pitch, int w, int h, int pad)
{
    for (int y = 0; y < h; y++) {
        unsigned char *row = pic + (size_t)y * pitch;
        for (int x = 0; x < w; x++) {
            uint32_t px = backdrop(x, y, w, h);
            memcpy(row + (size_t)x * 4, &px, 4);
        }
        if (pad)
            memset(row + (size_t)w * 4, 0, pitch - (size_t)w * 4);
    }
    if (pad)
        memset(pic + (size_t)h * pitch, 0, pitch);
}

/* Lays the picture out for the product (w*h pixels, tightly packed: b->bg)
 * or for the seed (its page: pic_pitch bytes a row).  A bed without a
 * picture buffer (the calm one) has its picture in its backdrop. */
static void bed_picture(bed_t *b, int layout)
{
    if (b->pic_layout == layout || !b->pic)
        return;
    if (layout == PIC_SEED)
        draw_picture(b->seed.pic, (size_t)b->seed.pic_pitch, b->w, b->h, 1);
    else
        draw_picture((unsigned char *)b->bg, (size_t)b->w * 4, b->w, b->h, 0);
    b->pic_layout = layout;
}

/* The schedule's stones into the field: RPL_OK, or the first refusal
 * (the schedule keeps its radii in range: none is expected). */
static rpl_status drop_all(rpl_sim_t *sim, const drop_t *d, int n)
{
    rpl_status st = RPL_OK;
    for (int i = 0; i < n; i++) {
        rpl_status one = rpl_sim_drop(sim, d[i].x, d[i].y, d[i].r, d[i].weight);
        if (st == RPL_OK)
            st = one;
    }
    return st;
}

/* Stones and one step on whichever waters the bed warms up: RPL_OK, or
 * the field's first refusal. */
static rpl_status step_both(bed_t *b, sched_t *s, int sim, int seed)
{
    drop_t d[MAX_DROPS];
    rpl_status st = RPL_OK;
    int n = sched_next(s, d);
    if (sim)
        st = drop_all(b->sim, d, n);
    if (seed)
        for (int i = 0; i < n; i++)
            seed_dropstone(&b->seed, d[i].x, d[i].y, d[i].r, d[i].weight);
    if (sim)
        rpl_sim_step(b->sim);
    if (seed)
        seed_ripplespread(&b->seed);
    return st;
}

/* The schedule a bed's warm-up starts from. */
static void bed_sched_start(const bed_t *b, sched_t *s)
{
    sched_init(s, b->w, b->h, b->seed_value, b->calm);
}

/* Builds the field (BED_SIM) and/or the seed's pool (BED_SEED) on shared
 * buffers, for the busy or calm (BED_CALM) schedule with `warmup` steps
 * before every run (the product's on kernels k); BED_FORMATS allows the
 * 16- and 8-bit formats (bed_format).  A calm bed draws through a
 * renderer.  The waters are warmed up by bed_rewarm.  0, or -1 with a
 * message. */
int bed_init(bed_t *b, int w, int h, uint64_t seed, const rpl_kernels_t *k, int flags,
             int warmup)
{
    rpl_status st = RPL_OK;
    size_t cells = (size_t)w * (size_t)h;
    int ok = 1;
    memset(b, 0, sizeof *b);
    b->w = w;
    b->h = h;
    b->seed_value = seed;
    b->calm = (flags & BED_CALM) != 0;
    b->formats = (flags & BED_FORMATS) != 0;
    b->keep = (flags & BED_KEEP) != 0;
    b->warmup = warmup;
    b->k_warm = k;
    b->view.strength = RPL_STRENGTH_ONE; /* 1:1 offsets, like the seed */
    b->view.shading = 0;                 /* the seed has no light */
    if (flags & BED_SIM) {
        /* the calm scene's renders come from its backdrop alone */
        int need_pic = !b->calm || (flags & (BED_SEED | BED_FORMATS));
        size_t pic_bytes = cells * 4;
        if ((flags & BED_SEED) && seed_pool_pic_bytes(w, h) > pic_bytes)
            pic_bytes = seed_pool_pic_bytes(w, h);
        st = rpl_sim_create(w, h, seed, &b->sim);
        if (st != RPL_OK) {
            rpl_sim_destroy(b->sim);
            b->sim = NULL;
        }
        b->pic = need_pic ? malloc(pic_bytes) : NULL;
        b->fb = calloc(cells, 4); /* room for w*h pixels of any format */
        ok = b->sim && (b->pic || !need_pic) && b->fb;
        b->bg = (uint32_t *)b->pic;
        if (ok && (flags & BED_SEED)) {
            /* the heights come with the seed's turn (bed_turn) */
            seed_pool_attach(&b->seed, w, h, NULL, NULL, b->pic, (unsigned char *)b->fb);
            b->has_seed = 1;
        }
        if (ok && b->calm) {
            /* the picture drawn where the frames will go, then kept as
             * the backdrop: no buffer holds it besides */
            draw_picture((unsigned char *)b->fb, (size_t)w * 4, w, h, 0);
            st = rpl_backdrop_create(b->fb, w, h, RPL_XRGB8888, &b->calm_bd);
            if (st == RPL_OK)
                st = rpl_renderer_create(b->sim, &b->rend);
            if (st != RPL_OK) {
                rpl_renderer_destroy(b->rend);
                rpl_backdrop_destroy(b->calm_bd);
                b->rend = NULL;
                b->calm_bd = NULL;
            }
            ok = b->rend != NULL;
        }
    } else if (flags & BED_SEED) {
        b->has_seed = seed_pool_init(&b->seed, w, h) == 0;
        b->seed_owned = b->has_seed;
        ok = b->has_seed;
    }
    if (!ok) {
        fprintf(stderr, "ripple-bench: %dx%d: %s\n", w, h,
                rpl_strerror(st != RPL_OK ? st : RPL_ENOMEM));
        bed_free(b);
        return -1;
    }
    if (b->sim && k && (st = rpl_sim_set_kernels(b->sim, k)) != RPL_OK) {
        fprintf(stderr, "ripple-bench: path %s: %s\n", rpl_kernels_name(k), rpl_sim_error(b->sim));
        bed_free(b);
        return -1;
    }
    /* the schedule after the warm-up, where every run goes on */
    sched_t s;
    drop_t d[MAX_DROPS];
    bed_sched_start(b, &s);
    for (int i = 0; i < warmup; i++)
        sched_next(&s, d);
    b->sched0 = s;
    return 0;
}

/* The backdrop a render at bpp draws from: at 32 bpp the calm bed's
 * (busy beds refract the raw picture), else the 16- or 8-bit one being
 * measured; NULL when the bed has none of that format at the moment. */
static const rpl_backdrop_t *bed_backdrop(const bed_t *b, int bpp)
{
    if (bpp == 32)
        return b->calm_bd;
    return b->bd_bpp == bpp ? b->bd : NULL;
}

/* Gives the memory of the heights to the seed (seed 1: the field and its
 * renderer go, then buf1 and buf2 are allocated) or to the product (seed
 * 0: the other way round, the field made anew on the bed's warm-up
 * kernels): each is freed before the other is allocated, so the two never
 * take memory at the same time.  Nothing to do when they already have it,
 * or when the seed has a pool of its own.  0, or -1 with a message. */
static int bed_turn(bed_t *b, int seed)
{
    size_t cells = (size_t)b->w * (size_t)b->h;
    rpl_status st = RPL_ENOMEM;
    if (seed) {
        if (b->seed_owned || b->seed.buf1)
            return 0;
        rpl_renderer_destroy(b->rend);
        rpl_sim_destroy(b->sim);
        b->rend = NULL;
        b->sim = NULL;
        b->seed.buf1 = malloc(cells * sizeof *b->seed.buf1);
        b->seed.buf2 = malloc(cells * sizeof *b->seed.buf2);
        if (b->seed.buf1 && b->seed.buf2)
            return 0;
        free(b->seed.buf1);
        free(b->seed.buf2);
        b->seed.buf1 = b->seed.buf2 = NULL;
    } else {
        if (!b->sim) {
            free(b->seed.buf1);
            free(b->seed.buf2);
            b->seed.buf1 = b->seed.buf2 = NULL;
            st = rpl_sim_create(b->w, b->h, b->seed_value, &b->sim);
            if (st != RPL_OK) {
                rpl_sim_destroy(b->sim);
                b->sim = NULL;
            }
            if (b->sim && b->k_warm && (st = rpl_sim_set_kernels(b->sim, b->k_warm)) != RPL_OK) {
                rpl_sim_destroy(b->sim);
                b->sim = NULL;
            }
        }
        if (b->sim && b->calm_bd && !b->rend) {
            st = rpl_renderer_create(b->sim, &b->rend);
            if (st != RPL_OK) {
                rpl_renderer_destroy(b->rend);
                b->rend = NULL;
            }
        }
        if (b->sim && (b->rend || !b->calm_bd))
            return 0;
    }
    fprintf(stderr, "ripple-bench: %dx%d: %s\n", b->w, b->h, rpl_strerror(st));
    return -1;
}

/* Makes the backdrop of a 16- or 8-bit format (dropping the other one);
 * nothing to do for 32 bpp.  0, or -1 with a message. */
static int bed_format(bed_t *b, int bpp)
{
    if (bpp == 32 || b->bd_bpp == bpp)
        return 0;
    bed_drop_backdrop(b);
    if (!b->sim || !b->formats || !b->bg) {
        fprintf(stderr, "ripple-bench: %dx%d: no backdrop for %d bpp\n", b->w, b->h, bpp);
        return -1;
    }
    rpl_status st = RPL_OK;
    bed_picture(b, PIC_PRODUCT);
    st = rpl_backdrop_create(b->bg, b->w, b->h, bpp == 16 ? RPL_RGB565 : RPL_INDEX8, &b->bd);
    if (st != RPL_OK) {
        rpl_backdrop_destroy(b->bd);
        b->bd = NULL;
        fprintf(stderr, "ripple-bench: %dx%d: backdrop: %s\n", b->w, b->h, rpl_strerror(st));
        return -1;
    }
    b->bd_bpp = bpp;
    return 0;
}

/* One render of the product into b->fb.  The calm scene (calm 1) draws
 * through the bed's renderer, which keeps the frame and, with sleeping
 * on, redraws only the tiles that changed; the busy stages draw whole
 * frames, at 32 bpp with rpl_refract from the raw picture, as before
 * formats, at 16 and 8 bpp with rpl_render.  A missing backdrop or
 * renderer is RPL_EINVAL, like any bad argument. */
static rpl_status render_frame(bed_t *b, int bpp, int calm)
{
    const rpl_backdrop_t *bd = bed_backdrop(b, bpp);
    ptrdiff_t pitch = (ptrdiff_t)b->w * (bpp / 8);
    if (calm)
        return rpl_renderer_draw(b->rend, bd, b->fb, pitch, &b->view);
    if (bpp == 32)
        return rpl_refract(b->sim, b->bg, b->fb, pitch, RPL_XRGB8888, &b->view);
    return rpl_render(b->sim, bd, b->fb, pitch, &b->view);
}

/* The detail of a failed render_frame. */
static const char *render_error(const bed_t *b, int calm)
{
    return calm ? rpl_renderer_error(b->rend) : rpl_sim_error(b->sim);
}

/* Brings the water of the product (seed 0) or of the seed (seed 1), which
 * has had its bed_turn, to where the warm-up leaves it, from still water:
 * the same stones and steps every time, and the picture in its layout.
 * The product warms up on the bed's kernels with sleeping tiles on and the
 * threads it has.  RPL_OK, or the status of the field's refusal (the
 * reason in rpl_sim_error). */
static rpl_status bed_rewarm(bed_t *b, int seed)
{
    sched_t s;
    size_t cells = (size_t)b->w * (size_t)b->h;
    bed_sched_start(b, &s);
    if (seed) {
        /* the page as seed_pool_init leaves it: the seed never writes its
         * first and last rows nor the pixels whose source is outside */
        memset(b->seed.out, 0, (size_t)b->h * (size_t)b->seed.out_pitch);
        bed_picture(b, PIC_SEED);
        if (b->keep_seed) {
            memcpy(b->seed.buf1, b->keep_seed, cells * sizeof *b->seed.buf1);
            memcpy(b->seed.buf2, b->keep_seed + cells, cells * sizeof *b->seed.buf2);
            return RPL_OK;
        }
        memset(b->seed.buf1, 0, cells * sizeof *b->seed.buf1);
        memset(b->seed.buf2, 0, cells * sizeof *b->seed.buf2);
        for (int i = 0; i < b->warmup; i++)
            step_both(b, &s, 0, 1); /* the seed alone: nothing to refuse */
        if (b->keep && (b->keep_seed = malloc(2 * cells * sizeof *b->keep_seed)) != NULL) {
            memcpy(b->keep_seed, b->seed.buf1, cells * sizeof *b->seed.buf1);
            memcpy(b->keep_seed + cells, b->seed.buf2, cells * sizeof *b->seed.buf2);
        }
        return RPL_OK;
    }
    /* the run's first frame is drawn whole, whatever the last run left */
    rpl_renderer_invalidate(b->rend);
    bed_picture(b, PIC_PRODUCT);
    if (b->keep_sim && rpl_sim_set_state(b->sim, b->keep_sim, b->keep_sim + cells) == RPL_OK)
        return RPL_OK;
    rpl_sim_reset(b->sim, b->seed_value);
    rpl_status st = b->k_warm ? rpl_sim_set_kernels(b->sim, b->k_warm) : RPL_OK;
    if (st != RPL_OK)
        return st;
    rpl_sim_set_sleeping(b->sim, 1);
    for (int i = 0; i < b->warmup; i++) {
        rpl_status one = step_both(b, &s, 1, 0);
        if (st == RPL_OK)
            st = one;
    }
    if (st == RPL_OK && b->keep && !b->keep_sim &&
        (b->keep_sim = malloc(2 * cells * sizeof *b->keep_sim)) != NULL) {
        memcpy(b->keep_sim, rpl_sim_heights(b->sim), cells * sizeof *b->keep_sim);
        memcpy(b->keep_sim + cells, rpl_sim_previous(b->sim), cells * sizeof *b->keep_sim);
    }
    return st;
}

/* What a run leaves behind, folded: the water and the picture. */
static uint64_t bed_hash(bed_t *b, int product, int bpp, uint64_t h)
{
    size_t cells = (size_t)b->w * (size_t)b->h;
    if (product) {
        h = hash_bytes(h, rpl_sim_heights(b->sim), cells * sizeof(int16_t));
        return hash_bytes(h, b->fb, cells * (size_t)(bpp / 8));
    }
    h = hash_bytes(h, b->seed.buf1, cells * sizeof *b->seed.buf1);
    return hash_bytes(h, b->seed.out, (size_t)b->h * (size_t)b->seed.out_pitch);
}

/* One timed run of a stage from the warmed-up state, on the seed baseline
 * or a product path.  Runs `fixed` frames, or as many as fill MIN_RUN_NS
 * when fixed is 0.  0, or -1 with a message. */
int run_once(bed_t *b, int stage, const entry_t *e, long fixed, result_t *res)
{
    const rpl_kernels_t *k = e->path ? e->path->k : NULL;
    const int calm = is_calm(stage);
    rpl_status st = RPL_OK;
    if (bed_turn(b, k == NULL) != 0)
        return -1;
    if (k && bed_format(b, e->bpp) != 0)
        return -1;
    if (k && rpl_sim_set_threads(b->sim, e->threads) != RPL_OK) {
        fprintf(stderr, "ripple-bench: %d threads: %s\n", e->threads, rpl_sim_error(b->sim));
        return -1;
    }
    /* untimed: the water (and picture) of the warm-up, every run alike,
     * under the classic rule; then the stage's rule */
    if (k && rpl_sim_set_model(b->sim, RPL_MODEL_CLASSIC, NULL) != RPL_OK) {
        fprintf(stderr, "ripple-bench: classic rule: %s\n", rpl_sim_error(b->sim));
        return -1;
    }
    if (bed_rewarm(b, k == NULL) != RPL_OK) {
        fprintf(stderr, "ripple-bench: %dx%d: warm-up: %s\n", b->w, b->h, rpl_sim_error(b->sim));
        return -1;
    }
    if (k && stage == ST_WAVE) {
        const rpl_wave_params_t wave = BENCH_WAVE;
        if (rpl_sim_set_model(b->sim, RPL_MODEL_WAVE, &wave) != RPL_OK) {
            fprintf(stderr, "ripple-bench: wave model: %s\n", rpl_sim_error(b->sim));
            return -1;
        }
    }
    if (k) {
        if (rpl_sim_set_kernels(b->sim, k) != RPL_OK) {
            fprintf(stderr, "ripple-bench: path %s: %s\n", rpl_kernels_name(k),
                    rpl_sim_error(b->sim));
            return -1;
        }
        rpl_sim_set_sleeping(b->sim, e->sleep);
        /* untimed: the kept frame shows the restored water, drawn whole
         * (bed_rewarm invalidated the renderer), which the simulation
         * alone also leaves in the frame it hashes */
        if (calm || is_sim_only(stage))
            st = render_frame(b, e->bpp, calm);
    }
    const int steps = stage != ST_REFRACT, renders = !is_sim_only(stage);
    sched_t s = b->sched0;
    drop_t d[MAX_DROPS];
    rpl_stats_t ts = { 0, 0, 0 };
    rpl_status stones = RPL_OK;
    uint64_t n = 0, stepped = 0, rendered = 0, c0 = process_cpu_ns(), t0 = now_ns(), t;
    do {
        if (steps) {
            int nd = sched_next(&s, d);
            if (k) {
                stones |= drop_all(b->sim, d, nd);
                rpl_sim_step(b->sim);
                rpl_sim_stats(b->sim, &ts);
                stepped += ts.stepped;
            } else {
                for (int i = 0; i < nd; i++)
                    seed_dropstone(&b->seed, d[i].x, d[i].y, d[i].r, d[i].weight);
                seed_ripplespread(&b->seed);
            }
        }
        if (renders) {
            if (k) {
                st |= render_frame(b, e->bpp, calm);
                rpl_sim_stats(b->sim, &ts);
                rendered += ts.rendered;
            } else {
                seed_renderripple(&b->seed);
            }
        }
        n++;
        t = now_ns();
    } while (fixed > 0 ? n < (uint64_t)fixed : t - t0 < MIN_RUN_NS);
    if (stones != RPL_OK) {
        fprintf(stderr, "ripple-bench: %dx%d: stones: %s\n", b->w, b->h, rpl_sim_error(b->sim));
        return -1;
    }
    if (st != RPL_OK) {
        fprintf(stderr, "ripple-bench: %dx%d: render: %s\n", b->w, b->h, render_error(b, calm));
        return -1;
    }
    double tiles = k ? (double)ts.tiles * (double)n : 0;
    res->ns = t > t0 ? t - t0 : 1;
    res->cpu_ns = process_cpu_ns() - c0;
    res->frames = n;
    res->hash = bed_hash(b, k != NULL, e->bpp, 0x6A09E667F3BCC908ull);
    res->awake = k && steps ? (double)stepped / tiles : -1;
    res->redrawn = k && renders ? (double)rendered / tiles : -1;
    return 0;
}

/* --instr-run: a fixed workload for callgrind (bench/instr.sh), untimed.
 * The kernels printed are read back from the field, so instr.sh sees the
 * path that really ran. */
int instr_run(const opts_t *o)
{
    const char *name = o->instr;
    int seed_only = strcmp(name, "seed") == 0;
    const rpl_kernels_t *k = seed_only ? NULL : rpl_kernels_get(name);
    int w = o->w ? o->w : INSTR_W, h = o->h ? o->h : INSTR_H;
    long frames = o->frames >= 0 ? o->frames : INSTR_FRAMES;
    int threads = o->threads ? o->threads : 1;
    bed_t b;
    if (!seed_only && !k) {
        fprintf(stderr, "ripple-bench: path %s is not available\n", name);
        return EXIT_USAGE;
    }
    if (bed_init(&b, w, h, o->seed, k,
                 seed_only ? BED_SEED : BED_SIM | (o->bpp != 32 ? BED_FORMATS : 0),
                 WARMUP_STEPS) != 0)
        return 1;
    rpl_status st = RPL_OK;
    if (b.sim && bed_format(&b, o->bpp) != 0) {
        bed_free(&b);
        return 1;
    }
    /* the warm-up on one thread (classic), then the picture of it */
    if (bed_rewarm(&b, seed_only) != RPL_OK) {
        fprintf(stderr, "ripple-bench: %dx%d: warm-up: %s\n", w, h, rpl_sim_error(b.sim));
        bed_free(&b);
        return 1;
    }
    if (b.sim && o->wave) {
        const rpl_wave_params_t wave = BENCH_WAVE;
        if (rpl_sim_set_model(b.sim, RPL_MODEL_WAVE, &wave) != RPL_OK) {
            fprintf(stderr, "ripple-bench: wave model: %s\n", rpl_sim_error(b.sim));
            bed_free(&b);
            return 1;
        }
    }
    if (b.sim)
        st = rpl_refract(b.sim, b.bg, b.fb, (ptrdiff_t)w * 4, RPL_XRGB8888, &b.view);
    if (b.sim && rpl_sim_set_threads(b.sim, threads) != RPL_OK) {
        fprintf(stderr, "ripple-bench: %d threads: %s\n", threads, rpl_sim_error(b.sim));
        bed_free(&b);
        return 1;
    }
    sched_t s = b.sched0;
    for (long i = 0; i < frames; i++) {
        st |= step_both(&b, &s, b.sim != NULL, b.has_seed);
        if (o->step_only)
            continue;
        if (b.sim)
            st |= render_frame(&b, o->bpp, 0);
        else
            seed_renderripple(&b.seed);
    }
    uint64_t hash = bed_hash(&b, b.sim != NULL, o->bpp, 0);
    printf("instr-run: path %s (kernels %s), %s, %dx%d, %d bpp, %d warm-up steps + %ld "
           "%s, %d thread%s, checksum %016" PRIx64 "\n",
           name, seed_only ? "seed" : rpl_kernels_name(rpl_sim_kernels(b.sim)),
           b.sim && rpl_sim_model(b.sim) == RPL_MODEL_WAVE ? "wave model" : "classic rule", w, h,
           o->bpp, WARMUP_STEPS, frames, o->step_only ? "steps" : "frames", threads,
           threads > 1 ? "s" : "", hash);
    if (st != RPL_OK)
        fprintf(stderr, "ripple-bench: %dx%d: %s\n", w, h, rpl_sim_error(b.sim));
    bed_free(&b);
    return st == RPL_OK ? 0 : 1;
}
