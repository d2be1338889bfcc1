/* kernels/kernels.h - the kernel table: one entry per instruction set, prototypes of every kernel. */
#ifndef RPL_KERNELS_H
#define RPL_KERNELS_H

#include "ripple.h"
#include "kernels/sqrt_x87.h" /* rpl_sqrt: the kernels' and the side renderer's */

/* Everything a refraction kernel needs for one frame; the area to draw is
 * given separately so a frame can be cut into bands and tiles. */
typedef struct rpl_refract_job {
    const int16_t *h;   /* current heights, w*hgt */
    const uint32_t *bg; /* background, w*hgt XRGB8888 (refract_xrgb8888) */
    void *fb;           /* framebuffer */
    ptrdiff_t pitch;    /* framebuffer row pitch in bytes, a multiple of the pixel size */
    int w, hgt;         /* field size, each >= RPL_DIM_MIN */
    int strength;       /* 0..RPL_STRENGTH_MAX */
    int shading;        /* 0 or 1 */
    /* the other formats (each kernel reads only its own; the rest may be NULL) */
    const uint16_t *bg16;  /* background, w*hgt RGB565 (refract_rgb565) */
    const uint8_t *bg8;    /* background, w*hgt palette indices (refract_index8) */
    const uint8_t *shade8; /* refract_index8 with shading: RPL_SHADE_LEVELS rows of
                            * 256 indices, any values (see ripple.h) */
    /* rows[k] = clamp(k, 0, hgt - 1) * w for k in [-RPL_ROW_PAD, hgt + RPL_ROW_PAD):
     * where source row y + dy starts, clamped, without a multiply or a
     * compare (made by rpl_refract_rows; the scalar kernels read it) */
    const int32_t *rows;
} rpl_refract_job_t;

/* The rows table's margin above and below the field: no height difference
 * reaches further (|h[a] - h[b]| <= RPL_HEIGHT_MAX - RPL_HEIGHT_MIN < 2^14),
 * nor does one scaled by a strength up to RPL_STRENGTH_ONE. */
#define RPL_ROW_PAD 16384
/* Entries of the table for a field hgt rows high. */
#define RPL_ROWS_LEN(hgt) ((size_t)(hgt) + 2 * RPL_ROW_PAD)
/* Fills t (RPL_ROWS_LEN(hgt) entries) and returns the job's rows: t + RPL_ROW_PAD. */
const int32_t *rpl_refract_rows(int32_t *t, int w, int hgt);

/*
 * Computes the next step of the cells x in [x0, x1), y in [y0, y1) into
 * `prev` in place:
 *   prev[i] = clamp(n - (n >> 5)),  n = ((l + r + u + d) >> 1) - prev[i]
 * Callers keep 1 <= x0 <= x1 <= w-1 and 1 <= y0 <= y1 <= h-1.  Returns
 * nonzero if any computed cell is nonzero (0 for an empty area).
 */
typedef int (*rpl_step_fn)(int16_t *prev, const int16_t *cur, int w,
                           int x0, int x1, int y0, int y1);

/*
 * The damped wave equation's step (ripple.h, "wave models") in fixed
 * point: the coefficients of one field, made once from its parameters.
 * The cells x in [x0, x1), y in [y0, y1) get, into `prev` in place,
 *   s = a*cur[i] + b*prev[i] + c*(l + r + u + d)           (int32)
 *   n = (s + (s > 0 ? rp : rn)) >> RPL_WAVE_SHIFT         (arithmetic: floor)
 *   prev[i] = clamp(n - ((n * m) >> 8))
 * Callers keep a + b + 4c = 2^RPL_WAVE_SHIFT, a >= 0, c >= 0,
 * -2^RPL_WAVE_SHIFT <= b < 2^RPL_WAVE_SHIFT, -2^RPL_WAVE_SHIFT <= rp <= 0,
 * 0 <= rn < 2^RPL_WAVE_SHIFT and 0 <= m <= 256 (rpl_wave_info makes them
 * so).  With heights in the contract, |s| <= 3 * 2^26 + 2^13, so s fits
 * int32 with room to spare, |n| <= 24576 fits int16, and every coefficient
 * fits int16 (a <= 2^14): SIMD paths multiply int16 pairs into int32 sums
 * (pmaddwd) and get the same bits.  Same area rules and return value as
 * rpl_step_fn.
 */
