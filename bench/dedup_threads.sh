#!/usr/bin/env bash
# 1 against 2 threads of sbf dedup, alternated REPEAT times on the input
# bench/dedup.sh makes (URL-like lines, half new), so a shared machine's
# load falls on both alike:
#   bash bench/dedup_threads.sh [SBF] [LINES] [REPEAT]
# Prints each run's wall, CPU and system seconds with the load and the
# threads' time waiting for a task (SBF_DEDUP_TIMES), then per filter the
# median of the wall ratios (1 thread / 2 threads) and of the CPU ratios
# (2 threads / 1 thread: what splitting the work costs), and of 2 threads
# writing chunks at their offsets (pwrite, SBF_DEDUP_PWRITE=1) against in
# order (the default). Each pair's CPU seconds by stage (SBF_DEDUP_TIMES),
# and at the end the kernel's floors: reading the input, writing the
# output alone, and cat of the input to a file; then LC_ALL=C sort -u once
# (SORT=0: skipped) against one thread's median wall time.
# Outputs of every run are compared (the same bytes). Before each run the
# last output is removed and the page cache's dirty pages written (sync,
# outside the timing): else the earlier runs' 1.7 GB (at 50M lines) still
# being written back throttles a later run's writes, which moved a run's
# system time from 0.9 to 4.8 s and its wall time by as much.
set -euo pipefail
SBF=$(realpath "${1:-build/sbf}")
LINES=${2:-10000000}
REPEAT=${3:-5}
T=$(mktemp -d "${TMPDIR:-/tmp}/sbf-threads-bench.XXXXXX")
trap 'rm -rf "$T"' EXIT
awk -v n="$LINES" -f "$(dirname "$(realpath "$0")")/dedup_urls.awk" > "$T/in.txt"
echo "input: $LINES lines, $(stat -c %s "$T/in.txt") bytes; $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
declare -A one
for kind in growing fixed; do
  size=(); [ $kind = fixed ] && size=(--expected "$LINES")
  : > "$T/ratios"
  for r in $(seq 1 "$REPEAT"); do
    for t in 1 2 w; do # w: 2 threads writing with pwrite
      rm -f "$T/out$t"; sync
      pw=0; n=$t; [ $t = w ] && { pw=1; n=2; }
      SBF_DEDUP_TIMES=1 SBF_DEDUP_PWRITE=$pw /usr/bin/time -f "%e %U %S" -o "$T/t$t" "$SBF" dedup \
        --quiet "${size[@]}" --threads $n < "$T/in.txt" > "$T/out$t" 2> "$T/e$t"
    done
    cmp -s "$T/out1" "$T/out2" && cmp -s "$T/out1" "$T/outw" \
      || { echo "$kind: 1 and 2 threads differ: FAIL"; exit 1; }
    read -r w1 u1 s1 < "$T/t1"; read -r w2 u2 s2 < "$T/t2"; read -r ww uw sw < "$T/tw"
    wait_of() { sed -n 's/.*waiting \([0-9.]*\) s.*/\1/p' "$1"; }
    awk -v k=$kind -v r="$r" -v w1="$w1" -v u1="$u1" -v s1="$s1" -v w2="$w2" -v u2="$u2" -v s2="$s2" \
        -v ww="$ww" -v uw="$uw" -v sw="$sw" -v q2="$(wait_of "$T/e2")" -v qw="$(wait_of "$T/ew")" \
        -v l="$(cut -d' ' -f1 /proc/loadavg)" -v f="$T/ratios" 'BEGIN {
      printf "%s #%d: 1 thread %.2f s wall %.2f cpu (%.2f sys); 2 threads %.2f s wall %.2f cpu (%.2f sys, waiting %.2f s); pwrite %.2f s wall %.2f cpu (%.2f sys, waiting %.2f s); wall ratio %.2f; load %s\n",
        k, r, w1, u1 + s1, s1, w2, u2 + s2, s2, q2, ww, uw + sw, sw, qw, w1 / w2, l
      printf "%f %f %f\n", w1 / w2, (u2 + s2) / (u1 + s1), ww / w2 >> f }' | tee -a "$T/log.$kind"
    stages() { sed -n 's/.*waiting [0-9.]* s; //p' "$1" | sed 's/ s cpu ([0-9]*)//g; s/ pwrite 0.000//; s/ decide-in-order/ in-order/'; }
    echo "  CPU s by stage: 1 thread $(stages "$T/e1"); 2 threads $(stages "$T/e2")"
  done
  n=$(wc -l < "$T/ratios"); m=$(((n + 1) / 2))
  one[$kind]=$(sed -n 's/.*: 1 thread \([0-9.]*\) s wall.*/\1/p' "$T/log.$kind" | sort -g | sed -n "${m}p")
  med() { cut -d' ' -f"$1" "$T/ratios" | sort -g | sed -n "${m}p" | xargs printf '%.2f'; }
  each=$(cut -d' ' -f1 "$T/ratios" | xargs printf '%.2f ')
  echo "$kind: median wall ratio 1/2 threads $(med 1)x (of $n: $each), median CPU 2/1 threads" \
       "$(med 2), pwrite / in-order writer (2 threads, wall) $(med 3)"
done
# The kernel's part, the floor under one thread's time (same files, after
# sync): reading the input (read(2), to /dev/null), writing the last
# output's bytes alone to a file, and both (cat in > file).
floor() {
  rm -f "$T/copy"; sync
  /usr/bin/time -f "%e %U %S" -o "$T/tf" "$@"
  awk '{ printf "%.2f s wall %.2f cpu (%.2f sys)", $1, $2 + $3, $3 }' "$T/tf"
}
echo "floors: reading the input $(floor sh -c "cat '$T/in.txt' > /dev/null");" \
     "writing the output ($(stat -c %s "$T/out1") bytes) $(floor sh -c "cat '$T/out1' > '$T/copy'");" \
     "cat input > file $(floor sh -c "cat '$T/in.txt' > '$T/copy'"); load $(cut -d' ' -f1 /proc/loadavg)"
# LC_ALL=C sort -u once (SORT=0: not), beside one thread's median wall time
if [ "${SORT:-1}" = 1 ]; then
  rm -f "$T/copy"; sync
  /usr/bin/time -f "%e %U %S" -o "$T/ts" env LC_ALL=C sort -u "$T/in.txt" > "$T/copy"
  read -r ws us ss < "$T/ts"
  awk -v w="$ws" -v c="$us" -v cs="$ss" -v g="${one[growing]}" -v f="${one[fixed]}" \
      -v l="$(cut -d' ' -f1 /proc/loadavg)" 'BEGIN {
    printf "sort -u: %.2f s wall %.2f cpu; 20x needs %.2f s; one thread (median wall): growing %.2f s (%.1fx), fixed %.2f s (%.1fx); load %s\n",
      w, c + cs, w / 20, g, w / g, f, w / f, l }'
fi
