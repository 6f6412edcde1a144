# Options, defaults and messages, sourced by tests/cli.sh: numbers in
# options, -n forms, SBF_ISA, write errors on standard output, JSON for any
# file name, the size check of sbf create.

# ------------------------------------------------------- -n and numbers
expect 0 "$SBF" create n1.sbf -n 1000000
for form in '-n 1e6' '-n=1M' '-n 1000k' '-n1000000' '-n 0.001G' '-n 1.0e6' '-n 1000000.000'; do
  rm -f n2.sbf
  expect 0 "$SBF" create n2.sbf $form; same n1.sbf n2.sbf
done
expect 0 "$SBF" create n3.sbf -n 2500 --fpp 0.05
expect 0 "$SBF" create n4.sbf -n2.5K --fpp 0.05; same n3.sbf n4.sbf
for c in '1.5:not a whole number' '1e30:out of range' '18446744073709551616:out of range' \
         '0x10:not a count' '-5:not a count' '1e:not a count' '10MB:not a count' ' 5:not a count' \
         'M:not a count' '1e6k5:not a count'; do
  expect 2 "$SBF" create nb.sbf -n "${c%%:*}"; has err "-n: ${c#*:}"
done
expect 0 "$SBF" create sd.sbf --seed 010 -n 100
expect 0 "$SBF" info sd.sbf; has out "seed             10"
for c in '--seed 0x10' '--seed 1e3' '--seed +5' '--seed 4294967296' '--k 0x3' '--k -1'; do
  expect 2 "$SBF" create nb.sbf $c; has err "${c%% *}: "
done
expect 2 "$SBF" create nb.sbf --bits ' -18446744073709551615'; has err "--bits: not a count (5000, 1e6, 10M, 64Mi): ' -18446744073709551615'"
expect 2 "$SBF" create nb.sbf --bits 18446744073709551616; has err "--bits: out of range"
expect 2 "$SBF" create nb.sbf --fpp ' 0.01'; has err "--fpp: not a decimal number"
expect 2 "$SBF" create nb.sbf --fpp 0x1p-7; has err "--fpp: not a decimal number"
expect 2 "$SBF" create nb.sbf --fpp nan; has err "--fpp: not a decimal number"
expect 0 "$SBF" create nb.sbf --fpp 1e-3
# one rule for a rate in every command (create's and fold's --fpp): decimal
# only, above 0 and below 1, checked before any file is read or written
expect 0 "$SBF" create fr.sbf --bits 64Ki; cp fr.sbf fr0.sbf
for r in 0x1p-7 0X.8p-3 ' 0.01' inf nan -0.5 0 1 1.5; do
  expect 2 "$SBF" fold fr.sbf --fpp "$r"; has err "--fpp: "; same fr.sbf fr0.sbf
  expect 2 "$SBF" create fr2.sbf --fpp "$r"; has err "--fpp: "
done
[ ! -e fr2.sbf ] && ok || bad "a refused --fpp created a file"
expect 0 "$SBF" fold fr.sbf --fpp 1e-3; has out "folded"
expect 2 "$SBF" create nc.sbf $'--bo\x01gus'; has err "unknown option '--bo\\x01gus'"
[ ! -e nc.sbf ] && ok || bad "a usage error created a file"

# --------------------------------------------------------------- SBF_ISA
SBF_ISA=bogus "$SBF" create isa.sbf > out 2> err; [ $? = 1 ] && ok || bad "SBF_ISA=bogus: exit $?"
has err "SBF_ISA='bogus': unknown instruction set"
has err "scalar"
[ ! -e isa.sbf ] && ok || bad "SBF_ISA=bogus created a file"
SBF_ISA=bogus "$SBF" query s.sbf keys.txt > out 2> err; [ $? = 1 ] && ok || bad "SBF_ISA=bogus query"
has err "SBF_ISA="
SBF_ISA=scalar "$SBF" query s.sbf keys.txt --count > out 2> err && ok || bad "SBF_ISA=scalar"

# ------------------------------------------ write errors on standard output
if [ -w /dev/full ]; then
  for c in "--help" "create --help" "info s.sbf" "info s.sbf --json" "query s.sbf keys.txt" \
           "query s.sbf keys.txt --count" "verify s.sbf" "--version"; do
    "$SBF" $c > /dev/full 2> err; rc=$?
    [ $rc = 1 ] && ok || bad "sbf $c > /dev/full: exit $rc"
    has err "standard output: No space left on device"
  done
fi

# ------------------------------------------- info --json for any file name
for name in $'\xff\xfe-latin1-\xe9.sbf' $'q"uo\\te\nnl\t.sbf' $'ok-\xc3\xa9-\xe2\x82\xac.sbf' \
            $'\xed\xa0\x80-surrogate.sbf' $'\xc0\xaf-overlong.sbf' $'\xf4\x90\x80\x80-big.sbf'; do
  cp s.sbf "$name"
  expect 0 "$SBF" info "$name" --json
  NAME="$name" /usr/bin/python3 -c '
import json, os, sys
raw = open("out", "rb").read()
d = json.loads(raw.decode("utf-8"))          # strict UTF-8, strict JSON
want = os.environb[b"NAME"]
exact = bytes.fromhex(d["file_hex"]) if "file_hex" in d else d["file"].encode("utf-8")
sys.exit(0 if exact == want and d["keys_added"] == 6 else 1)' && ok || bad "info --json of $(printf %q "$name"): $(cat out)"
  rm -f "$name"
done

# ----------------------------------------- create: a size check above 1 GiB
expect 1 "$SBF" create huge.sbf -n 1e10; has err "huge.sbf: the filter would take 11.5 GiB"
has err "--force"
expect 1 "$SBF" create huge.sbf --bits 8589936640; has err "would take 1.0 GiB (1073742080 bytes)"
[ ! -e huge.sbf ] && ok || bad "create wrote a filter above 1 GiB without --force"
