/* test_snapshot.c - snapshots: rpl_sim_save, rpl_sim_load and rpl_snapshot_read, byte layout and every way a file can be bad (cmocka). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ripple.h"
#include "host.h"
#include "util.h"

/* Temporary file path made by mkstemp (the file exists, empty). */
static void temp_path(char *buf, size_t len)
{
    snprintf(buf, len, "/tmp/rpl-test-XXXXXX");
    int fd = host_mkstemp(buf, len);
    assert_true(fd >= 0);
    close(fd);
}

static void write_file(const char *path, const unsigned char *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    if (len)
        assert_int_equal(fwrite(data, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

static unsigned char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    size_t cap = 1024, n = 0;
    unsigned char *buf = malloc(cap);
    assert_non_null(buf);
    for (;;) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n < cap)
            break;
        cap *= 2;
        buf = realloc(buf, cap);
        assert_non_null(buf);
    }
    fclose(f);
    *len = n;
    return buf;
}

static int file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static void test_snapshot_round_trip(void **state)
{
    (void)state;
    char dir[300] = "/tmp/rpl-test-dir-XXXXXX", path[400];
    assert_non_null(host_mkdtemp(dir, sizeof dir));
    snprintf(path, sizeof path, "%s/snap.rpl", dir);
    rpl_sim_t *a = new_sim(37, 21, 1), *b = new_sim(37, 21, 2);
    random_state(a, 444, RPL_HEIGHT_MIN, RPL_HEIGHT_MAX);
    random_state(b, 555, -10, 10);
    assert_int_equal(rpl_sim_save(a, path), RPL_OK);
    rpl_snapshot_t *snap = NULL;
    int pw = 0, ph = 0;
    assert_int_equal(rpl_snapshot_read(path, &snap), RPL_OK);
    rpl_snapshot_size(snap, &pw, &ph);
    rpl_snapshot_destroy(snap);
    assert_int_equal(pw, 37);
    assert_int_equal(ph, 21);
    assert_int_equal(rpl_sim_load(b, path), RPL_OK);
    assert_plane_equal(cur_of(b), cur_of(a), cells(a));
    assert_plane_equal(prev_of(b), prev_of(a), cells(a));
    assert_string_equal(rpl_sim_error(b), "");
    /* stepping both gives the same future */
    for (int i = 0; i < 20; i++) {
        rpl_sim_step(a);
        rpl_sim_step(b);
    }
    assert_plane_equal(cur_of(b), cur_of(a), cells(a));
    /* saving over an existing snapshot replaces it */
    assert_int_equal(rpl_sim_save(a, path), RPL_OK);
    rpl_sim_reset(b, 0);
    assert_int_equal(rpl_sim_load(b, path), RPL_OK);
    assert_plane_equal(cur_of(b), cur_of(a), cells(a));
    assert_plane_equal(prev_of(b), prev_of(a), cells(a));
    assert_int_equal(remove(path), 0);
    /* rmdir removes only an empty directory: neither save left a
     * temporary file beside the target, whatever its name */
    assert_int_equal(rmdir(dir), 0);
    rpl_sim_destroy(a);
    rpl_sim_destroy(b);
}

