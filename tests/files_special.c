/* tests/files_special.c - test_files' cases of POSIX's own targets: links, device nodes, FIFOs, descriptors and standard output by name (files_special_win.c on Windows). */
#define _DEFAULT_SOURCE /* mknod, makedev */
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
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "files.h"
#include "ripple.h"
#include "ripple_support.h"

static void test_symlink_target_refused(void **state)
{
    (void)state;
    write_text("victim", "precious");
    assert_int_equal(symlink("victim", "s.rpl"), 0);
    char why[512];
    assert_int_equal(save("s.rpl", "evil", why, sizeof why), RPL_EIO);
    assert_non_null(strstr(why, "symbolic link"));
    assert_file_is("victim", "precious");
    struct stat st;
    assert_int_equal(lstat("s.rpl", &st), 0);
    assert_true(S_ISLNK(st.st_mode));
}

static void test_planted_temporary_links(void **state)
{
    (void)state;
    /* links at every name an old or guessable temporary could have */
    write_text("victim", "precious");
    assert_int_equal(symlink("victim", "s.rpl.tmp~"), 0);
    assert_int_equal(symlink("victim", "s.rpl.tmp"), 0);
    assert_int_equal(symlink("victim", ".s.rpl.tmp"), 0);
    assert_int_equal(save("s.rpl", "data", NULL, 0), RPL_OK);
    assert_file_is("s.rpl", "data");
    assert_file_is("victim", "precious");
}

/* A device node made here (tests run as root in CI); skipped elsewhere. */
static int make_node(const char *name, mode_t type, int major_no, int minor_no)
{
    if (mknod(name, type | 0666, makedev(major_no, minor_no)) == 0)
        return 1;
    print_message("(no mknod here: %s; device case skipped)\n", strerror(errno));
    return 0;
}

static void test_char_device_written_in_place(void **state)
{
    (void)state;
    if (!make_node("null", S_IFCHR, 1, 3))
        return;
    assert_int_equal(save("null", "into the void", NULL, 0), RPL_OK);
    struct stat st;
    assert_int_equal(lstat("null", &st), 0);
    assert_true(S_ISCHR(st.st_mode)); /* still the device, not a file */
    assert_int_equal(major(st.st_rdev), 1);
    assert_int_equal(minor(st.st_rdev), 3);
    if (!make_node("full", S_IFCHR, 1, 7))
        return;
    char why[512];
    assert_int_equal(save("full", "too much", why, sizeof why), RPL_EIO);
    assert_non_null(strstr(why, strerror(ENOSPC)));
    assert_int_equal(lstat("full", &st), 0);
    assert_true(S_ISCHR(st.st_mode));
}

static void test_block_device_refused(void **state)
{
    (void)state;
    if (!make_node("blk", S_IFBLK, 7, 0))
        return;
    char why[512];
    assert_int_equal(save("blk", "x", why, sizeof why), RPL_EIO);
    assert_non_null(strstr(why, "block device"));
    struct stat st;
    assert_int_equal(lstat("blk", &st), 0);
    assert_true(S_ISBLK(st.st_mode));
}

/* A child that reads the FIFO to its end and exits with the byte count. */
static pid_t fifo_reader(const char *name)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int fd = open(name, O_RDONLY);
        char buf[256];
        ssize_t n, total = 0;
        while (fd >= 0 && (n = read(fd, buf, sizeof buf)) > 0)
            total += n;
        _exit((int)(total & 0x7f));
    }
    return pid;
}

static void test_fifo_written_in_place(void **state)
{
    (void)state;
    assert_int_equal(mkfifo("pipe", 0600), 0);
    pid_t pid = fifo_reader("pipe");
    assert_int_equal(save("pipe", "twelve bytes", NULL, 0), RPL_OK);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 12);
    struct stat st;
    assert_int_equal(lstat("pipe", &st), 0);
    assert_true(S_ISFIFO(st.st_mode));
}

static void test_descriptor_by_name(void **state)
{
    (void)state;
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    char name[64];
    snprintf(name, sizeof name, "/dev/fd/%d", fds[1]);
    assert_int_equal(save(name, "through", NULL, 0), RPL_OK);
    close(fds[1]);
    char buf[32] = { 0 };
    assert_int_equal(read(fds[0], buf, sizeof buf - 1), 7);
    assert_string_equal(buf, "through");
    close(fds[0]);
}

/* fd 1 moved onto fd (the test's own stdout kept in *saved), and back. */
static void stdout_to(int fd, int *saved)
{
    fflush(stdout);
    *saved = dup(STDOUT_FILENO);
    assert_true(*saved >= 0);
    assert_int_equal(dup2(fd, STDOUT_FILENO), STDOUT_FILENO);
}

static void stdout_back(int saved)
{
    fflush(stdout);
    assert_int_equal(dup2(saved, STDOUT_FILENO), STDOUT_FILENO);
    close(saved);
}

/* Every spelling of standard output is standard output, to the writer and
 * to rpl_file_is_stdout alike (a front end's report then goes to stderr),
 * and nothing else is; here stdout is a regular file, as after "> out". */
