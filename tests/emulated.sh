#!/bin/sh
# emulated.sh - a cross build on one emulated CPU: dispatch picks the right path, every path gives the same bytes, and x86-64's.
# usage: PATH_SUITES='api ...' ONCE_SUITES='water ...' [KERNEL_SUITES='step ...']
#        [QEMU='qemu-arm -L SYSROOT'] [NATIVE_BENCH=bench/ripple-bench]
#        sh tests/emulated.sh BUILD_DIR MODEL
#
# BUILD_DIR holds tests/test_* and ripple-bench built for the model's
# architecture: ARCH=i386 for nommx, pentium2 and pentium3, ARCH=aarch64 for
# a53, ARCH=armv7 for a7 and a7-noneon.  The Makefile runs the models of an
# architecture side by side.  On each: the paths it offers and the one
# "auto" picks, the exactness suite (test_paths) on a documented subset of
# its cases (--subset 4 on x86, 16 under qemu-arm, which is slower: the
# full set runs natively; each subset's reference CRCs are pinned too; not
# on the Pentium II without MMX nor the ARMv7 without NEON, whose only
# path, the reference, the model with MMX or NEON runs in the same binary),
# the suites that call kernels (PATH_SUITES) on the model's own path (on
# those two, the binary's other path, those of the kernels themselves,
# KERNEL_SUITES), the bench (its variants
# agree, and with NATIVE_BENCH its checksums equal the native build's, the
# side view's timedemo scenes' state and frames too), and
# a path it lacks refused.  A suite runs once for each binary and path (see
# the table below): on another model the same instructions would run.
# RIPPLE_TEST_QUICK=1 lets the slowest suites take fewer rounds (tests/util.h).
set -u
usage="usage: emulated.sh BUILD_DIR nommx|pentium2|pentium3|a53|a7|a7-noneon"
DIR=${1:?$usage}
MODEL=${2:?$usage}
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# The emulator, the CPU model, the paths it must offer, a path it must
# refuse ("" for none), whether the suites that call kernels run here (not
# on the Pentium III: the Pentium II has run the same binary on the same
# path, and the Pentium III is there for dispatch, the exactness suite and
# the 32-bit demo; on the Pentium II without MMX and the ARMv7 without NEON
# only those of the kernels themselves, KERNEL_SUITES, "k": the model with
# MMX or NEON has run them all in the same binary, whose code is the same
# but for the kernels, and its exactness suite holds the c kernels to their
# pinned bytes there), whether the suites that call no kernel run here (once
# an architecture: the i386 build on the oldest model, the ARM builds on
# the Cortex-A53), and what `file` says of the binaries.  Debian's i386 C library needs an
# i686, so the oldest x86 model that starts is a Pentium II with its MMX
# switched off; the ARMv7 core is built without NEON, so a Cortex-A7 with
# NEON switched off runs it (any NEON instruction there is SIGILL).
case $MODEL in
    nommx) emu=qemu-i386 cpu="pentium2,-mmx" want="c" refuse=mmx suites=k once=1 kind="32-bit.*386" sub=;;
    pentium2) emu=qemu-i386 cpu="pentium2" want="c mmx" refuse=sse2 suites=1 once=0 kind="32-bit.*386" sub=4;;
    pentium3) emu=qemu-i386 cpu="pentium3" want="c mmx" refuse="" suites=0 once=0 kind="32-bit.*386" sub=4;;
    a53) emu=qemu-aarch64 cpu="cortex-a53" want="c neon" refuse=sse2 suites=1 once=1 kind="64-bit.*aarch64" sub=16;;
    a7) emu=qemu-arm cpu="cortex-a7" want="c neon" refuse=sse2 suites=1 once=0 kind="32-bit.*ARM" sub=16;;
    a7-noneon) emu=qemu-arm cpu="cortex-a7,neon=off" want="c" refuse=neon suites=k once=0 kind="32-bit.*ARM" sub=;;
    *) echo "emulated: unknown model '$MODEL' ($usage)"; exit 2;;
esac
QEMU=${QEMU:-$emu}

if ! command -v "${QEMU%% *}" >/dev/null 2>&1; then
    echo "emulated: ${QEMU%% *} is not installed (Debian: apt-get install qemu-user)"
    exit 1
fi
if command -v file >/dev/null 2>&1 && ! file -L "$DIR/tests/test_paths" | grep -q "$kind"; then
    echo "emulated: $DIR/tests/test_paths is not a binary for $MODEL ($kind)"
    exit 1
fi
LOGS=$DIR/logs/$MODEL
mkdir -p "$LOGS"
run() { $QEMU -cpu "$cpu" "$@"; }

