#!/bin/sh
# i386.sh - the 32-bit build on one emulated old CPU: dispatch picks the right path, every path gives the same bytes.
# usage: PATH_SUITES='api ...' ONCE_SUITES='water ...' sh tests/i386.sh BUILD_DIR nommx|pentium2|pentium3
#
# BUILD_DIR holds tests/test_* and ripple-bench built with ARCH=i386.  The
# Makefile runs the three CPU models side by side.  On each: the paths it
# offers and the one "auto" picks, the exactness suite (test_paths) on a
# documented subset of its cases (--subset 4: the full set runs natively;
# the subset's reference CRC is pinned too), the suites that call kernels
# (PATH_SUITES) on the model's own path, the bench, and a path it lacks
# refused.  The suites that call no kernel (ONCE_SUITES) run on the oldest
# model only: the same instructions would run on the others.
set -u
DIR=${1:?usage: i386.sh BUILD_DIR nommx|pentium2|pentium3}
MODEL=${2:?usage: i386.sh BUILD_DIR nommx|pentium2|pentium3}
QEMU=${QEMU:-qemu-i386}
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# CPU model (Debian's i386 C library needs an i686, so the oldest model that
# starts is a Pentium II with its MMX switched off), the paths it must
# offer, and whether the suites that call no kernel run here.
case $MODEL in
    nommx) cpu="pentium2,-mmx" want="c" once=1;;
    pentium2) cpu="pentium2" want="c mmx" once=0;;
    pentium3) cpu="pentium3" want="c mmx" once=0;;
    *) echo "i386: unknown model '$MODEL' (nommx, pentium2, pentium3)"; exit 2;;
esac

if ! command -v "$QEMU" >/dev/null 2>&1; then
    echo "i386: $QEMU is not installed (Debian: apt-get install qemu-user)"
    exit 1
fi
if command -v file >/dev/null 2>&1 && ! file "$DIR/tests/test_paths" | grep -q "32-bit"; then
    echo "i386: $DIR/tests/test_paths is not a 32-bit binary"
    exit 1
fi
LOGS=$DIR/logs/$MODEL
mkdir -p "$LOGS"

echo "== $cpu: expecting paths '$want'"
got=$("$QEMU" -cpu "$cpu" "$DIR/tests/test_paths" --list | tr '\n' ' ' | sed 's/ $//')
if [ "$got" = "$want" ]; then ok; else bad "$cpu offers '$got', want '$want'"; fi
best=${want##* }
auto=$("$QEMU" -cpu "$cpu" "$DIR/ripple-bench" --size 64x48 --frames 1 --threads 1 --path auto 2>/dev/null |
    sed -n 's/.*auto path: \([a-z0-9]*\).*/\1/p' | head -n 1)
if [ "$auto" = "$best" ]; then ok; else bad "$cpu: auto picks '$auto', want '$best'"; fi

# every path against the scalar code, on the subset of the cases
if "$QEMU" -cpu "$cpu" "$DIR/tests/test_paths" --subset 4 >"$LOGS/paths.log" 2>&1; then ok
else bad "$cpu: exactness suite (see $LOGS/paths.log)"; tail -n 20 "$LOGS/paths.log"; fi

# the suites that call kernels, on this model's path; the rest on the oldest
list() { for s in $1; do echo "$DIR/tests/test_$s"; done; }
# shellcheck disable=SC2046 # one word a program
if RIPPLE_TEST_QUICK=1 RUNNER="$QEMU -cpu $cpu" RIPPLE_SIMD=$best sh tests/suites.sh "i386 $cpu, path $best" \
    "$LOGS/unit-$best.log" $(list "${PATH_SUITES:?PATH_SUITES is not set}"); then ok; else bad "$cpu: suites on path $best"; fi
if [ "$once" = 1 ]; then
    # shellcheck disable=SC2046
    if RIPPLE_TEST_QUICK=1 RUNNER="$QEMU -cpu $cpu" sh tests/suites.sh "i386 $cpu, suites without kernels" \
        "$LOGS/unit-once.log" $(list "${ONCE_SUITES:?ONCE_SUITES is not set}"); then ok; else bad "$cpu: suites without kernels"; fi
fi

# the bench runs and its paths agree
if "$QEMU" -cpu "$cpu" "$DIR/ripple-bench" --size 64x48 --frames 2 >"$LOGS/bench.log" 2>&1 &&
    grep -q "agree.*: yes\|agree: n/a" "$LOGS/bench.log"; then ok
else bad "$cpu: bench"; tail -n 5 "$LOGS/bench.log"; fi
# a path this CPU lacks is refused, not run
if [ "$cpu" != "pentium3" ]; then
    if RIPPLE_SIMD=sse2 "$QEMU" -cpu "$cpu" "$DIR/tests/test_step" >/dev/null 2>&1; then
        bad "$cpu: RIPPLE_SIMD=sse2 was not refused"
    else ok; fi
fi

echo "i386 $cpu: $pass passed, $fail failed"
[ "$fail" = 0 ]
