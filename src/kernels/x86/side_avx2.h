/* kernels/x86/side_avx2.h - what the side view's AVX2 kernels share: the scene's pixels of a row by permutes where they lie near. */
#ifndef RPL_SIDE_AVX2_H
#define RPL_SIDE_AVX2_H

#include <immintrin.h>
#include <stdint.h>

/* The scene's pixels at columns sx (each lane's), x the first lane's:
 * from the sixteen pixels about x by two permutes where every sx lies
 * among them and they lie in the row, else by a gather. */
static inline __m256i row_pixels(const uint32_t *src, int w, int x, __m256i sx)
{
    const __m256i idx = _mm256_sub_epi32(sx, _mm256_set1_epi32(x - 4));
    if (x >= 4 && x + 12 <= w && _mm256_testz_si256(idx, _mm256_set1_epi32(~15))) {
        const __m256i lo = _mm256_loadu_si256((const __m256i *)(const void *)(src + x - 4));
        const __m256i hi = _mm256_loadu_si256((const __m256i *)(const void *)(src + x + 4));
        return _mm256_blendv_epi8(_mm256_permutevar8x32_epi32(lo, idx),
                                  _mm256_permutevar8x32_epi32(hi, idx),
                                  _mm256_cmpgt_epi32(idx, _mm256_set1_epi32(7)));
    }
    return _mm256_i32gather_epi32((const int *)(const void *)src, sx, 4);
}

#endif
