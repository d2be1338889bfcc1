/* fuzz_show.c - libFuzzer target: any bytes through the show parser (with its work budget), and a valid show played into a small field within it. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ripple.h"

/* A failed show gives a failed player: a handle that refuses. */
static int player_refused(const rpl_show_t *show)
{
    rpl_show_player_t *p = NULL;
    rpl_status st = rpl_show_player_create(show, 1, &p);
    int refused = st == RPL_ENOMEM || (st == RPL_EINVAL && p && rpl_show_player_tick(p, NULL) == RPL_EINVAL);
    rpl_show_player_destroy(p);
    return refused;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Steps played of a valid show: enough to reach most shows' loops on a
 * field small enough that a step costs next to nothing. */
#define TICKS_MAX 400

/* The stones a tick lays, counted as the work budget counts them. */
static void tally(void *user, int x, int y, int r, int w)
{
    (void)x, (void)y, (void)w;
    *(uint64_t *)user += (uint64_t)(2 * r + 1) * (uint64_t)(2 * r + 1) + RPL_SHOW_WORK_STONE;
}

static void check_field(const rpl_sim_t *sim)
{
    int w = rpl_sim_width(sim), h = rpl_sim_height(sim);
    const int16_t *c = rpl_sim_heights(sim);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int16_t v = c[(size_t)y * w + x];
            if (v < RPL_HEIGHT_MIN || v > RPL_HEIGHT_MAX)
                __builtin_trap();
            if ((x == 0 || y == 0 || x == w - 1 || y == h - 1) && v != 0)
                __builtin_trap(); /* the border stays 0 */
        }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rpl_show_t *show;
    rpl_status st = rpl_show_parse((const char *)data, size, "fuzz", &show);
    if (!show)
        return 0; /* out of memory */
    const char *err = rpl_show_error(show);
    if (st != RPL_OK) {
        /* a failure says where: "fuzz:LINE:COLUMN: message", and holds nothing */
        if (strncmp(err, "fuzz:", 5) != 0 || strlen(err) < 10 || rpl_show_events(show) != 0 ||
            !player_refused(show))
            __builtin_trap();
        rpl_show_destroy(show);
        return 0;
    }
    if (err[0] != '\0')
        __builtin_trap();
    /* a valid show is within the work budget */
    uint64_t work = rpl_show_work(show, NULL);
    if (work > (uint64_t)RPL_SHOW_WORK_MAX || (rpl_show_events(show) > 0 && work == 0))
        __builtin_trap();
    for (int i = 0; i < rpl_show_pictures(show); i++) {
        int line = 0, col = 0;
        const char *name = rpl_show_picture(show, i, &line, &col);
        if (!name || !name[0] || line < 2 || col < 1)
            __builtin_trap();
    }
    if (rpl_show_picture(show, rpl_show_pictures(show), NULL, NULL) != NULL)
        __builtin_trap();

    rpl_sim_t *sim = NULL;
    rpl_show_player_t *p = NULL;
    if (rpl_sim_create(24, 18, 7, &sim) == RPL_OK && rpl_show_player_create(show, 7, &p) == RPL_OK) {
        if (rpl_sim_set_threads(sim, 1) != RPL_OK)
            __builtin_trap();
        uint64_t len = rpl_show_length(show), laid = 0;
        rpl_sim_set_drop_hook(sim, tally, &laid);
        for (int i = 0; i < TICKS_MAX; i++) {
            laid = 0;
            /* a refused stone or wall is told, never silent */
            if (rpl_show_player_tick(p, sim) != RPL_OK && !*rpl_sim_error(sim) &&
                !*rpl_show_player_error(p))
                __builtin_trap();
            /* a tick's stones (on this field smaller than on the budget's,
             * or as large in px) are no more than the budget counted */
            if (laid > work)
                __builtin_trap();
            const rpl_show_view_t *v = rpl_show_player_view(p);
            if (v->strength < 0 || v->strength > RPL_STRENGTH_MAX || (v->light != 0 && v->light != 1) ||
                v->stone < 0 || v->stone > RPL_RADIUS_MAX || !v->picture)
                __builtin_trap();
            /* a looping show never runs past its length */
            if (rpl_show_loops(show) && rpl_show_player_time(p) > len)
                __builtin_trap();
            rpl_sim_step(sim);
            if (rpl_show_player_done(p) && (i > 40 || !v->rain_on))
                break;
        }
        check_field(sim);
    }
    rpl_show_player_destroy(p);
    rpl_sim_destroy(sim);
    rpl_show_destroy(show);
    return 0;
}
