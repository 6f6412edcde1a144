#!/usr/bin/env bash
# make bench / make bench-quick: builds $BUILD/sbf-bench, runs it, and writes
# a new folder results/runs/<host>-<date>-<time>/ (bench.json, REPORT.md,
# plot data, PNG plots, stdout.txt; git ignores results/runs/); --quick runs
# end in -quick. The committed report results/REPORT.md is replaced only when
# asked, by a plain full run: PUBLISH=1 (`make bench PUBLISH=1`; the lead
# publishes a quiet machine's run), which also replaces the run's plots and
# bench.json in results/<machine kind>/ (amd, intel, or the architecture),
# where REPORT.md links. Arguments go to sbf-bench (`build/sbf-bench --help`).
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
stamp=$(date +%Y-%m-%d-%H%M%S)
dir="results/runs/$host-$stamp"
[ $quick = 1 ] && dir="$dir-quick"
commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo none)
if [ "$commit" != none ] && [ -n "$(git status --porcelain -- src simd include bench Makefile 2>/dev/null)" ]; then
  commit="$commit-dirty"
fi
if [ "${PUBLISH:-0}" = 1 ] && [ $# != 0 ]; then
  echo "bench: PUBLISH=1 publishes a plain full run only (no BENCH_ARGS, not quick)" >&2
  exit 2
fi
mkdir -p "$dir"

"$BUILD/sbf-bench" --outdir "$dir" --commit "$commit" "$@" | tee "$dir/stdout.txt"

# Plots: gnuplot-nox; pngcairo when it has it, else the libgd png terminal.
if command -v gnuplot >/dev/null; then
  term=png
  gnuplot -e 'set terminal' 2>&1 | grep -c pngcairo >/dev/null && term=pngcairo
  # plotvars.gp lists the scripts of the sections that wrote plot data
  plots=$(sed -n 's/^plots = "\(.*\)"$/\1/p' "$dir/plotvars.gp")
  for gp in $plots; do
    gnuplot -e "dir='$dir'; term='$term'" "scripts/$gp.gp" ||
      echo "bench: gnuplot failed on scripts/$gp.gp" >&2
  done
else
  echo "bench: gnuplot is missing (make deps installs gnuplot-nox): no plots" >&2
fi

if [ "${PUBLISH:-0}" = 1 ]; then
  # The committed report: the same text, its plots and bench.json copied to
  # the machine kind's folder (the files of the run published before go).
  case "$(sed -n 's/^vendor_id[^:]*: *//p' /proc/cpuinfo 2>/dev/null | head -1)" in
    AuthenticAMD) kind=amd ;;
    GenuineIntel) kind=intel ;;
    *) kind=$(uname -m) ;;
  esac
  mkdir -p "results/$kind"
  rm -f "results/$kind"/*.png "results/$kind/bench.json"
  cp "$dir"/*.png "$dir/bench.json" "results/$kind/"
  sed -e "s#](\([A-Za-z0-9_.-]*\.\(png\|json\)\))#]($kind/\1)#g" \
      -e "s#^Written by \`build/sbf-bench\` (\`make bench\`)#Written by \`build/sbf-bench\` (\`make bench PUBLISH=1\`, run $(basename "$dir"); its plots and bench.json are in $kind/)#" \
      "$dir/REPORT.md" > results/REPORT.md
  echo "bench: results/REPORT.md and results/$kind/ updated from $dir (commit both)" >&2
  if grep -q WARNING "$dir/REPORT.md"; then
    echo "bench: this run carries a WARNING (busy machine or wide spread): see its REPORT.md" >&2
  fi
else
  echo "bench: results/REPORT.md left as it is (make bench PUBLISH=1 replaces it)" >&2
fi
echo "bench: $dir written; make bench took $(( $(date +%s) - start )) s" >&2
