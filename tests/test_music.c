/* test_music.c - scores and the synthesizer: the parser's placed errors and limits, a note's pitch and envelope, a seamless loop, silence when the music is off, the default score's length (cmocka). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ripple.h"
#include "ripple_support.h"
#include "util.h"

#define RATE 48000

static rpl_music_t *parse_ok(const char *text)
{
    rpl_music_t *m = NULL;
    rpl_status st = rpl_music_parse(text, strlen(text), "t", &m);
    if (st != RPL_OK)
        fail_msg("%s", rpl_music_error(m));
    assert_non_null(m);
    return m;
}

/* The sound of a score alone (no drips, no bed), n frames; free() it. */
static int16_t *render(const rpl_music_t *m, int n, int music_volume)
{
    rpl_sound_t *s = NULL;
    assert_int_equal(rpl_sound_create(RATE, 1, &s), RPL_OK);
    assert_int_equal(rpl_sound_set_music_volume(s, music_volume), RPL_OK);
    assert_int_equal(rpl_sound_set_music(s, m), RPL_OK);
    int16_t *b = xmalloc((size_t)n * 4 + 4);
    assert_int_equal(rpl_sound_mix(s, b, n), RPL_OK);
    rpl_sound_destroy(s);
    return b;
}

/* ---- the parser ------------------------------------------------------- */

static const char HEAD[] = "ripple-music 1\ntempo 120 4\n";

static void expect_error_n(const char *text, size_t len, const char *want)
{
    rpl_music_t *m = NULL;
    rpl_status st = rpl_music_parse(text, len, "t", &m);
    assert_non_null(m);
    if (st != RPL_EFORMAT || strstr(rpl_music_error(m), want) != rpl_music_error(m))
        fail_msg("got %d '%s', want an error starting '%s'", st, rpl_music_error(m), want);
    /* a failed score holds nothing and refuses to play */
    assert_int_equal(rpl_music_notes(m), 0);
    assert_int_equal(rpl_music_frames(m, RATE), 0);
    assert_int_equal(rpl_music_tempo(m, NULL, NULL, NULL, NULL), RPL_EINVAL);
    rpl_sound_t *s = NULL;
    assert_int_equal(rpl_sound_create(RATE, 1, &s), RPL_OK);
    assert_int_equal(rpl_sound_set_music(s, m), RPL_EINVAL);
    rpl_sound_destroy(s);
    rpl_music_destroy(m);
}

static void expect_error(const char *text, const char *want)
{
    expect_error_n(text, strlen(text), want);
}

