/* core/field/wave.c - the field's model: the classic rule or the damped wave equation, its parameters checked and turned into fixed-point coefficients. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/field/field.h"

/*
 * The rounding, and why calm water comes to exactly 0.  The step is one
 * int32 sum and one arithmetic shift; the sum carries a rounding term,
 * rp when it is positive and rn otherwise, chosen once with the
 * coefficients:
 *
 *   - a = 0 (k = 1/2, the classic rule's setting): none.  The sum is then
 *     a multiple of 2^12 and the shift's floor is exactly the classic
 *     rule's (l + r + u + d) >> 1, so the classic bytes come out.
 *   - a > 0 and alpha < 1 (m >= 1): a positive sum is taken one unit
 *     lower (rp = -2^13), so every nonzero height loses at least 1 a step
 *     (a negative n loses it to the attenuation's floor, m >= 1; a
 *     positive one to this).  With the floor alone, a cell whose own
 *     height counts (a > 0) turns slowly through its oscillation, and
 *     the floor and the attenuation then balance at small heights: zero-
 *     input limit cycles of amplitude up to about 20, which never die
 *     (found in 23 of 5376 random small-water runs, near k = 0.04 with
 *     u*t <= 0.01, even at alpha = 1 - 8/256).  With rp none was left in
 *     6000 random runs over the whole range of k, u*t and m >= 1 (all at
 *     rest by step 2200); tests/test_wave.c runs a grid of them to rest.
 *   - alpha = 1 (m = 0): nothing attenuates.  A floor's bias (half a
 *     unit a step, downwards, on average) would pile up into a sinking
 *     level, since a level pool is a fixed point and nothing pulls it
 *     back (a 200x150 pool with stones sank to a mean of -2300 in 6000
 *     steps), and rounding to nearest let small-k water wander to the
 *     height limits.  Rounding towards zero (rn = 2^13 - 1) never adds to
 *     a height: viscous water comes to rest (all but one of 63 settings
 *     with u > 0 in a grid, within 5000 steps; the one keeps a small
 *     cycle at u*t = 0.001), and water without viscosity keeps moving,
 *     within the height range.
 */

/* k within this of 1/2 is 1/2: c*t/d typed as 0.7071068 is the boundary. */
#define K_EDGE_TOL 1e-6
#define ONE (1 << RPL_WAVE_SHIFT)

static rpl_status refuse(rpl_wave_info_t *info, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static rpl_status refuse(rpl_wave_info_t *info, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(info->why, sizeof info->why, fmt, ap);
    va_end(ap);
    return RPL_EINVAL;
}

rpl_status rpl_wave_info(const rpl_wave_params_t *p, rpl_wave_info_t *info)
{
    if (!info)
        return RPL_EINVAL;
    memset(info, 0, sizeof *info);
    if (!p)
        return refuse(info, "no wave parameters (NULL)");
    const struct {
        const char *name;
        double v;
    } all[] = {
        {"speed", p->speed},     {"viscosity", p->viscosity},     {"spacing", p->spacing},
        {"dt", p->dt},           {"attenuation", p->attenuation},
    };
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (!isfinite(all[i].v))
            return refuse(info, "wave %s is not a finite number (%g)", all[i].name, all[i].v);
    if (p->speed <= 0)
        return refuse(info, "wave speed %g must be above 0", p->speed);
    if (p->spacing <= 0)
        return refuse(info, "grid spacing %g must be above 0", p->spacing);
    if (p->dt <= 0)
        return refuse(info, "time step dt %g must be above 0", p->dt);
    if (p->viscosity < 0)
        return refuse(info, "viscosity %g must not be negative", p->viscosity);
    if (!(p->attenuation > 0 && p->attenuation <= 1))
        return refuse(info, "attenuation %g is outside (0, 1]", p->attenuation);

    /* one operation a statement: each result is rounded to double (C11,
     * -std=c11), so x87 builds come to the same coefficients */
    double ct = p->speed * p->dt;
    double r = ct / p->spacing;
    double k = r * r;
    double ut = p->viscosity * p->dt;
    info->k = k;
    info->ut = ut;
    double k_hi = 0.5 + K_EDGE_TOL, k_lo = 0.5 - K_EDGE_TOL;
    if (!(k <= k_hi))
        return refuse(info, "unstable: c*dt/d = %.4g is over 0.7071 (k = c^2 dt^2/d^2 = %.4g "
                      "must be at most 1/2)", r, k);
    if (!isfinite(ut))
        return refuse(info, "viscosity*dt = %g is too large", ut);
    int edge = k >= k_lo;
    if (edge)
        k = info->k = 0.5;
    double lose = 1.0 - p->attenuation;
    long m = lround(256.0 * lose);
    double den = ut + 2, num = ut - 2, k2 = 2 * k;
    double B = num / den, C = k2 / den;
    long b = lround(B * ONE), c = lround(C * ONE);
    long cmax = (ONE - b) / 4; /* ONE - b >= 0: B < 1 */
    if (c > cmax)
        c = cmax;
    if (c < 1)
        return refuse(info, "k = %.3g with u*dt = %.3g leaves the neighbours no weight "
                      "(2k/(u*dt + 2) must be at least 1/%d): too slow or too viscous",
                      k, ut, 2 * ONE);
    long a = ONE - b - 4 * c;
    if ((edge || a == 0) && m == 0)
        return refuse(info, "c*dt/d = %.4g is at the edge of stability (k = 1/2): it needs an "
                      "attenuation below 1 (at most 0.998)", r);
    info->a = (int)a;
    info->b = (int)b;
    info->c = (int)c;
    info->m = (int)m;
    /* the rounding (see the top of this file) */
    info->rp = m == 0 || a == 0 ? 0 : -ONE;
    info->rn = m == 0 ? ONE - 1 : 0;
    return RPL_OK;
}

rpl_status rpl_sim_set_model(rpl_sim_t *sim, rpl_model model, const rpl_wave_params_t *params)
{
    if (!rpl_sim_usable(sim))
        return RPL_EINVAL;
    if (model == RPL_MODEL_CLASSIC) {
        sim->model = RPL_MODEL_CLASSIC;
        return RPL_OK;
    }
    if (model != RPL_MODEL_WAVE)
        return rpl_err_set(&sim->err, RPL_EINVAL, "unknown model %d (classic %d, wave %d)", (int)model,
                        RPL_MODEL_CLASSIC, RPL_MODEL_WAVE);
    rpl_wave_info_t info;
    if (rpl_wave_info(params, &info) != RPL_OK)
        return rpl_err_set(&sim->err, RPL_EINVAL, "%s", info.why);
    sim->wave = *params;
    sim->coef = (rpl_wave_coef_t){ info.a, info.b, info.c, info.rp, info.rn, info.m };
    sim->wave_set = 1;
    sim->model = RPL_MODEL_WAVE;
    return RPL_OK;
}

rpl_model rpl_sim_model(const rpl_sim_t *sim)
{
    return rpl_sim_usable(sim) ? sim->model : RPL_MODEL_CLASSIC;
}

const rpl_wave_params_t *rpl_sim_wave_params(const rpl_sim_t *sim)
{
    return rpl_sim_usable(sim) && sim->wave_set ? &sim->wave : NULL;
}
