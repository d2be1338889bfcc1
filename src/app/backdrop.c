/* app/backdrop.c - the picture behind the pool and the one backdrop made from it, with the walls drawn in as stone whenever they change; --walls and --edges. */
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
            rpl_status st = rpl_sim_set_walls(a->sim, mask);
            rc = st == RPL_OK ? 0 : st == RPL_ENOMEM ? EXIT_FAILURE : EXIT_USAGE;
            if (rc)
                *err = app_format("--walls: %s", rpl_sim_error(a->sim));
        }
        free(why);
        free(px);
        free(mask);
        if (rc != 0)
            return rc;
    }
    if (a->o.edges &&
        rpl_sim_set_edges(a->sim, strcmp(a->o.edges, "absorb") ? RPL_EDGES_REFLECT
                                                                : RPL_EDGES_ABSORB) != RPL_OK) {
        *err = app_format("--edges: %s", rpl_sim_error(a->sim));
        return EXIT_USAGE;
    }
    app_backdrop_update(a);
    return 0;
}

/*
 * The backdrop shows the walls when it was made from the picture with
 * them drawn in, after the last change of the walls.  A new picture (a
 * show's, which replaces the backdrop, making the new one before freeing
 * the old, so the pointers differ) or a change of the walls draws them
 * again; without walls the bare picture is used.  Drawing is a new
 * backdrop, made once per change: nothing per frame.  The renderer sees
 * a new backdrop by itself and redraws every tile; the palette follows
 * it when the next frame is drawn.
 */
void app_backdrop_update(app_t *a)
{
    app_backdrop_t *p = &a->backdrop;
    uint64_t serial = rpl_sim_walls_serial(a->sim);
    if (p->bd == p->walls_bd && serial == p->walls_serial)
        return;
    const uint8_t *m = rpl_sim_walls(a->sim);
    if (!m && (p->bd != p->walls_bd || !p->walls_drawn)) {
        /* no walls, and the backdrop is the bare picture */
        p->walls_bd = p->bd;
        p->walls_serial = serial;
        p->walls_drawn = 0;
        return;
    }
    size_t n = (size_t)a->o.w * (size_t)a->o.h;
    uint32_t *px = malloc(n * 4);
    rpl_backdrop_t *bd = NULL;
    rpl_status st = RPL_ENOMEM;
    if (px) {
        memcpy(px, p->bg, n * 4);
        if (m)
            rpl_walls_paint(px, m, a->o.w, a->o.h);
        st = rpl_backdrop_create(px, a->o.w, a->o.h, a->o.fmt, &bd);
        free(px);
        if (st != RPL_OK) {
            rpl_backdrop_destroy(bd);
            bd = NULL;
        }
    }
    /* whatever happens, not again until the next change */
    p->walls_serial = serial;
    if (!bd) {
        char *msg = app_format("cannot draw the walls: %s", rpl_strerror(st));
        app_note(a, msg ? msg : "cannot draw the walls");
        free(msg);
        p->walls_bd = p->bd;
        return;
    }
    rpl_backdrop_destroy(p->bd);
    p->bd = bd;
    p->walls_bd = bd;
    p->walls_drawn = m != NULL;
}

int app_backdrop_open(app_t *a)
{
    a->backdrop.bg = malloc((size_t)a->o.w * (size_t)a->o.h * 4);
    return a->backdrop.bg ? 0 : -1;
}

int app_backdrop_load(app_t *a, const char *path, char **err)
{
    return app_load_picture(a, path, a->backdrop.bg, err);
}

int app_backdrop_make(app_t *a)
{
    if (rpl_backdrop_create(a->backdrop.bg, a->o.w, a->o.h, a->o.fmt, &a->backdrop.bd) != RPL_OK) {
        rpl_backdrop_destroy(a->backdrop.bd);
        a->backdrop.bd = NULL;
        return -1;
    }
    return 0;
}

/* A picture file fitted to the field in *px and its backdrop, both new;
 * NULL with *err (NULL: out of memory) and *status, the exit status it is
 * worth. */
static rpl_backdrop_t *prepare(const app_t *a, const char *path, uint32_t **px, char **err,
                               int *status)
{
    rpl_backdrop_t *bd = NULL;
    *px = path ? malloc((size_t)a->o.w * (size_t)a->o.h * 4) : NULL;
    *status = EXIT_FAILURE;
    *err = NULL;
    if (*px && (*status = app_load_picture(a, path, *px, err)) == 0) {
        rpl_status st = rpl_backdrop_create(*px, a->o.w, a->o.h, a->o.fmt, &bd);
        if (st != RPL_OK) {
            rpl_backdrop_destroy(bd);
            bd = NULL;
            *status = st == RPL_ENOMEM ? EXIT_FAILURE : EXIT_USAGE;
            *err = app_format("cannot prepare picture '%s': %s", path, rpl_strerror(st));
        }
    }
    if (!bd) {
        free(*px);
        *px = NULL;
    }
    return bd;
}

int app_backdrop_check(const app_t *a, const char *path, char **err)
{
    uint32_t *px;
    int status;
    rpl_backdrop_t *bd = prepare(a, path, &px, err, &status);
    rpl_backdrop_destroy(bd);
    free(px);
    return bd ? 0 : status;
}

int app_backdrop_replace(app_t *a, const char *path, char **err)
{
    uint32_t *px;
    int status;
    rpl_backdrop_t *bd = prepare(a, path, &px, err, &status);
    if (!bd)
        return status;
    rpl_backdrop_destroy(a->backdrop.bd);
    free(a->backdrop.bg);
    a->backdrop.bd = bd;
    a->backdrop.bg = px;
    return 0;
}

const rpl_backdrop_t *app_backdrop(const app_t *a)
{
    return a->backdrop.bd;
}

void app_backdrop_close(app_t *a)
{
    rpl_backdrop_destroy(a->backdrop.bd);
    free(a->backdrop.bg);
    a->backdrop.bd = NULL;
    a->backdrop.bg = NULL;
}