static void test_errors(void **state)
{
    (void)state;
    expect_error("", "t:1:1: expected \"ripple-music 1\" first: the score is empty");
    expect_error("tempo 120 4\n", "t:1:1: expected \"ripple-music 1\" first");
    expect_error("ripple-music 2\n", "t:1:14: version '2'");
    expect_error("ripple-music 1\n", "t:2:1: the score plays nothing");
    expect_error("ripple-music 1\ntempo 500 4\n", "t:2:7: bpm 500 out of range 20..300");
    expect_error("ripple-music 1\ntempo 120 4\ntempo 100 4\n", "t:3:1: a second 'tempo' (the first is on line 2)");
    expect_error("ripple-music 1\ntempo 1x0 4\n", "t:2:7: bpm: '1x0' is not a whole number");
    expect_error("ripple-music 1\n  tempo\t120\n", "t:2:3: too few words");
    expect_error("ripple-music 1\nfoo 1\n", "t:2:1: unknown command 'foo'");
    expect_error("ripple-music 1\ninstrument a wobble\n", "t:2:14: unknown wave 'wobble'");
    expect_error("ripple-music 1\ninstrument a sine volume 101\n", "t:2:26: volume 101 out of range 0..100");
    expect_error("ripple-music 1\ninstrument a sine volume\n", "t:2:19: 'volume' without a value");
    expect_error("ripple-music 1\ninstrument a sine colour 3\n", "t:2:19: unknown setting 'colour'");
    expect_error("ripple-music 1\ninstrument a sine note H4\n", "t:2:24: note: 'H4' is not a note");
    expect_error("ripple-music 1\ninstrument 9a sine\n", "t:2:12: an instrument name '9a'");
    expect_error("ripple-music 1\ninstrument a sine\ninstrument a saw\n", "t:3:12: a second instrument 'a'");
    expect_error("ripple-music 1\ninstrument a sine\npattern p 4\n  a C4 - . \n", "t:4:10: 3 steps, but pattern 'p' has 4");
    expect_error("ripple-music 1\ninstrument a sine\npattern p 2\n  a C4 - .\n", "t:4:10: more than the pattern's 2 steps");
    expect_error("ripple-music 1\ninstrument a sine\npattern p 2\n  a . -\n", "t:4:7: '-' holds a note, but none sounds here");
    expect_error("ripple-music 1\ninstrument a sine\npattern p 2\n  a C4 Q\n", "t:4:8: 'Q' is not a step");
    expect_error("ripple-music 1\ninstrument a sine\npattern p 2\n  a C4:0 .\n", "t:4:8: velocity 0 out of range 1..100");
    expect_error("ripple-music 1\ninstrument a sine\npattern p 2\n  b C4 .\n", "t:4:3: 'b' is neither a command nor an instrument");
    expect_error("ripple-music 1\npattern p 2\nplay 1 p\n", "t:3:1: 'play' before the tempo");
    expect_error("ripple-music 1\ntempo 120 4\nplay 1 q\n", "t:3:8: no pattern 'q'");
    expect_error("ripple-music 1\ntempo 120 4\npattern p 2\npattern q 3\nplay 1 p q\n",
                 "t:5:10: pattern 'q' has 3 steps, the others 2");
    expect_error("ripple-music 1\ntempo 20 1\npattern p 100\nplay 2 p\nplay 1 p\n",
                 "t:5:6: the music would last longer than 600 s");
    expect_error("ripple-music 1\ntempo 120 4\nroom 5 5\n", "t:3:8: too many words");
    expect_error("ripple-music 1\ntempo 120 4\x01\n", "t:2:12: control character 0x01");
    expect_error_n("ripple-music 1\ntempo 120 4\n\0", 28, "t:3:1: a NUL byte");
    /* a line too long, a score too large */
    size_t n = RPL_MUSIC_LINE_MAX + 100;
    char *big = xmalloc((size_t)RPL_MUSIC_BYTES_MAX + 2);
    memcpy(big, "ripple-music 1\n#", 16);
    memset(big + 16, 'x', n);
    big[16 + n] = '\0';
    expect_error(big, "t:2:1025: the line is longer than 1024 bytes");
    memset(big + 16, '\n', (size_t)RPL_MUSIC_BYTES_MAX - 15);
    big[RPL_MUSIC_BYTES_MAX + 1] = '\0';
    expect_error(big, "t:1:1: the score is larger than");
    free(big);
    /* limits: one instrument too many */
    char text[4096];
    size_t k = (size_t)snprintf(text, sizeof text, "%s", HEAD);
    for (int i = 0; i <= RPL_MUSIC_INSTRUMENTS_MAX; i++)
        k += (size_t)snprintf(text + k, sizeof text - k, "instrument i%d sine\n", i);
    char want[64];
    snprintf(want, sizeof want, "t:%d:1: more than %d instruments", 3 + RPL_MUSIC_INSTRUMENTS_MAX,
             RPL_MUSIC_INSTRUMENTS_MAX);
    expect_error(text, want);
}

static void test_counts(void **state)
{
    (void)state;
    /* two patterns together, one played twice: the notes, the tracks' loop */
    rpl_music_t *m = parse_ok("ripple-music 1\n"
                              "tempo 96 4 3  # a waltz\n"
                              "instrument a saw\n"
                              "instrument d noise note C1\n"
                              "pattern p 4\n"
                              "  a C4 - E4:50 .\n"
                              "  a G3 | - - -   # a bar line is no step\n"
                              "pattern q 4\n"
                              "  d x . o .\n"
                              "play 2 p q\n"
                              "play 1 q\n");
    int bpm, spb, bpbar, steps;
    assert_int_equal(rpl_music_tempo(m, &bpm, &spb, &bpbar, &steps), RPL_OK);
    assert_int_equal(bpm, 96);
    assert_int_equal(spb, 4);
    assert_int_equal(bpbar, 3);
    assert_int_equal(steps, 12);
    assert_int_equal(rpl_music_notes(m), 2 * (3 + 2) + 2);
    /* 12 steps of 60 / (96 * 4) s: 1.875 s */
    assert_int_equal(rpl_music_frames(m, RATE), 90000);
    assert_int_equal(rpl_music_frames(m, 44100), 82687); /* 82687.5 rounded down */
    assert_int_equal(rpl_music_frames(m, 7999), 0);
    rpl_music_destroy(m);
}

/* ---- the synthesizer -------------------------------------------------- */

/* Upward zero crossings of the left channel in [from, to). */
static int crossings(const int16_t *b, int from, int to)
{
    int n = 0;
    for (int i = from + 1; i < to; i++)
        n += b[2 * (i - 1)] < 0 && b[2 * i] >= 0;
    return n;
}

