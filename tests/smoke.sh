#!/bin/sh
# smoke.sh - runs the demo and the bench as a user would: flags, files, headless and in a window under Xvfb.
# usage: sh tests/smoke.sh [--headless-only | --quick] ./ripple ./bench/ripple-bench
#   --headless-only  everything but the window (the sanitizer build)
#   --quick          flags, files in and out, headless runs and one window
#                    under Xvfb: the part `make check` runs
set -u

WINDOW=1
QUICK=0
case ${1:-} in
    --headless-only) WINDOW=0; shift;;
    --quick) QUICK=1; shift;;
esac
RIPPLE=${1:?usage: smoke.sh [--headless-only | --quick] RIPPLE BENCH}
BENCH=${2:?usage: smoke.sh [--headless-only | --quick] RIPPLE BENCH}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT INT TERM
pass=0
fail=0

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# expect STATUS DESCRIPTION -- command...: checks the exit status; for
# status 2 also that stderr is one line starting with the program's name.
expect() {
    want=$1; what=$2; shift 3
    "$@" >"$TMP/out" 2>"$TMP/err"
    got=$?
    if [ "$got" != "$want" ]; then
        bad "$what: exit $got, want $want; stderr: $(head -c 300 "$TMP/err")"
        return
    fi
    if [ "$want" = 2 ]; then
        lines=$(wc -l <"$TMP/err")
        if [ "$lines" != 1 ] || ! grep -q "^ripple" "$TMP/err"; then
            bad "$what: want one error line, got: $(head -c 300 "$TMP/err")"
            return
        fi
    fi
    ok
}

# files that must not exist after a failed run
absent() {
    for f in "$@"; do
        if [ -e "$f" ]; then bad "left a file behind: $f"; else ok; fi
    done
}

same() { if cmp -s "$1" "$2"; then ok; else bad "$3: $1 and $2 differ"; fi; }
differ() { if cmp -s "$1" "$2"; then bad "$3: $1 and $2 are the same"; else ok; fi; }

H="--headless"

# --- information ------------------------------------------------------------
expect 0 "--version" -- "$RIPPLE" --version
grep -q "^ripple [0-9]" "$TMP/out" && ok || bad "--version prints no version"
expect 0 "--help" -- "$RIPPLE" --help
grep -q -- "--size" "$TMP/out" && ok || bad "--help does not list --size"

# The flags agree: --help (made from the parser's table), the man page's
# OPTIONS and its SYNOPSIS list the same long flags, and the parser takes
# each of them (--flag= is refused for its value, never as unknown).
MAN=$(dirname "$0")/../src/app/ripple.6
flags_of() { grep -o -- '--[a-z][a-z-]*' | sort -u; }
sed -n 's/^  \(--[a-z-]*\).*/\1/p' "$TMP/out" | flags_of >"$TMP/flags.help"
sed 's/\\-/-/g' "$MAN" | awk '/^\.SH/ { sec = $2 }
    sec == "OPTIONS" && (prev == ".TP" || prev == ".TQ") && /^\.B[IR]? --/ { print $2 }
    { prev = $1 }' | flags_of >"$TMP/flags.OPTIONS"
sed 's/\\-/-/g' "$MAN" | awk '/^\.SH/ { sec = $2 } sec == "SYNOPSIS" && /^\.(OP|B) --/' |
    flags_of >"$TMP/flags.SYNOPSIS"
[ -s "$TMP/flags.help" ] && ok || bad "no flags found in --help"
for list in OPTIONS SYNOPSIS; do
    if cmp -s "$TMP/flags.help" "$TMP/flags.$list"; then ok; else
        bad "--help and the man page's $list list different flags:" \
            "$(diff "$TMP/flags.help" "$TMP/flags.$list" | grep '^[<>]' | tr '\n' ' ')"
    fi
done
for f in $(cat "$TMP/flags.help" "$TMP/flags.OPTIONS" "$TMP/flags.SYNOPSIS" | sort -u); do
    "$RIPPLE" "$f=" >/dev/null 2>"$TMP/err"
    if grep -q "unknown option" "$TMP/err"; then bad "the parser does not take $f"; else ok; fi
done

# --- bad flags and sizes ----------------------------------------------------
expect 2 "unknown flag" -- "$RIPPLE" --bogus
expect 2 "stray argument" -- "$RIPPLE" picture.png
expect 2 "missing value" -- "$RIPPLE" --size
expect 2 "size zero" -- "$RIPPLE" $H --size 0x0
expect 2 "size too small" -- "$RIPPLE" $H --size 2x100
expect 2 "size too large" -- "$RIPPLE" $H --size 9000x100
expect 2 "size garbage" -- "$RIPPLE" $H --size 640by480
expect 2 "size negative" -- "$RIPPLE" $H --size -640x480
expect 2 "size trailing junk" -- "$RIPPLE" $H --size 640x480x2
expect 2 "scale zero" -- "$RIPPLE" $H --scale 0
expect 2 "scale too large" -- "$RIPPLE" $H --scale 99
expect 2 "window too large" -- "$RIPPLE" --size 8000x8000 --scale 4
expect 2 "frames zero" -- "$RIPPLE" $H --frames 0
expect 2 "frames negative" -- "$RIPPLE" $H --frames -5
# no display: an error, not a demo playing unseen in SDL's offscreen driver
# (and that line alone: without XDG_RUNTIME_DIR either, libwayland must
# not be asked, for it would say so first)
expect 1 "no display" -- env -u DISPLAY -u WAYLAND_DISPLAY -u XDG_RUNTIME_DIR -u SDL_VIDEODRIVER \
    timeout 20 "$RIPPLE" --frames 5
if [ "$(wc -l <"$TMP/err")" = 1 ] && grep -q "^ripple: no display to open a window on" "$TMP/err"; then ok
else bad "no display: $(head -c 300 "$TMP/err")"; fi
expect 1 "no display, side scene" -- env -u DISPLAY -u WAYLAND_DISPLAY -u XDG_RUNTIME_DIR -u SDL_VIDEODRIVER \
    timeout 20 "$RIPPLE" --frames 5 --scene side
if [ "$(wc -l <"$TMP/err")" = 1 ] && grep -q "^ripple: no display to open a window on" "$TMP/err"; then ok
else bad "no display, side scene: $(head -c 300 "$TMP/err")"; fi
expect 2 "frames not a number" -- "$RIPPLE" $H --frames ten
expect 2 "seed negative" -- "$RIPPLE" $H --seed -1
expect 2 "value on a switch" -- "$RIPPLE" --headless=yes
expect 2 "bpp 24" -- "$RIPPLE" $H --bpp 24
expect 2 "threads zero" -- "$RIPPLE" $H --threads 0
expect 2 "unknown simd path" -- "$RIPPLE" $H --simd avx512
RIPPLE_SIMD=nope expect 2 "unknown RIPPLE_SIMD" -- "$RIPPLE" $H
expect 2 "screenshot extension" -- "$RIPPLE" $H --frames 1 --screenshot "$TMP/shot.txt"
absent "$TMP/shot.txt"
expect 2 "screenshot into a missing directory" -- "$RIPPLE" $H --frames 1 --screenshot "$TMP/no/such/dir/s.png"
expect 2 "state into a missing directory" -- "$RIPPLE" $H --frames 1 --save-state "$TMP/no/such/dir/s.rpl"

# --- the timedemo's scenes: listed; a bad name or a clash is a usage error ----
# each name as a bare name plays its newest version: busy-2 and wave-2 (smooth
# stones); busy-1 and wave-1 (the flat discs) stay playable by their full names
# (show-2 keeps time with the music; show-1, the show before, by its full name;
# side-3 and side-waves-3 take in the picture, side-2 the state alone)
BENCH_SCENES="busy wave show side side-waves show-1 side-2"
BENCH_ALL="busy-2 wave-2 show-2 side-3 side-waves-3 busy-1 wave-1 show-1 side-2"
version_of() { for v in $BENCH_ALL; do [ "${v%-*}" = "$1" ] || [ "$v" = "$1" ] && { echo "$v"; return; }; done; }
expect 0 "benchmark --list" -- "$RIPPLE" --benchmark --list
[ "$(wc -l <"$TMP/out")" = 9 ] && ok || bad "--benchmark --list: want 9 scenes, got: $(cat "$TMP/out")"
for v in $BENCH_ALL; do
    grep -q "^${v%-*}  *${v##*-}  [a-z]" "$TMP/out" && ok || bad "--benchmark --list does not list $v: $(cat "$TMP/out")"
done
expect 0 "benchmark --list --json" -- "$RIPPLE" --benchmark --list --json
if command -v python3 >/dev/null 2>&1; then
    python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
names = [s["scene"] for s in d]
assert names == sys.argv[2].split(), names
assert all(s["scene"] == "%s-%d" % (s["scene_name"], s["scene_version"]) and s["scene_about"] for s in d)' \
        "$TMP/out" "$BENCH_ALL" 2>"$TMP/py" &&
        ok || bad "--benchmark --list --json: $(cat "$TMP/py") $(cat "$TMP/out")"
fi
expect 2 "bad timedemo scene" -- "$RIPPLE" $H --benchmark --bench-scene nosuch
grep -q "busy, wave, show, side or side-waves" "$TMP/err" && ok || bad "bad timedemo scene: $(cat "$TMP/err")"
expect 2 "a timedemo scene's other version" -- "$RIPPLE" $H --benchmark --bench-scene side-4
for r in side-1:side-2 side-waves-1:side-waves-3 side-waves-2:side-waves-3; do
    v=${r%:*}
    expect 2 "the retired timedemo scene $v" -- "$RIPPLE" $H --benchmark --bench-scene $v
    grep -q "^ripple: bad --bench-scene '$v': $v .* is retired: ${r#*:} plays" "$TMP/err" && ok ||
        bad "the retired $v: $(cat "$TMP/err")"
done
expect 2 "--list without --benchmark" -- "$RIPPLE" --list
expect 2 "--bench-scene without --benchmark" -- "$RIPPLE" $H --bench-scene side
expect 2 "--bench-scene and --model" -- "$RIPPLE" $H --benchmark --bench-scene busy --model wave
expect 2 "--bench-scene and --scene" -- "$RIPPLE" $H --benchmark --bench-scene show --scene side
expect 2 "--bench-scene and --surface" -- "$RIPPLE" $H --benchmark --bench-scene side --surface waves
expect 2 "--surface in the pool's timedemo" -- "$RIPPLE" $H --benchmark --surface waves
expect 2 "the side timedemo at 100x100" -- "$RIPPLE" $H --benchmark --scene side --size 100x100
# how long the timedemo plays: --rounds, --seconds or --frames, one at a time
for v in "--rounds 0" "--rounds -1" "--rounds 1000001" "--rounds x" "--seconds 0" "--seconds -2" \
    "--seconds ten" "--seconds 1e9" "--seconds nan"; do
    # shellcheck disable=SC2086
    expect 2 "timedemo $v" -- "$RIPPLE" $H --benchmark $v
    grep -q "^ripple: bad ${v%% *} " "$TMP/err" && ok || bad "timedemo $v: $(cat "$TMP/err")"
done
for v in "--frames 10 --rounds 2" "--frames 10 --seconds 1" "--rounds 2 --seconds 1"; do
    # shellcheck disable=SC2086
    expect 2 "timedemo $v" -- "$RIPPLE" $H --benchmark $v
    grep -q "do not go together" "$TMP/err" && ok || bad "timedemo $v: $(cat "$TMP/err")"
done
expect 2 "--share with --json" -- "$RIPPLE" $H --benchmark --share --json
for v in "--rounds 2" "--seconds 1" "--share" "--no-results"; do
    # shellcheck disable=SC2086
    expect 2 "$v without --benchmark" -- "$RIPPLE" $H --frames 1 $v
    grep -q "goes with --benchmark" "$TMP/err" && ok || bad "$v without --benchmark: $(cat "$TMP/err")"
done

# --- bad images ---------------------------------------------------------------
expect 2 "missing image" -- "$RIPPLE" $H --frames 1 --image "$TMP/nope.png" --screenshot "$TMP/a.png"
printf 'this is not a picture\n' >"$TMP/text.png"
expect 2 "text file as image" -- "$RIPPLE" $H --frames 1 --image "$TMP/text.png" --screenshot "$TMP/a.png"
head -c 300 assets/background.png >"$TMP/trunc.png"
expect 2 "truncated PNG" -- "$RIPPLE" $H --frames 1 --image "$TMP/trunc.png" --screenshot "$TMP/a.png"
expect 2 "directory as image" -- "$RIPPLE" $H --frames 1 --image "$TMP" --screenshot "$TMP/a.png"
absent "$TMP/a.png"

# pictures cut short: a JPEG decoder shows the missing part grey and only
# warns, so the file must reach its end-of-image marker.  The JPEG is made
# here with SDL_image, a noisy gradient so that its scan data is long.
cat >"$TMP/mkjpeg.c" <<'CEOF'
#define SDL_MAIN_HANDLED
#include <SDL.h>
#include <SDL_image.h>
int main(int argc, char **argv)
{
    (void)argc;
    SDL_Surface *s = SDL_CreateRGBSurfaceWithFormat(0, 256, 192, 32, SDL_PIXELFORMAT_RGB888);
    if (!s)
        return 1;
    Uint32 h = 1;
    for (int y = 0; y < s->h; y++)
        for (int x = 0; x < s->w; x++) {
            h = h * 1103515245u + 12345u;
            ((Uint32 *)((char *)s->pixels + y * s->pitch))[x] =
                (Uint32)x << 16 | (Uint32)y << 8 | (h >> 24);
        }
    return IMG_SaveJPG(s, argv[1], 90) != 0;
}
CEOF
if ${CC:-cc} -o "$TMP/mkjpeg" "$TMP/mkjpeg.c" $(pkg-config --cflags --libs sdl2 SDL2_image) 2>"$TMP/err" &&
    "$TMP/mkjpeg" "$TMP/real.jpg"; then
    expect 0 "a whole JPEG" -- "$RIPPLE" $H --size 64x48 --frames 1 --image "$TMP/real.jpg"
    head -c 300 "$TMP/real.jpg" >"$TMP/cut300.jpg"
    expect 2 "the first 300 bytes of a JPEG" -- "$RIPPLE" $H --size 64x48 --frames 1 --image "$TMP/cut300.jpg" --screenshot "$TMP/a.png"
    grep -q "truncated JPEG" "$TMP/err" && ok || bad "JPEG of 300 bytes: $(head -c 300 "$TMP/err")"
    # half the file is well inside the scan data: its headers end within
    # the first kilobyte
    jsize=$(wc -c <"$TMP/real.jpg")
    head -c $((jsize / 2)) "$TMP/real.jpg" >"$TMP/cuthalf.jpg"
    [ "$jsize" -gt 4000 ] && ok || bad "the JPEG made for the test is only $jsize bytes"
    expect 2 "a JPEG cut in its scan data" -- "$RIPPLE" $H --size 64x48 --frames 1 --image "$TMP/cuthalf.jpg" --screenshot "$TMP/a.png"
    grep -q "truncated JPEG" "$TMP/err" && ok || bad "JPEG cut in half: $(head -c 300 "$TMP/err")"
    printf 'ripple-show 1\npicture cuthalf.jpg\n' >"$TMP/cut.show"
    expect 2 "a show's JPEG cut short" -- "$RIPPLE" $H --size 64x48 --frames 1 --show "$TMP/cut.show"
    expect 2 "walls from a JPEG cut short" -- "$RIPPLE" $H --size 64x48 --frames 1 --walls "$TMP/cuthalf.jpg"
    # bytes after the end-of-image marker do no harm
    cat "$TMP/real.jpg" "$TMP/cut300.jpg" >"$TMP/tail.jpg"
    expect 0 "a JPEG with bytes after its end" -- "$RIPPLE" $H --size 64x48 --frames 1 --image "$TMP/tail.jpg"
else
    bad "cannot make a JPEG with SDL_image: $(head -c 300 "$TMP/err")"
fi
absent "$TMP/a.png"

