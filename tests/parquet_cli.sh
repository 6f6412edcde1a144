#!/usr/bin/env bash
# The sbf commands of issue 18 (fold, parquet ...), run by `make test` after
# tests/cli.sh: bash tests/parquet_cli.sh build/sbf
set -uo pipefail
SBF=${1:-build/sbf}
SRC=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0 failed=0
ok() { pass=$((pass + 1)); }
bad() { echo "parquet_cli: FAIL: $*" >&2; failed=$((failed + 1)); }
check() { local what=$1; shift; if "$@"; then ok; else bad "$what"; fi; }

# --- fold: a filter sized for 10x the keys folds to the target, finds every key
"$SBF" create "$T/f.sbf" --layout split-block --bits 1048576 >/dev/null
seq 1 10000 > "$T/keys"
"$SBF" add "$T/f.sbf" "$T/keys"
out=$("$SBF" fold "$T/f.sbf" --fpp 0.01 --out "$T/g.sbf")
check "fold --fpp folds 3 times: $out" grep -q '^folded 3 times: 131072 -> 16384 bytes' <<<"$out"
check "folded filter finds every key" test "$("$SBF" query "$T/g.sbf" "$T/keys" | sort -u)" = 1
"$SBF" fold "$T/f.sbf" --times 3 --out "$T/h.sbf" >/dev/null
check "--times 3 = --fpp's result" cmp -s <("$SBF" query "$T/g.sbf" "$T/keys") <("$SBF" query "$T/h.sbf" "$T/keys")
"$SBF" fold "$T/f.sbf" --times 1 >/dev/null
check "fold in place exits 0" test $? = 0
check "FILE is half" test "$("$SBF" info "$T/f.sbf" | awk '/^bytes/{print $2}')" = 65536
# odd block counts and the classic layout are refused, FILE unchanged
"$SBF" create "$T/odd.sbf" --layout blocked --bits 1536 >/dev/null
cp "$T/odd.sbf" "$T/odd0.sbf"
err=$("$SBF" fold "$T/odd.sbf" --times 1 2>&1)
check "odd: refused ($err)" grep -q "block count is odd" <<<"$err"
check "odd: file unchanged" cmp -s "$T/odd.sbf" "$T/odd0.sbf"
"$SBF" create "$T/c.sbf" --layout classic --bits 1024 >/dev/null
check "classic refused" test "$("$SBF" fold "$T/c.sbf" --fpp 0.1 >/dev/null 2>&1; echo $?)" = 1
check "--fpp and --times together: usage" test "$("$SBF" fold "$T/c.sbf" --fpp 0.1 --times 1 >/dev/null 2>&1; echo $?)" = 2
check "--fpp 2: usage" test "$("$SBF" fold "$T/c.sbf" --fpp 2 >/dev/null 2>&1; echo $?)" = 2

# --- parquet: a DuckDB-written file (tests/vectors/duckdb_small.*)
PQ=$SRC/tests/vectors/duckdb_small.parquet
list=$("$SBF" parquet list "$PQ")
check "list: 12 filters" test "$(tail -n +2 <<<"$list" | wc -l)" = 12
check "list: rg 0 column b at 35033, 1040 bytes" grep -Eq '^0 +b +35033 +1040 ' <<<"$list"
check "list --json: 12 entries" test "$("$SBF" parquet list "$PQ" --json | grep -c '"row_group"')" = 12
awk '/^chunk 1 s /{f=1; next} /^chunk/{f=0} f{sub(/^v [^ ]* /, ""); print}' "$SRC/tests/vectors/duckdb_small.values" > "$T/s1"
check "query: every value of rg 1 is in rg 1" test -z "$("$SBF" parquet query "$PQ" --column s "$T/s1" | grep -vE '^\[([0-9]+,)*1(,[0-9]+)*\]$')"
check "query: one line per key" test "$("$SBF" parquet query "$PQ" --column s "$T/s1" | wc -l)" = "$(wc -l < "$T/s1")"
check "query: absent key -> '[]'" test "$(printf 'no such key\n' | "$SBF" parquet query "$PQ" --column s)" = "[]"
check "query: int64 column by its type" test "$(printf '%s\n' 287000861 1 | "$SBF" parquet query "$PQ" --column b)" = "$(printf '[0,1,2]\n[]')"
"$SBF" parquet extract "$PQ" --column s --row-group 1 "$T/x.sbf" >/dev/null
check "extract: the filter finds rg 1's values" test -z "$("$SBF" query "$T/x.sbf" "$T/s1" | grep -v 1)"
check "extract: a parquet-layout filter" grep -q '^layout *parquet' <<<"$("$SBF" info "$T/x.sbf")"
# errors exit 1 (under SAN=1 a leak on the way out would change that)
err=$("$SBF" parquet extract "$PQ" --column s --row-group 9 "$T/y.sbf" 2>&1 >/dev/null); rc=$?
check "extract: no such row group (exit $rc: $err)" test "$rc/$(grep -c 'no row group 9' <<<"$err")" = 1/1
err=$("$SBF" parquet query "$PQ" --column zz </dev/null 2>&1); rc=$?
check "query: no such column (exit $rc: $err)" test "$rc/$(grep -c "no column 'zz'" <<<"$err")" = 1/1
err=$("$SBF" parquet extract "$PQ" --column zz --row-group 0 "$T/y.sbf" 2>&1); rc=$?
check "extract: no such column (exit $rc: $err)" test "$rc/$(grep -c "no column 'zz'" <<<"$err")" = 1/1
mkfifo "$T/fifo.parquet"
err=$(timeout 30 "$SBF" parquet list "$T/fifo.parquet" 2>&1)
check "a FIFO is refused at once, not waited on, and named (exit $?: $err)" grep -q 'a FIFO, not a regular file' <<<"$err"
err=$("$SBF" parquet list "$SRC/tests/vectors/duckdb_small.values" 2>&1)
check "a non-Parquet file is refused with a reason ($err)" grep -q 'no PAR1 magic)$' <<<"$err"
# --- create --layout parquet, convert to Parquet's form and back
"$SBF" create "$T/p.sbf" --layout parquet -n 1000000 --fpp 0.01 >/dev/null
check "parquet sizing: 2 MiB for 1e6 values at 1%" test "$("$SBF" info "$T/p.sbf" | awk '/^bytes/{print $2}')" = 2097152
seq -50 50 | "$SBF" add "$T/p.sbf" --type int64
"$SBF" convert --to parquet "$T/p.sbf" "$T/p.bloom"
check "convert --to parquet: header + bitset" test "$(wc -c < "$T/p.bloom")" = 2097170
check "the form starts with the canonical header" test "$(head -c 5 "$T/p.bloom" | od -An -tx1 | tr -d ' ')" = 1580808002
"$SBF" convert --to sbf "$T/p.bloom" "$T/q.sbf"
check "round trip finds the values" test -z "$(seq -50 50 | "$SBF" query "$T/q.sbf" --type int64 | grep -v 1)"
check "convert --to parquet of a blocked filter is refused" test "$("$SBF" convert --to parquet "$T/odd.sbf" "$T/z.bloom" >/dev/null 2>&1; echo $?)" = 1

. "$SRC/tests/parquet_hostile.sh"

echo "parquet_cli: $pass passed, $failed failed"
[ "$failed" = 0 ]
