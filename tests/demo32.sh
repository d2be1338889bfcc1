#!/bin/sh
# demo32.sh - the 32-bit demo on an emulated Pentium III does what the 64-bit demo does, to the byte.
# usage: QEMU='qemu-i386 [-L SYSROOT] -cpu pentium3' sh tests/demo32.sh RIPPLE64 RIPPLE32 LOGDIR
#
# The timedemo (--benchmark --headless) as it comes and on every path the
# CPU has must report the 64-bit run's water CRC; its wave-2 scene (--model
# wave, the wave model's step) too, in a short run.  The timedemo in a
# window under Xvfb at 8, 16 and 32 bits a pixel (one step a frame, so the
# frames do not hang on the emulator's speed) must take the 64-bit demo's
# screenshot, byte for byte, and report its CRC; so must the side view's
# first frame, headless, and side-3's timedemo its state after 1000
# frames.  Bad flags must exit 2 with the 64-bit demo's message.  The
# 32-bit and 64-bit runs go side by side.
set -u
R64=${1:?usage: demo32.sh RIPPLE64 RIPPLE32 LOGDIR}
R32=${2:?usage: demo32.sh RIPPLE64 RIPPLE32 LOGDIR}
LOGS=${3:?usage: demo32.sh RIPPLE64 RIPPLE32 LOGDIR}
QEMU=${QEMU:-qemu-i386 -cpu pentium3}
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
rm -rf "$LOGS"
mkdir -p "$LOGS"

if ! command -v "${QEMU%% *}" >/dev/null 2>&1; then
    echo "demo32: ${QEMU%% *} is not installed (Debian: apt-get install qemu-user)"
    exit 1
fi
if command -v file >/dev/null 2>&1 && ! file -L "$R32" | grep -q "32-bit"; then
    echo "demo32: $R32 is not a 32-bit binary"
    exit 1
fi

# both NAME ARGS...: runs the two demos with ARGS side by side (the 32-bit
# one under qemu), each one's output, errors and exit status into
# LOGS/NAME.{64,32}.{out,err,rc}.  With SHOT=1 each also takes its
# screenshot into LOGS/NAME.{64,32}.bmp; with XVFB=N each runs in an X
# server of its own (xvfb-run, from server number N64 or N32 on).
SHOT=
XVFB=
both() {
    name=$1
    shift
    for side in 64 32; do
        (
            # shellcheck disable=SC2086 # QEMU is a command and its flags
            if [ $side = 64 ]; then set -- "$R64" "$@"; else set -- $QEMU "$R32" "$@"; fi
            [ -n "$SHOT" ] && set -- "$@" --screenshot "$LOGS/$name.$side.bmp"
            [ -n "$XVFB" ] && set -- env SDL_AUDIODRIVER=dummy \
                xvfb-run -a -n "$XVFB$side" -s "-screen 0 1024x768x24" "$@"
            "$@" >"$LOGS/$name.$side.out" 2>"$LOGS/$name.$side.err"
            echo $? >"$LOGS/$name.$side.rc"
        ) &
    done
    wait
}
rc_of() { cat "$LOGS/$1.rc"; }
crc_of() { sed -n 's/^water *crc32 \([0-9a-f]*\)$/\1/p' "$LOGS/$1.out"; }

# the timedemo as it comes (640x480, 2000 frames; on a Pentium III "auto"
# must pick mmx), then smaller on each path the CPU offers; the wave model
both bm-auto --benchmark --headless --frames 2000
if grep -q "path mmx," "$LOGS/bm-auto.32.out"; then ok; else bad "the 32-bit timedemo's path: $(grep path "$LOGS/bm-auto.32.out")"; fi
for path in auto c mmx; do
    [ $path = auto ] || both bm-$path --benchmark --headless --size 160x120 --frames 200 --simd $path --threads 1
    c64=$(crc_of bm-$path.64)
    c32=$(crc_of bm-$path.32)
    if [ "$(rc_of bm-$path.64)" = 0 ] && [ "$(rc_of bm-$path.32)" = 0 ] && [ -n "$c64" ] && [ "$c32" = "$c64" ]; then
        ok; echo "timedemo, path $path: crc32 $c32 on both"
    else bad "timedemo, path $path: 32-bit crc '$c32' (exit $(rc_of bm-$path.32)), 64-bit '$c64' (exit $(rc_of bm-$path.64))"
        head -c 300 "$LOGS/bm-$path.32.err"; fi
done
both bm-wave --benchmark --headless --size 160x120 --frames 100 --model wave --threads 1
c64=$(crc_of bm-wave.64)
c32=$(crc_of bm-wave.32)
if [ "$(rc_of bm-wave.64)" = 0 ] && [ "$(rc_of bm-wave.32)" = 0 ] && [ -n "$c64" ] && [ "$c32" = "$c64" ] &&
    grep -q "scene wave-2$" "$LOGS/bm-wave.32.out"; then
    ok; echo "timedemo, wave-2: crc32 $c32 on both"
else bad "timedemo, wave-2: 32-bit crc '$c32' (exit $(rc_of bm-wave.32)), 64-bit '$c64' (exit $(rc_of bm-wave.64))"
    head -c 300 "$LOGS/bm-wave.32.err"; fi

