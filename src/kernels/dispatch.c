/* kernels/dispatch.c - the table of kernel paths and the choice among them, made from CPUID on x86 and the auxiliary vector on ARM. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/kernels.h"
#include "ripple_support.h"

/* One row per path, in ascending order of preference: "auto" takes the
 * last one this CPU runs.  A path joins the table only in builds that
 * compile it (the RPL_HAVE_* macros come from the Makefile).
 *
 * Refraction kernels per format: XRGB8888, RGB565, INDEX8.  Every SIMD
 * path has its own kernels of all three, one file each
 * (kernels/x86/refract_{xrgb8888,rgb565,index8}_{mmx,sse2,avx2}.c) on one
 * template per instruction set (refract_{mmx,sse2,avx2}_tpl.h); with no
 * gather, each reads its texels by scalar loads.  test_paths compares
 * every path with "c" in all three formats, bit for bit.  The upscale
 * (--scale) has a scalar and an SSE2 kernel.  The wave model's step
 * (kernels/wave_c.c, kernels/x86/wave_{mmx,sse2,avx2}.c) has one per path.
 * The side view's water, deep, near the surface and its foam
 * (kernels/side_{deep,shallow,foam}_c.c,
 * kernels/x86/side_{deep,shallow,foam}_{mmx,sse2,avx2}.c) has one per path.
 *
 * ARM has one SIMD path, "neon" (kernels/arm/, files *_neon.c): its step and wave
 * step on rows_tpl.h like the x86 ones, the side view's three
 * (kernels/arm/side_{deep,shallow,foam}_neon.c), the scalar upscale.
 * An ARM build holds "c" and "neon" only, an x86 build never "neon";
 * kernels/arm/cpu.c says whether the CPU runs it (always on AArch64, from
 * AT_HWCAP on ARMv7, whose core is built without NEON). */
static const struct path {
    unsigned needs; /* RPL_CPU_* bits */
    rpl_kernels_t k;
} paths[] = {
    { 0, { "c", rpl_step_c,
           rpl_refract_xrgb8888_c, rpl_refract_rgb565_c, rpl_refract_index8_c, rpl_upscale_c,
           rpl_step_wave_c, rpl_side_deep_c,
           rpl_side_shallow_c, rpl_side_foam_c, rpl_side_drop_c } },
#if defined(RPL_HAVE_MMX)
    /* Pentium MMX / II class */
    { RPL_CPU_MMX, { "mmx", rpl_step_mmx,
                     rpl_refract_xrgb8888_mmx, rpl_refract_rgb565_mmx, rpl_refract_index8_mmx,
                     rpl_upscale_c, rpl_step_wave_mmx, rpl_side_deep_mmx,
                     rpl_side_shallow_mmx, rpl_side_foam_mmx, rpl_side_drop_c } },
#endif
#if defined(RPL_HAVE_SSE2)
    { RPL_CPU_SSE2, { "sse2", rpl_step_sse2,
                      rpl_refract_xrgb8888_sse2, rpl_refract_rgb565_sse2, rpl_refract_index8_sse2,
                      rpl_upscale_sse2, rpl_step_wave_sse2, rpl_side_deep_sse2,
                      rpl_side_shallow_sse2, rpl_side_foam_sse2, rpl_side_drop_c } },
#endif
#if defined(RPL_HAVE_AVX2)
    { RPL_CPU_AVX2, { "avx2", rpl_step_avx2,
                      rpl_refract_xrgb8888_avx2, rpl_refract_rgb565_avx2, rpl_refract_index8_avx2,
                      /* an upscale is bound by memory: SSE2's is as fast */
                      rpl_upscale_sse2, rpl_step_wave_avx2, rpl_side_deep_avx2,
                      rpl_side_shallow_avx2, rpl_side_foam_avx2, rpl_side_drop_avx2 } },
#endif
#if defined(RPL_HAVE_NEON)
    /* Cortex-A7 / A53 class: Raspberry Pi 2 and later */
    { RPL_CPU_NEON, { "neon", rpl_step_neon,
                      rpl_refract_xrgb8888_neon, rpl_refract_rgb565_neon, rpl_refract_index8_neon,
                      rpl_upscale_c, rpl_step_wave_neon, rpl_side_deep_neon,
                      rpl_side_shallow_neon, rpl_side_foam_neon, rpl_side_drop_c } },
#endif
};

#define NPATHS (sizeof paths / sizeof paths[0])

/* Names of every path ripple knows, built here or not. */
static const char *const known[] = { "c", "mmx", "sse2", "avx2", "neon" };

rpl_status rpl_kernels_find(const char *name, const rpl_kernels_t **out)
{
    if (!out)
        return RPL_EINVAL;
    unsigned cpu = rpl_cpu_features(); /* CPUID or AT_HWCAP, read on the first call only */
    if (name == NULL || strcmp(name, "auto") == 0) {
        /* like libjpeg-turbo's JSIMD_FORCE*: a forced path for testing */
        const char *env = getenv("RIPPLE_SIMD");
        if (env && *env && strcmp(env, "auto") != 0)
            return rpl_kernels_find(env, out);
        for (size_t i = NPATHS; i-- > 0;)
            if ((paths[i].needs & cpu) == paths[i].needs) {
                *out = &paths[i].k;
                return RPL_OK;
            }
    }
    for (size_t i = 0; i < NPATHS; i++)
        if (strcmp(paths[i].k.name, name) == 0) {
            if ((paths[i].needs & cpu) != paths[i].needs)
                return RPL_ENOTSUP;
            *out = &paths[i].k;
            return RPL_OK;
        }
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strcmp(known[i], name) == 0)
            return RPL_ENOTSUP; /* known, but not in this build */
    return RPL_EINVAL;
}

const rpl_kernels_t *rpl_kernels_get(const char *name)
{
    const rpl_kernels_t *k = NULL;
    return rpl_kernels_find(name, &k) == RPL_OK ? k : NULL;
}

const char *rpl_kernels_name(const rpl_kernels_t *k)
{
    return k ? k->name : "none";
}

const char *rpl_kernels_known(int i)
{
    return i >= 0 && (size_t)i < sizeof known / sizeof known[0] ? known[i] : NULL;
}

int rpl_kernels_same_refract(const rpl_kernels_t *a, const rpl_kernels_t *b, rpl_format format)
{
    if (!a || !b)
        return 0;
    switch (format) {
    case RPL_XRGB8888:
        return a->refract_xrgb8888 == b->refract_xrgb8888;
    case RPL_RGB565:
        return a->refract_rgb565 == b->refract_rgb565;
    case RPL_INDEX8:
        return a->refract_index8 == b->refract_index8;
    }
    return 0;
}

void rpl_kernels_names(char *buf, size_t n)
{
    if (!buf || n == 0)
        return;
    size_t at = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof known / sizeof known[0] && at < n; i++) {
        int k = snprintf(buf + at, n - at, "%s%s", i ? ", " : "", known[i]);
        if (k < 0)
            break;
        at += (size_t)k;
    }
}
