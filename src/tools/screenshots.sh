#!/bin/sh
# screenshots.sh - remakes the pictures of the README and docs/look.md from
# the current build, so they never show an old demo: `make screenshots`.
# usage: sh src/tools/screenshots.sh [OUTDIR]   (default docs/img; RIPPLE,
#        BENCH, SHOT and SHOW name the demo, ripple-bench, build/shot and
#        the show, by default ./ripple, bench/ripple-bench, build/shot and
#        assets/shows/default.show)
#
# Every picture but the window is made headless with the fixed seed 1, so
# the same build and show give the same files.  The moments are found, not
# written down: ripple-bench --look plays the show and, within each scene's
# span of time (SCENES below), the step with the most speckle is taken, so
# the pictures show each scene where its water looks worst, whatever the
# show is tuned to; in the scenes the light draws (the refraction off: the
# written word, the two slits) the step with the most light, where its
# drawing is strongest.
#
# The window (window.png, what a viewer sees, with the overlay) is grabbed
# from Xvfb's screen file while the demo plays the show live; its water is
# the show at about WINDOW_AT seconds, give or take the few steps the
# machine's timing moves it, and its overlay holds this machine's timings,
# so it differs from run to run.  Without Xvfb, xdotool or xwininfo the
# other pictures are made, the window is not, and the exit status is 1.
set -u

OUT=${1:-docs/img}
RIPPLE=${RIPPLE:-./ripple}
BENCH=${BENCH:-bench/ripple-bench}
SHOT=${SHOT:-build/shot}
SHOW=${SHOW:-assets/shows/default.show}
SEED=1
WINDOW_AT=${WINDOW_AT:-11}

# The busy scenes of the default show, as NAME FROM TO (seconds) BY WHAT:
# the step of the most speckle or of the most light in the span.
SCENES="text 7.5 10 light the word written in stones above the plaque
shapes 10 20 speckle the big ring and the shapes drawn stone by stone
rain 20 27.5 speckle the rain
slits 34 38.75 light the two slits, the fan of arcs standing above the wall
finale 40 47.5 speckle the finale's rings and drops
text2 47.5 50 light the word again, below the plaque
shower 50 52.5 speckle the finale's shower"
# the busy moments shown on the wave model as well
WAVE_SCENES="text slits rain"
# and at 320x200 (the whole pool) and 1920x1080 (the whole frame at half size)
SIZE_SCENES="text slits"

for f in "$RIPPLE" "$BENCH" "$SHOT"; do
    [ -x "$f" ] || { echo "screenshots: $f is not built (make screenshots builds it)" >&2; exit 2; }
done
[ -r "$SHOW" ] || { echo "screenshots: cannot read the show $SHOW" >&2; exit 2; }
mkdir -p "$OUT" || exit 2
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ripple-shots-XXXXXX") || exit 2
: >"$TMP/list"
trap 'rm -rf "$TMP"' EXIT
trap 'exit 130' INT TERM
fail=0

# Each picture made is said, and listed in OUT/README.md (written at the end).
say() {
    printf '  %-26s %s\n' "$1" "$2"
    printf '| [%s](%s) | %s |\n' "$1" "$1" "$2" >>"$TMP/list"
}
# OUT/README.md: what each picture is, at which step of the show
index() {
    {
        echo "# docs/img"
        echo
        echo "Written by \`make screenshots\` (\`src/tools/screenshots.sh\`) from the build and"
        echo "\`$SHOW\`, seed $SEED; every picture but window.png is made headless and"
        echo "comes out the same on every run. A busy moment is the step of the most"
        echo "speckle (\`ripple-bench --look --every 10\`) in its scene's span of time;"
        echo "the busy-* and wave-* pictures are the middle 400x300 of the 640x480 pool"
        echo "at 1:1, but for the scenes the light draws (the refraction off: the written"
        echo "word, the two slits), chosen by their most light and shown whole."
        echo
        echo "| picture | what |"
        echo "|---|---|"
        cat "$TMP/list"
    } >"$OUT/README.md"
}

# the scene's words; a step as seconds
what() { echo "$SCENES" | awk -v n="$1" '$1 == n { $1 = $2 = $3 = $4 = ""; sub(/^ +/, ""); print }'; }
secs() { awk -v n="$1" 'BEGIN { printf "%.2f s", n / 60 }'; }

# ripple --headless at the show's step N, the frame saved: frame N WxH MODEL FILE
frame() {
    "$RIPPLE" --headless --show "$SHOW" --seed $SEED --size "$2" --model "$3" --frames "$1" \
        --no-overlay --mute --screenshot "$4" >/dev/null ||
        { echo "screenshots: ripple failed at step $1 ($2, $3)" >&2; exit 1; }
}

