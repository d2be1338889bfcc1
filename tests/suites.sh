#!/bin/sh
# suites.sh - runs unit test programs one after another, their output into a log, one line of result.
# usage: [RUNNER='qemu-i386 -cpu pentium3'] sh tests/suites.sh LABEL LOG PROGRAM...
#
# Runs every PROGRAM (through RUNNER when set) even after a failure, so that
# one run names every failing suite.  The caller's environment (RIPPLE_SIMD,
# the sanitizers' options) reaches each program.  Prints one line, or the
# end of each failed program's output and the names of the failed ones.
set -u
label=${1:?usage: suites.sh LABEL LOG PROGRAM...}
log=${2:?usage: suites.sh LABEL LOG PROGRAM...}
shift 2
[ $# -gt 0 ] || { echo "$label: no test programs"; exit 1; }
mkdir -p "$(dirname "$log")"
: >"$log"
t0=$(date +%s.%N)
failed=""
n=0
for t in "$@"; do
    n=$((n + 1))
    echo "---- ${RUNNER:+$RUNNER }$t" >>"$log"
    # shellcheck disable=SC2086 # RUNNER is a command and its words
    if ! ${RUNNER:-} "$t" >"$log.one" 2>&1; then
        failed="$failed $(basename "$t")"
        echo "---- $label: $(basename "$t") failed:"
        tail -n 30 "$log.one"
    fi
    cat "$log.one" >>"$log"
done
rm -f "$log.one"
t=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
if [ -n "$failed" ]; then
    echo "$label: FAILED:$failed (of $n suites; output in $log)"
    exit 1
fi
echo "$label: $n suites passed in $t s"
