/* core/render/upscale.c - nearest-neighbour upscale by a whole factor (--scale), through the kernel table. */
#include <stdint.h>

#include "kernels/kernels.h"
#include "ripple/render.h"

rpl_status rpl_upscale(const rpl_kernels_t *k, const void *src, ptrdiff_t spitch, void *dst,
                       ptrdiff_t dpitch, int w, int h, int bytes, int scale)
{
    if (!src || !dst || w <= 0 || h <= 0 || scale < 1 || scale > RPL_UPSCALE_MAX ||
        (bytes != 1 && bytes != 2 && bytes != 4))
        return RPL_EINVAL;
    const int64_t sw = (int64_t)w * bytes, dw = sw * scale;
    if (spitch < sw || dpitch < dw || spitch % bytes || dpitch % bytes ||
        (uintptr_t)src % (uintptr_t)bytes || (uintptr_t)dst % (uintptr_t)bytes)
        return RPL_EINVAL;
    if (!k && rpl_kernels_find(NULL, &k) != RPL_OK)
        return RPL_EINVAL;
    k->upscale(src, spitch, dst, dpitch, w, h, bytes, scale);
    return RPL_OK;
}
