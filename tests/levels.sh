#!/bin/sh
# levels.sh - the sound of one loop of the default show is loud enough and never clips: Debian's ffmpeg measures it.
# usage: sh tests/levels.sh RIPPLE
#
# The demo renders a whole loop (60 s, the music with the show's drips)
# with --audio-out; ffmpeg's ebur128 filter gives its integrated loudness
# (ITU-R BS.1770, LUFS) and astats its sample peak.  Targets: loudness
# between -20 and -14 LUFS, a peak at or below -1 dBFS; and the same loop
# with --music off (the drips alone) at least 1 LU quieter, or the music
# would not be heard over them.
set -u
RIPPLE=${1:?usage: levels.sh RIPPLE}
command -v ffmpeg >/dev/null 2>&1 || { echo "levels: ffmpeg is not installed (make deps-test installs it)"; exit 1; }
TMP=$(mktemp -d) || exit 1
trap 'rm -rf "$TMP"' EXIT INT TERM
fail=0

# render NAME FLAGS...: one loop into TMP/NAME.wav
render() {
    name=$1
    shift
    if ! "$RIPPLE" --headless --seed 1 --size 160x120 --frames 3600 "$@" --audio-out "$TMP/$name.wav" \
        >/dev/null 2>"$TMP/err"; then
        echo "FAIL: levels: $RIPPLE could not render $name: $(head -c 300 "$TMP/err")"
        exit 1
    fi
}
# measure NAME: sets lufs and peak (dBFS) from ffmpeg's reports
measure() {
    ffmpeg -nostats -hide_banner -i "$TMP/$1.wav" \
        -af "ebur128=peak=none,astats=measure_perchannel=none:measure_overall=Peak_level" \
        -f null - >"$TMP/$1.log" 2>&1
    lufs=$(sed -n 's/^ *I: *\(-*[0-9.]*\) LUFS.*/\1/p' "$TMP/$1.log" | tail -n 1)
    peak=$(sed -n 's/.*Peak level dB: *\(-*[0-9.]*\).*/\1/p' "$TMP/$1.log" | tail -n 1)
    if [ -z "$lufs" ] || [ -z "$peak" ]; then
        echo "FAIL: levels: ffmpeg gave no loudness or peak for $1: $(tail -n 3 "$TMP/$1.log" | tr '\n' ' ')"
        exit 1
    fi
}
# check WHAT CONDITION MESSAGE: awk judges the numbers
check() {
    if awk -v l="$lufs" -v p="$peak" -v m="${music:-0}" "BEGIN { exit !($2) }"; then
        echo "ok: $1"
    else
        echo "FAIL: $1: $3"
        fail=$((fail + 1))
    fi
}

render loop
measure loop
check "loop: $lufs LUFS, peak $peak dBFS" "l >= -20 && l <= -14" "loudness outside -20..-14 LUFS"
check "loop: peak $peak dBFS at most -1" "p <= -1" "the peak is above -1 dBFS"
music=$lufs
render drips --music off
measure drips
check "drips alone: $lufs LUFS, the loop $music LUFS" "m - l >= 1" "the music adds less than 1 LU to the drips"

echo "levels: $fail failed"
[ "$fail" = 0 ]