# a 24-bit BMP header: bmp_head W H (bottom-up, 54 bytes, no compression)
le32() { printf "\\$(printf %03o $(($1 & 255)))\\$(printf %03o $(($1 >> 8 & 255)))\\$(printf %03o $(($1 >> 16 & 255)))\\$(printf %03o $(($1 >> 24 & 255)))"; }
bmp_head() {
    row=$((($1 * 3 + 3) / 4 * 4))
    printf 'BM'; le32 $((54 + row * $2)); le32 0; le32 54
    le32 40; le32 "$1"; le32 "$2"; printf '\001\000\030\000'; le32 0; le32 $((row * $2))
    le32 2835; le32 2835; le32 0; le32 0
}
# bytes of one value: bytes N OCTAL
bytes() { head -c "$1" /dev/zero | tr '\000' "\\$2"; }

# pictures far longer than wide are fitted by cropping: a 100000x1 line,
# light with a dark band at its middle, fills the field with the band
# (the same as a 1x1 dark picture), and so does the line standing
{ bmp_head 1 1; bytes 4 001; } >"$TMP/dot.bmp"
{ bmp_head 100000 1; bytes $((49990 * 3)) 376; bytes $((20 * 3)) 001; bytes $((49990 * 3)) 376; } >"$TMP/line.bmp"
{ bmp_head 1 100000; bytes $((49990 * 4)) 376; bytes $((20 * 4)) 001; bytes $((49990 * 4)) 376; } >"$TMP/pole.bmp"
expect 0 "a 1x1 picture" -- "$RIPPLE" $H --size 64x48 --frames 1 --no-rain --no-autopilot --image "$TMP/dot.bmp" --screenshot "$TMP/dot-s.bmp"
expect 0 "a 100000x1 picture" -- "$RIPPLE" $H --size 64x48 --frames 1 --no-rain --no-autopilot --image "$TMP/line.bmp" --screenshot "$TMP/line-s.bmp"
same "$TMP/dot-s.bmp" "$TMP/line-s.bmp" "a 100000x1 picture keeps its middle"
expect 0 "a 1x100000 picture" -- "$RIPPLE" $H --size 64x48 --frames 1 --no-rain --no-autopilot --image "$TMP/pole.bmp" --screenshot "$TMP/pole-s.bmp"
same "$TMP/dot-s.bmp" "$TMP/pole-s.bmp" "a 1x100000 picture keeps its middle"

# reading stops at the 1 GiB cap: a file over it is refused for its size
# without being read (a sparse one here), a stream over it as soon as it
# passes the cap, and what does not start like a picture at once
{ bmp_head 2 2; bytes 16 001; } >"$TMP/over.bmp"
truncate -s $((1024 * 1024 * 1024 + 1)) "$TMP/over.bmp"
expect 2 "a picture over 1 GiB" -- "$RIPPLE" $H --size 64x48 --frames 1 --image "$TMP/over.bmp"
grep -q "over.bmp': larger than the 1 GiB limit for pictures$" "$TMP/err" && ok || bad "1 GiB + 1 byte: $(head -c 300 "$TMP/err")"
expect 2 "walls over 1 GiB" -- "$RIPPLE" $H --size 64x48 --frames 1 --walls "$TMP/over.bmp"
grep -q "1 GiB limit" "$TMP/err" && ok || bad "walls of 1 GiB + 1 byte: $(head -c 300 "$TMP/err")"
printf 'ripple-show 1\npicture over.bmp\n' >"$TMP/over.show"
expect 2 "a show's picture over 1 GiB" -- "$RIPPLE" $H --size 64x48 --frames 1 --show "$TMP/over.show"
grep -q "1 GiB limit" "$TMP/err" && ok || bad "show's picture of 1 GiB + 1 byte: $(head -c 300 "$TMP/err")"
expect 2 "/dev/zero as a picture" -- "$RIPPLE" $H --size 64x48 --frames 1 --image /dev/zero
grep -q "^ripple: cannot load image '/dev/zero': not a PNG, JPEG or BMP picture$" "$TMP/err" && ok || bad "/dev/zero: $(head -c 300 "$TMP/err")"
if [ "$QUICK" = 0 ]; then
    # these two read 1 GiB each
    truncate -s $((1024 * 1024 * 1024)) "$TMP/over.bmp"
    expect 0 "a picture of exactly 1 GiB is read" -- "$RIPPLE" $H --size 64x48 --frames 1 --image "$TMP/over.bmp"
    { printf '\211PNG\r\n\032\n'; cat /dev/zero; } 2>/dev/null |
        "$RIPPLE" $H --size 64x48 --frames 1 --image /dev/stdin >/dev/null 2>"$TMP/err"
    rc=$?
    [ "$rc" = 2 ] && [ "$(wc -l <"$TMP/err")" = 1 ] &&
        grep -q "^ripple: cannot load image '/dev/stdin': larger than the 1 GiB limit for pictures$" "$TMP/err" &&
        ok || bad "an endless PNG stream: exit $rc: $(head -c 300 "$TMP/err")"
fi
rm -f "$TMP/over.bmp"

# the side scene's smallest field is checked with the other flags, before
# the picture is even looked for
for small in 159x120 160x119 3x3; do
    expect 2 "side scene at $small" -- "$RIPPLE" $H --frames 1 --scene side --size $small --image "$TMP/nope.png"
    grep -q -- "--scene side needs a field of at least 160x120" "$TMP/err" && ok || bad "side scene at $small: $(head -c 300 "$TMP/err")"
done
"$RIPPLE" --help | grep -q "at least 160x120" && ok || bad "--help does not give the side scene's smallest size"

# running out of memory while decoding a picture is a run-time failure,
# exit 1 as every other: under an address-space limit just over what a run
# with a small picture needs (found here, in 32 MB steps), a 6000x6000 BMP
# (108 MB, sparse) is read but its decoding (108 MB, then 144 MB to
# convert) finds no memory.  Sanitizer builds reserve too much address
# space for any limit: there the check is skipped.
bmp_head 6000 6000 >"$TMP/vast.bmp"
truncate -s $((54 + 6000 * 18000)) "$TMP/vast.bmp"
# a run with a small picture under a limit in kB (a shell between, so a
# sanitizer's abort is not reported)
starts() { sh -c 'ulimit -v "$0" && "$@"' "$1" "$RIPPLE" $H --size 64x48 --frames 1 --threads 1 --image "$TMP/dot.bmp" >/dev/null 2>&1; }
lim=
kb=65536
if starts 1048576; then
    while [ "$kb" -le 1048576 ]; do
        if starts "$kb"; then
            lim=$kb
            break
        fi
        kb=$((kb + 32768))
    done
fi
if [ -n "$lim" ]; then
    (ulimit -v $((lim + 122880)) && exec "$RIPPLE" $H --size 64x48 --frames 1 --threads 1 --image "$TMP/vast.bmp") >/dev/null 2>"$TMP/err"
    rc=$?
    [ "$rc" = 1 ] && [ "$(wc -l <"$TMP/err")" = 1 ] &&
        grep -q "^ripple: cannot load image '$TMP/vast.bmp': out of memory for 6000x6000 pixels$" "$TMP/err" &&
        ok || bad "out of memory decoding a picture (limit $((lim + 122880)) kB): exit $rc: $(head -c 300 "$TMP/err")"
else
    echo "smoke: no address-space limit lets ripple start (a sanitizer build?): out-of-memory check skipped"
fi
rm -f "$TMP/vast.bmp"

# the files read are opened close-on-exec: each reader is held on a FIFO
# with nothing in it yet, and its descriptor's flags in /proc must have
# O_CLOEXEC (02000000)
if [ -d /proc/self/fdinfo ]; then
    mkfifo "$TMP/held"
    for flag in --image --load-state --show; do
        "$RIPPLE" $H --size 64x48 --frames 1 $flag "$TMP/held" >/dev/null 2>&1 &
        pid=$!
        exec 4<>"$TMP/held" # read-write: never blocks, even if ripple is gone
        flags=
        tries=0
        while [ -z "$flags" ] && [ "$tries" -lt 50 ]; do
            for fd in /proc/$pid/fd/*; do
                [ "$(readlink "$fd" 2>/dev/null)" = "$TMP/held" ] &&
                    flags=$(awk '/^flags:/ { print $2 }' "/proc/$pid/fdinfo/${fd##*/}" 2>/dev/null)
            done
            [ -n "$flags" ] || { sleep 0.1; tries=$((tries + 1)); }
        done
        exec 4>&-
        wait "$pid"
        [ -n "$flags" ] && [ $((0$flags & 02000000)) != 0 ] && ok ||
            bad "$flag opens its file without close-on-exec (flags ${flags:-not seen})"
    done
    rm -f "$TMP/held"
fi

# --- bad snapshots ------------------------------------------------------------
expect 2 "missing snapshot" -- "$RIPPLE" $H --frames 1 --load-state "$TMP/nope.rpl" --save-state "$TMP/b.rpl"
printf 'RPL1\003\000\000\000' >"$TMP/short.rpl"
expect 2 "truncated snapshot header" -- "$RIPPLE" $H --frames 1 --load-state "$TMP/short.rpl" --save-state "$TMP/b.rpl"
printf 'NOPE\004\000\000\000\004\000\000\000' >"$TMP/magic.rpl"
expect 2 "snapshot with a bad magic" -- "$RIPPLE" $H --frames 1 --load-state "$TMP/magic.rpl" --save-state "$TMP/b.rpl"
absent "$TMP/b.rpl"

# --- headless runs --------------------------------------------------------------
expect 0 "headless run" -- "$RIPPLE" $H --size 160x120 --frames 60 --screenshot "$TMP/h.bmp" --save-state "$TMP/h.rpl"
[ -s "$TMP/h.bmp" ] && ok || bad "headless run wrote no screenshot"
size=$(wc -c <"$TMP/h.rpl")
# RPL2: magic, version, HGHT header and size, the two planes, EDGE, DONE
[ "$size" = $((44 + 4 * 160 * 120)) ] && ok || bad "snapshot is $size bytes, want $((44 + 4 * 160 * 120))"
expect 0 "PNG screenshot" -- "$RIPPLE" $H --size 160x120 --frames 5 --screenshot "$TMP/h.png"
head -c 8 "$TMP/h.png" | od -c | grep -q "P   N   G" && ok || bad "PNG screenshot is not a PNG"

# every framebuffer depth renders; flat water shows the picture in each
for b in 8 16; do
    expect 0 "headless at $b bits" -- "$RIPPLE" $H --size 160x120 --frames 60 --bpp $b --screenshot "$TMP/h$b.bmp"
    differ "$TMP/h$b.bmp" "$TMP/h.bmp" "$b-bit frame differs from the 32-bit one"
done

# the same seed gives the same frames, whatever the threads and kernels; another seed does not
expect 0 "one thread, scalar kernels" -- "$RIPPLE" $H --size 160x120 --frames 60 --threads 1 --simd c --screenshot "$TMP/h1c.bmp"
same "$TMP/h.bmp" "$TMP/h1c.bmp" "threads and kernels"

expect 0 "same seed" -- "$RIPPLE" $H --size 160x120 --frames 60 --screenshot "$TMP/h2.bmp"
same "$TMP/h.bmp" "$TMP/h2.bmp" "same seed"
# (the show's first second has no rain: the autopilot's rain shows the seed at once)
expect 0 "seed 1, autopilot" -- "$RIPPLE" $H --size 160x120 --frames 60 --no-show --screenshot "$TMP/h4.bmp"
expect 0 "other seed" -- "$RIPPLE" $H --size 160x120 --frames 60 --no-show --seed 7 --screenshot "$TMP/h3.bmp"
differ "$TMP/h4.bmp" "$TMP/h3.bmp" "other seed"

# with nothing dropped the water stays flat and the frame stays the same
expect 0 "still water" -- "$RIPPLE" $H --size 160x120 --frames 1 --no-rain --no-autopilot --screenshot "$TMP/flat1.bmp"
expect 0 "still water later" -- "$RIPPLE" $H --size 160x120 --frames 30 --no-rain --no-autopilot --screenshot "$TMP/flat30.bmp"
same "$TMP/flat1.bmp" "$TMP/flat30.bmp" "still water stays still"
differ "$TMP/flat1.bmp" "$TMP/h.bmp" "rippled frame"

# a saved state continues exactly where it left off: 40 steps in one run
# equal 20 + 20 across a save and a load
expect 0 "continue 40" -- "$RIPPLE" $H --frames 40 --no-rain --no-autopilot --load-state "$TMP/h.rpl" --save-state "$TMP/c40.rpl"
expect 0 "continue 20" -- "$RIPPLE" $H --frames 20 --no-rain --no-autopilot --load-state "$TMP/h.rpl" --save-state "$TMP/c20.rpl"
expect 0 "continue 20+20" -- "$RIPPLE" $H --frames 20 --no-rain --no-autopilot --load-state "$TMP/c20.rpl" --save-state "$TMP/c20b.rpl"
same "$TMP/c40.rpl" "$TMP/c20b.rpl" "save and load resume"
expect 2 "snapshot of another size" -- "$RIPPLE" $H --size 200x100 --frames 1 --load-state "$TMP/h.rpl"

# pictures of other sizes and formats are fitted to the field
if command -v convert >/dev/null 2>&1 && convert -version 2>/dev/null | grep -q ImageMagick; then
    convert -size 1000x300 gradient:red-blue "$TMP/wide.jpg" 2>/dev/null
    expect 0 "JPEG background" -- "$RIPPLE" $H --size 120x90 --frames 3 --image "$TMP/wide.jpg"
fi
"$RIPPLE" $H --size 64x48 --frames 1 --no-rain --no-autopilot --screenshot "$TMP/small.bmp" >/dev/null
expect 0 "BMP background" -- "$RIPPLE" $H --size 64x48 --frames 1 --no-rain --no-autopilot --image "$TMP/small.bmp" --screenshot "$TMP/small2.bmp"
same "$TMP/small.bmp" "$TMP/small2.bmp" "BMP background at its own size comes back unchanged"

# --- files in and out, the way people type them ---------------------------------
# bare file names in the working directory
mkdir "$TMP/cwd"
RIPPLE_ABS=$(cd "$(dirname "$RIPPLE")" && pwd)/$(basename "$RIPPLE")
( cd "$TMP/cwd" && "$RIPPLE_ABS" $H --size 64x48 --frames 5 --image "$OLDPWD/assets/background.png" \
    --save-state out.rpl --screenshot out.png >/dev/null 2>"$TMP/err" ); rc=$?
[ "$rc" = 0 ] && ok || bad "save with a bare file name: exit $rc: $(head -c 300 "$TMP/err")"
[ -s "$TMP/cwd/out.rpl" ] && [ -s "$TMP/cwd/out.png" ] && ok || bad "bare file names wrote nothing"
[ "$(ls -A "$TMP/cwd" | wc -l)" = 2 ] && ok || bad "temporary files left beside bare names: $(ls -A "$TMP/cwd")"

# a small file whose header claims a huge picture is refused before decoding
printf '\211PNG\r\n\032\n\000\000\000\rIHDR\000\000\151\170\000\000\151\170\010\002\000\000\000\000\000\000\000' >"$TMP/huge.png"
expect 2 "PNG header claiming 27000x27000" -- "$RIPPLE" $H --frames 1 --image "$TMP/huge.png"
grep -q "megapixels" "$TMP/err" && ok || bad "huge PNG: no word of the pixel limit: $(cat "$TMP/err")"
printf '\377\330\377\340\000\020JFIF\000\001\001\000\000\001\000\001\000\000\377\300\000\021\010\165\060\234\100\003\001\042\000\002\021\001\003\021\001' >"$TMP/huge.jpg"
expect 2 "JPEG header claiming 40000x30000" -- "$RIPPLE" $H --frames 1 --image "$TMP/huge.jpg"
grep -q "megapixels" "$TMP/err" && ok || bad "huge JPEG: no word of the pixel limit: $(cat "$TMP/err")"
printf 'BM\000\000\000\000\000\000\000\000\066\000\000\000\050\000\000\000\060\165\000\000\040\116\000\000\001\000\030\000' >"$TMP/huge.bmp"
expect 2 "BMP header claiming 30000x20000" -- "$RIPPLE" $H --frames 1 --image "$TMP/huge.bmp"
grep -q "megapixels" "$TMP/err" && ok || bad "huge BMP: no word of the pixel limit: $(cat "$TMP/err")"
grep -q -- "100 megapixels" "$TMP/out" 2>/dev/null; "$RIPPLE" --help | grep -q "100 megapixels" && ok || bad "--help does not state the pixel limit"

