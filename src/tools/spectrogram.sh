#!/bin/sh
# spectrogram.sh - docs/img/sound-loop.png and sound-music-drips.png: the default show's sound in spectrograms by sox (a loop, the music with the drips over the drips alone; 8 s of the rain).
# usage: sh src/tools/spectrogram.sh [OUTDIR]   (default docs/img; RIPPLE names the demo, default ./ripple)
#
# The demo renders the loop twice headless (seed 1, 320x240, 3600 steps =
# 60 s): as it plays, and with --music off.  sox stacks their spectrograms,
# 0 to 4 kHz, where the drips sing (their falling and rising tones between
# about 0.4 and 2 kHz): the drips' marks in the lower panel must be found
# again in the upper one, standing out of the music's bed.
set -u
OUT=${1:-docs/img}
RIPPLE=${RIPPLE:-./ripple}
[ -x "$RIPPLE" ] || { echo "spectrogram: $RIPPLE is not built" >&2; exit 2; }
command -v sox >/dev/null 2>&1 || { echo "spectrogram: sox is not installed (apt-get install sox)" >&2; exit 2; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ripple-spec-XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT
trap 'exit 130' INT TERM

for what in loop drips; do
    flags=
    [ $what = drips ] && flags="--music off"
    # shellcheck disable=SC2086
    "$RIPPLE" --headless --seed 1 --size 320x240 --frames 3600 $flags --audio-out "$TMP/$what.wav" \
        >/dev/null || { echo "spectrogram: the demo could not render the $what" >&2; exit 1; }
done
# the two renders side by side as a stereo pair of mono mixes: sox draws
# one panel a channel, the first on top
sox -M "$TMP/loop.wav" "$TMP/drips.wav" -n remix 1,2 3,4 rate 8k \
    spectrogram -x 1200 -y 300 -z 80 -t "one loop (60 s): above, the music and the drips; below, the drips alone" \
    -c "ripple, assets/shows/default.show, seed 1" -o "$OUT/sound-loop.png" ||
    { echo "spectrogram: sox failed" >&2; exit 1; }
# and closer, 8 s of the rain (20 to 28 s) as it plays
sox "$TMP/loop.wav" -n remix 1,2 trim 20 8 rate 8k \
    spectrogram -x 800 -y 300 -z 80 -t "20 to 28 s of the loop: the music and the rain's drips" \
    -c "ripple, assets/shows/default.show, seed 1" -o "$OUT/sound-music-drips.png" ||
    { echo "spectrogram: sox failed" >&2; exit 1; }
echo "  sound-loop.png            one loop's sound: the music and the drips, over the drips alone"
echo "  sound-music-drips.png     20 to 28 s of the loop, the rain's drips over the music"
