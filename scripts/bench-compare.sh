#!/usr/bin/env bash
# make bench-compare: the library built with SIMD=0 (scalar kernels only,
# BUILD=build/scalar) against the normal build with runtime dispatch, on the
# same workload. Prints a ratio table and writes results/runs/<host>-<date>-compare/.
# Arguments go to both sbf-bench runs (default: --quick --suite tput,hash).
set -euo pipefail
cd "$(dirname "$0")/.."
MAKE=${MAKE:-make}
BUILD=${BUILD:-build}
SCALAR_BUILD=${SCALAR_BUILD:-build/scalar}
start=$(date +%s)
args=("$@")
[ ${#args[@]} = 0 ] && args=(--quick --suite tput,hash)

$MAKE --no-print-directory BUILD="$SCALAR_BUILD" SIMD=0 "$SCALAR_BUILD/sbf-bench" >&2
$MAKE --no-print-directory BUILD="$BUILD" "$BUILD/sbf-bench" >&2

host=$(hostname -s 2>/dev/null || hostname)
dir="results/runs/${host:-unknown}-$(date +%Y-%m-%d-%H%M%S)-compare"

mkdir -p "$dir"
commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo none)
if [ "$commit" != none ] && [ -n "$(git status --porcelain -- src simd include bench Makefile 2>/dev/null)" ]; then
  commit="$commit-dirty"
fi
echo "bench-compare: SIMD=0 build ($SCALAR_BUILD)" >&2
"$SCALAR_BUILD/sbf-bench" --quiet --commit "$commit" --json "$dir/scalar-build.json" "${args[@]}"
echo "bench-compare: dispatching build ($BUILD), default kernels" >&2
"$BUILD/sbf-bench" --quiet --commit "$commit" --isa auto --json "$dir/simd-build.json" "${args[@]}"
python3 bench/compare.py "$dir/scalar-build.json" "$dir/simd-build.json" | tee "$dir/compare.md"
echo "bench-compare: $dir written in $(( $(date +%s) - start )) s" >&2
