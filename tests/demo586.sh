#!/bin/sh
# demo586.sh - the 32-bit demo on the SDL2 built without SSE runs on an emulated Pentium II, with and without MMX, to the 64-bit demo's bytes.
# usage: QEMU='qemu-i386 [-L SYSROOT]' sh tests/demo586.sh RIPPLE64 RIPPLE32 SDL_LIBDIR LOGDIR
#
# RIPPLE32 was linked against the SDL2 and SDL2_image in SDL_LIBDIR
# (make ARCH=i386 I386_SDL=source).  First the libraries themselves: no
# SSE, SSE2, SSE3 or 3DNow! instruction anywhere in them (qemu-i386 traps
# SSE on a Pentium II but not MMX, so MMX is checked here): SDL's MMX code
# only in its *MMX functions, which SDL calls after SDL_HasMMX() (the
# libraries unstripped, so that the names are the functions'); and the
# scan finds Debian's SSE in Debian's SDL2, so that a blind scan fails.
# Then the demo: it loads those libraries, and with Debian's SDL2 instead
# it dies of SIGILL on the Pentium II (the emulator does trap SSE).  On a
# Pentium II and on a Pentium II without MMX side by side, the timedemo
# (--benchmark --headless, 2000 frames) of busy-2 must report the 64-bit
# demo's CRC on the path the CPU has (mmx, c), and so must busy-1, wave-2
# and show-1 on one of the two (ALL=1: on both), and side-2's first 500
# frames its state CRC; and in a window under Xvfb at 32 and 8 bits a pixel it must
# take the 64-bit demo's screenshot, byte for byte.
set -u
usage="usage: demo586.sh RIPPLE64 RIPPLE32 SDL_LIBDIR LOGDIR"
R64=${1:?$usage}
R32=${2:?$usage}
LIBDIR=${3:?$usage}
LOGS=${4:?$usage}
QEMU=${QEMU:-qemu-i386}
CPUS="pentium2 pentium2,-mmx"
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
rm -rf "$LOGS"
mkdir -p "$LOGS"
LIBDIR=$(cd "$LIBDIR" && pwd) || exit 1

for c in "${QEMU%% *}" objdump; do
    if ! command -v "$c" >/dev/null 2>&1; then
        echo "demo586: $c is not installed (Debian: apt-get install $([ "$c" = objdump ] && echo binutils || echo qemu-user))"
        exit 1
    fi
done

# ---- the libraries -------------------------------------------------------------

# scan LIB: prints what in LIB a Pentium II without SSE could not run: each
# line "FUNCTION: INSTRUCTION"; MMX only where the function says MMX.
scan() {
    objdump -d --no-show-raw-insn "$1" | awk '
        /^[0-9a-f]+ <.*>:$/ { fn = $2; gsub(/[<>:]/, "", fn); next }
        NF < 2 { next }
        {
            insn = $2
            # SSE and later: XMM registers, and the instructions SSE added
            # on MMX registers and the cache (pshufw, pavgb, movntq, ...)
            if ($0 ~ /%xmm|%ymm|%mxcsr/ ||
                insn ~ /^(ldmxcsr|stmxcsr|sfence|lfence|mfence|prefetcht|prefetchnta|maskmovq|movntq|pshufw|pavg[bw]|pmaxsw|pminsw|pmaxub|pminub|pextrw|pinsrw|pmovmskb|pmulhuw|psadbw|movnti|clflush)/)
                print fn ": " insn " (SSE)"
            # 3DNow!: AMD only
            else if (insn ~ /^(femms|pf[a-z]+|pi2f[dw]|pf2i[dw]|pavgusb|pmulhrw|pswapd|prefetch|prefetchw)$/)
                print fn ": " insn " (3DNow!)"
            else if ($0 ~ /%mm[0-7]/ && fn !~ /MMX/)
                print fn ": " insn " (MMX outside an MMX function)"
        }' | sort -u
}
# run NAME CPU ARGS...: the demo with ARGS, the 64-bit one for CPU native,
# else the 32-bit one under qemu on that CPU with the private SDL2; its
# output, errors and exit status into LOGS/NAME.CPU.{out,err,rc}.  With
# SHOT=1 it also takes its screenshot into LOGS/NAME.CPU.bmp; with XVFB=N
# it runs in an X server of its own (xvfb-run, from server number N on).
SHOT=
XVFB=
QEMU_ENV=
LIBPATH=$LIBDIR
run() {
    name=$1 cpu=$2
    shift 2
    (
        # shellcheck disable=SC2086 # QEMU is a command and its flags
        if [ "$cpu" = native ]; then set -- "$R64" "$@"
        else set -- $QEMU -cpu "$cpu" ${LIBPATH:+-E LD_LIBRARY_PATH="$LIBPATH"} $QEMU_ENV "$R32" "$@"; fi
        [ -n "$SHOT" ] && set -- "$@" --screenshot "$LOGS/$name.$cpu.bmp"
        [ -n "$XVFB" ] && set -- env SDL_AUDIODRIVER=dummy \
            xvfb-run -a -n "$XVFB" -s "-screen 0 1024x768x24" "$@"
        "$@" >"$LOGS/$name.$cpu.out" 2>"$LOGS/$name.$cpu.err"
        echo $? >"$LOGS/$name.$cpu.rc"
    )
}
rc_of() { cat "$LOGS/$1.rc" 2>/dev/null; }
crc_of() { sed -n 's/^water *crc32 \([0-9a-f]*\)$/\1/p' "$LOGS/$1.out" 2>/dev/null; }

