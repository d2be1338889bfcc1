/* app/side.h - the side view's scene as the demo holds it (side.c). */
#ifndef APP_SIDE_H
#define APP_SIDE_H

#include "app/app.h"

struct side_scene;

/* The side scene, for the timedemo (NULL before it is shown). */
struct side_scene *app_side_get(app_t *a);

#endif
