#!/bin/bash
# vs-ripples.sh - what presenting costs under Xvfb: ripple's present paths
# beside its headless run and beside xscreensaver's "ripples".
#
# usage: bash bench/vs-ripples.sh [DEMO [SHMCOUNT_SO]]   (make bench-present)
#   DEMO         the demo binary (default ./ripple)
#   SHMCOUNT_SO  bench/preload/shmcount.c built as a shared object (default:
#                built here with cc into a scratch directory)
#   FRAMES=2000  frames of each ripple run
#   RIPPLES_SECONDS=5  wall time of the ripples run
#   SIZES="640x480 1024x768"  field sizes
#
# For each field size WxH, one Xvfb whose screen is exactly WxHx24 (the
# display number picked by Xvfb itself, -displayfd) serves every run of that
# size in turn: ripple's WxH window at scale 1 fills the screen, and
# "ripples -root" draws on the root window, which is then WxH too, so both
# push the same pixels per frame to the same server.  The runs:
#   headless  ripple --benchmark --headless --size WxH --threads 1 --frames F
#   surface, texture, auto
#             ripple --benchmark --size WxH --threads 1 --frames F --present P
#   ripples   ripples -root -delay 0 (xscreensaver-data), killed with SIGTERM
#             after RIPPLES_SECONDS; its frames are its XShmPutImage and
#             XPutImage calls, counted by the preloaded shmcount.so (ripples
#             puts the whole image once per frame).
# Each run records its frames, its wall time (start to exit) and two CPU
# times over that interval: the client's user+sys seconds, from bash's
# `times` in a subshell that runs only the client (getrusage of the reaped
# child, threads and children included: llvmpipe's threads count; for
# ripples also the `sleep` that times it, about a millisecond), and the
# X server's, the change of utime+stime in /proc/XVFB_PID/stat (in clock
# ticks, getconf CLK_TCK).  fps is frames / wall time for every run, so
# start-up is in it (and in the CPU times) alike for ripple and ripples;
# ripple's own report gives its fps without start-up.  Both programs
# simulate and draw the whole field every frame, so the ratio to ripples
# compares whole frames, not presentation alone.
set -u
export LC_ALL=C
unset RIPPLE_PRESENT WAYLAND_DISPLAY

DEMO=${1:-./ripple}
SHMCOUNT=${2:-}
FRAMES=${FRAMES:-2000}
RIPPLES_SECONDS=${RIPPLES_SECONDS:-5}
SIZES=${SIZES:-640x480 1024x768}

die() { echo "vs-ripples.sh: $*" >&2; exit 1; }

abspath() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
DEMO=$(abspath "$DEMO")
[ -x "$DEMO" ] || die "$DEMO is not an executable (build it first: make)"
[ -z "$SHMCOUNT" ] || SHMCOUNT=$(abspath "$SHMCOUNT")
command -v Xvfb >/dev/null 2>&1 || die "Xvfb is not installed (Debian: apt-get install xvfb)"
case $FRAMES in '' | *[!0-9]*) die "FRAMES='$FRAMES' is not a whole number" ;; esac
case $RIPPLES_SECONDS in '' | *[!0-9.]*) die "RIPPLES_SECONDS='$RIPPLES_SECONDS' is not a number" ;; esac
# the demo finds its picture (assets/background.png) from the source tree
cd "$(dirname "$0")/.." || exit 1

RIPPLES=
for f in /usr/libexec/xscreensaver/ripples /usr/lib/xscreensaver/ripples \
         /usr/lib/misc/xscreensaver/ripples "$(command -v ripples 2>/dev/null)"; do
    [ -n "$f" ] && [ -x "$f" ] && { RIPPLES=$f; break; }
done