static void test_pitch(void **state)
{
    (void)state;
    /* a plain sine held for 2 s (120 bpm, 1 step a beat: 4 steps) */
    static const struct { const char *note; int hz; } notes[] = {
        { "A4", 440 }, { "A3", 220 }, { "C4", 262 }, { "E5", 659 }, { "A1", 55 },
    };
    for (size_t i = 0; i < sizeof notes / sizeof *notes; i++) {
        char text[512];
        snprintf(text, sizeof text, "ripple-music 1\ntempo 120 1\ninstrument s sine attack 5 sustain 100\n"
                 "pattern p 4\n  s %s - - -\nplay 1 p\n", notes[i].note);
        rpl_music_t *m = parse_ok(text);
        int16_t *b = render(m, RATE * 2, RPL_SOUND_VOLUME_ONE);
        /* one second from 0.5 s: the frequency, within a crossing */
        int c = crossings(b, RATE / 2, RATE / 2 + RATE);
        if (abs(c - notes[i].hz) > 1)
            fail_msg("%s: %d crossings a second, want %d", notes[i].note, c, notes[i].hz);
        free(b);
        rpl_music_destroy(m);
    }
}

/* Peak of the left channel in [from, to). */
static int peak_in(const int16_t *b, int from, int to)
{
    int p = 0;
    for (int i = from; i < to; i++)
        p = abs(b[2 * i]) > p ? abs(b[2 * i]) : p;
    return p;
}

static void test_envelope(void **state)
{
    (void)state;
    /* attack 100 ms, decay 50 ms to 50%, held to 0.5 s, released in 50 ms */
    rpl_music_t *m = parse_ok("ripple-music 1\ntempo 120 2\n"
                              "instrument s sine attack 100 decay 50 sustain 50 release 50\n"
                              "pattern p 4\n  s A4 - . .\nplay 1 p\n");
    int16_t *b = render(m, RATE, RPL_SOUND_VOLUME_ONE);
    const int ms = RATE / 1000;
    int top = peak_in(b, 95 * ms, 105 * ms);
    int at_half = peak_in(b, 45 * ms, 55 * ms);   /* halfway up the linear attack */
    int held = peak_in(b, 400 * ms, 480 * ms);
    int late = peak_in(b, 800 * ms, 1000 * ms);  /* 6 time constants after the release */
    assert_true(top > 1000);
    assert_in_range(at_half * 100 / top, 45, 57);
    assert_in_range(held * 100 / top, 46, 54);
    assert_true(late * 100 / top < 2);
    assert_true(peak_in(b, 0, ms / 2) < top / 50); /* starts from silence */
    /* after the release a third of the way down by one time constant: e^-1 */
    int rel = peak_in(b, 545 * ms, 555 * ms);
    assert_in_range(rel * 100 / held, 30, 45);
    free(b);
    rpl_music_destroy(m);
}

static const char LOOP[] = "ripple-music 1\n"
                           "tempo 120 4\n"
                           "echo 3 60\n"
                           "room 80\n"
                           "instrument pad saw detune 12 attack 200 release 400 filter lp cutoff 800 "
                           "resonance 40 envmod 900 space 60 echo 30\n"
                           "instrument hat noise filter hp cutoff 6000 decay 30 sustain 0 echo 50\n"
                           "instrument kick sine note A1 sweep 30 sweeptime 15 decay 150 sustain 0\n"
                           "pattern p 16\n"
                           "  pad  D4 - - - - - - - F4 - - - - - - -\n"
                           "  hat  x . o . x . o . x . o . x . o x\n"
                           "  kick x . . . . . . . x . . . . . . .\n"
                           "play 2 p\n";

