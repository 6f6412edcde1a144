#!/usr/bin/env bash
# make bench / make bench-quick: builds $BUILD/sbf-bench, runs it, and writes
# results/<host>-<date>/ (bench.json, REPORT.md, plot data, PNG plots,
# stdout.txt). A plain full run (`make bench`, no BENCH_ARGS) also becomes
# results/REPORT.md, the committed report. Arguments go to sbf-bench
# (see `build/sbf-bench --help`); --quick runs write <host>-<date>-quick/.
set -euo pipefail
cd "$(dirname "$0")/.."
MAKE=${MAKE:-make}
BUILD=${BUILD:-build}
start=$(date +%s)

quick=0
for a in "$@"; do [ "$a" = --quick ] && quick=1; done
$MAKE --no-print-directory BUILD="$BUILD" "$BUILD/sbf-bench" >&2

host=$(hostname -s 2>/dev/null || hostname)
host=${host:-unknown}
dir="results/$host-$(date +%Y-%m-%d)"
[ $quick = 1 ] && dir="$dir-quick"
commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo none)
if [ "$commit" != none ] && [ -n "$(git status --porcelain -- src simd include bench Makefile 2>/dev/null)" ]; then
  commit="$commit-dirty"
fi
rm -rf "$dir"
mkdir -p "$dir"

"$BUILD/sbf-bench" --outdir "$dir" --commit "$commit" "$@" | tee "$dir/stdout.txt"

# Plots: gnuplot-nox; pngcairo when it has it, else the libgd png terminal.
if command -v gnuplot >/dev/null; then
  term=png
  gnuplot -e 'set terminal' 2>&1 | grep -q pngcairo && term=pngcairo
  # plotvars.gp lists the scripts of the sections that wrote plot data
  plots=$(sed -n 's/^plots = "\(.*\)"$/\1/p' "$dir/plotvars.gp")
  for gp in $plots; do
    gnuplot -e "dir='$dir'; term='$term'" "scripts/$gp.gp" ||
      echo "bench: gnuplot failed on scripts/$gp.gp" >&2
  done
else
  echo "bench: gnuplot is missing (make deps installs gnuplot-nox): no plots" >&2
fi

if [ $# = 0 ]; then
  # The committed report: the same text, image links into the run directory.
  base=$(basename "$dir")
  sed -e "s#](\([A-Za-z0-9_.-]*\.\(png\|json\)\))#]($base/\1)#g" \
      -e "s#^Written by \`build/sbf-bench\`#Written by \`build/sbf-bench\` into $base/#" \
      "$dir/REPORT.md" > results/REPORT.md
  echo "bench: results/REPORT.md updated" >&2
fi
echo "bench: $dir written; make bench took $(( $(date +%s) - start )) s" >&2
