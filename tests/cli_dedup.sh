# sbf dedup (issue 35), sourced by tests/cli.sh: input order, --invert and
# --count against an exact reference, the false-positive count against its
# interval, every --threads writing the same bytes, --filter across runs and
# a killed run leaving it intact, shards that union into the one-machine
# filter, and bad input (binary bytes, no final newline, CRLF, a JSON line
# without the field).

# The exact answer: each line whose key (the line without one trailing \r)
# was not seen, in order, each written with a newline.
cat > ref_dedup.py <<'PY'
import sys
data = open(sys.argv[1], 'rb').read()
lines = data.split(b'\n')
if data == b'' or data.endswith(b'\n'):
    lines.pop()
seen, out = set(), []
invert = len(sys.argv) > 2
for l in lines:
    k = l[:-1] if l.endswith(b'\r') else l
    if (k in seen) == invert:
        out.append(l + b'\n')
    seen.add(k)
sys.stdout.buffer.write(b''.join(out))
PY
ref() { /usr/bin/python3 ref_dedup.py "$@"; }

# ------------------------------------------------ order, --invert, --count
# 30000 lines, 10000 distinct, repeats at every distance; no false positive
# is likely at 1e-9 (and the hash is fixed: the answer is too)
seq 1 30000 | awk '{ print "https://example.org/" ($1 * 7919 % 10007) % 10000 "/x" }' > d1.txt
ref d1.txt > d1.want
ref d1.txt invert > d1.dups
for mode in "--expected 10000" ""; do
  expect 0 "$SBF" dedup $mode --fpp 1e-9 d1.txt; same out d1.want
  has err "30000 lines: 10000 new, 20000 seen before"
  expect 0 "$SBF" dedup $mode --fpp 1e-9 --invert < d1.txt; same out d1.dups
  expect 0 "$SBF" dedup $mode --fpp 1e-9 --count d1.txt; [ "$(cat out)" = 10000 ] && ok || bad "--count: $(cat out)"
  expect 0 "$SBF" dedup $mode --fpp 1e-9 --count --invert d1.txt; [ "$(cat out)" = 20000 ] && ok || bad "--count --invert: $(cat out)"
done
# two files and -: one stream; a file's last line without newline ends there
printf 'a\nb' > d2a.txt; printf 'b\nc\n' > d2b.txt
expect 0 "$SBF" dedup d2a.txt - d2b.txt < d2a.txt; [ "$(cat out)" = "$(printf 'a\nb\nc')" ] && ok || bad "files: $(cat out)"
expect 0 "$SBF" dedup --quiet < /dev/null; [ ! -s out ] && [ ! -s err ] && ok || bad "empty input"

# ------------------------------------- false positives within the interval
# 100000 distinct lines into a filter sized for them at 1%: each new line is
# lost with the filter's rate at its moment, below the final rate the summary
# prints; the count must be above 0 (the filter is not exact) and within
# 4 sigma of distinct * final rate
seq 1 100000 | sed 's/^/fp-/' > d3.txt
expect 0 "$SBF" dedup --expected 100000 --fpp 0.01 d3.txt
lost=$((100000 - $(wc -l < out)))
rate=$(sed -n 's/.* fpp \([0-9.e-]*\);.*/\1/p' err)
/usr/bin/python3 -c "import math,sys; l=$lost; m=100000*$rate; sys.exit(0 if 0 < l <= m + 4*math.sqrt(m) else 1)" \
  && ok || bad "false positives: $lost lost, final rate $rate: $(cat err)"
# the growing filter keeps every rate under the asked one
expect 0 "$SBF" dedup --fpp 0.01 --initial 1000 d3.txt
lost=$((100000 - $(wc -l < out)))
/usr/bin/python3 -c "import math,sys; l=$lost; m=100000*0.01; sys.exit(0 if 0 < l <= m + 4*math.sqrt(m) else 1)" \
  && ok || bad "growing: $lost lost at 1%: $(cat err)"
has err "filter growing"

# ------------------------------------------------- threads: the same bytes
# 3 MB, several chunks; fixed and growing filters, keys from JSON, shards
seq 1 120000 | awk '{ k = $1 * 31 % 50000; printf "{\"id\": %d, \"url\": \"https://h%d.example/%d\", \"pad\": \"%s\"}\n", $1, k % 97, k, ($1 % 7 ? "x" : "yy") }' > d4.jsonl
for opts in "--expected 50000 --fpp 0.02" "--initial 5000 --fpp 0.02" "--json-field url" "--json-field url --shard 1/3 --expected 60000" "--invert --layout split-block"; do
  expect 0 "$SBF" dedup $opts --threads 1 d4.jsonl; cp out t1.out
  for t in 2 3 5; do
    expect 0 "$SBF" dedup $opts --threads $t d4.jsonl; same out t1.out
  done
done
# the parallel decision against the exact answer (no false positive at
# 1e-9), on every layout whose blocks it splits, and the --filter file it
# leaves: byte for byte the one-thread file (its key count included)
for lay in blocked split-block parquet blocked-xxh3 split-block-xxh3; do
  for t in 1 2 5; do
    rm -f th$t.sbf
    expect 0 "$SBF" dedup --expected 10000 --fpp 1e-9 --layout $lay --threads $t --filter th$t.sbf d1.txt; same out d1.want
  done
  cmp -s th1.sbf th2.sbf && cmp -s th1.sbf th5.sbf && ok || bad "$lay: --threads changed the filter file"