static void test_loop_seam(void **state)
{
    (void)state;
    rpl_music_t *m = parse_ok(LOOP);
    int n = (int)rpl_music_frames(m, RATE);
    assert_int_equal(n, RATE * 4); /* 32 steps of 1/8 s */
    rpl_sound_t *s = NULL;
    assert_int_equal(rpl_sound_create(RATE, 1, &s), RPL_OK);
    assert_int_equal(rpl_sound_set_music(s, m), RPL_OK);
    enum { LOOPS = 6 };
    int16_t *b = xmalloc((size_t)n * 4 * LOOPS);
    for (int k = 0; k < LOOPS; k++) {
        assert_int_equal(rpl_sound_music_position(s), 0);
        assert_int_equal(rpl_sound_mix(s, b + (size_t)2 * k * n, n - 1), RPL_OK);
        assert_int_equal(rpl_sound_music_position(s), (uint64_t)n - 1);
        assert_int_equal(rpl_sound_mix(s, b + (size_t)2 * (k * n + n - 1), 1), RPL_OK);
    }
    rpl_sound_destroy(s);
    /* the echo and the room carry over the seam, every note starts afresh:
     * each loop is the one before again, but for what is left of the
     * first loop's different start in the echo's and the room's feedback
     * (a strong one here), which dies away, down to the last bit, within
     * a few loops; from then on what follows the last sample is what
     * followed it the loop before */
    int last = 1 << 30;
    for (int k = 1; k + 1 < LOOPS; k++) {
        const int16_t *p = b + (size_t)2 * k * n, *q = p + (size_t)2 * n;
        int diff = 0;
        for (int i = 0; i < 2 * n; i++)
            diff = abs(q[i] - p[i]) > diff ? abs(q[i] - p[i]) : diff;
        if (diff > last || (k + 2 == LOOPS && diff != 0))
            fail_msg("loop %d differs from loop %d by up to %d (the loop before: %d)", k + 2, k + 1,
                     diff, last);
        last = diff;
    }
    const int16_t *l1 = b + (size_t)2 * n;
    /* the first loop starts without the tails the others start with */
    int tail = 0;
    for (int i = 0; i < 200; i++)
        tail |= l1[i] != b[i];
    assert_true(tail);
    free(b);
    rpl_music_destroy(m);
}

static void test_silence(void **state)
{
    (void)state;
    rpl_music_t *m = parse_ok(LOOP);
    /* off from the start: not a sample */
    int16_t *b = render(m, RATE, 0);
    for (int i = 0; i < 2 * RATE; i++)
        if (b[i] != 0)
            fail_msg("sample %d is %d with the music off", i, b[i]);
    free(b);
    /* on, then off: silent within the 20 ms glide, the drips still heard */
    rpl_sound_t *s = NULL;
    assert_int_equal(rpl_sound_create(RATE, 1, &s), RPL_OK);
    assert_int_equal(rpl_sound_set_music(s, m), RPL_OK);
    b = xmalloc((size_t)RATE * 4);
    assert_int_equal(rpl_sound_mix(s, b, RATE / 2), RPL_OK);
    assert_true(peak_in(b, 0, RATE / 2) > 1000);
    assert_int_equal(rpl_sound_set_music_volume(s, 0), RPL_OK);
    assert_int_equal(rpl_sound_set_music_volume(s, -1), RPL_EINVAL);
    assert_int_equal(rpl_sound_set_music_volume(s, RPL_SOUND_VOLUME_ONE + 1), RPL_EINVAL);
    assert_int_equal(rpl_sound_mix(s, b, RATE / 2), RPL_OK);
    /* the echo and room are the music's: silent with it */
    assert_int_equal(peak_in(b, RATE / 40, RATE / 2), 0);
    assert_int_equal(rpl_sound_drip(s, 10, 10, 4, 2000, 100), RPL_OK);
    assert_int_equal(rpl_sound_mix(s, b, RATE / 10), RPL_OK);
    assert_true(peak_in(b, 0, RATE / 10) > 1000);
    /* no music at all */
    assert_int_equal(rpl_sound_set_music(s, NULL), RPL_OK);
    assert_int_equal(rpl_sound_music_position(s), 0);
    rpl_sound_destroy(s);
    free(b);
    rpl_music_destroy(m);
}

/* The default score: it reads, lasts the default show's minute, and
 * stays inside the limiter's range. */
static void test_default_score(void **state)
{
    (void)state;
    rpl_music_t *m = NULL;
    rpl_status st = rpl_music_read("assets/music/default.score", &m);
    if (st != RPL_OK)
        fail_msg("%s", rpl_music_error(m));
    assert_int_equal(rpl_music_frames(m, RATE), (uint64_t)RATE * 60);
    int bpm, spb, bpbar, steps;
    assert_int_equal(rpl_music_tempo(m, &bpm, &spb, &bpbar, &steps), RPL_OK);
    assert_int_equal((int64_t)steps * 60 % ((int64_t)bpm * spb), 0); /* whole seconds */
    rpl_music_destroy(m);
    assert_int_equal(rpl_music_read("no/such.score", &m), RPL_EIO);
    assert_non_null(strstr(rpl_music_error(m), "no/such.score"));
    rpl_music_destroy(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_counts),
        cmocka_unit_test(test_pitch),
        cmocka_unit_test(test_envelope),
        cmocka_unit_test(test_loop_seam),
        cmocka_unit_test(test_silence),
        cmocka_unit_test(test_default_score),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