typedef struct rpl_wave_coef {
    int a, b, c; /* weights of the cell, its previous height and its neighbours */
    int rp, rn;  /* rounding: added to positive sums, and to the others */
    int m;       /* attenuation: n -= (n * m) >> 8 */
} rpl_wave_coef_t;

typedef int (*rpl_step_wave_fn)(int16_t *prev, const int16_t *cur, int w, int x0, int x1,
                                int y0, int y1, const rpl_wave_coef_t *k);

/* Renders the pixels x in [x0, x1), y in [y0, y1), borders included;
 * callers keep 0 <= x0 <= x1 <= w and 0 <= y0 <= y1 <= hgt. */
typedef void (*rpl_refract_fn)(const rpl_refract_job_t *job, int x0, int x1,
                               int y0, int y1);

/* Nearest-neighbour upscale of w x h pixels of `bytes` (1, 2 or 4) bytes
 * by a whole factor: each becomes a scale x scale block (rpl_upscale
 * checks the arguments). */
typedef void (*rpl_upscale_fn)(const void *src, ptrdiff_t spitch, void *dst, ptrdiff_t dpitch,
                               int w, int h, int bytes, int scale);

/*
 * The side view's deep water, one row (core/side/side_shade.c): pixels x
 * in [x0, x1) of out, where the gradient's entry is one for the row and
 * nothing darkens.  For each x:
 *   sx = x + ((rd[x] + wob[(x + phase) & 255]) >> 16)      (arithmetic)
 *   add = light[(x + lx) & 255] * cw >> 8   (the caustics' light, 0..255)
 *   per channel c of src[sx]: min(255, ((c * inva + p) >> 8) + a),
 *   p = pr, pg, pb and a = add * 200 >> 8, add, add * 230 >> 8 for red,
 *   green, blue; alpha 255.
 * Callers keep 0 <= sx < w (the row's length, any of whose pixels a kernel
 * may read) for every x, 0 <= inva <= 256,
 * p >= 0 and 255 * inva + max(pr, pg, pb) <= 65535, 0 <= cw <= RPL_SIDE_CW_MAX;
 * wob holds 512 + 32 entries with wob[i] = wob[i & 255], light 256 + 32
 * with light[i] = light[i & 255] (a kernel reads a run of columns' light
 * at once).  Then every step fits 16 bits, as the scalar rule
 * (kernels/side_deep_c.c) says.
 */
#define RPL_SIDE_CW_MAX 192

typedef struct rpl_side_deep_job {
    const uint32_t *src;  /* the scene's row, XRGB8888 */
    uint32_t *out;        /* the frame's row */
    const int32_t *rd;    /* by column: the refraction's shift, 1/65536 px */
    const int32_t *wob;   /* the shimmer's shift by (x + phase) & 255, 1/65536 px */
    const uint8_t *light; /* the caustics' light by (x + lx) & 255 */
    int phase;            /* 0..255 */
    int lx;               /* 0..255 */
    int inva, pr, pg, pb, cw; /* the gradient's entry */
    int w;                /* the scene row's length */
} rpl_side_deep_job_t;

typedef void (*rpl_side_deep_fn)(const rpl_side_deep_job_t *job, int x0, int x1);