sysroot=$(echo "$QEMU" | sed -n 's/.*-L \([^ ]*\).*/\1/p')
# which SDL2 the 32-bit demo loads
QEMU_ENV="-E LD_TRACE_LOADED_OBJECTS=1"
run libs pentium2
QEMU_ENV=
if grep -q "libSDL2-2.0.so.0 => $LIBDIR/libSDL2-2.0.so.0" "$LOGS/libs.pentium2.out" &&
    grep -q "libSDL2_image-2.0.so.0 => $LIBDIR/libSDL2_image-2.0.so.0" "$LOGS/libs.pentium2.out"; then
    ok; echo "the 32-bit demo loads SDL2 and SDL2_image from $LIBDIR"
else bad "the 32-bit demo does not load the SDL2 of $LIBDIR: $(grep SDL "$LOGS/libs.pentium2.out" | tr '\n' ' ')"; fi
# Every library the demo loads but the C library's (glibc picks its SSE
# string functions by the CPU): ours from LIBDIR, Debian's i386 cJSON and
# zlib (built for an i686 as Debian's i386 baseline is).
libs=$(sed -n 's/^[[:space:]]*\([^ ]*\) => \([^ ]*\) .*/\1 \2/p' "$LOGS/libs.pentium2.out" |
    grep -v '^\(libc\|libm\|libpthread\|libdl\|librt\|ld-linux\)\.')
echo "$libs" | while read -r lib path; do
    [ -n "$lib" ] || continue
    [ -e "$sysroot$path" ] && path=$sysroot$path
    scan "$path" >"$LOGS/scan-$lib.txt"
    mmx=$(objdump -d --no-show-raw-insn "$path" | grep -c '%mm[0-7]')
    if [ -s "$LOGS/scan-$lib.txt" ]; then
        echo "FAIL: $lib runs what a Pentium II cannot: $(head -n 3 "$LOGS/scan-$lib.txt" | tr '\n' ' ')"
    else
        echo "ok: $lib: no SSE or 3DNow! instruction$([ "$mmx" = 0 ] || echo ", $mmx MMX instructions, all in the functions SDL takes after SDL_HasMMX()")"
    fi
done >"$LOGS/scan.txt"
sed 's/^ok: //' "$LOGS/scan.txt"
n=$(grep -c '^ok: ' "$LOGS/scan.txt")
pass=$((pass + n))
fail=$((fail + $(grep -c '^FAIL' "$LOGS/scan.txt")))
[ "$n" -ge 4 ] || bad "only $n of the demo's libraries scanned"
# Chipmunk2D is linked into the demo, from a copy of Debian's i386 static
# library (mk/chipmunk.mk): the same scan on that copy.
cm=$(dirname "$R32")/chipmunk/libchipmunk.a
if [ -s "$cm" ] && scan "$cm" >"$LOGS/scan-chipmunk.txt" && ! [ -s "$LOGS/scan-chipmunk.txt" ] &&
    [ "$(objdump -d "$cm" | grep -c 'call')" -gt 100 ]; then
    ok; echo "Chipmunk2D, linked in from $cm: no SSE or 3DNow! instruction"
else bad "Chipmunk2D ($cm): $(head -n 3 "$LOGS/scan-chipmunk.txt" 2>/dev/null | tr '\n' ' ')"; fi
# The scan against Debian's SDL2 (the machine's, or the sysroot's that
# QEMU's -L names): it must find SSE there.
debian=""
for d in "$sysroot/usr/lib/i386-linux-gnu" /usr/lib/i386-linux-gnu; do
    [ -e "$d/libSDL2-2.0.so.0" ] && { debian="$d/libSDL2-2.0.so.0"; break; }
done
if [ -n "$debian" ]; then
    n=$(scan "$debian" | grep -c "(SSE)")
    if [ "$n" -gt 0 ]; then ok; echo "the scan finds SSE in Debian's SDL2 ($n places)"
    else bad "the scan finds no SSE in Debian's SDL2 ($debian): it would miss it in ours"; fi
fi

# ---- the demo ------------------------------------------------------------------

