/* test_show.c - shows: every command parsed, every bad line named by line and column, the player's timing on the field, loops, and the same water on any thread count (cmocka). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ripple.h"
#include "ripple_support.h"
#include "host.h"
#include "util.h"

#define H "ripple-show 1\n"
#define WC0 RPL_SHOW_WORK_COMMAND

/* Parses text (a C string) named "t"; fails the test unless it is valid. */
static rpl_show_t *parse_ok(const char *text)
{
    rpl_show_t *s = NULL;
    rpl_status st = rpl_show_parse(text, strlen(text), "t", &s);
    if (st != RPL_OK)
        fail_msg("parse failed: %s\n--- show:\n%s", rpl_show_error(s), text);
    assert_non_null(s);
    assert_string_equal(rpl_show_error(s), "");
    return s;
}

/* Parses text that must fail with exactly this message. */
static void parse_bad(const char *text, size_t len, const char *want)
{
    rpl_show_t *s = NULL;
    rpl_status st = rpl_show_parse(text, len, "t", &s);
    assert_non_null(s);
    if (st != RPL_EFORMAT || strcmp(rpl_show_error(s), want) != 0)
        fail_msg("status %d, message\n  got:  %s\n  want: %s\n--- show:\n%.*s", (int)st,
                 rpl_show_error(s), want, (int)(len > 300 ? 300 : len), text);
    /* a failed show holds nothing and plays nothing */
    assert_int_equal(rpl_show_events(s), 0);
    assert_int_equal(rpl_show_length(s), 0);
    assert_int_equal(rpl_show_pictures(s), 0);
    rpl_status pst = RPL_OK;
    {
        rpl_show_player_t *f_ = NULL;
        pst = rpl_show_player_create(s, 1, &f_);
        assert_non_null(f_); /* a failed handle, which says why */
        assert_true(rpl_show_player_error(f_)[0] != '\0');
        rpl_show_player_destroy(f_);
    }
    assert_int_equal(pst, RPL_EINVAL);
    rpl_show_destroy(s);
}

static void bad(const char *text, const char *want)
{
    parse_bad(text, strlen(text), want);
}

static rpl_show_player_t *player_of(const rpl_show_t *s, uint64_t seed)
{
    rpl_status st = RPL_EINVAL;
    rpl_show_player_t *p;
    st = rpl_show_player_create(s, seed, &p);
    assert_int_equal(st, RPL_OK);
    assert_non_null(p);
    return p;
}

/* ---- what a tick did to the field -------------------------------------- */

/* One tick; the cells it changed (a stone adds its smooth bump, -weight
 * at its centre, so against a still or known field the changed cells are
 * the stones; a stone of radius 1 is its one cell, set to -weight). */
typedef struct diff {
    int n;
    int x[4096], y[4096];
    int16_t v[4096];
} diff_t;

static diff_t dif;

static const diff_t *tick_diff(rpl_show_player_t *p, rpl_sim_t *sim)
{
    size_t n = cells(sim);
    int16_t *before = copy_plane(cur_of(sim), n);
    assert_int_equal(rpl_show_player_tick(p, sim), RPL_OK);
    const int16_t *after = cur_of(sim);
    dif.n = 0;
    /* most ticks lay nothing: one memcmp, not a loop over every cell,
     * which under an emulated CPU was most of this suite's time */
    for (size_t i = memcmp(after, before, n * sizeof *after) ? 0 : n; i < n; i++)
        if (after[i] != before[i]) {
            assert_true(dif.n < 4096);
            dif.x[dif.n] = (int)(i % (size_t)width_of(sim));
            dif.y[dif.n] = (int)(i / (size_t)width_of(sim));
            dif.v[dif.n] = after[i];
            dif.n++;
        }
    free(before);
    return &dif;
}

/* The height a show's stone of radius r and weight w adds at (dx, dy)
 * from its centre on still water: -w (1 - d^2/r^2)^3, rounded towards 0
 * (rpl_sim_bump in ripple_support.h), worked out here on its own. */
static int bump_at(int dx, int dy, int r, int w)
{
    long long t = (long long)r * r - ((long long)dx * dx + (long long)dy * dy);
    if (t <= 0)
        return 0;
    long long r6 = (long long)r * r * r * r * r * r;
    return (int)(-(long long)w * t * t * t / r6);
}

/* The tick changed exactly the cells of the bump of radius r around
 * (cx, cy) of weight w that are not 0, each to its height. */
static void assert_bump(const diff_t *d, const rpl_sim_t *sim, int cx, int cy, int r, int w)
{
    int n = 0;
    for (int y = 1; y < height_of(sim) - 1; y++)
        for (int x = 1; x < width_of(sim) - 1; x++)
            n += bump_at(x - cx, y - cy, r, w) != 0;
    assert_int_equal(d->n, n);
    for (int i = 0; i < d->n; i++) {
        int dx = d->x[i] - cx, dy = d->y[i] - cy;
        if (dx * dx + dy * dy >= r * r)
            fail_msg("cell (%d, %d) changed, outside the stone at (%d, %d) r %d", d->x[i],
                     d->y[i], cx, cy, r);
        assert_int_equal(d->v[i], bump_at(dx, dy, r, w));
    }
    /* the centre takes the whole weight */
    if (cx > 0 && cy > 0 && cx < width_of(sim) - 1 && cy < height_of(sim) - 1)
        assert_int_equal(cur_of(sim)[(size_t)cy * (size_t)width_of(sim) + (size_t)cx], -w);
}

/* The tick changed exactly these single cells (stones of radius 1). */
static void assert_cells(const diff_t *d, const int (*xy)[2], int n, int w)
{
    if (d->n != n) {
        for (int i = 0; i < d->n; i++)
            print_message("changed (%d, %d)\n", d->x[i], d->y[i]);
        fail_msg("%d cells changed, want %d", d->n, n);
    }
    for (int k = 0; k < n; k++) {
        int found = 0;
        for (int i = 0; i < d->n; i++)
            found |= d->x[i] == xy[k][0] && d->y[i] == xy[k][1] && d->v[i] == -w;
        if (!found)
            fail_msg("no stone of weight %d at (%d, %d)", w, xy[k][0], xy[k][1]);
    }
}

/* ---- parsing ------------------------------------------------------------ */

static void test_every_command_parses(void **state)
{
    (void)state;
    rpl_show_t *s = parse_ok(
        "# a comment before the header\n"
        "\n"
        "ripple-show 1\n"
        "@0    light on            # a comment after a command\n"
        "      light off\n"
        "      strength 0.75\n"
        "      stone 0.01\n"
        "\tstone 4px\n"
        "      weights 1.25 wave=0.5\n"
        "      edges absorb\n"
        "      edges reflect\n"
        "      picture default\n"
        "      picture \"my pool.png\"\n"
        "      rain 3 0.004 0.008 40 90\n"
        "      rain off\n"
        "      rain on\n"
        "      stones classic\n"
        "      stones smooth\n"
        "@10   drop 0.5 0.5 0.02 300\n"
        "+5    drop -10px 700px 3.5px -8192\n"
        "      ring 0.5 0.5 0.3 0.01 200 count=8 over=10\n"
        "+1s   trail 0.01 150 0.02 0.1 0.1 0.9 0.1 0.9 0.9 over=20\n"
        "      text \"Hi\\n\\\"you\\\" \\\\\" 0.5 0.5 0.03 120 radius=2px over=0.25s\n"
        "      wall rect 0 0.45 1 0.5\n"
        "      wall open 0.3 0.45 0.35 0.5\n"
        "      wall line 10px 10px 100px 60px 3px\n"
        "      wall clear\n"
        "      drop 0.25 0.2 4px 250 every=7 times=5\n"
        "      ?sparkle 0.5 0.5 whatever=1 \"and a string\"\n"
        "      drop 0.75 0.2 4px 250 ?glow=3\n"
        "      wait 0.5s\n"
        "@2s   cut\n"
        "+0    wait 10\n"
        "@200  loop\n"
        "# comments and blank lines after the end are fine\n"
        "\n");
    /* every command but wait and the optional one is an event */
    assert_int_equal(rpl_show_events(s), 28);
    assert_int_equal(rpl_show_length(s), 200);
    assert_int_equal(rpl_show_loops(s), 1);
    assert_int_equal(rpl_show_pictures(s), 2);
    int line = 0, col = 0;
    assert_string_equal(rpl_show_picture(s, 0, &line, &col), "default");
    assert_int_equal(line, 12);
    assert_int_equal(col, 7);
    assert_string_equal(rpl_show_picture(s, 1, &line, &col), "my pool.png");
    assert_int_equal(line, 13);
    assert_null(rpl_show_picture(s, 2, &line, &col));
    assert_null(rpl_show_picture(s, -1, NULL, NULL));
    rpl_show_destroy(s);

    /* CRLF line ends, a byte order mark, tabs, leading zeros */
    s = parse_ok("\xEF\xBB\xBFripple-show 01\r\n@0\tdrop\t0.5 0.5 0.01 300\r\n@010 end\r\n");
    assert_int_equal(rpl_show_events(s), 2);
    assert_int_equal(rpl_show_length(s), 10);
    assert_int_equal(rpl_show_loops(s), 0);
    rpl_show_destroy(s);

    /* without loop or end: the step after the last stone */
    s = parse_ok(H "@5 drop 0.5 0.5 0.01 300\n");
    assert_int_equal(rpl_show_length(s), 6);
    rpl_show_destroy(s);
    s = parse_ok(H "@5 ring 0.5 0.5 0.2 0.01 300 over=20\n@7 light on\n");
    assert_int_equal(rpl_show_length(s), 25);
    rpl_show_destroy(s);
    s = parse_ok(H "@5 drop 0.5 0.5 0.01 300 every=10 times=4\n");
    assert_int_equal(rpl_show_length(s), 5 + 30 + 1);
    rpl_show_destroy(s);
    s = parse_ok(H "@5 drop 0.5 0.5 0.01 300 every=10\n"); /* forever */
    assert_int_equal(rpl_show_length(s), 0);
    rpl_show_destroy(s);
    s = parse_ok(H "@5 light on\nwait 2s\n");
    assert_int_equal(rpl_show_length(s), 125);
    rpl_show_destroy(s);
    /* only the header: a show of nothing */
    s = parse_ok("ripple-show 1");
    assert_int_equal(rpl_show_events(s), 0);
    assert_int_equal(rpl_show_length(s), 0);
    rpl_show_destroy(s);
}

static void test_times(void **state)
{
    (void)state;
    /* @2.5s is step 150, +0.5s 30 more, +1/120 s rounds to the nearest step */
    rpl_show_t *s = parse_ok(H "@2.5s light on\n+0.5s light off\n+0.0084s end\n");
    assert_int_equal(rpl_show_length(s), 181);
    rpl_show_destroy(s);
    s = parse_ok(H "+7 light on\n+3 light off\nlight on\n+0 end\n");
    assert_int_equal(rpl_show_length(s), 10);
    rpl_show_destroy(s);
    /* the longest show */
    s = parse_ok(H "@100000000 end\n");
    assert_int_equal(rpl_show_length(s), 100000000);
    rpl_show_destroy(s);
}

/* Times in beats and bars after `tempo`: at 96 beats a minute a beat is
 * 3600 / 96 = 37.5 steps, a 4/4 bar 150; bar:beat counts both from 1. */
static uint64_t steps_at(const char *body)
{
    char text[512];
    snprintf(text, sizeof text, H "%s", body);
    rpl_show_t *s = parse_ok(text);
    uint64_t n = rpl_show_length(s);
    rpl_show_destroy(s);
    return n;
}

