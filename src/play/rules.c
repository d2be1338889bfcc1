/* play/rules.c - the play's sizes for a field: the size unit, the rain, the stones' range, the wave keys' steps. */
#include "play/play.h"

int play_unit(int w, int h)
{
    int unit = (w < h ? w : h) / 240;
    return unit < 1 ? 1 : unit;
}

rpl_rain_t play_rain(int w, int h)
{
    int unit = play_unit(w, h);
    return (rpl_rain_t){ .per_kilostep = PLAY_RAIN_PER_KILOSTEP, .rmin = unit, .rmax = 2 * unit,
                         .wmin = PLAY_RAIN_WEIGHT_MIN, .wmax = PLAY_RAIN_WEIGHT_MAX };
}

rpl_rain_t play_rain_smooth(int w, int h)
{
    int side = w < h ? w : h;
    int rmin = (side * PLAY_RAIN_BUMP_RMIN + 500) / 1000, rmax = (side * PLAY_RAIN_BUMP_RMAX + 500) / 1000;
    rmin = rmin < 1 ? 1 : rmin > RPL_RADIUS_MAX ? RPL_RADIUS_MAX : rmin;
    rmax = rmax < rmin ? rmin : rmax > RPL_RADIUS_MAX ? RPL_RADIUS_MAX : rmax;
    return (rpl_rain_t){ .per_kilostep = PLAY_RAIN_PER_KILOSTEP, .rmin = rmin, .rmax = rmax,
                         .wmin = (side * PLAY_RAIN_BUMP_WMIN + 240) / 480,
                         .wmax = (side * PLAY_RAIN_BUMP_WMAX + 240) / 480 };
}

int play_stone_size(int r)
{
    return r < PLAY_STONE_MIN ? PLAY_STONE_MIN : r > PLAY_STONE_MAX ? PLAY_STONE_MAX : r;
}

rpl_wave_params_t play_wave_nudge(rpl_wave_params_t p, int speed, int viscosity)
{
    if (speed)
        p.speed = speed > 0 ? p.speed * 1.1 : p.speed / 1.1;
    if (viscosity > 0)
        p.viscosity = p.viscosity * p.dt < 0.001 ? 0.001 / p.dt : p.viscosity * 1.5;
    else if (viscosity < 0)
        p.viscosity = p.viscosity * p.dt <= 0.001 ? 0 : p.viscosity / 1.5;
    return p;
}