# The step of the most speckle (or light) in each scene: busiest WxH MODEL
# -> lines NAME STEP SPECKLE LIGHT
busiest() {
    "$BENCH" --look --show "$SHOW" --seed $SEED --size "$1" --model "$2" --every 10 >"$TMP/look" ||
        { echo "screenshots: ripple-bench --look failed ($1, $2)" >&2; exit 1; }
    echo "$SCENES" | while read -r name from to by what; do
        awk -v from="$from" -v to="$to" -v name="$name" -v by="$by" '
            /^ *[0-9]/ { t = $2; sub(/s$/, "", t); sp = $3; sub(/%$/, "", sp)
                         v = by == "light" ? $6 : sp
                         if (t + 0 > from + 0 && t + 0 <= to + 0 && (best == "" || v + 0 > best + 0)) {
                             best = v; at = $1; asp = sp; alt = $6 } }
            END { if (at != "") print name, at, asp, alt }' "$TMP/look"
    done
}
# how a scene's moment was found, for the index: moment NAME SPECKLE LIGHT
moment() {
    case $(echo "$SCENES" | awk -v n="$1" '$1 == n { print $4 }') in
    light) echo "its most light, $3 a channel" ;;
    *) echo "$2% speckle" ;;
    esac
}

# A 400x300 piece of the middle of a 640x480 frame, at 1:1: the pool's
# pixels as they are, small enough for the page; of a scene the light
# draws, whose drawing spans the pool (a word from border to border), the
# whole frame: piece NAME IN OUT
middle() { "$SHOT" crop "$1" "$2" 120 90 400 300 >/dev/null || exit 1; }
piece() {
    if [ "$(echo "$SCENES" | awk -v n="$1" '$1 == n { print $4 }')" = light ]; then
        cp "$2" "$3" || exit 1
    else
        middle "$2" "$3"
    fi
}

echo "screenshots: into $OUT/ (show $SHOW, seed $SEED)"

# ---- the busy moments, classic and wave, 640x480 -----------------------------
busiest 640x480 classic >"$TMP/classic"
cp "$TMP/look" "$TMP/classic.look"
busiest 640x480 wave >"$TMP/wave"
cp "$TMP/look" "$TMP/wave.look"
while read -r name step sp lt; do
    frame "$step" 640x480 classic "$TMP/f.png"
    piece $name "$TMP/f.png" "$OUT/busy-$name.png"
    say "busy-$name.png" "$(what $name), classic water: step $step ($(secs $step)), $(moment $name $sp $lt)"
