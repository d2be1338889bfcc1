#!/bin/sh
# win.sh - the Windows build under Wine in Xvfb: its unit suites, its PEs' imports, and its demo and bench against the native ones, to the byte.
# usage: NATIVE_PATHS="c mmx ..." sh tests/win.sh win32|win64 WINBUILD RIPPLE BENCH
#
# WINBUILD is the directory of a `make ARCH=win32` (or win64): its
# tests/test_*.exe, libripple.dll, ripple.exe and ripple-bench.exe, and the
# prefix of the libraries (prefix/bin: SDL2.dll, SDL2_image.dll).  RIPPLE
# and BENCH are the native demo and bench of the same tree, run here for
# the figures the Windows ones must give.  Checks:
#   - the import check (tests/pe-imports.sh) refuses what it must: a PE
#     importing GetTickCount64, one importing strcpy_s from msvcrt, one of
#     subsystem version 6.0, built here;
#   - every shipped PE (the DLLs, and the programs) imports nothing Windows
#     XP lacks and asks for no newer Windows (win32: 5.1; win64: 5.2, XP x64);
#   - every unit suite that was built passes under Wine, once, on the best
#     path and with their quick counts (RIPPLE_TEST_QUICK: the slowest run
#     several times slower under Wine; the unit stage runs them in full);
#     the exactness suite (every 4th random case, as under qemu) runs every
#     path itself, and must list the native paths;
#   - the bench's paths agree, and its frames are the native bench's;
#   - with ripple.exe: the timedemo (--benchmark --headless, 2000 frames)
#     of busy-1, busy-2, wave-2, show-1 and show-2 on every path the CPU has gives
#     the native demo's CRCs (water, and show-1's sound) and says its path;
#     side-2 and side-waves-3 (500 frames at 320x240) the native state CRC; a window's screenshot at 32, 16 and 8 bits a
#     pixel is the native demo's, byte for byte, and so is the side view's;
#     bad flags exit 2 with the native message; a snapshot replaces an
#     existing file with the native bytes, and a read-only file is refused;
#     the program in a folder named in Cyrillic finds its picture, and
#     --record writes into such a folder.
# Wine is the machine's (wine, and wine32:i386 or wine64), or for win32,
# given WINE32_ROOT, the 32-bit Wine unpacked there by `sysroot.sh i386
# DIR wine` (no i386 package installed but the C library, libc6:i386),
# run directly from that folder, without OpenGL.
# Each Wine run has a timeout: a hang is a failure, never a stuck stage.
# Wine's prefix is WINBUILD/wine, booted once and kept.  The whole runs
# inside an Xvfb display of its own (xvfb-run -a).  A tool missing is a
# failure with the package to install, never a skip.
set -u
usage="usage: win.sh win32|win64 WINBUILD RIPPLE BENCH"
ARCH=${1:?$usage}
DIR=${2:?$usage}
RIPPLE=${3:?$usage}
BENCH=${4:?$usage}
case $ARCH in
    win32) maxos=5.1 winearch=win32 loader=/usr/lib/wine/wine pkg="wine32:i386"
           host=i686-w64-mingw32 gccpkg=gcc-mingw-w64-i686-win32;;
    win64) maxos=5.2 winearch=win64 loader=/usr/lib/wine/wine64 pkg=wine64
           host=x86_64-w64-mingw32 gccpkg=gcc-mingw-w64-x86-64-win32;;
    *) echo "win: unknown architecture '$ARCH' ($usage)"; exit 2;;
esac

# Which Wine: the machine's launcher and server, or the loader and the
# 32-bit server of the unpacked one, its libraries found first.
wine=wine wineserver=wineserver launcher="wine:wine"
if [ "$ARCH" = win32 ] && [ -n "${WINE32_ROOT:-}" ]; then
    loader=$WINE32_ROOT/usr/lib/wine/wine pkg="wine32:i386 (or make's WINE32=private)"
    wine=$loader wineserver=$WINE32_ROOT/usr/lib/wine/wineserver32 launcher="/lib/ld-linux.so.2:libc6:i386"
    LD_LIBRARY_PATH=$WINE32_ROOT/usr/lib/i386-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    export LD_LIBRARY_PATH WINESERVER=$wineserver
    # No OpenGL in it (Mesa's would bring LLVM): Wine's Direct3D, which
    # works over OpenGL, fails, and so would SDL's renderer; SDL's software
    # one presents (the screenshots are of the frame, not of the window).
    export SDL_RENDER_DRIVER=software