static void test_beats(void **state)
{
    (void)state;
    assert_int_equal(steps_at("tempo 96 4\n@1:1 light on\n+1 end\n"), 1);   /* bar 1 is step 0 */
    assert_int_equal(steps_at("tempo 96 4\n@5:1 end\n"), 600);            /* 4 bars */
    assert_int_equal(steps_at("tempo 96 4\n@5:3 end\n"), 675);            /* + 2 beats */
    assert_int_equal(steps_at("tempo 96 4\n@1:2 end\n"), 38);             /* 37.5, halves up */
    assert_int_equal(steps_at("tempo 96 4\n@1:2.5 end\n"), 56);           /* 56.25 */
    assert_int_equal(steps_at("tempo 96 4\n@1:4.999 end\n"), 150);        /* 149.9625 */
    assert_int_equal(steps_at("tempo 96 3\n@2:1 end\n"), 113);            /* a 3/4 bar: 112.5 */
    assert_int_equal(steps_at("tempo 120\n@3:1 end\n"), 240);             /* 4 by default */
    assert_int_equal(steps_at("tempo 96 4\n@16b end\n"), 600);
    assert_int_equal(steps_at("tempo 96 4\n@0.5bar end\n"), 75);
    assert_int_equal(steps_at("tempo 96 4\n@25:1 end\n"), 3600);          /* the music's loop */
    /* + adds exactly: three beats after a half-step are 112.5 on from 37.5,
     * not three rounded beats (38 + 38 + 38 = 114) */
    assert_int_equal(steps_at("tempo 96 4\n@1:2 light on\n+1b light on\n+1b light on\n"
                              "+1b end\n"), 150);
    assert_int_equal(steps_at("tempo 96 4\n@1:2 light on\nwait 3b\n@2:1 end\n"), 150);
    /* steps and seconds still mean steps, before and after the tempo */
    assert_int_equal(steps_at("@10 light on\ntempo 96 4\n+1b end\n"), 48);  /* 47.5 */
    assert_int_equal(steps_at("tempo 96 4\n@1:2 light on\n+1s end\n"), 98);  /* 37.5 + 60 */
    /* every= in beats: whole steps only; over= rounds */
    rpl_show_t *s = parse_ok(H "tempo 96 4\n@1:1 ring 0.5 0.5 0.1 0.01 100 every=2b "
                               "times=3 over=1b\n");
    assert_int_equal(rpl_show_length(s), 75 + 75 + 38);
    rpl_show_destroy(s);
    s = parse_ok(H "tempo 96 4\n@1:1 drop 0.5 0.5 0.01 100 every=1bar times=24\n");
    assert_int_equal(rpl_show_length(s), 23 * 150 + 1);
    rpl_show_destroy(s);

    /* the errors */
    bad(H "@5:3 drop 0.5 0.5 0.01 300\n",
        "t:2:1: time '@5:3' is in beats: write the tempo first ('tempo 96 4': beats a minute "
        "and a bar)");
    bad(H "wait 2b\n", "t:2:6: TIME '2b' is in beats: write the tempo first ('tempo 96 4': "
                       "beats a minute and a bar)");
    bad(H "tempo 96 4\n@5:5 end\n",
        "t:3:1: bad time '@5:5': a bar has beats 1 to 4.999 (tempo 96 4, line 2)");
    bad(H "tempo 96 4\n@5:0.5 end\n",
        "t:3:1: bad time '@5:0.5': a bar has beats 1 to 4.999 (tempo 96 4, line 2)");
    bad(H "tempo 96 4\n@0:1 end\n",
        "t:3:1: bad time '@0:1': want steps, seconds or beats after '@' or '+' (@120, @2s, +30, "
        "+0.5s, @5:3, +2b, +1bar)");
    bad(H "tempo 96 4\n@1.5:1 end\n",
        "t:3:1: bad time '@1.5:1': want steps, seconds or beats after '@' or '+' (@120, @2s, "
        "+30, +0.5s, @5:3, +2b, +1bar)");
    bad(H "tempo 96 4\n@1:1.0001 end\n",
        "t:3:1: bad time '@1:1.0001': want steps, seconds or beats after '@' or '+' (@120, "
        "@2s, +30, +0.5s, @5:3, +2b, +1bar)");
    bad(H "tempo 96 4\n+5:1 end\n",
        "t:3:1: bad time '+5:1': want steps, seconds or beats after '@' or '+' (@120, @2s, +30, "
        "+0.5s, @5:3, +2b, +1bar)");
    bad(H "tempo 96 4\n@5:1 light on\n@4:4 end\n",
        "t:4:1: @4:4 goes back in time: the line before is at step 600");
    bad(H "tempo 300 16\n@999999999:1 end\n",
        "t:3:1: time '@999999999:1' is past step 100000000, the longest a show may last");
    bad(H "tempo 20 1\n@555556b end\n",
        "t:3:1: time '@555556b' is past step 100000000, the longest a show may last");
    bad(H "tempo 20 1\n@99999999 cut\n+1b end\n",
        "t:4:1: +1b is past step 100000000, the longest a show may last");
    bad(H "tempo 96 4\ndrop 0.5 0.5 0.01 100 every=1b\n",
        "t:3:29: every=1b is not a whole number of steps at tempo 96 (a beat is 3600/96 steps): "
        "a repeat must be");
    bad(H "tempo 96 4\ndrop 0.5 0.5 0.01 100 every=0b\n",
        "t:3:29: bad every '0b': want steps, seconds or beats above 0 (30, 0.5s, 2b)");
    bad(H "tempo 96 4\nring 0.5 0.5 0.1 0.01 100 over=xb\n",
        "t:3:32: bad over 'xb': want steps, seconds or beats (30, 0.5s, 1b)");
    bad(H "tempo 96\ntempo 96\n", "t:3:1: the tempo is set once a show (line 2)");
    bad(H "@5 tempo 96\n", "t:2:1: 'tempo' takes no time: it says what beats are from its line "
                           "on");
    bad(H "tempo\n", "t:2:1: 'tempo' wants BPM [BEATS-A-BAR] (tempo 96 4), got 0 arguments");
    bad(H "tempo 96 4 4\n",
        "t:2:12: 'tempo' wants BPM [BEATS-A-BAR] (tempo 96 4), got 3 arguments");
    bad(H "tempo 19\n", "t:2:7: bad BPM '19': want whole beats a minute, 20..300");
    bad(H "tempo 96.5\n", "t:2:7: bad BPM '96.5': want whole beats a minute, 20..300");
    bad(H "tempo 96 17\n", "t:2:10: bad BEATS-A-BAR '17': want a whole number 1..16");
}

static void test_errors(void **state)
{
    (void)state;
    /* the header */
    bad("", "t:1:1: expected \"ripple-show 1\" first: the show is empty");
    bad("# nothing\n\n   \n", "t:1:1: expected \"ripple-show 1\" first: the show is empty");
    bad("drop 0.5 0.5 0.01 300\n",
        "t:1:1: expected \"ripple-show 1\" first (the format and its version)");
    bad("\n  @0 ripple-show 1\n", "t:2:3: expected \"ripple-show 1\" first (the format and its version)");
    bad("ripple-show\n", "t:1:1: expected \"ripple-show 1\": the version is missing");
    bad("ripple-show x\n", "t:1:13: bad version 'x': want a whole number (ripple-show 1)");
    bad("ripple-show 0\n", "t:1:13: bad version '0': want a whole number (ripple-show 1)");
    bad("ripple-show 2\n", "t:1:13: this is a ripple-show 2 file; this ripple plays version 1");
    bad("ripple-show 1 extra\n",
        "t:1:15: 'extra' after the version: the header is just \"ripple-show 1\"");

    /* times */
    bad(H "@x drop 0.5 0.5 0.01 300\n",
        "t:2:1: bad time '@x': want steps, seconds or beats after '@' "
        "or '+' (@120, @2s, +30, +0.5s, @5:3, +2b, +1bar)");
    bad(H "@-5 cut\n",
        "t:2:1: bad time '@-5': want steps, seconds or beats after '@' "
        "or '+' (@120, @2s, +30, +0.5s, @5:3, +2b, +1bar)");
    bad(H "  +1.5 cut\n",
        "t:2:3: bad time '+1.5': want steps, seconds or beats after '@' "
        "or '+' (@120, @2s, +30, +0.5s, @5:3, +2b, +1bar)");
    bad(H "@0x10 cut\n",
        "t:2:1: bad time '@0x10': want steps, seconds or beats after '@' "
        "or '+' (@120, @2s, +30, +0.5s, @5:3, +2b, +1bar)");
    bad(H "@100000001 cut\n", "t:2:1: bad time '@100000001': want steps, seconds or beats after "
                              "'@' or '+' (@120, @2s, +30, +0.5s, @5:3, +2b, +1bar)");
    bad(H "@10 cut\n@5 cut\n", "t:3:1: @5 goes back in time: the line before is at step 10");
    bad(H "@1s cut\n@59 cut\n", "t:3:1: @59 goes back in time: the line before is at step 60");
    bad(H "+99999999 cut\n+2 cut\n",
        "t:3:1: +2 is past step 100000000, the longest a show may last");
    bad(H "@99999999 wait 2\n",
        "t:2:11: the wait goes past step 100000000, the longest a show may last");
    bad(H "@10\n", "t:2:1: a command must follow the time (or write 'wait')");

    /* commands and their arguments */
    bad(H "jump 1\n", "t:2:1: unknown command 'jump' (an optional one is written '?jump')");
    bad(H "@5 \"drop\" 0.5 0.5 0.01 300\n",
        "t:2:4: unknown command 'drop' (an optional one is written '?drop')");
    bad(H "DROP 0.5 0.5 0.01 300\n",
        "t:2:1: unknown command 'DROP' (an optional one is written '?DROP')");
    bad(H "drop 0.5 0.5 0.01\n", "t:2:14: 'drop' needs 4 arguments (X Y RADIUS WEIGHT), got 3");
    bad(H "drop\n", "t:2:1: 'drop' needs 4 arguments (X Y RADIUS WEIGHT), got 0");
    bad(H "drop 0.5 0.5 0.01 300 9\n",
        "t:2:23: 'drop' takes 4 arguments (X Y RADIUS WEIGHT): '9' is one too many");
    bad(H "drop abc 0.5 0.01 300\n", "t:2:6: bad X 'abc': want a fraction of the width, -4..4 "
                                     "(0.5), or cells, -65536..65536 (320px)");
    bad(H "drop 0.5 5 0.01 300\n", "t:2:10: bad Y '5': want a fraction of the height, -4..4 "
                                   "(0.5), or cells, -65536..65536 (320px)");
    bad(H "drop 0.5 +0.5 0.01 300\n", "t:2:10: bad Y '+0.5': want a fraction of the height, "
                                      "-4..4 (0.5), or cells, -65536..65536 (320px)");
    bad(H "drop 70000px 0.5 0.01 300\n", "t:2:6: bad X '70000px': want a fraction of the width, "
                                         "-4..4 (0.5), or cells, -65536..65536 (320px)");
    bad(H "drop 1e400 0.5 0.01 300\n", "t:2:6: bad X '1e400': want a fraction of the width, "
                                       "-4..4 (0.5), or cells, -65536..65536 (320px)");
    bad(H "drop px 0.5 0.01 300\n", "t:2:6: bad X 'px': want a fraction of the width, -4..4 "
                                    "(0.5), or cells, -65536..65536 (320px)");
    bad(H "drop 0.5 0.5 0 300\n", "t:2:14: bad RADIUS '0': want a length above 0, a fraction of "
                                  "the shorter side up to 4 (0.01) or cells up to 65536 (6px)");
    bad(H "drop 0.5 0.5 -3px 300\n", "t:2:14: bad RADIUS '-3px': want a length above 0, a "
                                     "fraction of the shorter side up to 4 (0.01) or cells up to "
                                     "65536 (6px)");
    bad(H "drop 0.5 0.5 0.01 9000\n", "t:2:19: bad WEIGHT '9000': want a whole number -8192..8192");
    bad(H "drop 0.5 0.5 0.01 30.5\n", "t:2:19: bad WEIGHT '30.5': want a whole number -8192..8192");
    bad(H "ring 0.5 0.5 0.2 0.01 300 count=0\n",
        "t:2:33: bad count '0': want a whole number 1..4096");
    bad(H "ring 0.5 0.5 0.2 0.01\n",
        "t:2:18: 'ring' needs 5 arguments (X Y RING_RADIUS RADIUS WEIGHT), got 4");
    bad(H "trail 0.01 300 0.02 0.1 0.1\n",
        "t:2:25: 'trail' needs 7 arguments (RADIUS WEIGHT SPACING X0 Y0 X1 Y1), got 5");
    bad(H "trail 0.01 300 0.02 0.1 0.1 0.2 0.2 0.3\n",
        "t:2:37: the trail's points come in pairs: this X has no Y");
    bad(H "trail 0.01 300 0.02 0.1 0.1 0.2 y\n", "t:2:33: bad Y1 'y': want a fraction of the "
                                                "height, -4..4 (0.5), or cells, -65536..65536 "
                                                "(320px)");
    bad(H "text RIPPLE 0.5 0.5 0.02 200\n",
        "t:2:6: the text must be in double quotes (\"RIPPLE\")");
    bad(H "text \"\" 0.5 0.5 0.02 200\n", "t:2:6: the text is empty");
    bad(H "text \"a\\tb\" 0.5 0.5 0.02 200\n",
        "t:2:8: unknown escape in a string (\\\", \\\\ and \\n are known)");
    bad(H "text \"abc 0.5\n", "t:2:6: the string is not closed (a '\"' is missing)");
    bad(H "text \"abc\\\" 0.5\n", "t:2:6: the string is not closed (a '\"' is missing)");
    bad(H "text \"abc\\", "t:2:6: the string is not closed (a '\"' is missing)");
    bad(H "text \"a\"b 0.5 0.5 0.02 200\n", "t:2:9: a space must follow the string");
    bad(H "text \"a\tb\" 0.5 0.5 0.02 200\n", "t:2:8: control character 0x09 in a string");
    bad(H "text \"\xC3\xA9t\xC3\xA9\" 0.5 0.5 0.02 200\n",
        "t:2:6: the text holds byte 0xC3: only printable ASCII and \\n");
    bad(H "text \"12345678901234567890123456789012345678901234567890123456789012345\" 0.5 0.5 "
          "0.02 200\n", "t:2:6: the text is longer than 64 bytes");
    bad(H "text \"A\" 0.5 0.5 0.02 200 radius=0\n", "t:2:34: bad radius '0': want a length above "
                                                   "0, a fraction of the shorter side up to 4 "
                                                   "(0.01) or cells up to 65536 (6px)");
    bad(H "rain\n", "t:2:1: 'rain' wants on, off or 5 numbers (RATE RMIN RMAX WMIN WMAX), got 0 "
                    "arguments");
    bad(H "rain maybe\n", "t:2:6: 'rain' wants on, off or 5 numbers (RATE RMIN RMAX WMIN WMAX), "
                          "got 1 argument");
    bad(H "rain 2000 1px 2px 10 20\n", "t:2:6: bad RATE '2000': want stones per second, 0..1000");
    bad(H "rain 5 1px 2px 30 20\n", "t:2:19: WMAX 20 is below WMIN 30");
    bad(H "rain 5 1px 2px 30 20 10\n", "t:2:22: 'rain' takes 5 arguments (RATE RMIN RMAX WMIN "
                                       "WMAX): '10' is one too many");
    bad(H "rain on now\n", "t:2:9: 'rain on' takes 0 arguments (none): 'now' is one too many");
    bad(H "light dim\n", "t:2:7: bad 'dim': want on or off");
    bad(H "light\n", "t:2:1: 'light' needs 1 argument (on|off), got 0");
    bad(H "light \"on\"\n", "t:2:7: bad 'on': want on or off");
    bad(H "strength 5\n", "t:2:10: bad STRENGTH '5': want 0..4 (1 is 1:1)");
    bad(H "strength -1\n", "t:2:10: bad STRENGTH '-1': want 0..4 (1 is 1:1)");
    bad(H "stone big\n", "t:2:7: bad RADIUS 'big': want a length above 0, a fraction of the "
                         "shorter side up to 4 (0.01) or cells up to 65536 (6px)");
    bad(H "wall\n", "t:2:1: 'wall' wants rect, open, line or clear");
    bad(H "wall circle 1 2\n", "t:2:6: 'wall' wants rect, open, line or clear, not 'circle'");
    bad(H "wall rect 0 0 1\n", "t:2:15: 'wall rect' needs 4 arguments (X0 Y0 X1 Y1), got 3");
    bad(H "wall line 0 0 1 1\n",
        "t:2:17: 'wall line' needs 5 arguments (X0 Y0 X1 Y1 THICKNESS), got 4");
    bad(H "wall clear now\n", "t:2:12: 'wall clear' takes 0 arguments (none): 'now' is one too many");
    bad(H "edges wrap\n", "t:2:7: bad 'wrap': want reflect or absorb");
    bad(H "stones round\n", "t:2:8: bad 'round': want smooth or classic");
    bad(H "stones\n", "t:2:1: 'stones' needs 1 argument (smooth|classic), got 0");
    bad(H "picture \"\"\n", "t:2:9: a picture's name has 1 to 255 bytes");
    bad(H "picture caf\xC3\xA9.png\n", "t:2:9: the picture's name holds byte 0xC3: only printable ASCII");
    bad(H "picture a b\n", "t:2:11: 'picture' takes 1 argument (NAME): 'b' is one too many");
    bad(H "cut 1\n", "t:2:5: 'cut' takes 0 arguments (none): '1' is one too many");
    bad(H "wait\n", "t:2:1: 'wait' needs 1 argument (TIME), got 0");
    bad(H "wait soon\n", "t:2:6: bad TIME 'soon': want steps, seconds or beats (120, 2s, "
                            "0.5s, 2b, 1bar)");
    bad(H "loop\n", "t:2:1: 'loop' at step 0: a show lasts at least one step");
    bad(H "end\n", "t:2:1: 'end' at step 0: a show lasts at least one step");
    bad(H "@10 loop\n@20 cut\n", "t:3:1: nothing may follow 'loop' (line 2)");
    bad(H "@10 end\n  cut\n", "t:3:3: nothing may follow 'end' (line 2)");
    bad(H "@10 end\n?later 1\n", "t:3:1: nothing may follow 'end' (line 2)");

    /* options */
    bad(H "drop 0.5 0.5 0.01 300 speed=3\n",
        "t:2:23: unknown option 'speed' (an optional one is written '?NAME=VALUE')");
    bad(H "drop 0.5 0.5 0.01 300 over=3\n", "t:2:23: 'drop' takes no option 'over'");
    bad(H "drop 0.5 0.5 0.01 300 every=5 every=6\n", "t:2:31: option 'every' is given twice");
    bad(H "drop 0.5 0.5 0.01 300 times=3\n", "t:2:23: times= goes with every=");
    bad(H "ring 0.5 0.5 0.2 0.01 300 every=5 over=10\n",
        "t:2:40: over= is longer than every=: the repeats would overlap");
    bad(H "drop 0.5 0.5 0.01 300 every=\n", "t:2:29: option 'every' needs a value");
    bad(H "drop 0.5 0.5 0.01 300 every=0\n",
        "t:2:29: bad every '0': want steps, seconds or beats above 0 (30, 0.5s, 2b)");
    bad(H "drop 0.5 0.5 0.01 300 every=5 times=0\n",
        "t:2:37: bad times '0': want a whole number 1..1000000");
    bad(H "drop 0.5 0.5 0.01 300 =5\n",
        "t:2:23: unknown option '' (an optional one is written '?NAME=VALUE')");

    /* bytes */
    bad(H "drop\x01 0.5\n", "t:2:5: control character 0x01 (words are separated by spaces or tabs)");
    bad(H "\x7f\n", "t:2:1: control character 0x7F (words are separated by spaces or tabs)");
    parse_bad(H "cut\0\n", sizeof H "cut\0\n" - 1, "t:2:4: a NUL byte: this is not a text file");
    parse_bad(H "# \0 in a comment\n", sizeof H "# \0 in a comment\n" - 1,
              "t:2:3: a NUL byte: this is not a text file");
}