# a device node is written into, never replaced (as root; a node made here, not in /dev)
if mknod "$TMP/null" c 1 3 2>/dev/null; then
    expect 0 "state into a device node" -- "$RIPPLE" $H --size 32x24 --frames 2 --save-state "$TMP/null"
    [ -c "$TMP/null" ] && ok || bad "the device node was replaced"
    mknod "$TMP/full" c 1 7
    expect 1 "state into a full device" -- "$RIPPLE" $H --size 32x24 --frames 2 --save-state "$TMP/full"
    [ -c "$TMP/full" ] && ok || bad "the full device node was replaced"
    mknod "$TMP/blk" b 7 0
    expect 2 "state onto a block device" -- "$RIPPLE" $H --size 32x24 --frames 2 --save-state "$TMP/blk"
    [ -b "$TMP/blk" ] && ok || bad "the block device node was replaced"
else
    echo "smoke: mknod not permitted here, device cases skipped"
fi

# links are neither followed nor replaced
echo precious >"$TMP/victim"
ln -s "$TMP/victim" "$TMP/s.rpl.tmp~"
expect 0 "save beside a planted link" -- "$RIPPLE" $H --size 32x24 --frames 2 --save-state "$TMP/s.rpl"
[ "$(cat "$TMP/victim")" = precious ] && ok || bad "a planted temporary link was followed"
ln -s "$TMP/victim" "$TMP/link.rpl"
expect 2 "save onto a symbolic link" -- "$RIPPLE" $H --size 32x24 --frames 2 --save-state "$TMP/link.rpl"
[ "$(cat "$TMP/victim")" = precious ] && [ -L "$TMP/link.rpl" ] && ok || bad "a link target was written or replaced"

# standard output by name carries the data; the report moves to stderr
# (named through /proc, where a faulty build cannot replace anything)
"$RIPPLE" $H --size 32x24 --frames 3 --save-state /proc/self/fd/1 >"$TMP/so.rpl" 2>/dev/null
"$RIPPLE" $H --size 32x24 --frames 3 --save-state "$TMP/file.rpl" >/dev/null 2>&1
same "$TMP/so.rpl" "$TMP/file.rpl" "state written to standard output by name"
# every spelling of standard output (leading zeros, a link to /dev/stdout
# while stdout is a file, a FIFO that stdout is): the data alone on stdout,
# the report on stderr, as the file writer and the report's check agree
ln -s /dev/stdout "$TMP/so-link.rpl"
for name in /dev/stdout /dev/fd/1 /dev/fd/01 /proc/self/fd/1 /proc/self/fd/001 "$TMP/so-link.rpl"; do
    rm -f "$TMP/so2.rpl"
    "$RIPPLE" $H --size 32x24 --frames 3 --save-state "$name" >"$TMP/so2.rpl" 2>"$TMP/so2.err"
    same "$TMP/so2.rpl" "$TMP/file.rpl" "--save-state $name > file"
    grep -q "^ripple: 3 frames" "$TMP/so2.err" && ok || bad "--save-state $name: no report on stderr: $(head -c 200 "$TMP/so2.err")"
done
[ -L "$TMP/so-link.rpl" ] && ok || bad "the link to /dev/stdout was replaced"
mkfifo "$TMP/so.fifo"
( cat "$TMP/so.fifo" >"$TMP/so3.rpl" & )
timeout 30 "$RIPPLE" $H --size 32x24 --frames 3 --save-state "$TMP/so.fifo" >"$TMP/so.fifo" 2>"$TMP/so3.err"
sleep 0.2
same "$TMP/so3.rpl" "$TMP/file.rpl" "--save-state FIFO > the same FIFO"
grep -q "^ripple: 3 frames" "$TMP/so3.err" && ok || bad "--save-state FIFO > FIFO: no report on stderr: $(head -c 200 "$TMP/so3.err")"

# snapshots read once: from a pipe and from a FIFO, without --size
expect 0 "state from a pipe" -- sh -c "cat '$TMP/h.rpl' | '$RIPPLE' $H --frames 20 --no-rain --no-autopilot --load-state /dev/stdin --save-state '$TMP/p20.rpl'"
same "$TMP/p20.rpl" "$TMP/c20.rpl" "state loaded from a pipe"
mkfifo "$TMP/fifo"
( cat "$TMP/h.rpl" >"$TMP/fifo" & )
expect 0 "state from a FIFO" -- timeout 30 "$RIPPLE" $H --frames 20 --no-rain --no-autopilot --load-state "$TMP/fifo" --save-state "$TMP/f20.rpl"
same "$TMP/f20.rpl" "$TMP/c20.rpl" "state loaded from a FIFO"

# output targets are checked before the run (a run of 10^9 frames would time out)
long=$(printf '%0300d' 0)
for target in "$TMP" "/proc/ripple-test.rpl" "$TMP/$long.rpl" "$TMP/"; do
    expect 2 "unwritable target $(echo "$target" | head -c 40)" -- timeout 30 "$RIPPLE" $H --frames 1000000000 --save-state "$target"
done
expect 2 "long target name, reason kept" -- "$RIPPLE" $H --frames 1 --screenshot "$TMP/$long.png"
grep -q "too long" "$TMP/err" && ok || bad "long name: reason lost: $(tail -c 100 "$TMP/err")"

# one integer parser: decimal only, no signs, spaces or hex
for v in 0x8 +8 " 8" "	8" "8 " 1e1; do
    expect 2 "--seed '$v'" -- "$RIPPLE" $H --frames 1 --seed "$v"
    expect 2 "--threads '$v'" -- "$RIPPLE" $H --frames 1 --threads "$v"
    expect 2 "--frames '$v'" -- "$RIPPLE" $H --frames "$v"
done
expect 2 "--seed ' -1'" -- "$RIPPLE" $H --frames 1 --seed " -1"
expect 2 "--seed past 2^64" -- "$RIPPLE" $H --frames 1 --seed 18446744073709551616
expect 2 "--size with a tab" -- "$RIPPLE" $H --frames 1 --size "	64x48"
expect 0 "--seed 010" -- "$RIPPLE" $H --size 64x48 --frames 30 --no-show --seed 010 --screenshot "$TMP/s010.bmp"
expect 0 "--seed 10" -- "$RIPPLE" $H --size 64x48 --frames 30 --no-show --seed 10 --screenshot "$TMP/s10.bmp"
expect 0 "--seed 8" -- "$RIPPLE" $H --size 64x48 --frames 30 --no-show --seed 8 --screenshot "$TMP/s8.bmp"
same "$TMP/s010.bmp" "$TMP/s10.bmp" "seed 010 is ten"
differ "$TMP/s010.bmp" "$TMP/s8.bmp" "seed 010 is not octal"

# headless there is no window to be too large
expect 0 "large field scaled, headless" -- "$RIPPLE" $H --size 4200x100 --scale 4 --frames 1
expect 2 "large field scaled, in a window" -- "$RIPPLE" --size 4200x100 --scale 4 --frames 1

# outputs: standard output by identity, not by name (a link to /dev/stdout
# while stdout is a pipe carries the data; the report goes to stderr)
ln -s /dev/stdout "$TMP/to-stdout.rpl"
"$RIPPLE" $H --size 32x24 --frames 3 --save-state "$TMP/to-stdout.rpl" 2>"$TMP/err" | cat >"$TMP/piped.rpl"
same "$TMP/piped.rpl" "$TMP/file.rpl" "state written through a link to standard output (a pipe)"
grep -q "^ripple: 3 frames" "$TMP/err" && ok || bad "the report did not move to stderr: $(head -c 200 "$TMP/err")"

# two outputs that are one file are refused before any work
expect 2 "two outputs, one name" -- "$RIPPLE" $H --size 32x24 --frames 2 --audio-out "$TMP/x.bmp" --screenshot "$TMP/x.bmp"
expect 2 "three outputs, one name" -- "$RIPPLE" $H --size 32x24 --frames 2 --audio-out "$TMP/x.bmp" --screenshot "$TMP/x.bmp" --save-state "$TMP/x.bmp"
expect 2 "two outputs, one file by two paths" -- "$RIPPLE" $H --size 32x24 --frames 2 --save-state "$TMP/y.rpl" --screenshot "$TMP/cwd/../y.rpl"
absent "$TMP/x.bmp" "$TMP/y.rpl"
echo keep >"$TMP/z.rpl"
ln "$TMP/z.rpl" "$TMP/z2.bmp"
expect 2 "two outputs, one file by two hard links" -- "$RIPPLE" $H --size 32x24 --frames 2 --save-state "$TMP/z.rpl" --screenshot "$TMP/z2.bmp"
[ "$(cat "$TMP/z.rpl")" = keep ] && ok || bad "a file named twice was written"
mkdir "$TMP/rec"
expect 2 "an output among the recorded frames" -- "$RIPPLE" $H --size 32x24 --frames 2 --record "$TMP/rec" --screenshot "$TMP/rec/../rec/frame-000001.png"
absent "$TMP/rec/frame-000001.png"
expect 0 "an output beside the recorded frames" -- "$RIPPLE" $H --size 32x24 --frames 2 --record "$TMP/rec" --screenshot "$TMP/rec/frame-1.png"
expect 0 "two outputs into /dev/null" -- "$RIPPLE" $H --size 32x24 --frames 2 --save-state /dev/null --audio-out /dev/null

# write errors on standard output are reported (exit 1, one line)
if [ -c /dev/full ]; then
    "$RIPPLE" --benchmark --json --headless --size 32x24 --frames 2 >/dev/full 2>"$TMP/err"; rc=$?
    [ "$rc" = 1 ] && [ "$(wc -l <"$TMP/err")" = 1 ] && grep -q "^ripple: .*standard output" "$TMP/err" && ok ||
        bad "--benchmark --json > /dev/full: exit $rc, stderr: $(head -c 300 "$TMP/err")"
    "$RIPPLE" $H --size 32x24 --frames 2 >/dev/full 2>"$TMP/err"; rc=$?
    [ "$rc" = 1 ] && [ "$(wc -l <"$TMP/err")" = 1 ] && ok || bad "report > /dev/full: exit $rc, stderr: $(head -c 300 "$TMP/err")"
else
    echo "smoke: no /dev/full here, write errors on stdout skipped"
fi