# a window under Xvfb at each depth, its screenshot (each run its own server)
if command -v xvfb-run >/dev/null 2>&1; then
    for b in 8 16 32; do
        SHOT=1 XVFB=4$b both win$b --benchmark --size 320x240 --scale 2 --bpp $b --frames 60 --no-overlay
        if [ "$(rc_of win$b.64)" = 0 ] && [ "$(rc_of win$b.32)" = 0 ] && [ -s "$LOGS/win$b.64.bmp" ] &&
            cmp -s "$LOGS/win$b.64.bmp" "$LOGS/win$b.32.bmp" && [ -n "$(crc_of win$b.64)" ] &&
            [ "$(crc_of win$b.32)" = "$(crc_of win$b.64)" ]; then
            ok; echo "window at $b bits: the same screenshot ($(wc -c <"$LOGS/win$b.32.bmp") bytes), crc32 $(crc_of win$b.32)"
        else bad "window at $b bits: 32-bit exit $(rc_of win$b.32), 64-bit $(rc_of win$b.64), screenshots: $(cmp "$LOGS/win$b.64.bmp" "$LOGS/win$b.32.bmp" 2>&1 | head -n 1)"
            head -c 300 "$LOGS/win$b.32.err"; fi
    done
else
    bad "xvfb-run is not installed: cannot test the window"
fi

# the side view's art (stone, its bevels and its darkening with depth,
# the 8-bit palette's swatches), headless, byte for byte: channels exactly
# half way once rounded apart on the x87
for run in "320x240 32" "640x360 32" "1366x768 8"; do
    set -- $run
    SHOT=1 both side-$1-$2 --headless --scene side --size "$1" --bpp "$2" --frames 1
    if [ "$(rc_of side-$1-$2.64)" = 0 ] && [ "$(rc_of side-$1-$2.32)" = 0 ] && [ -s "$LOGS/side-$1-$2.64.bmp" ] &&
        cmp -s "$LOGS/side-$1-$2.64.bmp" "$LOGS/side-$1-$2.32.bmp"; then
        ok; echo "side view at $1, $2 bits: the same screenshot"
    else bad "side view at $1, $2 bits: 32-bit exit $(rc_of side-$1-$2.32), 64-bit $(rc_of side-$1-$2.64), screenshots: $(cmp -l "$LOGS/side-$1-$2.64.bmp" "$LOGS/side-$1-$2.32.bmp" 2>&1 | wc -l) bytes differ"
        head -c 300 "$LOGS/side-$1-$2.32.err"; fi
done

# the side view's timedemo played long: side-3's 1000 frames at 640x480
# end on the 64-bit state (bodies, water, picture).  The x87 parted from
# it by frame 700 while the step took C11's 64-bit decimal constants
# (core/base/dmath.h, RPL_D) and the timedemo worked out where a body
# drops at the x87's own precision (scene/play.c).
state_of() { sed -n 's/^state *crc32 \([0-9a-f]*\)$/\1/p' "$LOGS/$1.out"; }
both side-long --benchmark --headless --bench-scene side-3 --size 640x480 --frames 1000
if [ "$(rc_of side-long.64)" = 0 ] && [ "$(rc_of side-long.32)" = 0 ] && [ -n "$(state_of side-long.64)" ] &&
    [ "$(state_of side-long.32)" = "$(state_of side-long.64)" ]; then
    ok; echo "side-3, 1000 frames at 640x480: state crc32 $(state_of side-long.32) on both"
else bad "side-3, 1000 frames at 640x480: 32-bit state '$(state_of side-long.32)' (exit $(rc_of side-long.32)), 64-bit '$(state_of side-long.64)' (exit $(rc_of side-long.64))"
    head -c 300 "$LOGS/side-long.32.err"; fi

# and the art the scene paints itself when its pictures are not found
# (sky, clouds, hills, masonry): each demo from a folder without them, the
# 64-bit one a copy there (it looks beside itself first)
cp "$R64" "$LOGS/ripple64"
R32ABS=$(cd "$(dirname "$R32")" && pwd)/$(basename "$R32")
PIC=$(pwd)/assets/background.png
for run in "320x240 32" "1280x720 8"; do
    set -- $run
    name=painted-$1-$2
    for side in 64 32; do
        (
            cd "$LOGS" || exit 1
            size=$1 bpp=$2
            # shellcheck disable=SC2086 # QEMU is a command and its flags
            if [ $side = 64 ]; then set -- ./ripple64; else set -- $QEMU "$R32ABS"; fi
            "$@" --headless --scene side --size "$size" --bpp "$bpp" --frames 1 --image "$PIC" \
                --screenshot "$name.$side.bmp" >"$name.$side.out" 2>"$name.$side.err"
            echo $? >"$name.$side.rc"
        ) &
    done
    wait
    if [ "$(rc_of $name.64)" = 0 ] && [ "$(rc_of $name.32)" = 0 ] && [ -s "$LOGS/$name.64.bmp" ] &&
        cmp -s "$LOGS/$name.64.bmp" "$LOGS/$name.32.bmp"; then
        ok; echo "side view painted at $1, $2 bits: the same screenshot"
    else bad "side view painted at $1, $2 bits: 32-bit exit $(rc_of $name.32), 64-bit $(rc_of $name.64), screenshots: $(cmp -l "$LOGS/$name.64.bmp" "$LOGS/$name.32.bmp" 2>&1 | wc -l) bytes differ"
        head -c 300 "$LOGS/$name.32.err"; fi
done

# bad flags: exit 2, the same message
for flags in "--bpp 24" "--frobnicate" "--size 0x0" "--benchmark --seed 3"; do
    # shellcheck disable=SC2086 # the words are the flags
    both bad --headless --frames 2 $flags
    if [ "$(rc_of bad.32)" = 2 ] && [ "$(rc_of bad.64)" = 2 ] && [ -s "$LOGS/bad.32.err" ] &&
        cmp -s "$LOGS/bad.32.err" "$LOGS/bad.64.err"; then ok
    else bad "bad flags '$flags': 32-bit exit $(rc_of bad.32), 64-bit $(rc_of bad.64), messages: $(cat "$LOGS/bad.32.err" "$LOGS/bad.64.err")"; fi
done

echo "demo32: $pass passed, $fail failed"
[ "$fail" = 0 ]