static void test_snapshot_layout(void **state)
{
    (void)state;
    char path[300];
    temp_path(path, sizeof path);
    /* 4x3 field: interior cells (1,1) and (2,1) = indexes 1*4+1 = 5, 6 */
    rpl_sim_t *sim = new_sim(4, 3, 1);
    int16_t c[12] = {0}, p[12] = {0};
    c[5] = 1;        /* 01 00 */
    c[6] = -8192;    /* 0xE000 -> 00 E0 */
    p[5] = -2;       /* 0xFFFE -> FE FF */
    p[6] = 8191;     /* 0x1FFF -> FF 1F */
    assert_int_equal(rpl_sim_set_state(sim, c, p), RPL_OK);
    assert_int_equal(rpl_sim_save(sim, path), RPL_OK);
    const unsigned char want[92] = {
        'R', 'P', 'L', '2',
        1, 0, 0, 0, /* format version 1, LE */
        'H', 'G', 'H', 'T',
        56, 0, 0, 0, /* section length 8 + 4 * 12, LE */
        4, 0, 0, 0, /* width 4, LE */
        3, 0, 0, 0, /* height 3, LE */
        /* current, row 0 */ 0, 0, 0, 0, 0, 0, 0, 0,
        /* row 1 */ 0, 0, 0x01, 0x00, 0x00, 0xE0, 0, 0,
        /* row 2 */ 0, 0, 0, 0, 0, 0, 0, 0,
        /* previous, row 0 */ 0, 0, 0, 0, 0, 0, 0, 0,
        /* row 1 */ 0, 0, 0xFE, 0xFF, 0xFF, 0x1F, 0, 0,
        /* row 2 */ 0, 0, 0, 0, 0, 0, 0, 0,
        'E', 'D', 'G', 'E', 4, 0, 0, 0, 0, 0, 0, 0, /* reflecting */
        'D', 'O', 'N', 'E', 0, 0, 0, 0, /* the end */
    };
    size_t len = 0;
    unsigned char *got = read_file(path, &len);
    assert_int_equal(len, sizeof want);
    assert_memory_equal(got, want, sizeof want);
    free(got);

    /* walls at cells 5, 6 and 11, absorbing edges: the runs are open 5,
     * solid 2, open 4, solid 1 (the heights under walls are now 0) */
    assert_int_equal(rpl_sim_wall_rect(sim, 1, 1, 2, 1, 1), RPL_OK);
    assert_int_equal(rpl_sim_wall_rect(sim, 3, 2, 1, 1, 1), RPL_OK);
    assert_int_equal(rpl_sim_set_edges(sim, RPL_EDGES_ABSORB), RPL_OK);
    assert_int_equal(rpl_sim_save(sim, path), RPL_OK);
    got = read_file(path, &len);
    const unsigned char tail[] = {
        'W', 'A', 'L', 'L', 4, 0, 0, 0, 5, 2, 4, 1,
        'E', 'D', 'G', 'E', 4, 0, 0, 0, 1, 0, 0, 0, /* absorbing */
        'D', 'O', 'N', 'E', 0, 0, 0, 0,
    };
    assert_int_equal(len, 72 + sizeof tail);
    assert_memory_equal(got, want, 24); /* the same header, size and first row */
    for (size_t i = 24; i < 72; i++)
        assert_int_equal(got[i], 0); /* both interior cells are walls now */
    assert_memory_equal(got + 72, tail, sizeof tail);
    free(got);
    rpl_sim_destroy(sim);

    /* a 300x7 field: width above 255 shows the byte order (300 = 0x012C) */
    sim = new_sim(300, 7, 1);
    assert_int_equal(rpl_sim_save(sim, path), RPL_OK);
    got = read_file(path, &len);
    assert_int_equal(len, 24 + 4 * 300 * 7 + 12 + 8);
    /* section length 8 + 4 * 2100 = 8408 = 0x20D8 */
    const unsigned char hdr[24] = {'R', 'P', 'L', '2', 1, 0, 0, 0, 'H', 'G', 'H', 'T',
                                   0xD8, 0x20, 0, 0, 0x2C, 0x01, 0, 0, 7, 0, 0, 0};
    assert_memory_equal(got, hdr, 24);
    free(got);
    /* long runs take several bytes: a wall over row 3 is open 900 (0x384:
     * 84 07), solid 300 (0x12C: AC 02), open 900 */
    assert_int_equal(rpl_sim_wall_rect(sim, 0, 3, 300, 1, 1), RPL_OK);
    assert_int_equal(rpl_sim_save(sim, path), RPL_OK);
    got = read_file(path, &len);
    const unsigned char runs[14] = {'W', 'A', 'L', 'L', 6, 0, 0, 0, 0x84, 0x07, 0xAC, 0x02,
                                    0x84, 0x07};
    assert_int_equal(len, 24 + 4 * 300 * 7 + 14 + 12 + 8);
    assert_memory_equal(got + 24 + 4 * 300 * 7, runs, sizeof runs);
    free(got);
    rpl_sim_destroy(sim);
    assert_int_equal(remove(path), 0);
}

/* Leaves a failure of another kind as the field's last error detail, so
 * that a detail read after the next call is that call's own. */
static void other_failure(rpl_sim_t *sim)
{
    assert_int_equal(rpl_sim_drop(sim, 1, 1, 0, 1), RPL_EINVAL);
    assert_non_null(strstr(rpl_sim_error(sim), "radius"));
}

/* Checks that the field's error detail names the file and says `says`. */
static void assert_load_error(rpl_sim_t *sim, const char *path, const char *says,
                              const char *what)
{
    const char *e = rpl_sim_error(sim);
    if (!strstr(e, path) || !strstr(e, says))
        fail_msg("%s: the detail \"%s\" should name %s and say \"%s\"", what, e, path, says);
}

/* Loads `data` as a snapshot into sim and checks the status, the
 * untouched state and that the error detail names the file and says
 * `says`. */
static void expect_load_fails(rpl_sim_t *sim, const char *path, const unsigned char *data,
                              size_t len, rpl_status want, const char *says, const char *what)
{
    int16_t *c = copy_plane(cur_of(sim), cells(sim));
    int16_t *p = copy_plane(prev_of(sim), cells(sim));
    write_file(path, data, len);
    other_failure(sim);
    rpl_status st = rpl_sim_load(sim, path);
    if (st != want)
        fail_msg("%s: load gave %d (%s), want %d", what, st, rpl_sim_error(sim), want);
    assert_load_error(sim, path, says, what);
    assert_plane_equal(cur_of(sim), c, cells(sim));
    assert_plane_equal(prev_of(sim), p, cells(sim));
    free(c);
    free(p);
}

