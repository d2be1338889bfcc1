/* fuzz_snapshot.c - libFuzzer target: any bytes through the snapshot parser (RPL1 and RPL2), and a valid result loaded into a field. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ripple.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rpl_snapshot_t *snap;
    rpl_status st = rpl_snapshot_parse(data, size, &snap);
    int w, h;
    rpl_snapshot_size(snap, &w, &h);
    if (st == RPL_OK) {
        /* a snapshot that parses must load, step and render without complaint */
        rpl_sim_t *sim = NULL;
        if (rpl_sim_create(w, h, 1, &sim) == RPL_OK) {
            if (rpl_sim_set_snapshot(sim, snap) != RPL_OK)
                __builtin_trap();
            rpl_sim_step(sim);
            /* walls win: a wall cell holds 0 in both buffers after a step */
            const uint8_t *m = rpl_sim_walls(sim);
            for (size_t i = 0; m && i < (size_t)w * (size_t)h; i++)
                if (m[i] && (rpl_sim_heights(sim)[i] || rpl_sim_previous(sim)[i]))
                    __builtin_trap();
        }
        rpl_sim_destroy(sim); /* a failed one too */
    } else if (w != 0 || h != 0 || rpl_snapshot_error(snap)[0] == '\0') {
        __builtin_trap(); /* a failure must say why and give no size */
    }
    rpl_snapshot_destroy(snap);
    return 0;
}
