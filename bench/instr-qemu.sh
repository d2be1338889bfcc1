#!/bin/sh
# instr-qemu.sh - instructions per pixel per frame of a cross build (i386, aarch64, armv7) per path and of the seed, step and refraction apart, and of the side view's timedemo scenes beside the pool, counted under qemu-user.
#
# usage: [QEMU='qemu-arm -L SYSROOT'] sh bench/instr-qemu.sh i386|aarch64|armv7 BENCH PLUGIN [WxH [FRAMES [SIDE_FRAMES]]]
#   BENCH   the bench built with `make ARCH=...` for that architecture
#   PLUGIN  bench/qemu_icount.c built as a shared object (for the host)
#
# valgrind cannot run 32-bit x86 programs on a 64-bit kernel without IA-32
# support, nor ARM programs on x86, so the count comes from qemu-user: the
# plugin adds up the guest instructions of every translated block each
# time it runs, the same quantity as callgrind's Ir (on the 64-bit bench
# both give the same figures).  As in instr.sh, a run with FRAMES frames
# minus a run with 0 frames, divided by FRAMES * W * H: the frame.  A third
# run steps the same FRAMES times and renders nothing (ripple-bench --part
# step): its count less the 0-frame run's is the step (stones included),
# and the frame less the step is the refraction.  On i386 the scalar path
# and the seed run on a Pentium II without MMX, the mmx path on a Pentium
# II; on ARM all on the one CPU model (the scalar code and the seed are
# built without NEON on ARMv7, as for a CPU without it).
#
# Then the side view on each path, on the same CPU model, as in instr.sh:
# the timedemo's scenes side-3 (springs) and side-waves-3 (analytic waves)
# at the same size, SIDE_FRAMES frames (default 30) after 360 warm-up
# frames, one run with 0 frames, one with the frames (drops, steps, the
# frame drawn over the last one) and one with their steps alone (--part
# step): the simulation, the drawing (the frame less the simulation) and
# the frame, and the frame over the pool's on the path.  A Pentium III
# model counts what the Pentium II does (the same code runs: one
# instruction apart at start-up, which the subtraction takes away).
set -u
usage="usage: instr-qemu.sh i386|aarch64|armv7 BENCH PLUGIN [WxH [FRAMES [SIDE_FRAMES]]]"
ARCH=${1:?$usage}
BENCH=${2:?$usage}
PLUGIN=${3:?$usage}
SIZE=${4:-640x480}
FRAMES=${5:-4}
SIDE_FRAMES=${6:-30}
case $ARCH in
    i386) emu=qemu-i386 rows="seed:pentium2,-mmx c:pentium2,-mmx mmx:pentium2" what="32-bit x86 (i586 build)";;
    aarch64) emu=qemu-aarch64 rows="seed:cortex-a53 c:cortex-a53 neon:cortex-a53" what="AArch64";;
    armv7) emu=qemu-arm rows="seed:cortex-a7 c:cortex-a7 neon:cortex-a7" what="ARMv7 (core without NEON)";;
    *) echo "instr-qemu.sh: unknown architecture '$ARCH' ($usage)"; exit 2;;
esac
QEMU=${QEMU:-$emu}
command -v "${QEMU%% *}" >/dev/null 2>&1 || { echo "instr-qemu.sh: ${QEMU%% *} is not installed"; exit 1; }
W=${SIZE%x*}
H=${SIZE#*x}
LOG=$(mktemp)
trap 'rm -f "$LOG" "$LOG.out"' EXIT

count() { # cpu path frames [OPTION...]
    rm -f "$LOG"
    cpu=$1 p=$2 n=$3
    shift 3
    $QEMU -cpu "$cpu" -plugin "$PLUGIN" -d plugin -D "$LOG" \
        "$BENCH" --instr-run "$p" --size "$SIZE" --frames "$n" "$@" >"$LOG.out" || return 1
    # the kernels the bench read back are the ones asked for
    grep -q "^instr-run: path $p (kernels $p)" "$LOG.out" || return 1
    sed -n 's/^icount total \([0-9]*\)$/\1/p' "$LOG"
}

echo "$what instructions per pixel per frame, $SIZE, $FRAMES frames, under ${QEMU%% *}"
printf '%-6s  %-18s  %8s  %8s  %10s  %8s\n' path cpu frame step refraction "vs seed"
seed=""
for row in $rows; do
    path=${row%%:*}
    cpu=${row#*:}
    full=$(count "$cpu" "$path" "$FRAMES") && base=$(count "$cpu" "$path" 0) &&
        step=$(count "$cpu" "$path" "$FRAMES" --part step) || {
        echo "instr-qemu.sh: the $path run failed"; exit 1; }
    frame=$(awk -v f="$full" -v b="$base" -v n="$FRAMES" -v w="$W" -v h="$H" \
        'BEGIN { printf "%.2f", (f - b) / (n * w * h) }')
    [ "$path" = seed ] && seed=$frame
    eval "pool_$path=\$frame"
    awk -v f="$full" -v b="$base" -v s="$step" -v n="$FRAMES" -v w="$W" -v h="$H" -v p="$path" \
        -v c="$cpu" -v seed="$seed" 'BEGIN {
            px = n * w * h; fr = (f - b) / px; st = (s - b) / px
            printf "%-6s  %-18s  %8.2f  %8.2f  %10.2f  %7.1fx\n", p, c, fr, st, fr - st, seed / fr }'
done
echo "step: stones and the water's step; refraction: the frame less the step;"
echo "vs seed: the seed's frame / the path's"
echo
echo "the side view: the timedemo's scenes, $SIZE, 24 bodies, $SIDE_FRAMES frames after 360 warm-up frames"
printf '%-6s  %-18s  %-12s  %8s  %8s  %8s  %10s  %7s\n' path cpu scene sim draw frame "pool frame" "x pool"
for row in $rows; do
    path=${row%%:*}
    cpu=${row#*:}
    [ "$path" = seed ] && continue
    eval "pool=\$pool_$path"
    for scene in side-3 side-waves-3; do
        base=$(count "$cpu" "$path" 0 --bench-scene "$scene") &&
            full=$(count "$cpu" "$path" "$SIDE_FRAMES" --bench-scene "$scene") &&
            sim=$(count "$cpu" "$path" "$SIDE_FRAMES" --bench-scene "$scene" --part step) || {
            echo "instr-qemu.sh: the $path run of $scene failed"; exit 1; }
        awk -v f="$full" -v b="$base" -v s="$sim" -v n="$SIDE_FRAMES" -v w="$W" -v h="$H" \
            -v p="$path" -v c="$cpu" -v sc="$scene" -v pool="$pool" 'BEGIN {
                px = n * w * h; fr = (f - b) / px; si = (s - b) / px
                printf "%-6s  %-18s  %-12s  %8.2f  %8.2f  %8.2f  %10.2f  %6.2fx\n", p, c, sc, si,
                    fr - si, fr, pool, fr / pool }'
    done
done
echo "sim: the drops and steps alone (bodies, water, splashes); draw: the frame less the"
echo "sim; x pool: the side view's frame / the pool's frame on the path (above)"