done
# a pipe, a file read and a file mapped (SBF_DEDUP_MMAP=1): the same bytes;
# standard input read (mapped) from where an earlier reader left it
cat d4.jsonl | "$SBF" dedup --json-field url --expected 60000 --threads 3 > piped.out 2> err
expect 0 "$SBF" dedup --json-field url --expected 60000 --threads 1 d4.jsonl; same out piped.out
SBF_DEDUP_MMAP=1 "$SBF" dedup --json-field url --expected 60000 --threads 2 d4.jsonl > out 2> err
same out piped.out
tail -n +10001 d1.txt > d1.tail; ref d1.tail > d1.tail.want
(head -n 10000 > /dev/null; "$SBF" dedup --fpp 1e-9 --threads 2) < d1.txt > out 2> err; same out d1.tail.want
(head -n 10000 > /dev/null; SBF_DEDUP_MMAP=1 "$SBF" dedup --fpp 1e-9) < d1.txt > out 2> err
same out d1.tail.want
# regular files read in parallel (threads: byte ranges with pread, each
# line the range's where its first byte lies): ranges of a few bytes
# (SBF_DEDUP_CHUNK_BYTES) so that lines straddle every boundary, start or end
# on one, or span many ranges (which then hold no line); a line dropped at a
# boundary is missing from the output, one read twice is counted twice in the
# summary and written by --invert. Several files, empty ones, no final
# newline, CRLF, standard input a file read from where it was left
awk 'BEGIN { srand(7); for (i = 0; i < 3000; i++) { n = int(rand() * 12); s = "";
  for (j = 0; j < n; j++) s = s sprintf("%c", 97 + int(rand() * 3)); print s (i % 50 ? "" : "\r") } }' > r5.txt
long=$(head -c 70000 /dev/zero | tr '\0' L)
printf 'ab\n%s\nab\ncd\n%s\ncd\nq' "$long" "${long:0:3000}" > r6.txt
: > r7.txt
printf '\n\nab\n\n' >> r5.txt
printf '%s' "$long" > r9.txt
# (r6 and r9 end without a newline: their last lines end there)
{ cat r5.txt r7.txt r6.txt; echo; cat r9.txt; echo; } > r5all.txt
ref r5all.txt > r5.want; ref r5all.txt invert > r5.dups
nl5=$(wc -l < r5all.txt); new5=$(wc -l < r5.want)
{ tail -n +1001 r5.txt; cat r9.txt; echo; } > r5t.txt; ref r5t.txt > r5t.want
for cb in 1 2 3 7 64 4096; do
  for t in 2 3; do
    SBF_DEDUP_CHUNK_BYTES=$cb "$SBF" dedup --fpp 1e-9 --threads $t r5.txt r7.txt r6.txt r9.txt > out 2> err
    same out r5.want; has err "$nl5 lines: $new5 new"
    SBF_DEDUP_CHUNK_BYTES=$cb "$SBF" dedup --fpp 1e-9 --expected 10000 --invert --threads $t r5.txt r7.txt r6.txt r9.txt > out 2> err
    same out r5.dups
  done
  SBF_DEDUP_PREAD=1 SBF_DEDUP_CHUNK_BYTES=$cb "$SBF" dedup --fpp 1e-9 --threads 1 r5.txt r7.txt r6.txt r9.txt > out 2> err
  same out r5.want
  (head -n 1000 > /dev/null; SBF_DEDUP_CHUNK_BYTES=$cb "$SBF" dedup --fpp 1e-9 --threads 2 - r9.txt) < r5.txt > out 2> err
  same out r5t.want
done
SBF_DEDUP_CHUNK_BYTES=0 expect 1 "$SBF" dedup --threads 2 r5.txt; has err "SBF_DEDUP_CHUNK_BYTES"
expect 0 "$SBF" dedup --json-field url --fpp 1e-9 --expected 60000 d4.jsonl
[ "$(wc -l < out)" = 50000 ] && ok || bad "json keys: $(wc -l < out) lines"
# SBF_DEDUP_PWRITE=1, standard output a regular file, threads > 1: each
# chunk written at its offset (pwrite) by any thread; the same bytes as one
# thread, a pipe and the in-order writer (the default), for keys, growing
# filters decided by parts; from where the descriptor is (a shell's earlier
# output kept, later output after ours), and appended (>>: in order)
# (paragraphs: below, where their input is made)
for opts in "--json-field url --expected 60000" "--initial 5000 --fpp 0.001 d4.jsonl"; do
  case $opts in *.jsonl) in=() ;; *) in=(d4.jsonl) ;; esac
  "$SBF" dedup $opts --threads 1 "${in[@]}" > pw1.out 2> err
  for t in 2 3; do
    SBF_DEDUP_PWRITE=1 "$SBF" dedup $opts --threads $t "${in[@]}" > pw.out 2> err; same pw.out pw1.out
    SBF_DEDUP_PWRITE=1 "$SBF" dedup $opts --threads $t "${in[@]}" 2> err | cat > pw.out; same pw.out pw1.out
    "$SBF" dedup $opts --threads $t "${in[@]}" > pw.out 2> err; same pw.out pw1.out
    { printf 'before\n'; SBF_DEDUP_PWRITE=1 "$SBF" dedup $opts --threads $t "${in[@]}" 2> err; printf 'after\n'; } > pw.out
    { printf 'before\n'; cat pw1.out; printf 'after\n'; } > pw.want; same pw.out pw.want
    printf 'before\n' > pw.out; SBF_DEDUP_PWRITE=1 "$SBF" dedup $opts --threads $t "${in[@]}" >> pw.out 2> err
    { printf 'before\n'; cat pw1.out; } > pw.want; same pw.out pw.want
  done
done

# ------------------------------------------- --filter across runs; killed run
seq 1 5000 | sed 's/^/r-/' > r1.txt
seq 2501 7500 | sed 's/^/r-/' > r2.txt
for mode in "--expected 10000" ""; do
  rm -f seen.sbf
  expect 0 "$SBF" dedup $mode --fpp 1e-9 --filter seen.sbf r1.txt; same out r1.txt
  expect 0 "$SBF" dedup --filter seen.sbf r2.txt
  [ "$(head -n1 out)" = r-5001 ] && [ "$(wc -l < out)" = 2500 ] && ok || bad "second run ($mode): $(head -n2 out)"
  expect 0 "$SBF" dedup --filter seen.sbf --count r2.txt; [ "$(cat out)" = 0 ] && ok || bad "third run: $(cat out)"
done
# the filter a run leaves answers sbf query for every line it took, on every
# layout of bits (each layout's own hash: MurmurHash3, XXH64, XXH3), fixed
# and growing
for lay in blocked split-block parquet split-block-xxh3 blocked-xxh3 classic; do
  for mode in "--expected 10000" ""; do
    rm -f lay.sbf
    expect 0 "$SBF" dedup $mode --layout $lay --fpp 1e-6 --filter lay.sbf r1.txt; same out r1.txt
    expect 0 "$SBF" query lay.sbf r1.txt
    if grep -qv '^1$' out; then bad "$lay ($mode): sbf query misses lines dedup took"; else ok; fi
  done
