#!/usr/bin/env bash
# Line dedup benchmark (issue 35): sbf dedup against awk '!seen[$0]++' and
# sort -u on URL-like lines with realistic repetition, one run, same input.
#   bash bench/dedup.sh [SBF] [LINES]        (make bench-dedup; LINES=50000000 for the big run)
# Prints lines/s (wall), CPU seconds and peak RSS (/usr/bin/time -v) of each
# (on a shared machine compare CPU seconds too), sbf with 1 and 2
# threads (growing filter, and sized with --expected), checks that 1 and 2
# threads write the same bytes, and counts the lines sbf lost to false
# positives against awk's exact output, beside the interval the filter's
# rate gives. Then the floors a reader can check: what `wc -l` (read the
# input, find its newlines), `cat` (read it, write all of it) and a copy of
# sbf's output (write it alone) take, beside one sbf thread's time per
# stage (SBF_DEDUP_TIMES: CPU seconds preparing, deciding, formatting,
# writing) and the time 20x `sort -u` would need. Before each run the last
# output is removed and dirty pages written (sync, outside the timing), so
# no run pays for an earlier one's write-back.
set -euo pipefail
SBF=$(realpath "${1:-build/sbf}")
LINES=${2:-5000000}
FPP=${FPP:-0.01}
T=$(mktemp -d "${TMPDIR:-/tmp}/sbf-dedup-bench.XXXXXX")
trap 'rm -rf "$T"' EXIT
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 1; }

# URL-like lines (bench/dedup_urls.awk: about half new, repeats heavy-tailed)
echo "generating $LINES lines..." >&2
awk -v n="$LINES" -f "$(dirname "$(realpath "$0")")/dedup_urls.awk" > "$T/in.txt"
BYTES=$(stat -c %s "$T/in.txt")
echo "input: $LINES lines, $BYTES bytes ($(nproc) CPUs: $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n1); load $(cut -d' ' -f1-3 /proc/loadavg))"

# run NAME CMD...: stdout to $T/NAME.out; prints seconds, lines/s, peak RSS
run() {
  local name=$1; shift
  rm -f "$T/$name.out"; sync
  SBF_DEDUP_TIMES=1 /usr/bin/time -v -o "$T/$name.time" "$@" < "${IN:-$T/in.txt}" > "$T/$name.out" \
    2> "$T/$name.err"
  local s rss
  s=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, a, ":"); t = 0;
        for (i = 1; i <= n; i++) t = t * 60 + a[i]; print t }' "$T/$name.time")
  rss=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$T/$name.time")
  cpu=$(awk -F': ' '/User time|System time/ { t += $2 } END { print t }' "$T/$name.time")
  printf '%-16s %7.2f s wall %8.2f M lines/s  cpu %7.2f s  peak RSS %8.1f MB  (load %s)\n' "$name" "$s" \
    "$(awk -v l="$LINES" -v s="$s" 'BEGIN { print (s > 0 ? l / s / 1e6 : 0) }')" "$cpu" \
    "$(awk -v k="$rss" 'BEGIN { print k / 1024 }')" "$(cut -d' ' -f1 /proc/loadavg)"
  eval "S_$name=$s; R_$name=$rss; C_$name=$cpu"
}

run awk awk '!seen[$0]++'
run sort_u env LC_ALL=C sort -u
run sbf_t1 "$SBF" dedup --fpp "$FPP" --threads 1
run sbf_t2 "$SBF" dedup --fpp "$FPP" --threads 2
run sbf_fixed_t1 "$SBF" dedup --expected "$LINES" --fpp "$FPP" --threads 1
run sbf_fixed_t2 "$SBF" dedup --expected "$LINES" --fpp "$FPP" --threads 2
grep -h ' lines: ' "$T/sbf_t1.err" "$T/sbf_fixed_t1.err"

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
echo
echo "sbf (growing, 1 thread) vs awk: $(ratio "$S_awk" "$S_sbf_t1")x lines/s," \
     "$(ratio "$R_sbf_t1" "$R_awk") of awk's peak RSS"
echo "sbf (growing, 1 thread) vs sort -u: $(ratio "$S_sort_u" "$S_sbf_t1")x lines/s"
echo "sbf (fixed, 1 thread) vs awk: $(ratio "$S_awk" "$S_sbf_fixed_t1")x lines/s," \
     "$(ratio "$R_sbf_fixed_t1" "$R_awk") of awk's peak RSS"
echo "2 threads / 1 thread (wall): growing $(ratio "$S_sbf_t1" "$S_sbf_t2")x," \
     "fixed $(ratio "$S_sbf_fixed_t1" "$S_sbf_fixed_t2")x; CPU seconds 2 threads / 1 thread:" \
     "growing $(ratio "$C_sbf_t2" "$C_sbf_t1"), fixed $(ratio "$C_sbf_fixed_t2" "$C_sbf_fixed_t1")"
for v in sbf_t2:sbf_t1 sbf_fixed_t2:sbf_fixed_t1; do
  if cmp -s "$T/${v%%:*}.out" "$T/${v##*:}.out"; then echo "${v%%:*} output = ${v##*:} output: identical"
  else echo "${v%%:*} output differs from ${v##*:}: FAIL"; exit 1; fi
