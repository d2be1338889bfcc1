/* core/render/render.h - the render room's insides shared by its files; not part of the API. */
#ifndef RPL_CORE_RENDER_H
#define RPL_CORE_RENDER_H

#include <stdint.h>

#include "core/base/error.h"
#include "ripple/render.h"

/* A background prepared for one format (core/render/backdrop.c; opaque in ripple.h). */
struct rpl_backdrop {
    int w, h;
    rpl_format format;
    unsigned id;          /* serial number, never 0: tells backdrops apart in a renderer's memory */
    void *px;             /* w*h pixels of the format */
    int colors;           /* INDEX8: palette entries in use */
    uint32_t palette[256];/* INDEX8 */
    uint8_t *shade;       /* INDEX8: RPL_SHADE_LEVELS * 256 */
    struct rpl_backdrop_edit *edit; /* INDEX8: kept for updates in place (NULL: none yet) */
    rpl_err_t err;
};

#endif
