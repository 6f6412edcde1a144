# Key input, sourced by tests/cli.sh (helpers and $SBF from there; runs in
# its scratch directory): CRLF lines, --binary, escaped keys in messages,
# and --type, whose bytes are checked against the same values' Parquet
# PLAIN encodings written as raw lines.

# ------------------------------------------------------------ CRLF keys
printf 'apple\r\nbanana\r\n' > crlf.txt
expect 0 "$SBF" create t.sbf -n 1000 --fpp 1e-9
expect 0 "$SBF" add t.sbf crlf.txt
printf 'apple\nbanana\n' | "$SBF" query t.sbf > out
[ "$(tr -d '\n' < out)" = 11 ] && ok || bad "CRLF keys added, LF keys not found: $(cat out)"
expect 0 "$SBF" create tb.sbf -n 1000 --fpp 1e-9
expect 0 "$SBF" add tb.sbf crlf.txt --binary
printf 'apple\nbanana\n' | "$SBF" query tb.sbf > out
[ "$(tr -d '\n' < out)" = 00 ] && ok || bad "--binary kept no \\r: $(cat out)"
expect 0 "$SBF" query tb.sbf crlf.txt --binary; [ "$(tr -d '\n' < out)" = 11 ] && ok || bad "--binary query"
# one \r, at the end only: 'a\r\r' is 'a\r', 'b\rc' stays
printf 'a\r\r\nb\rc\n' > cr2.txt
printf 'a\r\nb\rc\n' > cr2b.txt
expect 0 "$SBF" create cr2.sbf -n 100; expect 0 "$SBF" add cr2.sbf cr2.txt
expect 0 "$SBF" create cr2b.sbf -n 100; expect 0 "$SBF" add cr2b.sbf cr2b.txt --binary
same cr2.sbf cr2b.sbf
# --u64 lines with CRLF parse; with --binary the \r is shown escaped
expect 0 "$SBF" create ucr.sbf -n 100
printf '1\r\n2\r\n' > ucr.txt
expect 0 "$SBF" add ucr.sbf ucr.txt --u64
printf '1\n2\n' | "$SBF" query ucr.sbf --u64 --count > out; [ "$(cat out)" = 2 ] && ok || bad "u64 CRLF"
expect 1 "$SBF" add ucr.sbf ucr.txt --u64 --binary
has err "line 1: not a decimal 64-bit integer: '1\\r'"
if grep -q $'\r' err; then bad "a raw \\r in the message"; else ok; fi
printf '12\x01\xff\x1b[2J\n' > esc.txt
expect 1 "$SBF" add ucr.sbf esc.txt --u64; has err "'12\\x01\\xff\\x1b[2J'"
printf '%s\n' "$(printf 'x%.0s' $(seq 100))" > long.txt
expect 1 "$SBF" add ucr.sbf long.txt --u64; has err "'$(printf 'x%.0s' $(seq 40))...'"

# ---------------------------------------------------------------- --type
# For each type: values as text, and the same values' little-endian PLAIN
# bytes as raw lines (values whose bytes hold a newline left out). The text
# added with --type must give the same file, byte for byte, as the raw bytes
# added with --binary; queries of other values must answer alike.
/usr/bin/python3 - <<'PY'
import struct
vals = {
  "int32": (["0", "1", "-1", "2147483647", "-2147483648", "42", "-0", "+7", "000123", "-65536"],
            lambda s: struct.pack("<i", int(s))),
  "int64": (["0", "-1", "9223372036854775807", "-9223372036854775808", "1234567890123", "-42", "+5"],
            lambda s: struct.pack("<q", int(s))),
  "float": (["0", "-0", "1.5", "-2.25", "0.1", "3.4028235e38", "1e-45", "inf", "-inf", "nan",
             "1e-3", "16777217", "-7.5e-10"], lambda s: struct.pack("<f", float(s))),
  "double": (["0", "-0", "0.1", "-1e308", "5e-324", "inf", "nan", "2.5", "1e-3", "0x1p-3",
              "-123456.789e3"], lambda s: struct.pack("<d", float.fromhex(s) if "x" in s else float(s))),
}
probe = {"int32": ["2", "-2", "7", "100000"], "int64": ["1", "-2", "77"],
         "float": ["2", "-1.5", "0.2"], "double": ["1", "-0.1", "3"]}