done
# --no-add: probe only; the filter file is not written
rm -f nf.sbf; expect 0 "$SBF" dedup --fpp 1e-9 --filter nf.sbf r1.txt; cp nf.sbf seen.keep
expect 0 "$SBF" dedup --filter nf.sbf --no-add r2.txt
[ "$(head -n1 out)" = r-5001 ] && [ "$(wc -l < out)" = 2500 ] && ok || bad "--no-add: $(head -n2 out)"
expect 0 "$SBF" dedup --filter nf.sbf --no-add --count r2.txt; [ "$(cat out)" = 2500 ] && ok || bad "--no-add twice: $(cat out)"
same nf.sbf seen.keep
# a probed filter is mapped; block-sorted batches (forced here for a small
# filter) and threads answer the same
for t in 1 2 3; do
  SBF_DEDUP_SORTED_BYTES=0 expect 0 "$SBF" dedup --filter nf.sbf --no-add --threads $t r2.txt
  [ "$(head -n1 out)" = r-5001 ] && [ "$(wc -l < out)" = 2500 ] && ok || bad "--no-add sorted, $t threads: $(head -n2 out)"
done
SBF_DEDUP_SORTED_BYTES=0 expect 0 "$SBF" dedup --filter nf.sbf --no-add --verify --threads 2 d1.txt; cp out nv.out
expect 0 "$SBF" dedup --filter nf.sbf --no-add d1.txt; same out nv.out
SBF_DEDUP_SORTED_BYTES=lots expect 1 "$SBF" dedup --filter nf.sbf --no-add r2.txt; has err "SBF_DEDUP_SORTED_BYTES"
expect 2 "$SBF" dedup --verify r2.txt; has err "--verify is for --no-add"
expect 2 "$SBF" dedup --no-add r2.txt; has err "--no-add needs --filter"
# killed while reading: the file is the last complete run's, and no
# temporary file is left
rm -f seen.sbf; expect 0 "$SBF" dedup --filter seen.sbf --expected 10000 r1.txt
cp seen.sbf seen.before
rm -f dfifo; mkfifo dfifo
"$SBF" dedup --filter seen.sbf --quiet dfifo > /dev/null 2>&1 & pk=$!
exec 4> dfifo; cat r2.txt >&4
sleep 0.3
kill -9 $pk; wait $pk 2>/dev/null; exec 4>&-
same seen.sbf seen.before
no_temps
# killed at any moment (loading, deciding, saving), fixed and growing: the
# file is the last complete run's or this run's, byte for byte, never a
# mix; a temporary file a killed save left is removed by the next save.
# Filters of ~20 MB: a run takes ~20 ms, its save (write, fsync, rename)
# several; kills every 3 ms from the start hit each phase (on this VM
# 10-22 ms left the save's temporary file: killed inside it)
for mode in "--expected 3000000 --fpp 1e-7" "--initial 3000000 --fpp 1e-7"; do
  rm -f ks.sbf ks2.sbf
  "$SBF" dedup $mode --filter ks.sbf --quiet r1.txt > /dev/null 2> err; cp ks.sbf ks.before
  cp ks.sbf ks2.sbf; "$SBF" dedup --filter ks2.sbf --quiet r2.txt > /dev/null 2> err; mv ks2.sbf ks.after
  cmp -s ks.before ks.after && bad "killed ($mode): the second run did not change the file" || ok
  killed=0
  for delay in 0 0.003 0.006 0.009 0.012 0.015 0.018 0.021 0.024 0.027 0.03 0.04 0.06; do
    cp ks.before ks.sbf
    "$SBF" dedup --filter ks.sbf --quiet r2.txt > /dev/null 2>&1 & pk=$!
    sleep $delay; kill -9 $pk 2>/dev/null; wait $pk 2>/dev/null; rc=$?
    [ $rc = 137 ] && killed=$((killed + 1))
    cmp -s ks.sbf ks.before || cmp -s ks.sbf ks.after && ok \
      || bad "killed after ${delay}s ($mode, exit $rc): the file is neither run's"
  done
  [ $killed -gt 0 ] && ok || bad "killed ($mode): no run was killed before it ended"
  expect 0 "$SBF" dedup --filter ks.sbf --quiet r2.txt; same ks.sbf ks.after
  no_temps
done
# a line longer than SBF_KEY_LINE_MAX (1 GiB; lowered for the test, the
# other commands' hook) stops the run with its number, status 1, the
# --filter file untouched, on every read path: read(2) in chunks larger
# and smaller than the line, pread ranges (threads; ranges inside the
# line), mapped, a pipe. What was written is the start of the output of
# the lines before it. A line of exactly the limit is taken.
printf 'a\nb\na\n%0300d\nc\n' 0 > ll.txt
printf 'a\nb\n' > ll.before
head -c 101 /dev/zero | tr '\0' x > ll.last     # the last line, no newline
printf '%0100d\n%0100d\n' 0 0 > ll.edge
rm -f ll.sbf; expect 0 "$SBF" dedup --filter ll.sbf r1.txt; cp ll.sbf ll.sbf.before
for cb in 524288 7; do
  for e in "SBF_DEDUP_MMAP=0 SBF_DEDUP_PREAD=0" "SBF_DEDUP_MMAP=1 SBF_DEDUP_PREAD=0" \
           "SBF_DEDUP_PREAD=1" "SBF_DEDUP_MMAP=0 SBF_DEDUP_PREAD=0 pipe"; do
    for t in 1 2; do
      case $e in
        *pipe) env ${e% pipe} SBF_KEY_LINE_MAX=100 SBF_DEDUP_CHUNK_BYTES=$cb timeout 20 \
                 "$SBF" dedup --filter ll.sbf --threads $t < ll.txt > out 2> err; rc=$?
               name="standard input" ;;
        *) env $e SBF_KEY_LINE_MAX=100 SBF_DEDUP_CHUNK_BYTES=$cb timeout 20 \
             "$SBF" dedup --filter ll.sbf --threads $t ll.txt > out 2> err; rc=$?
           name=ll.txt ;;
      esac
      [ $rc = 1 ] && ok || bad "long line ($e, $cb, $t threads): exit $rc ($(head -c 300 err))"
      has err "dedup: $name: line 4 is longer than 100 bytes"
      n=$(stat -c %s out)
      cmp -s -n "$n" out ll.before && [ "$n" -le 4 ] && ok || bad "long line ($e, $cb): $(head -c 100 out)"
      same ll.sbf ll.sbf.before
    done
  done
  SBF_KEY_LINE_MAX=100 SBF_DEDUP_CHUNK_BYTES=$cb expect 1 "$SBF" dedup ll.before ll.last
  has err "ll.last: line 1 is longer than 100 bytes"
  SBF_KEY_LINE_MAX=100 SBF_DEDUP_CHUNK_BYTES=$cb expect 0 "$SBF" dedup ll.edge
  [ "$(wc -l < out)" = 1 ] && ok || bad "a line of the limit: $(wc -c < out) bytes"
