/* kernels/side_light.h - the side view's kernels' caustic light at a column: the scalar rule (kernels.h). */
#ifndef RPL_SIDE_LIGHT_H
#define RPL_SIDE_LIGHT_H

#include <stdint.h>

static inline unsigned rpl_side_light(const uint8_t *caus, const int8_t *warpv, int x, int c1x,
                                      int c1y, int c2x, int c2y)
{
    int v = warpv[x & 255];
    unsigned a1 = caus[((unsigned)(c1y + v) & 255) << 8 | ((unsigned)(x + c1x) & 255)];
    unsigned a2 = caus[((unsigned)(c2y - v) & 255) << 8 | ((unsigned)((x * 3 >> 2) + c2x) & 255)];
    return (a1 * a2 >> 8) + ((a1 + a2) >> 2);
}

#endif
