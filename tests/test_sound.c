/* test_sound.c - the drip mixer: audible drips of the right pitch and loudness, no clicks, no clipping, the same samples every run, bad arguments refused (cmocka). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ripple.h"
#include "ripple_support.h"
#include "util.h"

#define RATE 48000
#define MS(n) (RATE / 1000 * (n)) /* frames in n milliseconds */
#define FIELD_W 640
#define MID (FIELD_W / 2)
/* The documented attack: 1.5 ms. */
#define ATTACK (RATE * 3 / 2000)

static rpl_sound_t *new_sound(int rate, uint64_t seed)
{
    rpl_status st = RPL_EIO;
    rpl_sound_t *s;
    st = rpl_sound_create(rate, seed, &s);
    assert_non_null(s);
    assert_int_equal(st, RPL_OK);
    assert_int_equal(rpl_sound_rate(s), rate);
    return s;
}

/* n frames mixed into a new buffer (2n samples); free() it. */
static int16_t *mix(rpl_sound_t *s, int n)
{
    int16_t *b = xmalloc((size_t)n * 4 + 4);
    assert_int_equal(rpl_sound_mix(s, b, n), RPL_OK);
    return b;
}

/* Root mean square of channel c (0 left, 1 right) over frames [from, to). */
static double rms(const int16_t *b, int from, int to, int c)
{
    double ss = 0;
    for (int i = from; i < to; i++)
        ss += (double)b[2 * i + c] * b[2 * i + c];
    return to > from ? sqrt(ss / (to - from)) : 0;
}

static int peak(const int16_t *b, int from, int to)
{
    int p = 0;
    for (int i = 2 * from; i < 2 * to; i++)
        p = abs(b[i]) > p ? abs(b[i]) : p;
    return p;
}

/* Largest change between consecutive frames of either channel in [from, to). */
static int max_jump(const int16_t *b, int from, int to)
{
    int j = 0;
    for (int i = from + 1; i < to; i++)
        for (int c = 0; c < 2; c++) {
            int d = abs(b[2 * i + c] - b[2 * (i - 1) + c]);
            j = d > j ? d : j;
        }
    return j;
}

/* The frequency of the left channel over [from, to) by its zero crossings. */
static double crossing_hz(const int16_t *b, int from, int to)
{
    int n = 0;
    for (int i = from + 1; i < to; i++)
        n += (b[2 * i] < 0) != (b[2 * (i - 1)] < 0);
    return n / 2.0 * RATE / (to - from);
}

static void test_silence(void **state)
{
    (void)state;
    rpl_sound_t *s = new_sound(RATE, 1);
    int16_t *b = mix(s, MS(100));
    assert_int_equal(peak(b, 0, MS(100)), 0);
    assert_int_equal(rpl_sound_voices(s), 0);
    assert_true(rpl_sound_frames(s) == (uint64_t)MS(100));
    /* weight 0 is a silent drip: nothing queued */
    assert_int_equal(rpl_sound_drip(s, MID, 0, 4, 0, FIELD_W), RPL_OK);
    assert_int_equal(rpl_sound_pending(s), 0);
    free(b);
    b = mix(s, MS(10));
    assert_int_equal(peak(b, 0, MS(10)), 0);
    free(b);
    rpl_sound_destroy(s);
}

/* A drip is heard at once, at the documented pitch, and dies away to
 * nothing. */
static void test_drip_audible(void **state)
{
    (void)state;
    rpl_sound_t *s = new_sound(RATE, 7);
    assert_int_equal(rpl_sound_drip(s, MID, 100, 6, 300, FIELD_W), RPL_OK);
    assert_int_equal(rpl_sound_pending(s), 1);
    int n = RATE * 2;
    int16_t *b = mix(s, n);
    assert_int_equal(rpl_sound_pending(s), 0);
    /* loud in its first 100 ms (silence is 0; a quiet room is ~ 30) */
    double r = rms(b, 0, MS(100), 0);
    assert_true(r > 500);
    assert_true(peak(b, 0, MS(100)) > 2000);
    /* the pitch: 8400 / (6 + 3) = 933 Hz +-8% at first, gliding towards
     * 7/4 of it; after 60 ms (several glide time constants of 9 ms) it is
     * near the top */
    double f0 = 8400.0 / 9;
    double early = crossing_hz(b, MS(1), MS(4)), late = crossing_hz(b, MS(60), MS(90));
    assert_true(early > f0 * 0.92 * 0.9 && early < f0 * 1.08 * 1.75);
    assert_true(late > f0 * 0.92 * 1.6 && late < f0 * 1.08 * 1.75 * 1.02);
    assert_true(late > early * 1.3);
    /* a 38 ms decay time constant: after 1 s it is gone, exactly */
    assert_int_equal(peak(b, RATE, n), 0);
    assert_int_equal(rpl_sound_voices(s), 0);
    free(b);
    rpl_sound_destroy(s);
}

