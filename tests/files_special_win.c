/* tests/files_special_win.c - test_files' cases of Windows's own targets: the null device by its names, links, standard output by name, UTF-8 names through the wide API (files_special.c on POSIX). */
#include <fcntl.h>
#include <io.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include <cmocka.h>

#include "files.h"
#include "host.h"
#include "ripple.h"
#include "ripple_support.h"

/* NUL in any case, with an extension, and /dev/null are the null device:
 * written in place, no file made, never standard output. */
static void test_null_device_in_place(void **state)
{
    (void)state;
    static const char *const names[] = { "NUL", "nul.txt", "Nul", "/dev/null" };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        assert_int_equal(save(names[i], "into the void", NULL, 0), RPL_OK);
        assert_int_equal(rpl_file_is_stdout(names[i]), 0);
    }
    char list[256];
    listing(list, sizeof list);
    assert_string_equal(list, "");
}

/* A symbolic link is refused and what it points at kept (where links can
 * be made: Vista on, with the right to). */
static void test_link_refused(void **state)
{
    (void)state;
    write_text("victim", "precious");
    if (host_symlink("victim", "s.rpl") != 0)
        skip();
    char why[512];
    assert_int_equal(save("s.rpl", "evil", why, sizeof why), RPL_EIO);
    assert_non_null(strstr(why, "symbolic link"));
    assert_file_is("victim", "precious");
}

/* Standard output moved onto a file ("> out"): its POSIX names and the
 * file's own are standard output, written through fd 1; nothing else is. */
static void test_stdout_by_name(void **state)
{
    (void)state;
    write_text("other", "kept");
    int out = _open("out", _O_WRONLY | _O_CREAT | _O_TRUNC | _O_BINARY, 0600);
    assert_true(out >= 0);
    fflush(stdout);
    int saved = _dup(1);
    assert_true(saved >= 0);
    assert_int_equal(_dup2(out, 1), 0);
    _close(out);
    int yes[3] = { rpl_file_is_stdout("/dev/stdout"), rpl_file_is_stdout("/dev/fd/1"),
                   rpl_file_is_stdout("out") };
    int no[4] = { rpl_file_is_stdout("other"), rpl_file_is_stdout("new-name"),
                  rpl_file_is_stdout("/dev/fd/999"), rpl_file_is_stdout("") };
    rpl_status st = save("/dev/stdout", "through fd 1", NULL, 0);
    fflush(stdout);
    assert_int_equal(_dup2(saved, 1), 0);
    _close(saved);
    assert_true(yes[0] && yes[1] && yes[2]);
    assert_true(!no[0] && !no[1] && !no[2] && !no[3]);
    assert_int_equal(st, RPL_OK);
    assert_file_is("out", "through fd 1");
    assert_file_is("other", "kept");
}

/* A UTF-8 name is the file the wide API knows by the same characters. */
static void test_utf8_name(void **state)
{
    (void)state;
    assert_int_equal(save("\xc3\xbc\xe2\x82\xac.rpl", "wide", NULL, 0), RPL_OK);
    FILE *f = _wfopen(L"\u00fc\u20ac.rpl", L"rb");
    assert_non_null(f);
    char buf[16] = { 0 };
    assert_int_equal(fread(buf, 1, sizeof buf - 1, f), 4);
    fclose(f);
    assert_string_equal(buf, "wide");
    rpl_snapshot_t *snap;
    rpl_sim_t *a = busy_field(9, 5);
    assert_int_equal(rpl_sim_save(a, "\xc3\xa9t\xc3\xa9.rpl"), RPL_OK);
    assert_int_equal(rpl_snapshot_read("\xc3\xa9t\xc3\xa9.rpl", &snap), RPL_OK);
    rpl_snapshot_destroy(snap);
    rpl_sim_destroy(a);
}

size_t files_special_tests(struct CMUnitTest *out, size_t max)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_null_device_in_place, files_setup, files_teardown),
        cmocka_unit_test_setup_teardown(test_link_refused, files_setup, files_teardown),
        cmocka_unit_test_setup_teardown(test_stdout_by_name, files_setup, files_teardown),
        cmocka_unit_test_setup_teardown(test_utf8_name, files_setup, files_teardown),
    };
    size_t n = sizeof tests / sizeof *tests;
    assert_true(n <= max);
    memcpy(out, tests, sizeof tests);
    return n;
}
