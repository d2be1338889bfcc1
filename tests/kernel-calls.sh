#!/bin/sh
# kernel-calls.sh - holds the unit suites that run once per build to their rule: they call no kernel.
# usage: sh tests/kernel-calls.sh PROGRAM...
#
# The Makefile runs a suite on every kernel path only when its code calls a
# kernel through the table (a step of either model, a refraction, an
# upscale); the others run once.  This runs each of those others under gdb
# with a breakpoint on every kernel of every path (the rpl_step_*,
# rpl_refract_<format>_* and rpl_upscale_* functions the program holds)
# and fails when one is reached: that suite belongs in PATH_SUITES.
# Which code a suite reaches does not hang on how many rounds it takes,
# so the suites run their quick counts here (RIPPLE_TEST_QUICK, as under
# an emulated CPU); the unit stage runs them in full.
set -u
command -v gdb >/dev/null 2>&1 || { echo "kernel-calls: gdb is not installed (Debian: apt-get install gdb)"; exit 1; }
[ $# -gt 0 ] || { echo "usage: kernel-calls.sh PROGRAM..."; exit 2; }
KERNEL_RE='^rpl_(step|step_wave|refract_(xrgb8888|rgb565|index8)|upscale)_(c|mmx|sse2|avx2|neon)$'
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0
for t in "$@"; do
    name=$(basename "$t")
    syms=$(nm "$t" | awk '$2 ~ /^[Tt]$/ { print $3 }' | grep -E "$KERNEL_RE" | sort -u)
    if [ -z "$syms" ]; then
        echo "kernel-calls: $name holds no kernel at all (is it linked with the core?)"
        fail=1
        continue
    fi
    {
        echo "set pagination off"
        echo "set confirm off"
        for s in $syms; do echo "break $s"; done
        # the first stop on a kernel is the answer: say where, end the program
        echo "run >$tmp/$name.out 2>&1"
        echo "info symbol \$pc"
        echo "kill"
    } >"$tmp/$name.gdb"
    RIPPLE_TEST_QUICK=1 gdb -q -batch -x "$tmp/$name.gdb" "$t" >"$tmp/$name.log" 2>&1
    if grep -q "^Breakpoint [0-9]*, " "$tmp/$name.log"; then
        echo "kernel-calls: $name calls $(grep -m 1 "^Breakpoint [0-9]*, " "$tmp/$name.log" |
            sed 's/^Breakpoint [0-9]*, [0-9a-fx ]*\(in \)\{0,1\}\([a-z0-9_]*\).*/\2/'): move it to PATH_SUITES in mk/tests.mk"
        fail=1
    elif ! grep -q "exited normally" "$tmp/$name.log"; then
        echo "kernel-calls: $name did not run to its end under gdb:"
        tail -n 5 "$tmp/$name.log"
        fail=1
    fi
done
[ "$fail" = 0 ] && echo "kernel-calls: $# suites call no kernel: $(for t in "$@"; do basename "$t"; done | tr '\n' ' ')"
exit "$fail"