/* The left-channel RMS of one drip over its first 200 ms. */
static double drip_rms(int x, int radius, int weight, int channel, uint64_t seed)
{
    rpl_sound_t *s = new_sound(RATE, seed);
    assert_int_equal(rpl_sound_drip(s, x, 0, radius, weight, FIELD_W), RPL_OK);
    int16_t *b = mix(s, MS(200));
    double r = rms(b, 0, MS(200), channel);
    free(b);
    rpl_sound_destroy(s);
    return r;
}

static double drip_pitch(int radius, uint64_t seed)
{
    rpl_sound_t *s = new_sound(RATE, seed);
    assert_int_equal(rpl_sound_drip(s, MID, 0, radius, 300, FIELD_W), RPL_OK);
    int16_t *b = mix(s, MS(100));
    double f = crossing_hz(b, MS(60), MS(100));
    free(b);
    rpl_sound_destroy(s);
    return f;
}

/* Small stones higher, heavy stones louder, x pans. */
static void test_drip_character(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 3; seed++) {
        /* pitches 8400/(r+3) glided by 7/4: 3675 Hz for r=1, 420 Hz for r=32 */
        double hi = drip_pitch(1, seed), lo = drip_pitch(32, seed);
        assert_true(hi > 3000 && hi < 4100);
        assert_true(lo > 330 && lo < 480);
        /* amplitude as the square root of the weight: 16x the weight, 4x
         * the level (the splash is random, hence the margin) */
        double ratio = drip_rms(MID, 4, 800, 0, seed) / drip_rms(MID, 4, 50, 0, seed);
        assert_true(ratio > 3.5 && ratio < 4.5);
        /* at most 30% to a side: 1.3 / 0.7 between the channels at the edges */
        double l = drip_rms(0, 4, 300, 0, seed), r = drip_rms(0, 4, 300, 1, seed);
        assert_true(l / r > 1.75 && l / r < 1.95);
        l = drip_rms(FIELD_W - 1, 4, 300, 0, seed), r = drip_rms(FIELD_W - 1, 4, 300, 1, seed);
        assert_true(r / l > 1.75 && r / l < 1.95);
        /* off the field counts as its edge */
        assert_true(drip_rms(-500, 4, 300, 0, seed) == drip_rms(0, 4, 300, 0, seed));
        l = drip_rms(MID, 4, 300, 0, seed), r = drip_rms(MID, 4, 300, 1, seed);
        assert_true(l / r > 0.99 && l / r < 1.01);
        /* negative weights (a raised bump) sound like their magnitude */
        assert_true(drip_rms(MID, 4, -300, 0, seed) == drip_rms(MID, 4, 300, 0, seed));
    }
}

/* No sample ever reaches full scale, however many loud drips fall. */
static void assert_unclipped(const int16_t *b, int n)
{
    int run = 0;
    for (int i = 0; i < 2 * n; i++) {
        if (b[i] >= 32767 || b[i] <= -32767)
            fail_msg("sample %d of %d is %d: clipped", i, 2 * n, b[i]);
        /* no flat tops either: a saturated wave holds still near the rail */
        run = i >= 2 && abs(b[i]) > 30000 && b[i] == b[i - 2] ? run + 1 : 0;
        if (run >= 2)
            fail_msg("sample %d: three equal samples at %d, a flat top", i, b[i]);
    }
}