# and with Debian's SDL2 in its place, SIGILL on the Pentium II
if [ -n "$debian" ]; then
    LIBPATH=$(dirname "$debian")
    run debian pentium2 --headless --frames 2
    LIBPATH=$LIBDIR
    if [ "$(rc_of debian.pentium2)" = 132 ] || grep -q "signal 4" "$LOGS/debian.pentium2.err"; then
        ok; echo "with Debian's SDL2 the demo dies of SIGILL on the Pentium II, as it should"
    else bad "with Debian's SDL2 the demo did not die on the Pentium II (exit $(rc_of debian.pentium2)): the emulator no longer traps SSE"; fi
fi

# The timedemo: each scene natively, then on the emulated CPUs side by
# side: the default scene on both, each other one on one of them (an
# emulated round of 2000 frames takes 25 to 60 s), or with ALL=1 every
# scene on both.
for scene in "busy-2 +" "busy-1 -mmx --bench-scene busy-1" "wave-2 p2 --model wave" \
    "show-1 p2 --bench-scene show-1"; do
    # shellcheck disable=SC2086 # the words are the scene's name, CPU and flags
    set -- $scene
    name=$1 on=$2
    shift 2
    case ${ALL:-0}$on in
        0-mmx) cpus="pentium2,-mmx";; 0p2) cpus=pentium2;; *) cpus=$CPUS;;
    esac
    run "$name" native --benchmark --headless --frames 2000 "$@"
    for cpu in $cpus; do
        run "$name" "$cpu" --benchmark --headless --frames 2000 "$@" &
    done
    wait
    want=$(crc_of "$name.native")
    for cpu in $cpus; do
        path=mmx
        [ "$cpu" = pentium2 ] || path=c
        got=$(crc_of "$name.$cpu")
        if [ "$(rc_of "$name.native")" = 0 ] && [ "$(rc_of "$name.$cpu")" = 0 ] && [ -n "$want" ] &&
            [ "$got" = "$want" ] && grep -q "scene $name$" "$LOGS/$name.$cpu.out" &&
            grep -q "path $path," "$LOGS/$name.$cpu.out"; then
            ok; echo "timedemo $name on $cpu: crc32 $got (path $path), as natively"
        else bad "timedemo $name on $cpu: crc '$got' (exit $(rc_of "$name.$cpu"), $(grep '^path' "$LOGS/$name.$cpu.out")), native '$want' (exit $(rc_of "$name.native"))"
            head -c 300 "$LOGS/$name.$cpu.err"; fi
    done
done

# The side view's timedemo on the x87: under rpl_double_precision its
# bodies and water round as SSE2 does, so the first 500 frames at 320x240
# give the 64-bit state (without it they part before 500); demo32.sh
# plays side-3 for 1000 frames at 640x480 (docs/side-view.md).
state_of() { sed -n 's/^state *crc32 \([0-9a-f]*\)$/\1/p' "$LOGS/$1.out" 2>/dev/null; }
run side native --benchmark --headless --bench-scene side-2 --size 320x240 --frames 500
run side pentium2 --benchmark --headless --bench-scene side-2 --size 320x240 --frames 500
want=$(state_of side.native)
got=$(state_of side.pentium2)
if [ "$(rc_of side.native)" = 0 ] && [ "$(rc_of side.pentium2)" = 0 ] && [ -n "$want" ] && [ "$got" = "$want" ]; then
    ok; echo "timedemo side-2 on pentium2, 500 frames at 320x240: state crc32 $got, as natively"
else bad "timedemo side-2 on pentium2: state '$got' (exit $(rc_of side.pentium2)), native '$want' (exit $(rc_of side.native))"
    head -c 300 "$LOGS/side.pentium2.err"; fi

# A window under Xvfb, each run its own server: the screenshot.
if command -v xvfb-run >/dev/null 2>&1; then
    for b in 32 8; do
        n=0
        for cpu in native $CPUS; do
            n=$((n + 1))
            SHOT=1 XVFB=5$b$n run win$b "$cpu" --benchmark --size 320x240 --scale 2 --bpp $b --frames 60 --no-overlay &
        done
        wait
        for cpu in $CPUS; do
            if [ "$(rc_of win$b.native)" = 0 ] && [ "$(rc_of "win$b.$cpu")" = 0 ] && [ -s "$LOGS/win$b.native.bmp" ] &&
                cmp -s "$LOGS/win$b.native.bmp" "$LOGS/win$b.$cpu.bmp"; then
                ok; echo "window at $b bits on $cpu: the native screenshot ($(wc -c <"$LOGS/win$b.$cpu.bmp") bytes)"
            else bad "window at $b bits on $cpu: exit $(rc_of "win$b.$cpu"), native $(rc_of win$b.native), screenshots: $(cmp "$LOGS/win$b.native.bmp" "$LOGS/win$b.$cpu.bmp" 2>&1 | head -n 1)"
                head -c 300 "$LOGS/win$b.$cpu.err"; fi
        done
    done
else
    bad "xvfb-run is not installed: cannot test the window"
fi

echo "demo586: $pass passed, $fail failed"
[ "$fail" = 0 ]