done <"$TMP/classic"
for name in $WAVE_SCENES; do
    set -- $(grep "^$name " "$TMP/wave")
    [ $# = 4 ] || continue
    frame "$2" 640x480 wave "$TMP/f.png"
    piece $name "$TMP/f.png" "$OUT/wave-$name.png"
    say "wave-$name.png" "$(what $name), wave water: step $2 ($(secs $2)), $(moment $name $3 $4)"
done

# ---- the pool's own stones: a person's play and the autopilot, before and after ----
# At the step where the smooth stones speckle most (ripple-bench --look
# --every 10, classic water), smooth and, at the same moment, classic.
worst() {
    "$BENCH" --look "$1" --stones smooth --seed $SEED --size 640x480 --every 10 |
        sed -n 's/^# worst speckle \([0-9.]*\)% at step \([0-9]*\),.*/\2 \1/p'
}
# pool WHO(--person|--no-show) STONES STEP FILE
pool() {
    "$RIPPLE" --headless --no-show $1 --stones "$2" --seed $SEED --size 640x480 --frames "$3" \
        --no-overlay --mute --screenshot "$TMP/f.png" >/dev/null ||
        { echo "screenshots: ripple $1 --stones $2 failed at step $3" >&2; exit 1; }
    middle "$TMP/f.png" "$4"
}
for who in person autopilot; do
    flag=--person
    [ $who = autopilot ] && flag=--no-show
    set -- $(worst $flag)
    [ $# = 2 ] || { echo "screenshots: ripple-bench --look $flag failed" >&2; exit 1; }
    pool $flag smooth "$1" "$OUT/$who-smooth.png"
    say "$who-smooth.png" "$who (ripple $flag), smooth stones at 4/16: step $1 ($(secs $1)), its most speckle, $2%"
    pool $flag classic "$1" "$OUT/$who-classic.png"
    say "$who-classic.png" "$who (ripple $flag --stones classic), the flat discs at 16/16: the same step $1"
done

# ---- the curve: speckle over the whole show, before smooth stones and now ---
if command -v python3 >/dev/null 2>&1; then
    python3 "$(dirname "$0")/look-curve.py" docs/look-before.txt "$TMP/classic.look" \
        "$TMP/wave.look" "$OUT/look-curve.svg" ||
        { echo "screenshots: the curve failed" >&2; exit 1; }
    say "look-curve.svg" "speckle over the default show at 640x480, every 10 steps, before smooth stones and now"
else
    echo "screenshots: python3 not found: $OUT/look-curve.svg is NOT remade" >&2
    fail=1
fi

# ---- the word and the slits at 320x200 and at 1920x1080, at their busy steps --
for model in classic wave; do
    sfx=
    [ $model = wave ] && sfx=-wave
    for name in $SIZE_SCENES; do
        set -- $(grep "^$name " "$TMP/$model")
        [ $# = 4 ] || continue
        frame "$2" 320x200 $model "$OUT/$name-320x200$sfx.png"
        say "$name-320x200$sfx.png" "$(what $name) at 320x200, $model water: step $2, the whole pool"
        frame "$2" 1920x1080 $model "$TMP/f.png"
        "$SHOT" half "$TMP/f.png" "$OUT/$name-1920x1080$sfx.png" >/dev/null || exit 1
        say "$name-1920x1080$sfx.png" "$(what $name) at 1920x1080, $model water: step $2, the whole frame at half size"
    done
done

# ---- the title card and the credits, at 640x480 and 320x200 -------------------
frame 150 640x480 classic "$OUT/title.png"
say "title.png" "the title card over the opening's drops: step 150 (2.5 s), 640x480"
frame 150 320x200 classic "$OUT/title-320x200.png"
say "title-320x200.png" "the title card at 320x200: step 150"
frame 3500 640x480 classic "$OUT/credits.png"
say "credits.png" "the closing credits: step 3500 (58.3 s), 640x480"

# ---- the side view ------------------------------------------------------------
"$RIPPLE" --headless --scene side --seed $SEED --frames 882 --mute --screenshot "$OUT/side.png" \
    >/dev/null || { echo "screenshots: the side view failed" >&2; exit 1; }
say "side.png" "the side view (--scene side): step 882, a crate just in"

# ---- the window, under Xvfb -----------------------------------------------------
missing=
for c in xvfb-run Xvfb xdotool xwininfo; do
    command -v $c >/dev/null 2>&1 || missing="$missing $c"
done
if [ -n "$missing" ]; then
    index
    echo "screenshots: not found:$missing: $OUT/window.png is NOT remade" \
         "(on Debian: apt-get install xvfb xdotool x11-utils)" >&2
    exit 1
fi
cat >"$TMP/window.sh" <<'EOF'
# under xvfb-run: plays the show in a window, freezes the demo at the
# moment, copies the window out of the screen file
fb=$1 at=$2 out=$3 shot=$4
shift 4
"$@" >/dev/null 2>&1 &
pid=$!
wid=$(timeout 20 xdotool search --sync --onlyvisible --pid "$pid" --name '^ripple$' 2>/dev/null | head -n 1)
rc=1
if [ -n "$wid" ]; then
    sleep "$at"
    kill -STOP "$pid"
    sleep 0.2
    geo=$(xwininfo -id "$wid" | awk '/Absolute upper-left X/ { x = $NF } /Absolute upper-left Y/ { y = $NF }
                                     /^ *Width:/ { w = $NF } /^ *Height:/ { h = $NF }
                                     END { print x, y, w, h }')
    "$shot" xwd "$fb/Xvfb_screen0" "$out" $geo && rc=0
    kill -CONT "$pid"
fi
kill "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
exit $rc
EOF
mkdir "$TMP/fb"
if SDL_AUDIODRIVER=dummy timeout 120 xvfb-run -a -s "-screen 0 640x480x24 -fbdir $TMP/fb" \
        sh "$TMP/window.sh" "$TMP/fb" "$WINDOW_AT" "$OUT/window.png" "$SHOT" \
        "$RIPPLE" --show "$SHOW" --seed $SEED --mute; then
    say "window.png" "the window under Xvfb with its overlay, the show live at about ${WINDOW_AT} s (its timings are this machine's)"
else
    echo "screenshots: the window could not be grabbed: $OUT/window.png is NOT remade" >&2
    fail=1
fi
index
exit $fail