static void test_never_clips(void **state)
{
    (void)state;
    rpl_sound_t *s = new_sound(RATE, 3);
    rpl_sound_set_ambient(s, 1);
    /* 64 of the loudest drips at once, twice a frame of 60 Hz, for a second */
    int n = RATE;
    int16_t *b = xmalloc((size_t)n * 4);
    int done = 0, step = RATE / 120;
    double loud = 0;
    while (done < n) {
        for (int i = 0; i < 64; i++)
            assert_int_equal(rpl_sound_drip(s, i * 10, 0, 1 + i % 8, 8192, FIELD_W), RPL_OK);
        int k = n - done < step ? n - done : step;
        assert_int_equal(rpl_sound_mix(s, b + 2 * done, k), RPL_OK);
        assert_true(rpl_sound_voices(s) <= 2 * RPL_SOUND_VOICES);
        done += k;
    }
    assert_unclipped(b, n);
    loud = rms(b, 0, n, 0);
    assert_true(loud > 8000); /* it is loud, and limited rather than muted */
    /* one burst alone, in phase at its start */
    rpl_sound_t *t = new_sound(RATE, 4);
    for (int i = 0; i < 64; i++)
        assert_int_equal(rpl_sound_drip(t, MID, 0, 1, 8192, FIELD_W), RPL_OK);
    assert_int_equal(rpl_sound_pending(t), 64);
    int16_t *c = mix(t, MS(500));
    assert_unclipped(c, MS(500));
    assert_true(peak(c, 0, MS(500)) > 20000);
    /* and they all end */
    free(c);
    c = mix(t, RATE * 2);
    assert_int_equal(rpl_sound_voices(t), 0);
    assert_int_equal(peak(c, RATE, RATE * 2), 0);
    free(c);
    free(b);
    rpl_sound_destroy(t);
    rpl_sound_destroy(s);
}

/* Drips that come together start over 1/60 s, the first at once. */
static void test_burst_spread(void **state)
{
    (void)state;
    rpl_sound_t *s = new_sound(RATE, 5);
    for (int i = 0; i < 10; i++)
        assert_int_equal(rpl_sound_drip(s, i * 50, 0, 3, 100, FIELD_W), RPL_OK);
    assert_int_equal(rpl_sound_pending(s), 10);
    int16_t *b = mix(s, 1);
    assert_true(rpl_sound_voices(s) >= 1);
    assert_true(rpl_sound_pending(s) <= 9);
    assert_true(rpl_sound_pending(s) >= 5); /* 9 delays in [0, 768): hardly any 0 */
    free(b);
    b = mix(s, RATE / 60);
    assert_int_equal(rpl_sound_pending(s), 0);
    assert_int_equal(rpl_sound_voices(s), 10);
    free(b);
    rpl_sound_destroy(s);
}

/* Starts and ends are enveloped: the first samples of a drip grow no faster
 * than a 1.5 ms attack allows, the last ones are a hair above 0. */
static void test_no_clicks_start_end(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 3; seed++) {
        for (int radius = 1; radius <= 40; radius += 13) {
            rpl_sound_t *s = new_sound(RATE, seed);
            assert_int_equal(rpl_sound_drip(s, MID, 0, radius, 8192, FIELD_W), RPL_OK);
            int n = RATE * 3 / 2;
            int16_t *b = mix(s, n);
            int p = peak(b, 0, n);
            assert_true(p > 10000);
            /* the level after k frames is at most (k+1)/ATTACK of the
             * peak, whatever the phase (the splash included: 1.2 times) */
            for (int k = 0; k < ATTACK / 2; k++)
                for (int c = 0; c < 2; c++)
                    if (abs(b[2 * k + c]) > 1.5 * p * (k + 1) / ATTACK + 2)
                        fail_msg("radius %d: frame %d is %d, over the attack's %d", radius, k,
                                 b[2 * k + c], (int)(1.5 * p * (k + 1) / ATTACK + 2));
            /* the end: the last sound is tiny, and so are the 50 ms before it */
            int last = -1;
            for (int i = 0; i < n; i++)
                if (b[2 * i] || b[2 * i + 1])
                    last = i;
            assert_true(last > MS(50) && last < n - MS(100));
            assert_true(peak(b, last, last + 1) <= 2);
            assert_true(peak(b, last - MS(50), last + 1) <= p / 100 + 2);
            assert_int_equal(rpl_sound_voices(s), 0);
            free(b);
            rpl_sound_destroy(s);
        }
    }
}

