/* app/model.c - the water's rule in the demo: --model and the wave settings applied at the start; W, Z X, V B played by the pool, their outcome in a note. */
#include <stdio.h>

#include "app/app.h"

int app_model_start(app_t *a, char **err)
{
    /* a snapshot's wave settings stand unless a flag gave some */
    rpl_sim_t *sim = play_sim(a->play);
    const rpl_wave_params_t *p = rpl_sim_wave_params(sim);
    if (p && !a->o.wave_set)
        a->o.wave = *p;
    play_set_wave(a->play, &a->o.wave);
    rpl_status st = a->o.model_set ? rpl_sim_set_model(sim, a->o.model, &a->o.wave) : RPL_OK;
    if (st != RPL_OK) {
        *err = app_format("bad wave settings: %s", rpl_sim_error(sim));
        return st == RPL_ENOMEM ? EXIT_FAILURE : EXIT_USAGE;
    }
    return 0;
}

void app_model_key(app_t *a, int key)
{
    char msg[APP_NOTE_MAX];
    if (play_key(a->play, key, msg, sizeof msg))
        app_note(a, msg);
}
