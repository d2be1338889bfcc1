/* ripple/sound.h - libripple: the drip mixer and its synthesizer of music (part of ripple.h). */
#ifndef RIPPLE_SOUND_H
#define RIPPLE_SOUND_H

#include <stddef.h>
#include <stdint.h>

#include "base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- sound ------------------------------------------------------------ */

/*
 * A software mixer of drip sounds (opaque), with no audio device of its
 * own: the caller asks it for samples (interleaved stereo, signed 16-bit,
 * left first) and plays or saves them.  Tell it about stones with
 * rpl_sound_drip, typically from a drop hook (rpl_sim_set_drop_hook).
 *
 * A drip is a water drop's "plip": a sine whose pitch glides up towards
 * 7/4 of where it starts (a little under an octave; time constant 6 ms +
 * radius / 2, at most 24 ms), with a 1.5 ms attack and an exponential
 * decay, and a faint burst of filtered noise at its start (the splash).
 * Small stones sound higher and shorter: the pitch starts at
 * 8400 / (radius + 3) Hz (2.1 kHz for radius 1, 560 Hz for radius 12,
 * never under 200 Hz; +-8% at random) and the decay's time constant is
 * 20 + 2 * radius ms (at most 140); heavier stones are louder (as the
 * square root of the weight), and each is panned slightly by x (at most
 * 30% to a side).  The bed, off until rpl_sound_set_ambient turns it on,
 * is a soft low rumble of filtered noise (about -47 dBFS RMS, below
 * 400 Hz), slowly swelling and ebbing.  At most RPL_SOUND_VOICES drips sound at once: a new one steals
 * the quietest (the oldest among equals), which fades out over a few
 * milliseconds rather than stop; drips that arrive together are spread
 * over one sixtieth of a second.  Every start and end is enveloped, the
 * bed and the volume glide when changed, and a limiter followed by a
 * soft saturation keeps every sample strictly inside (-32767, 32767), so
 * there are neither clicks nor clipping however many stones fall.
 *
 * Exactness: all integer arithmetic, the random parts from the seed.  The
 * same rate, seed and sequence of calls (the same drips between the same
 * numbers of frames mixed) give the same samples on every machine, build
 * and compiler; how the frames are split among rpl_sound_mix calls does
 * not matter.
 *
 * A sound belongs to one thread at a time, like a field; guard it with a
 * lock if an audio callback mixes while another thread adds drips.
 */
typedef struct rpl_sound rpl_sound_t;

#define RPL_SOUND_RATE_MIN 8000   /* sample rates accepted, frames per second */
#define RPL_SOUND_RATE_MAX 192000
#define RPL_SOUND_VOICES 24       /* drips sounding at once, at most */
#define RPL_SOUND_VOLUME_ONE 256  /* full volume (the default) */

/* A silent mixer at sample_rate (RPL_SOUND_RATE_MIN..MAX) whose random
 * parts (pitch jitter, noise) come from seed, into *out (see the
 * constructor rule in ripple/base.h): RPL_EINVAL for a rate out of range,
 * RPL_ENOMEM. */
RPL_NODISCARD rpl_status rpl_sound_create(int sample_rate, uint64_t seed, rpl_sound_t **out);
void rpl_sound_destroy(rpl_sound_t *snd); /* NULL is fine */

/* Queues the drip of a stone of radius 1..RPL_RADIUS_MAX and weight
 * (its magnitude, at most 8192, sets the loudness; 0 is silent and
 * queues nothing) at x of a field field_w cells wide (x is clamped into
 * the field for the pan; y is not used yet).  It starts at the next frame
 * mixed (within 1/60 s when several come at once).  RPL_EINVAL for a NULL
 * sound, a radius out of range or field_w < 1, detail in
 * rpl_sound_error. */
RPL_NODISCARD rpl_status rpl_sound_drip(rpl_sound_t *snd, int x, int y, int radius, int weight,
                                        int field_w);

/* Renders the next `frames` frames (2 * frames int16 values, left then
 * right) into out and moves time on by as much.  frames 0 does nothing;
 * frames < 0, or a NULL out with frames > 0: RPL_EINVAL, out untouched. */
RPL_NODISCARD rpl_status rpl_sound_mix(rpl_sound_t *snd, int16_t *out, int frames);

/* The ambient bed on (1) or off (0); it fades in or out over half a
 * second. */
void rpl_sound_set_ambient(rpl_sound_t *snd, int on);
/* Master volume 0..RPL_SOUND_VOLUME_ONE (0 mutes), reached over 20 ms;
 * RPL_EINVAL out of range. */
