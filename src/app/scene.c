/* app/scene.c - the switch between the demo's scenes: the pool at the start, --scene, Tab. */
#include <stdlib.h>

#include "app/app.h"

static const app_scene_ops *const scenes[] = {
    [APP_SCENE_POOL] = &app_pool_scene,
    [APP_SCENE_SIDE] = &app_side_scene,
};
#define SCENES ((int)(sizeof scenes / sizeof scenes[0]))

void app_scene_init(app_t *a)
{
    a->scene = scenes[APP_SCENE_POOL];
}

/* The scene shown from now on: made if it is not yet, then drawn whole
 * (the other one drew over the framebuffer meanwhile). */
static int show(app_t *a, const app_scene_ops *s, char **err)
{
    *err = NULL;
    int status = s->enter ? s->enter(a, err) : 0;
    if (status != 0)
        return status;
    a->scene = s;
    s->invalidate(a);
    app_note(a, s->hello);
    return 0;
}

int app_scene_start(app_t *a, int which, char **err)
{
    *err = NULL;
    if (which < 0 || which >= SCENES || scenes[which] == a->scene)
        return 0;
    return show(a, scenes[which], err);
}

void app_scene_next(app_t *a)
{
    const app_scene_ops *next = a->scene == scenes[APP_SCENE_POOL] ? scenes[APP_SCENE_SIDE]
                                                                   : scenes[APP_SCENE_POOL];
    char *err = NULL;
    if (show(a, next, &err) != 0) {
        app_note(a, err ? err : "cannot make the side scene");
        free(err);
    }
}

void app_scene_destroy(app_t *a)
{
    for (int i = 0; i < SCENES; i++)
        if (scenes[i]->destroy)
            scenes[i]->destroy(a);
}