static void put_le32(unsigned char *b, uint32_t v)
{
    b[0] = (unsigned char)(v & 0xFF);
    b[1] = (unsigned char)((v >> 8) & 0xFF);
    b[2] = (unsigned char)((v >> 16) & 0xFF);
    b[3] = (unsigned char)((v >> 24) & 0xFF);
}

static void put_le16(unsigned char *b, int v)
{
    uint16_t u = (uint16_t)(int16_t)v;
    b[0] = (unsigned char)(u & 0xFF);
    b[1] = (unsigned char)(u >> 8);
}

static void test_snapshot_bad_files(void **state)
{
    (void)state;
    const int w = 6, h = 5;
    const size_t good_len = 12 + 4 * (size_t)w * h; /* 132 */
    char path[300], missing[340];
    temp_path(path, sizeof path);
    snprintf(missing, sizeof missing, "%s-does-not-exist", path);

    /* a valid snapshot of a different state, built by hand */
    const size_t cap = 512; /* room for every variant below (the largest: 12 + 4*7*5 = 152) */
    unsigned char *good = calloc(cap, 1);
    assert_non_null(good);
    memcpy(good, "RPL1", 4);
    put_le32(good + 4, (uint32_t)w);
    put_le32(good + 8, (uint32_t)h);
    put_le16(good + 12 + 2 * (2 * w + 2), 123);         /* cur (2,2) */
    put_le16(good + 12 + 2 * (w * h + 3 * w + 4), -77); /* prev (4,3) */

    rpl_sim_t *sim = new_sim(w, h, 1);
    random_state(sim, 808, -4000, 4000);
    int16_t *c0 = copy_plane(cur_of(sim), cells(sim));

    /* missing file: the system's reason */
    other_failure(sim);
    assert_int_equal(rpl_sim_load(sim, missing), RPL_EIO);
    assert_load_error(sim, missing, strerror(ENOENT), "missing file");
    assert_plane_equal(cur_of(sim), c0, cells(sim));

    unsigned char *b = malloc(cap);
    assert_non_null(b);
#define RESET_B() memcpy(b, good, cap)

    expect_load_fails(sim, path, good, 0, RPL_EFORMAT, "RPL1", "empty file");
    RESET_B();
    b[3] = '3';
    expect_load_fails(sim, path, b, good_len, RPL_EFORMAT, "RPL1", "wrong magic RPL3");
    RESET_B();
    b[0] = 'r';
    expect_load_fails(sim, path, b, good_len, RPL_EFORMAT, "RPL1", "wrong magic rPL1");
    expect_load_fails(sim, path, good, 3, RPL_EFORMAT, "RPL1", "3 bytes");
    expect_load_fails(sim, path, good, 4, RPL_EFORMAT, "header", "magic only");
    expect_load_fails(sim, path, good, 11, RPL_EFORMAT, "header", "truncated header");
    expect_load_fails(sim, path, good, 12, RPL_EFORMAT, "truncated", "header only");
    expect_load_fails(sim, path, good, good_len - 1, RPL_EFORMAT, "truncated",
                      "truncated data by 1");
    expect_load_fails(sim, path, good, good_len / 2, RPL_EFORMAT, "truncated",
                      "truncated data by half");
    expect_load_fails(sim, path, good, good_len + 1, RPL_EFORMAT, "longer", "one trailing byte");
    expect_load_fails(sim, path, good, good_len + 16, RPL_EFORMAT, "longer", "16 trailing bytes");

    /* valid snapshots, but not of the field's size: flat water, so that
     * the data are valid whatever the size (a snapshot is checked whole
     * before its size is compared with the field's) */
#define RESET_FLAT() (RESET_B(), memset(b + 12, 0, cap - 12))
    RESET_FLAT();
    put_le32(b + 4, (uint32_t)(w + 1));
    expect_load_fails(sim, path, b, 12 + 4 * (size_t)(w + 1) * h, RPL_ESIZE, "7x5",
                      "width mismatch");
    RESET_FLAT();
    put_le32(b + 8, (uint32_t)(h - 1));
    expect_load_fails(sim, path, b, 12 + 4 * (size_t)w * (h - 1), RPL_ESIZE, "6x4",
                      "height mismatch");
    RESET_FLAT();
    put_le32(b + 4, (uint32_t)h); /* transposed: 5x6 into 6x5 */
    put_le32(b + 8, (uint32_t)w);
    expect_load_fails(sim, path, b, good_len, RPL_ESIZE, "5x6", "transposed size");
#undef RESET_FLAT

    /* sizes that are no snapshot at all */
    const uint32_t badsz[][2] = {{0, (uint32_t)h}, {(uint32_t)w, 0}, {0, 0}, {2, (uint32_t)h},
                                 {RPL_DIM_MAX + 1, (uint32_t)h}, {0xFFFFFFFFu, 0xFFFFFFFFu},
                                 {0x80000000u, 5}, {(uint32_t)w, 0x80000006u}};
    for (size_t i = 0; i < sizeof badsz / sizeof badsz[0]; i++) {
        RESET_B();
        put_le32(b + 4, badsz[i][0]);
        put_le32(b + 8, badsz[i][1]);
        char what[64];
        snprintf(what, sizeof what, "header size %lux%lu", (unsigned long)badsz[i][0],
                 (unsigned long)badsz[i][1]);
        expect_load_fails(sim, path, b, good_len, RPL_EFORMAT, "bad size", what);
        /* read alone it fails the same way, with a reason and no size */
        rpl_snapshot_t *snap = NULL;
        int pw = -7, ph = -9;
        assert_int_equal(rpl_snapshot_read(path, &snap), RPL_EFORMAT);
        rpl_snapshot_size(snap, &pw, &ph);
        assert_int_equal(pw, 0);
        assert_int_equal(ph, 0);
        assert_true(strlen(rpl_snapshot_error(snap)) > 0);
        rpl_snapshot_destroy(snap);
    }

    /* heights out of range, in either plane */
    const struct {
        int plane, x, y, v;
    } badh[] = {{0, 2, 2, 8192}, {0, 1, 3, -8193}, {1, 4, 1, 32767}, {1, 3, 2, -32768},
                {0, 4, 3, 20000}};
    for (size_t i = 0; i < sizeof badh / sizeof badh[0]; i++) {
        RESET_B();
        put_le16(b + 12 + 2 * ((size_t)badh[i].plane * w * h + (size_t)badh[i].y * w +
                               (size_t)badh[i].x), badh[i].v);
        expect_load_fails(sim, path, b, good_len, RPL_EFORMAT, "height",
                          "height out of range");
    }
    /* non-zero borders: each side and a corner, in either plane */
    const int bx[] = {0, 3, 5, 2, 0, 5}, by[] = {2, 0, 3, 4, 0, 4};
    for (int plane = 0; plane < 2; plane++)
        for (size_t i = 0; i < sizeof bx / sizeof bx[0]; i++) {
            RESET_B();
            put_le16(b + 12 + 2 * ((size_t)plane * w * h + (size_t)by[i] * w + (size_t)bx[i]),
                     (int)i % 2 ? -1 : 1);
            expect_load_fails(sim, path, b, good_len, RPL_EFORMAT, "border",
                              "non-zero border");
        }

    /* and the good one loads (the bad ones were bad for their own reason) */
    write_file(path, good, good_len);
    assert_int_equal(rpl_sim_load(sim, path), RPL_OK);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            assert_int_equal(at(sim, cur_of(sim), x, y), x == 2 && y == 2 ? 123 : 0);
            assert_int_equal(at(sim, prev_of(sim), x, y), x == 4 && y == 3 ? -77 : 0);
        }
    assert_int_equal(rpl_sim_load(sim, NULL), RPL_EINVAL);
    assert_int_equal(rpl_sim_load(NULL, path), RPL_EINVAL);
