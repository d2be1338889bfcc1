/* test_shotname.c - the screenshot key's names: the first free ripple-NNNN.png, taken without opening or replacing what exists (cmocka); the demo's platform seam under them (app/sys.h). */
#include <errno.h>
#include <fcntl.h>
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

/* The naming code is the demo's own, free of SDL: the Makefile links
 * its object into this suite. */
#include "app/shotname.h"
#include "app/sys.h"
#include "host.h"

static char dir[300];

/* In memory where there is such a folder: 9,999 files are made there
 * in a tenth of a second, on a disk it can take seconds. */
static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/dev/shm/ripple-shot-XXXXXX");
    if (host_mkdtemp(dir, sizeof dir))
        return 0;
    snprintf(dir, sizeof dir, "/tmp/ripple-shot-XXXXXX");
    return host_mkdtemp(dir, sizeof dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    return host_rmtree(dir);
}

static void make_file(const char *name, const char *text, mode_t mode)
{
    char path[400];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    assert_int_equal(close(fd), 0);
    assert_int_equal(chmod(path, mode), 0);
}

static long file_size(const char *name)
{
    char path[400];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return host_lsize(path);
}

static int count_entries(void)
{
    int n = host_count_entries(dir);
    assert_true(n >= 0);
    return n;
}

static void test_first_name_taken_empty(void **state)
{
    (void)state;
    char name[400], want[400];
    assert_int_equal(app_shot_take(dir, name, sizeof name), 0);
    snprintf(want, sizeof want, "%s/ripple-0001.png", dir);
    assert_string_equal(name, want);
    assert_int_equal(file_size("ripple-0001.png"), 0); /* taken: it exists, empty */
    assert_int_equal(app_shot_take(dir, name, sizeof name), 0);
    snprintf(want, sizeof want, "%s/ripple-0002.png", dir);
    assert_string_equal(name, want);
    app_shot_release(name);
    assert_int_equal(file_size("ripple-0002.png"), -1);
    assert_int_equal(count_entries(), 1);
}

/* A file it cannot read, a link and a dangling link all count as taken
 * and are left as they are. */
static void test_existing_names_passed_over(void **state)
{
    (void)state;
    make_file("ripple-0001.png", "not readable", 0);
    make_file("target", "linked", 0644);
    char path[400], target[400];
    struct stat before, after;
    snprintf(path, sizeof path, "%s/ripple-0001.png", dir);
    assert_int_equal(stat(path, &before), 0);
    snprintf(target, sizeof target, "%s/target", dir);
    snprintf(path, sizeof path, "%s/ripple-0002.png", dir);
    /* Windows before Vista has no links, nor a user without the right to
     * make them: plain files take their names then */
    int links = host_symlink(target, path) == 0;
    if (!links)
        make_file("ripple-0002.png", "", 0644);
    snprintf(path, sizeof path, "%s/ripple-0003.png", dir);
    if (host_symlink("/nonexistent/ripple-test", path) != 0) {
        assert_false(links);
        make_file("ripple-0003.png", "", 0644);
    }
    char name[400], want[400];
    assert_int_equal(app_shot_take(dir, name, sizeof name), 0);
    snprintf(want, sizeof want, "%s/ripple-0004.png", dir);
    assert_string_equal(name, want);
    assert_int_equal(file_size("ripple-0001.png"), 12);
    assert_int_equal(file_size("target"), 6);
    snprintf(path, sizeof path, "%s/ripple-0001.png", dir);
    assert_int_equal(stat(path, &after), 0);
    assert_int_equal(after.st_mode, before.st_mode);
    /* the dangling link was not followed into a new file */
    assert_int_equal(host_lsize("/nonexistent/ripple-test"), -1);
    /* releasing a name that holds something removes nothing */
    app_shot_release(path);
    assert_int_equal(file_size("ripple-0001.png"), 12);
}

/* All 9,999 names taken: EEXIST, nothing replaced, no 10,000th name. */
static void test_all_names_taken(void **state)
{
    (void)state;
    for (int i = 1; i <= 9999; i++) {
        char n[32];
        snprintf(n, sizeof n, "ripple-%04d.png", i);
        make_file(n, i == 9999 ? "last" : "", 0644);
    }
    char name[400];
    assert_int_equal(app_shot_take(dir, name, sizeof name), EEXIST);
    assert_int_equal(count_entries(), 9999);
    assert_int_equal(file_size("ripple-9999.png"), 4);
    assert_int_equal(file_size("ripple-10000.png"), -1);
}

static void test_unwritable_folder_and_short_buffer(void **state)
{
    (void)state;
    char name[400], small[8];
    char missing[400];
    snprintf(missing, sizeof missing, "%s/no-such-folder", dir);
    assert_int_equal(app_shot_take(missing, name, sizeof name), ENOENT);
    assert_int_equal(app_shot_take(dir, small, sizeof small), ENAMETOOLONG);
    assert_int_equal(count_entries(), 0);
}

/* The seam under the names (app/sys.h): one file by two names is one
 * identity and two files two; the null device is known; paths are split
 * and rooted as the system reads them. */
static void test_sys_seam(void **state)
{
    (void)state;
    make_file("a", "a", 0644);
    make_file("b", "b", 0644);
    char a1[400], a2[400], b[400];
    snprintf(a1, sizeof a1, "%s/a", dir);
    snprintf(a2, sizeof a2, "%s/./a", dir);
    snprintf(b, sizeof b, "%s/b", dir);
    app_file_id_t ia1, ia2, ib, in;
    assert_int_equal(app_sys_file_id(a1, &ia1), 1);
    assert_int_equal(app_sys_file_id(a2, &ia2), 1);
    assert_int_equal(app_sys_file_id(b, &ib), 1);
    assert_true(ia1.dev == ia2.dev && ia1.ino == ia2.ino && !ia1.null_device);
    assert_false(ia1.dev == ib.dev && ia1.ino == ib.ino);
    snprintf(b, sizeof b, "%s/none", dir);
    assert_int_equal(app_sys_file_id(b, &ib), 0);
    /* /dev/null on POSIX, NUL on Windows */
    assert_true((app_sys_file_id("/dev/null", &in) && in.null_device) ||
                (app_sys_file_id("NUL", &in) && in.null_device));
    /* the canonical path, and nothing for what is not there */
    char *real = app_sys_realpath(dir);
    assert_non_null(real);
    char *again = app_sys_realpath(a2);
    assert_non_null(again);
    snprintf(a1, sizeof a1, "%s/a", real);
    assert_string_equal(again, a1);
    free(real);
    free(again);
    assert_null(app_sys_realpath(b));
    assert_true(app_sys_is_absolute("/x") && !app_sys_is_absolute("x/y"));
    const char *p = "d/e/f";
    assert_ptr_equal(app_sys_last_sep(p), p + 3);
    assert_null(app_sys_last_sep("f"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_first_name_taken_empty, setup, teardown),
        cmocka_unit_test_setup_teardown(test_existing_names_passed_over, setup, teardown),
        cmocka_unit_test_setup_teardown(test_all_names_taken, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unwritable_folder_and_short_buffer, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sys_seam, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
