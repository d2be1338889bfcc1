/* app/audio.c - the drips' sound and the music (assets/music/default.score): to the audio device in a window, or into a WAV file (--audio-out), one step's worth per simulation step. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/audio.h"
#include "app/files.h"
#include "app/sys.h"
#include "ripple_support.h"

#define AUDIO_RATE 48000
#define PER_STEP (AUDIO_RATE / STEP_HZ) /* 800 frames of sound a step */
/* The device's queue, in steps of sound: primed with LOW of silence, topped
 * up from the mixer when it runs under LOW (a pause, a slow frame), and a
 * quiet step is left out when it is over HIGH (the sound card's clock a
 * little slower than the loop's); over MAX a step is left out whatever it
 * holds.  About 35 to 100 ms of latency. */
#define QUEUE_LOW 2
#define QUEUE_HIGH 6
#define QUEUE_MAX 12
#define QUIET 64 /* a step whose samples all lie within this is "quiet" */

struct app_audio {
    rpl_sound_t *snd;
    int16_t buf[2 * PER_STEP];
    unsigned char bytes[4 * PER_STEP];
    /* the device (window mode, no --audio-out) */
    SDL_AudioDeviceID dev;
    int subsystem;     /* SDL's audio was started here */
    int muted;
    int music_off;     /* --music off, or U */
    int has_music;     /* the score was read */
    /* --audio-out */
    rpl_file_t *wav;
    uint64_t wav_frames;  /* written so far */
    uint64_t announced;   /* frames the header written first claims */
    int wav_full;         /* reached the 4 GB a WAV file can hold */
};

/* SDL's audio back ends (ALSA above all) print their own complaints when
 * there is no sound card; a missing device is no error here, so their
 * output is silenced while the device is opened and closed. */
static void on_drop(void *user, int x, int y, int radius, int weight)
{
    app_t *a = user;
    if (rpl_sound_drip(a->audio->snd, x, y, radius, weight, a->o.w) != RPL_OK)
        app_note(a, rpl_sound_error(a->audio->snd));
}

void app_audio_drip(app_t *a, int x, int y, int radius, int weight)
{
    if (a->audio && rpl_sound_drip(a->audio->snd, x, y, radius, weight, a->o.w) != RPL_OK)
        app_note(a, rpl_sound_error(a->audio->snd));
}

/* The frames of out as little-endian 16-bit samples, as WAV files hold them. */
static void to_le(unsigned char *b, const int16_t *s, int n)
{
    for (int i = 0; i < n; i++) {
        uint16_t u = (uint16_t)s[i];
        b[2 * i] = (unsigned char)u;
        b[2 * i + 1] = (unsigned char)(u >> 8);
    }
}

/* The most frames a WAV file holds (its sizes are 32-bit). */
uint64_t app_audio_max_steps(void)
{
    return (0xFFFFFFFFu - 36u) / 4 / PER_STEP;
}

/* The default score, silent from the start with --music off (U brings it
 * in, in time with the loop).  A score that cannot be read is told, and
 * the drips play alone. */
static void start_music(app_t *a, app_audio_t *au)
{
    char buf[4096];
    const char *path = app_find_asset("music/default.score", buf, sizeof buf);
    au->music_off = a->o.music_off;
    if (!path) {
        app_note(a, "no music: assets/music/default.score not found");
        return;
    }
    rpl_music_t *m = NULL;
    rpl_status st = rpl_music_read(path, &m);
    if (st != RPL_OK) {
        app_note(a, m ? rpl_music_error(m) : "no music: out of memory");
    } else if (rpl_sound_set_music_volume(au->snd, au->music_off ? 0 : RPL_SOUND_VOLUME_ONE) != RPL_OK ||
               rpl_sound_set_music(au->snd, m) != RPL_OK) {
        app_note(a, rpl_sound_error(au->snd));
    } else {
        au->has_music = 1;
    }
    rpl_music_destroy(m);
}

