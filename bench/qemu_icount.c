/* qemu_icount.c - a qemu-user TCG plugin that counts the guest instructions a program executes (32-bit figures where valgrind cannot run). */
#include <stdint.h>
#include <stdio.h>

/*
 * The plugin interface of qemu 7.x (API version 1), declared here because
 * Debian ships qemu-user without its plugin header.  Only what the count
 * needs: a callback when a block of guest code is translated, and an
 * inline add, run by the translated code itself each time the block
 * executes, of the block's instruction count to one 64-bit counter.
 */
typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
struct qemu_info;
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };
typedef void (*tb_trans_cb)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*udata_cb)(qemu_plugin_id_t id, void *udata);
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, tb_trans_cb cb);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb, enum qemu_plugin_op op,
                                              void *ptr, uint64_t imm);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, udata_cb cb, void *udata);
void qemu_plugin_outs(const char *string);

int qemu_plugin_install(qemu_plugin_id_t id, const struct qemu_info *info, int argc, char **argv);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

/* The inline add takes a bare address, so the count lives in the plugin's
 * one static; the plugin serves one process, single-threaded runs only. */
static struct { uint64_t insns; } count;

static void translated(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    (void)id;
    qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &count.insns,
                                             qemu_plugin_tb_n_insns(tb));
}

static void finished(qemu_plugin_id_t id, void *udata)
{
    (void)id;
    (void)udata;
    char line[64];
    snprintf(line, sizeof line, "icount total %llu\n", (unsigned long long)count.insns);
    qemu_plugin_outs(line);
}

__attribute__((visibility("default"))) int
qemu_plugin_install(qemu_plugin_id_t id, const struct qemu_info *info, int argc, char **argv)
{
    (void)info;
    (void)argc;
    (void)argv;
    qemu_plugin_register_vcpu_tb_trans_cb(id, translated);
    qemu_plugin_register_atexit_cb(id, finished, NULL);
    return 0;
}
