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

echo "parquet_cli: $pass passed, $failed failed"
[ "$failed" = 0 ]