/*
 * A stolen voice fades rather than stop.  RPL_SOUND_VOICES quiet, low
 * drips at the centre sound; one more, quieter still, steals one.  Their
 * sum stays far below the limiter (24 * 640 * 1.2 < 22000), so the mix is
 * linear and "with" minus "without" is the new drip minus what the steal
 * took away.  Every piece of that moves by at most ~0.06 of its level a
 * frame, and the splash of the new one by at most 1.6 * 64, so the
 * difference moves by less than 160 a frame; cutting a voice of 640 dead
 * would jump by up to 640.
 */
static void test_no_clicks_steal(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 6; seed++) {
        rpl_sound_t *with = new_sound(RATE, seed), *without = new_sound(RATE, seed);
        for (int i = 0; i < RPL_SOUND_VOICES; i++) {
            assert_int_equal(rpl_sound_drip(with, MID, 0, 40, 4, FIELD_W), RPL_OK);
            assert_int_equal(rpl_sound_drip(without, MID, 0, 40, 4, FIELD_W), RPL_OK);
        }
        int16_t *a = mix(with, MS(40)), *b = mix(without, MS(40));
        assert_memory_equal(a, b, (size_t)MS(40) * 4);
        assert_int_equal(rpl_sound_voices(with), RPL_SOUND_VOICES);
        free(a);
        free(b);
        assert_int_equal(rpl_sound_drip(with, MID, 0, 40, 1, FIELD_W), RPL_OK);
        a = mix(with, 1);
        b = mix(without, 1);
        /* the stolen one fades: one more voice sounds for a while */
        assert_int_equal(rpl_sound_voices(with), RPL_SOUND_VOICES + 1);
        int n = MS(60);
        int16_t *a2 = mix(with, n), *b2 = mix(without, n);
        assert_int_equal(rpl_sound_voices(with), RPL_SOUND_VOICES);
        /* the difference was 0 before the new drip; its first frame is a[] */
        int prev[2] = { 0, 0 }, worst = 0;
        for (int i = -1; i < n; i++)
            for (int c = 0; c < 2; c++) {
                int d = i < 0 ? a[c] - b[c] : a2[2 * i + c] - b2[2 * i + c];
                worst = abs(d - prev[c]) > worst ? abs(d - prev[c]) : worst;
                prev[c] = d;
            }
        if (worst >= 160)
            fail_msg("seed %d: the steal moves the sound by %d in a frame", (int)seed, worst);
        assert_true(peak(a2, 0, n) < 22000);
        free(a);
        free(b);
        free(a2);
        free(b2);
        rpl_sound_destroy(with);
        rpl_sound_destroy(without);
    }
}

/* The volume and the bed glide: no jump when they change. */
static void test_volume_and_bed(void **state)
{
    (void)state;
    rpl_sound_t *s = new_sound(RATE, 9);
    rpl_sound_set_ambient(s, 1);
    int16_t *b = mix(s, RATE * 2);
    /* the bed fades in: its first samples are tiny */
    assert_true(peak(b, 0, MS(5)) <= 4);
    /* then soft: -60 to -35 dBFS, and low (a few hundred crossings a second) */
    double r = rms(b, RATE, 2 * RATE, 0);
    assert_true(r > 33 && r < 580);
    assert_true(crossing_hz(b, RATE, 2 * RATE) < 700);
    /* the channels differ (a wide bed, not a mono one) */
    int same = 0;
    for (int i = RATE; i < 2 * RATE; i++)
        same += b[2 * i] == b[2 * i + 1];
    assert_true(same < RATE / 10);
    assert_true(max_jump(b, 0, 2 * RATE) < 100);
    free(b);
    /* off: it fades out within half a second and stays silent */
    rpl_sound_set_ambient(s, 0);
    b = mix(s, RATE);
    assert_true(max_jump(b, 0, RATE) < 100);
    assert_int_equal(peak(b, MS(510), RATE), 0);
    free(b);

    /* volume 0 mutes within 20 ms, with a glide rather than a jump */
    assert_int_equal(rpl_sound_drip(s, MID, 0, 30, 8192, FIELD_W), RPL_OK);
    b = mix(s, MS(30));
    int p = peak(b, 0, MS(30)), j = max_jump(b, 0, MS(30));
    free(b);
    assert_int_equal(rpl_sound_set_volume(s, 0), RPL_OK);
    b = mix(s, MS(40));
    assert_true(max_jump(b, 0, MS(40)) <= j);
    assert_true(peak(b, 0, MS(5)) > p / 4); /* not cut at once */
    assert_int_equal(peak(b, MS(21), MS(40)), 0);
    free(b);
    assert_int_equal(rpl_sound_set_volume(s, RPL_SOUND_VOLUME_ONE), RPL_OK);
    b = mix(s, MS(40));
    assert_true(abs(b[0]) < 100);
    assert_true(peak(b, MS(25), MS(40)) > 1000); /* still ringing, heard again */
    free(b);
    rpl_sound_destroy(s);
}