# a headless run stopped by a signal removes its temporary files and
# exits as shells expect (env resets SIGINT, which sh ignores in & jobs)
for pair in INT:130 TERM:143 HUP:129; do
    sig=${pair%%:*}; want=${pair#*:}
    mkdir "$TMP/sig$sig"
    env --default-signal=INT "$RIPPLE" $H --size 64x48 --frames 1000000 --record "$TMP/sig$sig" \
        --audio-out "$TMP/sig$sig/a.wav" >/dev/null 2>&1 &
    pid=$!
    i=0
    while [ $i -lt 300 ] && ! ls -A "$TMP/sig$sig" | grep -q 'frame-000005'; do sleep 0.1; i=$((i + 1)); done
    kill -s "$sig" "$pid"
    wait "$pid"; rc=$?
    [ "$rc" = "$want" ] && ok || bad "SIG$sig during a headless run: exit $rc, want $want"
    left=$(ls -A "$TMP/sig$sig" | grep '\.tmp$')
    [ -z "$left" ] && ok || bad "SIG$sig left temporary files: $left"
    [ ! -e "$TMP/sig$sig/a.wav" ] && ok || bad "SIG$sig: an unfinished WAV file was put in place"
done

# a replaced file never keeps set-uid or set-gid bits
echo old >"$TMP/suid.rpl"
chmod 6755 "$TMP/suid.rpl"
expect 0 "replace a set-uid file" -- "$RIPPLE" $H --size 32x24 --frames 2 --save-state "$TMP/suid.rpl"
[ "$(stat -c %a "$TMP/suid.rpl")" = 755 ] && ok || bad "a replaced file's mode is $(stat -c %a "$TMP/suid.rpl"), want 755"

# read-only targets and sticky folders, as an unprivileged user
if [ "$(id -u)" != 0 ]; then
    AS_USER=""
elif command -v setpriv >/dev/null 2>&1; then
    AS_USER="setpriv --reuid=nobody --regid=nogroup --clear-groups"
elif command -v runuser >/dev/null 2>&1; then
    AS_USER="runuser -u nobody --"
else
    AS_USER=none
    echo "smoke: neither setpriv nor runuser: read-only and sticky targets skipped"
fi
if [ "$AS_USER" != none ]; then
    # the binary and its picture where that user can reach them
    U=$(mktemp -d /tmp/ripple-user-XXXXXX)
    chmod 755 "$U"
    mkdir "$U/assets" "$U/w" "$U/sticky"
    cp "$RIPPLE" "$U/ripple"
    cp assets/background.png "$U/assets/"
    chmod 755 "$U/ripple" "$U/assets"
    chmod 644 "$U/assets/background.png"
    chmod 777 "$U/w"
    chmod 1777 "$U/sticky"
    me=$(id -u)
    echo keep >"$U/w/ro.rpl"
    chmod 444 "$U/w/ro.rpl"
    [ "$me" = 0 ] && chown nobody:nogroup "$U/w/ro.rpl"
    expect 2 "replace a read-only file" -- $AS_USER "$U/ripple" $H --size 32x24 --frames 2 --save-state "$U/w/ro.rpl"
    grep -q "read-only" "$TMP/err" && ok || bad "read-only target: reason not given: $(head -c 200 "$TMP/err")"
    [ "$(cat "$U/w/ro.rpl")" = keep ] && ok || bad "a read-only file was replaced"
    chmod 644 "$U/w/ro.rpl"
    expect 0 "replace a file of one's own" -- $AS_USER "$U/ripple" $H --size 32x24 --frames 2 --save-state "$U/w/ro.rpl"
    if [ "$me" = 0 ]; then
        # another user's file in a folder everyone writes: writable by group only
        echo keep >"$U/w/other.rpl"
        chmod 644 "$U/w/other.rpl"
        expect 2 "replace another user's file" -- $AS_USER "$U/ripple" $H --size 32x24 --frames 2 --screenshot "$U/w/other.rpl"
        [ "$(cat "$U/w/other.rpl")" = keep ] && ok || bad "another user's read-only file was replaced"
        chgrp nogroup "$U/w/other.rpl"
        chmod 664 "$U/w/other.rpl"
        expect 0 "replace a file writable by one's group" -- $AS_USER "$U/ripple" $H --size 32x24 --frames 2 --save-state "$U/w/other.rpl"
        # a sticky folder: only the owner of the file or of the folder may replace it
        echo keep >"$U/sticky/theirs.rpl"
        chmod 666 "$U/sticky/theirs.rpl"
        expect 2 "replace another user's file in a sticky folder" -- timeout 10 $AS_USER "$U/ripple" $H --size 32x24 --frames 1000000000 --save-state "$U/sticky/theirs.rpl"
        grep -q "sticky" "$TMP/err" && ok || bad "sticky folder: reason not given: $(head -c 200 "$TMP/err")"
        [ "$(cat "$U/sticky/theirs.rpl")" = keep ] && ok || bad "a file in a sticky folder was replaced"
        expect 0 "a new file in a sticky folder" -- $AS_USER "$U/ripple" $H --size 32x24 --frames 2 --save-state "$U/sticky/mine.rpl"
        expect 0 "replace one's own file in a sticky folder" -- $AS_USER "$U/ripple" $H --size 32x24 --frames 2 --save-state "$U/sticky/mine.rpl"
    fi
    rm -rf "$U"
fi

# with stderr closed, no output file becomes stderr: a later error
# message must not end up inside the data
if [ -c /dev/full ]; then
    ln -s /dev/full "$TMP/full.png"
    "$RIPPLE" $H --size 32x24 --frames 3 --audio-out "$TMP/fd2.wav" --screenshot "$TMP/full.png" >/dev/null 2>&-; rc=$?
    [ "$rc" = 1 ] && ok || bad "a failed screenshot with stderr closed: exit $rc, want 1"
    grep -q "ripple" "$TMP/fd2.wav" && bad "an error message was written into the WAV file" || ok
    [ "$(wc -c <"$TMP/fd2.wav")" = 9644 ] && ok || bad "the WAV file is $(wc -c <"$TMP/fd2.wav") bytes, want 9644"
fi

# control characters in names are escaped: one line stays one line
expect 2 "a name holding a newline" -- "$RIPPLE" $H --frames 1 --save-state "$TMP/no
such/x.rpl"
grep -q 'no\\nsuch' "$TMP/err" && ok || bad "newline in a name not escaped: $(cat "$TMP/err")"

# the screenshot key in a window takes a free name and never replaces a
# file: one it cannot read is passed over, and with all 9,999 names taken
# nothing is written (the folder in memory where there is one: 9,999 files)
if [ "$WINDOW" = 1 ] && command -v xvfb-run >/dev/null 2>&1 && command -v xdotool >/dev/null 2>&1; then
    cat >"$TMP/key-s.sh" <<'EOF2'
"$@" >/dev/null 2>&1 &
pid=$!
wid=$(timeout 10 xdotool search --sync --onlyvisible --pid "$pid" --name '^ripple$' 2>/dev/null | head -n 1)
if [ -n "$wid" ] && timeout 10 xdotool windowfocus --sync "$wid" && timeout 10 xdotool key s; then
    sleep 0.3
    timeout 10 xdotool key q
fi
i=0
while [ $i -lt 50 ] && kill -0 "$pid" 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
kill "$pid" 2>/dev/null
wait "$pid"
EOF2
    SHOTS=$(mktemp -d /dev/shm/ripple-shots-XXXXXX 2>/dev/null || mktemp -d "$TMP/shots-XXXXXX")
    key_s() {
        ( cd "$SHOTS" && timeout 60 xvfb-run -a -s "-screen 0 640x480x24" sh "$TMP/key-s.sh" \
            "$RIPPLE_ABS" --size 160x120 --frames 1200 --image "$OLDPWD/assets/background.png" )
    }
    echo keep >"$SHOTS/ripple-0001.png"
    chmod 000 "$SHOTS/ripple-0001.png"
    key_s
    rc=$?
    [ "$rc" = 0 ] && ok || bad "screenshot key: the demo ended with exit $rc"
    chmod 644 "$SHOTS/ripple-0001.png"
    [ "$(cat "$SHOTS/ripple-0001.png")" = keep ] && ok || bad "the screenshot key replaced an unreadable ripple-0001.png"
    head -c 4 "$SHOTS/ripple-0002.png" 2>/dev/null | grep -q PNG && ok || bad "the screenshot key wrote no ripple-0002.png: $(ls "$SHOTS" | head -5)"
    ( cd "$SHOTS" && seq -f 'ripple-%04g.png' 3 9998 | xargs touch )
    printf keep >"$SHOTS/ripple-9999.png"
    key_s
    [ "$(cat "$SHOTS/ripple-9999.png")" = keep ] && ok || bad "the screenshot key replaced ripple-9999.png with every name taken"
    [ "$(ls -A "$SHOTS" | wc -l)" = 9999 ] && ok || bad "the screenshot key left $(ls -A "$SHOTS" | wc -l) files, want 9999"
    rm -rf "$SHOTS"
fi

# --- the quick checks end with one window ---------------------------------------------
if [ "$QUICK" = 1 ]; then
    if command -v xvfb-run >/dev/null 2>&1; then
        expect 0 "window under Xvfb" -- xvfb-run -a -s "-screen 0 1024x768x24" \
            "$RIPPLE" --size 320x240 --frames 60 --screenshot "$TMP/qwin.bmp"
        expect 0 "background alone" -- "$RIPPLE" $H --size 320x240 --frames 1 --no-rain --no-autopilot --screenshot "$TMP/qbare.bmp"
        [ -s "$TMP/qwin.bmp" ] && ok || bad "the window wrote no screenshot"
        differ "$TMP/qwin.bmp" "$TMP/qbare.bmp" "window frame shows water"
    else
        bad "xvfb-run is not installed: cannot test the window"
    fi
    echo "smoke (quick): $pass passed, $fail failed"
    [ "$fail" = 0 ]
    exit
fi

# --- sound and recording ------------------------------------------------------------
# --audio-out: a 16-bit stereo 48 kHz WAV, 800 frames (1/60 s) a step, whose
# header is right; the same bytes on every run, kernel path and thread count
# (the drops come from the seeded rain and autopilot)
wav_header() { od -A n -t x1 -N 44 "$1" | tr -s ' \n' ' ' | sed 's/^ //; s/ $//'; }
# RIFF, 960036, WAVE, fmt , 16, PCM, 2 channels, 48000, 192000 bytes/s, 4, 16 bits, data, 960000
WAV300="52 49 46 46 24 a6 0e 00 57 41 56 45 66 6d 74 20 10 00 00 00 01 00 02 00 80 bb 00 00 00 ee 02 00 04 00 10 00 64 61 74 61 00 a6 0e 00"
expect 0 "sound into a WAV" -- "$RIPPLE" $H --size 160x120 --frames 300 --audio-out "$TMP/a.wav"
[ "$(wav_header "$TMP/a.wav")" = "$WAV300" ] && ok || bad "WAV header: $(wav_header "$TMP/a.wav")"
[ "$(wc -c <"$TMP/a.wav")" = $((44 + 300 * 800 * 4)) ] && ok || bad "WAV is $(wc -c <"$TMP/a.wav") bytes, want $((44 + 300 * 800 * 4))"
# not silent, never at full scale (the unit test measures the sound itself)
od -A n -t d2 -j 44 -v "$TMP/a.wav" | awk '{ for (i = 1; i <= NF; i++) { n++; s += $i * $i; a = $i < 0 ? -$i : $i; if (a > p) p = a } }
    END { r = sqrt(s / n); printf "rms %.0f peak %d\n", r, p; exit !(r > 50 && p > 1000 && p < 32767) }' >"$TMP/wav.txt" &&
    ok || bad "WAV samples: $(cat "$TMP/wav.txt")"
expect 0 "sound again" -- "$RIPPLE" $H --size 160x120 --frames 300 --audio-out "$TMP/a2.wav"
same "$TMP/a.wav" "$TMP/a2.wav" "WAV of the same seed"
RIPPLE_SIMD=c expect 0 "sound, scalar kernels, one thread" -- "$RIPPLE" $H --size 160x120 --frames 300 --threads 1 --audio-out "$TMP/a3.wav"
same "$TMP/a.wav" "$TMP/a3.wav" "WAV across kernels and threads"
expect 0 "sound, two threads" -- "$RIPPLE" $H --size 160x120 --frames 300 --threads 2 --simd c --audio-out "$TMP/a4.wav"
same "$TMP/a.wav" "$TMP/a4.wav" "WAV across threads"
expect 0 "sound, other seed" -- "$RIPPLE" $H --size 160x120 --frames 300 --seed 7 --audio-out "$TMP/a5.wav"
differ "$TMP/a.wav" "$TMP/a5.wav" "WAV of another seed"
# streams: standard output by name and a FIFO get the same bytes (the length
# is known headless, so the header is right from the start)
"$RIPPLE" $H --size 160x120 --frames 300 --audio-out /proc/self/fd/1 >"$TMP/as.wav" 2>/dev/null
same "$TMP/a.wav" "$TMP/as.wav" "WAV to standard output by name"
for name in /proc/self/fd/01 /dev/fd/001; do
    "$RIPPLE" $H --size 160x120 --frames 300 --audio-out "$name" >"$TMP/as2.wav" 2>"$TMP/as2.err"
    same "$TMP/a.wav" "$TMP/as2.wav" "--audio-out $name > file"
    grep -q "^ripple: 300 frames" "$TMP/as2.err" && ok || bad "--audio-out $name: no report on stderr: $(head -c 200 "$TMP/as2.err")"
done
mkfifo "$TMP/wfifo"
( cat "$TMP/wfifo" >"$TMP/af.wav" & )
expect 0 "sound into a FIFO" -- timeout 30 "$RIPPLE" $H --size 160x120 --frames 300 --audio-out "$TMP/wfifo"
sleep 0.2
same "$TMP/a.wav" "$TMP/af.wav" "WAV through a FIFO"
# bad targets: checked before the run, one line, nothing left behind
expect 2 "sound into a directory" -- timeout 30 "$RIPPLE" $H --frames 1000000 --audio-out "$TMP"
expect 2 "sound into a missing directory" -- "$RIPPLE" $H --frames 1 --audio-out "$TMP/no/such/a.wav"
ln -s "$TMP/victim" "$TMP/link.wav"
expect 2 "sound onto a symbolic link" -- "$RIPPLE" $H --frames 1 --audio-out "$TMP/link.wav"
[ "$(cat "$TMP/victim")" = precious ] && [ -L "$TMP/link.wav" ] && ok || bad "--audio-out wrote through a link"
expect 2 "sound longer than a WAV holds" -- timeout 30 "$RIPPLE" $H --frames 1000000000 --audio-out "$TMP/big.wav"
expect 2 "sound with --benchmark" -- "$RIPPLE" $H --benchmark --audio-out "$TMP/bm.wav"
expect 2 "--audio-out without a name" -- "$RIPPLE" $H --audio-out ""
absent "$TMP/big.wav" "$TMP/bm.wav"

# --record DIR: one picture a step, frame-000001 on; the same pixels on every
# kernel path and thread count (BMP, to compare bytes); the last is the
# screenshot of the same run, and frame 3 that of a run of 3 steps
mkdir "$TMP/rec1" "$TMP/rec2" "$TMP/rec3"
RS="--size 160x120"
expect 0 "record 5 steps" -- "$RIPPLE" $H $RS --frames 5 --record "$TMP/rec1" --record-format bmp --screenshot "$TMP/rec-last.bmp"
[ "$(ls "$TMP/rec1" | tr '\n' ' ')" = "frame-000001.bmp frame-000002.bmp frame-000003.bmp frame-000004.bmp frame-000005.bmp " ] &&
    ok || bad "record wrote: $(ls -A "$TMP/rec1" | tr '\n' ' ')"
same "$TMP/rec1/frame-000005.bmp" "$TMP/rec-last.bmp" "last recorded frame and the screenshot"
expect 0 "3 steps" -- "$RIPPLE" $H $RS --frames 3 --screenshot "$TMP/rec-3.bmp"
same "$TMP/rec1/frame-000003.bmp" "$TMP/rec-3.bmp" "recorded frame 3 and the screenshot after 3 steps"
RIPPLE_SIMD=c expect 0 "record, scalar, one thread" -- "$RIPPLE" $H $RS --frames 5 --threads 1 --record "$TMP/rec2/" --record-format=bmp
expect 0 "record, two threads" -- "$RIPPLE" $H $RS --frames 5 --threads 2 --record "$TMP/rec3" --record-format bmp
for i in 1 2 3 4 5; do
    same "$TMP/rec1/frame-00000$i.bmp" "$TMP/rec2/frame-00000$i.bmp" "recorded frame $i, scalar path"
    same "$TMP/rec1/frame-00000$i.bmp" "$TMP/rec3/frame-00000$i.bmp" "recorded frame $i, two threads"
done
mkdir "$TMP/recp"
expect 0 "record PNG" -- "$RIPPLE" $H --size 160x120 --frames 2 --bpp 8 --record "$TMP/recp"
head -c 8 "$TMP/recp/frame-000002.png" | od -c | grep -q "P   N   G" && ok || bad "recorded frame is not a PNG"
[ "$(ls -A "$TMP/recp" | wc -l)" = 2 ] && ok || bad "record PNG left: $(ls -A "$TMP/recp" | tr '\n' ' ')"
expect 2 "record into a missing directory" -- "$RIPPLE" $H --frames 1 --record "$TMP/no/such"
expect 2 "record into a file" -- "$RIPPLE" $H --frames 1 --record "$TMP/victim"
expect 2 "record format gif" -- "$RIPPLE" $H --frames 1 --record "$TMP/rec1" --record-format gif
expect 2 "record format alone" -- "$RIPPLE" $H --frames 1 --record-format bmp
expect 2 "record with --benchmark" -- "$RIPPLE" $H --benchmark --record "$TMP/rec1"
# a link planted among the frames is neither followed nor replaced: the
# run stops there with one line, and its sound file is not left half written
mkdir "$TMP/recl"
ln -s "$TMP/victim" "$TMP/recl/frame-000003.bmp"
expect 1 "record onto a planted link" -- "$RIPPLE" $H --size 64x48 --frames 5 --record "$TMP/recl" --record-format bmp \
    --audio-out "$TMP/recl.wav"
absent "$TMP/recl.wav"
[ "$(ls -A "$TMP" | grep -c '\.tmp$')" = 0 ] && ok || bad "temporary files left: $(ls -A "$TMP" | grep '\.tmp$')"
[ "$(wc -l <"$TMP/err")" = 1 ] && grep -q "symbolic link" "$TMP/err" && ok || bad "planted link: $(head -c 300 "$TMP/err")"
[ "$(cat "$TMP/victim")" = precious ] && [ -L "$TMP/recl/frame-000003.bmp" ] && ok || bad "--record wrote through a link"
[ ! -e "$TMP/recl/frame-000004.bmp" ] && ok || bad "--record went on after a failed frame"

# in a window: sound through SDL's dummy driver, through no driver at all and
# through this machine's own (none on CI): never a word on stderr
if [ "$WINDOW" = 1 ] && command -v xvfb-run >/dev/null 2>&1; then
    # with_audio DRIVER COMMAND...: COMMAND with SDL_AUDIODRIVER=DRIVER (default: unset)
    with_audio() {
        d=$1
        shift
        if [ "$d" = default ]; then env -u SDL_AUDIODRIVER "$@"; else env SDL_AUDIODRIVER="$d" "$@"; fi
    }
    for drv in dummy nosuchdriver default; do
        expect 0 "window with audio driver $drv" -- with_audio "$drv" xvfb-run -a -s "-screen 0 1024x768x24" \
            "$RIPPLE" --size 160x120 --frames 60
        [ ! -s "$TMP/err" ] && ok || bad "window with audio driver $drv: stderr: $(head -c 300 "$TMP/err")"
        expect 0 "muted window with audio driver $drv" -- with_audio "$drv" xvfb-run -a -s "-screen 0 1024x768x24" \
            "$RIPPLE" --size 160x120 --frames 30 --mute
        [ ! -s "$TMP/err" ] && ok || bad "muted window with audio driver $drv: stderr: $(head -c 300 "$TMP/err")"
    done
    # a window's sound into a file: the header is written at the end, with
    # the length it turned out to have
    mkdir "$TMP/recw"
    expect 0 "window sound into a WAV, recorded" -- env SDL_AUDIODRIVER=dummy xvfb-run -a -s "-screen 0 1024x768x24" \
        "$RIPPLE" --size 160x120 --frames 30 --audio-out "$TMP/w.wav" --record "$TMP/recw" --record-format bmp
    n=$(wc -c <"$TMP/w.wav")
    riff=$(od -A n -t u4 -j 4 -N 4 "$TMP/w.wav" | tr -d ' ')
    data=$(od -A n -t u4 -j 40 -N 4 "$TMP/w.wav" | tr -d ' ')
    [ "$riff" = $((n - 8)) ] && [ "$data" = $((n - 44)) ] && [ $(((n - 44) % 3200)) = 0 ] && [ "$n" -gt 44 ] &&
        ok || bad "window WAV: $n bytes, RIFF size $riff, data size $data"
    # as many pictures as steps of sound
    steps=$(((n - 44) / 3200))
    [ "$(ls "$TMP/recw" | wc -l)" = "$steps" ] && [ -s "$TMP/recw/frame-000001.bmp" ] &&
        ok || bad "window record: $(ls "$TMP/recw" | wc -l) pictures for $steps steps of sound"
fi

# --- shows ---------------------------------------------------------------------------
# bad show files: one line, "ripple: FILE:LINE:COLUMN: message", exit 2
mkdir "$TMP/shows"
S="$TMP/shows"
printf 'ripple-show 1\n@5 drop 0.5 0.5 0.05 300\n@10 jump 1\n' >"$S/cmd.show"
printf 'ripple-show 2\n' >"$S/version.show"
printf '# no header\ndrop 0.5 0.5 0.05 300\n' >"$S/header.show"
printf 'ripple-show 1\n@5 drop 0.5 0.5 0.05 9000\n' >"$S/weight.show"
printf 'ripple-show 1\n@9 cut\n@3 cut\n' >"$S/time.show"
printf 'ripple-show 1\ntext "RIPPLE 0.5 0.5 0.02 100\n' >"$S/string.show"
printf 'ripple-show 1\n@1 picture nope.png\n' >"$S/picture.show"
printf 'ripple-show 1\ncut\ncut\ncut\ncut\n' >"$S/budget.show"
show_err() { # show_err FILE WANT: the one line names FILE and says WANT
    expect 2 "bad show $(basename "$1")" -- "$RIPPLE" $H --frames 1 --show "$1"
    grep -qxF "ripple: $1$2" "$TMP/err" && ok || bad "bad show $1: $(head -c 300 "$TMP/err")"
}
show_err "$S/cmd.show" ":3:5: unknown command 'jump' (an optional one is written '?jump')"
show_err "$S/version.show" ":1:13: this is a ripple-show 2 file; this ripple plays version 1"
show_err "$S/header.show" ":2:1: expected \"ripple-show 1\" first (the format and its version)"
show_err "$S/weight.show" ":2:22: bad WEIGHT '9000': want a whole number -8192..8192"
show_err "$S/time.show" ":3:1: @3 goes back in time: the line before is at step 9"
show_err "$S/string.show" ":2:6: the string is not closed (a '\"' is missing)"
# four cuts in a step: 4 x (64 + 960 x 540) units, over the work budget
show_err "$S/budget.show" ":5:1: step 0 would cost 2073856 units of work, over the budget of 2073600 a step (stones, walls, cuts and commands: docs/shows.md)"
expect 2 "show naming a missing picture" -- "$RIPPLE" $H --frames 1 --show "$S/picture.show"
grep -q "^ripple: $S/picture.show:2:4: picture 'nope.png': cannot load image '$S/nope.png'" "$TMP/err" &&
    ok || bad "show's missing picture: $(head -c 300 "$TMP/err")"
# 8000 pictures of different names (links to one), each loaded once at
# start-up, then a missing one; and a missing name given twice is named
# where it first comes
mkdir "$S/pics"
expect 0 "a small picture" -- "$RIPPLE" $H --size 8x8 --frames 1 --screenshot "$S/pics/p.png"
awk 'BEGIN { print "ripple-show 1"; for (i = 1; i <= 8000; i++) print "+1 picture p" i ".png";
             print "+1 picture nope.png" }' >"$S/pics/many.show"
