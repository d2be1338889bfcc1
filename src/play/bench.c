/* play/bench.c - the timedemo's scenes, named and versioned: the one table the window demo and the web page both read. */
#include <stdio.h>
#include <string.h>

#include "play/play.h"

/* The newest version of a name before its older ones, so that a bare
 * name's first match is its newest and a list of names reads in that
 * order.  What changes a scene's play or its CRC gives it a new version
 * here, never a changed meaning of an old one. */
static const play_bench_scene_t bench_scenes[] = {
    { "busy", 2,
      "the pool, classic water: the autopilot's smooth stones and rain from seed 1 (the default)",
      PLAY_BENCH_POOL, RPL_MODEL_CLASSIC, RPL_SURFACE_SPRINGS, 0, PLAY_STONES_SMOOTH, NULL, 0 },
    { "wave", 2, "the same stones and rain on the wave model's water (--model wave)",
      PLAY_BENCH_POOL, RPL_MODEL_WAVE, RPL_SURFACE_SPRINGS, 0, PLAY_STONES_SMOOTH, NULL, 0 },
    { "show", 2,
      "the pool playing the default show in time with the music (assets/shows/default.show), "
      "its sound mixed, not played",
      /* the show lays its own stones; the play's stay as show-1 has always had them */
      PLAY_BENCH_POOL, RPL_MODEL_CLASSIC, RPL_SURFACE_SPRINGS, 1, PLAY_STONES_CLASSIC,
      "default.show", 0 },
    { "side", 3,
      "the side view on springs (--scene side): a body dropped every 1/4 s, 24 at most; "
      "its CRC takes in the last frame's picture",
      PLAY_BENCH_SIDE, RPL_MODEL_CLASSIC, RPL_SURFACE_SPRINGS, 0, PLAY_STONES_SMOOTH, NULL, 1 },
    { "side-waves", 3,
      "the same drops on analytic waves (--scene side --surface waves)",
      PLAY_BENCH_SIDE, RPL_MODEL_CLASSIC, RPL_SURFACE_WAVES, 0, PLAY_STONES_SMOOTH, NULL, 1 },
    /* the scenes before smooth stones, kept so that old reports compare */
    { "busy", 1, "busy with the flat-disc stones of the 1990s, as reports before busy-2 played it",
      PLAY_BENCH_POOL, RPL_MODEL_CLASSIC, RPL_SURFACE_SPRINGS, 0, PLAY_STONES_CLASSIC, NULL, 0 },
    { "wave", 1, "wave with the flat-disc stones, as reports before wave-2 played it",
      PLAY_BENCH_POOL, RPL_MODEL_WAVE, RPL_SURFACE_SPRINGS, 0, PLAY_STONES_CLASSIC, NULL, 0 },
    /* the show before it kept time with the music, its text kept apart */
    { "show", 1, "the default show before the music (assets/shows/show-1.show), as reports "
                 "before show-2 played it",
      PLAY_BENCH_POOL, RPL_MODEL_CLASSIC, RPL_SURFACE_SPRINGS, 1, PLAY_STONES_CLASSIC,
      "show-1.show", 0 },
    /* the side view's scene whose CRC was the state alone, kept so that old
     * reports compare: the same drops and state, drawn by today's renderer
     * (since side-3 its caustics loop and the CRC covers the picture) */
    { "side", 2, "side with a CRC of the state alone, as reports before side-3 played it",
      PLAY_BENCH_SIDE, RPL_MODEL_CLASSIC, RPL_SURFACE_SPRINGS, 0, PLAY_STONES_SMOOTH, NULL, 0 },
};
#define BENCH_SCENES (sizeof bench_scenes / sizeof bench_scenes[0])

/* Versions that cannot be played again, and why. */
static const struct {
    const char *name, *why;
} retired[] = {
    { "side-1", "side-1 moved its bodies with each platform's C library maths (its CRC differed "
                "from one system to the next) and is retired: side-2 plays the same drops with "
                "the maths every platform shares" },
    { "side-waves-1", "side-waves-1 moved its bodies with each platform's C library maths (its CRC "
                      "differed from one system to the next) and is retired: side-waves-3 plays "
                      "the same drops with the maths every platform shares" },
    { "side-waves-2", "side-waves-2 summed its waves with a sine a term, worked out in full, "
                      "and is retired: side-waves-3 plays the same drops with the sines read from "
                      "a table (within 5e-6), in a fifth of the instructions" },
};

const char *play_bench_scene_retired(const char *name)
{
    for (size_t i = 0; name && i < sizeof retired / sizeof retired[0]; i++)
        if (!strcmp(name, retired[i].name))
            return retired[i].why;
    return NULL;
}

const play_bench_scene_t *play_bench_scene_at(size_t i)
{
    return i < BENCH_SCENES ? &bench_scenes[i] : NULL;
}

const play_bench_scene_t *play_bench_scene_find(const char *name)
{
    const play_bench_scene_t *newest = NULL;
    for (size_t i = 0; name && i < BENCH_SCENES; i++) {
        const play_bench_scene_t *b = &bench_scenes[i];
        size_t n = strlen(b->name);
        char ver[16];
        snprintf(ver, sizeof ver, "-%d", b->version);
        if (strncmp(name, b->name, n) != 0)
            continue;
        if (!strcmp(name + n, ver))
            return b;
        if (!name[n] && (!newest || b->version > newest->version))
            newest = b;
    }
    return newest;
}
