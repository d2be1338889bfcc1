#!/bin/sh
# web.sh - the page's tests: the SIMD module's kernels against the scalar ones in node, the server under clients that leave early, both modules' sound of the music's whole loop with the default show's drips in node against the native demo's --audio-out, then both modules in a headless Chromium (the timedemo's scenes' CRCs equal to the native demo's, its rounds, results panel and copy button, a picture that answers a click, no console error), then the component (ripple-water.js) in Chromium and Firefox ESR (sizes and pixel ratios, drop, pause, destroy, bad input, and Firefox's timedemo CRCs); the side view's timedemo (side-3, side-waves-3) against the native CRC of its state and picture in both browsers, and its Tab and clicks in Chromium.
# usage: sh tests/web.sh DEMO WEB_DIR EXACT_JS [SHOTS_DIR [PACKAGE_DIR]]
#
# DEMO is the native demo, whose --benchmark (busy-1 and busy-2, 2000
# frames) gives the water's CRCs the page must reach with both modules; WEB_DIR the built
# page (make web); EXACT_JS the exactness check built for WebAssembly with
# the SIMD kernels (tests/web_exact.c).  Screenshots before and after the
# click and of the timedemo's results go to SHOTS_DIR when given; PACKAGE_DIR
# is make web-package's folder, checked when given.
set -u
usage="usage: web.sh DEMO WEB_DIR EXACT_JS [SHOTS_DIR [PACKAGE_DIR]]"
DEMO=${1:?$usage}
WEB=${2:?$usage}
EXACT=${3:?$usage}
SHOTS=${4:-}
PKG=${5:-}
fail=0
TMP=$(mktemp -d) || exit 1
trap 'rm -rf "$TMP"' EXIT INT TERM

# Lanes side by side: the kernels and the server here; the native timedemo's
# CRCs; and the music's whole loop (60 s, 3600 steps) with the default show's
# drips as the native demo writes it (tests/same-bytes.sh holds gcc's and clang's
# to the same bytes).  Once that is written each module plays the same in node
# (tests/web/music-crc.js), in the background while the browsers run: the page must
# mix the same bytes.  A minute of sound takes each module about two seconds of
# CPU: too long for every browser, which play the first BROWSER_STEPS steps (the
# opening's drips over pads, bass, hats and drops) against the native file's start.
MUSIC_STEPS=3600
BROWSER_STEPS=600
"$DEMO" --headless --threads 1 --size 160x120 --frames $MUSIC_STEPS --audio-out "$TMP/loop.wav" \
    >"$TMP/loop.out" 2>&1 &
loop=$!

# The water after 2000 frames of a scene, from the native demo ("" when it
# has no such scene).
native_crc() {
    c=$("$DEMO" --benchmark --headless --frames 2000 --bench-scene "$1" 2>/dev/null |
        awk '$1 == "water" { print $3 }')
    case $c in
        [0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]) echo "$c";;
    esac
}
# The side view's state and picture after SIDE_FRAMES frames of a side
# scene, from the native demo: its bodies (their sines, Chipmunk2D's steps)
# must end where the page's do, and be drawn to the same bytes.
SIDE_FRAMES=1000
native_state() {
    c=$("$DEMO" --benchmark --headless --frames "$SIDE_FRAMES" --bench-scene "$1" 2>/dev/null |
        awk '$1 == "state" { print $3 }')
    case $c in
        [0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]) echo "$c";;
    esac
}
(
    native_crc busy-1 >"$TMP/busy-1"
    native_crc busy-2 >"$TMP/busy-2"
    native_state side-3 >"$TMP/side-3"
    native_state side-waves-3 >"$TMP/side-waves-3"
) &
natives=$!

# emscripten 3.1.6's node glue fetches its .wasm with node's fetch, which
# cannot read a file path: the old way, fs.readFile, is taken without it.
echo "web: the SIMD kernels against the scalar ones (node $(node --version))"
node --no-experimental-fetch "$EXACT" || fail=1

echo "web: the server (src/web/serve.mjs) under dropped downloads and odd paths"
node tests/web/server.mjs || fail=1

wait $natives
crc=$(cat "$TMP/busy-1")
[ -n "$crc" ] || { echo "web: the native demo's --benchmark gave no water CRC for busy-1"; exit 1; }
echo "web: native busy-1, 2000 frames: water crc32 $crc"
crc2=$(cat "$TMP/busy-2")
if [ -n "$crc2" ]; then
    echo "web: native busy-2, 2000 frames: water crc32 $crc2"
else
    echo "web: the native demo has no busy-2 yet: the page's busy-2 is held to its rounds and its two modules"
fi
side=$(cat "$TMP/side-3")
waves=$(cat "$TMP/side-waves-3")
[ -n "$side" ] && [ -n "$waves" ] || { echo "web: the native demo's --benchmark gave no state CRC for side-3 or side-waves-3"; exit 1; }
echo "web: native side-3 and side-waves-3, $SIDE_FRAMES frames: state crc32 $side and $waves"

music_crc=
music=
if wait $loop; then
    echo "web: native --audio-out of the default show and score, $MUSIC_STEPS steps: cksum $(cksum <"$TMP/loop.wav")"
    music_crc=$(node tests/web/music.mjs --wav "$TMP/loop.wav" --crc-of-steps $BROWSER_STEPS) || music_crc=
    echo "web: native, the first $BROWSER_STEPS steps: crc32 $music_crc"
    (
        st=0
        for mod in simd scalar; do
            node --no-experimental-fetch tests/web/music.mjs --wav "$TMP/loop.wav" --dir "$WEB" --module $mod || st=1
        done
        exit $st
    ) >"$TMP/music.out" 2>&1 &
    music=$!
else
    echo "FAIL web: the native demo's --audio-out: $(head -c 300 "$TMP/loop.out")"
    fail=1
fi

# node 20's WebSocket (the DevTools protocol's transport) is behind a flag
ws=
node --experimental-websocket -e 0 2>/dev/null && ws=--experimental-websocket
node $ws tests/web/browser.mjs --dir "$WEB" --crc "$crc" ${crc2:+--crc2 "$crc2"} --frames 2000 \
    --side-crc "$side" --side-waves-crc "$waves" --side-frames "$SIDE_FRAMES" \
    ${music_crc:+--music-crc "$music_crc" --music-steps $BROWSER_STEPS} ${SHOTS:+--shots "$SHOTS"} || fail=1

echo "web: the component (ripple-water.js) in headless Chromium and Firefox ESR, side by side"
node $ws tests/web/embed.mjs --dir "$WEB" --crc "$crc" ${crc2:+--crc2 "$crc2"} \
    --side-crc "$side" --side-frames "$SIDE_FRAMES" \
    ${music_crc:+--music-crc "$music_crc" --music-steps $BROWSER_STEPS} ${SHOTS:+--shots "$SHOTS"} || fail=1

if [ -n "$music" ]; then
    echo "web: the music's whole loop, each module in node"
    wait $music || fail=1
    cat "$TMP/music.out"
fi

if [ -n "$PKG" ]; then
    echo "web: the package (make web-package) in $PKG"
    node tests/web/package.mjs "$PKG" || fail=1
fi

[ "$fail" = 0 ] && echo "web: all passed" || echo "web: FAILED"
exit "$fail"