/*
 * The side view's water near its surface, one row y (core/side/side_shade.c):
 * pixels x in [x0, x1) of out that lie 5 or more rows under their column's
 * surface (d = y - ys[x] >= 5); the others (above it, and the foam) are
 * left as they are.  With D = RPL_SIDE_DEPTHS and, for each such x:
 *   e  = te[min(d, D - 1)]: refr = e & 2047, ew = e >> 11 & 511, dk = e >> 20 & 511
 *   dg = d < 16 ? d + (shift[x] * d >> 4) : y - gbase[x], clamped to [0, D - 1]
 *   pb = tbg[dg] & 0xFFFF, pg = tbg[dg] >> 16, pr = tr[dg] & 0xFFFF,
 *   cw = tr[dg] >> 16, inva = tia[dg]
 *   sx = x + ((sfx[x] * refr + wob[(x + phase) & 255] * ew) >> 16), clamped to [0, w - 1]
 *   add as for the deep water (with cw), k = 256 - (dcol[x] * dk >> 8)
 *   per channel: min(255, (((c * inva + p) >> 8) + a) * k >> 8), alpha 255.
 * Callers keep every table entry's inva, p, cw as for the deep water,
 * dk <= 256, 0 <= dcol[x] <= 256, |sfx[x]|, |shift[x]| and |wob[i]| under
 * 32768, y - gbase[x] and ys[x] within +-2^30; wob (raw, 1/256 px) and
 * light as for the deep water.  Every step then fits 16 bits
 * where the rule (kernels/side_shallow_c.c) says so.
 *
 * The foam, the same row (side_foam): the pixels 0 <= d < 5 under their
 * column's surface, the others left as they are.  Each is first shaded
 * as above (e = te[d], dg = d + (shift[x] * d >> 4) clamped), every
 * channel c then taken to min(255, c) and whitened by the foam:
 *   fa = clamp(fwq[x] - 256 * d, 0, 256) * 220 >> 8, and for d = 0
 *        fa += (256 - fa) * 60 >> 8 (the very line is brightest)
 *   s  = light[(x + lx) & 255] >> 3 (a sparkle along it)
 *   c  = (c * (256 - fa) + t * fa) >> 8 with t = min(255, 236 + s),
 *        min(255, 250 + s), 255 for red, green, blue
 * and the surface's own row (d = 0) is anti-aliased over the scene's
 * pixel o = src[x] by its share under water, cov[x] (0..256):
 *   c  = (o * (256 - cov[x]) + c * cov[x]) >> 8.
 * Callers keep the shallow water's ranges and fwq[x] within +-2^30.
 */
#define RPL_SIDE_DEPTHS 512

typedef struct rpl_side_shallow_job {
    const uint32_t *src;  /* the scene's row, w pixels */
    uint32_t *out;        /* the frame's row */
    const int32_t *ys, *shift, *gbase, *sfx, *dcol; /* by column */
    const int32_t *fwq, *cov; /* by column, for the foam: its width (1/256 px), the top's cover */
    const uint32_t *te, *tbg, *tr, *tia;            /* by depth, D entries each */
    const int32_t *wob;   /* the shimmer by (x + phase) & 255, 1/256 px */
    const uint8_t *light; /* the caustics' light by (x + lx) & 255 */
    int phase, y, w;
    int lx;               /* 0..255 */
} rpl_side_shallow_job_t;

typedef void (*rpl_side_shallow_fn)(const rpl_side_shallow_job_t *job, int x0, int x1);

/*
 * A droplet of the side view (core/side/side_shade.c), pixels x in
 * [x0, x1) of one row, in doubles: dx = x + 0.5 - cx, the coverage
 * cv = clamp(rad + 0.5 - sqrt(dx * dx + dy * dy), 0, 1); where cv > 0 the
 * highlight hl = clamp(1 - sqrt((dx + rad * 0.35)^2 + (dy + rad * 0.35)^2)
 * / rad, 0, 1) gives the colour (150 + 105 hl, 214 + 41 hl, 255)
 * (truncated), blended over the pixel by (int)(alpha * cv) / 256 per
 * channel, alpha 255; elsewhere the pixel is left.  The scalar rule
 * (kernels/side_drop_c.c) is the order of the operations.  0 < alpha <= 235.
 */
typedef struct rpl_side_drop_job {
    uint32_t *row;
    double cx, dy; /* dy: the row's centre y + 0.5 less the droplet's */
    double rad;
    int alpha;
} rpl_side_drop_job_t;

