# Parquet files made to mislead or to exhaust (issue 33): colliding column
# names, names holding a newline, and files whose work or memory would grow
# without bound; sourced by tests/parquet_cli.sh. The files come from
# tests/gen/gen_parquet.py (only the parts sbf reads). Memory is bounded by
# running under `ulimit -v` (address space), never by a clock.
GEN="/usr/bin/python3 $SRC/tests/gen/gen_parquet.py"
# A sanitizer build reserves terabytes of address space: no ulimit -v there.
if grep -q __asan_init "$SBF" 2>/dev/null; then LIMIT_KB=; else LIMIT_KB=150000; fi
bounded() { if [ -n "$LIMIT_KB" ]; then (ulimit -v "$LIMIT_KB"; "$@"); else "$@"; fi; }

# --- a top-level column "a.b" and field b of struct a: never one for the other
for w in top nested; do
  "$SBF" create "$T/$w.sbf" --layout parquet -n 100 --fpp 0.0001 >/dev/null
  for i in $(seq 0 49); do echo "$w-$i"; done | "$SBF" add "$T/$w.sbf"
  "$SBF" convert --to parquet "$T/$w.sbf" "$T/$w.bloom"
done
$GEN dots "$T/dots.parquet" "$T/top.bloom" "$T/nested.bloom"
list=$("$SBF" parquet list "$T/dots.parquet")
check "dots: list names both apart ($list)" test "$(awk 'NR>1{print $2}' <<<"$list" | tr '\n' ' ')" = 'a\.b a.b '
err=$(printf 'top-1\n' | "$SBF" parquet query "$T/dots.parquet" --column a.b 2>&1); rc=$?
check "dots: 'a.b' is ambiguous, refused (exit $rc: $err)" test "$rc" = 1
check "dots: the message names both columns" grep -q "column name 'a.b' is ambiguous: it names column 0 ('a\\\\.b', path a.b) and column 1 ('a.b', path a.b)" <<<"$err"
check "dots: the top-level column by its escaped name" test "$(printf 'top-1\nnested-1\n' | "$SBF" parquet query "$T/dots.parquet" --column 'a\.b' | tr '\n' ' ')" = '[0] [] '
check "dots: the struct field by --column-index" test "$(printf 'top-1\nnested-1\n' | "$SBF" parquet query "$T/dots.parquet" --column-index 1 | tr '\n' ' ')" = '[] [0] '
"$SBF" parquet extract "$T/dots.parquet" --column 'a\.b' --row-group 0 "$T/d0.sbf" >/dev/null
check "dots: extract of a\\.b is the top filter" test "$(printf 'top-7\n' | "$SBF" query "$T/d0.sbf")" = 1
check "dots: --json carries name and column_index" grep -q '"column": "a.b", "name": "a\\\\.b", "column_index": 0' <<<"$("$SBF" parquet list "$T/dots.parquet" --json)"
err=$("$SBF" parquet query "$T/dots.parquet" --column-index 7 </dev/null 2>&1); rc=$?
check "dots: no column index 7 (exit $rc: $err)" test "$rc/$(grep -c 'no column index 7' <<<"$err")" = 1/1
err=$("$SBF" parquet query "$T/dots.parquet" --column a.b --column-index 1 </dev/null 2>&1); rc=$?
check "dots: --column and --column-index together: usage ($rc)" test "$rc" = 2

# --- a name holding a newline cannot forge a row
$GEN newline "$T/nl.parquet" "$T/top.bloom"
list=$("$SBF" parquet list "$T/nl.parquet")
check "newline: one header, one row ($list)" test "$(wc -l <<<"$list")" = 2
check "newline: the name escaped" grep -q '^0 *x\\x0ay ' <<<"$list"
check "newline: queried by that name" test "$(printf 'top-3\n' | "$SBF" parquet query "$T/nl.parquet" --column 'x\x0ay')" = "[0]"
printf '%s' 'top-3' | od -An -tx1 | tr -d ' \n' > "$T/hexkey"; echo >> "$T/hexkey"
check "--hex keys in parquet query" test "$("$SBF" parquet query "$T/nl.parquet" --column 'x\x0ay' --hex "$T/hexkey")" = "[0]"

