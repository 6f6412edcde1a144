#!/usr/bin/env bash
# What a probe of a filter file costs when the file is not in the page
# cache: `sbf dedup --no-add --filter BIG` (the file mapped, never loaded).
#   bash bench/dedup_mapped.sh [SBF] [FILTER_KEYS] [FILLED] [PROBES]
# Makes a blocked filter sized for FILTER_KEYS keys at 1% (3.2e9: 3.7 GiB)
# holding FILLED keys, then probes PROBES lines (half of them in it) with
# the file's pages dropped from the page cache before each cold run
# (posix_fadvise DONTNEED through dd iflag=nocache: only this file's pages;
# fincore shows what was cached before and after), and once hot:
#   sorted     the default from 256 MiB: block-sorted batches, each batch's
#              pages asked for at once (MADV_WILLNEED), read-around off
#   unsorted   SBF_DEDUP_SORTED_BYTES past the file's size: probes in input
#              order, each page fault read with the kernel's read-around
#              (the device's read_ahead_kb)
# Prints seconds (wall and CPU), ns per probe, and the bytes each run brought
# into memory. On a loaded machine the wall time includes waiting for a CPU.
# A filter larger than memory cannot be cached whole: there the cost per
# probe is the cold one, and the bytes read are what the disk must deliver.
set -euo pipefail
SBF=$(realpath "${1:-build/sbf}")
KEYS=${2:-3200000000}
FILLED=${3:-50000000}
PROBES=${4:-2000000}
T=$(mktemp -d "${TMPDIR:-/tmp}/sbf-mapped-bench.XXXXXX")
trap 'rm -rf "$T"' EXIT
command -v fincore > /dev/null || { echo "needs fincore (util-linux)" >&2; exit 1; }

echo "filling a filter for $KEYS keys with $FILLED keys..." >&2
seq 1 "$FILLED" | "$SBF" dedup --expected "$KEYS" --fpp 0.01 --filter "$T/big.sbf" --quiet > /dev/null
half=$((PROBES / 2))
{ seq $((FILLED - half + 1)) "$FILLED"; seq 1 "$half" | sed 's/^/absent-/'; } |
  awk 'BEGIN { srand(7) } { print rand() "\t" $0 }' | sort -k1,1 | cut -f2 > "$T/probe.txt"
dev=$(df --output=source "$T" | tail -n1 | sed 's|/dev/||; s/[0-9]*$//')
echo "filter: $(stat -c %s "$T/big.sbf") bytes, $FILLED keys; $PROBES probes, $half present;" \
     "device $dev (read_ahead_kb $(cat /sys/block/"$dev"/queue/read_ahead_kb 2>/dev/null || echo ?)," \
     "rotational $(cat /sys/block/"$dev"/queue/rotational 2>/dev/null || echo ?));" \
     "$(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"

cached() { fincore -b -n -o RES "$T/big.sbf" | tr -d ' '; }
# run NAME COLD(1/0) THREADS SORTED_BYTES
run() {
  local name=$1 cold=$2 threads=$3 sorted=$4
  [ "$cold" = 1 ] && dd if="$T/big.sbf" iflag=nocache count=0 status=none
  local before; before=$(cached)
  local t0 t1; t0=$(date +%s.%N)
  SBF_DEDUP_SORTED_BYTES=$sorted /usr/bin/time -f "%U %S" -o "$T/$name.cpu" "$SBF" dedup --no-add \
    --filter "$T/big.sbf" --threads "$threads" --count --quiet "$T/probe.txt" > "$T/$name.out"
  t1=$(date +%s.%N)
  local after; after=$(cached)
  awk -v n="$name" -v a="$t0" -v b="$t1" -v p="$PROBES" -v x="$before" -v y="$after" \
      -v c="$(cat "$T/$name.out")" -v l="$(cut -d' ' -f1 /proc/loadavg)" \
      -v u="$(awk '{ print $1 + $2 }' "$T/$name.cpu")" 'BEGIN {
    printf "%-18s %7.2f s %7.0f ns/probe, cpu %6.2f s %6.0f ns/probe; cached before %5.0f MB, after %5.0f MB (%s absent; load %s)\n",
      n, b - a, (b - a) * 1e9 / p, u, u * 1e9 / p, x / 1e6, y / 1e6, c, l }'
}
run cold-sorted-t1 1 1 0
run cold-unsorted-t1 1 1 999999999999999
run cold-sorted-t2 1 2 0
run cold-unsorted-t2 1 2 999999999999999
cat "$T/big.sbf" > /dev/null
run hot-sorted-t1 0 1 0
run hot-unsorted-t1 0 1 999999999999999
for v in cold-unsorted-t1 cold-sorted-t2 hot-sorted-t1; do
  cmp -s "$T/cold-sorted-t1.out" "$T/$v.out" || { echo "$v answers differently: FAIL"; exit 1; }
done
echo "every run: the same answers"
dd if="$T/big.sbf" iflag=nocache count=0 status=none
