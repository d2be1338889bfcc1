#!/bin/sh
# instr.sh - instructions per pixel per frame of every kernel path and of the seed, counted by callgrind.
#
# usage: sh bench/instr.sh [BENCH [WxH [FRAMES]]]
#   BENCH   the bench binary (default ./bench/ripple-bench)
#   WxH     field size (default 640x480)
#   FRAMES  frames counted (default 4)
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
# Exit status: 0, or 1 if valgrind is missing or a run fails (for instance
# when valgrind's CPU lacks an instruction set a path needs: the path asked
# for is the path that runs, never a fallback).
set -u

BENCH=${1:-./bench/ripple-bench}
SIZE=${2:-640x480}
FRAMES=${3:-4}

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
for n in "$W" "$H" "$FRAMES"; do
    case $n in
    *[!0-9]*|'') echo "instr.sh: size '$SIZE' and frames '$FRAMES' must be whole numbers"; exit 1 ;;
    esac
done
if [ "$FRAMES" -lt 1 ]; then
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
    out="$TMP/callgrind.$1.$2.${3:-classic}"
    if ! valgrind --tool=callgrind --callgrind-out-file="$out" \
        "$BENCH" --instr-run "$1" --size "$SIZE" --frames "$2" ${3:+--model "$3"} \
        >"$TMP/log" 2>&1; then
        echo "instr.sh: $1 with $2 frames failed under valgrind:" >&2
        grep -v '^==' "$TMP/log" >&2
        return 1
    fi
    # The bench names the kernels it ran: they must be the ones asked for.
    if ! grep -q "^instr-run: path $1 (kernels $1)" "$TMP/log"; then
        echo "instr.sh: $1 did not run on its own kernels:" >&2
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
exit $status