echo "== $cpu: expecting paths '$want'"
got=$(run "$DIR/tests/test_paths" --list | tr '\n' ' ' | sed 's/ $//')
if [ "$got" = "$want" ]; then ok; else bad "$cpu offers '$got', want '$want'"; fi
best=${want##* }
auto=$(run "$DIR/ripple-bench" --size 64x48 --frames 1 --threads 1 --path auto 2>/dev/null |
    sed -n 's/.*auto path: \([a-z0-9]*\).*/\1/p' | head -n 1)
if [ "$auto" = "$best" ]; then ok; else bad "$cpu: auto picks '$auto', want '$best'"; fi

# every path against the scalar code, on the subset of the cases (not
# where the CPU offers "c" alone: it would only run the reference's own
# checks, which the same binary has run as the reference on a model with
# more paths)
if [ -z "$sub" ]; then :
elif run "$DIR/tests/test_paths" --subset "$sub" >"$LOGS/paths.log" 2>&1; then ok
else bad "$cpu: exactness suite (see $LOGS/paths.log)"; tail -n 20 "$LOGS/paths.log"; fi

# the suites that call kernels, on this model's path; the rest on one model
list() { for s in $1; do echo "$DIR/tests/test_$s"; done; }
if [ "$suites" != 0 ]; then
    if [ "$suites" = k ]; then these=${KERNEL_SUITES:?KERNEL_SUITES is not set}
    else these=${PATH_SUITES:?PATH_SUITES is not set}; fi
    # shellcheck disable=SC2046 # one word a program
    if RIPPLE_TEST_QUICK=1 RUNNER="$QEMU -cpu $cpu" RIPPLE_SIMD=$best sh tests/suites.sh "$MODEL $cpu, path $best" \
        "$LOGS/unit-$best.log" $(list "$these"); then ok; else bad "$cpu: suites on path $best"; fi
fi
if [ "$once" = 1 ]; then
    # shellcheck disable=SC2046
    if RIPPLE_TEST_QUICK=1 RUNNER="$QEMU -cpu $cpu" sh tests/suites.sh "$MODEL $cpu, suites without kernels" \
        "$LOGS/unit-once.log" $(list "${ONCE_SUITES:?ONCE_SUITES is not set}"); then ok; else bad "$cpu: suites without kernels"; fi
fi

# the bench runs and its paths agree
if run "$DIR/ripple-bench" --size 64x48 --frames 2 >"$LOGS/bench.log" 2>&1 &&
    grep -q "agree.*: yes\|agree: n/a" "$LOGS/bench.log"; then ok
else bad "$cpu: bench"; tail -n 5 "$LOGS/bench.log"; fi
# and its frames are x86-64's, byte for byte: the pool in every format and
# the wave model, on this model's best path against the native scalar one
if [ -n "${NATIVE_BENCH:-}" ]; then
    sum() { sed -n 's/.*checksum \([0-9a-f]*\).*/\1/p'; }
    for opts in "--bpp 32" "--bpp 16" "--bpp 8" "--bpp 32 --model wave"; do
        # shellcheck disable=SC2086 # the options are words
        here=$(run "$DIR/ripple-bench" --instr-run "$best" --size 160x120 --frames 6 $opts | sum)
        # shellcheck disable=SC2086
        there=$("$NATIVE_BENCH" --instr-run c --size 160x120 --frames 6 $opts | sum)
        if [ -n "$here" ] && [ "$here" = "$there" ]; then ok
        else bad "$cpu: path $best $opts: checksum '$here', x86-64 '$there'"; fi
    done
    # the side view's timedemo scenes: after 400 frames the bodies and the
    # water where x86-64's are (its state CRC), and the last 41 frames
    # drawn by this model's kernels to x86-64's bytes (where the suites
    # that call kernels run: the other models run the same binary)
    if [ "$suites" = 1 ]; then
        side() { sed -n 's/.*state crc32 \([0-9a-f]*\) (frame 400), checksum \([0-9a-f]*\)$/\1 \2/p'; }
        for sc in side-3 side-waves-3; do
            here=$(run "$DIR/ripple-bench" --instr-run "$best" --bench-scene $sc --size 160x120 --frames 40 | side)
            there=$("$NATIVE_BENCH" --instr-run c --bench-scene $sc --size 160x120 --frames 40 | side)
            if [ -n "$here" ] && [ "$here" = "$there" ]; then ok
            else bad "$cpu: path $best, $sc: state and frames '$here', x86-64 '$there'"; fi
        done
    fi
fi
# a path this CPU (or build) lacks is refused, not run
if [ -n "$refuse" ]; then
    if RIPPLE_SIMD=$refuse run "$DIR/tests/test_step" >"$LOGS/refuse.log" 2>&1; then
        bad "$cpu: RIPPLE_SIMD=$refuse was not refused"
    elif grep -q "Illegal instruction\|SIGILL\|uncaught target signal" "$LOGS/refuse.log"; then
        bad "$cpu: RIPPLE_SIMD=$refuse crashed instead of being refused"
    else ok; fi
fi

echo "$MODEL $cpu: $pass passed, $fail failed"
[ "$fail" = 0 ]
