/* core/wave.c - the field's model: the classic rule or the damped wave equation, its parameters checked and turned into fixed-point coefficients. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/internal.h"

/*
 * Why calm water comes to exactly 0 with m >= 1 (alpha < 1), and why that
 * needs the attenuation: n = s >> 13 rounds towards minus infinity, so
 * the rule alone drifts small heights down, and a level patch of -1 is a
 * fixed point of it (a + b + 4c = 2^13: -2^13 >> 13 = -1), as a level pool
 * is of the wave equation.  The attenuation n -= (n * m) >> 8 takes at
 * least 1 off every negative n when m >= 1 (the product's floor is <= -1),
 * and the floor of the sum takes what is left of the positive ones, so no
 * small pattern survives: tests/test_wave.c brings random low water to
 * exactly 0 over a grid of k, u*t and alpha, down to m = 1, and checks
 * that the tiles then sleep.  With m = 0 nothing removes the last units;
 * such water may keep a residue (ripple.h says so).
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

    double r = p->speed * p->dt / p->spacing, k = r * r, ut = p->viscosity * p->dt;
    info->k = k;
    info->ut = ut;
    if (!(k <= 0.5 + K_EDGE_TOL))
        return refuse(info, "unstable: c*dt/d = %.4g is over 0.7071 (k = c^2 dt^2/d^2 = %.4g "
                      "must be at most 1/2)", r, k);
    if (!isfinite(ut))
        return refuse(info, "viscosity*dt = %g is too large", ut);
    int edge = k >= 0.5 - K_EDGE_TOL;
    if (edge)
        k = info->k = 0.5;
    long m = lround(256.0 * (1.0 - p->attenuation));
    double B = (ut - 2) / (ut + 2), C = 2 * k / (ut + 2);
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
    return RPL_OK;
}

rpl_status rpl_sim_set_model(rpl_sim_t *sim, rpl_model model, const rpl_wave_params_t *params)
{
    if (!sim)
        return RPL_EINVAL;
    if (model == RPL_MODEL_CLASSIC) {
        sim->model = RPL_MODEL_CLASSIC;
        return RPL_OK;
    }
    if (model != RPL_MODEL_WAVE)
        return rpl_fail(sim, RPL_EINVAL, "unknown model %d (classic %d, wave %d)", (int)model,
                        RPL_MODEL_CLASSIC, RPL_MODEL_WAVE);
    rpl_wave_info_t info;
    if (rpl_wave_info(params, &info) != RPL_OK)
        return rpl_fail(sim, RPL_EINVAL, "%s", info.why);
    sim->wave = *params;
    sim->coef = (rpl_wave_coef_t){ info.a, info.b, info.c, info.m };
    sim->wave_set = 1;
    sim->model = RPL_MODEL_WAVE;
    return RPL_OK;
}

rpl_model rpl_sim_model(const rpl_sim_t *sim)
{
    return sim ? sim->model : RPL_MODEL_CLASSIC;
}

const rpl_wave_params_t *rpl_sim_wave_params(const rpl_sim_t *sim)
{
    return sim && sim->wave_set ? &sim->wave : NULL;
}
