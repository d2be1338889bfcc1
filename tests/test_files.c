/* test_files.c - files in and out: the safe writer on every kind of target, snapshots read once from pipes and FIFOs (cmocka); the system's own kinds of target in files_special.c (files_special_win.c on Windows). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "files.h"
#include "host.h"
#include "ripple.h"
#include "ripple_support.h"

static void test_bare_name(void **state)
{
    (void)state;
    assert_int_equal(save("out.rpl", "hello", NULL, 0), RPL_OK);
    assert_file_is("out.rpl", "hello");
    char names[256];
    listing(names, sizeof names);
    assert_string_equal(names, "out.rpl "); /* no temporary left */
}

static void test_replace_keeps_mode(void **state)
{
    (void)state;
    write_text("old", "old contents");
    assert_int_equal(chmod("old", 0640), 0); /* Windows keeps only "writable" of it */
    struct stat was, st;
    assert_int_equal(stat("old", &was), 0);
    assert_int_equal(save("old", "new", NULL, 0), RPL_OK);
    assert_file_is("old", "new");
    assert_int_equal(stat("old", &st), 0);
    assert_int_equal(st.st_mode, was.st_mode);
}

/* A new file never inherits set-uid or set-gid: as root a replaced 6755
 * file would otherwise become a set-uid root program of new contents. */
static void test_replace_drops_setuid(void **state)
{
    (void)state;
    write_text("prog", "old contents");
    assert_int_equal(chmod("prog", 06755), 0);
    struct stat st;
    assert_int_equal(stat("prog", &st), 0);
    if ((st.st_mode & 06000) != 06000)
        skip(); /* a file system (or a system) that keeps no such bits */
    assert_int_equal(save("prog", "new", NULL, 0), RPL_OK);
    assert_file_is("prog", "new");
    assert_int_equal(stat("prog", &st), 0);
    assert_int_equal(st.st_mode & 07777, 0755);
}

/* A file made read-only is left alone, for root too (by the mode bits,
 * not by what the system would allow), and the check says so up front. */
static void test_read_only_refused(void **state)
{
    (void)state;
    write_text("ro.rpl", "precious");
    assert_int_equal(chmod("ro.rpl", 0444), 0);
    char why[512];
    assert_int_equal(save("ro.rpl", "new", why, sizeof why), RPL_EIO);
    assert_non_null(strstr(why, "'ro.rpl'"));
    assert_non_null(strstr(why, "read-only"));
    assert_file_is("ro.rpl", "precious");
    rpl_file_t *f;
    assert_int_equal(rpl_file_open("ro.rpl", RPL_FILE_CHECK, &f), RPL_EIO);
    rpl_file_destroy(f);
    /* writable again by its owner: replaced */
    assert_int_equal(chmod("ro.rpl", 0644), 0);
    assert_int_equal(save("ro.rpl", "new", NULL, 0), RPL_OK);
    assert_file_is("ro.rpl", "new");
    char names[256];
    listing(names, sizeof names);
    assert_string_equal(names, "ro.rpl ");
}

static void test_abandoned_write(void **state)
{
    (void)state;
    write_text("keep", "original");
    rpl_file_t *f;
    assert_int_equal(rpl_file_open("keep", 0, &f), RPL_OK);
    fputs("half a fi", rpl_file_stream(f));
    rpl_file_destroy(f);
    assert_file_is("keep", "original");
    char names[256];
    listing(names, sizeof names);
    assert_string_equal(names, "keep ");
}



static void test_directory_refused(void **state)
{
    (void)state;
    assert_int_equal(host_mkdir("d"), 0);
    char why[512];
    assert_int_equal(save("d", "x", why, sizeof why), RPL_EIO);
    assert_non_null(strstr(why, "directory"));
    assert_int_equal(save("d/", "x", why, sizeof why), RPL_EIO);
    assert_int_equal(save(".", "x", why, sizeof why), RPL_EIO);
    struct stat st;
    assert_int_equal(stat("d", &st), 0);
    assert_true(S_ISDIR(st.st_mode));
}

static void test_missing_directory_reason(void **state)
{
    (void)state;
    char why[512];
    assert_int_equal(save("no/such/dir/x.rpl", "x", why, sizeof why), RPL_EIO);
    assert_non_null(strstr(why, "no/such/dir/x.rpl"));
    assert_non_null(strstr(why, strerror(ENOENT)));
}

