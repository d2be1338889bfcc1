/* scene/rand.c - the side scene's seeded generator, for the level's layout and the scene's drops alike. */
#include "scene/internal.h"

uint64_t side_rand(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

double side_uniform(uint64_t *s, double lo, double hi)
{
    return lo + (hi - lo) * (double)(side_rand(s) >> 11) * (1.0 / 9007199254740992.0);
}
