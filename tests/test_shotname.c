/* test_shotname.c - the screenshot key's names: the first free ripple-NNNN.png, taken without opening or replacing what exists (cmocka). */
#define _DEFAULT_SOURCE /* scandir */
#include <dirent.h>
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

static char dir[64];

/* In memory where there is such a folder: 9,999 files are made there
 * in a tenth of a second, on a disk it can take seconds. */
static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/dev/shm/ripple-shot-XXXXXX");
    if (mkdtemp(dir))
        return 0;
    snprintf(dir, sizeof dir, "/tmp/ripple-shot-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void make_file(const char *name, const char *text, mode_t mode)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    assert_int_equal(close(fd), 0);
    assert_int_equal(chmod(path, mode), 0);
}

static long file_size(const char *name)
{
    char path[128];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return lstat(path, &st) == 0 ? (long)st.st_size : -1;
}

static int count_entries(void)
{
    struct dirent **names;
    int n = scandir(dir, &names, NULL, alphasort);
    assert_true(n >= 2);
    for (int i = 0; i < n; i++)
        free(names[i]);
    free(names);
    return n - 2;
}

static void test_first_name_taken_empty(void **state)
{
    (void)state;
    char name[128], want[128];
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
    char path[128], target[128];
    snprintf(target, sizeof target, "%s/target", dir);
    snprintf(path, sizeof path, "%s/ripple-0002.png", dir);
    assert_int_equal(symlink(target, path), 0);
    snprintf(path, sizeof path, "%s/ripple-0003.png", dir);
    assert_int_equal(symlink("/nonexistent/ripple-test", path), 0);
    char name[128], want[128];
    assert_int_equal(app_shot_take(dir, name, sizeof name), 0);
    snprintf(want, sizeof want, "%s/ripple-0004.png", dir);
    assert_string_equal(name, want);
    assert_int_equal(file_size("ripple-0001.png"), 12);
    assert_int_equal(file_size("target"), 6);
    struct stat st;
    snprintf(path, sizeof path, "%s/ripple-0001.png", dir);
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0);
    /* the dangling link was not followed into a new file */
    assert_int_equal(lstat("/nonexistent/ripple-test", &st), -1);
    /* releasing a name that holds something removes nothing */
    snprintf(path, sizeof path, "%s/ripple-0001.png", dir);
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
    char name[128];
    assert_int_equal(app_shot_take(dir, name, sizeof name), EEXIST);
    assert_int_equal(count_entries(), 9999);
    assert_int_equal(file_size("ripple-9999.png"), 4);
    assert_int_equal(file_size("ripple-10000.png"), -1);
}

static void test_unwritable_folder_and_short_buffer(void **state)
{
    (void)state;
    char name[128], small[8];
    char missing[128];
    snprintf(missing, sizeof missing, "%s/no-such-folder", dir);
    assert_int_equal(app_shot_take(missing, name, sizeof name), ENOENT);
    assert_int_equal(app_shot_take(dir, small, sizeof small), ENAMETOOLONG);
    assert_int_equal(count_entries(), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_first_name_taken_empty, setup, teardown),
        cmocka_unit_test_setup_teardown(test_existing_names_passed_over, setup, teardown),
        cmocka_unit_test_setup_teardown(test_all_names_taken, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unwritable_folder_and_short_buffer, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