done

# Lines lost to false positives: awk's output less sbf's (sbf's must be a
# subsequence of awk's: no line written twice, none out of order).
for v in sbf_t1 sbf_fixed_t1; do
  want=$(wc -l < "$T/awk.out"); got=$(wc -l < "$T/$v.out")
  lost=$((want - got))
  extra=$(LC_ALL=C comm -13 <(LC_ALL=C sort "$T/awk.out") <(LC_ALL=C sort "$T/$v.out") | wc -l)
  # a distinct line is lost with the filter's rate at the moment it came,
  # which only rises: at most the final rate the summary prints (below FPP);
  # the interval is [0, mean + 3 sigma] of a binomial at that rate
  rate=$(sed -n 's/.* fpp \([0-9.e-]*\);.*/\1/p' "$T/$v.err" | head -n1)
  hi=$(awk -v n="$want" -v p="$rate" 'BEGIN { printf "%d", n * p + 3 * sqrt(n * p * (1 - p)) }')
  echo "$v: $got of awk's $want distinct lines, $lost lost to false positives" \
       "($(awk -v l="$lost" -v n="$want" 'BEGIN { printf "%.4f%%", 100 * l / n }'); interval" \
       "[0, $hi] at the final rate $rate), $extra lines awk did not write"
  [ "$extra" -eq 0 ] && [ "$lost" -ge 0 ] && [ "$lost" -le "$hi" ] || { echo FAIL; exit 1; }
done

# The floors: wc -l reads the input and finds its newlines; cat reads it
# and writes all of it (twice the bytes sbf writes); a copy of sbf's output
# writes those bytes alone. One sbf thread's stages in CPU seconds (its
# SBF_DEDUP_TIMES line) beside them: what is left above the floors is the
# filter's work (deciding) and the line work (preparing: split and hash;
# formatting: the kept lines copied out).
echo
run wc_l wc -l
run cat cat
IN=$T/sbf_t1.out run copy_out cat
stages() { sed -n 's/.*dedup times: //p' "$T/$1.err" | sed 's/ ([0-9]*)//g; s/ s cpu/ s/g; s/;//g'; }
echo "sbf growing, 1 thread, CPU s by stage: $(stages sbf_t1)"
echo "sbf fixed, 1 thread, CPU s by stage: $(stages sbf_fixed_t1)"
echo "20x sort -u's lines/s needs $(awk -v s="$S_sort_u" 'BEGIN { printf "%.2f", s / 20 }') s;" \
     "sbf growing 1 thread $S_sbf_t1 s, fixed $S_sbf_fixed_t1 s; floors: wc -l $S_wc_l s," \
     "cat $S_cat s, writing sbf's output alone $S_copy_out s (CPU $C_copy_out s)"

# N-gram document dedup: JSON Lines documents of 200 words from a 50000-word
# vocabulary, a third of them near-copies of an earlier one (a few words
# changed); 13-grams at threshold 0.8 (bff's defaults), 1 and 2 threads.
DOCS=${DOCS:-$((LINES / 100))}
awk -v n="$DOCS" 'BEGIN { srand(2)
  for (d = 0; d < n; d++) {
    copy = d > 10 && rand() < 0.33; src = copy ? int(rand() * d) : d
    printf "{\"id\": %d, \"text\": \"", d
    for (w = 0; w < 200; w++) {
      x = (src * 7919 + w * 104729 + int(w / 17) * src) % 50000
      if (copy && rand() < 0.02) x = int(rand() * 50000)
      printf "%sw%d", (w ? " " : ""), x }
    printf "\"}\n" } }' > "$T/docs.jsonl"
echo
echo "n-grams: $DOCS documents, $(stat -c %s "$T/docs.jsonl") bytes"
# growing filter, then fixed (sized for the n-grams: 200 per document)
for kind in growing fixed; do
  size=(); [ $kind = fixed ] && size=(--expected $((DOCS * 200)))
  for t in 1 2; do
    /usr/bin/time -f "%e s wall, cpu %U s user %S s sys, peak RSS %M KB" -o "$T/ng$t.time" "$SBF" dedup --ngrams 13 \
      --threshold 0.8 "${size[@]}" --threads $t "$T/docs.jsonl" > "$T/ng$t.out" 2> "$T/ng$t.err"
    echo "$kind, threads $t: $(tail -n1 "$T/ng$t.err" | sed 's/^sbf: dedup: //'); $(cat "$T/ng$t.time");" \
         "$(awk -v b="$(stat -c %s "$T/docs.jsonl")" '{ c = $5 + $8 } END { printf "%.1f MB of input per CPU second", (c > 0 ? b / c / 1e6 : 0) }' "$T/ng$t.time");" \
         "load $(cut -d' ' -f1 /proc/loadavg)"
  done
  cmp -s "$T/ng1.out" "$T/ng2.out" && echo "n-grams ($kind): 1 and 2 threads keep the same documents" \
    || { echo "n-grams ($kind): 1 and 2 threads differ: FAIL"; exit 1; }
done
