#!/usr/bin/env bash
# 1 against 2 threads of sbf dedup, alternated REPEAT times on the input
# bench/dedup.sh makes (URL-like lines, half new), so a shared machine's
# load falls on both alike:
#   bash bench/dedup_threads.sh [SBF] [LINES] [REPEAT]
# Prints each run's wall and CPU seconds with the load, then per filter the
# median of the wall ratios (1 thread / 2 threads) and of the CPU ratios
# (2 threads / 1 thread: what splitting the work costs). Outputs of every
# run are compared (the same bytes).
set -euo pipefail
SBF=$(realpath "${1:-build/sbf}")
LINES=${2:-10000000}
REPEAT=${3:-5}
T=$(mktemp -d "${TMPDIR:-/tmp}/sbf-threads-bench.XXXXXX")
trap 'rm -rf "$T"' EXIT
awk -v n="$LINES" -f "$(dirname "$(realpath "$0")")/dedup_urls.awk" > "$T/in.txt"
echo "input: $LINES lines, $(stat -c %s "$T/in.txt") bytes; $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
for kind in growing fixed; do
  size=(); [ $kind = fixed ] && size=(--expected "$LINES")
  : > "$T/ratios"
  for r in $(seq 1 "$REPEAT"); do
    for t in 1 2; do
      /usr/bin/time -f "%e %U %S" -o "$T/t$t" "$SBF" dedup --quiet "${size[@]}" --threads $t \
        < "$T/in.txt" > "$T/out$t"
    done
    cmp -s "$T/out1" "$T/out2" || { echo "$kind: 1 and 2 threads differ: FAIL"; exit 1; }
    read -r w1 u1 s1 < "$T/t1"; read -r w2 u2 s2 < "$T/t2"
    awk -v k=$kind -v r="$r" -v w1="$w1" -v c1="$(awk -v a="$u1" -v b="$s1" 'BEGIN { print a + b }')" \
        -v w2="$w2" -v c2="$(awk -v a="$u2" -v b="$s2" 'BEGIN { print a + b }')" \
        -v l="$(cut -d' ' -f1 /proc/loadavg)" -v f="$T/ratios" 'BEGIN {
      printf "%s #%d: 1 thread %.2f s wall %.2f s cpu; 2 threads %.2f s wall %.2f s cpu; wall ratio %.2f; load %s\n",
        k, r, w1, c1, w2, c2, w1 / w2, l
      printf "%f %f\n", w1 / w2, c2 / c1 >> f }'
  done
  n=$(wc -l < "$T/ratios"); m=$(((n + 1) / 2))
  echo "$kind: median wall ratio 1/2 threads $(cut -d' ' -f1 "$T/ratios" | sort -g | sed -n "${m}p" | xargs printf '%.2f')x" \
       "(of $n), median CPU 2/1 threads $(cut -d' ' -f2 "$T/ratios" | sort -g | sed -n "${m}p" | xargs printf '%.2f')"
done
