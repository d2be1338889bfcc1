/* core/side/side_fill.h - the bodies' fills drawn within a rectangle, for a scene that redraws only where something moved. */
#ifndef RPL_CORE_SIDE_FILL_H
#define RPL_CORE_SIDE_FILL_H

#include <stddef.h>
#include <stdint.h>

#include "ripple/side.h"

/* rpl_draw_polygon and rpl_draw_circle writing only the pixels inside
 * clip: those pixels are the bytes the whole fill writes there. */
void rpl_draw_polygon_in(uint32_t *px, ptrdiff_t pitch, int w, int h, const rpl_rect_t *clip,
                         const double *xy, int n, uint32_t fill, uint32_t edge, int shade);
void rpl_draw_circle_in(uint32_t *px, ptrdiff_t pitch, int w, int h, const rpl_rect_t *clip,
                        double cx, double cy, double r, uint32_t fill, uint32_t edge, int shade);

#endif
