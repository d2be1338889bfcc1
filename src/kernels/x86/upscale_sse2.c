/* kernels/x86/upscale_sse2.c - SSE2 nearest-neighbour upscale: pixels doubled, tripled or quadrupled by unpacks and shuffles. */
#include <emmintrin.h>
#include <string.h>

#include "kernels/kernels.h"

/* One widened row of 32-bit pixels for scale 2, 3 or 4: four pixels in,
 * 4 * scale out per iteration; the rest by the scalar loop. */
static void row32(const uint32_t *s, uint32_t *o, int w, int scale)
{
    int x = 0;
    for (; x + 4 <= w; x += 4, s += 4) {
        const __m128i v = _mm_loadu_si128((const __m128i *)s);
        switch (scale) {
        case 2:
            _mm_storeu_si128((__m128i *)o, _mm_unpacklo_epi32(v, v));
            _mm_storeu_si128((__m128i *)(o + 4), _mm_unpackhi_epi32(v, v));
            o += 8;
            break;
        case 3: /* aaab bbcc cddd */
            _mm_storeu_si128((__m128i *)o, _mm_shuffle_epi32(v, _MM_SHUFFLE(1, 0, 0, 0)));
            _mm_storeu_si128((__m128i *)(o + 4), _mm_shuffle_epi32(v, _MM_SHUFFLE(2, 2, 1, 1)));
            _mm_storeu_si128((__m128i *)(o + 8), _mm_shuffle_epi32(v, _MM_SHUFFLE(3, 3, 3, 2)));
            o += 12;
            break;
        default:
            _mm_storeu_si128((__m128i *)o, _mm_shuffle_epi32(v, _MM_SHUFFLE(0, 0, 0, 0)));
            _mm_storeu_si128((__m128i *)(o + 4), _mm_shuffle_epi32(v, _MM_SHUFFLE(1, 1, 1, 1)));
            _mm_storeu_si128((__m128i *)(o + 8), _mm_shuffle_epi32(v, _MM_SHUFFLE(2, 2, 2, 2)));
            _mm_storeu_si128((__m128i *)(o + 12), _mm_shuffle_epi32(v, _MM_SHUFFLE(3, 3, 3, 3)));
            o += 16;
            break;
        }
    }
    for (; x < w; x++, s++)
        for (int i = 0; i < scale; i++)
            *o++ = *s;
}

/* Doubles a row of 16-bit pixels, eight at a time. */
static void row16x2(const uint16_t *s, uint16_t *o, int w)
{
    int x = 0;
    for (; x + 8 <= w; x += 8, s += 8, o += 16) {
        const __m128i v = _mm_loadu_si128((const __m128i *)s);
        _mm_storeu_si128((__m128i *)o, _mm_unpacklo_epi16(v, v));
        _mm_storeu_si128((__m128i *)(o + 8), _mm_unpackhi_epi16(v, v));
    }
    for (; x < w; x++, s++, o += 2)
        o[0] = o[1] = *s;
}

void rpl_upscale_sse2(const void *src, ptrdiff_t spitch, void *dst, ptrdiff_t dpitch, int w,
                      int h, int bytes, int scale)
{
    const int wide32 = bytes == 4 && scale >= 2 && scale <= 4, wide16 = bytes == 2 && scale == 2;
    if (!wide32 && !wide16) {
        rpl_upscale_c(src, spitch, dst, dpitch, w, h, bytes, scale);
        return;
    }
    const size_t row = (size_t)w * (size_t)bytes * (size_t)scale;
    for (int y = 0; y < h; y++) {
        const void *s = (const unsigned char *)src + (ptrdiff_t)y * spitch;
        unsigned char *d = (unsigned char *)dst + (ptrdiff_t)y * scale * dpitch;
        if (wide32)
            row32(s, (uint32_t *)(void *)d, w, scale);
        else
            row16x2(s, (uint16_t *)(void *)d, w);
        for (int i = 1; i < scale; i++)
            memcpy(d + (ptrdiff_t)i * dpitch, d, row);
    }
}