/* Errors past the limits: long lines, many commands, points, actions. */
static void test_limits(void **state)
{
    (void)state;
    /* a line of 4096 bytes is fine, 4097 is not */
    char *t = xmalloc(3 * 1024 * 1024);
    strcpy(t, H "cut");
    memset(t + strlen(t), ' ', 4093);
    strcpy(t + strlen(H) + 4096, "\n");
    rpl_show_t *s = parse_ok(t);
    rpl_show_destroy(s);
    memcpy(t + strlen(H) + 4096, " \n", 3);
    bad(t, "t:2:4097: the line is longer than 4096 bytes");

    /* 65536 commands are fine, one more is not (a step apart: at one step
     * they would be over the work budget, test_budget) */
    size_t n = strlen(strcpy(t, H));
    for (int i = 0; i < 65536; i++)
        n += (size_t)sprintf(t + n, "+1 cut\n");
    s = parse_ok(t);
    assert_int_equal(rpl_show_events(s), 65536);
    rpl_show_destroy(s);
    strcpy(t + n, "cut\n");
    bad(t, "t:65538:1: more than 65536 commands in one show");

    /* 256 points in a trail, not 257 */
    n = strlen(strcpy(t, H "trail 1px 100 5px"));
    for (int i = 0; i < 256; i++)
        n += (size_t)sprintf(t + n, " %dpx 7px", i);
    strcpy(t + n, "\n");
    s = parse_ok(t);
    rpl_show_destroy(s);
    int col = (int)n + 2 - (int)strlen(H);
    strcpy(t + n, " 1 1\n");
    char want[160];
    snprintf(want, sizeof want, "t:2:%d: a trail has at most 256 points", col);
    bad(t, want);

    /* 256 commands laying stones at once, not 257 */
    n = strlen(strcpy(t, H));
    for (int i = 0; i < 256; i++)
        n += (size_t)sprintf(t + n, "drop 0.5 0.5 1px 1 every=1\n");
    s = parse_ok(t);
    rpl_show_destroy(s);
    strcpy(t + n, "ring 0.5 0.5 0.2 1px 1\n");
    bad(t, "t:258:1: more than 256 commands lay stones at once (at step 0)");
    /* but one after another they are fine: each drop is over in a step */
    n = strlen(strcpy(t, H));
    for (int i = 0; i < 300; i++)
        n += (size_t)sprintf(t + n, "+1 drop 0.5 0.5 1px 1\n");
    s = parse_ok(t);
    rpl_show_destroy(s);

    /* the text's dots: a million at most (each "8" has 17) */
    n = strlen(strcpy(t, H));
    for (int i = 0; i < 1000 && n < 2 * 1024 * 1024; i++)
        n += (size_t)sprintf(t + n, "+1 text \"8888888888888888888888888888888888888888888888888888"
                                    "888888888888\" 0.5 0.5 1px 1\n");
    rpl_show_t *big = NULL;
    /* 1000 lines of 89 bytes: under a megabyte, over a million dots */
    assert_true(n < (size_t)RPL_SHOW_BYTES_MAX);
    assert_int_equal(rpl_show_parse(t, n, "t", &big), RPL_EFORMAT);
    /* 1048576 / (64 * 17) = 963.8: the 964th text overflows, on line 965 */
    assert_string_equal(rpl_show_error(big),
                        "t:965:9: too much text: more than 1048576 dots in the show");
    rpl_show_destroy(big);

    /* over a megabyte */
    memset(t, '#', (size_t)RPL_SHOW_BYTES_MAX + 1);
    parse_bad(t, (size_t)RPL_SHOW_BYTES_MAX + 1, "t:1:1: the show is larger than 1048576 bytes");
    free(t);
}

/* The text need not end in a NUL: parsing never reads past len. */
static void test_no_overread(void **state)
{
    (void)state;
    static const char *const texts[] = {
        H "@5 drop 0.5 0.5 0.01 300",
        H "text \"ab",
        H "text \"ab\\",
        H "@",
        H "+",
        H "drop 0.5 0.5 0.01 300 every=",
        H "drop 1px",
        "ripple-show",
        "\xEF\xBB",
        "#",
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        size_t len = strlen(texts[i]);
        for (size_t cut = 0; cut <= len; cut++) {
            /* the first `cut` bytes, flush against a guard page */
            unsigned char *g = guard_slot(0, cut, 1);
            memcpy(g, texts[i], cut);
            rpl_show_t *s = NULL;
            rpl_status st = rpl_show_parse((const char *)g, cut, "t", &s);
            assert_non_null(s);
            assert_true(st == RPL_OK || st == RPL_EFORMAT);
            rpl_show_destroy(s);
        }
    }
    guard_slots_release();
}

static void test_null_and_misuse(void **state)
{
    (void)state;
    rpl_show_t *s = NULL;
    assert_int_equal(rpl_show_parse("x", 1, "t", NULL), RPL_EINVAL);
    assert_int_equal(rpl_show_parse(NULL, 5, "t", &s), RPL_EINVAL);
    assert_non_null(s);
    assert_string_equal(rpl_show_error(s), "t: no text (NULL)");
    rpl_show_destroy(s);
    /* NULL with len 0 is an empty show; no name is "show" */
    assert_int_equal(rpl_show_parse(NULL, 0, NULL, &s), RPL_EFORMAT);
    assert_string_equal(rpl_show_error(s), "show:1:1: expected \"ripple-show 1\" first: the show "
                                           "is empty");
    rpl_show_destroy(s);
    assert_int_equal(rpl_show_read(NULL, &s), RPL_EINVAL);
    assert_string_equal(rpl_show_error(s), "no show file (NULL)");
    rpl_show_destroy(s);
    assert_int_equal(rpl_show_read("", &s), RPL_EINVAL);
    assert_string_equal(rpl_show_error(s), "no show file (an empty name)");
    rpl_show_destroy(s);
    assert_int_equal(rpl_show_read("x", NULL), RPL_EINVAL);

    assert_string_equal(rpl_show_error(NULL), "no show (NULL)");
    rpl_show_destroy(NULL);
    assert_int_equal(rpl_show_events(NULL), 0);
    assert_int_equal(rpl_show_length(NULL), 0);
    assert_int_equal(rpl_show_loops(NULL), 0);
    assert_int_equal(rpl_show_pictures(NULL), 0);
    assert_null(rpl_show_picture(NULL, 0, NULL, NULL));

    rpl_status st = RPL_OK;
    {
        rpl_show_player_t *f_ = NULL;
        st = rpl_show_player_create(NULL, 1, &f_);
        assert_non_null(f_); /* a failed handle, which says why */
        assert_true(rpl_show_player_error(f_)[0] != '\0');
        rpl_show_player_destroy(f_);
    }
    assert_int_equal(st, RPL_EINVAL);
    assert_int_equal(rpl_show_player_create(NULL, 1, NULL), RPL_EINVAL);
    rpl_show_player_destroy(NULL);
    assert_int_equal(rpl_show_player_tick(NULL, NULL), RPL_EINVAL);
    assert_int_equal(rpl_show_player_changed(NULL), 0);
    assert_null(rpl_show_player_view(NULL));
    assert_int_equal(rpl_show_player_time(NULL), 0);
    assert_int_equal(rpl_show_player_loops(NULL), 0);
    assert_int_equal(rpl_show_player_done(NULL), 0);
    rpl_show_player_rewind(NULL);
    rpl_show_player_set_rain(NULL, 1);

    s = parse_ok(H "@1 drop 0.5 0.5 1px 1\n");
    rpl_show_player_t *p = player_of(s, 1);
    assert_int_equal(rpl_show_player_tick(p, NULL), RPL_EINVAL);
    assert_int_equal(rpl_show_player_time(p), 0); /* nothing played */
    rpl_show_player_destroy(p);
    rpl_show_destroy(s);
}

