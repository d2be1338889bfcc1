#!/bin/sh
# i386.sh - the 32-bit build on emulated old CPUs: dispatch picks the right path, every path gives the same bytes.
# usage: sh tests/i386.sh BUILD_DIR   (holding tests/test_*, ripple-bench built with ARCH=i386)
set -u
DIR=${1:?usage: i386.sh BUILD_DIR}
QEMU=${QEMU:-qemu-i386}
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

if ! command -v "$QEMU" >/dev/null 2>&1; then
    echo "i386: $QEMU is not installed (Debian: apt-get install qemu-user)"
    exit 1
fi
# the unit test programs: every test_* but the exactness suite
UNITS=""
for t in "$DIR"/tests/test_*; do
    case $t in *.o|*.d|*/test_paths) continue;; esac
    [ -x "$t" ] && UNITS="$UNITS $t"
done
[ -n "$UNITS" ] || { echo "i386: no unit test programs in $DIR/tests"; exit 1; }
file "$DIR/tests/test_paths" 2>/dev/null | grep -q "32-bit" || {
    command -v file >/dev/null 2>&1 && { echo "i386: $DIR/tests/test_paths is not a 32-bit binary"; exit 1; }
}

# CPU model (Debian's i386 C library needs an i686, so the oldest model that
# starts is a Pentium II with its MMX switched off), and the paths it must offer.
for model in "pentium2,-mmx:c" "pentium2:c mmx" "pentium3:c mmx"; do
    cpu=${model%%:*}
    want=${model#*:}
    echo "== $cpu: expecting paths '$want'"
    got=$("$QEMU" -cpu "$cpu" "$DIR/tests/test_paths" --list | tr '\n' ' ' | sed 's/ $//')
    if [ "$got" = "$want" ]; then ok; else bad "$cpu offers '$got', want '$want'"; fi
    best=${want##* }
    auto=$("$QEMU" -cpu "$cpu" "$DIR/ripple-bench" --size 64x48 --frames 1 --threads 1 --path auto 2>/dev/null |
        sed -n 's/.*auto path: \([a-z0-9]*\).*/\1/p' | head -n 1)
    if [ "$auto" = "$best" ]; then ok; else bad "$cpu: auto picks '$auto', want '$best'"; fi

    # every path against the scalar code, then the whole unit suite per path
    if "$QEMU" -cpu "$cpu" "$DIR/tests/test_paths" >"$DIR/i386-paths.log" 2>&1; then ok
    else bad "$cpu: exactness suite (see $DIR/i386-paths.log)"; tail -n 20 "$DIR/i386-paths.log"; fi
    for p in $got; do
        for t in $UNITS; do
            if RIPPLE_SIMD=$p "$QEMU" -cpu "$cpu" "$t" >"$DIR/i386-unit.log" 2>&1; then ok
            else bad "$cpu: $(basename "$t") on path $p"; tail -n 20 "$DIR/i386-unit.log"; fi
        done
    done
    # the bench runs and its paths agree
    if "$QEMU" -cpu "$cpu" "$DIR/ripple-bench" --size 64x48 --frames 2 >"$DIR/i386-bench.log" 2>&1 &&
        grep -q "agree.*: yes\|agree: n/a" "$DIR/i386-bench.log"; then ok
    else bad "$cpu: bench"; tail -n 5 "$DIR/i386-bench.log"; fi
    # a path this CPU lacks is refused, not run
    if [ "$cpu" != "pentium3" ]; then
        if RIPPLE_SIMD=sse2 "$QEMU" -cpu "$cpu" "$DIR/tests/test_step" >/dev/null 2>&1; then
            bad "$cpu: RIPPLE_SIMD=sse2 was not refused"
        else ok; fi
    fi
done

echo "i386: $pass passed, $fail failed"
[ "$fail" = 0 ]