# --- no filter: said, not an empty table or every row group
$GEN groups "$T/groups.parquet" 100000
err=$(bounded "$SBF" parquet query "$T/groups.parquet" --column x </dev/null 2>&1); rc=$?
check "groups: a column without filters is refused (exit $rc: $err)" test "$rc/$(grep -c 'column x has no Bloom filter in any of the 100000 row groups' <<<"$err")" = 1/1
# a footer {4: []}: field 4 a list of no row group, stop
printf 'PAR1\x49\x0c\x00\x03\x00\x00\x00PAR1' > "$T/nofilter.parquet"
err=$("$SBF" parquet list "$T/nofilter.parquet" 2>&1); rc=$?
check "list: a file without filters says so (exit $rc: $err)" test "$rc/$(grep -c 'no column chunk has a Bloom filter (0 chunks in 0 row groups)' <<<"$err")" = 1/1

# --- 10^5 row groups, each with its own 32-byte filter (4.7 MB of filters in
# a 7.9 MB file): memory bounded by a few times that. The bitsets are packed
# in one buffer (3.2 MB), not a filter object each: ~10 MB of address space
# for the program, 11 MB for the footer's 2*10^5 chunk records, the rest
# under 10 MB; the per-filter objects took 75 MB of it.
seq 1 300 > "$T/k300"
GROUPS_KB=${LIMIT_KB:+40000}
out=$(LIMIT_KB=$GROUPS_KB bounded "$SBF" parquet query "$T/groups.parquet" --column y --type string "$T/k300"); rc=$?
check "groups: 10^5 row groups queried within ${GROUPS_KB:-no} KB (exit $rc)" test "$rc/$(sort -u <<<"$out")/$(wc -l <<<"$out")" = "0/[]/300"
out=$(bounded "$SBF" parquet list "$T/groups.parquet" | wc -l)
check "groups: list within the bound ($out lines)" test "$out" = 100001

# --- one 16 MiB filter referenced by 400 chunks: read once, held once
$GEN shared "$T/shared.parquet" 400 16777216
out=$(bounded "$SBF" parquet query "$T/shared.parquet" --column x --type string "$T/k300"); rc=$?
check "shared: 400 chunks of one 16 MiB filter within ${LIMIT_KB:-no} KB (exit $rc)" test "$rc/$(sort -u <<<"$out")" = "0/[]"
out=$(bounded "$SBF" parquet list "$T/shared.parquet" | awk 'NR>1{print $3, $4}' | sort | uniq -c | awk '{$1=$1; print}')
check "shared: list shows it 400 times ($out)" test "$out" = "400 4 16777234"

# --- filters that overlap in the file are refused
$GEN overlap "$T/overlap.parquet"
err=$("$SBF" parquet list "$T/overlap.parquet" 2>&1); rc=$?
check "overlap: refused (exit $rc: $err)" test "$rc/$(grep -c 'overlap in the file' <<<"$err")" = 1/1

# --- a filter larger than writers make: refused with the limit and the flag
$GEN huge "$T/huge.parquet"
err=$(bounded "$SBF" parquet list "$T/huge.parquet" 2>&1); rc=$?
check "huge: refused (exit $rc: $err)" test "$rc" = 1
check "huge: the message names the limit and the flag" grep -q 'above the limit of 134217728 bytes (Parquet writers make at most 128 MiB); --max-filter-bytes SIZE lifts it' <<<"$err"
rm -f "$T/huge.parquet"
err=$("$SBF" parquet list "$PQ" --max-filter-bytes 1Ki 2>&1); rc=$?
check "--max-filter-bytes 1Ki refuses a 1040-byte filter ($rc)" test "$rc/$(grep -c 'above the limit of 1024 bytes' <<<"$err")" = 1/1
check "--max-filter-bytes 2Gi lifts the limit" test "$("$SBF" parquet list "$PQ" --max-filter-bytes 2Gi | wc -l)" = 13

# --- a footer nested too deep: a footer's message, not a filter's
$GEN deep "$T/deep.parquet"
err=$("$SBF" parquet list "$T/deep.parquet" 2>&1); rc=$?
check "deep: refused as a malformed footer (exit $rc: $err)" test "$rc/$(grep -c 'malformed Parquet footer: thrift: nested deeper' <<<"$err")" = 1/1
check "deep: no 'serialized filter' in the message" test "$(grep -c 'serialized filter' <<<"$err")" = 0
err=$("$SBF" parquet list "$PQ" --max-filter-bytes 12XB 2>&1); rc=$?
check "--max-filter-bytes 12XB: usage error ($rc: $err)" test "$rc/$(grep -c 'not a size' <<<"$err")" = 2/1
