#!/bin/sh
# instr-i386.sh - instructions per pixel per frame of the 32-bit build (scalar, mmx, seed), step and refraction apart, counted under qemu-user.
#
# usage: sh bench/instr-i386.sh BENCH32 PLUGIN [WxH [FRAMES]]
#   BENCH32  the bench built with `make ARCH=i386`
#   PLUGIN   bench/qemu_icount.c built as a shared object
#
# valgrind cannot run 32-bit programs on a 64-bit kernel without IA-32
# support, so the count comes from qemu-user: the plugin adds up the guest
# instructions of every translated block each time it runs, the same
# quantity as callgrind's Ir (on the 64-bit bench both give the same
# figures).  As in instr.sh, a run with FRAMES frames minus a run with 0
# frames, divided by FRAMES * W * H: the frame.  A third run steps the same
# FRAMES times and renders nothing (ripple-bench --part step): its count
# less the 0-frame run's is the step (stones included), and the frame less
# the step is the refraction.  The scalar path and the seed run on a
# Pentium II without MMX, the mmx path on a Pentium II.
set -u
BENCH=${1:?usage: instr-i386.sh BENCH32 PLUGIN [WxH [FRAMES]]}
PLUGIN=${2:?usage: instr-i386.sh BENCH32 PLUGIN [WxH [FRAMES]]}
SIZE=${3:-640x480}
FRAMES=${4:-4}
QEMU=${QEMU:-qemu-i386}
command -v "$QEMU" >/dev/null 2>&1 || { echo "instr-i386.sh: $QEMU is not installed"; exit 1; }
W=${SIZE%x*}
H=${SIZE#*x}
LOG=$(mktemp)
trap 'rm -f "$LOG"' EXIT

count() { # cpu path frames [--part step]
    rm -f "$LOG"
    "$QEMU" -cpu "$1" -plugin "$PLUGIN" -d plugin -D "$LOG" \
        "$BENCH" --instr-run "$2" --size "$SIZE" --frames "$3" ${4:+--part "$4"} >/dev/null || return 1
    sed -n 's/^icount total \([0-9]*\)$/\1/p' "$LOG"
}

echo "32-bit (i586 build) instructions per pixel per frame, $SIZE, $FRAMES frames, under $QEMU"
printf '%-6s  %-14s  %8s  %8s  %10s  %8s\n' path cpu frame step refraction "vs seed"
seed=""
for row in "seed:pentium2,-mmx" "c:pentium2,-mmx" "mmx:pentium2"; do
    path=${row%%:*}
    cpu=${row#*:}
    full=$(count "$cpu" "$path" "$FRAMES") && base=$(count "$cpu" "$path" 0) &&
        step=$(count "$cpu" "$path" "$FRAMES" step) || {
        echo "instr-i386.sh: the $path run failed"; exit 1; }
    frame=$(awk -v f="$full" -v b="$base" -v n="$FRAMES" -v w="$W" -v h="$H" \
        'BEGIN { printf "%.2f", (f - b) / (n * w * h) }')
    [ "$path" = seed ] && seed=$frame
    awk -v f="$full" -v b="$base" -v s="$step" -v n="$FRAMES" -v w="$W" -v h="$H" -v p="$path" \
        -v c="$cpu" -v seed="$seed" 'BEGIN {
            px = n * w * h; fr = (f - b) / px; st = (s - b) / px
            printf "%-6s  %-14s  %8.2f  %8.2f  %10.2f  %7.1fx\n", p, c, fr, st, fr - st, seed / fr }'
done
echo "step: stones and the water's step; refraction: the frame less the step;"
echo "vs seed: the seed's frame / the path's"
