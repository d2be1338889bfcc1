/* app/play.c - the pool's play in the demo: made from the options, its show found and checked, the show's pictures found by name. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/app.h"
#include "app/sys.h"

#ifndef RIPPLE_DATADIR
#define RIPPLE_DATADIR "/usr/local/share/ripple"
#endif

/* A show of the demo's own (default.show, or a timedemo's): beside the
 * binary, in the working directory, or where `make install` puts it; NULL
 * if none is there. */
static const char *default_show(const char *file, char *buf, size_t len)
{
    char *base = SDL_GetBasePath();
    if (base) {
        snprintf(buf, len, "%sassets/shows/%s", base, file);
        SDL_free(base);
        if (rpl_path_readable(buf))
            return buf;
    }
    snprintf(buf, len, "assets/shows/%s", file);
    if (rpl_path_readable(buf))
        return buf;
    snprintf(buf, len, "%s/shows/%s", RIPPLE_DATADIR, file);
    return rpl_path_readable(buf) ? buf : NULL;
}

int app_show_open(app_t *a, rpl_show_t **show, char **err)
{
    *show = NULL;
    if (a->o.no_show) /* the timedemo's scenes but show-1 have it set */
        return 0;
    char buf[4096];
    const char *file = a->o.benchmark && a->o.bench && a->o.bench->show_file
                           ? a->o.bench->show_file : "default.show";
    const char *path = a->o.show ? a->o.show : default_show(file, buf, sizeof buf);
    if (!path)
        return 0; /* no default show installed: the autopilot plays */
    rpl_status st = rpl_show_read(path, show);
    if (st != RPL_OK) {
        *err = app_format("%s", *show ? rpl_show_error(*show) : rpl_strerror(st));
        return st == RPL_ENOMEM ? EXIT_FAILURE : EXIT_USAGE;
    }
    a->show_path = strdup(path);
    if (!a->show_path) {
        *err = NULL;
        return EXIT_FAILURE;
    }
    return 0;
}

/* Where a picture's name leads: "default" is the picture the demo started
 * with; another name is a file, relative to the show file's directory
 * unless it is absolute.  A new allocation (NULL if memory ran out). */
static char *picture_path(const app_t *a, const char *name)
{
    if (!strcmp(name, "default"))
        return strdup(a->image_path ? a->image_path : "");
    if (app_sys_is_absolute(name))
        return strdup(name);
    const char *slash = app_sys_last_sep(a->show_path);
    int dir = slash ? (int)(slash - a->show_path + 1) : 0;
    return app_format("%.*s%s", dir, a->show_path, name);
}

/* A picture command's name and place, to sort by name and then place. */
typedef struct pic {
    const char *name;
    int i;
} pic_t;

static int pic_cmp(const void *pa, const void *pb)
{
    const pic_t *x = pa, *y = pb;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->i > y->i) - (x->i < y->i);
}

int app_show_check(app_t *a, const char *image, char **err)
{
    const rpl_show_t *show = play_show(a->play);
    if (!show)
        return 0;
    a->image_path = strdup(image);
    if (!a->image_path) {
        *err = NULL;
        return EXIT_FAILURE;
    }
    /* each name once (sorted, n log n): the first command naming it */
    int n = rpl_show_pictures(show);
    pic_t *pics = malloc((n ? (size_t)n : 1) * sizeof *pics);
    unsigned char *again = calloc(n ? (size_t)n : 1, 1);
    if (!pics || !again) {
        free(pics);
        free(again);
        *err = NULL;
        return EXIT_FAILURE;
    }
    for (int i = 0; i < n; i++)
        pics[i] = (pic_t){ rpl_show_picture(show, i, NULL, NULL), i };
    qsort(pics, (size_t)n, sizeof *pics, pic_cmp);
    for (int k = 1; k < n; k++)
        if (!strcmp(pics[k].name, pics[k - 1].name))
            again[pics[k].i] = 1;
    free(pics);
    /* every picture the show names must load, before anything plays */
    for (int i = 0; i < n; i++) {
        int line, col;
        const char *name = rpl_show_picture(show, i, &line, &col);
        if (again[i] || !strcmp(name, "default"))
            continue;
        char *why = NULL, *path = picture_path(a, name);
        int status = app_picture_check(a, path, &why);
        free(path);
        if (status != 0) {
            *err = app_format("%s:%d:%d: picture '%s': %s", a->show_path, line, col, name,
                              why ? why : "out of memory");
            free(why);
            free(again);
            return status;
        }
    }
    free(again);
    return 0;
}

/* The show asks for a picture by name: loaded and handed to the pool, or
 * a note why not (the picture shown stays); the pool takes any nonzero
 * status as "not shown". */
static int on_picture(void *user, const char *name)
{
    app_t *a = user;
    char *err = NULL, *path = picture_path(a, name);
    int status = app_picture_load(a, path, &err);
    free(path);
    if (status != 0) {
        char *msg = app_format("picture '%s': %s", name, err ? err : "out of memory");
        app_note(a, msg ? msg : "picture: out of memory");
        free(msg);
    }
    free(err);
    return status;
}

static void on_note(void *user, const char *msg)
{
    app_note(user, msg);
}

int app_play_open(app_t *a, const rpl_kernels_t *kern, char **err)
{
    play_config_t cfg = {
        .w = a->o.w, .h = a->o.h, .seed = a->o.seed, .format = a->o.fmt, .kernels = kern,
        .rain = a->o.rain, .autopilot = a->o.autopilot,
        .note = on_note, .picture = on_picture, .user = a,
    };
    rpl_status st = play_create(&cfg, &a->play);
    if (st == RPL_OK) {
        if (a->o.stones_set)
            play_set(a->play, PLAY_STONES, a->o.stones);
        return 0;
    }
    *err = app_format("%s", play_error(a->play));
    return st == RPL_EINVAL ? EXIT_USAGE : EXIT_FAILURE;
}

void app_show_free(app_t *a)
{
    free(a->show_path);
    free(a->image_path);
    a->show_path = a->image_path = NULL;
}
