/* kernels/upscale_c.c - scalar nearest-neighbour upscale by a whole factor: the reference of the SIMD ones. */
#include <string.h>

#include "kernels/kernels.h"

/* Every source row becomes one widened row, copied scale - 1 times below. */
void rpl_upscale_c(const void *src, ptrdiff_t spitch, void *dst, ptrdiff_t dpitch, int w, int h,
                   int bytes, int scale)
{
    const size_t row = (size_t)w * (size_t)bytes * (size_t)scale;
    for (int y = 0; y < h; y++) {
        const unsigned char *s = (const unsigned char *)src + (ptrdiff_t)y * spitch;
        unsigned char *d = (unsigned char *)dst + (ptrdiff_t)y * scale * dpitch;
        switch (bytes) {
        case 4: {
            uint32_t *o = (uint32_t *)(void *)d;
            for (int x = 0; x < w; x++) {
                uint32_t p;
                memcpy(&p, s + (size_t)x * 4, 4);
                for (int i = 0; i < scale; i++)
                    *o++ = p;
            }
            break;
        }
        case 2: {
            uint16_t *o = (uint16_t *)(void *)d;
            for (int x = 0; x < w; x++) {
                uint16_t p;
                memcpy(&p, s + (size_t)x * 2, 2);
                for (int i = 0; i < scale; i++)
                    *o++ = p;
            }
            break;
        }
        default:
            for (int x = 0; x < w; x++)
                memset(d + (size_t)x * scale, s[x], (size_t)scale);
            break;
        }
        for (int i = 1; i < scale; i++)
            memcpy(d + (ptrdiff_t)i * dpitch, d, row);
    }
}