static void test_read_file(void **state)
{
    (void)state;
    char dir[300] = "/tmp/test_show.XXXXXX";
    assert_non_null(host_mkdtemp(dir, sizeof dir));
    char path[400], want[600];
    snprintf(path, sizeof path, "%s/a.show", dir);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(H "@3 drop 0.5 0.5 1px 100\n@4 cut\nwobble\n", f);
    fclose(f);
    rpl_show_t *s = NULL;
    assert_int_equal(rpl_show_read(path, &s), RPL_EFORMAT);
    snprintf(want, sizeof want, "%s:4:1: unknown command 'wobble' (an optional one is written "
                                "'?wobble')", path);
    assert_string_equal(rpl_show_error(s), want);
    rpl_show_destroy(s);

    f = fopen(path, "wb");
    fputs(H "@3 drop 0.5 0.5 1px 100\n@4 end\n", f);
    fclose(f);
    assert_int_equal(rpl_show_read(path, &s), RPL_OK);
    assert_int_equal(rpl_show_events(s), 2);
    rpl_show_destroy(s);

    /* missing, a directory, too large */
    snprintf(path, sizeof path, "%s/none.show", dir);
    assert_int_equal(rpl_show_read(path, &s), RPL_EIO);
    snprintf(want, sizeof want, "%s: No such file or directory", path);
    assert_string_equal(rpl_show_error(s), want);
    rpl_show_destroy(s);
    assert_int_equal(rpl_show_read(dir, &s), RPL_EIO);
    snprintf(want, sizeof want, "%s: Is a directory", dir);
    assert_string_equal(rpl_show_error(s), want);
    rpl_show_destroy(s);
    snprintf(path, sizeof path, "%s/big.show", dir);
    f = fopen(path, "wb");
    for (long i = 0; i <= RPL_SHOW_BYTES_MAX; i++)
        fputc('#', f);
    fclose(f);
    assert_int_equal(rpl_show_read(path, &s), RPL_EIO);
    snprintf(want, sizeof want, "%s: larger than 1048576 bytes", path);
    assert_string_equal(rpl_show_error(s), want);
    rpl_show_destroy(s);
    unlink(path);
    snprintf(path, sizeof path, "%s/a.show", dir);
    unlink(path);
    rmdir(dir);
}

/* ---- the player: each command on the field ------------------------------ */

/* A drop lands in the tick of its step, not before or after; positions
 * are fractions of the width and height, lengths of the shorter side. */
static void test_drop_timing(void **state)
{
    (void)state;
    rpl_show_t *s = parse_ok(H "@120 drop 0.5 0.25 0.05 300\n"
                               "@2.5s drop 30px 70px 3px -200\n");
    rpl_sim_t *sim = new_sim(100, 80, 1);
    rpl_show_player_t *p = player_of(s, 1);
    for (int i = 0; i < 120; i++) {
        assert_int_equal(rpl_show_player_time(p), (uint64_t)i);
        assert_int_equal(tick_diff(p, sim)->n, 0);
        rpl_sim_step(sim);
        assert_int_equal(rpl_sim_energy(sim), 0);
    }
    /* step 120: x = 0.5 * 100, y = 0.25 * 80, r = 0.05 * 80; the radius a
     * share of the field, the weight too: 300 * 80 / 480 */
    assert_bump(tick_diff(p, sim), sim, 50, 20, 4, 50);
    assert_false(rpl_show_player_done(p));
    rpl_sim_step(sim);
    for (int i = 121; i < 150; i++) {
        size_t n = cells(sim);
        int16_t *before = copy_plane(cur_of(sim), n);
        assert_int_equal(rpl_show_player_tick(p, sim), RPL_OK);
        assert_plane_equal(cur_of(sim), before, n); /* the tick laid nothing */
        free(before);
        rpl_sim_step(sim);
    }
    /* step 150 (2.5 s): a stone that raises the water, in cells (its
     * weight as written) */
    rpl_sim_reset(sim, 1);
    assert_bump(tick_diff(p, sim), sim, 30, 70, 3, -200);
    assert_true(rpl_show_player_done(p));
    assert_true(rpl_show_player_changed(p) & RPL_SHOW_ENDED);
    assert_int_equal(tick_diff(p, sim)->n, 0); /* over */
    rpl_show_player_destroy(p);
    rpl_show_destroy(s);
    rpl_sim_destroy(sim);

    /* on a field of another shape the same show finds its places */
    s = parse_ok(H "drop 0.25 0.75 0.1 250\n");
    sim = new_sim(200, 60, 1);
    p = player_of(s, 1);
    assert_bump(tick_diff(p, sim), sim, 50, 45, 6, 31); /* 250 * 60 / 480, rounded */
    rpl_show_player_destroy(p);
    rpl_sim_destroy(sim);
    /* radii stay in 1..RPL_RADIUS_MAX */
    sim = new_sim(20, 16, 1);
    p = player_of(s, 1);
    assert_bump(tick_diff(p, sim), sim, 5, 12, 2, 8); /* 250 * 16 / 480 */
    rpl_show_player_destroy(p);
    rpl_show_destroy(s);
    s = parse_ok(H "drop 0.5 0.5 0.0001 250\n");
    p = player_of(s, 1);
    rpl_sim_reset(sim, 1);
    assert_bump(tick_diff(p, sim), sim, 10, 8, 1, 8);
    rpl_show_player_destroy(p);
    rpl_show_destroy(s);
    rpl_sim_destroy(sim);
}

/* ring: count stones around a circle, clockwise from the top, spread
 * over `over` steps: stone i at step floor(i * over / count). */
static void test_ring_over(void **state)
{
    (void)state;
    rpl_show_t *s = parse_ok(H "@2 ring 50px 40px 20px 1px 120 count=4 over=8\n");
    rpl_sim_t *sim = new_sim(100, 80, 1);
    rpl_show_player_t *p = player_of(s, 1);
    static const int at[4][2] = { { 50, 20 }, { 70, 40 }, { 50, 60 }, { 30, 40 } };
    int k = 0;
    for (int t = 0; t < 12; t++) {
        const diff_t *d = tick_diff(p, sim);
        /* stones at steps 2 + floor(i * 8 / 4) = 2, 4, 6, 8 */
        if (t >= 2 && t <= 8 && (t - 2) % 2 == 0) {
            assert_cells(d, &at[k], 1, 120);
            k++;
        } else {
            assert_int_equal(d->n, 0);
        }
    }
    assert_int_equal(k, 4);
    assert_true(rpl_show_player_done(p));
    rpl_show_player_destroy(p);
    rpl_show_destroy(s);

    /* all at once, with more stones than steps: 3 stones over 2 steps lay
     * stones 0 and 1 at the first step (floor(1 * 2 / 3) = 0), 2 at the next */
    s = parse_ok(H "ring 50px 40px 20px 1px 77 count=3 over=2\n");
    p = player_of(s, 1);
    rpl_sim_reset(sim, 1);
    const diff_t *d = tick_diff(p, sim);
    assert_int_equal(d->n, 2);
    assert_int_equal(tick_diff(p, sim)->n, 1);
    assert_int_equal(tick_diff(p, sim)->n, 0);
    rpl_show_player_destroy(p);
    rpl_show_destroy(s);
    rpl_sim_destroy(sim);
}

/* trail: stones evenly along the polyline, both ends included, no more
 * than SPACING apart. */
static void test_trail(void **state)
{
    (void)state;
    rpl_sim_t *sim = new_sim(100, 80, 1);
    rpl_show_t *s = parse_ok(H "trail 1px 200 10px 10px 10px 30px 10px 30px 30px\n");
    rpl_show_player_t *p = player_of(s, 1);
    static const int want[5][2] = { { 10, 10 }, { 20, 10 }, { 30, 10 }, { 30, 20 }, { 30, 30 } };
    assert_cells(tick_diff(p, sim), want, 5, 200);
    rpl_show_player_destroy(p);
    rpl_show_destroy(s);

    /* length 30 at spacing 8: 4 gaps of 7.5, rounded to the nearest cell */
    s = parse_ok(H "trail 1px 90 8px 10px 50px 40px 50px over=5\n");
    p = player_of(s, 1);
    rpl_sim_reset(sim, 1);
    /* 5 stones over 5 steps: one a step, from the first point on */
    static const int xs[5] = { 10, 18, 25, 33, 40 }; /* 17.5 and 32.5 round away from 0 */
    for (int i = 0; i < 5; i++) {
        int c[1][2] = { { xs[i], 50 } };
        assert_cells(tick_diff(p, sim), (const int (*)[2])c, 1, 90);
    }
    assert_int_equal(tick_diff(p, sim)->n, 0);
    rpl_show_player_destroy(p);
    rpl_show_destroy(s);

    /* several trails in one show each keep their own points */
    s = parse_ok(H "trail 1px 50 100px 5px 5px 5px 6px\n"
                   "@1 trail 1px 60 10px 60px 20px 60px 40px 70px 40px\n"
                   "@2 trail 1px 70 20px 90px 70px 50px 70px\n");
    p = player_of(s, 1);
    rpl_sim_reset(sim, 1);
    static const int t0[2][2] = { { 5, 5 }, { 5, 6 } };
    static const int t1[4][2] = { { 60, 20 }, { 60, 30 }, { 60, 40 }, { 70, 40 } };
    static const int t2[3][2] = { { 90, 70 }, { 70, 70 }, { 50, 70 } };
    assert_cells(tick_diff(p, sim), t0, 2, 50);
    assert_cells(tick_diff(p, sim), t1, 4, 60);
    assert_cells(tick_diff(p, sim), t2, 3, 70);
    rpl_show_player_destroy(p);
    rpl_show_destroy(s);
    rpl_sim_destroy(sim);
}

/* text: the built-in font's dots, centred on X Y, CELL apart. */
static void test_text(void **state)
{
    (void)state;
    rpl_sim_t *sim = new_sim(100, 80, 1);
    rpl_show_t *s = parse_ok(H "text \"I\" 50px 40px 3px 150 radius=1px\n");
    rpl_show_player_t *p = player_of(s, 1);
    /* 'I' in the 5x7 font (written out here):
     *   .###.
     *   ..#..   (5 rows)
     *   .###.
     * the block is 5 dots wide and 7 high, so dot (c, r) lies at
     * (50 + (c - 2) * 3, 40 + (r - 3) * 3) */
    int want[11][2], n = 0;
    for (int c = 1; c <= 3; c++) {
        want[n][0] = 50 + (c - 2) * 3, want[n][1] = 40 - 9, n++;
        want[n][0] = 50 + (c - 2) * 3, want[n][1] = 40 + 9, n++;
    }
    for (int r = 1; r <= 5; r++)
        want[n][0] = 50, want[n][1] = 40 + (r - 3) * 3, n++;
    assert_cells(tick_diff(p, sim), (const int (*)[2])want, n, 150);
    rpl_show_player_destroy(p);
    rpl_show_destroy(s);

    /* two lines, written column by column: "-\n." over 3 steps.  '-' is
     * row 3 across 5 columns, '.' two columns (1, 2) of rows 5 and 6 of the
     * line below (10 rows down).  Block: 5 x 17 dots, centre (2, 8). */
    s = parse_ok(H "text \"-\\n.\" 50px 40px 2px 99 radius=1px over=3\n");
    p = player_of(s, 1);
    rpl_sim_reset(sim, 1);
    /* dots in order: (0,3) (1,3) (1,15) (1,16) (2,3) (2,15) (2,16) (3,3) (4,3):
     * 9 dots over 3 steps, 3 a step */
    static const int dots[9][2] = { { 0, 3 }, { 1, 3 }, { 1, 15 }, { 1, 16 }, { 2, 3 },
                                    { 2, 15 }, { 2, 16 }, { 3, 3 }, { 4, 3 } };
    for (int step = 0; step < 3; step++) {
        int c[3][2];
        for (int i = 0; i < 3; i++) {
            c[i][0] = 50 + (dots[3 * step + i][0] - 2) * 2;
            c[i][1] = 40 + (dots[3 * step + i][1] - 8) * 2;
        }
        assert_cells(tick_diff(p, sim), (const int (*)[2])c, 3, 99);
    }
    rpl_show_player_destroy(p);
    rpl_show_destroy(s);
    rpl_sim_destroy(sim);
}