#undef RESET_B
    assert_int_equal(remove(path), 0);
    free(b);
    free(good);
    free(c0);
    rpl_sim_destroy(sim);
}

/* Reading a snapshot without a field: its size when valid; otherwise a
 * handle all the same, with the reason and no size. */
static void test_snapshot_read(void **state)
{
    (void)state;
    char path[300], missing[340];
    temp_path(path, sizeof path);
    snprintf(missing, sizeof missing, "%s-does-not-exist", path);
    rpl_sim_t *sim = new_sim(13, 8, 1);
    assert_int_equal(rpl_sim_save(sim, path), RPL_OK);
    rpl_snapshot_t *snap = NULL;
    int w = 0, h = 0;
    assert_int_equal(rpl_snapshot_read(path, &snap), RPL_OK);
    rpl_snapshot_size(snap, &w, &h);
    assert_int_equal(w, 13);
    assert_int_equal(h, 8);
    assert_string_equal(rpl_snapshot_error(snap), "");
    rpl_snapshot_destroy(snap);

    static const struct {
        int missing;
        const char *data;
        size_t len;
        rpl_status want;
    } bad[] = {
        {1, NULL, 0, RPL_EIO},
        {0, "NOPE0000000000000000", 20, RPL_EFORMAT},
        {0, "RPL1\x05\x00", 6, RPL_EFORMAT}, /* header cut short */
        {0, "", 0, RPL_EFORMAT},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (!bad[i].missing)
            write_file(path, (const unsigned char *)bad[i].data, bad[i].len);
        snap = NULL;
        w = h = -1;
        assert_int_equal(rpl_snapshot_read(bad[i].missing ? missing : path, &snap), bad[i].want);
        assert_non_null(snap);
        assert_true(strlen(rpl_snapshot_error(snap)) > 0);
        rpl_snapshot_size(snap, &w, &h);
        assert_int_equal(w, 0);
        assert_int_equal(h, 0);
        rpl_snapshot_destroy(snap);
    }

    assert_int_equal(rpl_snapshot_read(NULL, &snap), RPL_EINVAL);
    rpl_snapshot_destroy(snap);
    assert_int_equal(rpl_snapshot_read(path, NULL), RPL_EINVAL);
    w = h = -1;
    rpl_snapshot_size(NULL, &w, &h); /* no snapshot has no size */
    assert_int_equal(w, 0);
    assert_int_equal(h, 0);
    rpl_snapshot_destroy(NULL);
    assert_int_equal(remove(path), 0);
    rpl_sim_destroy(sim);
}

