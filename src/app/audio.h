/* app/audio.h - the drips' sound and the music: to the audio device in a window, or into a WAV file (--audio-out). */
#ifndef APP_AUDIO_H
#define APP_AUDIO_H

#include <stdint.h>

#include "app/app.h"

/* One step's worth (1/60 s) of sound per simulation step.  app_audio_open
 * makes the mixer, hooks it to the field's drops and opens --audio-out
 * (checked before the run: a failure now is the run's, EXIT_FAILURE with
 * *err); app_audio_device opens the sound device in a
 * window, quietly going without when there is none; app_audio_step mixes
 * a step's sound after each step; app_audio_frame keeps the device fed
 * between steps (pause, a slow frame); the M key toggles it (U the
 * music alone);
 * app_audio_close closes the device (before SDL quits); app_audio_finish
 * puts the WAV file in place (0, or EXIT_FAILURE with *err); app_audio_free
 * abandons what is left. */
int app_audio_open(app_t *a, char **err);
void app_audio_device(app_t *a);
void app_audio_step(app_t *a);
void app_audio_frame(app_t *a);
void app_audio_toggle(app_t *a);
/* The music alone on or off (the U key); M and --mute are over it. */
void app_audio_music_toggle(app_t *a);
/* A drip for something other than the pool's stones (the side scene's splashes). */
void app_audio_drip(app_t *a, int x, int y, int radius, int weight);
void app_audio_close(app_t *a);
int app_audio_finish(app_t *a, char **err);
void app_audio_free(app_t *a);
/* The most steps of sound a WAV file holds (4 GB). */
uint64_t app_audio_max_steps(void);

#endif