done
# input without a newline: refused (not held as one endless line), by a
# pipe, a device, a regular file read by threads (pread) or mapped
head -c 30000000 /dev/zero > ll.zero
SBF_KEY_LINE_MAX=1000000 expect 1 timeout 60 "$SBF" dedup /dev/zero; has err "/dev/zero: line 1 is longer than 1000000 bytes"
head -c 30000000 /dev/zero | SBF_KEY_LINE_MAX=1000000 timeout 60 "$SBF" dedup > out 2> err \
  && bad "a pipe without newlines taken" || has err "standard input: line 1 is longer"
printf 'a\n' > ll.a
for e in "SBF_DEDUP_PREAD=1" "SBF_DEDUP_MMAP=1 SBF_DEDUP_PREAD=0"; do
  for t in 1 2; do
    env $e SBF_KEY_LINE_MAX=1000000 timeout 60 "$SBF" dedup --threads $t ll.a ll.zero > out 2> err; rc=$?
    [ $rc = 1 ] && ok || bad "no newline ($e, $t threads): exit $rc ($(head -c 300 err))"
    has err "ll.zero: line 1 is longer than 1000000 bytes"
  done
done
# lines longer than a read, through a pipe (the buffer grows, each byte
# searched once): the exact answer
{ seq 1 1000; head -c 3000000 /dev/zero | tr '\0' y; echo; seq 500 1500; head -c 3000000 /dev/zero | tr '\0' y; echo; echo end; } > ll.big
ref ll.big > ll.big.want
expect 0 "$SBF" dedup --fpp 1e-9 <(cat ll.big); same out ll.big.want
SBF_DEDUP_CHUNK_BYTES=100 expect 0 "$SBF" dedup --fpp 1e-9 <(cat ll.big); same out ll.big.want

# an input cut short by another program while read (or mapped,
# SBF_DEDUP_MMAP=1): standard output is a FIFO whose reader (the helper)
# takes one byte, so the run has opened its input and is blocked writing the
# first chunk (at most 4 x threads + 24 chunks of 512 KiB read: 16 MiB for 2
# threads), then truncates the input at 6 MB and drains: reading ends short
# of the size the file had (mapped: the chunks past it touch pages that are
# gone, SIGBUS). The run stops with a message and status 1; the --filter
# file stays the last complete run's; nothing is left behind
cat > cut_helper.py <<'PY'
import os, sys
with open(sys.argv[1], 'rb') as f:
    first = f.read(1)
    os.truncate(sys.argv[2], int(sys.argv[3]))
    rest = f.read()