(cd "$S/pics" && i=1 && while [ $i -le 8000 ]; do ln -s p.png "p$i.png"; i=$((i + 1)); done)
expect 2 "8000 pictures and a missing one" -- "$RIPPLE" $H --size 8x8 --frames 1 --show "$S/pics/many.show"
grep -q "^ripple: $S/pics/many.show:8002:4: picture 'nope.png': cannot load" "$TMP/err" &&
    ok || bad "8000 pictures: $(head -c 300 "$TMP/err")"
printf 'ripple-show 1\n@1 picture p.png\n+1 picture nope.png\n+1 picture p.png\n+1 picture nope.png\n' >"$S/pics/twice.show"
expect 2 "a missing picture twice" -- "$RIPPLE" $H --size 8x8 --frames 1 --show "$S/pics/twice.show"
grep -q "^ripple: $S/pics/twice.show:3:4: picture 'nope.png': cannot load" "$TMP/err" &&
    ok || bad "missing picture twice: $(head -c 300 "$TMP/err")"
show_err "$S/none.show" ": No such file or directory"
show_err "$S" ": Is a directory"
expect 2 "empty --show" -- "$RIPPLE" $H --frames 1 --show ""
expect 2 "--show and --no-show" -- "$RIPPLE" $H --frames 1 --show "$S/cmd.show" --no-show
expect 2 "--show with --benchmark" -- "$RIPPLE" $H --benchmark --show "$S/cmd.show"
expect 2 "--no-show with --benchmark" -- "$RIPPLE" $H --benchmark --no-show

# a good show: its drop lands in step 5, not before
printf 'ripple-show 1\n# one stone\n@5 drop 0.5 0.5 0.05 300\n@10 end\n' >"$S/one.show"
expect 0 "still water" -- "$RIPPLE" $H --size 160x120 --frames 5 --no-rain --no-autopilot --save-state "$S/flat.rpl"
expect 0 "show, 5 steps" -- "$RIPPLE" $H --size 160x120 --frames 5 --show "$S/one.show" --save-state "$S/one5.rpl"
same "$S/flat.rpl" "$S/one5.rpl" "a show's drop came early"
expect 0 "show, 6 steps" -- "$RIPPLE" $H --size 160x120 --frames 6 --show "$S/one.show" --save-state "$S/one6.rpl"
differ "$S/flat.rpl" "$S/one6.rpl" "a show's drop did not come"
expect 0 "show from a pipe" -- sh -c "cat '$S/one.show' | '$RIPPLE' $H --size 160x120 --frames 6 --show /dev/stdin --save-state '$S/pipe6.rpl'"
same "$S/one6.rpl" "$S/pipe6.rpl" "a show read from a pipe"
expect 0 "show held back by --no-autopilot" -- "$RIPPLE" $H --size 160x120 --frames 6 --show "$S/one.show" --no-autopilot --save-state "$S/off6.rpl"
same "$S/flat.rpl" "$S/off6.rpl" "--no-autopilot did not hold the show back"

# the default show plays by default, headless too, the same on any thread count
expect 0 "default show" -- "$RIPPLE" $H --size 160x120 --frames 700 --threads 1 --save-state "$S/d1.rpl"
expect 0 "default show by name" -- "$RIPPLE" $H --size 160x120 --frames 700 --threads 3 \
    --show assets/shows/default.show --save-state "$S/d3.rpl"
same "$S/d1.rpl" "$S/d3.rpl" "the default show on 1 and 3 threads"
expect 0 "autopilot instead" -- "$RIPPLE" $H --size 160x120 --frames 700 --no-show --save-state "$S/ap.rpl"
differ "$S/d1.rpl" "$S/ap.rpl" "--no-show played the show"

# a picture beside the show replaces the background: flat water shows it
expect 0 "a picture for a show" -- "$RIPPLE" $H --size 160x120 --frames 60 --screenshot "$S/wavy.bmp"
printf 'ripple-show 1\npicture wavy.bmp\n@2 picture default\n@3 end\n' >"$S/pic.show"
expect 0 "show with a picture" -- "$RIPPLE" $H --size 160x120 --frames 1 --show "$S/pic.show" --screenshot "$S/p1.bmp"
expect 0 "bare picture" -- "$RIPPLE" $H --size 160x120 --frames 1 --no-autopilot --no-rain --screenshot "$S/p0.bmp"
differ "$S/p0.bmp" "$S/p1.bmp" "the show's picture was not shown"
expect 0 "show's picture, then default" -- "$RIPPLE" $H --size 160x120 --frames 3 --show "$S/pic.show" --screenshot "$S/p3.bmp"
expect 0 "bare picture, 3 frames" -- "$RIPPLE" $H --size 160x120 --frames 3 --no-autopilot --no-rain --screenshot "$S/p03.bmp"
same "$S/p03.bmp" "$S/p3.bmp" "'picture default' did not bring the picture back"

# --- the timedemo: the same water whatever shows it -------------------------------
crc_of() { sed -n 's/^water *crc32 \([0-9a-f]*\)$/\1/p' "$1"; }
expect 0 "benchmark headless" -- "$RIPPLE" $H --benchmark --size 160x120 --frames 200
cp "$TMP/out" "$TMP/bm0.txt"
BM_CRC=$(crc_of "$TMP/bm0.txt")
[ -n "$BM_CRC" ] && ok || bad "benchmark report has no crc32 line: $(cat "$TMP/bm0.txt")"
fps=$(sed -n 's/^frames .*: \([0-9.]*\) fps average.*/\1/p' "$TMP/bm0.txt")
awk -v f="${fps:-0}" 'BEGIN { exit !(f > 0) }' && ok || bad "benchmark fps is not > 0: '$fps'"
for v in "--bpp 16" "--bpp 8 --threads 1" "--simd c --threads 2" "--threads 1 --scale 3"; do
    # shellcheck disable=SC2086
    expect 0 "benchmark headless $v" -- "$RIPPLE" $H --benchmark --size 160x120 --frames 200 $v
    [ "$(crc_of "$TMP/out")" = "$BM_CRC" ] && ok || bad "benchmark $v: water differs ($(crc_of "$TMP/out") vs $BM_CRC)"
done
expect 0 "benchmark JSON" -- "$RIPPLE" $H --benchmark --size 160x120 --frames 200 --json
if command -v python3 >/dev/null 2>&1; then
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["fps"] > 0 and d["frames"] == 200; print(d["crc32"])' "$TMP/out" >"$TMP/jcrc" 2>&1 &&
        [ "$(cat "$TMP/jcrc")" = "$BM_CRC" ] && ok || bad "benchmark JSON invalid or its crc differs: $(cat "$TMP/jcrc")"
else
    grep -q "\"crc32\":\"$BM_CRC\"" "$TMP/out" && ok || bad "benchmark JSON has another crc"
fi
expect 2 "--json without --benchmark" -- "$RIPPLE" $H --json
expect 2 "bad --present" -- "$RIPPLE" $H --present gpu
RIPPLE_PRESENT=gpu expect 2 "bad RIPPLE_PRESENT" -- "$RIPPLE" $H
expect 2 "--benchmark with --seed" -- "$RIPPLE" $H --benchmark --seed 3
expect 2 "--benchmark with --no-rain" -- "$RIPPLE" $H --benchmark --no-rain

# every scene of the timedemo, chosen as a user would: named in its report,
# with CPU time beside the wall time, its final state's CRC (and the show's
# sound's) the same on every kernel path this machine has, thread count and
# depth, and in the JSON report; in a window further down
bench_flags() {
    case $1 in
        wave) echo "--model wave";;
        show) echo "--bench-scene show";;
        show-1) echo "--bench-scene show-1";;
        side) echo "--scene side";;
        side-waves) echo "--scene side --surface waves";;
        side-2) echo "--bench-scene side-2";;
    esac
}
crcs_of() {
    sed -n -e 's/^sound *crc32 \([0-9a-f]*\) .*/sound \1/p' -e 's/^water *crc32 \([0-9a-f]*\)$/water \1/p' \
        -e 's/^state *crc32 \([0-9a-f]*\)$/state \1/p' "$1" | tr '\n' ' '
}
BM_PATHS=$("$BENCH" --list-paths)
[ -n "$BM_PATHS" ] && ok || bad "ripple-bench --list-paths lists no path"
for s in $BENCH_SCENES; do
    # shellcheck disable=SC2046 # the words are the flags
    expect 0 "timedemo $s" -- "$RIPPLE" $H --benchmark $(bench_flags "$s") --size 160x120 --frames 80
    cp "$TMP/out" "$TMP/bm-$s.txt"
    crcs_of "$TMP/bm-$s.txt" >"$TMP/crc-$s"
    grep -q "^ripple .* benchmark, scene $(version_of "$s")$" "$TMP/out" && ok || bad "timedemo $s: report names another scene: $(head -n 1 "$TMP/out")"
    case $s in side*) want="state [0-9a-f]\{8\} $";; show*) want="sound [0-9a-f]\{8\} water [0-9a-f]\{8\} $";;
        *) want="water [0-9a-f]\{8\} $";; esac
    grep -q "^$want" "$TMP/crc-$s" && ok || bad "timedemo $s: want CRC lines '$want', got '$(cat "$TMP/crc-$s")'"
    tail -n 1 "$TMP/out" | grep -q -e "^water *crc32 " -e "^state *crc32 " && ok || bad "timedemo $s: the report does not end with the state's CRC"
    grep -q "^cpu/frame .* main thread [0-9.]*$" "$TMP/out" && grep -q "^process  *[0-9.]* cpu ms/frame" "$TMP/out" &&
        ok || bad "timedemo $s: no CPU times: $(cat "$TMP/out")"
    i=0
    for p in $BM_PATHS; do
        i=$((i + 1))
        v="--simd $p --threads $((i % 3 + 1))"
        [ $i = 1 ] && v="$v --bpp 8 --json"
        # shellcheck disable=SC2046,SC2086
        expect 0 "timedemo $s: $v" -- "$RIPPLE" $H --benchmark $(bench_flags "$s") --size 160x120 --frames 80 $v
        if [ $i = 1 ]; then
            python3 -c 'import json,sys
d=json.load(open(sys.argv[1])); c=d["cpu_ms_per_frame"]
assert d["scene"] == sys.argv[3] and d["scene"] == "%s-%d" % (sys.argv[2], d["scene_version"]), d["scene"]
assert d["frames"] == 80 and d["fps"] > 0 and d["fps_1pct_low"] > 0 and d["rounds"] == 1
assert c["process"] > 0 and c["main_thread"] > 0 and d["cpu_seconds"] > 0 and d["ms_per_frame"]["total"] > 0
print(("sound %s " % d["sound_crc32"] if "sound_crc32" in d else "") +
      ("state" if sys.argv[2].startswith("side") else "water") + " " + d["crc32"] + " ", end="")' \
                "$TMP/out" "${s%-[0-9]}" "$(version_of "$s")" >"$TMP/jcrc" 2>&1 &&
                [ "$(cat "$TMP/jcrc")" = "$(cat "$TMP/crc-$s")" ] && ok || bad "timedemo $s: JSON invalid or its CRCs differ: $(cat "$TMP/jcrc")"
        else
            [ "$(crcs_of "$TMP/out")" = "$(cat "$TMP/crc-$s")" ] && ok ||
                bad "timedemo $s, $v: the state differs ($(crcs_of "$TMP/out")vs $(cat "$TMP/crc-$s"))"
        fi
    done
done
# the scenes differ from one another, and the classic one from its own CRC
# at another size: the CRC sees the state
[ "$(sort -u "$TMP"/crc-* | wc -l)" = 7 ] && ok || bad "two timedemo scenes end with the same CRC: $(cat "$TMP"/crc-*)"
[ "$(crc_of "$TMP/bm-busy.txt")" != "$BM_CRC" ] && ok || bad "80 and 200 frames of busy-2 end in the same water"

# busy-1 keeps the CRC it has always had (tests/test_play.c pins it too), and
# wave-1 its own, whatever busy-2 and wave-2 became
expect 0 "busy-1 by name" -- "$RIPPLE" $H --benchmark --bench-scene busy-1 --frames 2000 --threads 2
[ "$(crc_of "$TMP/out")" = f22a7f17 ] && ok || bad "busy-1, 2000 frames: water crc32 $(crc_of "$TMP/out"), want f22a7f17"
grep -q "^ripple .* benchmark, scene busy-1$" "$TMP/out" && ok || bad "busy-1: $(head -n 1 "$TMP/out")"
expect 0 "wave-1 by name" -- "$RIPPLE" $H --benchmark --bench-scene wave-1 --frames 2000 --threads 2
[ "$(crc_of "$TMP/out")" = fb5d4375 ] && ok || bad "wave-1, 2000 frames: water crc32 $(crc_of "$TMP/out"), want fb5d4375"

# rounds: each plays the scene from its start, so every round ends with the
# CRC a single round of as many frames ends with (a restart that leaves
# anything behind fails the run); the report gives the median round, its
# spread and the 1% low from a nanosecond clock
for s in busy show side; do
    n=3
    [ "$s" = side ] && n=2 # the slowest of the three
    # shellcheck disable=SC2046
    expect 0 "timedemo $s, one round of 2000" -- "$RIPPLE" $H --benchmark $(bench_flags "$s") --size 160x120 --frames 2000
    crcs_of "$TMP/out" >"$TMP/one-$s"
    # shellcheck disable=SC2046
    expect 0 "timedemo $s, $n rounds" -- "$RIPPLE" $H --benchmark $(bench_flags "$s") --size 160x120 --rounds $n
    [ "$(crcs_of "$TMP/out")" = "$(cat "$TMP/one-$s")" ] && ok ||
        bad "timedemo $s, $n rounds: $(crcs_of "$TMP/out")against one round's $(cat "$TMP/one-$s")"
    grep -q "^rounds  *$n of 2000 frames after a warm-up round: median [0-9.]* fps, ±[0-9.]*% (.*), every round's crc the same$" "$TMP/out" &&
        ok || bad "timedemo $s, $n rounds: no rounds line: $(cat "$TMP/out")"
    grep -q "^frames  *$((n * 2000)) in " "$TMP/out" && ok || bad "timedemo $s, $n rounds: not $((n * 2000)) frames: $(grep ^frames "$TMP/out")"