static void test_stdout_by_any_name(void **state)
{
    (void)state;
    static const char *const yes[] = { "/dev/stdout", "/dev/fd/1", "/dev/fd/01", "/proc/self/fd/1",
                                       "/proc/self/fd/001", "to-stdout", "out" };
    static const char *const no[] = { "/dev/stderr", "/dev/fd/2", "/dev/fd/999", "/dev/null",
                                      "other", "to-other", "new-name", "", "out/" };
    enum { NYES = sizeof yes / sizeof *yes, NNO = sizeof no / sizeof *no };
    assert_int_equal(symlink("/dev/stdout", "to-stdout"), 0);
    write_text("other", "kept");
    assert_int_equal(symlink("other", "to-other"), 0);
    int out = open("out", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    assert_true(out >= 0);
    int saved, said[NYES], denied[NNO];
    stdout_to(out, &saved);
    close(out);
    for (int i = 0; i < NYES; i++)
        said[i] = rpl_file_is_stdout(yes[i]);
    for (int i = 0; i < NNO; i++)
        denied[i] = rpl_file_is_stdout(no[i]);
    int null_said = rpl_file_is_stdout(NULL);
    /* written through fd 1, one after the other: not replaced */
    rpl_status link_st = save("to-stdout", "through a link", NULL, 0);
    rpl_status fd_st = save("/dev/fd/01", ", then fd 01", NULL, 0);
    stdout_back(saved);
    for (int i = 0; i < NYES; i++)
        if (!said[i])
            fail_msg("'%s' is stdout, but rpl_file_is_stdout says not", yes[i]);
    for (int i = 0; i < NNO; i++)
        if (denied[i])
            fail_msg("'%s' is not stdout, but rpl_file_is_stdout says it is", no[i]);
    assert_int_equal(null_said, 0);
    assert_int_equal(link_st, RPL_OK);
    assert_int_equal(fd_st, RPL_OK);
    assert_file_is("out", "through a link, then fd 01");
    assert_file_is("other", "kept");
    struct stat st;
    assert_int_equal(lstat("to-stdout", &st), 0);
    assert_true(S_ISLNK(st.st_mode));
}

/* Standard output a named FIFO, and a pipe: the FIFO's name is stdout
 * while fd 1 is open on it, and not while fd 1 is another pipe. */
static void test_stdout_fifo(void **state)
{
    (void)state;
    assert_int_equal(mkfifo("fifo", 0600), 0);
    int rd = open("fifo", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    assert_true(rd >= 0);
    int wr = open("fifo", O_WRONLY | O_CLOEXEC);
    assert_true(wr >= 0);
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    int saved, on_fifo[3], on_pipe[3];
    stdout_to(wr, &saved);
    on_fifo[0] = rpl_file_is_stdout("fifo");
    on_fifo[1] = rpl_file_is_stdout("/dev/stdout");
    on_fifo[2] = rpl_file_is_stdout("/dev/fd/1");
    assert_int_equal(dup2(fds[1], STDOUT_FILENO), STDOUT_FILENO);
    on_pipe[0] = rpl_file_is_stdout("fifo");
    on_pipe[1] = rpl_file_is_stdout("/dev/stdout");
    on_pipe[2] = rpl_file_is_stdout("/proc/self/fd/01");
    stdout_back(saved);
    close(rd);
    close(wr);
    close(fds[0]);
    close(fds[1]);
    assert_true(on_fifo[0] && on_fifo[1] && on_fifo[2]);
    assert_true(!on_pipe[0] && on_pipe[1] && on_pipe[2]);
}

static void test_snapshot_fifo(void **state)
{
    (void)state;
    rpl_sim_t *a = busy_field(37, 23);
    assert_int_equal(rpl_sim_save(a, "state.rpl"), RPL_OK);
    assert_int_equal(mkfifo("in", 0600), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) { /* the writer end: cat state.rpl > in */
        FILE *src = fopen("state.rpl", "rb"), *dst = fopen("in", "wb");
        int c;
        while (src && dst && (c = getc(src)) != EOF)
            putc(c, dst);
        _exit(src && dst && fclose(dst) == 0 ? 0 : 1);
    }
    rpl_snapshot_t *snap;
    assert_int_equal(rpl_snapshot_read("in", &snap), RPL_OK);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_int_equal(WEXITSTATUS(status), 0);
    assert_snapshot_of(a, snap);
    rpl_sim_destroy(a);
}

size_t files_special_tests(struct CMUnitTest *out, size_t max)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_symlink_target_refused, files_setup, files_teardown),
        cmocka_unit_test_setup_teardown(test_planted_temporary_links, files_setup, files_teardown),
        cmocka_unit_test_setup_teardown(test_char_device_written_in_place, files_setup, files_teardown),
        cmocka_unit_test_setup_teardown(test_block_device_refused, files_setup, files_teardown),
        cmocka_unit_test_setup_teardown(test_fifo_written_in_place, files_setup, files_teardown),
        cmocka_unit_test_setup_teardown(test_descriptor_by_name, files_setup, files_teardown),
        cmocka_unit_test_setup_teardown(test_stdout_by_any_name, files_setup, files_teardown),
        cmocka_unit_test_setup_teardown(test_stdout_fifo, files_setup, files_teardown),
        cmocka_unit_test_setup_teardown(test_snapshot_fifo, files_setup, files_teardown),
    };
    size_t n = sizeof tests / sizeof *tests;
    assert_true(n <= max);
    memcpy(out, tests, sizeof tests);
    return n;
}