static void test_long_name_reason_kept(void **state)
{
    (void)state;
    char name[1200];
    memset(name, 'a', sizeof name - 1);
    name[sizeof name - 1] = '\0';
    rpl_file_t *f;
    assert_int_equal(rpl_file_open(name, RPL_FILE_CHECK, &f), RPL_EIO);
    const char *why = rpl_file_error(f);
    /* the message fits its slot: the name's start, "...", and the reason
     * at the end kept whole */
    assert_true(strlen(why) < 192);
    assert_memory_equal(why, "cannot write 'aaaa", 18);
    assert_non_null(strstr(why, "..."));
    assert_non_null(strstr(why, strerror(ENAMETOOLONG)));
    rpl_file_destroy(f);
}

static void test_check_writes_nothing(void **state)
{
    (void)state;
    rpl_file_t *f;
    assert_int_equal(rpl_file_open("later.png", RPL_FILE_CHECK, &f), RPL_OK);
    assert_null(rpl_file_stream(f));
    rpl_file_destroy(f);
    write_text("there", "x");
    assert_int_equal(rpl_file_open("there", RPL_FILE_CHECK, &f), RPL_OK);
    rpl_file_destroy(f);
    char names[256];
    listing(names, sizeof names);
    assert_string_equal(names, "there ");
    assert_file_is("there", "x");
}











static void test_misuse(void **state)
{
    (void)state;
    rpl_file_t *f = (rpl_file_t *)1;
    assert_int_equal(rpl_file_open(NULL, 0, &f), RPL_EINVAL);
    assert_non_null(f);
    assert_true(strlen(rpl_file_error(f)) > 0);
    assert_null(rpl_file_stream(f));
    assert_int_equal(rpl_file_commit(f), RPL_EINVAL);
    rpl_file_destroy(f);
    assert_int_equal(rpl_file_open("", 0, &f), RPL_EINVAL);
    rpl_file_destroy(f);
    assert_int_equal(rpl_file_open("x", 0x80, &f), RPL_EINVAL);
    rpl_file_destroy(f);
    assert_int_equal(rpl_file_open("x", 0, NULL), RPL_EINVAL);
    assert_int_equal(rpl_file_commit(NULL), RPL_EINVAL);
    assert_null(rpl_file_stream(NULL));
    assert_true(strlen(rpl_file_error(NULL)) > 0);
    rpl_file_destroy(NULL);
    /* committing twice: the second is refused, the file stays */
    assert_int_equal(rpl_file_open("twice", 0, &f), RPL_OK);
    fputs("once", rpl_file_stream(f));
    assert_int_equal(rpl_file_commit(f), RPL_OK);
    assert_int_equal(rpl_file_commit(f), RPL_EINVAL);
    rpl_file_destroy(f);
    assert_file_is("twice", "once");
    char names[256];
    listing(names, sizeof names);
    assert_string_equal(names, "twice ");
}

/* ---- snapshots ------------------------------------------------------------ */

static void test_snapshot_bare_name(void **state)
{
    (void)state;
    rpl_sim_t *a = busy_field(37, 23);
    assert_int_equal(rpl_sim_save(a, "state.rpl"), RPL_OK);
    rpl_snapshot_t *snap;
    assert_int_equal(rpl_snapshot_read("state.rpl", &snap), RPL_OK);
    assert_snapshot_of(a, snap);
    rpl_sim_destroy(a);
    char names[256];
    listing(names, sizeof names);
    assert_string_equal(names, "state.rpl ");
}

static void test_snapshot_parse_matches_file(void **state)
{
    (void)state;
    rpl_sim_t *a = busy_field(9, 5);
    assert_int_equal(rpl_sim_save(a, "s.rpl"), RPL_OK);
    /* RPL2: magic, version, HGHT (header, size, planes), EDGE, DONE; and
     * one byte more */
    unsigned char buf[8 + 16 + 4 * 45 + 12 + 8 + 1];
    FILE *f = fopen("s.rpl", "rb");
    assert_non_null(f);
    assert_int_equal(fread(buf, 1, sizeof buf, f), sizeof buf - 1);
    fclose(f);
    rpl_snapshot_t *snap;
    assert_int_equal(rpl_snapshot_parse(buf, sizeof buf - 1, &snap), RPL_OK);
    rpl_sim_t *b;
    assert_int_equal(rpl_sim_create(9, 5, 1, &b), RPL_OK);
    assert_int_equal(rpl_sim_set_snapshot(b, snap), RPL_OK);
    assert_same_field(a, b);
    rpl_snapshot_destroy(snap);
    /* one byte more or less, and every shorter prefix, is refused */
    assert_int_equal(rpl_snapshot_parse(buf, sizeof buf, &snap), RPL_EFORMAT);
    assert_non_null(strstr(rpl_snapshot_error(snap), "longer"));
    rpl_snapshot_destroy(snap);
    for (size_t len = 0; len < sizeof buf - 1; len++) {
        assert_int_equal(rpl_snapshot_parse(buf, len, &snap), RPL_EFORMAT);
        int w = 1, h = 1;
        rpl_snapshot_size(snap, &w, &h);
        assert_int_equal(w, 0);
        /* a failed snapshot loads nothing, and the field is untouched */
        assert_int_equal(rpl_sim_set_snapshot(b, snap), RPL_EINVAL);
        assert_same_field(a, b);
        rpl_snapshot_destroy(snap);
    }
    rpl_sim_destroy(a);
    rpl_sim_destroy(b);
}