/* ---- RPL2: walls, edges and sections ------------------------------------ */

/* A snapshot built by hand, a piece at a time. */
typedef struct bytes {
    unsigned char *p;
    size_t n, cap;
} bytes_t;

static void add(bytes_t *b, const void *data, size_t len)
{
    if (b->n + len > b->cap) {
        b->cap = (b->n + len) * 2 + 64;
        b->p = realloc(b->p, b->cap);
        assert_non_null(b->p);
    }
    if (len)
        memcpy(b->p + b->n, data, len);
    b->n += len;
}

static void add_u32(bytes_t *b, uint32_t v)
{
    unsigned char x[4];
    put_le32(x, v);
    add(b, x, 4);
}

static void add_head(bytes_t *b, const char *tag, uint32_t len)
{
    add(b, tag, 4);
    add_u32(b, len);
}

/* "RPL2", version 1 and a HGHT section of a w x h field whose current
 * cell (1, 1) is 50 (the rest 0). */
static void add_start(bytes_t *b, int w, int h)
{
    add(b, "RPL2", 4);
    add_u32(b, 1);
    add_head(b, "HGHT", (uint32_t)(8 + 4 * w * h));
    add_u32(b, (uint32_t)w);
    add_u32(b, (uint32_t)h);
    for (int i = 0; i < 2 * w * h; i++) {
        unsigned char c[2] = {0, 0};
        if (i == w + 1)
            c[0] = 50;
        add(b, c, 2);
    }
}

static void test_snapshot_walls_and_edges(void **state)
{
    (void)state;
    char path[300];
    temp_path(path, sizeof path);
    const int w = 70, h = 40;
    rpl_sim_t *a = new_sim(w, h, 1), *b = new_sim(w, h, 2);
    random_state(a, 31, -3000, 3000);
    assert_int_equal(rpl_sim_wall_line(a, 3, 30, 60, 5, 3, 1), RPL_OK);
    assert_int_equal(rpl_sim_wall_rect(a, 0, 0, 5, 5, 1), RPL_OK); /* cell 0 solid */
    assert_int_equal(rpl_sim_wall_rect(a, 65, 35, 5, 5, 1), RPL_OK); /* so is the last */
    assert_int_equal(rpl_sim_set_edges(a, RPL_EDGES_ABSORB), RPL_OK);
    for (int i = 0; i < 10; i++)
        rpl_sim_step(a);
    assert_int_equal(rpl_sim_save(a, path), RPL_OK);
    /* b has other walls and edges: loading replaces them */
    assert_int_equal(rpl_sim_wall_rect(b, 10, 10, 20, 20, 1), RPL_OK);
    assert_int_equal(rpl_sim_load(b, path), RPL_OK);
    assert_plane_equal(cur_of(b), cur_of(a), cells(a));
    assert_plane_equal(prev_of(b), prev_of(a), cells(a));
    assert_non_null(rpl_sim_walls(b));
    assert_memory_equal(rpl_sim_walls(b), rpl_sim_walls(a), cells(a));
    assert_int_equal(rpl_sim_edges(b), RPL_EDGES_ABSORB);
    for (int i = 0; i < 30; i++) {
        rpl_sim_step(a);
        rpl_sim_step(b);
    }
    assert_plane_equal(cur_of(b), cur_of(a), cells(a));
    /* saving what was loaded gives the same bytes */
    size_t l1, l2;
    assert_int_equal(rpl_sim_save(a, path), RPL_OK);
    unsigned char *f1 = read_file(path, &l1);
    assert_int_equal(rpl_sim_save(b, path), RPL_OK);
    unsigned char *f2 = read_file(path, &l2);
    assert_int_equal(l1, l2);
    assert_memory_equal(f1, f2, l1);
    free(f1);
    free(f2);

    /* no walls, reflecting: loading that clears b's walls and edges */
    rpl_sim_t *c = new_sim(w, h, 3);
    random_state(c, 32, -3000, 3000);
    assert_int_equal(rpl_sim_save(c, path), RPL_OK);
    assert_int_equal(rpl_sim_load(b, path), RPL_OK);
    assert_null(rpl_sim_walls(b));
    assert_int_equal(rpl_sim_edges(b), RPL_EDGES_REFLECT);
    assert_plane_equal(cur_of(b), cur_of(c), cells(c));

    /* and so does an RPL1 file (the old format still loads) */
    assert_int_equal(rpl_sim_load(b, path), RPL_OK);
    assert_int_equal(rpl_sim_wall_rect(b, 10, 10, 20, 20, 1), RPL_OK);
    assert_int_equal(rpl_sim_set_edges(b, RPL_EDGES_ABSORB), RPL_OK);
    bytes_t v1 = {0};
    add(&v1, "RPL1", 4);
    add_u32(&v1, (uint32_t)w);
    add_u32(&v1, (uint32_t)h);
    for (size_t i = 0; i < 2 * cells(c); i++) {
        unsigned char x[2];
        put_le16(x, i < cells(c) ? cur_of(c)[i] : prev_of(c)[i - cells(c)]);
        add(&v1, x, 2);
    }
    write_file(path, v1.p, v1.n);
    assert_int_equal(rpl_sim_load(b, path), RPL_OK);
    assert_null(rpl_sim_walls(b));
    assert_int_equal(rpl_sim_edges(b), RPL_EDGES_REFLECT);
    assert_plane_equal(cur_of(b), cur_of(c), cells(c));
    assert_plane_equal(prev_of(b), prev_of(c), cells(c));
    free(v1.p);

    /* heights under a wall in a file: walls win */
    bytes_t hw = {0};
    add_start(&hw, 5, 4); /* (1, 1) is 50 */
    add_head(&hw, "WALL", 2);
    add(&hw, "\x06\x0E", 2); /* open 6, solid 14: cells 6..19, (1, 1) is cell 6 */
    add_head(&hw, "DONE", 0);
    rpl_snapshot_t *snap = NULL;
    assert_int_equal(rpl_snapshot_parse(hw.p, hw.n, &snap), RPL_OK);
    rpl_sim_t *d = new_sim(5, 4, 1);
    assert_int_equal(rpl_sim_set_snapshot(d, snap), RPL_OK);
    assert_int_equal(at(d, cur_of(d), 1, 1), 0);
    assert_int_equal(rpl_sim_walls(d)[6], 1);
    assert_int_equal(rpl_sim_walls(d)[5], 0);
    rpl_snapshot_destroy(snap);
    free(hw.p);

    assert_int_equal(remove(path), 0);
    rpl_sim_destroy(a);
    rpl_sim_destroy(b);
    rpl_sim_destroy(c);
    rpl_sim_destroy(d);
}