/* The same inputs give the same samples, however the frames are asked
 * for; another seed gives others. */
static void script(rpl_sound_t *s, int16_t *out, int n, int chunk)
{
    uint64_t g = 99;
    int done = 0;
    rpl_sound_set_ambient(s, 1);
    while (done < n) {
        /* drips at every 800th frame, whatever the chunks */
        if (done % 800 == 0)
            for (int k = rnd_range(&g, 0, 3); k > 0; k--) {
                /* one draw a statement: the order of a call's arguments
                 * is the compiler's; this is the order the pinned
                 * samples were made with */
                int weight = rnd_range(&g, 10, 2000);
                int radius = rnd_range(&g, 1, 40);
                int x = rnd_range(&g, -10, 700);
                assert_int_equal(rpl_sound_drip(s, x, 0, radius, weight, FIELD_W), RPL_OK);
            }
        int upto = (done / 800 + 1) * 800;
        int k = chunk < upto - done ? chunk : upto - done;
        k = k < n - done ? k : n - done;
        assert_int_equal(rpl_sound_mix(s, out + 2 * done, k), RPL_OK);
        done += k;
    }
}

static void test_deterministic(void **state)
{
    (void)state;
    int n = RATE * 3;
    int16_t *ref = xmalloc((size_t)n * 4), *b = xmalloc((size_t)n * 4);
    rpl_sound_t *s = new_sound(RATE, 42);
    script(s, ref, n, 800);
    rpl_sound_destroy(s);
    assert_true(rms(ref, 0, n, 0) > 100);
    static const int chunks[] = { 800, 1, 7, 333, 1000000 };
    for (size_t i = 0; i < sizeof chunks / sizeof chunks[0]; i++) {
        s = new_sound(RATE, 42);
        memset(b, 0, (size_t)n * 4);
        script(s, b, n, chunks[i]);
        if (memcmp(ref, b, (size_t)n * 4) != 0)
            fail_msg("mixing %d frames at a time gives other samples", chunks[i]);
        rpl_sound_destroy(s);
    }
    s = new_sound(RATE, 43);
    script(s, b, n, 800);
    assert_true(memcmp(ref, b, (size_t)n * 4) != 0);
    rpl_sound_destroy(s);
    /* integer arithmetic only: the same samples on every machine and build
     * (the 32-bit build under qemu checks this number too) */
    uint32_t crc = crc_plane(0, ref, (size_t)n * 2);
    if (crc != 0x1fba00c5u)
        print_message("crc of the script: %08x\n", crc);
    assert_int_equal(crc, 0x1fba00c5u);
    free(ref);
    free(b);
}

/* Every rate works: audible, unclipped, and the drip ends. */
static void test_rates(void **state)
{
    (void)state;
    static const int rates[] = { RPL_SOUND_RATE_MIN, 11025, 22050, 44100, 96000,
                                 RPL_SOUND_RATE_MAX };
    for (size_t i = 0; i < sizeof rates / sizeof rates[0]; i++) {
        int r = rates[i];
        rpl_sound_t *s = new_sound(r, 1);
        for (int k = 0; k < 40; k++)
            assert_int_equal(rpl_sound_drip(s, k * 16, 0, 1 + k, 8192, FIELD_W), RPL_OK);
        int n = r * 2;
        int16_t *b = mix(s, n);
        assert_unclipped(b, n);
        assert_true(rms(b, 0, r / 10, 0) > 1000);
        assert_int_equal(peak(b, n - r / 2, n), 0);
        assert_int_equal(rpl_sound_voices(s), 0);
        free(b);
        rpl_sound_destroy(s);
    }
}

static void le32(const unsigned char *p, uint32_t want)
{
    uint32_t v = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    assert_int_equal(v, want);
}

