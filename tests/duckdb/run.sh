#!/usr/bin/env bash
# make test-duckdb: DuckDB as an outside oracle of the parquet layout.
#   1. DuckDB writes Parquet files with Bloom filters (write.mjs): BIGINT,
#      INTEGER, DOUBLE and VARCHAR columns with negative numbers, -0.0, NULLs,
#      the empty string and non-ASCII text, in several row groups.
#   2. Our filter of each chunk's values at DuckDB's size is byte-identical to
#      DuckDB's, and DuckDB's finds every value (sbf-duckdb-check).
#   3. `sbf parquet extract` and `sbf parquet query` find every value.
#   4. Our filter of other values, written over DuckDB's bitset in a copy of
#      the file, gets the same answers from DuckDB's parquet_bloom_probe as
#      from `sbf parquet query`, for every probe (present, absent, DuckDB's).
# Usage: run.sh BUILD_DIR (holds sbf and sbf-duckdb-check).
# Under pipefail no pipe here ends before its writer has written everything
# (head/grep -q on a pipe kill the writer with SIGPIPE: exit 141 at random,
# or a failing check that never fires): checks read files.
set -euo pipefail
cd "$(dirname "$0")/../.."
B=${1:-build}
SBF=$B/sbf
export DUCKDB_DIR=${DUCKDB_DIR:-$B/duckdb}
bash tests/duckdb/setup.sh
OUT=$B/duckdb-out
rm -rf "$OUT" && mkdir -p "$OUT"
node tests/duckdb/write.mjs "$OUT"
"$B/sbf-duckdb-check" "$OUT/types" "$OUT/many"

typename() { case $1 in INT32) echo int32;; INT64) echo int64;; DOUBLE) echo double;;
                        BYTE_ARRAY) echo string;; esac; }
pass=0
fail() { echo "test-duckdb: FAILED: $*" >&2; exit 1; }

# 3. every value of every chunk found by extract (per chunk) and query (per key)
for base in types many; do
  f=$OUT/$base.parquet
  awk -v o="$OUT/$base" '/^chunk /{ r = $2; c = $3; next }
       { sub(/^v [^ ]* /, ""); print r "\t" $0 > (o "." c ".rg") }' "$OUT/$base.values"
  for col in b n d s; do
    t=$(typename "$(awk -v c=$col '$1=="chunk" && $3==c {print $4; exit}' "$OUT/$base.values")")
    # query: each (row group, value) of the file has its row group listed
    cut -f2- "$OUT/$base.$col.rg" > "$OUT/keys.txt"
    "$SBF" parquet query "$f" --column "$col" --type "$t" "$OUT/keys.txt" > "$OUT/q.txt"
    [ "$(wc -l < "$OUT/q.txt")" = "$(wc -l < "$OUT/keys.txt")" ] || fail "$base $col: one line per key"
    paste "$OUT/$base.$col.rg" "$OUT/q.txt" |
      awk -F'\t' '{ gsub(/[][]/, "", $3); n = split($3, a, ","); ok = 0; for (i = 1; i <= n; i++) if (a[i] == $1) ok = 1;
                    if (!ok) { print "missing: " $2 " in row group " $1; bad = 1 } }
                  END { exit bad }' || fail "$base $col: query misses values"
    # extract: row group 1's filter alone finds its values
    "$SBF" parquet extract "$f" --column "$col" --row-group 1 "$OUT/x.sbf" >/dev/null
    awk -F'\t' '$1==1 {print $2}' "$OUT/$base.$col.rg" > "$OUT/rg1.keys"
    "$SBF" query "$OUT/x.sbf" --type "$t" "$OUT/rg1.keys" > "$OUT/rg1.ans"
    grep -qv 1 "$OUT/rg1.ans" && fail "$base $col: extract misses values"
    pass=$((pass + 2))
  done
done

# 4. our bits in DuckDB's file: DuckDB's probe and ours agree on every probe
f=$OUT/types.parquet
for col in b n d s; do
  t=$(typename "$(awk -v c=$col '$1=="chunk" && $3==c {print $4; exit}' "$OUT/types.values")")
  case $t in
    string) seq 1 300 | sed 's/^/other-/' > "$OUT/other.txt"; printf '%s\n' '' 'é' 'other-0' > "$OUT/extra.txt";;
    double) seq 1 300 | awk '{print $1 * 0.37 - 50}' > "$OUT/other.txt"; printf '%s\n' -0 0 1e300 > "$OUT/extra.txt";;
    *)      seq 1 300 | awk '{print $1 * 7777 - 1000000}' > "$OUT/other.txt"; printf '%s\n' 0 -1 2147483647 > "$OUT/extra.txt";;
  esac
  "$B/sbf-duckdb-check" --overwrite "$f" 0 "$col" "$t" "$OUT/other.txt" "$OUT/over.parquet"
  head -n 200 "$OUT/types.$col.rg" | cut -f2- | cat "$OUT/other.txt" "$OUT/extra.txt" - > "$OUT/probe.txt"
  node tests/duckdb/probe.mjs "$OUT/over.parquet" "$col" "$t" "$OUT/probe.txt" > "$OUT/duck.txt"
  "$SBF" parquet query "$OUT/over.parquet" --column "$col" --type "$t" "$OUT/probe.txt" > "$OUT/ours.txt"
  cmp -s "$OUT/duck.txt" "$OUT/ours.txt" ||
    { diff "$OUT/duck.txt" "$OUT/ours.txt" | head >&2; fail "types $col: DuckDB's probe and ours disagree"; }
  awk 'NR <= 300 && !/^\[0[],]/ { bad = 1 } END { exit !bad }' "$OUT/ours.txt" && fail "types $col: our values not found in row group 0"
  pass=$((pass + 1))
done
# 5. issue 33's colliding names in a file DuckDB wrote: "a.b" (top level) and
# a.b (field b of struct a) are never taken one for the other
node tests/duckdb/dots.mjs "$OUT/dots.parquet"
"$SBF" parquet query "$OUT/dots.parquet" --column a.b </dev/null 2>"$OUT/err" && fail "dots: an ambiguous name was accepted"
grep -q "is ambiguous" "$OUT/err" || fail "dots: $(cat "$OUT/err")"
[ "$(printf 'top-1\nnested-1\n' | "$SBF" parquet query "$OUT/dots.parquet" --column 'a\.b' | tr '\n' ' ')" = "[0] [] " ] ||
  fail "dots: the top-level column a\\.b"
i=$("$SBF" parquet list "$OUT/dots.parquet" --json | /usr/bin/python3 -c 'import json,sys; print([c["column_index"] for c in json.load(sys.stdin) if c["name"] == "a.b"][0])')
[ "$(printf 'top-1\nnested-1\n' | "$SBF" parquet query "$OUT/dots.parquet" --column-index "$i" | tr '\n' ' ')" = "[] [0] " ] ||
  fail "dots: the struct field a.b by --column-index $i"
pass=$((pass + 1))
echo "test-duckdb: $pass passed, 0 failed"
