/* test_files.c - files in and out: the safe writer on every kind of target, snapshots read once from pipes and FIFOs (cmocka). */
#define _DEFAULT_SOURCE /* mknod, makedev, scandir */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
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

#include "ripple.h"
#include "ripple_support.h"

/* Each test runs in a fresh temporary directory, as the working directory,
 * so bare file names are tried the way people type them. */
static char tmpdir[64];
static char oldcwd[4096];

static int setup(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/ripple-files-XXXXXX");
    if (!mkdtemp(tmpdir) || !getcwd(oldcwd, sizeof oldcwd) || chdir(tmpdir) != 0)
        return -1;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    if (chdir(oldcwd) != 0)
        return -1;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

/* Names in the working directory, sorted into one string. */
static void listing(char *out, size_t len)
{
    struct dirent **names;
    int n = scandir(".", &names, NULL, alphasort);
    assert_true(n >= 0);
    out[0] = '\0';
    for (int i = 0; i < n; i++) {
        if (strcmp(names[i]->d_name, ".") && strcmp(names[i]->d_name, "..")) {
            strncat(out, names[i]->d_name, len - strlen(out) - 2);
            strcat(out, " ");
        }
        free(names[i]);
    }
    free(names);
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

static void assert_file_is(const char *path, const char *text)
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
static rpl_status save(const char *path, const char *text, char *why, size_t whylen)
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
    assert_int_equal(chmod("old", 0640), 0);
    assert_int_equal(save("old", "new", NULL, 0), RPL_OK);
    assert_file_is("old", "new");
    struct stat st;
    assert_int_equal(stat("old", &st), 0);
    assert_int_equal(st.st_mode & 07777, 0640);
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
        skip(); /* a file system that keeps no such bits */
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

static void test_directory_refused(void **state)
{
    (void)state;
    assert_int_equal(mkdir("d", 0755), 0);
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

/* ---- snapshots through pipes ------------------------------------------------- */

static rpl_sim_t *busy_field(int w, int h)
{
    rpl_sim_t *sim;
    assert_int_equal(rpl_sim_create(w, h, 5, &sim), RPL_OK);
    assert_non_null(sim);
    assert_int_equal(rpl_sim_drop(sim, w / 2, h / 2, 3, 900), RPL_OK);
    for (int i = 0; i < 7; i++)
        rpl_sim_step(sim);
    return sim;
}

static void assert_same_field(const rpl_sim_t *a, const rpl_sim_t *b)
{
    size_t n = (size_t)rpl_sim_width(a) * (size_t)rpl_sim_height(a);
    assert_int_equal(rpl_sim_width(a), rpl_sim_width(b));
    assert_int_equal(rpl_sim_height(a), rpl_sim_height(b));
    assert_memory_equal(rpl_sim_heights(a), rpl_sim_heights(b), n * 2);
    assert_memory_equal(rpl_sim_previous(a), rpl_sim_previous(b), n * 2);
}

static void test_snapshot_bare_name_and_fifo(void **state)
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
    int w, h;
    rpl_snapshot_size(snap, &w, &h);
    assert_int_equal(w, 37);
    assert_int_equal(h, 23);
    rpl_sim_t *b;
    assert_int_equal(rpl_sim_create(w, h, 9, &b), RPL_OK);
    assert_int_equal(rpl_sim_set_snapshot(b, snap), RPL_OK);
    assert_same_field(a, b);
    rpl_snapshot_destroy(snap);
    rpl_sim_destroy(a);
    rpl_sim_destroy(b);
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
        cmocka_unit_test_setup_teardown(test_bare_name, setup, teardown),
        cmocka_unit_test_setup_teardown(test_replace_keeps_mode, setup, teardown),
        cmocka_unit_test_setup_teardown(test_replace_drops_setuid, setup, teardown),
        cmocka_unit_test_setup_teardown(test_read_only_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_abandoned_write, setup, teardown),
        cmocka_unit_test_setup_teardown(test_symlink_target_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_planted_temporary_links, setup, teardown),
        cmocka_unit_test_setup_teardown(test_directory_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_missing_directory_reason, setup, teardown),
        cmocka_unit_test_setup_teardown(test_long_name_reason_kept, setup, teardown),
        cmocka_unit_test_setup_teardown(test_check_writes_nothing, setup, teardown),
        cmocka_unit_test_setup_teardown(test_char_device_written_in_place, setup, teardown),
        cmocka_unit_test_setup_teardown(test_block_device_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fifo_written_in_place, setup, teardown),
        cmocka_unit_test_setup_teardown(test_descriptor_by_name, setup, teardown),
        cmocka_unit_test_setup_teardown(test_stdout_by_any_name, setup, teardown),
        cmocka_unit_test_setup_teardown(test_stdout_fifo, setup, teardown),
        cmocka_unit_test_setup_teardown(test_misuse, setup, teardown),
        cmocka_unit_test_setup_teardown(test_snapshot_bare_name_and_fifo, setup, teardown),
        cmocka_unit_test_setup_teardown(test_snapshot_parse_matches_file, setup, teardown),
        cmocka_unit_test_setup_teardown(test_snapshot_misuse, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