/* every=P times=N: the command again every P steps, N times in all. */
static void test_repeat(void **state)
{
    (void)state;
    rpl_sim_t *sim = new_sim(60, 40, 1);
    rpl_show_t *s = parse_ok(H "@3 drop 20px 20px 1px 100 every=10 times=3\n"
                               "@4 drop 40px 20px 1px 50 every=0.5s\n"
                               "@100 end\n");
    rpl_show_player_t *p = player_of(s, 1);
    int first = 0, second = 0;
    for (int t = 0; t < 120; t++) {
        rpl_sim_reset(sim, 1);
        const diff_t *d = tick_diff(p, sim);
        int want = 0;
        if (t < 100 && t >= 3 && (t - 3) % 10 == 0 && t <= 23)
            want++, first++;
        if (t < 100 && t >= 4 && (t - 4) % 30 == 0)
            want++, second++;
        assert_int_equal(d->n, want);
    }
    assert_int_equal(first, 3);
    assert_int_equal(second, 4); /* 4, 34, 64, 94, then the end */
    assert_true(rpl_show_player_done(p));
    rpl_show_player_destroy(p);
    rpl_show_destroy(s);
    rpl_sim_destroy(sim);
}

/* loop: step 0 again in the tick of the loop's step; end: over. */
static void test_loop(void **state)
{
    (void)state;
    rpl_sim_t *sim = new_sim(60, 40, 1);
    rpl_show_t *s = parse_ok(H "drop 10px 10px 1px 100\n"
                               "@4 ring 30px 20px 5px 1px 70 count=4 over=20\n"
                               "@7 drop 50px 30px 1px 60\n"
                               "@10 loop\n");
    rpl_show_player_t *p = player_of(s, 1);
    static const int first[1][2] = { { 10, 10 } };
    for (int pass = 0; pass < 3; pass++) {
        for (int t = 0; t < 10; t++) {
            rpl_sim_reset(sim, 1);
            /* before the tick of the loop, the clock stands at the loop's step */
            assert_int_equal(rpl_show_player_time(p), (uint64_t)(t == 0 && pass > 0 ? 10 : t));
            const diff_t *d = tick_diff(p, sim);
            if (t == 0) {
                assert_cells(d, first, 1, 100);
                /* the loop happened in this tick, after the first pass */
                assert_int_equal(!!(rpl_show_player_changed(p) & RPL_SHOW_LOOPED), pass > 0);
            } else if (t == 4) {
                assert_int_equal(d->n, 1); /* the ring's first stone (of 4 over 20 steps) */
            } else if (t == 7) {
                assert_int_equal(d->n, 1); /* the drop; the ring's next is at 4 + 5 */
            } else if (t == 9) {
                assert_int_equal(d->n, 1); /* the ring's second */
            } else {
                assert_int_equal(d->n, 0);
            }
        }
        /* the ring, cut off by the loop, never laid its last two stones */
        assert_int_equal(rpl_show_player_loops(p), (uint64_t)pass);
    }
    assert_false(rpl_show_player_done(p));

    /* rewind: back to step 0 */
    rpl_show_player_rewind(p);
    assert_int_equal(rpl_show_player_time(p), 0);
    assert_int_equal(rpl_show_player_loops(p), 0);
    rpl_sim_reset(sim, 1);
    assert_cells(tick_diff(p, sim), first, 1, 100);
    rpl_show_player_destroy(p);
    rpl_show_destroy(s);
    rpl_sim_destroy(sim);
}

/* The settings for the front end, set in their tick with their bits. */
static void test_view(void **state)
{
    (void)state;
    rpl_sim_t *sim = new_sim(480, 240, 1);
    rpl_show_t *s = parse_ok(H "@1 light off\n"
                               "@2 strength 0.75\n"
                               "@3 stone 0.025\n"
                               "@4 picture \"pool two.png\"\n"
                               "@5 rain 6 1px 0.0125 10 20\n"
                               "@6 rain off\n"
                               "@7 rain on\n"
                               "@8 strength 4\n"
                               "   light on\n"
                               "   stone 1000px\n"
                               "   stones classic\n"
                               "@9 end\n");
    rpl_show_player_t *p = player_of(s, 1);
    const rpl_show_view_t *v = rpl_show_player_view(p);
    assert_int_equal(v->light, 1);
    assert_int_equal(v->strength, RPL_STRENGTH_ONE);
    assert_int_equal(v->stone, 0);
    assert_int_equal(v->rain_on, 0);
    assert_string_equal(v->picture, "");
    assert_int_equal(v->stones, RPL_STONES_BUMPS);
    static const unsigned bits[10] = {
        0, RPL_SHOW_LIGHT, RPL_SHOW_STRENGTH, RPL_SHOW_STONE, RPL_SHOW_PICTURE, RPL_SHOW_RAIN,
        RPL_SHOW_RAIN, RPL_SHOW_RAIN,
        RPL_SHOW_STRENGTH | RPL_SHOW_LIGHT | RPL_SHOW_STONE | RPL_SHOW_STONES, RPL_SHOW_ENDED,
    };
    for (int t = 0; t < 10; t++) {
        assert_int_equal(rpl_show_player_tick(p, sim), RPL_OK);
        assert_int_equal(rpl_show_player_changed(p), bits[t]);
        switch (t) {
        case 1: assert_int_equal(v->light, 0); break;
        case 2: assert_int_equal(v->strength, 12); break;
        case 3: assert_int_equal(v->stone, 6); break; /* 0.025 * 240 */
        case 4: assert_string_equal(v->picture, "pool two.png"); break;
        case 5:
            assert_int_equal(v->rain_on, 1);
            assert_int_equal(v->rain.per_kilostep, 100); /* 6 a second */
            assert_int_equal(v->rain.rmin, 1);
            assert_int_equal(v->rain.rmax, 3);
            assert_int_equal(v->rain.wmin, 10);
            assert_int_equal(v->rain.wmax, 20);
            break;
        case 6: assert_int_equal(v->rain_on, 0); break;
        case 7:
            assert_int_equal(v->rain_on, 1);
            assert_int_equal(v->rain.per_kilostep, 100); /* the last settings */
            break;
        case 8:
            assert_int_equal(v->strength, 64);
            assert_int_equal(v->light, 1);
            assert_int_equal(v->stone, RPL_RADIUS_MAX);
            assert_int_equal(v->stones, RPL_STONES_DISCS);
            break;
        }
    }
    assert_true(rpl_show_player_done(p));
    rpl_show_player_rewind(p);
    assert_int_equal(v->stones, RPL_STONES_BUMPS);
    assert_int_equal(v->light, 1);
    assert_int_equal(v->rain_on, 0);
    assert_string_equal(v->picture, "");
    rpl_show_player_destroy(p);
    rpl_show_destroy(s);

    /* rain on without settings: the demo's, for the field's size (240 / 240) */
    s = parse_ok(H "rain on\n");
    p = player_of(s, 1);
    assert_int_equal(rpl_show_player_tick(p, sim), RPL_OK);
    v = rpl_show_player_view(p);
    assert_int_equal(v->rain.per_kilostep, 120);
    assert_int_equal(v->rain.rmin, 1);
    assert_int_equal(v->rain.rmax, 2);
    assert_int_equal(v->rain.wmin, 24);
    assert_int_equal(v->rain.wmax, 80);
    rpl_show_player_destroy(p);
    rpl_show_destroy(s);
    rpl_sim_destroy(sim);
}

/* The show's rain is rpl_sim_rain with its settings, once a tick, and it
 * goes on after the end; set_rain(0) keeps it off the field. */
static void test_rain(void **state)
{
    (void)state;
    rpl_show_t *s = parse_ok(H "rain 30 1px 2px 100 200\n@5 end\n");
    rpl_sim_t *a = new_sim(80, 60, 9), *b = new_sim(80, 60, 9), *c = new_sim(80, 60, 9);
    rpl_show_player_t *p = player_of(s, 3), *q = player_of(s, 3);
    rpl_show_player_set_rain(q, 0);
    rpl_rain_t r = { 500, 1, 2, 100, 200 }; /* 30 a second: 500 a thousand steps */
    for (int t = 0; t < 40; t++) {
        assert_int_equal(rpl_show_player_tick(p, a), RPL_OK);
        assert_int_equal(rpl_sim_rain_bumps(b, &r), RPL_OK);
        assert_int_equal(rpl_show_player_tick(q, c), RPL_OK);
        rpl_sim_step(a);
        rpl_sim_step(b);
        rpl_sim_step(c);
    }
    assert_true(rpl_show_player_done(p));
    assert_true(rpl_sim_energy(a) > 0);
    assert_plane_equal(cur_of(a), cur_of(b), cells(a));
    assert_int_equal(rpl_sim_energy(c), 0);
    assert_int_equal(rpl_show_player_view(q)->rain_on, 1); /* the view still says so */
    rpl_show_player_destroy(p);
    rpl_show_player_destroy(q);
    rpl_show_destroy(s);
    rpl_sim_destroy(a);
    rpl_sim_destroy(b);
    rpl_sim_destroy(c);

    /* radii as shares of a 160x120 field: 2.4 and 3.6 cells, rounded, and
     * the weights in proportion, 120 / 480 of theirs */
    s = parse_ok(H "rain 30 0.02 0.03 100 200\n@5 end\n");
    a = new_sim(160, 120, 9), b = new_sim(160, 120, 9);
    p = player_of(s, 3);
    r = (rpl_rain_t){ 500, 2, 4, 25, 50 };
    for (int t = 0; t < 40; t++) {
        assert_int_equal(rpl_show_player_tick(p, a), RPL_OK);
        assert_int_equal(rpl_sim_rain_bumps(b, &r), RPL_OK);
        rpl_sim_step(a);
        rpl_sim_step(b);
    }
    assert_true(rpl_sim_energy(a) > 0);
    assert_plane_equal(cur_of(a), cur_of(b), cells(a));
    const rpl_rain_t *v = &rpl_show_player_view(p)->rain;
    assert_true(v->rmin == 2 && v->rmax == 4 && v->wmin == 25 && v->wmax == 50);
    rpl_show_player_destroy(p);
    rpl_show_destroy(s);
    rpl_sim_destroy(a);
    rpl_sim_destroy(b);
}

/* weights F wave=G: the stones and rain laid from there weigh F times what
 * is written on the classic water, G times on the wave model (F without
 * wave=), rounded half away from zero after the field's own scaling. */
static void test_weights(void **state)
{
    (void)state;
    rpl_show_t *s = parse_ok(H "@1 drop 0.5 0.5 0.05 300\n"
                               "@2 weights 1.5 wave=0.5\n"
                               "@3 drop 0.5 0.5 0.05 300\n"
                               "@4 drop 40px 30px 3px -201\n"
                               "@5 weights 0.75\n"
                               "@6 drop 0.5 0.5 0.05 300\n"
                               "@7 rain 30 0.02 0.03 100 200\n"
                               "@8 rain off\n   weights 1\n"
                               "@9 drop 0.5 0.5 0.05 300\n");
    rpl_wave_params_t wp = { 24.0, 1.2, 1.0, 1.0 / 60, 0.985 };
    for (int wave = 0; wave < 2; wave++) {
        rpl_sim_t *sim = new_sim(80, 60, 1);
        if (wave)
            assert_int_equal(rpl_sim_set_model(sim, RPL_MODEL_WAVE, &wp), RPL_OK);
        rpl_show_player_t *p = player_of(s, 1);
        /* 300 * 60 / 480 = 37.5: 38 as written; times 1.5: 56.25, 56;
         * times 0.5: 18.75, 19; times 0.75: 28.125, 28 */
        static const int want[2][5] = { { 38, 56, -302, 28, 38 }, { 38, 19, -101, 28, 38 } };
        int k = 0;
        for (int t = 0; t <= 9; t++) {
            rpl_sim_reset(sim, 1);
            const diff_t *d = tick_diff(p, sim);
            if (t == 1 || t == 3 || t == 4 || t == 6 || t == 9) /* at 4 in px: -201 times 1.5, 0.5 */
                assert_bump(d, sim, 40, 30, 3, want[wave][k++]);
            else if (t != 7) /* at 7 the rain */
                assert_int_equal(d->n, 0);
            if (t == 7) {
                const rpl_rain_t *r = &rpl_show_player_view(p)->rain;
                /* 100 and 200 * 60 / 480 = 12.5 and 25, times 0.75 */
                assert_true(r->wmin == 9 && r->wmax == 19);
            }
        }
        rpl_show_player_destroy(p);
        rpl_sim_destroy(sim);
    }
    rpl_show_destroy(s);

    bad(H "weights\n", "t:2:1: 'weights' needs 1 argument (FACTOR), got 0");
    bad(H "weights 5\n", "t:2:9: bad FACTOR '5': want a factor 0..4 (1 weighs as written)");
    bad(H "weights -1\n", "t:2:9: bad FACTOR '-1': want a factor 0..4 (1 weighs as written)");
    bad(H "weights 1 wave=x\n", "t:2:16: bad wave 'x': want a factor 0..4 (1 weighs as written)");
    bad(H "drop 0.5 0.5 0.01 300 wave=1\n", "t:2:23: 'drop' takes no option 'wave'");
}

/* cut flattens the water (rpl_sim_reset with the player's seed); walls
 * and edges reach the field. */
/* calm T: the water settles over T steps, 1 - smoothstep of the time
 * gone (worked out here in doubles), and is flat at the end; a stone laid
 * in the calm's step comes after the settling; the budget counts the
 * field each step; the player forgets it at a loop. */