/* Loads bytes that must fail: the status, the detail, and a field whose
 * heights, walls and edges are all as they were. */
static void expect_v2_fails(rpl_sim_t *sim, const char *path, const bytes_t *b, rpl_status want,
                            const char *says, const char *what)
{
    uint8_t *m0 = xmalloc(cells(sim));
    memcpy(m0, rpl_sim_walls(sim), cells(sim));
    rpl_edges e0 = rpl_sim_edges(sim);
    expect_load_fails(sim, path, b->p, b->n, want, says, what);
    assert_non_null(rpl_sim_walls(sim));
    assert_memory_equal(rpl_sim_walls(sim), m0, cells(sim));
    assert_int_equal(rpl_sim_edges(sim), e0);
    /* parsed from memory, the same verdict, with a reason and no size
     * (a snapshot of another size is itself valid) */
    rpl_snapshot_t *snap = NULL;
    if (want == RPL_ESIZE) {
        assert_int_equal(rpl_snapshot_parse(b->p, b->n, &snap), RPL_OK);
        rpl_snapshot_destroy(snap);
        free(m0);
        return;
    }
    assert_int_equal(rpl_snapshot_parse(b->p, b->n, &snap), want);
    if (!strstr(rpl_snapshot_error(snap), says))
        fail_msg("%s: parsing says \"%s\", not \"%s\"", what, rpl_snapshot_error(snap), says);
    int pw = -1, ph = -1;
    rpl_snapshot_size(snap, &pw, &ph);
    assert_int_equal(pw, 0);
    assert_int_equal(ph, 0);
    rpl_snapshot_destroy(snap);
    free(m0);
}