static void test_snapshot_misuse(void **state)
{
    (void)state;
    rpl_snapshot_t *snap;
    assert_int_equal(rpl_snapshot_read(NULL, &snap), RPL_EINVAL);
    assert_true(strlen(rpl_snapshot_error(snap)) > 0);
    rpl_snapshot_destroy(snap);
    assert_int_equal(rpl_snapshot_read("", &snap), RPL_EINVAL);
    rpl_snapshot_destroy(snap);
    assert_int_equal(rpl_snapshot_read("x", NULL), RPL_EINVAL);
    assert_int_equal(rpl_snapshot_parse(NULL, 5, &snap), RPL_EINVAL);
    rpl_snapshot_destroy(snap);
    assert_int_equal(rpl_snapshot_read("missing.rpl", &snap), RPL_EIO);
    assert_non_null(strstr(rpl_snapshot_error(snap), "missing.rpl"));
    rpl_snapshot_destroy(snap);
    assert_true(strlen(rpl_snapshot_error(NULL)) > 0);
    rpl_snapshot_destroy(NULL);
    rpl_sim_t *sim;
    assert_int_equal(rpl_sim_create(5, 5, 1, &sim), RPL_OK);
    assert_int_equal(rpl_sim_set_snapshot(sim, NULL), RPL_EINVAL);
    assert_int_equal(rpl_sim_set_snapshot(NULL, NULL), RPL_EINVAL);
    /* a snapshot of another size is refused and the field kept */
    rpl_sim_t *other = busy_field(7, 5);
    assert_int_equal(rpl_sim_save(other, "o.rpl"), RPL_OK);
    assert_int_equal(rpl_snapshot_read("o.rpl", &snap), RPL_OK);
    assert_int_equal(rpl_sim_set_snapshot(sim, snap), RPL_ESIZE);
    assert_non_null(strstr(rpl_sim_error(sim), "7x5"));
    rpl_snapshot_destroy(snap);
    rpl_sim_destroy(other);
    rpl_sim_destroy(sim);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_bare_name, files_setup, files_teardown),
        cmocka_unit_test_setup_teardown(test_replace_keeps_mode, files_setup, files_teardown),
        cmocka_unit_test_setup_teardown(test_replace_drops_setuid, files_setup, files_teardown),
        cmocka_unit_test_setup_teardown(test_read_only_refused, files_setup, files_teardown),
        cmocka_unit_test_setup_teardown(test_abandoned_write, files_setup, files_teardown),
        cmocka_unit_test_setup_teardown(test_directory_refused, files_setup, files_teardown),
        cmocka_unit_test_setup_teardown(test_missing_directory_reason, files_setup, files_teardown),
        cmocka_unit_test_setup_teardown(test_long_name_reason_kept, files_setup, files_teardown),
        cmocka_unit_test_setup_teardown(test_check_writes_nothing, files_setup, files_teardown),
        cmocka_unit_test_setup_teardown(test_misuse, files_setup, files_teardown),
        cmocka_unit_test_setup_teardown(test_snapshot_bare_name, files_setup, files_teardown),
        cmocka_unit_test_setup_teardown(test_snapshot_parse_matches_file, files_setup, files_teardown),
        cmocka_unit_test_setup_teardown(test_snapshot_misuse, files_setup, files_teardown),
    };
    enum { N = sizeof tests / sizeof *tests };
    /* then the system's own kinds of target (files_special.c, _win.c) */
    struct CMUnitTest all[N + FILES_SPECIAL_MAX];
    memcpy(all, tests, sizeof tests);
    size_t n = N + files_special_tests(all + N, FILES_SPECIAL_MAX);
    return _cmocka_run_group_tests("test_files", all, n, NULL, NULL);
}