static void test_wav_header(void **state)
{
    (void)state;
    unsigned char h[RPL_SOUND_WAV_HEADER + 1];
    memset(h, 0xA5, sizeof h);
    assert_int_equal(rpl_sound_wav_header(h, 48000, 1000), RPL_OK);
    assert_memory_equal(h, "RIFF", 4);
    le32(h + 4, 36 + 4000);
    assert_memory_equal(h + 8, "WAVEfmt ", 8);
    le32(h + 16, 16);
    assert_int_equal(h[20] | h[21] << 8, 1);  /* PCM */
    assert_int_equal(h[22] | h[23] << 8, 2);  /* stereo */
    le32(h + 24, 48000);
    le32(h + 28, 192000);
    assert_int_equal(h[32] | h[33] << 8, 4);
    assert_int_equal(h[34] | h[35] << 8, 16);
    assert_memory_equal(h + 36, "data", 4);
    le32(h + 40, 4000);
    assert_int_equal(h[44], 0xA5); /* not a byte more */
    /* the largest that fits, and one more: "unknown" */
    uint64_t most = (0xFFFFFFFFull - 36) / 4;
    assert_int_equal(rpl_sound_wav_header(h, 44100, most), RPL_OK);
    le32(h + 40, (uint32_t)(most * 4));
    le32(h + 4, (uint32_t)(most * 4 + 36));
    le32(h + 24, 44100);
    assert_int_equal(rpl_sound_wav_header(h, 44100, most + 1), RPL_OK);
    le32(h + 40, 0xFFFFFFFFu);
    le32(h + 4, 0xFFFFFFFFu);
    assert_int_equal(rpl_sound_wav_header(h, 8000, UINT64_MAX), RPL_OK);
    le32(h + 40, 0xFFFFFFFFu);
    assert_int_equal(rpl_sound_wav_header(h, 8000, 0), RPL_OK);
    le32(h + 40, 0);
    le32(h + 4, 36);
    assert_int_equal(rpl_sound_wav_header(NULL, 48000, 1), RPL_EINVAL);
    memset(h, 0xA5, sizeof h);
    assert_int_equal(rpl_sound_wav_header(h, 7999, 1), RPL_EINVAL);
    assert_int_equal(rpl_sound_wav_header(h, 192001, 1), RPL_EINVAL);
    for (size_t i = 0; i < sizeof h; i++)
        assert_int_equal(h[i], 0xA5);
}