RPL_NODISCARD rpl_status rpl_sound_set_volume(rpl_sound_t *snd, int volume);

/* The rate; drips sounding now (fading ones included); drips waiting to
 * start; frames mixed since creation.  0 for NULL. */
int rpl_sound_rate(const rpl_sound_t *snd);
int rpl_sound_voices(const rpl_sound_t *snd);
int rpl_sound_pending(const rpl_sound_t *snd);
uint64_t rpl_sound_frames(const rpl_sound_t *snd);
/* Detail of the last failure ("" if none). */
const char *rpl_sound_error(const rpl_sound_t *snd);

/* ---- music ------------------------------------------------------------ */

/*
 * A score (opaque): a loop of music for the mixer's synthesizer, read from
 * text.  The format ("ripple-music 1", docs/sound.md): a tempo, a few
 * instruments (an oscillator, an envelope, a filter, volume, pan and the
 * sends to the echo and the room), patterns of notes and drum hits on a
 * grid of steps, and the order in which they play; the whole plays as a
 * loop.  Limits: RPL_MUSIC_BYTES_MAX bytes of text, lines of
 * RPL_MUSIC_LINE_MAX bytes, RPL_MUSIC_INSTRUMENTS_MAX instruments,
 * RPL_MUSIC_PATTERNS_MAX patterns, RPL_MUSIC_TRACKS_MAX voices at once,
 * RPL_MUSIC_NOTES_MAX notes, a loop of at most RPL_MUSIC_SECONDS_MAX.
 * A failure is RPL_EFORMAT with "NAME:LINE:COLUMN: why" in
 * rpl_music_error, and the score holds nothing.
 */
typedef struct rpl_music rpl_music_t;

#define RPL_MUSIC_VERSION 1
#define RPL_MUSIC_BYTES_MAX (1L << 18)
#define RPL_MUSIC_LINE_MAX 1024
#define RPL_MUSIC_NAME_MAX 16
#define RPL_MUSIC_INSTRUMENTS_MAX 16
#define RPL_MUSIC_PATTERNS_MAX 64
#define RPL_MUSIC_TRACKS_MAX 24
#define RPL_MUSIC_NOTES_MAX 16384
#define RPL_MUSIC_SECONDS_MAX 600

/* Parses len bytes of text (name is for messages) into *out (the
 * constructor rule of ripple/base.h); reads the file at path. */
RPL_NODISCARD rpl_status rpl_music_parse(const char *text, size_t len, const char *name,
                                         rpl_music_t **out);
RPL_NODISCARD rpl_status rpl_music_read(const char *path, rpl_music_t **out);
void rpl_music_destroy(rpl_music_t *music); /* NULL is fine */
/* Detail of the failure ("" if none). */
const char *rpl_music_error(const rpl_music_t *music);
/* The loop's length in frames at sample_rate (the steps' starts rounded
 * down to whole frames); 0 for a failed score or a rate out of range. */
uint64_t rpl_music_frames(const rpl_music_t *music, int sample_rate);
/* Beats a minute, steps a beat, beats a bar, and steps in the loop, into
 * whichever pointers are not NULL; RPL_EINVAL for a failed score. */
RPL_NODISCARD rpl_status rpl_music_tempo(const rpl_music_t *music, int *bpm, int *steps_per_beat,
                                         int *beats_per_bar, int *steps);
/* Notes and hits in the loop; 0 for a failed score. */
int rpl_music_notes(const rpl_music_t *music);

/* The mixer plays music (a copy of it: the score may be destroyed after)
 * from its start, in a loop, mixed with the drips under the one limiter,
 * at the music volume last set (no glide: set it first to start silent);
 * NULL stops it.  RPL_EINVAL for a failed score, RPL_ENOMEM. */
RPL_NODISCARD rpl_status rpl_sound_set_music(rpl_sound_t *snd, const rpl_music_t *music);
/* The music's own volume 0..RPL_SOUND_VOLUME_ONE (0 silences the music,
 * the drips go on), reached over 20 ms; RPL_EINVAL out of range.  The
 * master volume (rpl_sound_set_volume) is over both. */
RPL_NODISCARD rpl_status rpl_sound_set_music_volume(rpl_sound_t *snd, int volume);
/* Frames into the music's loop (0 when there is none). */
uint64_t rpl_sound_music_position(const rpl_sound_t *snd);

#ifdef __cplusplus
}
#endif

#endif
