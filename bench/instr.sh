#!/bin/sh
# instr.sh - instructions per pixel per frame of every kernel path and of the seed, and of the side view's timedemo scenes beside the pool, counted by callgrind.
#
# usage: sh bench/instr.sh [BENCH [WxH [FRAMES [SIDE_FRAMES]]]]
#   BENCH        the bench binary (default ./bench/ripple-bench)
#   WxH          field size, and the side view's (default 640x480)
#   FRAMES       frames counted (default 4)
#   SIDE_FRAMES  frames of the side view counted (default 30)
#
# For each path the bench runs here (ripple-bench --list-paths) and for the
# seed's literal code, runs `ripple-bench --instr-run PATH` under
# valgrind --tool=callgrind twice: with FRAMES full frames (stones + wave
# step + refraction into XRGB8888, one thread, sleeping tiles on as the
# product ships, after the bench's 150 warm-up steps of steady rain) and
# with 0 frames.  The difference of the total instruction counts (Ir) is
# the frames' own work, start-up and warm-up excluded; divided by
# FRAMES * W * H it gives instructions per pixel per frame.  The workload is
# deterministic, so the figures repeat exactly.  Each path runs a second
# time with --model wave (the wave model's step, the demo's default water,
# after the same classic warm-up): the column "wave".
#
# Then the side view, each path on the timedemo's scenes side-3 (springs)
# and side-waves-3 (analytic waves): `ripple-bench --instr-run PATH
# --bench-scene S` plays the scene's drops and steps for 360 warm-up
# frames (its 24 bodies in the level), draws one frame whole, then counts
# SIDE_FRAMES frames (drops, 1/60 s of steps, the frame drawn over the
# last one into XRGB8888, one thread).  Less the run with 0 frames: the
# frame; with --part step (nothing drawn), less the same: the simulation
# (bodies, water, splashes); the frame less the simulation: the drawing.
# "x pool" is the side view's frame over the pool's on the same path.
#
# Exit status: 0, or 1 if valgrind is missing or a run fails (for instance
# when valgrind's CPU lacks an instruction set a path needs: the path asked
# for is the path that runs, never a fallback).
set -u

BENCH=${1:-./bench/ripple-bench}
SIZE=${2:-640x480}
FRAMES=${3:-4}
SIDE_FRAMES=${4:-30}

if ! command -v valgrind >/dev/null 2>&1; then
    echo "instr.sh: valgrind is not installed (Debian/Ubuntu: sudo apt-get install valgrind)"
    exit 1
fi
if [ ! -x "$BENCH" ]; then
    echo "instr.sh: $BENCH is not an executable (build it first: make)"
    exit 1
fi
case $SIZE in
*x*) W=${SIZE%%x*} H=${SIZE#*x} ;;
*) echo "instr.sh: size '$SIZE' is not WxH"; exit 1 ;;
esac
for n in "$W" "$H" "$FRAMES" "$SIDE_FRAMES"; do
    case $n in
    *[!0-9]*|'') echo "instr.sh: size '$SIZE' and frames '$FRAMES' '$SIDE_FRAMES' must be whole numbers"; exit 1 ;;
    esac
done
if [ "$FRAMES" -lt 1 ] || [ "$SIDE_FRAMES" -lt 1 ]; then
    echo "instr.sh: frames must be at least 1"
    exit 1
fi

# RIPPLE_SIMD only changes what "auto" means; paths are named explicitly
# here, but a bad value would stop the field from being created at all.
unset RIPPLE_SIMD

PATHS=$("$BENCH" --list-paths) || { echo "instr.sh: $BENCH --list-paths failed"; exit 1; }