typedef void (*rpl_side_drop_fn)(const rpl_side_drop_job_t *job, int x0, int x1);

/* One refraction kernel per framebuffer format (rpl_format), each writing
 * its pixels natively from a background in that format. */
struct rpl_kernels {
    const char *name;
    rpl_step_fn step;
    rpl_refract_fn refract_xrgb8888;
    rpl_refract_fn refract_rgb565;
    rpl_refract_fn refract_index8;
    rpl_upscale_fn upscale;
    rpl_step_wave_fn step_wave; /* the wave model's step (wave_<isa>.c) */
    rpl_side_deep_fn side_deep; /* the side view's deep water (side_deep_<isa>.c) */
    rpl_side_shallow_fn side_shallow; /* and near its surface (side_shallow_<isa>.c) */
    rpl_side_shallow_fn side_foam;    /* and its foam (side_foam_<isa>.c) */
    rpl_side_drop_fn side_drop;       /* its droplets (side_drop_<isa>.c) */
};

int rpl_step_c(int16_t *prev, const int16_t *cur, int w, int x0, int x1, int y0, int y1);
int rpl_step_wave_c(int16_t *prev, const int16_t *cur, int w, int x0, int x1, int y0, int y1,
                    const rpl_wave_coef_t *k);
void rpl_refract_xrgb8888_c(const rpl_refract_job_t *job, int x0, int x1, int y0, int y1);
void rpl_refract_rgb565_c(const rpl_refract_job_t *job, int x0, int x1, int y0, int y1);
void rpl_refract_index8_c(const rpl_refract_job_t *job, int x0, int x1, int y0, int y1);
void rpl_upscale_c(const void *src, ptrdiff_t spitch, void *dst, ptrdiff_t dpitch, int w, int h,
                   int bytes, int scale);
void rpl_side_deep_c(const rpl_side_deep_job_t *job, int x0, int x1);
void rpl_side_shallow_c(const rpl_side_shallow_job_t *job, int x0, int x1);
void rpl_side_foam_c(const rpl_side_shallow_job_t *job, int x0, int x1);
void rpl_side_drop_c(const rpl_side_drop_job_t *job, int x0, int x1);

/* The SIMD kernels, in kernels/x86/: step_<isa>.c and wave_<isa>.c on the
 * template rows_tpl.h, refract_<format>_<isa>.c, one per format on the
 * template refract_<isa>_tpl.h (mmx, sse2, avx2), and the side view's
 * side_{deep,shallow,foam}_<isa>.c.  Each step kernel leaves
 * areas narrower than its vector to its scalar rule (rpl_step_c,
 * rpl_step_wave_c). */
#if defined(RPL_HAVE_MMX)
int rpl_step_mmx(int16_t *prev, const int16_t *cur, int w, int x0, int x1, int y0, int y1);
int rpl_step_wave_mmx(int16_t *prev, const int16_t *cur, int w, int x0, int x1, int y0, int y1,
                      const rpl_wave_coef_t *k);
void rpl_refract_xrgb8888_mmx(const rpl_refract_job_t *job, int x0, int x1, int y0, int y1);
void rpl_refract_rgb565_mmx(const rpl_refract_job_t *job, int x0, int x1, int y0, int y1);
void rpl_refract_index8_mmx(const rpl_refract_job_t *job, int x0, int x1, int y0, int y1);
void rpl_side_deep_mmx(const rpl_side_deep_job_t *job, int x0, int x1);
void rpl_side_shallow_mmx(const rpl_side_shallow_job_t *job, int x0, int x1);
void rpl_side_foam_mmx(const rpl_side_shallow_job_t *job, int x0, int x1);
#endif
#if defined(RPL_HAVE_SSE2)
int rpl_step_sse2(int16_t *prev, const int16_t *cur, int w, int x0, int x1, int y0, int y1);
int rpl_step_wave_sse2(int16_t *prev, const int16_t *cur, int w, int x0, int x1, int y0, int y1,
                       const rpl_wave_coef_t *k);
