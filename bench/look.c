/* look.c - ripple-bench --look: plays a show headless as the demo does and prints, every N steps, how well the water reads (speckle share, mean offset over awake tiles). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "ripple_support.h"

#define LOOK_SHOW "shows/default.show"
#ifndef RIPPLE_DATADIR
#define RIPPLE_DATADIR "/usr/local/share/ripple"
#endif

/* The default show, found as the demo finds its data (src/app/files.c)
 * from any working directory: beside the program or in the source tree
 * above it (bench/ripple-bench, build/i386/ripple-bench), then under the
 * working directory, then where `make install` puts it.  NULL when none
 * is there. */
static const char *look_default_show(char *buf, size_t len)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        for (int up = 0; up < 3; up++) {
            char *slash = strrchr(exe, '/');
            if (!slash)
                break;
            *slash = '\0';
            snprintf(buf, len, "%s/assets/%s", exe, LOOK_SHOW);
            if (access(buf, R_OK) == 0)
                return buf;
        }
    }
    snprintf(buf, len, "assets/%s", LOOK_SHOW);
    if (access(buf, R_OK) == 0)
        return buf;
    snprintf(buf, len, "%s/%s", RIPPLE_DATADIR, LOOK_SHOW);
    return access(buf, R_OK) == 0 ? buf : NULL;
}

/* The whole show once by default (and at most a few passes' worth). */
static long look_steps(const opts_t *o, const rpl_show_t *show)
{
    if (o->frames > 0)
        return o->frames;
    uint64_t n = rpl_show_length(show);
    return n > 0 && n < 100 * 60 * 60 ? (long)n : 60 * 60;
}

int look_bench(const opts_t *o)
{
    char found[PATH_MAX + 64];
    const char *path = o->show ? o->show : look_default_show(found, sizeof found);
    if (!path) {
        fprintf(stderr, "ripple-bench: --look: no default show (assets/%s beside the program, "
                        "here or in %s); give one with --show\n", LOOK_SHOW, RIPPLE_DATADIR);
        return EXIT_USAGE;
    }
    int w = o->w > 0 ? o->w : 640, h = o->h > 0 ? o->h : 480;
    int every = o->every > 0 ? o->every : 60;
    rpl_show_t *show = NULL;
    rpl_status st = rpl_show_read(path, &show);
    if (st != RPL_OK) {
        fprintf(stderr, "ripple-bench: %s\n", show ? rpl_show_error(show) : rpl_strerror(st));
        rpl_show_destroy(show);
        return st == RPL_ENOMEM ? 1 : EXIT_USAGE;
    }
    /* Every step that is a multiple of `every` is measured: fewer steps
     * would measure none and report a worst step never seen.  A short
     * show played whole is measured at its end when --every was not
     * chosen; otherwise the user asked for something that cannot be. */
    long steps = look_steps(o, show);
    if (steps < every) {
        if (o->every || o->frames > 0) {
            fprintf(stderr, "ripple-bench: --look: %ld steps (%s) are fewer than --every %d%s: "
                            "no step would be measured\n",
                    steps, o->frames > 0 ? "--frames" : "the show's length", every,
                    o->every ? "" : " (the default)");
            rpl_show_destroy(show);
            return EXIT_USAGE;
        }
        every = (int)steps;
    }
    rpl_sim_t *sim = NULL;
    rpl_show_player_t *p = NULL;
    int rc = 1;
    st = rpl_sim_create(w, h, o->seed, &sim);
    if (st == RPL_OK)
        st = rpl_show_player_create(show, o->seed, &p);
    if (st != RPL_OK) {
        fprintf(stderr, "ripple-bench: %s\n", p ? rpl_show_player_error(p)
                                             : sim ? rpl_sim_error(sim) : rpl_strerror(st));
        goto out;
    }
    if (o->threads > 0 && rpl_sim_set_threads(sim, o->threads) != RPL_OK)
        goto fail;
    if (o->wave) {
        rpl_wave_params_t wp = BENCH_WAVE;
        if (rpl_sim_set_model(sim, RPL_MODEL_WAVE, &wp) != RPL_OK)
            goto fail;
    }
    int strength = RPL_STRENGTH_ONE;
    double worst = 0, least = -1, sum_speckle = 0;
    long worst_at = 0, samples = 0;
    printf("# ripple-bench --look: %s, %dx%d, %s water, seed %llu, every %d steps\n", path, w,
           h, o->wave ? "wave" : "classic", (unsigned long long)o->seed, every);
    printf("# speckle: share of pixels whose offset (x or y) differs from its right or lower\n"
           "# neighbour's by more than %d px; offset: mean |offset| (px) over awake tiles\n",
           RPL_LOOK_SPECKLE_PX);
    printf("%6s %7s %8s %8s %7s\n", "step", "time", "speckle", "offset", "awake");
    for (long i = 1; i <= steps; i++) {
        if (rpl_show_player_tick(p, sim) != RPL_OK)
            goto fail;
        if (rpl_show_player_changed(p) & RPL_SHOW_STRENGTH)
            strength = rpl_show_player_view(p)->strength;
        rpl_sim_step(sim);
        if (i % every)
            continue;
        rpl_look_t look;
        st = rpl_look_measure(rpl_sim_heights(sim), w, h, strength, &look);
        if (st != RPL_OK) {
            fprintf(stderr, "ripple-bench: --look: %s\n", rpl_strerror(st));
            goto out;
        }
        printf("%6ld %6.2fs %7.2f%% %8.2f %6.0f%%\n", i, (double)i / 60, 100 * look.speckle,
               look.offset, 100 * look.awake);
        if (samples == 0 || look.speckle > worst)
            worst = look.speckle, worst_at = i;
        if (look.awake > 0 && (least < 0 || look.offset < least))
            least = look.offset;
        sum_speckle += look.speckle;
        samples++;
    }
    printf("# worst speckle %.2f%% at step %ld, mean %.2f%%; least offset where awake %.2f px\n",
           100 * worst, worst_at, samples ? 100 * sum_speckle / (double)samples : 0,
           least < 0 ? 0 : least);
    rc = 0;
    goto out;
fail:
    fprintf(stderr, "ripple-bench: --look: %s\n", rpl_sim_error(sim));
out:
    rpl_show_player_destroy(p);
    rpl_sim_destroy(sim);
    rpl_show_destroy(show);
    return rc;
}