TMP=$(mktemp -d) || exit 1
XVFB_PID=
# at exit: the ripples run if still there (it never ends by itself; its pid
# is in client.pid while it runs), Xvfb, the scratch directory
cleanup() {
    [ -s "$TMP/client.pid" ] && kill "$(cat "$TMP/client.pid")" 2>/dev/null
    [ -n "$XVFB_PID" ] && { kill "$XVFB_PID" 2>/dev/null; wait "$XVFB_PID" 2>/dev/null; }
    rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

if [ -n "$RIPPLES" ] && [ -z "$SHMCOUNT" ]; then
    SHMCOUNT=$TMP/shmcount.so
    "${CC:-cc}" -shared -fPIC -O2 -o "$SHMCOUNT" bench/preload/shmcount.c -ldl ||
        die "cannot build $SHMCOUNT"
fi
[ -z "$RIPPLES" ] || [ -f "$SHMCOUNT" ] || die "$SHMCOUNT: no such file"

TCK=$(getconf CLK_TCK)
now() { date +%s.%N; }
# utime+stime of a live process, in clock ticks (fields 14 and 15 of stat;
# the name in field 2 may hold spaces, so count from its closing paren)
ticks() {
    local s
    read -r s <"/proc/$1/stat" || { echo 0; return; }
    s=${s##*) }
    # shellcheck disable=SC2086 # split into the fields
    set -- $s
    echo $((${12} + ${13}))
}
# the children's user+sys seconds from the second line of `times`
child_cpu() { awk 'NR == 2 { n = 0; for (i = 1; i <= 2; i++) { split($i, a, "m"); sub(/s$/, "", a[2]); n += a[1] * 60 + a[2] } print n }' "$1"; }

start_xvfb() {
    rm -f "$TMP/display"
    Xvfb -displayfd 3 -screen 0 "$1x24" -nolisten tcp 3>"$TMP/display" 2>"$TMP/xvfb.log" &
    XVFB_PID=$!
    for _ in $(seq 100); do
        [ -s "$TMP/display" ] && break
        kill -0 "$XVFB_PID" 2>/dev/null || { cat "$TMP/xvfb.log" >&2; die "Xvfb $1 did not start"; }
        sleep 0.1
    done
    [ -s "$TMP/display" ] || die "Xvfb $1 did not start in 10 s"
    DISPLAY=:$(head -n 1 "$TMP/display")
    export DISPLAY
}
stop_xvfb() { kill "$XVFB_PID" 2>/dev/null; wait "$XVFB_PID" 2>/dev/null; XVFB_PID=; }

# measure LABEL KIND CMD...: runs CMD (KIND ripple: to the end; KIND ripples:
# for RIPPLES_SECONDS, counting its puts) and appends to $TMP/rows
# "LABEL FRAMES WALL CLIENT_CPU XVFB_CPU" (seconds), or prints why not.
measure() {
    local label=$1 kind=$2 x0 x1 t0 t1 frames
    shift 2
    rm -f "$TMP/out" "$TMP/err" "$TMP/times" "$TMP/count"
    x0=$(ticks "$XVFB_PID")
    t0=$(now)
    if [ "$kind" = ripple ]; then
        ( "$@" >"$TMP/out" 2>"$TMP/err" || echo "exit status $?" >>"$TMP/err"; times >"$TMP/times" )
    else
        ( SHMCOUNT_OUT=$TMP/count LD_PRELOAD=$SHMCOUNT "$@" >"$TMP/out" 2>"$TMP/err" &
          pid=$!
          echo "$pid" >"$TMP/client.pid"
          sleep "$RIPPLES_SECONDS"
          kill -TERM "$pid" 2>/dev/null || echo "it exited before its time" >>"$TMP/err"
          wait "$pid"
          rm -f "$TMP/client.pid"
          times >"$TMP/times" )
    fi
    t1=$(now)
    x1=$(ticks "$XVFB_PID")
    if [ "$kind" = ripple ]; then
        frames=$(awk '$1 == "frames" && $3 == "in" { print $2 }' "$TMP/out")
        local how
        how=$(awk '$1 == "present" { print $2 }' "$TMP/out")
        [ "$label" = auto ] && [ -n "$how" ] && label="auto ($how)"
    else
        frames=$(awk '{ print $1 + $2 }' "$TMP/count" 2>/dev/null)
    fi
    if [ -z "$frames" ] || [ "$frames" = 0 ] || [ ! -s "$TMP/times" ]; then
        echo "$label: failed: $(head -c 400 "$TMP/err")" >>"$TMP/notes"
        return
    fi
    [ "$label" = ripples ] && [ "$(awk '{ print $2 }' "$TMP/count")" != 0 ] &&
        echo "ripples: $(awk '{ print $2 }' "$TMP/count") of its puts were plain XPutImage (no MIT-SHM)" >>"$TMP/notes"
    printf '%s\t%s\t%s\t%s\t%s\n' "$label" "$frames" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" \
        "$(child_cpu "$TMP/times")" "$(awk -v a="$x0" -v b="$x1" -v t="$TCK" 'BEGIN { print (b - a) / t }')" >>"$TMP/rows"
}

echo "# ripple's presentation cost under Xvfb, beside xscreensaver's ripples"
echo
echo "$("$DEMO" --version 2>/dev/null | head -n 1); $(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo), $(nproc) CPUs;" \
     "$FRAMES frames per ripple run, 1 thread; ripples ${RIPPLES_SECONDS} s (${RIPPLES:-not installed})"
for size in $SIZES; do
    case $size in *[0-9]x[0-9]*) ;; *) die "size '$size' is not WxH" ;; esac
    : >"$TMP/rows"
    : >"$TMP/notes"
    start_xvfb "$size"
    measure headless ripple "$DEMO" --benchmark --headless --size "$size" --threads 1 --frames "$FRAMES"
    for p in surface texture auto; do
        SDL_VIDEODRIVER=x11 measure "$p" ripple "$DEMO" --benchmark --size "$size" --threads 1 \
            --frames "$FRAMES" --present "$p"
    done
    if [ -n "$RIPPLES" ]; then
        # shellcheck disable=SC2086 # RIPPLES_ARGS is a list of options
        measure ripples ripples "$RIPPLES" ${RIPPLES_ARGS:--root -delay 0}
    else
        echo "ripples: skipped, not installed (Debian: apt-get install xscreensaver-data)" >>"$TMP/notes"
    fi
    stop_xvfb
    echo
    echo "## $size (Xvfb ${size}x24)"
    echo
    awk -F '\t' '{ label[NR] = $1; fr[NR] = $2; wall[NR] = $3; cpu[NR] = $4; xs[NR] = $5
                     if ($1 == "ripples") r = $4 / $2 }
        END {
            print "| run | frames | wall s | fps | client CPU ms/frame | X server CPU ms/frame | client vs ripples |"
            print "|---|---:|---:|---:|---:|---:|---:|"
            for (i = 1; i <= NR; i++) {
                ms = 1000 * cpu[i] / fr[i]
                printf "| %s | %d | %.2f | %.1f | %.3f | %.3f | %s |\n", label[i], fr[i], wall[i],
                       fr[i] / wall[i], ms, 1000 * xs[i] / fr[i], (r > 0 ? sprintf("%.2fx", cpu[i] / fr[i] / r) : "n/a")
                if (label[i] == "headless") h = ms
                if (label[i] == "surface") s = ms
            }
            if (h > 0 && s > 0)
                printf "\nsurface vs headless client CPU: %.2fx (%.3f ms/frame more for presenting)\n", s / h, s - h
        }' "$TMP/rows"
    if [ -s "$TMP/notes" ]; then echo; sed "s/^/note: /" "$TMP/notes"; fi
done