fi

# What it needs, each with its Debian package (.ci/run installs them all).
need=""
for t in "$launcher" "$loader:$pkg" "xvfb-run:xvfb" "xauth:xauth" "timeout:coreutils" \
         "x86_64-w64-mingw32-objdump:binutils-mingw-w64-x86-64" \
         "$host-gcc:$gccpkg"; do
    c=${t%%:*}
    case $c in /*) [ -x "$c" ];; *) command -v "$c" >/dev/null 2>&1;; esac || need="$need ${t#*:}"
done
if [ -n "$need" ]; then
    echo "win: FAIL: missing tools; install them with: apt-get install$need (wine32 needs dpkg --add-architecture i386)"
    exit 1
fi
[ -x "$RIPPLE" ] || { echo "win: FAIL: no native demo at $RIPPLE"; exit 1; }

# Inside an X server of its own, once.
if [ -z "${WIN_SH_XVFB:-}" ]; then
    WIN_SH_XVFB=1 exec xvfb-run -a -s "-screen 0 1024x768x24" sh "$0" "$@"
fi

DIR=$(cd "$DIR" && pwd)
LOGS=$DIR/logs
# The programs find assets/ beside themselves, as in the zip of make dist:
# the source tree's, linked there (the runs are in LOGS, where none is).
[ -e "$DIR/assets" ] || ln -s "$(pwd)/assets" "$DIR/assets"
rm -rf "$LOGS"
mkdir -p "$LOGS"
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
t0=$(date +%s)
took() { echo "($(($(date +%s) - t0)) s)"; }

# Wine: a prefix of this build's own, no Mono or Gecko (their installers
# would wait for a click), no debug chatter on stderr (the messages are
# compared with the native ones), the libraries' DLLs found by WINEPATH.
export WINEPREFIX="$DIR/wine" WINEARCH=$winearch WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
WINEPATH="Z:$(printf '%s' "$DIR/prefix/bin" | sed 's|/|\\|g')"
export WINEPATH
export SDL_AUDIODRIVER=dummy
# (booted again when the Wine that booted it was another)
if [ "$(cat "$WINEPREFIX/.booted" 2>/dev/null)" != "$wine" ]; then
    rm -rf "$WINEPREFIX"
    if timeout -k 5 180 "$wine" wineboot -i >"$LOGS/wineboot.log" 2>&1 && timeout -k 5 60 "$wineserver" -w; then
        printf '%s\n' "$wine" >"$WINEPREFIX/.booted"
        echo "wine: prefix $WINEPREFIX booted $(took)"
    else
        echo "win: FAIL: wineboot -i failed or hung (see $LOGS/wineboot.log)"
        tail -n 20 "$LOGS/wineboot.log"
        exit 1
    fi
fi
echo "wine: $("$wine" --version 2>/dev/null), $wine"
# wrun SECONDS PROGRAM ARGS...: one Windows program under Wine.
wrun() { t=$1; shift; timeout -k 5 "$t" "$wine" "$@"; }

# ---- the import check, refusing what it must --------------------------------------

cat >"$LOGS/vista.c" <<'EOF'
#include <windows.h>
#include <string.h>
int main(int argc, char **argv)
{
#ifdef NEW_KERNEL32
    (void)argv;
    return (int)GetTickCount64() + argc;
#elif defined NEW_CRT
    char b[8];
    strcpy_s(b, sizeof b, argv[0]);
    return b[0] + argc;
#else
    (void)argv;
    return argc;
#endif
}
EOF
for c in "kernel32:GetTickCount64:-DNEW_KERNEL32" "msvcrt:strcpy_s:-DNEW_CRT" "subsystem:6.0:-Wl,--subsystem,console:6.0"; do
    what=${c%%:*}; rest=${c#*:}; sym=${rest%%:*}; flags=${rest#*:}
    # shellcheck disable=SC2086 # the flags are words
    if ! "$host-gcc" -D_WIN32_WINNT=0x0600 $flags -o "$LOGS/vista-$what.exe" "$LOGS/vista.c" >"$LOGS/vista-$what.log" 2>&1; then
        bad "import check: cannot build a PE importing $sym: $(head -c 300 "$LOGS/vista-$what.log")"
    elif sh tests/pe-imports.sh --max-os "$maxos" "$LOGS/vista-$what.exe" >"$LOGS/vista-$what.log" 2>&1; then
        bad "import check: passed a PE with $what $sym"
    elif grep -q "FAIL: vista-$what.exe: .*$sym" "$LOGS/vista-$what.log"; then ok
    else bad "import check: refused vista-$what.exe but not for $sym: $(cat "$LOGS/vista-$what.log")"; fi
done

# ---- the shipped PEs --------------------------------------------------------------

SHIP=""
for f in "$DIR/libripple.dll" "$DIR/prefix/bin/SDL2.dll" "$DIR/prefix/bin/SDL2_image.dll" \
         "$DIR/ripple.exe" "$DIR/ripple-bench.exe"; do
    [ -e "$f" ] && SHIP="$SHIP $f"
done
# shellcheck disable=SC2086 # one word a file
if sh tests/pe-imports.sh --max-os "$maxos" $SHIP >"$LOGS/imports.log" 2>&1; then
    ok; sed 's/^/  /' "$LOGS/imports.log"
else bad "imports newer than Windows $maxos:"; cat "$LOGS/imports.log"; fi

# ---- the unit suites ---------------------------------------------------------------

# The paths of this CPU, as the native exactness suite lists them (Wine runs
# on the same CPU: the Windows build must offer the same).
# shellcheck disable=SC2086,SC2116 # a list of words, their spaces made single
paths=$(echo ${NATIVE_PATHS:-})
[ -n "$paths" ] || { echo "win: FAIL: NATIVE_PATHS (the native test_paths --list) is not set"; exit 1; }
suites=$(for t in "$DIR"/tests/test_*.exe; do [ -e "$t" ] && [ "${t##*/}" != test_paths.exe ] && echo "$t"; done)
if [ -e "$DIR/tests/test_paths.exe" ]; then
    wpaths=$(wrun 60 "$DIR/tests/test_paths.exe" --list | tr -d '\r' | tr '\n' ' ' | sed 's/ $//')
    if [ "$wpaths" = "$paths" ]; then ok; else bad "paths under Wine '$wpaths', natively '$paths'"; fi
    # every 4th random case, as under qemu (each subset's CRCs are pinned;
    # the unit stage runs them all natively)
    if wrun 300 "$DIR/tests/test_paths.exe" --subset 4 >"$LOGS/paths.log" 2>&1; then ok
        echo "$ARCH under Wine: the exactness suite passed (--subset 4, paths $wpaths)"
    else bad "$ARCH: the exactness suite (see $LOGS/paths.log)"; tail -n 20 "$LOGS/paths.log"; fi