done
expect 0 "timedemo JSON, 4 rounds" -- "$RIPPLE" $H --benchmark --size 64x48 --rounds 4 --json
python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
assert d["rounds"] == 4 and d["round_frames"] == 2000 and d["frames"] == 8000, d
assert d["warmup_rounds"] == 1 and d["warmup_fps"] > 0 and len(d["round_fps"]) == 4, d
assert d["round_fps_min"] <= d["median_fps"] <= d["round_fps_max"] and d["median_fps"] > 0, d
assert abs(d["spread"] - 100 * (d["round_fps_max"] - d["round_fps_min"]) / (d["round_fps_max"] + d["round_fps_min"])) < 1e-9
assert d["noisy"] == (d["spread_middle"] > 5) and 0 <= d["spread_middle"] <= d["spread"], d
assert d["fps"] > 0 and d["cpu_ms_per_frame"]["process"] > 0
# a nanosecond clock, not 10 us bins: the 1% low is no 100000/k fps
k = 1e5 / d["fps_1pct_low"]
assert abs(k - round(k)) > 1e-6, d["fps_1pct_low"]
assert d["share"].startswith("ripple %s busy-2 64x48x32 " % d["version"]) and d["crc32"] in d["share"]' \
    "$TMP/out" 2>"$TMP/py" && ok || bad "timedemo JSON, 4 rounds: $(cat "$TMP/py") $(head -c 600 "$TMP/out")"
# a run by the clock plays three rounds at least, and for as long as asked
expect 0 "timedemo --seconds 0.3" -- "$RIPPLE" $H --benchmark --size 64x48 --seconds 0.3 --json
python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
assert d["rounds"] >= 3 and d["frames"] == 2000 * d["rounds"], d["rounds"]' "$TMP/out" 2>"$TMP/py" &&
    ok || bad "timedemo --seconds 0.3: $(cat "$TMP/py")"
# --share: one line, the same figures as the report's
expect 0 "timedemo --share" -- "$RIPPLE" $H --benchmark --size 160x120 --rounds 2 --threads 1 --share
[ "$(wc -l <"$TMP/out")" = 1 ] && ok || bad "--share: not one line: $(cat "$TMP/out")"
grep -q "^ripple [0-9][0-9.]* busy-2 160x120x32 [a-z0-9]* 1t headless: [0-9]* fps (±[0-9.]*%), 1% low [0-9]*, crc $(cat "$TMP/one-busy" | sed 's/water \([0-9a-f]*\) /\1/'), .*, [A-Za-z][A-Za-z]* [0-9][0-9.]*$" "$TMP/out" &&
    ok || bad "--share: $(cat "$TMP/out") (crc $(cat "$TMP/one-busy"))"

# --- walls and edges -----------------------------------------------------------
expect 2 "bad --edges" -- "$RIPPLE" $H --frames 1 --edges sideways
expect 2 "--edges without a value" -- "$RIPPLE" $H --frames 1 --edges
expect 2 "missing walls picture" -- "$RIPPLE" $H --frames 1 --walls "$TMP/nope.png" --save-state "$TMP/w.rpl"
expect 2 "text file as walls" -- "$RIPPLE" $H --frames 1 --walls "$TMP/text.png" --save-state "$TMP/w.rpl"
expect 2 "walls in the timedemo" -- "$RIPPLE" $H --benchmark --walls assets/background.png
absent "$TMP/w.rpl"
# the picture's dark tiles are walls
expect 0 "walls and absorbing edges" -- "$RIPPLE" $H --size 160x120 --frames 60 --walls assets/background.png --edges absorb --save-state "$TMP/w.rpl" --screenshot "$TMP/w.bmp"
grep -q WALL "$TMP/w.rpl" && ok || bad "a state with walls has no WALL section"
differ "$TMP/w.bmp" "$TMP/h.bmp" "walls drawn"
# the state carries the walls and edges: one run of 2 steps from it and two
# runs of 1 step, the second from the first's state, end in the same bytes
expect 0 "walls state, 2 steps" -- "$RIPPLE" $H --frames 2 --no-rain --no-autopilot --load-state "$TMP/w.rpl" --save-state "$TMP/w2.rpl"
expect 0 "walls state, 1 step" -- "$RIPPLE" $H --frames 1 --no-rain --no-autopilot --load-state "$TMP/w.rpl" --save-state "$TMP/w1.rpl"
expect 0 "walls state, 1 more step" -- "$RIPPLE" $H --frames 1 --no-rain --no-autopilot --load-state "$TMP/w1.rpl" --save-state "$TMP/w11.rpl"
same "$TMP/w2.rpl" "$TMP/w11.rpl" "walls and edges round-trip through a state"
# and they matter: the same steps with reflecting edges and no walls differ
expect 0 "walls state, other edges" -- "$RIPPLE" $H --frames 2 --no-rain --no-autopilot --load-state "$TMP/w.rpl" --edges reflect --save-state "$TMP/w2r.rpl"
differ "$TMP/w2.rpl" "$TMP/w2r.rpl" "edges from the command line"

# --- the wave model ------------------------------------------------------------
expect 0 "--help" -- "$RIPPLE" --help
grep -q -- "--model M" "$TMP/out" && grep -q -- "--attenuation A" "$TMP/out" && ok || bad "--help does not list --model and the wave settings"
for bad_wave in "--speed 1e9" "--viscosity -1" "--attenuation 0" "--dt nan" "--model foo" \
        "--model" "--spacing 0" "--speed fast" "--dt 1e400" "--attenuation 1.0001" "--speed 0" \
        "--speed 42.5" "--speed 42.4264 --attenuation 1" "--model wave --benchmark --speed 30"; do
    # shellcheck disable=SC2086 # the words are the flags
    expect 2 "bad wave flags $bad_wave" -- "$RIPPLE" $H --frames 2 $bad_wave --save-state "$TMP/bw.rpl"
done
absent "$TMP/bw.rpl"
expect 2 "--speed 1e9 says why" -- "$RIPPLE" $H --frames 2 --speed 1e9
grep -q "unstable: c\*dt/d" "$TMP/err" && ok || bad "--speed 1e9: $(cat "$TMP/err")"
expect 0 "wave water, defaults" -- "$RIPPLE" $H --size 160x120 --frames 90 --no-show --model wave --screenshot "$TMP/wave.bmp" --save-state "$TMP/wave.rpl"
expect 0 "classic water, same run" -- "$RIPPLE" $H --size 160x120 --frames 90 --no-show --screenshot "$TMP/classic.bmp"
differ "$TMP/wave.bmp" "$TMP/classic.bmp" "--model wave changes the water"
expect 0 "wave water, explicit classic" -- "$RIPPLE" $H --size 160x120 --frames 90 --no-show --model classic --screenshot "$TMP/classic2.bmp"
same "$TMP/classic.bmp" "$TMP/classic2.bmp" "--model classic is the default"
expect 0 "wave water, settings" -- "$RIPPLE" $H --size 160x120 --frames 90 --no-show --model wave --speed 40 --viscosity 0.3 --spacing 1 --dt 0.0166667 --attenuation 0.995 --screenshot "$TMP/wave2.bmp"
differ "$TMP/wave.bmp" "$TMP/wave2.bmp" "wave settings change the water"
# the settings in other units: c 400, d 10 and u 1.2 are the defaults' k and u*dt
expect 0 "wave water, other units" -- "$RIPPLE" $H --size 160x120 --frames 90 --no-show --model wave --speed 240 --spacing 10 --screenshot "$TMP/wave3.bmp"
same "$TMP/wave.bmp" "$TMP/wave3.bmp" "only k, u*dt and alpha shape the water"
# every path and thread count: the same bytes
for p in c auto; do
    expect 0 "wave water on $p, 1 thread" -- "$RIPPLE" $H --size 160x120 --frames 90 --no-show --model wave --simd "$p" --threads 1 --save-state "$TMP/wave-$p.rpl"
    same "$TMP/wave.rpl" "$TMP/wave-$p.rpl" "wave water on path $p"
done
# k = 1/2, u = 0 and alpha 1 - 1/32 is the classic rule: the same bytes
# (with the classic discs, which weigh the same on both models; the
# smooth stones weigh less on the wave model)
expect 0 "classic water, classic stones" -- "$RIPPLE" $H --size 160x120 --frames 90 --no-show --stones classic --screenshot "$TMP/classic4.bmp"
expect 0 "wave water in the classic setting" -- "$RIPPLE" $H --size 160x120 --frames 90 --no-show --stones classic --model wave --speed 1 --spacing 1 --dt 0.70710678 --viscosity 0 --attenuation 0.96875 --screenshot "$TMP/classic3.bmp"
same "$TMP/classic4.bmp" "$TMP/classic3.bmp" "the wave model in the classic setting"

# --- the side scene ----------------------------------------------------------------
expect 0 "--help" -- "$RIPPLE" --help
grep -q -- "--scene S" "$TMP/out" && grep -q -- "--surface M" "$TMP/out" && grep -q -- "--spread S" "$TMP/out" && ok || bad "--help does not list --scene, --surface and the springs' settings"
for bad_side in "--scene foo" "--scene" "--surface foo" "--surface" "--spread 0.6" "--spread 0.51" \
        "--spread nan" "--spread -0.1" "--stiffness -1" "--stiffness inf" "--damping 2" \
        "--passes 0" "--passes 33" "--passes 1 --spread 0.34" "--ends sideways" \
        "--scene side --benchmark --passes 4" "--scene side --load-state $TMP/h.rpl" "--scene side --walls assets/background.png"; do
    # shellcheck disable=SC2086 # the words are the flags
    expect 2 "bad side flags $bad_side" -- "$RIPPLE" $H --frames 2 $bad_side --screenshot "$TMP/bs.bmp"
done
expect 2 "--scene side --save-state" -- "$RIPPLE" $H --frames 2 --scene side --save-state "$TMP/bs.rpl"
absent "$TMP/bs.bmp" "$TMP/bs.rpl"
expect 2 "--spread 0.6 says why" -- "$RIPPLE" $H --frames 2 --spread 0.6
grep -q "spread" "$TMP/err" && ok || bad "--spread 0.6: $(cat "$TMP/err")"
for b in 32 16 8; do
    expect 0 "side scene at $b bits" -- "$RIPPLE" $H --size 320x240 --frames 240 --scene side --bpp $b --screenshot "$TMP/side$b.bmp"
    grep -q "side scene" "$TMP/out" && ok || bad "side scene at $b bits: report says $(cat "$TMP/out")"
done
expect 0 "the pool, same size" -- "$RIPPLE" $H --size 320x240 --frames 240 --screenshot "$TMP/pool.bmp"
differ "$TMP/side32.bmp" "$TMP/pool.bmp" "--scene side shows another scene"
expect 0 "side scene again" -- "$RIPPLE" $H --size 320x240 --frames 240 --scene side --screenshot "$TMP/side32b.bmp"
same "$TMP/side32.bmp" "$TMP/side32b.bmp" "the side scene is the same run after run"
expect 0 "side scene, other seed" -- "$RIPPLE" $H --size 320x240 --frames 240 --scene side --seed 7 --screenshot "$TMP/side32s.bmp"
differ "$TMP/side32.bmp" "$TMP/side32s.bmp" "the seed drives the side scene"
expect 0 "side scene, analytic waves" -- "$RIPPLE" $H --size 320x240 --frames 240 --scene side --surface waves --screenshot "$TMP/sidew.bmp"
differ "$TMP/side32.bmp" "$TMP/sidew.bmp" "--surface waves changes the water"
expect 0 "side scene, springs set" -- "$RIPPLE" $H --size 320x240 --frames 240 --scene side --stiffness 0.03 --damping 0.02 --spread 0.2 --passes 4 --ends absorb --screenshot "$TMP/sidek.bmp"
differ "$TMP/side32.bmp" "$TMP/sidek.bmp" "the springs' settings change the water"
expect 0 "side scene, small" -- "$RIPPLE" $H --size 160x120 --frames 30 --scene side
# splashes sound like drips: 600 frames are 600/60 s of sound, not all silent
expect 0 "side scene, sound" -- "$RIPPLE" $H --size 320x240 --frames 600 --scene side --audio-out "$TMP/side.wav"
[ "$(wc -c <"$TMP/side.wav")" = $((44 + 600 * 800 * 4)) ] && ok || bad "side scene sound: $(wc -c <"$TMP/side.wav") bytes"
loud=$(od -A n -t d2 -j 44 -v "$TMP/side.wav" | tr -s ' ' '\n' | awk '$1 > 2000 || $1 < -2000 { n++ } END { print n + 0 }')
[ "$loud" -gt 100 ] && ok || bad "side scene sound: only $loud loud samples"
expect 0 "side scene, large" -- "$RIPPLE" $H --size 1920x1080 --frames 5 --scene side

# --- bench ---------------------------------------------------------------------
expect 0 "bench short run" -- "$BENCH" --size 64x48 --frames 2
grep -q "seed" "$TMP/out" && ok || bad "bench prints no seed baseline row"
# each goal only at the size it was set for: none at 64x48; at 640x480 the
# frame's against the seed, not the 1920x1080 ones of threads and calm
grep -q "goal" "$TMP/out" && bad "bench at 64x48 prints a goal: $(grep goal "$TMP/out")" || ok
expect 0 "bench at 640x480" -- "$BENCH" --size 640x480 --frames 2
grep -q "640x480, 1 thread, vs seed (goal >= 6x" "$TMP/out" && ok ||
    bad "bench at 640x480 lacks its goal against the seed: $(grep "vs seed" "$TMP/out")"
[ "$(grep -c "goal" "$TMP/out")" = 1 ] && grep -q "calm 640x480 on .*sleeping on vs off: " "$TMP/out" && ok ||
    bad "bench at 640x480 prints another size's goal: $(grep "goal" "$TMP/out")"
expect 0 "bench json" -- "$BENCH" --size 64x48 --frames 2 --json
grep -q '"speedup_vs_seed"' "$TMP/out" && ok || bad "bench JSON has no speedup_vs_seed"
expect 2 "bench bad flag" -- "$BENCH" --bogus
expect 2 "bench bad size" -- "$BENCH" --size 0x0
# --instr-run on a side scene plays the timedemo's scene: after its 360
# warm-up frames and 40 more, the state the demo's timedemo ends in after
# 400 frames (its side line's "state alone", as the bench draws without
# the art), drawn or not, on every path (each read back from the scene),
# the frames drawn the same bytes on every path
instr_state() { sed -n 's/^instr-run: path \([a-z0-9]*\) (kernels \1), .* state crc32 \([0-9a-f]*\) (frame 400), checksum \([0-9a-f]*\)$/\2 \3/p' "$TMP/out"; }
for sc in side-3 side-waves-3; do
    expect 0 "timedemo $sc, 400 frames" -- "$RIPPLE" $H --benchmark --bench-scene $sc --size 160x120 --frames 400
    tdstate=$(sed -n 's/^side .*; the state alone crc32 \([0-9a-f]*\)$/\1/p' "$TMP/out")
    sums=
    for p in $("$BENCH" --list-paths); do
        for part in frame step; do
            expect 0 "bench --instr-run $p --bench-scene $sc --part $part" -- \
                "$BENCH" --instr-run $p --bench-scene $sc --size 160x120 --frames 40 --part $part
            got=$(instr_state)
            [ -n "$tdstate" ] && [ "${got% *}" = "$tdstate" ] && ok ||
                bad "bench --instr-run $p --bench-scene $sc --part $part: '$got', not the timedemo's state $tdstate: $(cat "$TMP/out")"
            [ $part = frame ] && sums="$sums ${got#* }"
        done
    done
    [ "$(echo $sums | tr ' ' '\n' | sort -u | wc -l)" = 1 ] && ok || bad "bench --instr-run --bench-scene $sc: the paths drew other frames:$sums"