static void test_bad_arguments(void **state)
{
    (void)state;
    static const int bad_rates[] = { 0, -1, 7999, 192001, INT_MIN, INT_MAX };
    for (size_t i = 0; i < sizeof bad_rates / sizeof bad_rates[0]; i++) {
        rpl_status st = RPL_OK;
        {
            rpl_sound_t *f_ = NULL;
            st = rpl_sound_create(bad_rates[i], 1, &f_);
            assert_non_null(f_); /* a failed handle, which says why */
            assert_true(rpl_sound_error(f_)[0] != '\0');
            rpl_sound_destroy(f_);
        }
        assert_int_equal(st, RPL_EINVAL);
        assert_int_equal(rpl_sound_create(bad_rates[i], 1, NULL), RPL_EINVAL);
    }
    /* NULL handles */
    int16_t canary[8];
    memset(canary, 0x5A, sizeof canary);
    assert_int_equal(rpl_sound_drip(NULL, 0, 0, 1, 1, 1), RPL_EINVAL);
    assert_int_equal(rpl_sound_mix(NULL, canary, 4), RPL_EINVAL);
    assert_int_equal(rpl_sound_set_volume(NULL, 0), RPL_EINVAL);
    rpl_sound_set_ambient(NULL, 1);
    rpl_sound_destroy(NULL);
    assert_int_equal(rpl_sound_rate(NULL), 0);
    assert_int_equal(rpl_sound_voices(NULL), 0);
    assert_int_equal(rpl_sound_pending(NULL), 0);
    assert_true(rpl_sound_frames(NULL) == 0);
    assert_non_null(rpl_sound_error(NULL));
    assert_true(strlen(rpl_sound_error(NULL)) > 0);

    rpl_sound_t *s = new_sound(RATE, 1);
    assert_string_equal(rpl_sound_error(s), "");
    static const int bad_radii[] = { 0, -1, RPL_RADIUS_MAX + 1, INT_MIN, INT_MAX };
    for (size_t i = 0; i < sizeof bad_radii / sizeof bad_radii[0]; i++) {
        assert_int_equal(rpl_sound_drip(s, 0, 0, bad_radii[i], 100, FIELD_W), RPL_EINVAL);
        assert_non_null(strstr(rpl_sound_error(s), "radius"));
        assert_null(strchr(rpl_sound_error(s), '\n'));
    }
    assert_int_equal(rpl_sound_drip(s, 0, 0, 3, 100, 0), RPL_EINVAL);
    assert_non_null(strstr(rpl_sound_error(s), "width"));
    assert_int_equal(rpl_sound_drip(s, 0, 0, 3, 100, -5), RPL_EINVAL);
    assert_int_equal(rpl_sound_pending(s), 0); /* nothing queued by a refused drip */
    /* extremes are fine */
    assert_int_equal(rpl_sound_drip(s, INT_MIN, INT_MIN, 1, INT_MIN, 1), RPL_OK);
    assert_int_equal(rpl_sound_drip(s, INT_MAX, INT_MAX, RPL_RADIUS_MAX, INT_MAX, INT_MAX), RPL_OK);
    assert_int_equal(rpl_sound_pending(s), 2);
    /* mix: frames < 0, NULL out */
    assert_int_equal(rpl_sound_mix(s, canary, -1), RPL_EINVAL);
    assert_non_null(strstr(rpl_sound_error(s), "-1"));
    assert_int_equal(rpl_sound_mix(s, NULL, 1), RPL_EINVAL);
    for (size_t i = 0; i < 8; i++)
        assert_int_equal((uint16_t)canary[i], 0x5A5A);
    assert_true(rpl_sound_frames(s) == 0);
    assert_int_equal(rpl_sound_mix(s, NULL, 0), RPL_OK);
    assert_int_equal(rpl_sound_mix(s, canary, 0), RPL_OK);
    assert_int_equal((uint16_t)canary[0], 0x5A5A);
    assert_int_equal(rpl_sound_set_volume(s, -1), RPL_EINVAL);
    assert_int_equal(rpl_sound_set_volume(s, RPL_SOUND_VOLUME_ONE + 1), RPL_EINVAL);
    assert_non_null(strstr(rpl_sound_error(s), "volume"));
    /* a flood of drips keeps to its bounds */
    for (int i = 0; i < 10000; i++)
        assert_int_equal(rpl_sound_drip(s, i, 0, 1 + i % 50, i, FIELD_W), RPL_OK);
    assert_true(rpl_sound_pending(s) <= 64);
    int16_t *b = mix(s, RATE);
    assert_unclipped(b, RATE);
    assert_true(rpl_sound_voices(s) <= 2 * RPL_SOUND_VOICES);
    free(b);
    rpl_sound_destroy(s);
}

/* The drop hook of a field tells a sound about its stones (the way the
 * demo wires them). */
static void hook(void *user, int x, int y, int radius, int weight)
{
    assert_int_equal(rpl_sound_drip(user, x, y, radius, weight, 64), RPL_OK);
}

static void test_from_a_field(void **state)
{
    (void)state;
    rpl_sim_t *sim = new_sim(64, 48, 1);
    rpl_sound_t *s = new_sound(RATE, 1);
    rpl_sim_set_drop_hook(sim, hook, s);
    assert_int_equal(rpl_sim_drop(sim, 10, 10, 3, 300), RPL_OK);
    assert_int_equal(rpl_sound_pending(s), 1);
    assert_int_equal(rpl_sim_trail(sim, 5, 5, 40, 5, 2, 100), RPL_OK);
    assert_true(rpl_sound_pending(s) > 10);
    int16_t *b = mix(s, MS(100));
    assert_true(rms(b, 0, MS(100), 0) > 500);
    free(b);
    rpl_sim_set_drop_hook(sim, NULL, NULL);
    rpl_sim_destroy(sim);
    rpl_sound_destroy(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_silence),
        cmocka_unit_test(test_drip_audible),
        cmocka_unit_test(test_drip_character),
        cmocka_unit_test(test_never_clips),
        cmocka_unit_test(test_burst_spread),
        cmocka_unit_test(test_no_clicks_start_end),
        cmocka_unit_test(test_no_clicks_steal),
        cmocka_unit_test(test_volume_and_bed),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_rates),
        cmocka_unit_test(test_wav_header),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_from_a_field),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