sys.stdout.buffer.write(first + rest)
PY
seq 1 600000 | sed 's|^|https://cut.example.org/path/|' > cut.keep  # 22 MB
for mode in "--expected 1000000" "" "mmap --expected 1000000" "mmap"; do
  mm=0; case $mode in mmap*) mm=1; mode=${mode#mmap} ;; esac
  for t in 1 2; do
    cp cut.keep cut.txt
    rm -f seen.sbf; expect 0 "$SBF" dedup $mode --filter seen.sbf r1.txt; cp seen.sbf seen.before
    rm -f cfifo; mkfifo cfifo
    timeout 60 /usr/bin/python3 cut_helper.py cfifo cut.txt 6000100 > cut.out & ph=$!
    SBF_DEDUP_MMAP=$mm "$SBF" dedup $mode --filter seen.sbf --threads $t cut.txt > cfifo 2> err; rc=$?
    wait $ph
    [ $rc = 1 ] && ok || bad "input cut short ($mode, $t threads): exit $rc ($(head -c 300 err))"
    has err "cut.txt: the file was cut short while being read"
    same seen.sbf seen.before
    # what was written: the start of the output (here the input's first
    # 6 MB, every line new; a write cut by the stop may end in a line's middle)
    n=$(stat -c %s cut.out)
    [ "$n" -gt 0 ] && [ "$n" -le 6000100 ] && cmp -s -n "$n" cut.out cut.keep && ok \
      || bad "input cut short ($mode, $t threads): $n bytes written"
    no_temps
  done
done
# a --no-add filter (mapped) cut short the same way, after the first chunk
# is written: growing (this command's guard) and fixed (the mapped filter's
# guard, which this command's hands the signal on to)
for mode in "--initial 300000" "--expected 300000"; do
  rm -f ncut.sbf; expect 0 "$SBF" dedup $mode --filter ncut.sbf r1.txt
  rm -f cfifo; mkfifo cfifo
  timeout 60 /usr/bin/python3 cut_helper.py cfifo ncut.sbf 4096 > cut.out & ph=$!
  "$SBF" dedup --no-add --filter ncut.sbf --threads 2 cut.keep > cfifo 2> err; rc=$?
  wait $ph
  [ $rc = 1 ] && ok || bad "--no-add filter cut short ($mode): exit $rc ($(head -c 300 err))"
  has err "ncut.sbf: the file was cut short while"
done
# a file of another kind is refused, not overwritten
expect 0 "$SBF" create cnt.sbf --layout counting -n 100
expect 1 "$SBF" dedup --filter cnt.sbf r1.txt; has err "counting"

# --------------------------------------------- shards join by sbf union
expect 0 "$SBF" dedup --expected 20000 --filter all.sbf d1.txt; sort out > all.sorted
: > parts
for i in 0 1 2; do
  expect 0 "$SBF" dedup --expected 20000 --shard $i/3 --filter part$i.sbf d1.txt; cat out >> parts
  has err "in other shards"
done
sort parts > parts.sorted; same parts.sorted all.sorted
expect 0 "$SBF" union u01.sbf part0.sbf part1.sbf
expect 0 "$SBF" union u.sbf u01.sbf part2.sbf
cmp -s <(tail -c +4097 u.sbf) <(tail -c +4097 all.sbf) && ok || bad "the shards' union is not the one-run filter"

# growing filters join sub-filter by sub-filter; info describes them
head -n 15000 d1.txt > d1a.txt; tail -n 15000 d1.txt > d1b.txt
expect 0 "$SBF" dedup --initial 20000 --fpp 1e-6 --filter g0.sbf d1a.txt
expect 0 "$SBF" dedup --initial 20000 --fpp 1e-6 --filter g1.sbf d1b.txt
expect 2 "$SBF" dedup --shard 0/2 d1a.txt; has err "--shard needs --expected"
expect 0 "$SBF" union g.sbf g0.sbf g1.sbf
expect 0 "$SBF" dedup --filter g.sbf --count d1.txt; [ "$(cat out)" = 0 ] && ok || bad "union of growing shards lost keys: $(cat out)"
expect 0 "$SBF" info g.sbf; has out "sub-filters      1"
expect 0 "$SBF" info g.sbf --json
/usr/bin/python3 -c 'import json,sys; d=json.load(open("out")); sys.exit(0 if d["format"]=="sbf-v4" and d["sizing"]=="formula+3sd" and d["filters"]==1 and 9000<d["keys"]<11000 and 0<d["fpp_now"]<1e-6 else 1)' \
  && ok || bad "info --json of a growing filter: $(cat out)"
expect 1 "$SBF" union x.sbf g.sbf all.sbf; has err "all.sbf: not a growing filter"
# the deciding loops of each ISA the library runs here (cli/cmd_dedup_pass.c
# is compiled per ISA, picked as SBF_ISA picks the library's): the output
# and --filter file of the scalar one, fixed and growing (3 sub-filters),
# blocked and split-block, 1 and 3 threads, --no-add
isas=""
for isa in scalar simde avx2 avx512 neon; do
  for opts in "--expected 20000" "--initial 3000" "--initial 3000 --layout split-block"; do
    for t in 1 3; do
      rm -f isa.sbf
      SBF_ISA=$isa "$SBF" dedup $opts --threads $t --filter isa.sbf d1.txt > isa.out 2> err
      if [ $? != 0 ]; then
        [ $isa != scalar ] && grep -q "ISA\|isa" err && continue 3
        bad "SBF_ISA=$isa $opts: $(head -c 300 err)"; continue
      fi
      SBF_ISA=$isa "$SBF" dedup --no-add --threads $t --filter isa.sbf d3.txt >> isa.out 2> err
      key=$(echo "$opts $t" | tr -c 'a-z0-9' _)
      if [ $isa = scalar ]; then
        cp isa.out "isa_$key.out"; cp isa.sbf "isa_$key.sbf"
      else
        same isa.out "isa_$key.out"; same isa.sbf "isa_$key.sbf"
      fi
    done
  done
  isas="$isas $isa"
done
case $isas in *avx512*|*avx2*|*neon*|*simde*) ok ;; *) echo "(dedup: only the scalar loops here:$isas)" ;; esac
rm -f isa_*.out isa_*.sbf isa.sbf isa.out
# a named FIFO among the inputs is read once, from its writer (not opened
# ahead by the checks or the growing filter's size estimate, which would end
# the writer): growing and fixed, 1 and 2 threads
for opts in "" "--expected 1000"; do
  for t in 1 2; do
    rm -f in.fifo; mkfifo in.fifo
    (seq 1 500 > in.fifo &)
    { seq 400 600; seq 1 500; } > fifo.all; ref fifo.all > fifo.want
    timeout 60 "$SBF" dedup $opts --fpp 1e-9 --threads $t <(seq 400 600) in.fifo > out 2> err
    same out fifo.want
  done
done
rm -f in.fifo fifo.all fifo.want
# without --initial a growing filter's first sub-filter takes a quarter of
# the lines of the input when every input is a regular file (its bytes over
# the mean line of 8 samples), at least 1M: 6M lines, 1.5M (+-10%: the
# samples' lines are 8 bytes, the first ones shorter); the same file with 1,
# 2, 3 threads; standard input a file; a pipe (unknown) and a small file 1M;
# --initial; files of several line lengths (the samples fall in each)
seq 1 6000000 > est.txt
initial_is() { # FILE LO HI
  "$SBF" info "$1" --json > out 2> err
  /usr/bin/python3 -c 'import json,sys; d=json.load(open("out")); sys.exit(0 if int(sys.argv[1])<=d["initial"]<=int(sys.argv[2]) else 1)' "$2" "$3" \
    && ok || bad "$1: initial $(cat out)"
}
for t in 1 2 3; do
  rm -f est$t.sbf; expect 0 "$SBF" dedup --count --filter est$t.sbf --threads $t est.txt