static void test_snapshot_v2_bad_files(void **state)
{
    (void)state;
    char path[300];
    temp_path(path, sizeof path);
    const int w = 6, h = 5; /* 30 cells */
    rpl_sim_t *sim = new_sim(w, h, 1);
    random_state(sim, 9, -4000, 4000);
    assert_int_equal(rpl_sim_wall_rect(sim, 2, 1, 2, 2, 1), RPL_OK);
    assert_int_equal(rpl_sim_set_edges(sim, RPL_EDGES_ABSORB), RPL_OK);

    static const struct {
        const char *what, *says;
        int version;           /* the version field */
        int cut;               /* bytes cut off the end */
        const char *tail;      /* bytes after HGHT (NULL: no HGHT either) */
        size_t tail_len;
    } cases[] = {
        {"version 0", "version 0", 0, 0, "", 0},
        {"version 2", "version 2", 2, 0, "", 0},
        {"magic and version only", "no HGHT", 1, 0, NULL, 0},
        {"heights cut short", "truncated", 1, 3, "", 0},
        {"DONE cut short", "truncated section header", 1, 1, "DONE\0\0\0\0", 8},
        {"section header cut short", "truncated section header", 1, 0, "EDGE\x04", 5},
        {"damaged tag", "damaged section tag", 1, 0, "ED\x01" "E\x04\0\0\0\0\0\0\0", 12},
        {"unknown critical section", "critical section ABCD", 1, 0, "ABCD\x01\0\0\0x", 9},
        {"lying length", "claims", 1, 0, "abcd\xff\xff\xff\xff", 8},
        {"optional section cut short", "truncated", 1, 0, "abcd\x10\0\0\0xy", 10},
        {"second HGHT", "second HGHT", 1, 0, "HGHT\x08\0\0\0\x06\0\0\0\x05\0\0\0", 16},
        {"EDGE of 3 bytes", "not 4", 1, 0, "EDGE\x03\0\0\0\0\0\0", 11},
        {"edges mode 2", "edges mode 2", 1, 0, "EDGE\x04\0\0\0\x02\0\0\0", 12},
        {"second EDGE", "second EDGE", 1, 0, "EDGE\x04\0\0\0\0\0\0\0EDGE\x04\0\0\0\0\0\0\0", 24},
        {"empty WALL", "cannot hold", 1, 0, "WALL\0\0\0\0", 8},
        {"WALL too long for the field", "cannot hold", 1, 0, "WALL\x20\0\0\0", 8},
        {"runs short of the field", "cover 29 of 30", 1, 0, "WALL\x02\0\0\0\x1c\x01", 10},
        {"runs past the field", "cover more", 1, 0, "WALL\x02\0\0\0\x1c\x03", 10},
        {"an empty run", "empty run", 1, 0, "WALL\x03\0\0\0\x1c\0\x02", 11},
        {"a run of five bytes", "too long", 1, 0, "WALL\x05\0\0\0\x80\x80\x80\x80\x01", 13},
        {"a run cut short", "cut short", 1, 0, "WALL\x02\0\0\0\x1d\x81", 10},
        {"WALL cut short", "truncated", 1, 0, "WALL\x03\0\0\0\x1c\x02", 10},
        {"second WALL", "second WALL", 1, 0, "WALL\x01\0\0\0\x1eWALL\x01\0\0\0\x1e", 18},
        {"a cut in a section header", "truncated section header", 1, 0, "EDGE\x04\0\0\0\0\0\0\0xyz", 15},
        {"no DONE", "no DONE", 1, 0, "EDGE\x04\0\0\0\0\0\0\0", 12},
        {"heights but no DONE", "no DONE", 1, 0, "", 0},
        {"DONE that is not empty", "not 0", 1, 0, "DONE\x01\0\0\0x", 9},
        {"bytes after DONE", "longer", 1, 0, "DONE\0\0\0\0x", 9},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        bytes_t b = {0};
        if (cases[i].tail) {
            add_start(&b, w, h);
            add(&b, cases[i].tail, cases[i].tail_len);
        } else {
            add(&b, "RPL2", 4);
            add_u32(&b, 1);
        }
        put_le32(b.p + 4, (uint32_t)cases[i].version);
        b.n -= (size_t)cases[i].cut;
        expect_v2_fails(sim, path, &b, RPL_EFORMAT, cases[i].says, cases[i].what);
        free(b.p);
    }
    /* sections that must come first, or fit the size they claim */
    bytes_t b = {0};
    add(&b, "RPL2\x01\0\0\0EDGE\x04\0\0\0\0\0\0\0", 20);
    expect_v2_fails(sim, path, &b, RPL_EFORMAT, "first section is EDGE", "EDGE first");
    b.n = 0;
    add(&b, "RPL2\x01\0\0\0HGHT\x04\0\0\0\0\0\0\0", 20);
    expect_v2_fails(sim, path, &b, RPL_EFORMAT, "no size", "HGHT too short");
    b.n = 0;
    add(&b, "RPL2\x01\0\0\0HGHT\x08\0\0\0\x02\0\0\0\x05\0\0\0", 24);
    expect_v2_fails(sim, path, &b, RPL_EFORMAT, "bad size 2x5", "a field too narrow");
    b.n = 0;
    add(&b, "RPL2\x01\0\0\0HGHT\x08\0\0\0\xff\xff\xff\xff\xff\xff\xff\xff", 24);
    expect_v2_fails(sim, path, &b, RPL_EFORMAT, "bad size", "a lying size");
    b.n = 0;
    /* a size that fits, but a section length that does not match it:
     * refused before anything is allocated or read */
    add(&b, "RPL2\x01\0\0\0HGHT\x10\0\0\0\x00\x20\0\0\x00\x20\0\0", 24);
    expect_v2_fails(sim, path, &b, RPL_EFORMAT, "8192x8192 field needs 268435464",
                    "a huge size in a short section");
    b.n = 0;
    add_start(&b, w, h);
    put_le32(b.p + 12, (uint32_t)(8 + 4 * w * h + 2));
    add(&b, "\0\0", 2);
    expect_v2_fails(sim, path, &b, RPL_EFORMAT, "HGHT section of 130 bytes",
                    "HGHT longer than its size");
    b.n = 0;
    add_start(&b, w, h);
    b.p[24 + 2 * (w * h + 3)] = 1; /* previous border cell (3, 0) */
    expect_v2_fails(sim, path, &b, RPL_EFORMAT, "border", "non-zero border");
    b.n = 0;
    add_start(&b, w, h);
    put_le16(b.p + 24 + 2 * (2 * w + 2), 9000);
    expect_v2_fails(sim, path, &b, RPL_EFORMAT, "outside", "height out of range");
    b.n = 0;
    add_start(&b, w + 1, h);
    add_head(&b, "DONE", 0);
    expect_v2_fails(sim, path, &b, RPL_ESIZE, "7x5", "another size");

    /* optional sections are skipped, in any place after HGHT, with the
     * known ones around them */
    b.n = 0;
    add_start(&b, w, h);
    add(&b, "zzzz\x03\0\0\0abc", 11);
    add(&b, "WALL\x03\0\0\0\x00\x01\x1d", 11); /* cell 0 solid (a border cell) */
    add(&b, "sHOW\0\0\0\0", 8);
    add(&b, "EDGE\x04\0\0\0\0\0\0\0", 12);
    add(&b, "nOTE\x05\0\0\0hello", 13);
    add_head(&b, "DONE", 0);
    write_file(path, b.p, b.n);
    assert_int_equal(rpl_sim_load(sim, path), RPL_OK);
    assert_int_equal(at(sim, cur_of(sim), 1, 1), 50);
    assert_non_null(rpl_sim_walls(sim));
    for (int i = 0; i < w * h; i++)
        assert_int_equal(rpl_sim_walls(sim)[i], i == 0);
    assert_int_equal(rpl_sim_edges(sim), RPL_EDGES_REFLECT);
    /* a mask with every cell open is no walls at all */
    b.n = 0;
    add_start(&b, w, h);
    add(&b, "WALL\x01\0\0\0\x1e", 9);
    add_head(&b, "DONE", 0);
    write_file(path, b.p, b.n);
    assert_int_equal(rpl_sim_load(sim, path), RPL_OK);
    assert_null(rpl_sim_walls(sim));
    free(b.p);
    assert_int_equal(remove(path), 0);
    rpl_sim_destroy(sim);
}