static void test_calm(void **state)
{
    (void)state;
    rpl_show_t *s = parse_ok(H "drop 50px 40px 20px 4000\n@1 calm 4\n@10 end\n");
    rpl_sim_t *sim = new_sim(100, 80, 1);
    rpl_show_player_t *p = player_of(s, 1);
    size_t c = 40 * 100 + 50;
    assert_int_equal(rpl_show_player_tick(p, sim), RPL_OK);
    int h0 = cur_of(sim)[c];
    assert_int_equal(h0, -4000);
    for (int k = 1; k <= 4; k++) {
        assert_int_equal(rpl_show_player_tick(p, sim), RPL_OK);
        double x = k / 4.0, left = 1 - x * x * (3 - 2 * x);
        int h = cur_of(sim)[c];
        if (fabs(h - h0 * left) > 2)
            fail_msg("calm step %d: the centre at %d, want %.1f", k, h, h0 * left);
        if (k < 4)
            assert_true(rpl_sim_energy(sim) > 0);
    }
    assert_int_equal(rpl_sim_energy(sim), 0); /* flat, both buffers */
    rpl_show_player_destroy(p);
    rpl_show_destroy(s);
    /* the water keeps moving while it settles: with the field stepped it
     * is calm by the end too, and not at once as after a cut */
    s = parse_ok(H "ring 50px 40px 16px 4px 3000\n@30 calm 1s\n@200 end\n");
    rpl_sim_reset(sim, 1);
    p = player_of(s, 1);
    for (int t = 0; t < 90; t++) {
        assert_int_equal(rpl_show_player_tick(p, sim), RPL_OK);
        if (t == 31 || t == 50)
            if (rpl_sim_energy(sim) == 0)
                fail_msg("calm: the water flat at step %d", t);
        rpl_sim_step(sim);
    }
    assert_int_equal(rpl_sim_energy(sim), 0);
    rpl_show_player_destroy(p);
    rpl_show_destroy(s);
    /* a loop stops a calm that has not ended */
    s = parse_ok(H "@5 drop 0.5 0.5 0.1 300\n@9 calm 100\n@10 loop\n");
    rpl_sim_reset(sim, 1);
    p = player_of(s, 1);
    for (int t = 0; t < 16; t++)
        assert_int_equal(rpl_show_player_tick(p, sim), RPL_OK);
    /* step 5 of the second pass: its drop (-50 at the centre) on the first
     * one calmed for one step of a hundred and no more (truncated: -49) */
    double x = 0.01, left = 1 - x * x * (3 - 2 * x);
    assert_int_equal(cur_of(sim)[c], (int)(-50 * left) - 50);
    rpl_show_player_destroy(p);
    rpl_show_destroy(s);
    rpl_sim_destroy(sim);

    /* the budget: the field a step, while it runs */
    s = parse_ok(H "calm 10\n@20 end\n");
    uint64_t at = 99;
    assert_int_equal(rpl_show_work(s, &at), WC0 + 960 * 540);
    assert_int_equal(at, 0);
    assert_int_equal(rpl_show_length(s), 20);
    rpl_show_destroy(s);
    s = parse_ok(H "calm 10\n");
    assert_int_equal(rpl_show_length(s), 10);
    rpl_show_destroy(s);

    bad(H "calm 0\n", "t:2:6: 'calm' over no time: write 'cut' to flatten the water at once");
    bad(H "calm\n", "t:2:1: 'calm' needs 1 argument (TIME), got 0");
    bad(H "calm soon\n", "t:2:6: bad TIME 'soon': want steps, seconds or beats (120, 2s, "
                         "0.5s, 2b, 1bar)");
}

/* fade T COLOUR: the view's fade goes to 256 at the middle and back to 0
 * at the end, eased (smoothstep, worked out here in doubles), the colour
 * with it; the budget counts the field each step. */
static void test_fade(void **state)
{
    (void)state;
    rpl_show_t *s = parse_ok(H "@2 fade 20 0x204060\n@30 fade 2 white\n@40 end\n");
    rpl_sim_t *sim = new_sim(40, 30, 1);
    rpl_show_player_t *p = player_of(s, 1);
    for (int t = 0; t < 40; t++) {
        assert_int_equal(rpl_show_player_tick(p, sim), RPL_OK);
        const rpl_show_view_t *v = rpl_show_player_view(p);
        unsigned ch = rpl_show_player_changed(p);
        if (t < 2 || (t >= 22 && t < 30) || t >= 32) {
            assert_int_equal(v->fade, 0);
            assert_false(ch & RPL_SHOW_FADE);
            continue;
        }
        assert_true(ch & RPL_SHOW_FADE);
        int n = t < 30 ? 20 : 2, i = t - (t < 30 ? 2 : 30);
        double k = 2.0 * (i + 1), x = (k <= n ? k : 2 * n - k) / n;
        double want = i + 1 >= n ? 0 : 256 * x * x * (3 - 2 * x);
        if (fabs(v->fade - want) > 1)
            fail_msg("fade at step %d: %d, want %.2f", t, v->fade, want);
        assert_int_equal(v->fade_colour, t < 30 ? 0x204060u : 0xFFFFFFu);
        if (t == 11)
            assert_int_equal(v->fade, 256); /* the middle: all the colour */
    }
    /* a loop clears a fade cut short */
    rpl_show_player_destroy(p);
    rpl_show_destroy(s);
    s = parse_ok(H "@5 fade 1s black\n@10 loop\n");
    p = player_of(s, 1);
    for (int t = 0; t < 10; t++)
        assert_int_equal(rpl_show_player_tick(p, sim), RPL_OK);
    assert_true(rpl_show_player_view(p)->fade > 0);
    assert_int_equal(rpl_show_player_tick(p, sim), RPL_OK);
    assert_int_equal(rpl_show_player_view(p)->fade, 0);
    assert_true(rpl_show_player_changed(p) & RPL_SHOW_FADE);
    rpl_show_player_destroy(p);
    rpl_show_destroy(s);
    rpl_sim_destroy(sim);

    s = parse_ok(H "fade 10 black\n@20 end\n");
    assert_int_equal(rpl_show_work(s, NULL), WC0 + 960 * 540);
    rpl_show_destroy(s);
    bad(H "fade 1 black\n", "t:2:6: a fade lasts 2 steps at least: to the colour and back");
    bad(H "fade 1s\n", "t:2:6: 'fade' needs 2 arguments (TIME COLOUR), got 1");
    bad(H "fade 1s red\n", "t:2:9: bad COLOUR 'red': want black, white or 0xRRGGBB (0x102030)");
    bad(H "fade 1s 0x12345g\n",
        "t:2:9: bad COLOUR '0x12345g': want black, white or 0xRRGGBB (0x102030)");
    bad(H "fade 1s 0x1234567\n",
        "t:2:9: bad COLOUR '0x1234567': want black, white or 0xRRGGBB (0x102030)");
    bad(H "fade 1s #102030\n", "t:2:6: 'fade' needs 2 arguments (TIME COLOUR), got 1");
}

/* card T "TEXT": the view's card for T steps, coming in and going out
 * over a quarter of T (30 steps at most), then none; errors. */
static void test_card(void **state)
{
    (void)state;
    rpl_show_t *s = parse_ok(H "@3 card 20 \"TITLE\\nsub\"\n@30 card 200 \"B\"\n@300 end\n");
    rpl_sim_t *sim = new_sim(40, 30, 1);
    rpl_show_player_t *p = player_of(s, 1);
    for (int t = 0; t < 240; t++) {
        assert_int_equal(rpl_show_player_tick(p, sim), RPL_OK);
        const rpl_show_view_t *v = rpl_show_player_view(p);
        int on = (t >= 3 && t < 22) || (t >= 30 && t < 229);
        int n = t < 30 ? 20 : 200, i = t - (t < 30 ? 3 : 30), r = n / 4 < 30 ? n / 4 : 30;
        int in = i + 1 < r ? i + 1 : r, out = n - 1 - i < r ? n - 1 - i : r;
        if (!on) {
            assert_string_equal(v->card, "");
            assert_int_equal(v->card_level, 0);
            continue;
        }
        assert_true(rpl_show_player_changed(p) & RPL_SHOW_CARD);
        assert_string_equal(v->card, t < 30 ? "TITLE\nsub" : "B");
        assert_int_equal(v->card_level, (in < out ? in : out) * 256 / r);
        if (t == 3 + 10 || t == 30 + 100)
            assert_int_equal(v->card_level, 256);
    }
    rpl_show_player_destroy(p);
    rpl_show_destroy(s);
    rpl_sim_destroy(sim);
    bad(H "card 1 \"A\"\n", "t:2:6: a card shows for 2 steps at least");
    bad(H "card 1s A\n", "t:2:9: the card's text must be in double quotes (\"RIPPLE\")");
    bad(H "card 1s \"\"\n", "t:2:9: a card holds 1 to 256 bytes of text");
    bad(H "card 1s\n", "t:2:6: 'card' needs 2 arguments (TIME \"TEXT\"), got 1");
}

static void test_cut_walls_edges(void **state)
{
    (void)state;
    rpl_sim_t *sim = new_sim(100, 80, 1);
    rpl_show_t *s = parse_ok(H "drop 0.5 0.5 0.1 300\n"
                               "@5 cut\n"
                               "@6 wall rect 10px 20px 30px 22px\n"
                               "@7 wall open 15px 0 20px 1\n"
                               "@8 wall line 40px 60px 80px 60px 1px\n"
                               "@9 edges absorb\n"
                               "@10 wall clear\n"
                               "   edges reflect\n");
    rpl_show_player_t *p = player_of(s, 1);
    for (int t = 0; t < 5; t++) {
        assert_int_equal(rpl_show_player_tick(p, sim), RPL_OK);
        rpl_sim_step(sim);
    }
    assert_true(rpl_sim_energy(sim) > 0);
    assert_int_equal(rpl_show_player_tick(p, sim), RPL_OK); /* step 5: the cut */
    assert_int_equal(rpl_show_player_changed(p), RPL_SHOW_CUT);
    assert_int_equal(rpl_sim_energy(sim), 0);
    assert_int_equal(rpl_sim_energy(sim), 0);
    assert_int_equal(rpl_show_player_tick(p, sim), RPL_OK); /* the wall */
    const uint8_t *m = rpl_sim_walls(sim);
    assert_non_null(m);
    int solid = 0;
    for (int y = 0; y < 80; y++)
        for (int x = 0; x < 100; x++) {
            int in = x >= 10 && x < 30 && y >= 20 && y < 22; /* up to, not including, the far corner */
            solid += m[y * 100 + x] != 0;
            if ((m[y * 100 + x] != 0) != in)
                fail_msg("wall at (%d, %d): %d, want %d", x, y, m[y * 100 + x], in);
        }
    assert_int_equal(solid, 40);
    assert_int_equal(rpl_show_player_tick(p, sim), RPL_OK); /* open x 15..19, every row */
    m = rpl_sim_walls(sim);
    for (int x = 10; x < 30; x++)
        assert_int_equal(m[20 * 100 + x] != 0, x < 15 || x >= 20);
    assert_int_equal(rpl_show_player_tick(p, sim), RPL_OK); /* the line */
    m = rpl_sim_walls(sim);
    assert_true(m[60 * 100 + 40] && m[60 * 100 + 60] && m[60 * 100 + 80]);
    assert_false(m[62 * 100 + 60]);
    assert_int_equal(rpl_show_player_tick(p, sim), RPL_OK);
    assert_int_equal(rpl_sim_edges(sim), RPL_EDGES_ABSORB);
    assert_int_equal(rpl_show_player_tick(p, sim), RPL_OK);
    assert_null(rpl_sim_walls(sim));
    assert_int_equal(rpl_sim_edges(sim), RPL_EDGES_REFLECT);
    rpl_show_player_destroy(p);
    rpl_show_destroy(s);
    rpl_sim_destroy(sim);
}

/* Optional commands and options a later version may add are skipped. */
static void test_optional(void **state)
{
    (void)state;
    rpl_show_t *s = parse_ok(H "@2 ?shimmer 0.5 0.5 \"x\"\n"
                               "+1 drop 10px 10px 1px 100 ?glow=2 ?every=5 ?times=2\n");
    /* the skipped line still moved the clock: the drop is at step 3; the
     * known options marked optional count as usual */
    rpl_sim_t *sim = new_sim(30, 30, 1);
    rpl_show_player_t *p = player_of(s, 1);
    int stones = 0;
    for (int t = 0; t < 12; t++) {
        rpl_sim_reset(sim, 1);
        int n = tick_diff(p, sim)->n;
        assert_int_equal(n, t == 3 || t == 8);
        stones += n;
    }
    assert_int_equal(stones, 2);
    rpl_show_player_destroy(p);
    rpl_show_destroy(s);
    rpl_sim_destroy(sim);
}

/* ---- the default show ---------------------------------------------------- */

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s (run the tests from the top of the tree)", path);
    char *b = xmalloc((size_t)RPL_SHOW_BYTES_MAX + 1);
    *len = fread(b, 1, (size_t)RPL_SHOW_BYTES_MAX + 1, f);
    fclose(f);
    return b;
}

