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
#   MARGINAL="500 3500"  instead of one run of each: the marginal cost, each
#                ripple run with the two frame counts and ripples for the
#                two RIPPLES_MARGINAL durations ("3 10" s), the difference
#                of CPU over the difference of frames (start-up cancels),
#                RUNS times (5), medians printed, ratios taken run by run
#   PRESENTS="headless surface texture"  with MARGINAL: the runs of each demo
#   ALSO=PATH    with MARGINAL: another demo binary (an older build) measured
#                in the same runs, its rows marked "[also]"
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
MARGINAL=${MARGINAL:-}
RIPPLES_MARGINAL=${RIPPLES_MARGINAL:-3 10}
RUNS=${RUNS:-5}
ALSO=${ALSO:-}
PRESENTS=${PRESENTS:-headless surface texture}

die() { echo "vs-ripples.sh: $*" >&2; exit 1; }

abspath() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
DEMO=$(abspath "$DEMO")
[ -x "$DEMO" ] || die "$DEMO is not an executable (build it first: make)"
[ -z "$SHMCOUNT" ] || SHMCOUNT=$(abspath "$SHMCOUNT")
[ -z "$ALSO" ] || { ALSO=$(abspath "$ALSO"); [ -x "$ALSO" ] || die "ALSO=$ALSO is not an executable"; }
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

# marginal SIZE: the MARGINAL mode's runs and table for one size
marginal() {
    local size=$1 r lo hi rlo rhi p
    read -r lo hi <<<"$MARGINAL"
    read -r rlo rhi <<<"$RIPPLES_MARGINAL"
    : >"$TMP/mrows"
    for r in $(seq "$RUNS"); do
        for demo in "$DEMO" ${ALSO:+"$ALSO"}; do
            local tag=""
            [ "$demo" = "$DEMO" ] || tag=" [also]"
            for p in $PRESENTS; do
                for n in "$lo" "$hi"; do
                    : >"$TMP/rows"
                    if [ "$p" = headless ]; then
                        measure "$p$tag" ripple "$demo" --benchmark --headless --size "$size" \
                            --threads 1 --frames "$n"
                    else
                        SDL_VIDEODRIVER=x11 measure "$p$tag" ripple "$demo" --benchmark --size "$size" \
                            --threads 1 --frames "$n" --present "$p"
                    fi
                    sed "s/^/$r\t/" "$TMP/rows" >>"$TMP/mrows"
                done
            done
        done
        if [ -n "$RIPPLES" ]; then
            for t in "$rlo" "$rhi"; do
                : >"$TMP/rows"
                # shellcheck disable=SC2086 # RIPPLES_ARGS is a list of options
                RIPPLES_SECONDS=$t measure ripples ripples "$RIPPLES" ${RIPPLES_ARGS:--root -delay 0}
                sed "s/^/$r\t/" "$TMP/rows" >>"$TMP/mrows"
            done
        fi
    done
    echo
    echo "## $size (Xvfb ${size}x24), marginal: frames $lo vs $hi, ripples $rlo s vs $rhi s; median of $RUNS runs"
    echo
    # rows: run label frames wall cpu xs, two per run and label (low, high)
    awk -F '\t' '
        function median(v, n,    i, j, t) {
            for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j - 1] > v[j]; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
            return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
        }
        { k = $1 SUBSEP $2
          if (!(k in f0)) { f0[k] = $3; c0[k] = $5; x0[k] = $6 } else { f1[k] = $3; c1[k] = $5; x1[k] = $6 }
          if (!($2 in seen)) { seen[$2] = 1; order[++nl] = $2 }
          if ($1 > runs) runs = $1 }
        END {
            print "| run | client CPU ms/frame | X server CPU ms/frame | ripples / it, client | ripples / it, client + X |"
            print "|---|---:|---:|---:|---:|"
            for (l = 1; l <= nl; l++) {
                lab = order[l]; n = 0
                for (r = 1; r <= runs; r++) {
                    k = r SUBSEP lab; q = r SUBSEP "ripples"
                    if (!(k in f1) || f1[k] == f0[k]) continue
                    df = f1[k] - f0[k]; n++
                    cm[n] = 1000 * (c1[k] - c0[k]) / df; xm[n] = 1000 * (x1[k] - x0[k]) / df
                    if ((q in f1) && f1[q] > f0[q]) {
                        rf = f1[q] - f0[q]
                        rc = 1000 * (c1[q] - c0[q]) / rf; rx = 1000 * (x1[q] - x0[q]) / rf
                        ra[n] = cm[n] > 0 ? rc / cm[n] : 0; rb[n] = cm[n] + xm[n] > 0 ? (rc + rx) / (cm[n] + xm[n]) : 0
                    } else { ra[n] = 0; rb[n] = 0 }
                }
                if (n == 0) { printf "| %s | failed | | | |\n", lab; continue }
                for (i = 1; i <= n; i++) { a1[i] = cm[i]; a2[i] = xm[i]; a3[i] = ra[i]; a4[i] = rb[i] }
                mc = median(a1, n); mx = median(a2, n); m3 = median(a3, n); m4 = median(a4, n)
                if (lab == "ripples") printf "| %s | %.3f | %.3f | 1 | 1 |\n", lab, mc, mx
                else printf "| %s | %.3f | %.3f | %.2fx | %.2fx |\n", lab, mc, mx, m3, m4
            }
        }' "$TMP/mrows"
    if [ -s "$TMP/notes" ]; then echo; sed "s/^/note: /" "$TMP/notes"; fi
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
    if [ -n "$MARGINAL" ]; then
        marginal "$size"
        stop_xvfb
        continue
    fi
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