fi
# shellcheck disable=SC2086 # one word a program
if [ -n "$suites" ] && RIPPLE_TEST_QUICK=1 RUNNER="timeout -k 5 300 $wine" sh tests/suites.sh "$ARCH under Wine, every suite" \
    "$LOGS/unit.log" $suites; then ok; else bad "$ARCH: unit suites"; fi
missing=$(for t in tests/test_*.c; do n=$(basename "$t" .c); [ -e "$DIR/tests/$n.exe" ] || printf '%s ' "$n"; done)
[ -z "$missing" ] || echo "win: suites not built for Windows: $missing"
echo "suites done $(took)"

# ---- the bench ----------------------------------------------------------------------

best=${paths##* }
if [ -e "$DIR/ripple-bench.exe" ]; then
    if wrun 120 "$DIR/ripple-bench.exe" --size 64x48 --frames 2 >"$LOGS/bench.log" 2>&1 &&
        grep -q "agree.*: yes\|agree: n/a" "$LOGS/bench.log"; then ok
    else bad "ripple-bench.exe: its paths"; tail -n 5 "$LOGS/bench.log"; fi
    sum() { tr -d '\r' | sed -n 's/.*checksum \([0-9a-f]*\).*/\1/p'; }
    for opts in "--bpp 32" "--bpp 16" "--bpp 8" "--bpp 32 --model wave"; do
        # shellcheck disable=SC2086 # the options are words
        here=$(wrun 60 "$DIR/ripple-bench.exe" --instr-run "$best" --size 160x120 --frames 6 $opts | sum)
        # shellcheck disable=SC2086
        there=$("$BENCH" --instr-run c --size 160x120 --frames 6 $opts | sum)
        if [ -n "$here" ] && [ "$here" = "$there" ]; then ok
        else bad "ripple-bench.exe, path $best $opts: checksum '$here', native '$there'"; fi
    done
    echo "bench done $(took)"
else
    echo "win: no ripple-bench.exe in $DIR: the bench not tested"
fi

# ---- the demo -----------------------------------------------------------------------

EXE=$DIR/ripple.exe
if [ ! -e "$EXE" ]; then
    echo "win: no ripple.exe in $DIR: the demo not tested"
    echo "win $ARCH: $pass passed, $fail failed $(took)"
    [ "$fail" = 0 ]
    exit
fi

# both NAME ARGS...: the native demo and ripple.exe with ARGS, each one's
# output (without CRs), errors and status into LOGS/NAME.{nat,win}.{out,err,rc};
# with SHOT=1 each also takes its screenshot into LOGS/NAME.{nat,win}.bmp.
# Both run in LOGS, so that relative names land there.
SHOT=
both() {
    name=$1
    shift
    ( cd "$LOGS" || exit 1
      "$RIPPLE" "$@" ${SHOT:+--screenshot "$name.nat.bmp"} >"$name.nat.out" 2>"$name.nat.err"; echo $? >"$name.nat.rc"
      wrun 120 "$EXE" "$@" ${SHOT:+--screenshot "$name.win.bmp"} >"$name.win.raw" 2>"$name.win.rawerr"
      echo $? >"$name.win.rc"
      tr -d '\r' <"$name.win.raw" >"$name.win.out"; tr -d '\r' <"$name.win.rawerr" >"$name.win.err" )
}
rc_of() { cat "$LOGS/$1.rc"; }
crc_of() { sed -n 's/^water *crc32 \([0-9a-f]*\)$/\1/p' "$LOGS/$1.out"; }
RIPPLE=$(cd "$(dirname "$RIPPLE")" && pwd)/$(basename "$RIPPLE")

if wrun 30 "$EXE" --version >"$LOGS/version.out" 2>&1 && grep -q "^ripple [0-9]" "$LOGS/version.out"; then ok
else bad "ripple.exe --version: $(head -c 200 "$LOGS/version.out")"; fi

# the timedemo's scenes on every path, the CRCs (the water's, and the
# show's sound) the native demo's: natively once a scene, on its best path
# (the native stages hold every native path to the same bytes), under
# Wine on each path
sound_of() { sed -n 's/^sound *crc32 \([0-9a-f]*\) .*/\1/p' "$LOGS/$1.out"; }
for scene in busy-1 busy-2 wave-2 show-1 show-2; do
    n=bm-$scene
    ( cd "$LOGS" && "$RIPPLE" --benchmark --headless --frames 2000 --bench-scene "$scene" >"$n.nat.out" 2>"$n.nat.err"
      echo $? >"$n.nat.rc" )
    cn=$(crc_of "$n.nat")
    sn=$(sound_of "$n.nat")
    if [ "$(rc_of "$n.nat")" != 0 ] || [ -z "$cn" ]; then
        bad "the native timedemo of $scene: exit $(rc_of "$n.nat"), crc '$cn'"; continue
    fi
    for p in $paths; do
        ( cd "$LOGS" && wrun 300 "$EXE" --benchmark --headless --frames 2000 --bench-scene "$scene" --simd "$p" \
              >"$n-$p.win.raw" 2>"$n-$p.win.rawerr"
          echo $? >"$n-$p.win.rc"; tr -d '\r' <"$n-$p.win.raw" >"$n-$p.win.out"; tr -d '\r' <"$n-$p.win.rawerr" >"$n-$p.win.err" )
        cw=$(crc_of "$n-$p.win")
        sw=$(sound_of "$n-$p.win")
        if [ "$(rc_of "$n-$p.win")" = 0 ] && [ "$cw" = "$cn" ] && [ "$sw" = "$sn" ] &&
            grep -q "path $p," "$LOGS/$n-$p.win.out"; then ok
        else bad "timedemo $scene, path $p: Windows crc '$cw' sound '$sw' (exit $(rc_of "$n-$p.win")), native '$cn' '$sn'"
            head -c 300 "$LOGS/$n-$p.win.err"; fi
    done
    echo "timedemo $scene: crc32 $cn${sn:+, sound $sn}, natively and under Wine on paths $paths $(took)"
done

# the side view's timedemo: Chipmunk2D's bodies and the water on the shared
# maths (core/base/dmath.c), so its state CRC is the native one; its steps
# are scalar, so one path.  The win32 build's x87 rounds as SSE2 does under
# rpl_double_precision for the first 500 frames at 320x240 and parts later
# (docs/side-view.md), as the i386 Linux build does; win64 agrees throughout.
# side-waves-3's CRC takes in the picture as well: its side line's state
# alone is compared, as for side-2
state_of() {
    sed -n -e 's/^side .*; the state alone crc32 \([0-9a-f]*\)$/\1/p' \
        -e 's/^state *crc32 \([0-9a-f]*\)$/\1/p' "$LOGS/$1.out" | head -n 1
}
for scene in side-2 side-waves-3; do
    n=bm-$scene
    set -- --benchmark --headless --size 320x240 --frames 500 --bench-scene "$scene"
    ( cd "$LOGS" && "$RIPPLE" "$@" >"$n.nat.out" 2>"$n.nat.err"
      echo $? >"$n.nat.rc"
      wrun 300 "$EXE" "$@" >"$n.win.raw" 2>"$n.win.rawerr"
      echo $? >"$n.win.rc"; tr -d '\r' <"$n.win.raw" >"$n.win.out"; tr -d '\r' <"$n.win.rawerr" >"$n.win.err" )
    cn=$(state_of "$n.nat"); cw=$(state_of "$n.win")
    if [ "$(rc_of "$n.nat")" = 0 ] && [ "$(rc_of "$n.win")" = 0 ] && [ -n "$cn" ] && [ "$cw" = "$cn" ]; then
        ok; echo "timedemo $scene: state crc32 $cn after 500 frames at 320x240, natively and under Wine $(took)"
    else bad "timedemo $scene: Windows state '$cw' (exit $(rc_of "$n.win")), native '$cn' (exit $(rc_of "$n.nat"))"
        head -c 300 "$LOGS/$n.win.err"; fi
done

# a window at each depth (in this Xvfb): the same screenshot and CRC
for b in 32 16 8; do
    SHOT=1 both "win$b" --benchmark --size 320x240 --scale 2 --bpp $b --frames 60 --no-overlay
    if [ "$(rc_of "win$b.nat")" = 0 ] && [ "$(rc_of "win$b.win")" = 0 ] && [ -s "$LOGS/win$b.nat.bmp" ] &&
        cmp -s "$LOGS/win$b.nat.bmp" "$LOGS/win$b.win.bmp" && [ -n "$(crc_of "win$b.nat")" ] &&
        [ "$(crc_of "win$b.win")" = "$(crc_of "win$b.nat")" ]; then
        ok; echo "window at $b bits: the same screenshot ($(wc -c <"$LOGS/win$b.win.bmp") bytes), crc32 $(crc_of "win$b.win")"
    else bad "window at $b bits: Windows exit $(rc_of "win$b.win"), native $(rc_of "win$b.nat"), screenshots: $(cmp "$LOGS/win$b.nat.bmp" "$LOGS/win$b.win.bmp" 2>&1 | head -n 1)"
        head -c 300 "$LOGS/win$b.win.err"; fi
done

# the side scene, headless: the same first frames
SHOT=1 both side --headless --scene side --size 320x240 --frames 30
if [ "$(rc_of side.nat)" = 0 ] && [ "$(rc_of side.win)" = 0 ] && [ -s "$LOGS/side.nat.bmp" ] &&
    cmp -s "$LOGS/side.nat.bmp" "$LOGS/side.win.bmp"; then ok
else bad "side scene: Windows exit $(rc_of side.win), native $(rc_of side.nat), screenshots: $(cmp "$LOGS/side.nat.bmp" "$LOGS/side.win.bmp" 2>&1 | head -n 1)"
    head -c 300 "$LOGS/side.win.err"; fi

# bad flags: exit 2, the native message
for flags in "--frobnicate" "--bpp 24" "--size 0x0" "--benchmark --seed 3"; do
    # shellcheck disable=SC2086 # the words are the flags
    both bad --headless --frames 2 $flags
    if [ "$(rc_of bad.win)" = 2 ] && [ "$(rc_of bad.nat)" = 2 ] && [ -s "$LOGS/bad.win.err" ] &&
        cmp -s "$LOGS/bad.nat.err" "$LOGS/bad.win.err"; then ok
    else bad "bad flags '$flags': Windows exit $(rc_of bad.win), native $(rc_of bad.nat); messages: $(cat "$LOGS/bad.win.err") / $(cat "$LOGS/bad.nat.err")"; fi
done

# Names in UTF-8 beyond the ANSI code page, through the wide API: the
# program in a folder so named finds the picture beside it (a screenshot
# of the native one's), and --record writes into a folder so named.
U=$LOGS/вода
rm -rf "$U" && mkdir -p "$U/кадры" && cp "$EXE" "$U/ripple.exe" && ln -s "$DIR/assets" "$U/assets"
( cd "$LOGS" && "$RIPPLE" --headless --size 64x48 --frames 5 --screenshot utf8.nat.bmp >/dev/null 2>&1
  wrun 60 "$U/ripple.exe" --headless --size 64x48 --frames 5 --screenshot utf8.win.bmp >/dev/null 2>utf8.win.err
  wrun 60 "$U/ripple.exe" --headless --size 32x24 --frames 3 --record "$U/кадры" >/dev/null 2>utf8.rec.err
  echo $? >utf8.rec.rc )
if [ -s "$LOGS/utf8.nat.bmp" ] && cmp -s "$LOGS/utf8.nat.bmp" "$LOGS/utf8.win.bmp"; then ok
else bad "the program in a folder named in Cyrillic: not the native screenshot ($(head -c 200 "$LOGS/utf8.win.err"))"; fi
if [ "$(cat "$LOGS/utf8.rec.rc")" = 0 ] && [ "$(ls "$U/кадры" | wc -l)" -ge 3 ]; then ok
else bad "--record into a folder named in Cyrillic: exit $(cat "$LOGS/utf8.rec.rc"), $(ls "$U/кадры" | wc -l) frames ($(head -c 200 "$LOGS/utf8.rec.err"))"; fi

# a snapshot replaces an existing file with the native bytes; a read-only
# one is refused and kept
echo keep >"$LOGS/snap.nat.rpl"
echo keep >"$LOGS/snap.win.rpl"
( cd "$LOGS" && "$RIPPLE" --headless --size 64x48 --frames 30 --save-state snap.nat.rpl >/dev/null 2>&1 &&
  wrun 60 "$EXE" --headless --size 64x48 --frames 30 --save-state snap.win.rpl >/dev/null 2>&1 )
if [ "$(head -c 4 "$LOGS/snap.win.rpl")" != keep ] && cmp -s "$LOGS/snap.nat.rpl" "$LOGS/snap.win.rpl"; then ok
else bad "a snapshot over an existing file: not the native bytes ($(cmp "$LOGS/snap.nat.rpl" "$LOGS/snap.win.rpl" 2>&1))"; fi
echo keep >"$LOGS/ro.rpl"
chmod 444 "$LOGS/ro.rpl"
( cd "$LOGS" && wrun 60 "$EXE" --headless --size 32x24 --frames 2 --save-state ro.rpl >ro.out 2>ro.rawerr; echo $? >ro.rc )
tr -d '\r' <"$LOGS/ro.rawerr" >"$LOGS/ro.err"
if [ "$(cat "$LOGS/ro.rc")" = 2 ] && grep -q "read-only" "$LOGS/ro.err" && [ "$(cat "$LOGS/ro.rpl")" = keep ] &&
    [ -z "$(find "$LOGS" -name 'ro.rpl?*')" ]; then ok
else bad "a read-only output: exit $(cat "$LOGS/ro.rc") (want 2), message '$(cat "$LOGS/ro.err")', file now '$(head -c 20 "$LOGS/ro.rpl")'"; fi
chmod 644 "$LOGS/ro.rpl"

timeout -k 5 30 "$wineserver" -w
echo "win $ARCH: $pass passed, $fail failed $(took)"
[ "$fail" = 0 ]
