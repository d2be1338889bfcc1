#!/bin/sh
# web.sh - the page's tests: the SIMD module's kernels against the scalar ones in node, the server under clients that leave early, then both modules in a headless Chromium (the timedemo's CRC equal to the native demo's, a picture that answers a click, no console error).
# usage: sh tests/web.sh DEMO WEB_DIR EXACT_JS [SHOTS_DIR]
#
# DEMO is the native demo, whose --benchmark (busy-1, 2000 frames) gives
# the water's CRC the page must reach with both modules; WEB_DIR the built
# page (make web); EXACT_JS the exactness check built for WebAssembly with
# the SIMD kernels (tests/web_exact.c).  Screenshots before and after the
# click go to SHOTS_DIR when given.
set -u
usage="usage: web.sh DEMO WEB_DIR EXACT_JS [SHOTS_DIR]"
DEMO=${1:?$usage}
WEB=${2:?$usage}
EXACT=${3:?$usage}
SHOTS=${4:-}
fail=0

# emscripten 3.1.6's node glue fetches its .wasm with node's fetch, which
# cannot read a file path: the old way, fs.readFile, is taken without it.
echo "web: the SIMD kernels against the scalar ones (node $(node --version))"
node --no-experimental-fetch "$EXACT" || fail=1

echo "web: the server (src/web/serve.mjs) under dropped downloads and odd paths"
node tests/web/server.mjs || fail=1

crc=$("$DEMO" --benchmark --headless --frames 2000 | awk '$1 == "water" { print $3 }')
case $crc in
    [0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]) ;;
    *) echo "web: the native demo's --benchmark gave no water CRC"; exit 1;;
esac
echo "web: native busy-1, 2000 frames: water crc32 $crc"

# node 20's WebSocket (the DevTools protocol's transport) is behind a flag
ws=
node --experimental-websocket -e 0 2>/dev/null && ws=--experimental-websocket
node $ws tests/web/browser.mjs --dir "$WEB" --crc "$crc" --frames 2000 \
    ${SHOTS:+--shots "$SHOTS"} || fail=1

[ "$fail" = 0 ] && echo "web: all passed" || echo "web: FAILED"
exit "$fail"
