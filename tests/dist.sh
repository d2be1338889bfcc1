#!/bin/sh
# dist.sh - the downloads of make dist hold what they should, and their programs start.
# usage: sh tests/dist.sh ZIP|- TARBALL VERSION
#
# The zip (- when the Windows demo is not built yet): exactly the files a
# Windows user needs in one folder, ripple-VERSION-win32 (the two
# programs, the three DLLs, the assets, README.txt with CRLF line ends).
# The tarball: its folder ripple-VERSION-i386-linux, the launcher, the
# demo, lib/ with SDL2; the launcher, unpacked in a fresh folder, runs the
# demo's --version.  And src/tools/dist.sh, failing (an input missing),
# leaves the archive it would have replaced as it was and no temporary
# file.
set -u
usage="usage: dist.sh ZIP|- TARBALL VERSION"
ZIP=${1:?$usage}
TGZ=${2:?$usage}
VERSION=${3:?$usage}
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT INT TERM

if [ "$ZIP" != - ]; then
    top=ripple-$VERSION-win32
    want=$( { printf '%s\n' ripple.exe ripple-bench.exe libripple.dll SDL2.dll SDL2_image.dll README.txt
              for f in assets/*.png assets/shows/*.show assets/music/*.score; do echo "$f"; done; } | sed "s|^|$top/|" | sort)
    got=$(python3 -c 'import sys, zipfile
for n in zipfile.ZipFile(sys.argv[1]).namelist():
    if not n.endswith("/"): print(n)' "$ZIP" | sort)
    if [ "$got" = "$want" ]; then ok; echo "zip: $(echo "$got" | wc -l) files, as it should"
    else bad "the zip's files differ from what it should hold:"
        echo "$want" >"$TMP/want"; echo "$got" >"$TMP/got"; diff "$TMP/want" "$TMP/got"; fi
    if python3 -c 'import sys, zipfile
t = zipfile.ZipFile(sys.argv[1]).read(sys.argv[2])
lines = t.split(b"\n")[:-1]
sys.exit(0 if lines and all(l.endswith(b"\r") for l in lines) and b"\r\r" not in t else 1)' "$ZIP" "$top/README.txt"
    then ok; else bad "the zip's README.txt has not CRLF line ends throughout"; fi
fi

top=ripple-$VERSION-i386-linux
mkdir "$TMP/x"
if tar -xzf "$TGZ" -C "$TMP/x"; then ok; else bad "cannot unpack $TGZ"; fi
for f in ripple ripple.bin README.txt lib/libSDL2-2.0.so.0 assets/background.png assets/shows/default.show assets/music/default.score; do
    if [ -e "$TMP/x/$top/$f" ]; then ok; else bad "the tarball has no $top/$f"; fi
done
if [ -x "$TMP/x/$top/ripple" ]; then ok; else bad "the launcher is not executable"; fi
out=$(cd / && "$TMP/x/$top/ripple" --version 2>&1); rc=$?
if [ $rc = 0 ] && echo "$out" | grep -q "^ripple $VERSION"; then ok; echo "tarball: the launcher runs: $(echo "$out" | head -n 1)"
else bad "the tarball's launcher: exit $rc, '$(echo "$out" | head -c 300)'"; fi

# a failed run keeps what it would have replaced, and leaves nothing
mkdir -p "$TMP/empty" "$TMP/out"
echo keep >"$TMP/out/r.zip"
if sh src/tools/dist.sh win32 "$TMP/out/r.zip" "$VERSION" "$TMP/empty" >"$TMP/err" 2>&1; then
    bad "dist.sh made a zip of an empty build"
elif [ "$(cat "$TMP/out/r.zip")" = keep ] && [ "$(ls -A "$TMP/out")" = r.zip ]; then ok
else bad "a failed dist.sh left: $(ls -A "$TMP/out") ($(cat "$TMP/err"))"; fi

echo "dist: $pass passed, $fail failed"
[ "$fail" = 0 ]
