/* headless.c - libripple with no window and no other library: stones dropped, the water stepped, one frame drawn into memory.
 *
 *   cc -o headless headless.c $(pkg-config --cflags --libs ripple)
 *   ./headless [STEPS]       (prints the kernels used and how much the water moved)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <ripple.h>

enum { W = 160, H = 120 };

int main(int argc, char **argv)
{
    long steps = argc > 1 ? strtol(argv[1], NULL, 10) : 100;
    if (argc > 2 || steps < 1) {
        fprintf(stderr, "usage: headless [STEPS]\n");
        return 2;
    }

    static uint32_t picture[W * H], pixels[W * H];
    for (int i = 0; i < W * H; i++)
        picture[i] = 0xFF000000u | (uint32_t)(i % W) << 8 | (uint32_t)(i / W);

    rpl_sim_t *sim = NULL;
    rpl_backdrop_t *bd = NULL;
    rpl_renderer_t *ren = NULL;
    rpl_status st = rpl_sim_create(W, H, 1, &sim);
    if (st == RPL_OK)
        st = rpl_sim_drop(sim, W / 2, H / 2, 6, 600);
    if (st == RPL_OK)
        st = rpl_backdrop_create(picture, W, H, RPL_XRGB8888, &bd);
    if (st == RPL_OK)
        st = rpl_renderer_create(sim, &ren);
    if (st != RPL_OK) { /* a failed create still gives a handle that says why */
        fprintf(stderr, "headless: %s: %s\n", rpl_strerror(st),
                ren ? rpl_renderer_error(ren) : bd ? rpl_backdrop_error(bd) : rpl_sim_error(sim));
        return 1;
    }

    for (long n = 0; n < steps; n++)
        rpl_sim_step(sim);
    rpl_view_t view = {RPL_STRENGTH_ONE, 1};
    st = rpl_renderer_draw(ren, bd, pixels, W * 4, &view);
    if (st != RPL_OK) {
        fprintf(stderr, "headless: %s\n", rpl_renderer_error(ren));
        return 1;
    }

    /* the water has spread from the stone, and the frame shows it bent */
    const int16_t *h = rpl_sim_heights(sim);
    long moving = 0, bent = 0;
    for (int i = 0; i < W * H; i++) {
        moving += h[i] != 0;
        bent += pixels[i] != picture[i];
    }
    printf("headless: %llu steps on %s: %ld cells moving, %ld pixels bent\n",
           (unsigned long long)rpl_sim_steps(sim), rpl_kernels_name(rpl_sim_kernels(sim)), moving, bent);

    rpl_renderer_destroy(ren);
    rpl_backdrop_destroy(bd);
    rpl_sim_destroy(sim);
    return moving > 0 && bent > 0 ? 0 : 1;
}