TMP=$(mktemp -d "${TMPDIR:-/tmp}/ripple-instr.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
trap 'exit 1' INT TERM HUP

# ir PATH N [MODEL]: total Ir of a run with N frames, printed; 1 on failure.
ir() {
    count "$1" "$2" ${3:+--model "$3"}
}

# side_ir PATH SCENE N [step]: the same for the side scene's run.
side_ir() {
    count "$1" "$3" --bench-scene "$2" ${4:+--part "$4"}
}

# count PATH N [OPTION...]: total Ir of ripple-bench --instr-run PATH
# --size SIZE --frames N OPTION..., printed; 1 on failure.
count() {
    p=$1 n=$2
    shift 2
    out="$TMP/callgrind.out"
    rm -f "$out"
    if ! valgrind --tool=callgrind --callgrind-out-file="$out" \
        "$BENCH" --instr-run "$p" --size "$SIZE" --frames "$n" "$@" \
        >"$TMP/log" 2>&1; then
        echo "instr.sh: $p with $n frames $* failed under valgrind:" >&2
        grep -v '^==' "$TMP/log" >&2
        return 1
    fi
    # The bench names the kernels it ran: they must be the ones asked for.
    if ! grep -q "^instr-run: path $p (kernels $p)" "$TMP/log"; then
        echo "instr.sh: $p did not run on its own kernels:" >&2
        grep -v '^==' "$TMP/log" >&2
        return 1
    fi
    # callgrind.out: "totals: N" (or "summary: N" in older versions), Ir first
    awk '/^totals:/ { t = $2 } /^summary:/ { s = $2 }
         END { if (t != "") print t; else if (s != "") print s; else exit 1 }' "$out"
}

echo "instructions per pixel per frame: callgrind Ir, $SIZE, $FRAMES full frames (stones +"
echo "step + refraction, one thread, sleeping on) after 150 warm-up steps of steady rain;"
echo "a run with 0 frames is subtracted, so start-up and warm-up are excluded"
echo "$(valgrind --version), $BENCH"
echo
printf '%-6s  %12s  %9s  %12s\n' path "Ir/px/frame" "vs seed" "wave model"
printf '%-6s  %12s  %9s  %12s\n' ------ ------------ --------- ------------

status=0
seed_ipp=""
for p in seed $PATHS; do
    if ! a=$(ir "$p" 0) || ! b=$(ir "$p" "$FRAMES"); then
        status=1
        printf '%-6s  %12s\n' "$p" failed
        continue
    fi
    ipp=$(awk -v a="$a" -v b="$b" -v n="$FRAMES" -v w="$W" -v h="$H" \
        'BEGIN { printf "%.2f", (b - a) / (n * w * h) }')
    [ "$p" = seed ] && seed_ipp=$ipp
    eval "pool_$p=\$ipp"
    vs=$(awk -v s="$seed_ipp" -v x="$ipp" \
        'BEGIN { if (s == "" || x <= 0) print "-"; else printf "%.1fx", s / x }')
    wipp=-
    if [ "$p" != seed ]; then
        if wa=$(ir "$p" 0 wave) && wb=$(ir "$p" "$FRAMES" wave); then
            wipp=$(awk -v a="$wa" -v b="$wb" -v n="$FRAMES" -v w="$W" -v h="$H" \
                'BEGIN { printf "%.2f", (b - a) / (n * w * h) }')
        else
            status=1
            wipp=failed
        fi
    fi
    printf '%-6s  %12s  %9s  %12s\n' "$p" "$ipp" "$vs" "$wipp"
done
echo
echo "vs seed: the seed's instructions / the path's (fewer instructions is the x-fold)"
echo "wave model: the same frames with the wave model's step (--model wave)"
echo
echo "the side view: the timedemo's scenes, $SIZE, 24 bodies, $SIDE_FRAMES frames after 360 warm-up"
echo "frames (drops and 1/60 s of steps, the frame drawn over the last one, one thread);"
echo "Ir per pixel of the frame per frame, a run with 0 frames subtracted"
echo
printf '%-6s  %-12s  %8s  %8s  %8s  %10s  %8s\n' path scene sim draw frame "pool frame" "x pool"
printf '%-6s  %-12s  %8s  %8s  %8s  %10s  %8s\n' ------ ------------ -------- -------- -------- ---------- --------
for p in $PATHS; do
    eval "pool=\${pool_$p:-}"
    for scene in side-3 side-waves-3; do
        if ! a=$(side_ir "$p" "$scene" 0) || ! b=$(side_ir "$p" "$scene" "$SIDE_FRAMES") ||
            ! c=$(side_ir "$p" "$scene" "$SIDE_FRAMES" step); then
            status=1
            printf '%-6s  %-12s  %8s\n' "$p" "$scene" failed
            continue
        fi
        awk -v a="$a" -v b="$b" -v c="$c" -v n="$SIDE_FRAMES" -v w="$W" -v h="$H" \
            -v p="$p" -v s="$scene" -v pool="$pool" 'BEGIN {
                px = n * w * h; fr = (b - a) / px; sim = (c - a) / px
                x = (pool == "" || pool <= 0) ? "-" : sprintf("%.2fx", fr / pool)
                printf "%-6s  %-12s  %8.2f  %8.2f  %8.2f  %10s  %8s\n", p, s, sim, fr - sim, fr,
                    pool == "" ? "-" : pool, x }'
    done
done
echo
echo "sim: the drops and steps alone (bodies, water, splashes: --part step); draw: the frame"
echo "less the sim; x pool: the side view's frame / the pool's frame on the same path (above)"
exit $status