void rpl_refract_xrgb8888_sse2(const rpl_refract_job_t *job, int x0, int x1, int y0, int y1);
void rpl_refract_rgb565_sse2(const rpl_refract_job_t *job, int x0, int x1, int y0, int y1);
void rpl_refract_index8_sse2(const rpl_refract_job_t *job, int x0, int x1, int y0, int y1);
void rpl_upscale_sse2(const void *src, ptrdiff_t spitch, void *dst, ptrdiff_t dpitch, int w,
                      int h, int bytes, int scale);
void rpl_side_deep_sse2(const rpl_side_deep_job_t *job, int x0, int x1);
void rpl_side_shallow_sse2(const rpl_side_shallow_job_t *job, int x0, int x1);
void rpl_side_foam_sse2(const rpl_side_shallow_job_t *job, int x0, int x1);
#endif
#if defined(RPL_HAVE_AVX2)
int rpl_step_avx2(int16_t *prev, const int16_t *cur, int w, int x0, int x1, int y0, int y1);
int rpl_step_wave_avx2(int16_t *prev, const int16_t *cur, int w, int x0, int x1, int y0, int y1,
                       const rpl_wave_coef_t *k);
void rpl_refract_xrgb8888_avx2(const rpl_refract_job_t *job, int x0, int x1, int y0, int y1);
void rpl_refract_rgb565_avx2(const rpl_refract_job_t *job, int x0, int x1, int y0, int y1);
void rpl_refract_index8_avx2(const rpl_refract_job_t *job, int x0, int x1, int y0, int y1);
void rpl_side_deep_avx2(const rpl_side_deep_job_t *job, int x0, int x1);
void rpl_side_shallow_avx2(const rpl_side_shallow_job_t *job, int x0, int x1);
void rpl_side_foam_avx2(const rpl_side_shallow_job_t *job, int x0, int x1);
void rpl_side_drop_avx2(const rpl_side_drop_job_t *job, int x0, int x1);
#endif

/* The ARM NEON kernels, in kernels/arm/: step_neon.c and wave_neon.c on
 * the template rows_tpl.h, refract_<format>_neon.c on refract_neon_tpl.h,
 * side_{deep,shallow,foam}_neon.c on side_neon.h.
 * Built for AArch64 (where NEON is always there) and for ARMv7 with
 * -mfpu=neon for these files alone, the rest of the core without it. */
#if defined(RPL_HAVE_NEON)
int rpl_step_neon(int16_t *prev, const int16_t *cur, int w, int x0, int x1, int y0, int y1);
int rpl_step_wave_neon(int16_t *prev, const int16_t *cur, int w, int x0, int x1, int y0, int y1,
                       const rpl_wave_coef_t *k);
void rpl_refract_xrgb8888_neon(const rpl_refract_job_t *job, int x0, int x1, int y0, int y1);
void rpl_refract_rgb565_neon(const rpl_refract_job_t *job, int x0, int x1, int y0, int y1);
void rpl_refract_index8_neon(const rpl_refract_job_t *job, int x0, int x1, int y0, int y1);
void rpl_side_deep_neon(const rpl_side_deep_job_t *job, int x0, int x1);
void rpl_side_shallow_neon(const rpl_side_shallow_job_t *job, int x0, int x1);
void rpl_side_foam_neon(const rpl_side_shallow_job_t *job, int x0, int x1);
#endif

/* CPU features: from CPUID on x86 (kernels/x86/cpu.c), from the kernel's
 * auxiliary vector on ARM (kernels/arm/cpu.c), 0 elsewhere; read on the
 * first call, the same value after; any thread may call. */
enum {
    RPL_CPU_MMX = 1u << 0,
    RPL_CPU_SSE = 1u << 1,
    RPL_CPU_SSE2 = 1u << 2,
    RPL_CPU_AVX2 = 1u << 3, /* and the OS saves the YMM state */
    RPL_CPU_NEON = 1u << 4  /* Advanced SIMD: always on AArch64, HWCAP_NEON on ARMv7 */
};
unsigned rpl_cpu_features(void);

#endif