/* The same show and seed give the same water on any thread count, with
 * or without sleeping tiles; another seed (rain, cuts) gives other water. */
static uint32_t play_crc(const char *text, size_t len, uint64_t seed, int threads, int sleeping,
                         int steps, int w, int h)
{
    rpl_show_t *s = NULL;
    assert_int_equal(rpl_show_parse(text, len, "default.show", &s), RPL_OK);
    rpl_sim_t *sim = new_sim(w, h, seed);
    assert_int_equal(rpl_sim_set_threads(sim, threads), RPL_OK);
    rpl_sim_set_sleeping(sim, sleeping);
    rpl_show_player_t *p = player_of(s, seed);
    uint32_t crc = 0;
    for (int i = 0; i < steps; i++) {
        assert_int_equal(rpl_show_player_tick(p, sim), RPL_OK);
        rpl_sim_step(sim);
        if (i % 500 == 499)
            crc = crc_plane(crc, cur_of(sim), cells(sim));
    }
    crc = crc_plane(crc, cur_of(sim), cells(sim));
    crc = crc_plane(crc, prev_of(sim), cells(sim));
    assert_border_zero(cur_of(sim), w, h);
    assert_heights_in_range(cur_of(sim), cells(sim));
    rpl_show_player_destroy(p);
    rpl_sim_destroy(sim);
    rpl_show_destroy(s);
    return crc;
}

static void test_default_show(void **state)
{
    (void)state;
    size_t len;
    char *text = slurp("assets/shows/default.show", &len);
    rpl_show_t *s = NULL;
    assert_int_equal(rpl_show_parse(text, len, "default.show", &s), RPL_OK);
    /* about a minute, looping */
    assert_true(rpl_show_loops(s));
    assert_true(rpl_show_length(s) >= 50 * 60 && rpl_show_length(s) <= 75 * 60);
    uint64_t length = rpl_show_length(s);
    rpl_show_destroy(s);

    /* a whole pass and a bit of the next on one field size ... */
    int steps = (int)length + 200;
    uint32_t one = play_crc(text, len, 1, 1, 1, steps, 160, 120);
    assert_int_equal(play_crc(text, len, 1, 2, 1, steps, 160, 120), one);
    assert_int_equal(play_crc(text, len, 1, 3, 0, steps, 160, 120), one);
    assert_int_equal(play_crc(text, len, 1, 1, 0, steps, 160, 120), one);
    assert_true(play_crc(text, len, 2, 1, 1, steps, 160, 120) != one);
    /* ... and part of it on the demo's, where the threads take tiles: with
     * sleeping on, only once 128 tiles are awake (late in these 1500 steps);
     * under an emulated CPU with sleeping off, where they take every tile
     * from the first step, for 300 steps (whatever could come between the
     * threads is the host's doing there, and the native run has the 1500) */
    int big_steps = test_quick() ? 300 : 1500, big_sleeping = !test_quick();
    uint32_t big = play_crc(text, len, 1, 1, big_sleeping, big_steps, 640, 480);
    assert_int_equal(play_crc(text, len, 1, 4, big_sleeping, big_steps, 640, 480), big);
    free(text);
}

/* The default show keeps time with the music: its tempo is the score's,
 * and each of its moments written at a bar and beat (@BAR:BEAT) with
 * stones lays them within a frame of that beat of the music, worked out
 * here from the score's tempo: all its stones, or with over= the first
 * (the pen's start).  Each such line is played alone behind the show's
 * tempo line, the field never stepped, so any change is a stone. */
static void test_default_show_on_the_beat(void **state)
{
    (void)state;
    rpl_music_t *m = NULL;
    assert_int_equal(rpl_music_read("assets/music/default.score", &m), RPL_OK);
    int bpm = 0, spb = 0, bpb = 0, steps = 0;
    assert_int_equal(rpl_music_tempo(m, &bpm, &spb, &bpb, &steps), RPL_OK);
    rpl_music_destroy(m);
    size_t len;
    char *text = slurp("assets/shows/default.show", &len);
    text[len] = '\0';
    char tempo[128] = "";
    int marked = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        int sb = 0, sbar = 0;
        if (sscanf(line, "tempo %d %d", &sb, &sbar) == 2) {
            assert_int_equal(sb, bpm);
            assert_int_equal(sbar, bpb);
            snprintf(tempo, sizeof tempo, "%s\n", line);
            continue;
        }
        int bar;
        double beat;
        char cmd[16];
        if (sscanf(line, "@%d:%lf %15s", &bar, &beat, cmd) != 3 ||
            (strcmp(cmd, "drop") && strcmp(cmd, "ring") && strcmp(cmd, "trail") &&
             strcmp(cmd, "text")))
            continue;
        assert_true(tempo[0]);
        double want = ((bar - 1) * bpb + (beat - 1)) * 60.0 / bpm * 60.0; /* in frames */
        int over = strstr(line, "over=") != NULL;
        char one[4096 + 256];
        snprintf(one, sizeof one, H "%s%s\n", tempo, line);
        rpl_show_t *s = parse_ok(one);
        rpl_sim_t *sim = new_sim(160, 120, 1);
        rpl_show_player_t *p = player_of(s, 1);
        long first = -1, last = -1;
        /* the field as it was after the last change: a tick that changed
         * nothing costs one memcmp, not a copy of the field */
        size_t n = cells(sim);
        int16_t *seen = copy_plane(cur_of(sim), n);
        for (long t = 0; t < (long)want + 12; t++) {
            assert_int_equal(rpl_show_player_tick(p, sim), RPL_OK);
            if (memcmp(cur_of(sim), seen, n * sizeof *seen) != 0) {
                memcpy(seen, cur_of(sim), n * sizeof *seen);
                if (first < 0)
                    first = t;
                last = t;
            }
        }
        free(seen);
        if (first < 0 || fabs((double)first - want) > 1.0 ||
            (!over && fabs((double)last - want) > 1.0))
            fail_msg("'%s': stones from frame %ld to %ld, its beat is at frame %.2f", line,
                     first, last, want);
        marked++;
        rpl_show_player_destroy(p);
        rpl_sim_destroy(sim);
        rpl_show_destroy(s);
    }
    /* the opening's drops, the ring as the beat comes in, the finale's */
    assert_true(marked >= 12);
    print_message("%d moments of the default show on the beat\n", marked);
    free(text);
}

/* ---- the work budget ---------------------------------------------------- */

#define WB RPL_SHOW_WORK_MAX
#define WC RPL_SHOW_WORK_COMMAND
#define WS RPL_SHOW_WORK_STONE

/* The header, k copies of line, then tail: a new allocation. */
static char *repeated(const char *head, const char *line, uint64_t k, const char *tail)
{
    size_t hl = strlen(head), ll = strlen(line), tl = strlen(tail);
    char *t = xmalloc(strlen(H) + hl + ll * k + tl + 1), *p = t;
    memcpy(p, H, strlen(H)), p += strlen(H);
    memcpy(p, head, hl), p += hl;
    for (uint64_t i = 0; i < k; i++)
        memcpy(p, line, ll), p += ll;
    memcpy(p, tail, tl + 1);
    return t;
}

static void over_msg(char *out, size_t len, int line, int col, uint64_t step, int again,
                     uint64_t units)
{
    snprintf(out, len, "t:%d:%d: step %llu%s would cost %llu units of work, over the budget of "
                       "2073600 a step (stones, walls, cuts and commands: docs/shows.md)",
             line, col, (unsigned long long)step, again ? " (after the loop)" : "",
             (unsigned long long)units);
}

/* As many copies of line (each `cost` units in its step, worked out by
 * hand from the rules) as fit in step 0 with `extra` more (a `loop` at
 * step 1 costs its 64 again in the tick that plays step 0): valid, with
 * that work; one copy more is refused, on its own line. */
static void budget_edge(const char *line, uint64_t cost, uint64_t extra, const char *tail)
{
    uint64_t k = ((uint64_t)WB - extra) / cost;
    char *t = repeated("", line, k, tail);
    rpl_show_t *s = parse_ok(t);
    uint64_t at = 99;
    assert_int_equal(rpl_show_work(s, &at), k * cost + extra);
    assert_int_equal(at, 0);
    rpl_show_destroy(s);
    free(t);
    t = repeated("", line, k + 1, tail);
    char want[400];
    if ((k + 1) * cost > (uint64_t)WB)
        over_msg(want, sizeof want, (int)k + 2, 1, 0, 0, (k + 1) * cost);
    else
        over_msg(want, sizeof want, (int)k + 2, 1, 0, 1, (k + 1) * cost + extra);
    bad(t, want);
    free(t);
}

/* A show with a long path: the budget's message keeps its figure and its
 * reason whole, and as much of the path's end as fits. */
static void test_budget_long_name(void **state)
{
    (void)state;
    char name[300];
    memset(name, 'd', sizeof name);
    memcpy(name, "/a/long/folder/", 15);
    memcpy(name + sizeof name - 12, "/stall.show", 12);
    char *t = repeated("", "cut\n", 4, "");
    rpl_show_t *s = NULL;
    assert_int_equal(rpl_show_parse(t, strlen(t), name, &s), RPL_EFORMAT);
    char want[400];
    over_msg(want, sizeof want, 5, 1, 0, 0, 4 * (WC + 960 * 540));
    const char *msg = rpl_show_error(s);
    size_t ml = strlen(msg), wl = strlen(want) - 1; /* want without its "t" */
    assert_true(ml >= wl + 3);
    assert_string_equal(msg + ml - wl, want + 1);
    assert_memory_equal(msg, "...", 3);
    assert_non_null(strstr(msg, "dd/stall.show:5:1: step 0 would cost 2073856 units"));
    assert_true(ml < 192);
    rpl_show_destroy(s);
    free(t);
}

/* The stones a tick lays, counted as the budget counts them. */
typedef struct tally {
    uint64_t stones, units;
} tally_t;

static void tally_drop(void *user, int x, int y, int r, int w)
{
    (void)x, (void)y, (void)w;
    tally_t *t = user;
    t->stones++;
    t->units += (uint64_t)(2 * r + 1) * (uint64_t)(2 * r + 1) + WS;
}