int app_audio_open(app_t *a, char **err)
{
    int want_device = !a->o.headless && !a->o.audio_out && !a->o.benchmark;
    if (!a->o.audio_out && !want_device)
        return 0;
    app_audio_t *au = calloc(1, sizeof *au);
    rpl_status st = RPL_ENOMEM;
    if (au)
        st = rpl_sound_create(AUDIO_RATE, a->o.seed, &au->snd);
    if (!au || st != RPL_OK) {
        if (au)
            rpl_sound_destroy(au->snd);
        free(au);
        *err = app_format("cannot start the sound: %s", rpl_strerror(st));
        return EXIT_FAILURE;
    }
    a->audio = au;
    rpl_sound_set_ambient(au->snd, 1);
    start_music(a, au);
    rpl_sim_set_drop_hook(play_sim(a->play), on_drop, a);
    if (a->o.audio_out) {
        st = rpl_file_open(a->o.audio_out, 0, &au->wav);
        if (st != RPL_OK) {
            *err = app_format("%s", au->wav ? rpl_file_error(au->wav) : rpl_strerror(st));
            return EXIT_FAILURE;
        }
        /* headless the length is known; in a window it is patched at the
         * end, or stays "unknown" on a pipe */
        au->announced = a->o.headless ? (uint64_t)a->o.frames * PER_STEP : UINT64_MAX;
        unsigned char hdr[RPL_SOUND_WAV_HEADER];
        if (rpl_sound_wav_header(hdr, AUDIO_RATE, au->announced) != RPL_OK) {
            *err = app_format("%s: no WAV header at %d Hz", a->o.audio_out, AUDIO_RATE);
            return EXIT_FAILURE;
        }
        if (fwrite(hdr, sizeof hdr, 1, rpl_file_stream(au->wav)) != 1) {
            *err = app_format("cannot write '%s': %s", a->o.audio_out, strerror(errno));
            return EXIT_FAILURE;
        }
    }
    return 0;
}

void app_audio_device(app_t *a)
{
    app_audio_t *au = a->audio;
    if (!au || a->o.audio_out)
        return;
    au->muted = a->o.mute;
    if (au->muted && rpl_sound_set_volume(au->snd, 0) != RPL_OK)
        au->muted = 0; /* refused: it plays */
    int saved = app_sys_quiet_stderr();
    if (SDL_InitSubSystem(SDL_INIT_AUDIO) == 0) {
        au->subsystem = 1;
        SDL_AudioSpec want, have;
        SDL_zero(want);
        want.freq = AUDIO_RATE;
        want.format = AUDIO_S16SYS;
        want.channels = 2;
        want.samples = 512; /* about 11 ms a buffer */
        au->dev = SDL_OpenAudioDevice(NULL, 0, &want, &have, 0); /* SDL converts if need be */
    }
    app_sys_loud_stderr(saved);
    if (!au->dev) {
        if (!a->o.mute)
            app_note(a, "no sound device: playing silently");
        return;
    }
    memset(au->buf, 0, sizeof au->buf);
    for (int i = 0; i < QUEUE_LOW; i++)
        SDL_QueueAudio(au->dev, au->buf, sizeof au->buf);
    SDL_PauseAudioDevice(au->dev, 0);
}

void app_audio_step(app_t *a)
{
    app_audio_t *au = a->audio;
    if (!au)
        return;
    if (rpl_sound_mix(au->snd, au->buf, PER_STEP) != RPL_OK)
        memset(au->buf, 0, sizeof au->buf); /* silence rather than the last step again */
    if (au->wav && !au->wav_full) {
        if (au->wav_frames + PER_STEP > app_audio_max_steps() * PER_STEP) {
            au->wav_full = 1;
            return;
        }
        to_le(au->bytes, au->buf, 2 * PER_STEP);
        fwrite(au->bytes, sizeof au->bytes, 1, rpl_file_stream(au->wav)); /* errors: at commit */
        au->wav_frames += PER_STEP;
    }
    if (au->dev) {
        Uint32 queued = SDL_GetQueuedAudioSize(au->dev) / sizeof au->buf;
        int quiet = 1;
        for (int i = 0; i < 2 * PER_STEP && quiet; i++)
            quiet = au->buf[i] >= -QUIET && au->buf[i] <= QUIET;
        if (queued > QUEUE_MAX || (queued > QUEUE_HIGH && quiet))
            return; /* the device is behind: drop this step, quietly if it can be */
        SDL_QueueAudio(au->dev, au->buf, sizeof au->buf);
    }
}