done
expect 2 "bench --instr-run seed on a side scene" -- "$BENCH" --instr-run seed --bench-scene side-2
expect 2 "bench --instr-run on a pool scene" -- "$BENCH" --instr-run c --bench-scene busy-2
expect 2 "bench --instr-run on a retired side scene" -- "$BENCH" --instr-run c --bench-scene side-1
expect 2 "bench --instr-run, a side scene and --model" -- "$BENCH" --instr-run c --bench-scene side-2 --model wave
expect 2 "bench --instr-run, a side scene and --threads" -- "$BENCH" --instr-run c --bench-scene side-2 --threads 2
expect 2 "bench --instr-run, a side scene too small" -- "$BENCH" --instr-run c --bench-scene side-2 --size 64x48
expect 2 "bench --bench-scene alone" -- "$BENCH" --bench-scene side-2
# --look finds the default show from any working directory, as the demo
# finds its data; it measures at least one step, or refuses
BENCH_ABS=$(cd "$(dirname "$BENCH")" && pwd)/$(basename "$BENCH")
mkdir -p "$TMP/lookcwd"
( cd "$TMP/lookcwd" && "$BENCH_ABS" --look --size 64x48 --frames 60 ) >"$TMP/out" 2>"$TMP/err" &&
    grep -q "^# ripple-bench --look: .*/shows/default.show, 64x48" "$TMP/out" && ok ||
    bad "bench --look away from the source tree: $(head -c 300 "$TMP/err")"
expect 2 "bench --look, --frames under --every" -- "$BENCH" --look --size 64x48 --frames 10 --every 20
grep -q -- "--look: 10 steps (--frames) are fewer than --every 20: no step would be measured" "$TMP/err" &&
    ok || bad "bench --look, --frames under --every: $(head -c 300 "$TMP/err")"
expect 2 "bench --look, --frames under the default --every" -- "$BENCH" --look --size 64x48 --frames 10
printf 'ripple-show 1\n@0 wall clear\n@20 wall clear\n' >"$TMP/short.show"
expect 0 "bench --look, a show shorter than --every's default" -- "$BENCH" --look --size 64x48 --show "$TMP/short.show"
grep -q "^ *21 .*" "$TMP/out" && grep -q "^# worst speckle .* at step 21," "$TMP/out" && ok ||
    bad "bench --look, a short show: not measured at its last step: $(tail -n 2 "$TMP/out")"
expect 0 "bench --look, nothing speckled" -- "$BENCH" --look --size 64x48 --frames 120 --every 60
grep -q "^# worst speckle .* at step [1-9]" "$TMP/out" && ok ||
    bad "bench --look reports a step it never measured: $(tail -n 1 "$TMP/out")"
# --look measures any scene, the strength in use on each line
expect 0 "bench --look --no-show" -- "$BENCH" --look --no-show --size 64x48 --frames 120
grep -q "^# ripple-bench --look: the autopilot and the rain, smooth stones, 64x48, classic water" "$TMP/out" &&
    grep -q "^ *120 .* 4/16$" "$TMP/out" && ok || bad "bench --look --no-show: $(head -c 300 "$TMP/out")"
expect 0 "bench --look --no-show --stones classic" -- "$BENCH" --look --no-show --stones classic --size 64x48 --frames 120 --model wave
grep -q "classic stones, 64x48, wave water" "$TMP/out" && grep -q "^ *120 .* 16/16$" "$TMP/out" && ok ||
    bad "bench --look --stones classic: $(head -c 300 "$TMP/out")"
expect 0 "bench --look --person" -- "$BENCH" --look --person --size 64x48 --frames 120 --every 60
grep -q "^# ripple-bench --look: the scripted person and the rain" "$TMP/out" && grep -q "^ *60 " "$TMP/out" && ok ||
    bad "bench --look --person: $(head -c 300 "$TMP/out")"
for sc in busy-1:classic:classic:16 wave-1:classic:wave:16 busy-2:smooth:classic:4 wave-2:smooth:wave:4; do
    IFS=: read -r name stones water s <<EOS
$sc
EOS
    expect 0 "bench --look --bench-scene $name" -- "$BENCH" --look --bench-scene "$name" --size 64x48 --frames 60
    grep -q "^# ripple-bench --look: $name, $stones stones, 64x48, $water water" "$TMP/out" &&
        grep -q "^ *60 .* $s/16$" "$TMP/out" && ok || bad "bench --look --bench-scene $name: $(head -c 300 "$TMP/out")"
done
expect 0 "bench --look --bench-scene show-1" -- "$BENCH" --look --bench-scene show-1 --size 64x48 --frames 60
grep -q "^# ripple-bench --look: show-1 .*/show-1.show" "$TMP/out" && ok || bad "bench --look show-1: $(head -c 300 "$TMP/out")"
expect 0 "bench --look --bench-scene show-2" -- "$BENCH" --look --bench-scene show-2 --size 64x48 --frames 60
grep -q "^# ripple-bench --look: show-2 .*/default.show" "$TMP/out" && ok || bad "bench --look show-2: $(head -c 300 "$TMP/out")"
expect 2 "bench --look, unknown scene" -- "$BENCH" --look --bench-scene busy-9
expect 2 "bench --look, --no-show and --person" -- "$BENCH" --look --no-show --person
expect 2 "bench --no-show without --look" -- "$BENCH" --no-show
expect 2 "bench --look, a scene and --model" -- "$BENCH" --look --bench-scene busy-2 --model wave
expect 2 "bench --look, a scene and --person" -- "$BENCH" --look --bench-scene busy-2 --person
expect 2 "bench --look, --stones on a show" -- "$BENCH" --look --stones classic
expect 2 "bench --look, --stones bad" -- "$BENCH" --look --no-show --stones round
expect 2 "bench --look, --show and --no-show" -- "$BENCH" --look --no-show --show "$TMP/short.show"
# the demo's stones and its scripted person
expect 2 "--stones bad" -- "$RIPPLE" $H --stones round
expect 2 "--stones with --benchmark" -- "$RIPPLE" --benchmark --headless --stones classic
expect 2 "--person with --benchmark" -- "$RIPPLE" --benchmark --headless --person
expect 0 "--stones smooth" -- "$RIPPLE" $H --size 160x120 --frames 200 --no-show --stones smooth --screenshot "$TMP/st-s.bmp"
expect 0 "--stones classic" -- "$RIPPLE" $H --size 160x120 --frames 200 --no-show --stones classic --screenshot "$TMP/st-c.bmp"
differ "$TMP/st-s.bmp" "$TMP/st-c.bmp" "--stones classic lays other stones"
expect 0 "--person" -- "$RIPPLE" $H --size 160x120 --frames 200 --no-show --person --screenshot "$TMP/st-p.bmp"
differ "$TMP/st-s.bmp" "$TMP/st-p.bmp" "--person plays other stones than the autopilot"

# --- a real window under Xvfb ---------------------------------------------------------
if [ "$WINDOW" = 1 ]; then
    if command -v xvfb-run >/dev/null 2>&1; then
        expect 0 "window under Xvfb" -- xvfb-run -a -s "-screen 0 1024x768x24" \
            "$RIPPLE" --frames 120 --screenshot "$TMP/win.bmp"
        expect 0 "background alone" -- "$RIPPLE" $H --frames 1 --no-rain --no-autopilot --screenshot "$TMP/bare.bmp"
        differ "$TMP/win.bmp" "$TMP/bare.bmp" "window frame shows water"
        expect 0 "scaled window under Xvfb" -- xvfb-run -a -s "-screen 0 1024x768x24" \
            "$RIPPLE" --size 320x200 --scale 3 --frames 30 --no-vsync
        for b in 8 16; do
            expect 0 "$b-bit window under Xvfb" -- xvfb-run -a -s "-screen 0 1024x768x24" \
                "$RIPPLE" --size 320x240 --scale 2 --bpp $b --frames 60 --screenshot "$TMP/win$b.bmp"
            [ -s "$TMP/win$b.bmp" ] && ok || bad "$b-bit window wrote no screenshot"
        done
        for p in surface texture; do
            for b in 32 8; do
                expect 0 "side scene in a window, $p at $b bits" -- xvfb-run -a -s "-screen 0 1024x768x24" \
                    "$RIPPLE" --scene side --size 320x240 --scale 2 --frames 120 --bpp $b --present $p --screenshot "$TMP/sidewin.bmp"
                differ "$TMP/sidewin.bmp" "$TMP/pool.bmp" "side scene in a window, $p at $b bits"
            done
        done
        for p in surface texture auto; do
            for b in 32 16 8; do
                expect 0 "benchmark in a window, $p at $b bits" -- xvfb-run -a -s "-screen 0 1024x768x24" \
                    "$RIPPLE" --benchmark --size 160x120 --scale 2 --frames 200 --bpp $b --present $p
                [ "$(crc_of "$TMP/out")" = "$BM_CRC" ] && ok || bad "window benchmark $p at $b bits: water differs from headless"
                case $p in auto) want="surface\|texture";; *) want=$p;; esac
                grep -q "^present *\($want\)" "$TMP/out" && ok || bad "window benchmark $p names no present mode: $(grep present "$TMP/out")"
            done
        done
        # every timedemo scene in a window ends in the state it ends in headless
        for s in $BENCH_SCENES; do
            for p in surface texture; do
                # shellcheck disable=SC2046 # the words are the flags
                expect 0 "timedemo $s in a window, $p" -- env SDL_AUDIODRIVER=dummy xvfb-run -a -s "-screen 0 1024x768x24" \
                    "$RIPPLE" --benchmark $(bench_flags "$s") --size 160x120 --frames 80 --present $p --threads 2
                [ "$(crcs_of "$TMP/out")" = "$(cat "$TMP/crc-$s")" ] && ok ||
                    bad "timedemo $s in a window, $p: the state differs from headless ($(crcs_of "$TMP/out")vs $(cat "$TMP/crc-$s"))"
                grep -q "^cpu/frame .* [a-z]*+present [0-9.]* " "$TMP/out" && ok || bad "timedemo $s in a window, $p: no CPU time of the drawing and presenting"
            done
        done
        # the results screen: a run of rounds in a window stays on its last
        # frame, the figures over it, until a key (the report printed
        # already); --frames and --no-results end by themselves
        expect 0 "timedemo in a window, --no-results" -- timeout -k 5 30 xvfb-run -a -s "-screen 0 1024x768x24" \
            "$RIPPLE" --benchmark --size 160x120 --rounds 2 --no-results
        grep -q "^rounds  *2 of 2000 frames" "$TMP/out" && ok || bad "window --rounds 2 --no-results: $(cat "$TMP/out")"
        if command -v xdotool >/dev/null 2>&1; then
            cat >"$TMP/results.sh" <<'EOF2'
"$@" >"$OUT" 2>&1 &
pid=$!
i=0
while [ $i -lt 200 ] && ! grep -q crc32 "$OUT"; do sleep 0.1; i=$((i + 1)); done
sleep 1
kill -0 "$pid" 2>/dev/null && echo waiting >"$OUT.state"
wid=$(timeout 10 xdotool search --onlyvisible --pid "$pid" --name '^ripple$' 2>/dev/null | head -n 1)
[ -n "$wid" ] && timeout 10 xdotool windowfocus --sync "$wid" && timeout 10 xdotool key space
i=0
while [ $i -lt 50 ] && kill -0 "$pid" 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
kill -0 "$pid" 2>/dev/null && echo "still open after a key" >>"$OUT.state" && kill "$pid"
wait "$pid"
EOF2
            OUT="$TMP/results.out" expect 0 "timedemo in a window, results screen" -- timeout -k 5 40 \
                xvfb-run -a -s "-screen 0 640x480x24" sh "$TMP/results.sh" "$RIPPLE" --benchmark --size 160x120 --rounds 2
            [ "$(cat "$TMP/results.out.state" 2>/dev/null)" = waiting ] && ok ||
                bad "results screen: the window did not wait for a key, or stayed after one: $(cat "$TMP/results.out.state" 2>/dev/null)"
            grep -q "^rounds  *2 of 2000 frames" "$TMP/results.out" && ok || bad "results screen run: $(head -c 300 "$TMP/results.out")"
        fi
        RIPPLE_PRESENT=surface expect 0 "RIPPLE_PRESENT=surface" -- xvfb-run -a -s "-screen 0 1024x768x24" \
            "$RIPPLE" --benchmark --size 160x120 --frames 50
        grep -q "^present *surface" "$TMP/out" && ok || bad "RIPPLE_PRESENT=surface not honoured"
        # --present auto decides without OpenGL in the demo's process: the
        # environment asking for software rendering gives the surface, and
        # without a GPU device the surface costs auto no more memory than
        # --present surface (within 10 MB; the OpenGL probe took some 75 MB)
        LIBGL_ALWAYS_SOFTWARE=1 expect 0 "auto, software asked for" -- xvfb-run -a -s "-screen 0 1024x768x24" \
            "$RIPPLE" --benchmark --size 160x120 --frames 20
        grep -q "^present *surface (software rendering asked for by the environment;" "$TMP/out" && ok ||
            bad "auto with LIBGL_ALWAYS_SOFTWARE: $(grep present "$TMP/out")"
        if [ ! -e /dev/dri ] && [ ! -e /dev/nvidiactl ] && [ -x /usr/bin/time ]; then
            for p in surface auto; do
                expect 0 "resident memory, $p" -- xvfb-run -a -s "-screen 0 1024x768x24" \
                    /usr/bin/time -f "maxrss %M" "$RIPPLE" --benchmark --frames 20 --present $p
                sed -n 's/^maxrss \([0-9]*\)$/\1/p' "$TMP/err" >"$TMP/rss-$p"
                [ $p = surface ] || grep -q "^present *surface (no GPU device;" "$TMP/out" && ok ||
                    bad "auto without a GPU device: $(grep present "$TMP/out")"
            done
            rs=$(cat "$TMP/rss-surface") ra=$(cat "$TMP/rss-auto")
            [ -n "$rs" ] && [ -n "$ra" ] && [ "$ra" -le $((rs + 10240)) ] && ok ||
                bad "--present auto's maximum RSS ${ra:-?} kB is over --present surface's ${rs:-?} kB + 10 MB"
        fi
        # at scale 1 the water is refracted straight into the window's pixels,
        # with the overlay laid over them or not: the same water
        for v in "" --no-overlay; do
            expect 0 "benchmark straight into the window $v" -- xvfb-run -a -s "-screen 0 1024x768x24" \
                "$RIPPLE" --benchmark --size 160x120 --frames 200 --present surface $v
            [ "$(crc_of "$TMP/out")" = "$BM_CRC" ] && ok || bad "direct surface benchmark $v: water differs from headless"
            grep -q "^present *surface (.*refracted into the window" "$TMP/out" && ok ||
                bad "a 32-bit window at scale 1 was not drawn into directly: $(grep present "$TMP/out")"
        done

        # --- resize, fullscreen, minimise and restore while the demo runs --------------
        # xdotool works the window of a running demo in both presentation paths:
        # resizes (bigger, smaller than the field, odd, a single pixel), F twice,
        # minimise and restore.  Once in a normal run at the display's pace, ended
        # by the q key, with grabs of the window (surface path, when ImageMagick
        # is here); once in a --benchmark run, whose water must come out the same
        # as headless.  Every run is under `timeout`: nothing here can hang.
        if command -v xdotool >/dev/null 2>&1; then
            # winops.sh quit|run LOG SHOT FINAL COMMAND...: runs COMMAND (the demo)
            # on $DISPLAY and works its window; one "ok WHAT" or "bad WHAT" line per
            # step in LOG, the demo's output in LOG.out and LOG.err, xdotool's in
            # LOG.xdo; the demo's exit status.  quit: the demo runs at its own pace
            # and ends with q.  run: a benchmark, held (SIGSTOP) while each change
            # is made and let go for 30 ms after it, so its frames last past the
            # last change whatever the machine's speed; it ends by itself.  SHOT,
            # when not empty: two grabs of the window just after it is enlarged
            # (SHOT-a, -b) and two at the end (SHOT-c, -d).  FINAL: the last size.
            cat >"$TMP/winops.sh" <<'EOF'
