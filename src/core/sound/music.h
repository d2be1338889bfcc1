/* core/sound/music.h - a score as the parser leaves it for the synthesizer: instruments as numbers, notes on a grid of steps (not part of the API). */
#ifndef RPL_CORE_SOUND_MUSIC_H
#define RPL_CORE_SOUND_MUSIC_H

#include <stdint.h>

#include "core/base/base.h"
#include "ripple/sound.h"

enum { WAVE_SINE, WAVE_TRIANGLE, WAVE_SAW, WAVE_SQUARE, WAVE_PULSE, WAVE_NOISE, WAVES };
enum { FILTER_OFF, FILTER_LP, FILTER_BP, FILTER_HP };

/* An instrument's settings, each checked into its range by the parser. */
typedef struct mus_inst {
    char name[RPL_MUSIC_NAME_MAX + 1];
    int wave;
    int width;            /* pulse: the high part, 1..99 % */
    int volume;           /* 0..100 % */
    int pan;              /* -100 (left) .. 100 (right) */
    int attack, decay, release; /* ms, 0..10000 (decay and release: time constants) */
    int sustain;          /* 0..100 % of the peak */
    int filter;
    int cutoff;           /* Hz, 20..20000 */
    int resonance;        /* 0..100 */
    int envmod;           /* Hz added to the cutoff at the envelope's peak, 0..20000 */
    int detune;           /* cents between the two oscillators, 0..100 (0: one oscillator) */
    int sweep;            /* semitones the pitch starts above the note, 0..48 */
    int sweep_ms;         /* time constant of the fall, 1..2000 */
    int echo, space;      /* sends to the echo and to the room, 0..100 % */
    int note;             /* the note of a hit ('x'), 0..127 */
} mus_inst_t;

/* A note: from step `step` for `len` steps, on track `track`. */
typedef struct mus_note {
    uint32_t step;
    uint16_t len;
    uint8_t track;
    uint8_t pitch;        /* MIDI note number: 60 is middle C, 69 the A of 440 Hz */
    uint8_t vel;          /* 1..100 */
} mus_note_t;

struct rpl_music {
    int ok;
    int bpm, spb, bpbar;  /* beats a minute, steps a beat, beats a bar */
    uint32_t steps;       /* the loop */
    int echo_steps, echo_feedback; /* the echo: its delay in steps, feedback 0..90 % */
    int room;             /* the room's size, 0..100 */
    int master;           /* 0..100 % */
    int ninst;
    mus_inst_t inst[RPL_MUSIC_INSTRUMENTS_MAX];
    int ntracks;
    uint8_t track_inst[RPL_MUSIC_TRACKS_MAX]; /* each track's instrument */
    int nnotes;
    mus_note_t *notes;    /* by step, then track */
    rpl_err_t err;
};

/* The frame at which step `step` starts at `rate` (rounded down). */
static inline uint64_t mus_step_frame(const rpl_music_t *m, uint64_t step, int rate)
{
    /* a step lasts rate * 60 / (bpm * spb) frames */
    return step * (uint64_t)rate * 60u / ((uint64_t)m->bpm * (uint64_t)m->spb);
}

/* The synthesizer playing a score at a rate (synth.c): a copy of the
 * score's notes and instruments, its voices, the echo and the room. */
typedef struct synth synth_t;
/* NULL when out of memory (the score is a valid one, the rate in range). */
synth_t *synth_create(const rpl_music_t *m, int rate);
void synth_destroy(synth_t *s);
/* Adds the next frame of the music to *l, *r and moves on a frame. */
void synth_frame(synth_t *s, int32_t *l, int32_t *r);
/* Frames into the loop. */
uint64_t synth_position(const synth_t *s);

#endif