for t, (v, enc) in vals.items():
    for name, lst in (("", v), ("_probe", probe[t])):
        keep = [s for s in lst if b"\n" not in enc(s)]
        open(f"ty_{t}{name}.txt", "w").write("".join(s + "\n" for s in keep))
        open(f"ty_{t}{name}.bin", "wb").write(b"".join(enc(s) + b"\n" for s in keep))
PY
for t in int32 int64 float double; do
  expect 0 "$SBF" create "ty_$t.sbf" -n 1000 --fpp 0.001
  cp "ty_$t.sbf" "ty_${t}_bin.sbf"
  expect 0 "$SBF" add "ty_$t.sbf" "ty_$t.txt" --type "$t"
  expect 0 "$SBF" add "ty_${t}_bin.sbf" "ty_$t.bin" --binary
  same "ty_$t.sbf" "ty_${t}_bin.sbf"
  expect 0 "$SBF" query "ty_$t.sbf" "ty_$t.txt" --type "$t"
  [ "$(tr -d '\n' < out)" = "$(sed 's/.*/1/' "ty_$t.txt" | tr -d '\n')" ] && ok || bad "$t: added values not found"
  "$SBF" query "ty_$t.sbf" "ty_${t}_probe.txt" --type "$t" > q1 && ok || bad "$t probe query"
  "$SBF" query "ty_$t.sbf" "ty_${t}_probe.bin" --binary > q2 && ok || bad "$t probe query (bytes)"
  same q1 q2
done
# remove, typed: a counting filter back to empty
expect 0 "$SBF" create ty_c.sbf --layout counting -n 1000 --fpp 0.001
cp ty_c.sbf ty_c0.sbf
expect 0 "$SBF" add ty_c.sbf ty_float.txt --type float
expect 0 "$SBF" remove ty_c.sbf ty_float.txt --type float; has err "removed $(wc -l < ty_float.txt) of"
same ty_c.sbf ty_c0.sbf
# int64 is --u64's bytes: -1 is 2^64-1
expect 0 "$SBF" create i64.sbf -n 100; cp i64.sbf u64.sbf
printf '5\n-1\n' | "$SBF" add i64.sbf --type int64 && ok || bad "int64 add"
printf '5\n18446744073709551615\n' | "$SBF" add u64.sbf --u64 && ok || bad "u64 add"
same i64.sbf u64.sbf
# -0 and 0 are different values for float and double, the same for ints
for t in float double; do
  printf '%s\n' -0 0 > z.txt
  expect 0 "$SBF" create z.sbf --force -n 100 --fpp 1e-9
  echo -0 | "$SBF" add z.sbf --type "$t" && ok || bad "add -0"
  expect 0 "$SBF" query z.sbf z.txt --type "$t"
  [ "$(tr -d '\n' < out)" = 10 ] && ok || bad "$t: -0 and 0: $(tr -d '\n' < out)"
done
# bad values: the line named and shown escaped, the file untouched
cp ty_int32.sbf ty_before.sbf
for c in 'int32 2147483648' 'int32 -2147483649' 'int32 1.0' 'int32  1' 'int32 1 ' 'int32 0x10' \
         'int32 -' 'int64 9223372036854775808' 'int64 -9223372036854775809' 'float 1e39' \
         'float abc' 'float 1.5x' 'float  1' 'double 1e309' 'double -1e309' 'double 1,5'; do
  t=${c%% *}; v=${c#* }
  printf '3\n%s\n' "$v" > bv.txt
  expect 1 "$SBF" add ty_int32.sbf bv.txt --type "$t"; has err "bv.txt: line 2: not a"
done
same ty_int32.sbf ty_before.sbf
expect 2 "$SBF" add ty_int32.sbf ty_int32.txt --type int8; has err "unknown type 'int8'"
expect 2 "$SBF" add ty_int32.sbf ty_int32.txt --type int64 --u64; has err "exclusive"
expect 0 "$SBF" add ty_int32.sbf ty_int32.txt --type string
