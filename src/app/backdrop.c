/* app/backdrop.c - the pictures behind the pool, from their files to the pool that draws the walls into them; --walls and --edges. */
#include <stdlib.h>
#include <string.h>

#include "app/app.h"
#include "app/files.h"
#include "ripple_support.h"

/* A picture's cell is a wall where its luminance (Rec. 601 weights, in
 * 1/1000) is under half: dark is solid. */
static int dark(uint32_t px)
{
    unsigned r = (px >> 16) & 0xFF, g = (px >> 8) & 0xFF, b = px & 0xFF;
    return 299 * r + 587 * g + 114 * b < 1000u * 128;
}

int app_walls_start(app_t *a, char **err)
{
    if (a->o.walls) {
        size_t n = (size_t)a->o.w * (size_t)a->o.h;
        uint32_t *px = malloc(n * 4);
        uint8_t *mask = malloc(n);
        int rc = EXIT_FAILURE;
        char *why = NULL;
        if (!px || !mask) {
            *err = app_format("--walls: out of memory for a %dx%d mask", a->o.w, a->o.h);
        } else if ((rc = app_load_picture(a, a->o.walls, px, &why)) != 0) {
            *err = app_format("--walls: %s", why ? why : "out of memory");
        } else {
            for (size_t i = 0; i < n; i++)
                mask[i] = (uint8_t)dark(px[i]);
            rpl_status st = rpl_sim_set_walls(play_sim(a->play), mask);
            rc = st == RPL_OK ? 0 : st == RPL_ENOMEM ? EXIT_FAILURE : EXIT_USAGE;
            if (rc)
                *err = app_format("--walls: %s", rpl_sim_error(play_sim(a->play)));
        }
        free(why);
        free(px);
        free(mask);
        if (rc != 0)
            return rc;
    }
    rpl_sim_t *sim = play_sim(a->play);
    if (a->o.edges &&
        rpl_sim_set_edges(sim, strcmp(a->o.edges, "absorb") ? RPL_EDGES_REFLECT
                                                            : RPL_EDGES_ABSORB) != RPL_OK) {
        *err = app_format("--edges: %s", rpl_sim_error(sim));
        return EXIT_USAGE;
    }
    play_update(a->play); /* the walls drawn into the picture */
    return 0;
}

/* The picture file at path handed to the pool, shown (show) or only
 * checked; the loaders' exit status. */
static int picture(const app_t *a, play_t *shown, const char *path, char **err)
{
    uint32_t *px = NULL;
    int w = 0, h = 0;
    *err = NULL;
    int status = path ? app_load_pixels(path, &px, &w, &h, err) : EXIT_FAILURE;
    if (status != 0)
        return status;
    rpl_status st = shown ? play_set_picture(shown, px, w, h, (ptrdiff_t)w * 4)
                          : play_check_picture(a->play, px, w, h, (ptrdiff_t)w * 4);
    free(px);
    if (st == RPL_OK)
        return 0;
    *err = app_format("cannot prepare picture '%s': %s", path, rpl_strerror(st));
    return st == RPL_ENOMEM ? EXIT_FAILURE : EXIT_USAGE;
}

int app_picture_load(app_t *a, const char *path, char **err)
{
    return picture(a, a->play, path, err);
}

int app_picture_check(const app_t *a, const char *path, char **err)
{
    return picture(a, NULL, path, err);
}