static void test_snapshot_save_fails(void **state)
{
    (void)state;
    char dir[300] = "/tmp/rpl-test-dir-XXXXXX";
    assert_non_null(host_mkdtemp(dir, sizeof dir));
    assert_int_equal(rmdir(dir), 0); /* now surely missing */
    char path[400];
    snprintf(path, sizeof path, "%s/snap.rpl", dir);
    rpl_sim_t *sim = new_sim(10, 10, 1);
    random_state(sim, 1, -10, 10);
    int16_t *c = copy_plane(cur_of(sim), cells(sim));
    assert_int_equal(rpl_sim_save(sim, path), RPL_EIO);
    assert_true(strlen(rpl_sim_error(sim)) > 0);
    assert_false(file_exists(path));
    assert_false(file_exists(dir));
    assert_plane_equal(cur_of(sim), c, cells(sim));

    /* the target is a directory: refused, no temporary left beside it */
    assert_non_null(host_mkdtemp(strcpy(dir, "/tmp/rpl-test-dir-XXXXXX"), sizeof dir));
    snprintf(path, sizeof path, "%s/sub", dir);
    assert_int_equal(host_mkdir(path), 0);
    assert_int_equal(rpl_sim_save(sim, path), RPL_EIO);
    assert_int_equal(rmdir(path), 0); /* both empty: nothing was left in either */
    assert_int_equal(rmdir(dir), 0);

    assert_int_equal(rpl_sim_save(sim, NULL), RPL_EINVAL);
    assert_int_equal(rpl_sim_save(sim, ""), RPL_EINVAL);
    assert_int_equal(rpl_sim_save(NULL, "/tmp/x"), RPL_EINVAL);
    free(c);
    rpl_sim_destroy(sim);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_snapshot_round_trip),
        cmocka_unit_test(test_snapshot_layout),
        cmocka_unit_test(test_snapshot_bad_files),
        cmocka_unit_test(test_snapshot_read),
        cmocka_unit_test(test_snapshot_save_fails),
        cmocka_unit_test(test_snapshot_walls_and_edges),
        cmocka_unit_test(test_snapshot_v2_bad_files),
    };
    return cmocka_run_group_tests_name("snapshot", tests, NULL, NULL);
}