done
initial_is est1.sbf 1350000 1650000; same est1.sbf est2.sbf; same est1.sbf est3.sbf
rm -f est.sbf; cat est.txt | "$SBF" dedup --count --filter est.sbf > out 2> err; initial_is est.sbf 1000000 1000000
rm -f est.sbf; (head -n 1000 > /dev/null; "$SBF" dedup --count --filter est.sbf -) < est.txt > out 2> err
initial_is est.sbf 1350000 1650000
rm -f est.sbf; expect 0 "$SBF" dedup --count --filter est.sbf d1.txt; initial_is est.sbf 1000000 1000000
rm -f est.sbf; expect 0 "$SBF" dedup --count --filter est.sbf --initial 5000 est.txt; initial_is est.sbf 5000 5000
rm -f est.sbf; expect 0 "$SBF" dedup --count --filter est.sbf d1.txt est.txt - < est.txt; initial_is est.sbf 2500000 3300000
rm -f est.sbf est*.sbf est.txt
# sbf query maps a growing filter: every key of d1 in, none of d3
expect 0 "$SBF" query g.sbf d1.txt --count; [ "$(cat out)" = 30000 ] && ok || bad "query growing: $(cat out)"
expect 0 "$SBF" query g.sbf d3.txt --count --verify; [ "$(cat out)" = 0 ] && ok || bad "query growing, absent: $(cat out)"
expect 0 "$SBF" query g.sbf d2b.txt; [ "$(tr -d '\n' < out)" = 00 ] && ok || bad "query growing, lines: $(cat out)"
printf 'SBF1\3\0\0\0garbage' > g-bad.sbf
expect 1 "$SBF" dedup --filter g-bad.sbf d1.txt; has err "g-bad.sbf"
# a format-3 file of an earlier run: read, grown by its rule (the formula), still format 3
cp "$VEC/sbf_v3_blocked.bin" g3.sbf
expect 0 "$SBF" info g3.sbf; has out "sbf-v3 (growing)"; has out "sized by the formula"
expect 0 "$SBF" dedup --filter g3.sbf --count d1.txt; [ "$(cat out)" -gt 9000 ] && ok || bad "format 3 dedup: $(cat out)"
expect 0 "$SBF" info g3.sbf --json; has out '"format": "sbf-v3"'
expect 1 "$SBF" union g34.sbf g3.sbf g.sbf; has err "growing filters made with other parameters"

# ------------------------------------------------------- n-gram documents
printf '{"text":"the quick brown fox jumps over the lazy dog"}\n{"text":"the quick brown fox jumps over the lazy cat"}\n{"text":"completely different words here and there ok"}\n{"text":"the  quick brown\\nfox jumps over the lazy dog"}\n{"text":""}\n{"id":1}\n{"text":"lazy dog"}\n{"text":"lazy dog"}\n' > n1.jsonl
# 3-grams: the cat document shares 6 of its 7 (0.86 >= 0.8); the re-spaced
# dog document all 7; a document shorter than N is one n-gram of its words
expect 0 "$SBF" dedup --ngrams 3 n1.jsonl
sed -n '1p;3p;5p;6p;7p' n1.jsonl > n1.want; same out n1.want
has err "28 3-grams"
expect 0 "$SBF" dedup --ngrams 3 --threshold 0.9 --invert n1.jsonl
[ "$(wc -l < out)" = 2 ] && has out "the  quick brown" || bad "threshold 0.9: $(cat out)"
# threads: the same documents kept, on a corpus of several chunks
awk 'BEGIN { srand(3); for (d = 0; d < 4000; d++) { printf "{\"id\": %d, \"text\": \"", d;
  base = int(rand() * 300); for (w = 0; w < 120; w++) printf "%sw%d", (w ? " " : ""), (base * 7 + w * (rand() < 0.9 ? 1 : 13)) % 5000;
  printf "\"}\n" } }' > n2.jsonl
expect 0 "$SBF" dedup --ngrams 8 --threshold 0.5 --threads 1 n2.jsonl; cp out n1.out
kept=$(wc -l < out); [ "$kept" -gt 100 ] && [ "$kept" -lt 3900 ] && ok || bad "ngram corpus kept $kept of 4000"
for t in 2 4; do
  expect 0 "$SBF" dedup --ngrams 8 --threshold 0.5 --threads $t n2.jsonl; same out n1.out
done
expect 0 "$SBF" dedup --ngrams 8 --expected 500000 --threads 3 n2.jsonl; cp out n3.out
expect 0 "$SBF" dedup --ngrams 8 --expected 500000 n2.jsonl; same out n3.out
# --paragraphs: each paragraph (between \n escapes) decided alone; a
# document is written without its duplicate paragraphs, or not at all
printf '%s\n' '{"text":"alpha beta gamma delta\nepsilon zeta eta theta"}' \
  '{"text":"new words one two\nepsilon zeta eta theta","id":2}' \
  '{"text":"epsilon zeta eta theta\nalpha beta gamma delta"}' \
  '{"id":4,"text":"x y\n\nz w","k":2}' \
  '{"text":"caf\u00e9 — ok\nepsilon zeta eta theta"}' > p1.jsonl
expect 0 "$SBF" dedup --ngrams 2 --paragraphs p1.jsonl
printf '%s\n' '{"text":"alpha beta gamma delta\nepsilon zeta eta theta"}' \
  '{"text":"new words one two","id":2}' '{"id":4,"text":"x y\n\nz w","k":2}' \
  '{"text":"caf\u00e9 — ok"}' > p1.want
same out p1.want
has err "5 lines: 4 new, 1 seen before; 11 paragraphs, 4 duplicate"
expect 0 "$SBF" dedup --ngrams 2 --paragraphs --invert p1.jsonl
printf '%s\n' '{"text":"epsilon zeta eta theta","id":2}' \
  '{"text":"epsilon zeta eta theta\nalpha beta gamma delta"}' '{"text":"epsilon zeta eta theta"}' > p1.inv
same out p1.inv
# --annotate: every document, with the fraction of its n-grams seen before
# and the duplicate spans in characters of the decoded text
expect 0 "$SBF" dedup --ngrams 2 --paragraphs --annotate p1.jsonl
/usr/bin/python3 - out <<'PY' && ok || bad "--annotate --paragraphs: $(cat out)"
import json, sys
docs = [json.loads(l) for l in open(sys.argv[1], encoding='utf-8')]
want = [(0, []), (0.5, ["epsilon zeta eta theta"]),
        (1, ["epsilon zeta eta theta", "alpha beta gamma delta"]), (0, []),
        (3 / 5, ["epsilon zeta eta theta"])]
assert len(docs) == 5, docs
for d, (frac, spans) in zip(docs, want):
    assert abs(d["sbf_duplicate_fraction"] - frac) < 1e-5, d
    assert [d["text"][a:b] for a, b in d["sbf_duplicate_spans"]] == spans, d
assert docs[1]["id"] == 2 and docs[3]["k"] == 2
PY
expect 0 "$SBF" dedup --ngrams 2 --annotate p1.jsonl
/usr/bin/python3 -c '
import json, sys
d = [json.loads(l) for l in open("out", encoding="utf-8")]
sys.exit(0 if [x["sbf_duplicate_spans"] for x in d] == [[], [], [[0, 45]], [], []]
         and abs(d[1]["sbf_duplicate_fraction"] - 3 / 7) < 1e-5 else 1)' \
  && ok || bad "--annotate (documents): $(cat out)"
