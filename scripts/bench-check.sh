#!/usr/bin/env bash
# make bench-check / make bench-baseline: the CI regression gate.
#
#   scripts/bench-check.sh                    measure, compare with $BASELINE
#   scripts/bench-check.sh --write-baseline   measure, write $BASELINE
#   scripts/bench-check.sh --measured FILE    compare FILE (a measurement made
#                                             earlier) with $BASELINE, no build
# BASELINE defaults to results/baseline.json. What is measured and why the
# tolerances are what they are: bench/README.md ("bench-check").
set -euo pipefail
cd "$(dirname "$0")/.."
MAKE=${MAKE:-make}
BUILD=${BUILD:-build}
BASELINE=${BASELINE:-results/baseline.json}
PY=${PYTHON:-python3}

write=0
measured=
while [ $# -gt 0 ]; do
  case "$1" in
    --write-baseline) write=1 ;;
    --measured) measured=${2:?--measured needs a file}; shift ;;
    -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
    *) echo "bench-check: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done

if [ -z "$measured" ]; then
  start=$(date +%s)
  $MAKE --no-print-directory BUILD="$BUILD" "$BUILD/sbf-bench" >&2
  bin="$BUILD/sbf-bench"
  out="$BUILD/bench-check"
  rm -rf "$out"
  mkdir -p "$out/callgrind"
  command -v valgrind >/dev/null || { echo "bench-check: valgrind is missing (make deps)" >&2; exit 2; }
  # Instruction counts: callgrind runs each kernel on a fixed workload. It
  # cannot run AVX-512, so the counted kernels are scalar, simde and avx2.
  insn_skipped=
  for isa in scalar simde avx2; do
    echo "bench-check: callgrind, $isa kernels" >&2
    set +e
    SBF_ISA=$isa valgrind --tool=callgrind --dump-instr=no \
      --callgrind-out-file="$out/callgrind/cg.$isa.%p" \
      "$bin" --check-insn >"$out/phases.$isa.txt" 2>"$out/valgrind.$isa.txt"
    rc=$?
    set -e
    if [ $rc = 3 ]; then
      echo "bench-check: $isa: $(head -1 "$out/phases.$isa.txt") (skipped)" >&2
      insn_skipped="$insn_skipped $isa"
    elif [ $rc != 0 ]; then
      echo "bench-check: callgrind run for $isa failed (exit $rc):" >&2
      tail -20 "$out/valgrind.$isa.txt" >&2
      exit 2
    fi
  done
  # Speedup ratios: natively, every ISA against scalar in one process; three
  # processes, the median of each ratio is kept (bench/README.md).
  # Without address-space randomisation, so that every process of the same
  # binary runs its code and buffers at the same virtual addresses: one
  # source of the spread between processes (bench/README.md, "bench-check").
  norand=()
  if command -v setarch >/dev/null && setarch "$(uname -m)" -R true 2>/dev/null; then
    norand=(setarch "$(uname -m)" -R)
  fi
  measure_ratios() {
    ratios=
    for run in 1 2 3; do
      echo "bench-check: timing ratios against scalar ($run/3)" >&2
      "${norand[@]}" "$bin" --check-ratios --progress none --json "$out/ratios.$run.json" >"$out/ratios.$run.txt"
      ratios="$ratios${ratios:+,}$out/ratios.$run.json"
    done
    cat "$out/ratios.1.txt" >&2
    $PY bench/check.py merge --callgrind "$out/callgrind" --ratios "$ratios" \
        --insn-skipped "$insn_skipped" --valgrind "$(valgrind --version)" --out "$measured"
  }
  measured="$out/measured.json"
  measure_ratios
  echo "bench-check: measured in $(( $(date +%s) - start )) s: $measured" >&2
  retry=1
fi

if [ $write = 1 ]; then
  mkdir -p "$(dirname "$BASELINE")"
  exec $PY bench/check.py baseline --measured "$measured" --out "$BASELINE"
fi
if [ ! -f "$BASELINE" ]; then
  echo "bench-check: no baseline at $BASELINE (make bench-baseline writes one)" >&2
  exit 2
fi
if $PY bench/check.py compare --baseline "$BASELINE" --measured "$measured"; then
  exit 0
fi
# Instruction counts repeat exactly, so measuring again cannot hide a real
# regression there; timing ratios can be upset by a neighbour on a shared
# machine for a whole run, so they get one more full measurement.
if [ "${retry:-0}" = 1 ]; then
  echo "bench-check: measuring the timing ratios once more before failing" >&2
  measure_ratios
  exec $PY bench/check.py compare --baseline "$BASELINE" --measured "$measured"
fi
exit 1
