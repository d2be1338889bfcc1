#!/bin/sh
# debsrc.sh - one of Debian's source packages, fetched once with apt-get source through an apt configuration of its own, unpacked; prints the folder.
# usage: sh src/tools/debsrc.sh PACKAGE UPSTREAM-VERSION SRCDIR APTDIR
#
# The deb-src line is for the archive and release the machine's apt
# already uses, with lists of its own in APTDIR: nothing is installed on
# the machine and no root is needed.  SRCDIR/PACKAGE-VERSION... is the
# unpacked source (marked .unpacked); a second run finds it and prints it,
# with or without network.  Without network one line says so and the
# script exits 1 (apt's timeouts are short, so it never hangs).  Used by
# winprefix.sh (the Windows builds' libraries) and mk/chipmunk.mk (the
# page's Chipmunk2D).
set -eu
usage="usage: debsrc.sh PACKAGE UPSTREAM-VERSION SRCDIR APTDIR"
[ $# -eq 4 ] || { echo "$usage" >&2; exit 2; }
pkg=$1; ver=$2
mkdir -p "$3" "$4"
# absolute: apt reads its own paths from its configuration
SRC=$(cd "$3" && pwd); APTDIR=$(cd "$4" && pwd)
# one run at a time on these folders (two builds side by side would
# otherwise empty each other's lists)
if command -v flock >/dev/null 2>&1; then
    exec 9>"$APTDIR.lock"
    flock 9
fi
# The archive the machine's apt reads Debian's main component from, and
# the release: the deb-src line of this script's own apt.
. /etc/os-release
codename=${VERSION_CODENAME:-bookworm}
uri=$(apt-cache policy 2>/dev/null | awk -v s="$codename/main" '$3 == s && $2 ~ /^https?:/ { print $2; exit }')
[ -n "$uri" ] || uri=http://deb.debian.org/debian
fetch_lists() {
    [ -e "$APTDIR/.lists" ] && return 0
    rm -rf "$APTDIR"
    mkdir -p "$APTDIR/lists/partial" "$APTDIR/archives/partial"
    : >"$APTDIR/status"
    keyring=/usr/share/keyrings/debian-archive-keyring.gpg
    echo "deb-src [signed-by=$keyring] $uri $codename main" >"$APTDIR/sources.list"
    cat >"$APTDIR/apt.conf" <<EOF
Dir::State "$APTDIR";
Dir::State::lists "$APTDIR/lists";
Dir::State::status "$APTDIR/status";
Dir::Etc::sourcelist "$APTDIR/sources.list";
Dir::Etc::sourceparts "$APTDIR/none";
Dir::Cache "$APTDIR";
Dir::Cache::archives "$APTDIR/archives";
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
Debug::NoLocking "true";
APT::Sandbox::User "$(id -un)";
Acquire::Retries "1";
Acquire::http::Timeout "20";
Acquire::https::Timeout "20";
EOF
    echo "debsrc: reading Debian's source lists ($codename)" >&2
    # a mirror in the middle of a sync serves a list of the wrong size for
    # a minute or so: try again a few times
    try=1
    while ! APT_CONFIG="$APTDIR/apt.conf" apt-get update -q >"$APTDIR/update.log" 2>&1 ||
        grep -q '^[WE]: Failed\|^Err:' "$APTDIR/update.log"; do
        if [ $try -ge 5 ]; then
            echo "debsrc: cannot read Debian's source lists from $uri (no network?); see $APTDIR/update.log" >&2
            exit 1
        fi
        echo "debsrc: the source lists failed (try $try; a mirror syncing?), again in $((try * 20)) s" >&2
        sleep $((try * 20))
        try=$((try + 1))
    done
    touch "$APTDIR/.lists"
}

found=$(cd "$SRC" && ls -d "$pkg-$ver"* 2>/dev/null | head -n 1)
if [ -n "$found" ] && [ -e "$SRC/$found/.unpacked" ]; then
    echo "$SRC/$found"
    exit 0
fi
fetch_lists
# the archive's revision of that upstream version
full=$(APT_CONFIG="$APTDIR/apt.conf" apt-cache showsrc "$pkg" 2>/dev/null |
    awk -v v="$ver" '$1 == "Version:" { s = $2; sub(/^[0-9]+:/, "", s); if (index(s, v) == 1) { print $2; exit } }')
if [ -z "$full" ]; then
    echo "debsrc: Debian's lists have no source of $pkg $ver" >&2
    exit 1
fi
rm -rf "$SRC/dl-$pkg"
mkdir -p "$SRC/dl-$pkg"
if ! (cd "$SRC/dl-$pkg" && APT_CONFIG="$APTDIR/apt.conf" apt-get source -q --download-only "$pkg=$full") \
    >"$SRC/dl-$pkg.log" 2>&1; then
    tail -n 5 "$SRC/dl-$pkg.log" >&2
    echo "debsrc: cannot download the source of $pkg $full (no network?)" >&2
    exit 1
fi
(cd "$SRC/dl-$pkg" && dpkg-source -q -x ./*.dsc out) >>"$SRC/dl-$pkg.log" 2>&1 || {
    tail -n 5 "$SRC/dl-$pkg.log" >&2
    echo "debsrc: cannot unpack the source of $pkg $full" >&2
    exit 1
}
dest="$SRC/$pkg-${full#*:}"
rm -rf "$dest"
mv "$SRC/dl-$pkg/out" "$dest"
rm -rf "$SRC/dl-$pkg"
touch "$dest/.unpacked"
echo "$dest"