how=$1 log=$2 shot=$3 final=$4
shift 4
: >"$log"
"$@" >"$log.out" 2>"$log.err" &
pid=$!
check() { if [ "$1" = 0 ]; then echo "ok $2"; else echo "bad $2"; fi >>"$log"; }
xdo() { timeout 10 xdotool "$@" >>"$log.xdo" 2>&1; }
# step WHAT ARGS...: xdotool ARGS as a check
step() {
    what=$1
    shift
    if xdo "$@"; then check 0 "$what"; else check 1 "$what (xdotool: $(tail -n 1 "$log.xdo"))"; fi
}
# after a change the demo must still run; if it ended, say after what, and stop
alive() {
    kill -0 "$pid" 2>/dev/null && return 0
    wait "$pid"
    rc=$?
    check 1 "the demo ended (exit $rc) after: $1"
    exit "$rc"
}
# run: the benchmark held while a change is made, then 30 ms of frames;
# quit: the demo at 60 Hz, given some frames after each change
hold() { [ "$how" = quit ] || kill -STOP "$pid" 2>/dev/null; }
go() {
    if [ "$how" = quit ]; then sleep 0.15; else kill -CONT "$pid" 2>/dev/null; sleep 0.03; fi
    alive "$1"
}
grab() {
    [ -n "$shot" ] || return 0
    sleep 0.2 # more frames at 60 Hz after the change
    timeout 10 import -window "$wid" "$shot-$1.png" >>"$log.xdo" 2>&1
    sleep 0.2
    timeout 10 import -window "$wid" "$shot-$2.png" >>"$log.xdo" 2>&1
}
size() {
    hold
    step "resize to $1" windowsize --sync "$wid" "${1%x*}" "${1#*x}"
    go "resize to $1"
}

wid=$(timeout 10 xdotool search --sync --onlyvisible --pid "$pid" --name '^ripple$' 2>>"$log.xdo" | head -n 1)
[ -n "$wid" ]
check $? "the window appears"
alive "opening the window"
if [ -z "$wid" ]; then
    kill -TERM "$pid" # SDL makes it a quit event
    sleep 1
    kill -KILL "$pid" 2>/dev/null
    wait "$pid"
    exit 1
fi
# --sync waits until the X server has the new size: no window manager
# here to refuse or adjust it
size 640x480
grab a b
for s in 100x80 333x211 1x1 481x359; do size $s; done
# F twice; keys go to the focused window (XTEST).  Without a window manager
# SDL's request for _NET_WM_STATE_FULLSCREEN reaches no one: the X window
# keeps its size (SDL takes it for the desktop's until the next resize), but
# the demo goes through both switches all the same.
hold
step "focus the window" windowfocus --sync "$wid"
step "key f (fullscreen)" key f
go "key f"
hold
step "key f again (windowed)" key f
go "key f again"
# the wave model's keys (not in the benchmark, whose water must match):
# W, then the speed pushed past the edge of stability (refused with a
# note), the viscosity down to 0 and up; the demo must go on
if [ "$how" = quit ]; then
    hold
    step "key w (wave water)" key w
    go "key w"
    step "keys x (wave speed up, past the edge)" key x x x x x x x x
    go "keys x"
    step "keys v, b (viscosity down to 0, up)" key v v v v v v v v v v v v b b
    go "keys v b"
    step "keys z, w (slower, classic again)" key z z w
    go "keys z w"
    # the side view: Tab there, a crate and a ball dropped, the surface
    # switched, the bodies cleared, and back
    hold
    step "key Tab (side view)" key Tab
    go "key Tab"
    step "click (a crate)" mousemove --window "$wid" 200 150 click 1
    step "key k, right click (an iron ball)" key k mousemove --window "$wid" 300 120 click 3
    go "drops"
    step "keys w, c (waves, cleared)" key w c
    go "keys w c"
    step "key Tab (the pool)" key Tab
    go "key Tab back"
fi
# Minimise and restore.  windowminimize asks the window manager to iconify
# the window, which unmaps it; bare Xvfb has none, so the request does
# nothing and the window is unmapped and mapped again by hand, which is what
# minimise and restore amount to.  windowactivate needs a window manager
# too (_NET_ACTIVE_WINDOW): windowfocus stands in for it when it fails.
hold
xdo windowminimize "$wid"
step "minimise (unmap)" windowunmap --sync "$wid"
go "minimise"
hold
step "restore (map)" windowmap --sync "$wid"
if xdo windowactivate --sync "$wid"; then
    check 0 "activate after restore"
else
    step "focus after restore" windowfocus --sync "$wid"
fi
go "restore"
# a last resize gives SDL the X window's size back after the fullscreen switches
size "$final"
grab c d
alive "the window changes"

if [ "$how" = quit ]; then
    step "key q" key q
    i=0
    while kill -0 "$pid" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
    if kill -0 "$pid" 2>/dev/null; then
        check 1 "q quits within 5 s"
        kill -TERM "$pid"
        sleep 1
        kill -KILL "$pid" 2>/dev/null
    fi
fi
wait "$pid"
EOF
            # the helper's lines as checks
            winops_tally() {
                while read -r res what; do
                    if [ "$res" = ok ]; then ok; else bad "$2: $what"; fi
                done <"$1"
            }
            # the demo's stderr: no error and no sanitizer report
            winops_quiet() {
                if grep -E -q 'ERROR|Sanitizer|runtime error|X Error|Assertion|Segmentation' "$1.err"; then
                    bad "$2: stderr: $(head -c 300 "$1.err")"
                else
                    ok
                fi
            }
            IM=0
            if command -v import >/dev/null 2>&1 && command -v convert >/dev/null 2>&1 &&
                convert -version 2>/dev/null | grep -q ImageMagick; then
                IM=1
            else
                echo "smoke: ImageMagick is not installed, window grabs skipped"
            fi
            im_fx() { convert "$@" info: 2>/dev/null; }
            X="-screen 0 1024x768x24"
            for p in surface texture; do
                # a normal run at the display's pace (60 Hz), ended by q
                shots=
                [ "$p" = surface ] && [ "$IM" = 1 ] && shots="$TMP/wo-$p"
                expect 0 "window changes, $p, ended by q" -- timeout -k 5 25 xvfb-run -a -s "$X" \
                    sh "$TMP/winops.sh" quit "$TMP/wo-$p" "$shots" 640x480 \
                    "$RIPPLE" --size 160x120 --scale 2 --present $p
                winops_tally "$TMP/wo-$p" "window changes, $p"
                winops_quiet "$TMP/wo-$p" "window changes, $p"
                # the window 640x480, the field 160x120: the picture fills the window
                # at scale 4, is not black and moves (not a stale frame), just after
                # the first resize and again after all the changes
                if [ -n "$shots" ]; then
                    for g in a:b:"after enlarging" c:d:"after all the changes"; do
                        f1=$shots-${g%%:*}.png; rest=${g#*:}; f2=$shots-${rest%%:*}.png; when=${rest#*:}
                        if ! [ -s "$f1" ] || ! [ -s "$f2" ]; then
                            bad "window grab $p $when: no grab"
                            continue
                        fi
                        mean=$(im_fx "$f1" -format "%[fx:mean]")
                        awk -v m="${mean:-0}" 'BEGIN { exit !(m > 0.05) }' && ok ||
                            bad "window grab $p $when: black (mean ${mean:-none})"
                        lit=$(im_fx "$f1" -colorspace gray -threshold 1% -format "%[fx:mean]")
                        awk -v m="${lit:-0}" 'BEGIN { exit !(m > 0.8) }' && ok ||
                            bad "window grab $p $when: the picture covers ${lit:-none} of the window, want > 0.8"
                        moved=$(im_fx "$f1" "$f2" -compose difference -composite -format "%[fx:maxima]")
                        awk -v m="${moved:-0}" 'BEGIN { exit !(m > 0) }' && ok ||
                            bad "window grab $p $when: two grabs 0.2 s apart are the same (a stale picture)"
                    done
                fi

                # the timedemo under the same changes: the same water as headless.
                # Its frames are not paced: a run about 6 s long at this machine's
                # speed (measured first; at 4 s a run under a busy machine's
                # swings ended before its window was found), compared with a headless run of as many
                # frames (the 200 of BM_CRC end before the first change).
                expect 0 "benchmark speed in a window, $p" -- timeout -k 5 25 xvfb-run -a -s "$X" \
                    "$RIPPLE" --benchmark --size 160x120 --scale 2 --frames 200 --present $p
                [ "$(crc_of "$TMP/out")" = "$BM_CRC" ] && ok || bad "benchmark speed run $p: water differs from headless"
                fps=$(sed -n 's/^frames .*: \([0-9.]*\) fps average.*/\1/p' "$TMP/out")
                n=$(awk -v f="${fps:-0}" 'BEGIN { n = int(f * 6); if (n < 1000) n = 1000; if (n > 100000) n = 100000; print n }')
                expect 0 "benchmark headless, $n frames" -- "$RIPPLE" $H --benchmark --size 160x120 --frames "$n"
                crc_n=$(crc_of "$TMP/out")
                expect 0 "window changes, $p, benchmark of $n frames" -- timeout -k 5 25 xvfb-run -a -s "$X" \
                    sh "$TMP/winops.sh" run "$TMP/wb-$p" "" 320x240 \
                    "$RIPPLE" --benchmark --size 160x120 --scale 2 --frames "$n" --present $p
                winops_tally "$TMP/wb-$p" "benchmark window changes, $p"
                winops_quiet "$TMP/wb-$p" "benchmark window changes, $p"
                crc_w=$(crc_of "$TMP/wb-$p.out")
                if [ -z "$crc_w" ]; then
                    bad "benchmark $p under window changes: no report"
                else
                    [ "$crc_w" = "$crc_n" ] && ok ||
                        bad "benchmark $p under window changes: water differs ($crc_w vs headless ${crc_n:-none})"
                    grep -q "^present *$p" "$TMP/wb-$p.out" && ok || bad "benchmark under window changes names no $p present mode"
                fi
            done
        else
            echo "smoke: xdotool is not installed, window change tests (resize, fullscreen, minimise) skipped"
        fi

        # --- the overlay at the window's own pixels ---------------------------------
        # At --scale 3 the figures' panel has the size in pixels it has at --scale 1
        # (its text does not grow with the scale) in the same corner, over the
        # upscaled water, in both present modes and both scenes; and O shows it and
        # hides it again without a stale pixel: the window, paused (N), is the same
        # before and after.  The screen is read from Xvfb's frame buffer file
        # (-fbdir, an XWD image), so no grabbing tool is needed.
        if command -v xdotool >/dev/null 2>&1 && command -v python3 >/dev/null 2>&1; then
            # ovlgrab.sh FBDIR OUT WAIT COMMAND...: runs the demo (started with the
            # overlay off), waits WAIT s (the scene's first note gone), pauses it with
            # N and copies the screen to OUT-a, shows the overlay (OUT-b), hides it
            # (OUT-c), quits with q
            cat >"$TMP/ovlgrab.sh" <<'EOF'
fb=$1 out=$2 wait=$3
shift 3
"$@" >"$out.log" 2>&1 &
pid=$!
wid=$(timeout 10 xdotool search --sync --onlyvisible --pid "$pid" --name '^ripple$' 2>/dev/null | head -n 1)
if [ -z "$wid" ]; then kill "$pid"; wait "$pid"; exit 1; fi
sleep "$wait"
key() { timeout 5 xdotool key --window "$wid" "$1"; sleep 0.3; }
key n
cp "$fb/Xvfb_screen0" "$out-a.xwd"
key o
cp "$fb/Xvfb_screen0" "$out-b.xwd"
key o
cp "$fb/Xvfb_screen0" "$out-c.xwd"
key q
wait "$pid"
EOF
            # ovlpanel.py OUT: "X Y W H SAME" of the three grabs: where the overlay
            # changed the top half of the window (the figures' panel; the hint and
            # the notes lie in the bottom half), from the window's corner, and 1 if
            # the screen with the overlay hidden again is the one before it was shown
            cat >"$TMP/ovlpanel.py" <<'EOF'
import struct, sys
def load(path):
    d = open(path, 'rb').read()
    f = struct.unpack('>25I', d[:100])
    w, h, bpp, bpl = f[4], f[5], f[11], f[12]
    if bpp != 32:
        sys.exit('want 32-bit pixels, got %d' % bpp)
    off = f[0] + f[19] * 12
    return w, h, [d[off + y * bpl:off + y * bpl + w * 4] for y in range(h)]
w, h, a = load(sys.argv[1] + '-a.xwd')
b, c = load(sys.argv[1] + '-b.xwd')[2], load(sys.argv[1] + '-c.xwd')[2]
black = bytes(w * 4)
lit = [y for y in range(h) if a[y] != black]
if not lit:
    sys.exit('the screen is black')
wy, wh = lit[0], lit[-1] - lit[0] + 1
row = a[wy + wh // 2]
xs = [x for x in range(w) if row[4 * x:4 * x + 3] != b'\0\0\0']
wx = xs[0]
box = None
for y in range(wy, wy + wh // 2):
    if a[y] == b[y]:
        continue
    d = [x for x in range(w) if a[y][4 * x:4 * x + 4] != b[y][4 * x:4 * x + 4]]
    x0, x1 = d[0], d[-1]
    box = [x0, y, x1, y] if box is None else [min(box[0], x0), box[1], max(box[2], x1), y]
if box is None:
    sys.exit('O showed no overlay')
print(box[0] - wx, box[1] - wy, box[2] - box[0] + 1, box[3] - box[1] + 1, int(a == c))
EOF
            # ovl_run SCENE PRESENT SCALE WAIT: one run in an X server of its own,
            # its exit status into ov-...rc
            ovl_run() {
                mkdir -p "$TMP/fb-$1-$2-$3"
                timeout -k 5 30 xvfb-run -a -s "-screen 0 1024x768x24 -br -fbdir $TMP/fb-$1-$2-$3" \
                    sh "$TMP/ovlgrab.sh" "$TMP/fb-$1-$2-$3" "$TMP/ov-$1-$2-$3" "$4" "$RIPPLE" \
                    --scene "$1" --size 320x200 --scale "$3" --present "$2" --mute --no-overlay \
                    >"$TMP/ov-$1-$2-$3.run" 2>&1
                echo $? >"$TMP/ov-$1-$2-$3.rc"
            }
            # the side scene's first note lasts 3 s: its two runs wait that long
            # beside the pool's (each a second after the last, so that the servers
            # take different displays)
            ovl_run side surface 1 3.1 &
            side1=$!
            sleep 1
            ovl_run side texture 3 3.1 &
            side3=$!
            sleep 1
            for run in surface:1 surface:3 texture:1 texture:3; do
                ovl_run pool "${run%:*}" "${run#*:}" 0.2
            done
            wait "$side1" "$side3"
            for run in pool:surface:1 pool:surface:3 pool:texture:1 pool:texture:3 side:surface:1 \
                side:texture:3; do
                sc=${run%%:*} rest=${run#*:}; p=${rest%%:*} s=${rest#*:}
                f=$TMP/ov-$sc-$p-$s
                [ "$(cat "$f.rc" 2>/dev/null)" = 0 ] && ok ||
                    bad "overlay shown and hidden, $sc, $p, scale $s: exit $(cat "$f.rc" 2>/dev/null); $(head -c 300 "$f.run")"
                if python3 "$TMP/ovlpanel.py" "$f" >"$f.txt" 2>&1; then
                    ok
                else
                    bad "overlay $sc $p scale $s: $(tail -n 1 "$f.txt")"
                    : >"$f.txt"
                fi
            done
            for run in pool:surface:3 pool:texture:1 pool:texture:3 side:texture:3; do
                sc=${run%%:*} rest=${run#*:}; p=${rest%%:*} s=${rest#*:}
                # what was measured at scale 1 with the window's surface
                read -r x1 y1 w1 h1 same1 <"$TMP/ov-$sc-surface-1.txt" 2>/dev/null
                read -r x y w h same <"$TMP/ov-$sc-$p-$s.txt" 2>/dev/null
                # the same panel: in the same place, as tall, as wide but for a few
                # characters of the figures (they change as they are measured)
                if [ -n "${h:-}" ] && [ -n "${h1:-}" ] && [ "$x $y $h" = "$x1 $y1 $h1" ] &&
                    [ "$w" -le $((w1 + 12)) ] && [ "$w" -ge $((w1 - 12)) ]; then
                    ok
                else
                    bad "overlay $sc $p scale $s: the panel is ${w:-?}x${h:-?} at ${x:-?},${y:-?}, at scale 1 ${w1:-?}x${h1:-?} at ${x1:-?},${y1:-?}"
                fi
            done
            for f in "$TMP"/ov-*.txt; do
                read -r x y w h same <"$f" 2>/dev/null
                [ "${same:-0}" = 1 ] && ok ||
                    bad "overlay hidden again: the window differs from before it was shown (${f##*/})"
            done
        else
            echo "smoke: xdotool or python3 is not installed, the overlay's window test skipped"
        fi
    else
        bad "xvfb-run is not installed: cannot test the window"
    fi
fi

echo "smoke: $pass passed, $fail failed"
[ "$fail" = 0 ]
