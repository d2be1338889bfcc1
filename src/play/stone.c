/* play/stone.c - the walls drawn into the picture behind the pool as stone, once per change of the walls. */
#include <stddef.h>
#include <stdint.h>

#include "play/play.h"

/* A small fixed noise for the stone's grain, from the cell's place. */
static int grain(int x, int y)
{
    uint32_t h = (uint32_t)x * 0x9E3779B1u ^ (uint32_t)y * 0x85EBCA77u;
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 12;
    return (int)(h & 15) - 8;
}

static uint32_t rgb(int r, int g, int b)
{
    r = r < 0 ? 0 : r > 255 ? 255 : r;
    g = g < 0 ? 0 : g > 255 ? 255 : g;
    b = b < 0 ? 0 : b > 255 ? 255 : b;
    return 0xFF000000u | (uint32_t)r << 16 | (uint32_t)g << 8 | (uint32_t)b;
}

/* The walls on the picture px as grey-brown stone with a bevel: a
 * light rim where open water lies above or to the left, a dark one where
 * it lies below or to the right (the light comes from the top left, as
 * the water's shading's does), and a soft shadow on the water just below
 * and to the right of a wall. */
void play_walls_paint(uint32_t *px, const uint8_t *m, int w, int h)
{
    play_walls_paint_rect(px, m, w, h, 0, 0, w, h);
}

void play_walls_paint_rect(uint32_t *px, const uint8_t *m, int w, int h, int x0, int y0, int x1,
                           int y1)
{
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++) {
            size_t i = (size_t)y * (size_t)w + (size_t)x;
            int up = y > 0 && !m[i - (size_t)w], left = x > 0 && !m[i - 1];
            int down = y + 1 < h && !m[i + (size_t)w], right = x + 1 < w && !m[i + 1];
            if (!m[i]) {
                /* open water in a wall's shadow: darkened by a quarter */
                int shade = (y > 0 && m[i - (size_t)w]) || (x > 0 && m[i - 1]);
                if (shade) {
                    uint32_t p = px[i];
                    px[i] = rgb((int)((p >> 16) & 0xFF) * 3 / 4, (int)((p >> 8) & 0xFF) * 3 / 4,
                                (int)(p & 0xFF) * 3 / 4);
                }
                continue;
            }
            int g = grain(x, y) + grain(x / 4, y / 4) / 2;
            if (up || left)
                px[i] = rgb(214 + g / 2, 204 + g / 2, 184 + g / 2);
            else if (down || right)
                px[i] = rgb(40 + g, 36 + g, 32 + g);
            else
                px[i] = rgb(88 + g, 82 + g, 74 + g);
        }
}
