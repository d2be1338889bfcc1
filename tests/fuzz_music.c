/* fuzz_music.c - libFuzzer target: any bytes through the score parser, and a valid score played for a moment by the synthesizer. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ripple.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Frames played of a valid score at the lowest rate: a few of its notes,
 * every instrument's filter and sends, for next to no time. */
#define FRAMES 4000

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rpl_music_t *m = NULL;
    rpl_status st = rpl_music_parse((const char *)data, size, "fuzz", &m);
    if (!m)
        return 0; /* out of memory */
    const char *err = rpl_music_error(m);
    if (st != RPL_OK) {
        /* a failure says where: "fuzz:LINE:COLUMN: message", and holds nothing */
        if (st != RPL_ENOMEM && (strncmp(err, "fuzz:", 5) != 0 || strlen(err) < 10 ||
                                 rpl_music_notes(m) != 0 || rpl_music_frames(m, 48000) != 0))
            __builtin_trap();
        rpl_music_destroy(m);
        return 0;
    }
    if (err[0] != '\0' || rpl_music_frames(m, RPL_SOUND_RATE_MIN) == 0)
        __builtin_trap();
    int bpm, spb, bpbar, steps;
    if (rpl_music_tempo(m, &bpm, &spb, &bpbar, &steps) != RPL_OK || steps < 1 ||
        (uint64_t)steps * 60 > (uint64_t)RPL_MUSIC_SECONDS_MAX * (uint64_t)bpm * (uint64_t)spb)
        __builtin_trap();
    rpl_sound_t *s = NULL;
    if (rpl_sound_create(RPL_SOUND_RATE_MIN, 1, &s) == RPL_OK && rpl_sound_set_music(s, m) == RPL_OK) {
        static int16_t buf[2 * FRAMES];
        if (rpl_sound_mix(s, buf, FRAMES) != RPL_OK)
            __builtin_trap();
        /* the limiter holds every sample inside the 16-bit range */
        for (int i = 0; i < 2 * FRAMES; i++)
            if (buf[i] == -32768)
                __builtin_trap();
        if (rpl_sound_music_position(s) >= rpl_music_frames(m, RPL_SOUND_RATE_MIN))
            __builtin_trap();
    }
    rpl_sound_destroy(s);
    rpl_music_destroy(m);
    return 0;
}