# --remove-type both (bff's): paragraphs as --paragraphs, and a document
# left out whole when a fraction >= T of all its n-grams (its paragraphs
# together, each counted before its own are added) were seen. Document 2:
# paragraph 1 3/5 seen (a duplicate at 0.5), paragraph 2 1/3 (kept), the
# document 4/8: out whole; document 3: paragraph 1 3/3, paragraph 2 0/4,
# the document 3/7: paragraph 2 kept
printf '%s\n' '{"text":"a b c d\ne f g h"}' '{"text":"a b c d x y\ne f z w","id":2}' \
  '{"text":"e f g h\nn1 n2 n3 n4 n5"}' > b1.jsonl
expect 0 "$SBF" dedup --ngrams 2 --threshold 0.5 --remove-type both b1.jsonl
printf '%s\n' '{"text":"a b c d\ne f g h"}' '{"text":"n1 n2 n3 n4 n5"}' > b1.want
same out b1.want
has err "3 lines: 2 new, 1 seen before; 6 paragraphs, 2 duplicate"
for para in "--remove-type paragraph" --paragraphs; do
  expect 0 "$SBF" dedup --ngrams 2 --threshold 0.5 $para b1.jsonl
  printf '%s\n' '{"text":"a b c d\ne f g h"}' '{"text":"e f z w","id":2}' '{"text":"n1 n2 n3 n4 n5"}' > b1.para
  same out b1.para
done
expect 0 "$SBF" dedup --ngrams 2 --threshold 0.5 --remove-type document b1.jsonl; same out b1.jsonl
expect 0 "$SBF" dedup --ngrams 2 --threshold 0.5 --remove-type both --invert b1.jsonl
printf '%s\n' '{"text":"a b c d x y\ne f z w","id":2}' '{"text":"e f g h"}' > b1.inv
same out b1.inv
expect 0 "$SBF" dedup --ngrams 2 --threshold 0.5 --remove-type both --annotate b1.jsonl
/usr/bin/python3 - out <<'PY' && ok || bad "--annotate --remove-type both: $(cat out)"
import json, sys
docs = [json.loads(l) for l in open(sys.argv[1], encoding='utf-8')]
want = [(0, []), (0.5, ["a b c d x y\ne f z w"]), (3 / 7, ["e f g h"])]
assert len(docs) == 3, docs
for d, (frac, spans) in zip(docs, want):
    assert abs(d["sbf_duplicate_fraction"] - frac) < 1e-5, d
    assert [d["text"][a:b] for a, b in d["sbf_duplicate_spans"]] == spans, d
PY
expect 2 "$SBF" dedup --remove-type both b1.jsonl; has err "--remove-type is for --ngrams"
expect 2 "$SBF" dedup --ngrams 2 --remove-type all b1.jsonl; has err "document, paragraph or both"
expect 2 "$SBF" dedup --ngrams 2 --remove-type document --paragraphs b1.jsonl
# an object cut short after its text is written as read; CRLF keeps its \r
printf '{"text":"one two three"\n{"text":"one two three"}\r\n' > p3.jsonl
expect 0 "$SBF" dedup --ngrams 2 --annotate p3.jsonl
printf '{"text":"one two three"\n{"text":"one two three","sbf_duplicate_fraction":1,"sbf_duplicate_spans":[[0,13]]}\r\n' > p3.want
same out p3.want
# threads: the same bytes for paragraphs and annotations, fixed and growing
awk 'BEGIN { srand(4); for (d = 0; d < 3000; d++) { printf "{\"id\": %d, \"text\": \"", d;
  for (p = 0; p < 4; p++) { base = int(rand() * 400); printf "%s", (p ? "\\n" : "");
    for (w = 0; w < 30; w++) printf "%sw%d", (w ? " " : ""), (base * 7 + w) % 3000 }
  printf "\"}\n" } }' > p2.jsonl
for opts in "--paragraphs" "--remove-type both --threshold 0.5" "--remove-type both --expected 400000 --invert" "--paragraphs --annotate" "--annotate" "--paragraphs --expected 400000" "--paragraphs --annotate --expected 400000"; do
  expect 0 "$SBF" dedup --ngrams 5 $opts --threads 1 p2.jsonl; cp out pt1.out
  for t in 2 3 5; do
    expect 0 "$SBF" dedup --ngrams 5 $opts --threads $t p2.jsonl; same out pt1.out
  done
done
grep -c '"sbf_duplicate_spans":\[\]' pt1.out > /dev/null && grep -c '"sbf_duplicate_spans":\[\[' pt1.out > /dev/null && ok || bad "annotations: no mix of duplicate and new"
# a growing filter is decided by parts (from two threads) while a chunk
# fits in its newest sub-filter, and in order when it may start one (both
# happen here: sub-filters of 5000 and 2000 keys and up, chunks of ~7500):
# the same output and --filter bytes as one thread (keys; paragraphs'
# n-grams, whose counts sum over the parts)
for opts in "--initial 5000 --fpp 0.001 d4.jsonl" "--initial 2000 --ngrams 5 --paragraphs p2.jsonl" "--initial 20000 --ngrams 5 p2.jsonl"; do
  for t in 1 2 3 5; do
    rm -f gr$t.sbf
    expect 0 "$SBF" dedup $opts --threads $t --filter gr$t.sbf; cp out gr$t.out
  done
  same gr1.out gr2.out; same gr1.out gr3.out; same gr1.out gr5.out
  cmp -s gr1.sbf gr2.sbf && cmp -s gr1.sbf gr3.sbf && cmp -s gr1.sbf gr5.sbf && ok \
    || bad "growing ($opts): --threads changed the filter file"
  "$SBF" info gr1.sbf > gr.info 2>&1; has gr.info "sub-filters"
