/* tests/files.c - test_files' helpers, shared with its system's own cases (files_special.c, files_special_win.c): a temporary working folder, writing and checking files, fields to save. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "files.h"
#include "host.h"
#include "ripple.h"
#include "ripple_support.h"

/* Each test runs in a fresh temporary directory, as the working directory,
 * so bare file names are tried the way people type them. */
static char tmpdir[300];
static char oldcwd[4096];

int files_setup(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/ripple-files-XXXXXX");
    if (!host_mkdtemp(tmpdir, sizeof tmpdir) || !getcwd(oldcwd, sizeof oldcwd) || chdir(tmpdir) != 0)
        return -1;
    return 0;
}

int files_teardown(void **state)
{
    (void)state;
    if (chdir(oldcwd) != 0)
        return -1;
    return host_rmtree(tmpdir);
}

void listing(char *out, size_t len)
{
    assert_int_equal(host_list(".", out, len), 0);
}

void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

void assert_file_is(const char *path, const char *text)
{
    char buf[256] = { 0 };
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    assert_int_equal(n, strlen(text));
    assert_string_equal(buf, text);
}

/* Writes text to path through rpl_file and returns the commit's status. */
rpl_status save(const char *path, const char *text, char *why, size_t whylen)
{
    rpl_file_t *f;
    rpl_status st = rpl_file_open(path, 0, &f);
    if (st == RPL_OK) {
        assert_non_null(rpl_file_stream(f));
        fputs(text, rpl_file_stream(f));
        st = rpl_file_commit(f);
    }
    if (why)
        snprintf(why, whylen, "%s", rpl_file_error(f));
    rpl_file_destroy(f);
    return st;
}

rpl_sim_t *busy_field(int w, int h)
{
    rpl_sim_t *sim;
    assert_int_equal(rpl_sim_create(w, h, 5, &sim), RPL_OK);
    assert_non_null(sim);
    assert_int_equal(rpl_sim_drop(sim, w / 2, h / 2, 3, 900), RPL_OK);
    for (int i = 0; i < 7; i++)
        rpl_sim_step(sim);
    return sim;
}

void assert_same_field(const rpl_sim_t *a, const rpl_sim_t *b)
{
    size_t n = (size_t)rpl_sim_width(a) * (size_t)rpl_sim_height(a);
    assert_int_equal(rpl_sim_width(a), rpl_sim_width(b));
    assert_int_equal(rpl_sim_height(a), rpl_sim_height(b));
    assert_memory_equal(rpl_sim_heights(a), rpl_sim_heights(b), n * 2);
    assert_memory_equal(rpl_sim_previous(a), rpl_sim_previous(b), n * 2);
}

void assert_snapshot_of(const rpl_sim_t *a, rpl_snapshot_t *snap)
{
    int w, h;
    rpl_snapshot_size(snap, &w, &h);
    assert_int_equal(w, rpl_sim_width(a));
    assert_int_equal(h, rpl_sim_height(a));
    rpl_sim_t *b;
    assert_int_equal(rpl_sim_create(w, h, 9, &b), RPL_OK);
    assert_int_equal(rpl_sim_set_snapshot(b, snap), RPL_OK);
    assert_same_field(a, b);
    rpl_snapshot_destroy(snap);
    rpl_sim_destroy(b);
}