void app_audio_frame(app_t *a)
{
    app_audio_t *au = a->audio;
    if (!au || !au->dev)
        return;
    /* paused or slow: the sound goes on from the mixer (tails, the bed)
     * rather than the device running dry with a click */
    for (int i = 0; i < QUEUE_LOW && SDL_GetQueuedAudioSize(au->dev) < QUEUE_LOW * sizeof au->buf;
         i++) {
        if (rpl_sound_mix(au->snd, au->buf, PER_STEP) != RPL_OK ||
            SDL_QueueAudio(au->dev, au->buf, sizeof au->buf) != 0)
            break;
    }
}

void app_audio_toggle(app_t *a)
{
    app_audio_t *au = a->audio;
    if (!au || !au->dev) {
        app_note(a, a->o.audio_out ? "sound goes to the --audio-out file" : "no sound device");
        return;
    }
    au->muted = !au->muted;
    if (rpl_sound_set_volume(au->snd, au->muted ? 0 : RPL_SOUND_VOLUME_ONE) != RPL_OK)
        au->muted = !au->muted; /* refused: as it was, and the note says so */
    app_note(a, au->muted ? "sound off" : "sound on");
}

void app_audio_music_toggle(app_t *a)
{
    app_audio_t *au = a->audio;
    if (!au || !au->dev) {
        app_note(a, a->o.audio_out ? "sound goes to the --audio-out file" : "no sound device");
        return;
    }
    if (!au->has_music) {
        app_note(a, "no music");
        return;
    }
    au->music_off = !au->music_off;
    if (rpl_sound_set_music_volume(au->snd, au->music_off ? 0 : RPL_SOUND_VOLUME_ONE) != RPL_OK)
        au->music_off = !au->music_off;
    app_note(a, au->music_off ? "music off" : au->muted ? "music on (the sound is off: M)" : "music on");
}

void app_audio_close(app_t *a)
{
    app_audio_t *au = a->audio;
    if (!au)
        return;
    int saved = app_sys_quiet_stderr();
    if (au->dev)
        SDL_CloseAudioDevice(au->dev);
    if (au->subsystem)
        SDL_QuitSubSystem(SDL_INIT_AUDIO);
    app_sys_loud_stderr(saved);
    au->dev = 0;
    au->subsystem = 0;
}

int app_audio_finish(app_t *a, char **err)
{
    app_audio_t *au = a->audio;
    if (!au || !au->wav)
        return 0;
    FILE *f = rpl_file_stream(au->wav);
    if (f && au->announced != au->wav_frames && fseek(f, 0, SEEK_SET) == 0) {
        /* a file (or a device that seeks): the header gets the true length */
        unsigned char hdr[RPL_SOUND_WAV_HEADER];
        if (rpl_sound_wav_header(hdr, AUDIO_RATE, au->wav_frames) == RPL_OK)
            fwrite(hdr, sizeof hdr, 1, f);
    }
    rpl_status st = rpl_file_commit(au->wav);
    if (st != RPL_OK) {
        *err = app_format("%s", rpl_file_error(au->wav));
        return EXIT_FAILURE;
    }
    if (au->wav_full) {
        *err = app_format("%s: the sound stops after %llu frames, all a WAV file holds",
                          a->o.audio_out, (unsigned long long)au->wav_frames);
        return EXIT_FAILURE;
    }
    return 0;
}

void app_audio_free(app_t *a)
{
    app_audio_t *au = a->audio;
    if (!au)
        return;
    if (a->play)
        rpl_sim_set_drop_hook(play_sim(a->play), NULL, NULL);
    app_audio_close(a);
    rpl_file_destroy(au->wav); /* abandons a file not committed */
    rpl_sound_destroy(au->snd);
    free(au);
    a->audio = NULL;
}