done
# paragraphs written at their offsets (pwrite, 2 and 3 threads) = one thread
"$SBF" dedup --initial 2000 --ngrams 5 --paragraphs --threads 1 p2.jsonl > pw1.out 2> err
for t in 2 3; do
  SBF_DEDUP_PWRITE=1 "$SBF" dedup --initial 2000 --ngrams 5 --paragraphs --threads $t p2.jsonl > pw.out 2> err; same pw.out pw1.out
  SBF_DEDUP_PWRITE=1 "$SBF" dedup --initial 2000 --ngrams 5 --paragraphs --threads $t p2.jsonl 2> err | cat > pw.out; same pw.out pw1.out
done
[ -s pw1.out ] && ok || bad "paragraphs: no output"
expect 2 "$SBF" dedup --paragraphs p1.jsonl; has err "--paragraphs and --annotate are for --ngrams"
expect 2 "$SBF" dedup --ngrams 2 --annotate --invert p1.jsonl
expect 2 "$SBF" dedup --ngrams 2 --annotate --tsv-field 1 p1.jsonl
expect 2 "$SBF" dedup --threshold 0.5 n2.jsonl; has err "--threshold is for --ngrams"
expect 2 "$SBF" dedup --ngrams 0 n2.jsonl
expect 2 "$SBF" dedup --ngrams 3 --shard 0/2 --expected 10 n2.jsonl

# ------------------------------------------------------------- bad input
# every byte value, lines without end, CRLF twins, a very long line
/usr/bin/python3 - > d5.bin <<'PY'
import sys, random
random.seed(5)
out = []
for i in range(3000):
    n = random.randrange(0, 12)
    out.append(bytes(random.randrange(0, 256) for _ in range(n)).replace(b'\n', b'') + (b'\r' if i % 5 == 0 else b''))
out.append(b'z' * 3000000)
out += [b'a', b'a\r', b'z' * 3000000, b'']
sys.stdout.buffer.write(b'\n'.join(out) + b'\n' + b'tail-no-newline')
PY
ref d5.bin > d5.want
for t in 1 2; do
  expect 0 "$SBF" dedup --expected 5000 --fpp 1e-9 --threads $t d5.bin; same out d5.want
done
# the same junk read as JSON Lines: no line has the key, every one is
# written as read (the last with a newline) and counted; the five named are
# shown with their bytes escaped (no raw control byte on standard error)
{ cat d5.bin; echo; } > d5.json.want
for t in 1 2; do
  expect 0 "$SBF" dedup --json-field u --threads $t d5.bin; same out d5.json.want
  has err "3006 lines: 0 new, 0 seen before, 3006 without a key (written as is)"
  has err 'd5.bin: line 5 has no key (not a JSON object): \x00\x02'
  LC_ALL=C grep -q '[[:cntrl:]]' <(tr -d '\n' < err) && bad "junk: raw control bytes on stderr" || ok
done
printf 'line\r\nline\nline\r' > d6.txt
expect 0 "$SBF" dedup d6.txt; [ "$(cat out)" = "$(printf 'line\r')" ] && ok || bad "CRLF: $(od -c out)"
expect 0 "$SBF" dedup --binary d6.txt; [ "$(wc -l < out)" = 2 ] && ok || bad "--binary: $(od -c out)"
printf '{"u":"a"}\n{"v":"a"}\n{"u":"a"}\nnot json\n{"u":7}\n{"u":"b\\"c"}\n{"u":"b\\"c"}\n{"u":"unterminated\n' > d7.jsonl
expect 0 "$SBF" dedup --json-field u d7.jsonl
[ "$(cat out)" = "$(printf '{"u":"a"}\n{"v":"a"}\nnot json\n{"u":7}\n{"u":"b\\"c"}\n{"u":"unterminated')" ] && ok || bad "json: $(cat out)"
has err "line 2 has no key (no such field: u)"
has err "line 4 has no key (not a JSON object)"
has err "line 5 has no key (the field is not a string: u)"
has err "4 without a key (written as is)"
# lines without the key in many chunks of two files, on 1-3 threads: each
# written as is and counted, and the first five named with their file and
# line number (the sixth and later only counted)
awk '{ if (NR % 30000 == 0) print "{\"v\": " NR "}"; else print "{\"u\": \"k" NR % 50000 "\", \"n\": " NR "}" }' \
  <(seq 1 200000) > d9a.jsonl
printf '{"u":"k1"}\n[1]\n{"u":"new"}\n' > d9b.jsonl
for t in 1 2 3; do
  expect 0 "$SBF" dedup --json-field u --fpp 1e-9 --threads $t d9a.jsonl d9b.jsonl
  [ "$(wc -l < out)" = 50008 ] && [ "$(grep -c '"v"' out)" = 6 ] && ok || bad "missing keys, $t threads: $(wc -l < out) lines"
  has err "200003 lines: 50001 new, 149995 seen before, 7 without a key (written as is)"
  for ln in 30000 60000 90000 120000 150000; do has err "d9a.jsonl: line $ln has no key (no such field: u)"; done
  [ "$(grep -c 'has no key' err)" = 5 ] && ok || bad "missing keys, $t threads: $(grep -c 'has no key' err) named"
done
printf 'a\t1\nb\t1\nc\n' > d8.tsv
expect 0 "$SBF" dedup --tsv-field 2 d8.tsv; [ "$(cat out)" = "$(printf 'a\t1\nc')" ] && ok || bad "tsv: $(cat out)"
has err "line 3 has no key (fewer fields than --tsv-field)"
expect 0 "$SBF" dedup --help; has out "usage: sbf dedup"
expect 2 "$SBF" dedup --shard 3/3 d1.txt; has err "--shard"
expect 2 "$SBF" dedup --tsv-field 0 d1.txt
expect 2 "$SBF" dedup --threads 0 d1.txt
expect 2 "$SBF" dedup --tsv-field 1 --json-field u d1.txt
expect 2 "$SBF" dedup --layout counting d1.txt
expect 2 "$SBF" dedup --fpp 1.5 d1.txt
expect 1 "$SBF" dedup no-such-file.txt; has err "no-such-file.txt"
# an unreadable input later in the list stops the run before anything is
# written, and the filter file is not touched
cp nf.sbf nf.before
expect 1 "$SBF" dedup --filter nf.sbf r1.txt no-such-file.txt; has err "no-such-file.txt"
[ ! -s out ] && ok || bad "output before the failure: $(head -c 100 out)"
same nf.sbf nf.before
