#!/usr/bin/env bash
# Tests of the sbf command, run by `make test` against the real binary:
#   bash tests/cli.sh build/sbf
# Every case checks output and exit status; bad input included. Files that
# Guava 31.1 wrote (tests/vectors/guava_*.bin) are rebuilt from their keys
# byte for byte, converted, and queried against Guava's own answers.
set -uo pipefail
SBF=$(realpath "${1:-build/sbf}")
HERE=$(realpath "$(dirname "$0")")
VEC=$HERE/vectors
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$T"
pass=0
failed=0
ok() { pass=$((pass + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $*" >&2; }
# expect STATUS CMD...: runs CMD, stdout in out, stderr in err
expect() {
  local want=$1; shift
  "$@" >out 2>err
  local got=$?
  if [ "$got" -eq "$want" ]; then ok; else bad "exit $got, wanted $want: $* ($(head -c 300 err))"; fi
}
# has FILE TEXT: FILE contains TEXT
has() { if grep -qF -- "$2" "$1"; then ok; else bad "$1 lacks '$2': $(head -c 300 "$1")"; fi; }
same() { if cmp -s "$1" "$2"; then ok; else bad "$1 and $2 differ"; fi; }
no_temps() { if ls -A | grep -c '\.tmp-' >/dev/null; then bad "temporary files left: $(ls -A)"; else ok; fi; }

# ---------------------------------------------------------------- help
expect 0 "$SBF" --help; has out "convert --to FORM IN OUT"
expect 0 "$SBF" convert --help; has out "convert --to sbf|guava|parquet IN OUT"
for c in create add remove query info convert union verify; do
  expect 0 "$SBF" "$c" --help; has out "usage: sbf $c"
done
expect 2 "$SBF"
expect 2 "$SBF" frobnicate; has err "unknown command 'frobnicate'"
expect 2 "$SBF" create
expect 2 "$SBF" create a.sbf --bogus
expect 2 "$SBF" create a.sbf --layout nonsense; has err "unknown layout"
expect 2 "$SBF" create a.sbf -n -5
expect 2 "$SBF" create a.sbf --k
expect 2 "$SBF" query a b c
expect 2 "$SBF" convert in out; has err "--to"
expect 2 "$SBF" convert --to xml in out; has err "one of sbf, guava"
[ ! -e a.sbf ] && ok || bad "a usage error created a file"

# ------------------------------------------- strings: create, add, query
printf 'alpha\nbeta\n\n  spaced key  \ncrlf\r\nlast-no-newline' > keys.txt
expect 0 "$SBF" create s.sbf -n 1000 --fpp 0.001
expect 1 "$SBF" create s.sbf; has err "s.sbf: exists"
expect 0 "$SBF" create s.sbf --force -n 1000 --fpp 0.001
expect 0 "$SBF" add s.sbf keys.txt
expect 0 "$SBF" query s.sbf keys.txt
[ "$(tr -d '\n' < out)" = 111111 ] && ok || bad "query of the added keys: $(cat out)"
# the line's bytes: no trimming, one trailing \r dropped, the empty line is a key
printf 'alpha\nspaced key\ncrlf\nlast-no-newline\nnever-added\n' > probe.txt
expect 0 "$SBF" query s.sbf probe.txt
[ "$(tr -d '\n' < out)" = 10110 ] && ok || bad "query order/bytes: $(tr -d '\n' < out)"
expect 0 "$SBF" query s.sbf --count < keys.txt
[ "$(cat out)" = 6 ] && ok || bad "--count: $(cat out)"
seq 1 20000 | sed 's/^/absent-/' > absent.txt
expect 0 "$SBF" query s.sbf - --count < absent.txt
[ "$(cat out)" -lt 100 ] && ok || bad "20000 absent keys: $(cat out) answered 1"
expect 0 "$SBF" info s.sbf
has out "layout           blocked"; has out "keys added       6"; has out "format           sbf-v2"
expect 0 "$SBF" info s.sbf --json
/usr/bin/python3 -c 'import json,sys; d=json.load(open("out")); sys.exit(0 if d["keys_added"]==6 and d["layout"]=="blocked" and d["format"]=="sbf-v2" and 0<d["fill"]<1 and "isa" in d else 1)' \
  && ok || bad "info --json: $(cat out)"

# ---------------------------------------------------------------- --u64
seq 0 99999 > u.txt
expect 0 "$SBF" create u.sbf --layout split-block -n 100000 --fpp 0.01
expect 0 "$SBF" add u.sbf u.txt --u64
expect 0 "$SBF" query u.sbf u.txt --u64 --count
[ "$(cat out)" = 100000 ] && ok || bad "u64: $(cat out) of 100000"
# keys_added counts the keys that changed the filter (false positives not)
expect 0 "$SBF" info u.sbf --json
/usr/bin/python3 -c 'import json,sys; k=json.load(open("out"))["keys_added"]; sys.exit(0 if 99000 <= k <= 100000 else 1)' \
  && ok || bad "keys_added of u64 keys: $(cat out)"
cp u.sbf u.before
printf '1\n2\n18446744073709551616\n' > over.txt
expect 1 "$SBF" add u.sbf over.txt --u64; has err "over.txt: line 3: not a decimal 64-bit integer"
same u.sbf u.before
for badkey in '-1' '12a' ' 7' '' '0x10'; do
  printf '5\n%s\n' "$badkey" > b.txt
  expect 1 "$SBF" add u.sbf b.txt --u64; has err "line 2"
done
same u.sbf u.before
printf '18446744073709551615\n0\n' | "$SBF" add u.sbf --u64 && ok || bad "UINT64_MAX refused"
# the parser against Python on every length 1..20, leading zeros, limits
/usr/bin/python3 - > nums.txt <<'PY'
import random
random.seed(7)
v = [0, 1, 9, 10, 99999999, 100000000, 2**64 - 1, 2**63, 10**19 - 1, 10**19, 1844674407370955161]
v += [random.randrange(min(10 ** random.randrange(1, 21), 2**64)) for _ in range(20000)]
lines = [str(x) for x in v] + ["0" * 19 + "7", "00000000000000000001", "0" * 8, "12345678"]
print("\n".join(lines))
PY
want=$(/usr/bin/python3 -c 'import sys; print(sum(int(l) for l in open("nums.txt")) % 2**64)')
expect 0 "$SBF" add u.sbf nums.txt --u64 --parse-only; has err "(checksum $want)"
for badkey in '1844674407370955161a' '18446744073709551616' '99999999999999999999' '1234567/' '12345678:' '123456789012345678901'; do
  printf '%s\n' "$badkey" > b.txt
  expect 1 "$SBF" add u.sbf b.txt --u64 --parse-only; has err "line 1"
done
no_temps

# ---------------------------------------------- Guava files, byte for byte
# utf8_100: Guava create(stringFunnel(UTF_8), 100, 0.03), keys "0".."99": 12 words, k 5
expect 0 "$SBF" create g.sbf --layout classic --bits 768 --k 5
seq 0 99 | "$SBF" add g.sbf && ok || bad "add utf8 keys"
expect 0 "$SBF" convert --to guava g.sbf g.bin
same g.bin "$VEC/guava_utf8_100.bin"
# long1k: longFunnel, 1000 at 0.01, keys 0..999: 150 words, k 7
expect 0 "$SBF" create l.sbf --layout classic --bits 9600 --k 7
seq 0 999 | "$SBF" add l.sbf --u64 && ok || bad "add long keys"
expect 0 "$SBF" convert --to guava l.sbf l.bin
same l.bin "$VEC/guava_long1k.bin"
# a Guava-written filter converted, then queried: Guava's own answers
expect 0 "$SBF" convert --to sbf "$VEC/guava_utf8_100.bin" gu.sbf
expect 0 "$SBF" info gu.sbf; has out "layout           classic"; has out "format           sbf-v2"
seq 0 9999 | "$SBF" query gu.sbf > q.txt && ok || bad "query utf8"
[ "$(tr -d '\n' < q.txt)" = "$(grep -v '^#' "$VEC/guava_utf8_100_probes.txt" | tr -d '\n')" ] \
  && ok || bad "utf8_100 answers differ from Guava's"
seq 0 19999 | "$SBF" query "$VEC/guava_long1k.bin" --u64 > q.txt && ok || bad "query a Guava file directly"
[ "$(tr -d '\n' < q.txt)" = "$(grep -v '^#' "$VEC/guava_long1k_probes.txt" | tr -d '\n')" ] \
  && ok || bad "long1k answers differ from Guava's"
expect 0 "$SBF" info "$VEC/guava_long1k.bin" --json; has out '"format": "guava"'
expect 0 "$SBF" convert --to guava gu.sbf gu.bin
same gu.bin "$VEC/guava_utf8_100.bin"
# add to a Guava file directly is refused (it would change its format)
cp "$VEC/guava_long1k.bin" gl.bin
expect 1 "$SBF" add gl.bin u.txt --u64; has err "gl.bin: a Guava filter"
same gl.bin "$VEC/guava_long1k.bin"
# only seed-0 classic filters have a Guava form; nothing written
expect 1 "$SBF" convert --to guava s.sbf nope.bin; has err "s.sbf: a blocked filter (seed 0) has no Guava form"; has err "nope.bin not written"
[ ! -e nope.bin ] && ok || bad "convert wrote a file on failure"
# version-1 files convert to version 2
expect 0 "$SBF" convert --to sbf "$VEC/sbf_v1_counting.bin" c1.sbf
expect 0 "$SBF" info c1.sbf; has out "format           sbf-v2"; has out "layout           counting"

# ------------------------------------------------------- remove, union
expect 0 "$SBF" create c.sbf --layout counting -n 10000 --fpp 0.01
seq 1 5000 > c1.txt
seq 5001 10000 > c2.txt
expect 0 "$SBF" add c.sbf c1.txt
expect 0 "$SBF" add c.sbf c2.txt
expect 0 "$SBF" remove c.sbf c1.txt
expect 0 "$SBF" query c.sbf c2.txt --count; [ "$(cat out)" = 5000 ] && ok || bad "remove lost keys"
expect 0 "$SBF" query c.sbf c1.txt --count; [ "$(cat out)" -lt 200 ] && ok || bad "removed keys still answer: $(cat out)"
expect 0 "$SBF" remove c.sbf c1.txt; has err "were not in the filter"
expect 1 "$SBF" remove s.sbf keys.txt; has err "s.sbf: remove needs a counting filter"

expect 0 "$SBF" create a.sbf --layout classic -n 10000 --fpp 0.01 --seed 9
expect 0 "$SBF" create b.sbf --layout classic -n 10000 --fpp 0.01 --seed 9
expect 0 "$SBF" add a.sbf c1.txt
expect 0 "$SBF" add b.sbf c2.txt
expect 0 "$SBF" union ab.sbf a.sbf b.sbf
cat c1.txt c2.txt > all.txt
expect 0 "$SBF" query ab.sbf all.txt --count; [ "$(cat out)" = 10000 ] && ok || bad "union: $(cat out)"
expect 0 "$SBF" info ab.sbf; has out "keys added       unknown"
expect 1 "$SBF" union x.sbf a.sbf s.sbf; has err "differ in layout"
[ ! -e x.sbf ] && ok || bad "failed union wrote its output"

# ------------------------------------------------------------ bad files
expect 1 "$SBF" query missing.sbf keys.txt; has err "missing.sbf: No such file"
expect 1 "$SBF" add s.sbf missing.txt; has err "missing.txt: No such file"
expect 1 "$SBF" info .; has err ".: Is a directory"
cp s.sbf corrupt.sbf
printf '\x01' | dd of=corrupt.sbf bs=1 seek=4200 conv=notrunc status=none
# query and info check the header only; --verify and sbf verify check the data
expect 0 "$SBF" query corrupt.sbf keys.txt
expect 1 "$SBF" query corrupt.sbf keys.txt --verify; has err "corrupt.sbf: serialized filter is corrupt"
expect 1 "$SBF" info corrupt.sbf --verify; has err "corrupt.sbf: serialized filter is corrupt"
expect 1 "$SBF" verify corrupt.sbf; has err "corrupt.sbf: serialized filter is corrupt"
expect 0 "$SBF" verify s.sbf; has out "s.sbf: ok (sbf-v2"
expect 1 "$SBF" add corrupt.sbf keys.txt; has err "corrupt.sbf"
head -c 5000 s.sbf > short.sbf
expect 1 "$SBF" info short.sbf; has err "short.sbf: serialized filter is truncated"
printf 'hello world' > text.sbf
expect 1 "$SBF" info text.sbf; has err "text.sbf: not a simdbloom filter"
: > empty.sbf
expect 1 "$SBF" query empty.sbf keys.txt; has err "empty.sbf"
expect 1 "$SBF" create big.sbf --bits 999999999999999 --force; has err "big.sbf: --bits 999999999999999 is above the maximum filter size"
expect 2 "$SBF" create p.sbf --fpp 2; has err "false-positive rate"
mkdir ro && chmod 555 ro
if [ "$(id -u)" != 0 ]; then
  expect 1 "$SBF" create ro/f.sbf; has err "ro/f.sbf"
fi
no_temps

for part in keys opts faults traps hostile dedup; do
  . "$HERE/cli_$part.sh"
done
no_temps

echo "cli: $pass passed, $failed failed"
[ "$failed" -eq 0 ]
