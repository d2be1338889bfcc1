/* app/model.c - the water's rule in the demo: --model and the wave settings applied at the start, W to switch, Z X V B to change the wave's speed and viscosity live. */
#include <stdio.h>

#include "app/app.h"

int app_model_start(app_t *a, char **err)
{
    /* a snapshot's wave settings stand unless a flag gave some */
    const rpl_wave_params_t *p = rpl_sim_wave_params(a->sim);
    if (p && !a->o.wave_set)
        a->o.wave = *p;
    if (a->o.model_set && rpl_sim_set_model(a->sim, a->o.model, &a->o.wave) != RPL_OK) {
        *err = app_format("bad wave settings: %s", rpl_sim_error(a->sim));
        return -1;
    }
    return 0;
}

void app_model_text(const app_t *a, char *buf, size_t len)
{
    rpl_wave_info_t info;
    if (rpl_sim_model(a->sim) != RPL_MODEL_WAVE || rpl_wave_info(&a->o.wave, &info) != RPL_OK)
        snprintf(buf, len, "classic water");
    else
        snprintf(buf, len, "wave k %.3f  u*dt %.3f", info.k, info.ut);
}

/* New wave settings, if the core takes them: a refused change leaves the
 * water as it was, and the note says why. */
static void try_wave(app_t *a, rpl_wave_params_t p, const char *what, double v)
{
    rpl_wave_info_t info;
    char msg[APP_NOTE_MAX];
    if (rpl_wave_info(&p, &info) != RPL_OK) {
        snprintf(msg, sizeof msg, "%s %.4g refused:\n%s", what, v, info.why);
        app_note(a, msg);
        return;
    }
    a->o.wave = p;
    int wave = rpl_sim_model(a->sim) == RPL_MODEL_WAVE;
    if (wave)
        rpl_sim_set_model(a->sim, RPL_MODEL_WAVE, &p);
    snprintf(msg, sizeof msg, "%s %.4g: k %.3f  u*dt %.4f%s", what, v, info.k, info.ut,
             wave ? "" : "  (W: wave water)");
    app_note(a, msg);
}

void app_model_key(app_t *a, int key)
{
    rpl_wave_params_t p = a->o.wave;
    switch (key) {
    case 'w': {
        int wave = rpl_sim_model(a->sim) != RPL_MODEL_WAVE;
        if (wave && rpl_sim_set_model(a->sim, RPL_MODEL_WAVE, &a->o.wave) != RPL_OK) {
            char msg[APP_NOTE_MAX];
            snprintf(msg, sizeof msg, "wave water refused:\n%s", rpl_sim_error(a->sim));
            app_note(a, msg);
            return;
        }
        if (!wave)
            rpl_sim_set_model(a->sim, RPL_MODEL_CLASSIC, NULL);
        char msg[96];
        app_model_text(a, msg, sizeof msg);
        app_note(a, msg);
        break;
    }
    case 'z': case 'x':
        p = rpl_play_wave_nudge(p, key == 'x' ? 1 : -1, 0);
        try_wave(a, p, "wave speed", p.speed);
        break;
    case 'v': case 'b':
        p = rpl_play_wave_nudge(p, 0, key == 'b' ? 1 : -1);
        try_wave(a, p, "viscosity", p.viscosity);
        break;
    default:
        break;
    }
}