/* Each kind of work, just under and just over the budget. */
static void test_budget(void **state)
{
    (void)state;
    /* bare commands: 64 each, 32400 of them are the budget exactly */
    budget_edge("light on\n", WC, 0, "");
    /* a cut, a picture and a wall over the whole field: the 960x540
     * cells of the budget's field */
    budget_edge("cut\n", WC + 960 * 540, 0, "");
    budget_edge("picture p.png\n", WC + 960 * 540, 0, "");
    budget_edge("wall rect 0 0 1 1\n", WC + 960 * 540, WC, "@1 loop\n");
    /* a quarter of each side: 240 cells (and one for rounding) and a
     * 64-cell tile each way; 135 (and one) and a 32-cell tile each way */
    budget_edge("wall open 0.25 0.25 0.5 0.5\n", WC + (241 + 128) * (136 + 64), 0, "");
    /* a cell in px: (1 + 1 + 128) x (1 + 1 + 64) */
    budget_edge("wall rect 10px 10px 11px 11px\n", WC + 130 * 66, WC, "@1 loop\n");
    /* a line 1000 cells long, 10 thick: its 1001 cells, 7 each way (half
     * the thickness, and 2 for rounding), and a tile each way */
    budget_edge("wall line 0px 0px 1000px 0px 10px\n", WC + (1001 + 14 + 128) * (1 + 14 + 64), 0,
                "");
    /* the largest stone, 513x513, every third step: counted every step */
    budget_edge("drop 0.5 0.5 256px 1 every=3\n", WC + 513 * 513 + WS, 0, "");
    /* 4096 stones of radius 1 over 4 steps: 1024 a step */
    budget_edge("ring 0.5 0.5 0.2 1px 1 count=4096 over=4\n", WC + 1024 * (9 + WS), 0, "");
    /* 64 eights of 17 dots */
    budget_edge("text \"8888888888888888888888888888888888888888888888888888888888888888\" "
                "0.5 0.5 1px 1 radius=1px every=20\n",
                WC + 64 * 17 * (9 + WS), 0, "");
    /* 999 cells at most 1 apart: 1000 stones; and 8 a point */
    budget_edge("trail 1px 1 1px 0px 0px 999px 0px\n", WC + 2 * RPL_SHOW_WORK_POINT +
                1000 * (9 + WS), 0, "");
    /* a spacing in fractions counts as a cell: 960 cells across, 961
     * stones (radius 0.002 of 540: 1) */
    budget_edge("trail 0.002 1 0.05 0 0.5 1 0.5\n", WC + 2 * RPL_SHOW_WORK_POINT +
                961 * (9 + WS), 0, "");
    /* points and spacing in different units: all 4096 stones */
    budget_edge("trail 1px 1 0.05 0px 0px 10px 0px\n", WC + 2 * RPL_SHOW_WORK_POINT +
                4096 * (9 + WS), 0, "");

    char want[400];
    /* the issue's shows: 256 commands of 4096 stones every step (radius
     * 0.01 of 540: 5), refused at the third */
    char *t = repeated("", "ring 0.5 0.5 0.2 0.01 300 count=4096 every=1\n", 256, "");
    over_msg(want, sizeof want, 4, 1, 0, 0, 3 * (WC + 4096 * (121 + WS)));
    bad(t, want);
    free(t);
    /* 58000 walls over the whole field, then a loop; 65535 cuts */
    t = repeated("", "wall rect 0 0 1 1\n", 58000, "@1 loop\n");
    over_msg(want, sizeof want, 5, 1, 0, 0, 4 * (WC + 960 * 540));
    bad(t, want);
    free(t);
    t = repeated("", "cut\n", 65535, "");
    over_msg(want, sizeof want, 5, 1, 0, 0, 4 * (WC + 960 * 540));
    bad(t, want);
    free(t);

    /* commands laying stones count from their start to their last repeat:
     * 4 drops every 10 steps, 3 times, run over steps 0..20 */
    const uint64_t big = WC + 513 * 513 + WS;
    t = repeated("", "drop 0.5 0.5 256px 1 every=10 times=3\n", 4,
                 "@20 drop 0.5 0.5 256px 1\ndrop 0.5 0.5 256px 1\ndrop 0.5 0.5 256px 1\n"
                 "drop 0.5 0.5 256px 1\n");
    over_msg(want, sizeof want, 9, 1, 20, 0, 8 * big);
    bad(t, want);
    free(t);
    t = repeated("", "drop 0.5 0.5 256px 1 every=10 times=3\n", 4,
                 "@21 drop 0.5 0.5 256px 1\ndrop 0.5 0.5 256px 1\ndrop 0.5 0.5 256px 1\n"
                 "drop 0.5 0.5 256px 1\n");
    rpl_show_t *s = parse_ok(t);
    assert_int_equal(rpl_show_work(s, NULL), 4 * big);
    rpl_show_destroy(s);
    free(t);
    /* without times=, until the loop */
    t = repeated("", "drop 0.5 0.5 256px 1 every=5\n", 4,
                 "@100 drop 0.5 0.5 256px 1\ndrop 0.5 0.5 256px 1\ndrop 0.5 0.5 256px 1\n"
                 "drop 0.5 0.5 256px 1\n@200 loop\n");
    over_msg(want, sizeof want, 9, 1, 100, 0, 8 * big);
    bad(t, want);
    free(t);

    /* the tick of `loop` plays step 0 too: 2 cuts there and 2 at step 0 */
    bad(H "cut\ncut\n@1 cut\ncut\nloop\n", (over_msg(want, sizeof want, 3, 1, 0, 1,
                                                     5 * WC + 4 * 960 * 540), want));
    /* rain: 17 stones a step at 1000 a second; the largest alone is over */
    bad(H "rain 1000 256px 256px 1 1\n",
        (over_msg(want, sizeof want, 2, 1, 0, 0, WC + 17 * (513 * 513 + WS)), want));
    /* rain still falling at the loop falls on in step 0 */
    const uint64_t rain = 17 * (201 * 201 + WS);
    bad(H "wall rect 0 0 1 1\nwall rect 0 0 1 1\nwall rect 0 0 1 1\n"
          "@5 rain 1000 100px 100px 1 1\n@10 loop\n",
        (over_msg(want, sizeof want, 4, 1, 0, 1, WC + rain + 3 * (WC + 960 * 540)), want));
    s = parse_ok(H "wall rect 0 0 1 1\nwall rect 0 0 1 1\nwall rect 0 0 1 1\n"
                   "@5 rain 1000 100px 100px 1 1\n@9 rain off\n@10 loop\n");
    assert_int_equal(rpl_show_work(s, NULL), WC + 3 * (WC + 960 * 540));
    rpl_show_destroy(s);
    /* `rain on` before any settings: the default rain, 1 stone of radius
     * up to 4 (2 * 540 / 240) */
    s = parse_ok(H "rain on\n@5 end\n");
    assert_int_equal(rpl_show_work(s, NULL), WC + 81 + WS);
    rpl_show_destroy(s);
    /* the default show is well within it (its heaviest step a fade and a
     * calm together, each the field, with the slits' stones) */
    rpl_show_t *d = NULL;
    assert_int_equal(rpl_show_read("assets/shows/default.show", &d), RPL_OK);
    assert_true(rpl_show_work(d, NULL) > 0);
    assert_true(rpl_show_work(d, NULL) < (uint64_t)WB * 3 / 5);
    rpl_show_destroy(d);
    assert_int_equal(rpl_show_work(NULL, NULL), 0);
}

/* The worst legal show of stones: 8 rings of 4096 stones of radius 1
 * every step, 1868288 units (a ninth is over); played on a field, each
 * tick lays exactly the stones counted. */
static void test_budget_worst(void **state)
{
    (void)state;
    const uint64_t ring = WC + 4096 * (9 + WS);
    char *t = repeated("", "ring 0.5 0.5 0.2 1px 1 count=4096 every=1\n", 8, "");
    rpl_show_t *s = parse_ok(t);
    free(t);
    assert_int_equal(rpl_show_work(s, NULL), 8 * ring);
    assert_true(8 * ring <= (uint64_t)WB && 9 * ring > (uint64_t)WB);
    rpl_sim_t *sim;
    assert_int_equal(rpl_sim_create(640, 480, 1, &sim), RPL_OK);
    assert_non_null(sim);
    tally_t tl;
    rpl_sim_set_drop_hook(sim, tally_drop, &tl);
    rpl_show_player_t *p = player_of(s, 1);
    for (int i = 0; i < 5; i++) {
        memset(&tl, 0, sizeof tl);
        assert_int_equal(rpl_show_player_tick(p, sim), RPL_OK);
        assert_int_equal(tl.stones, 8 * 4096);
        /* the stones' units and the 8 commands' own */
        assert_int_equal(tl.units + 8 * WC, rpl_show_work(s, NULL));
        rpl_sim_step(sim);
    }
    rpl_show_player_destroy(p);
    rpl_sim_destroy(sim);
    rpl_show_destroy(s);

    /* the same in fractions on the budget's field: 0.002 of 540 is 1 */
    t = repeated("", "ring 0.5 0.5 0.2 0.002 1 count=4096 every=1\n", 8, "");
    s = parse_ok(t);
    free(t);
    assert_int_equal(rpl_show_work(s, NULL), 8 * ring);
    assert_int_equal(rpl_sim_create(RPL_SHOW_WORK_W, RPL_SHOW_WORK_H, 1, &sim), RPL_OK);
    assert_non_null(sim);
    rpl_sim_set_drop_hook(sim, tally_drop, &tl);
    p = player_of(s, 1);
    memset(&tl, 0, sizeof tl);
    assert_int_equal(rpl_show_player_tick(p, sim), RPL_OK);
    assert_int_equal(tl.units + 8 * WC, rpl_show_work(s, NULL));
    rpl_show_player_destroy(p);
    rpl_sim_destroy(sim);
    rpl_show_destroy(s);

    /* a trail in fractions on a narrow field: its spacing (0.05 of 5
     * cells) is a cell there, so it lays a stone a cell, as counted */
    s = parse_ok(H "trail 0.002 1 0.05 0 0.5 1 0.5\n");
    assert_int_equal(rpl_sim_create(960, 5, 1, &sim), RPL_OK);
    assert_non_null(sim);
    rpl_sim_set_drop_hook(sim, tally_drop, &tl);
    p = player_of(s, 1);
    memset(&tl, 0, sizeof tl);
    assert_int_equal(rpl_show_player_tick(p, sim), RPL_OK);
    assert_true(tl.stones > 900); /* not the 36 of a 960x540 field */
    assert_true(tl.units + WC + 2 * RPL_SHOW_WORK_POINT <= rpl_show_work(s, NULL));
    rpl_show_player_destroy(p);
    rpl_sim_destroy(sim);
    rpl_show_destroy(s);
}

/* sound=off: the command's stones land as they would, but the field's drop
 * hook (the drips) is not told of them; the hook stays for the others, and
 * for the stones after.  Played side by side, a show and its copy with
 * some commands silent leave the same water and tell the hook only of the
 * loud commands' stones. */
static void test_sound_off(void **state)
{
    (void)state;
    static const char *const loud = H "drop 0.3 0.3 4px 300\n"
                                      "ring 0.5 0.5 0.2 3px 200 count=6 every=2 times=3\n"
                                      "trail 3px 150 10px 0.1 0.8 0.9 0.8 over=4\n"
                                      "text \"AB\" 0.5 0.4 6px 250 radius=2px every=3 times=2\n"
                                      "@8 drop 0.7 0.7 4px 300\n";
    static const char *const quiet = H "drop 0.3 0.3 4px 300\n"
                                       "ring 0.5 0.5 0.2 3px 200 count=6 every=2 times=3 sound=off\n"
                                       "trail 3px 150 10px 0.1 0.8 0.9 0.8 over=4 sound=off\n"
                                       "text \"AB\" 0.5 0.4 6px 250 radius=2px every=3 times=2 sound=off\n"
                                       "@8 drop 0.7 0.7 4px 300 sound=on\n";
    rpl_show_t *a = parse_ok(loud), *b = parse_ok(quiet);
    rpl_sim_t *sa, *sb;
    assert_int_equal(rpl_sim_create(200, 150, 1, &sa), RPL_OK);
    assert_int_equal(rpl_sim_create(200, 150, 1, &sb), RPL_OK);
    tally_t ta = { 0, 0 }, tb = { 0, 0 };
    rpl_sim_set_drop_hook(sa, tally_drop, &ta);
    rpl_sim_set_drop_hook(sb, tally_drop, &tb);
    rpl_show_player_t *pa = player_of(a, 1), *pb = player_of(b, 1);
    for (int i = 0; i < 12; i++) {
        assert_int_equal(rpl_show_player_tick(pa, sa), RPL_OK);
        assert_int_equal(rpl_show_player_tick(pb, sb), RPL_OK);
        if (i == 0) /* the first drop is heard in both */
            assert_int_equal(tb.stones, 1);
        rpl_sim_step(sa);
        rpl_sim_step(sb);
    }
    assert_memory_equal(rpl_sim_heights(sa), rpl_sim_heights(sb), sizeof(int16_t) * 200 * 150);
    assert_true(ta.stones > 20); /* the ring's, the trail's and the letters' */
    assert_int_equal(tb.stones, 2); /* the two drops alone */
    rpl_show_player_destroy(pa);
    rpl_show_player_destroy(pb);
    rpl_sim_destroy(sa);
    rpl_sim_destroy(sb);
    rpl_show_destroy(a);
    rpl_show_destroy(b);

    bad(H "drop 0.5 0.5 0.01 100 sound=quiet\n", "t:2:29: bad sound 'quiet': want on or off");
    bad(H "drop 0.5 0.5 0.01 100 sound=\n", "t:2:29: option 'sound' needs a value");
    bad(H "drop 0.5 0.5 0.01 100 sound=off sound=on\n", "t:2:33: option 'sound' is given twice");
    bad(H "light on sound=off\n", "t:2:10: 'light' takes no option 'sound'");
}

/* 8000 pictures of 8000 names: each found at once, in order. */
static void test_many_pictures(void **state)
{
    (void)state;
    char *t = xmalloc(8000 * 32 + 64), *p = t;
    p += sprintf(p, H);
    for (int i = 0; i < 8000; i++)
        p += sprintf(p, "+1 picture p%d.png\n", i);
    rpl_show_t *s = parse_ok(t);
    free(t);
    assert_int_equal(rpl_show_pictures(s), 8000);
    for (int i = 0; i < 8000; i++) {
        char name[32];
        int line = 0, col = 0;
        snprintf(name, sizeof name, "p%d.png", i);
        assert_string_equal(rpl_show_picture(s, i, &line, &col), name);
        assert_int_equal(line, i + 2);
        assert_int_equal(col, 4);
    }
    assert_null(rpl_show_picture(s, 8000, NULL, NULL));
    rpl_show_destroy(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_command_parses),
        cmocka_unit_test(test_times),
        cmocka_unit_test(test_beats),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_no_overread),
        cmocka_unit_test(test_null_and_misuse),
        cmocka_unit_test(test_read_file),
        cmocka_unit_test(test_drop_timing),
        cmocka_unit_test(test_ring_over),
        cmocka_unit_test(test_trail),
        cmocka_unit_test(test_text),
        cmocka_unit_test(test_repeat),
        cmocka_unit_test(test_loop),
        cmocka_unit_test(test_view),
        cmocka_unit_test(test_rain),
        cmocka_unit_test(test_weights),
        cmocka_unit_test(test_cut_walls_edges),
        cmocka_unit_test(test_calm),
        cmocka_unit_test(test_fade),
        cmocka_unit_test(test_card),
        cmocka_unit_test(test_optional),
        cmocka_unit_test(test_default_show),
        cmocka_unit_test(test_default_show_on_the_beat),
        cmocka_unit_test(test_budget),
        cmocka_unit_test(test_budget_worst),
        cmocka_unit_test(test_budget_long_name),
        cmocka_unit_test(test_many_pictures),
        cmocka_unit_test(test_sound_off),
    };
    return cmocka_run_group_tests_name("show", tests, NULL, NULL);
}
