#!/bin/sh
# same-bytes.sh - two builds of the demo (gcc's and clang's) write the same bytes.
# usage: sh tests/same-bytes.sh RIPPLE-A RIPPLE-B
#
# Each build writes, headless: a snapshot of the classic water and one of
# the wave model after a few hundred steps of the default show, a BMP of
# the side scene, and the sound of the pool and of the side scene as WAV
# (the music's whole loop among them).
# Every file must be byte for byte the same from both, and not trivial.
# Every timedemo scene (--benchmark) must end with the same CRCs in both.
set -u
A=${1:?usage: same-bytes.sh RIPPLE-A RIPPLE-B}
B=${2:?usage: same-bytes.sh RIPPLE-A RIPPLE-B}
TMP=$(mktemp -d) || exit 1
trap 'rm -rf "$TMP"' EXIT INT TERM
pass=0
fail=0

# out NAME FLAGS...: runs both builds with FLAGS, the output file last
run() {
    name=$1
    shift
    for side in a b; do
        if [ $side = a ]; then prog=$A; else prog=$B; fi
        if ! "$prog" --headless "$@" "$TMP/$side-$name" >"$TMP/$side.out" 2>"$TMP/$side.err"; then
            echo "FAIL: $name: $prog exited with an error: $(head -c 300 "$TMP/$side.err")"
            fail=$((fail + 1))
            return
        fi
    done
    if ! [ -s "$TMP/a-$name" ]; then
        echo "FAIL: $name: nothing written"
        fail=$((fail + 1))
    elif cmp -s "$TMP/a-$name" "$TMP/b-$name"; then
        echo "same: $name ($(wc -c <"$TMP/a-$name") bytes, cksum $(cksum <"$TMP/a-$name" | cut -d' ' -f1))"
        pass=$((pass + 1))
    else
        echo "FAIL: $name differs: $(cmp "$TMP/a-$name" "$TMP/b-$name" 2>&1 | head -n 1)"
        fail=$((fail + 1))
    fi
}

run classic.rpl --size 320x240 --frames 400 --save-state
run wave.rpl --size 320x240 --frames 400 --model wave --save-state
run wave-settings.rpl --size 160x120 --frames 300 --no-show --model wave --speed 40 --viscosity 0.3 \
    --attenuation 0.995 --save-state
run side.bmp --size 320x240 --frames 240 --scene side --screenshot
run side-waves.bmp --size 320x240 --frames 240 --scene side --surface waves --screenshot
run pool.wav --size 160x120 --frames 300 --audio-out
run side.wav --size 320x240 --frames 300 --scene side --audio-out
# a whole loop of the music (60 s) with the show's drips; its bytes are
# pinned too (LOOP_CKSUM: POSIX cksum of the WAV): the loudness and the
# spectrogram docs/sound.md shows were measured on them (tests/levels.sh
# measures them again), and the page must play the same (tests/web)
LOOP_CKSUM=2394710828
run loop.wav --size 160x120 --frames 3600 --audio-out
if [ -s "$TMP/a-loop.wav" ]; then
    got=$(cksum <"$TMP/a-loop.wav" | cut -d' ' -f1)
    if [ "$got" = "$LOOP_CKSUM" ]; then
        echo "same: loop.wav is the pinned loop (cksum $got)"
        pass=$((pass + 1))
    else
        echo "FAIL: loop.wav cksum $got, not the pinned $LOOP_CKSUM (the score or the show changed: measure the levels and remake docs/img/sound-loop.png, then pin it)"
        fail=$((fail + 1))
    fi
fi

# timedemo NAME: both builds play the timedemo's scene NAME headless; the
# CRC lines of their reports (the final state's, and the show's sound's)
# must be there and the same
timedemo() {
    for side in a b; do
        if [ $side = a ]; then prog=$A; else prog=$B; fi
        if ! "$prog" --headless --benchmark --bench-scene "$1" --size 160x120 --frames 120 \
            >"$TMP/$side.out" 2>"$TMP/$side.err"; then
            echo "FAIL: timedemo $1: $prog exited with an error: $(head -c 300 "$TMP/$side.err")"
            fail=$((fail + 1))
            return
        fi
        grep "crc32 [0-9a-f]\{8\}" "$TMP/$side.out" >"$TMP/$side.crc"
    done
    if ! [ -s "$TMP/a.crc" ]; then
        echo "FAIL: timedemo $1: no CRC in the report"
        fail=$((fail + 1))
    elif cmp -s "$TMP/a.crc" "$TMP/b.crc"; then
        echo "same: timedemo $1 ($(sed -n 's/^\([a-z]*\) *crc32 \([0-9a-f]*\).*/\1 \2/p' "$TMP/a.crc" | tr '\n' ' ' | sed 's/ $//'))"
        pass=$((pass + 1))
    else
        echo "FAIL: timedemo $1 differs: $(tr '\n' ' ' <"$TMP/a.crc") against $(tr '\n' ' ' <"$TMP/b.crc")"
        fail=$((fail + 1))
    fi
}
for scene in busy wave show side side-waves busy-1 wave-1; do
    timedemo $scene
done

echo "same-bytes: $pass the same, $fail failed ($A and $B)"
[ "$fail" = 0 ]
