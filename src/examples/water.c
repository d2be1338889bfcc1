/* water.c - the smallest program on libripple: a window of water over a picture it draws itself.
 *
 *   cc -o water water.c $(pkg-config --cflags --libs ripple sdl2)
 *   ./water [--frames N]     (click to drop stones; Esc or closing the window quits)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <SDL.h>
#include <ripple.h>

enum { W = 480, H = 360 };

int main(int argc, char **argv)
{
    long frames = -1; /* -1: until the window is closed */
    if (argc == 3 && strcmp(argv[1], "--frames") == 0)
        frames = strtol(argv[2], NULL, 10);
    else if (argc != 1) {
        fprintf(stderr, "usage: water [--frames N]\n");
        return 2;
    }

    /* The picture: a checkerboard over a gradient, XRGB8888. */
    static uint32_t picture[W * H], pixels[W * H];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            uint32_t light = ((x / 40 + y / 40) % 2) ? 60 : 0;
            picture[y * W + x] = 0xFF000000u | (40 + light) << 16 |
                                 (90 + light + 100u * y / H) << 8 | (150 + 100u * x / W);
        }

    /* the water, the picture prepared, and a renderer that keeps `pixels`
     * up to date, redrawing only where the water moved */
    rpl_sim_t *sim = NULL;
    rpl_backdrop_t *bd = NULL;
    rpl_renderer_t *ren = NULL;
    rpl_status st = rpl_sim_create(W, H, 1, &sim);
    if (st == RPL_OK)
        st = rpl_backdrop_create(picture, W, H, RPL_XRGB8888, &bd);
    if (st == RPL_OK)
        st = rpl_renderer_create(sim, &ren);
    if (st != RPL_OK) { /* a failed create still gives a handle that says why */
        fprintf(stderr, "water: %s\n", ren ? rpl_renderer_error(ren)
                                       : bd ? rpl_backdrop_error(bd) : rpl_sim_error(sim));
        return 1;
    }
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        fprintf(stderr, "water: %s\n", SDL_GetError());
        return 1;
    }
    SDL_Window *win = SDL_CreateWindow("ripple " RPL_VERSION, SDL_WINDOWPOS_CENTERED,
                                       SDL_WINDOWPOS_CENTERED, W, H, 0);
    /* The frame ripple draws, as an SDL surface to copy onto the window's. */
    SDL_Surface *frame = SDL_CreateRGBSurfaceWithFormatFrom(pixels, W, H, 32, W * 4,
                                                            SDL_PIXELFORMAT_RGB888);
    if (!win || !frame || !SDL_GetWindowSurface(win)) {
        fprintf(stderr, "water: %s\n", SDL_GetError());
        return 1;
    }

    for (int i = 0; i < 5; i++) /* a few stones to start with */
        if (rpl_sim_drop(sim, 60 + 90 * i, 80 + 50 * (i % 3), 6, 600) != RPL_OK)
            fprintf(stderr, "water: %s\n", rpl_sim_error(sim));
    rpl_view_t view = {RPL_STRENGTH_ONE, 1};
    int quit = 0;
    for (long n = 0; !quit && n != frames; n++) {
        SDL_Event ev;
        while (SDL_PollEvent(&ev)) {
            if (ev.type == SDL_QUIT || (ev.type == SDL_KEYDOWN && ev.key.keysym.sym == SDLK_ESCAPE))
                quit = 1;
            else if (ev.type == SDL_MOUSEBUTTONDOWN &&
                     rpl_sim_drop(sim, ev.button.x, ev.button.y, 5, 400) != RPL_OK)
                fprintf(stderr, "water: %s\n", rpl_sim_error(sim));
        }
        rpl_sim_step(sim);
        if (rpl_renderer_draw(ren, bd, pixels, W * 4, &view) != RPL_OK) {
            fprintf(stderr, "water: %s\n", rpl_renderer_error(ren));
            return 1;
        }
        /* show only what the draw changed (a calm pool: nothing) */
        rpl_rect_t changed[64];
        SDL_Rect push[64];
        SDL_Surface *ws = SDL_GetWindowSurface(win);
        int k = rpl_renderer_changed(ren, changed, 64);
        for (int i = 0; i < k && k <= 64; i++) {
            SDL_Rect r = {changed[i].x, changed[i].y, changed[i].w, changed[i].h};
            push[i] = r;
            SDL_BlitSurface(frame, &r, ws, &push[i]);
            push[i] = r;
        }
        if (k > 64) { /* many: all of it */
            SDL_BlitSurface(frame, NULL, ws, NULL);
            SDL_UpdateWindowSurface(win);
        } else if (k > 0) {
            SDL_UpdateWindowSurfaceRects(win, push, k);
        }
        SDL_Delay(16);
    }

    SDL_FreeSurface(frame);
    SDL_DestroyWindow(win);
    SDL_Quit();
    rpl_renderer_destroy(ren);
    rpl_backdrop_destroy(bd);
    rpl_sim_destroy(sim);
    return 0;
}
