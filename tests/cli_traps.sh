# The traps of issue 36 (a user's mistake gets a message naming the real
# cause and a non-zero exit where nothing was done), sourced by tests/cli.sh.

# ------------------------------------------ sizes: suffixes, --bits alone
expect 0 "$SBF" create s1.sbf --bits 1Mi; expect 0 "$SBF" info s1.sbf; has out "bytes            131072"
expect 0 "$SBF" create s2.sbf --bits 1048576; same s1.sbf s2.sbf
expect 0 "$SBF" create s3.sbf --bits 1M; expect 0 "$SBF" info s3.sbf; has out "bits             1000448"
expect 0 "$SBF" create s4.sbf -n 1Ki; expect 0 "$SBF" info s4.sbf; has out "bits             10240"
expect 2 "$SBF" create s5.sbf --bits 1.5Mi; has err "--bits: not a whole number"
expect 2 "$SBF" create s5.sbf --bits 1Pi; has err "--bits: not a count"
expect 2 "$SBF" create s5.sbf --bits 16777216Ti; has err "--bits: out of range"
# --bits alone: k for the keys the bits hold at --fpp, not for the default -n 1M
expect 0 "$SBF" create k1.sbf --bits 16Mi; expect 0 "$SBF" info k1.sbf; has out "k                7"
expect 0 "$SBF" create k2.sbf --bits 16Mi --fpp 0.001; expect 0 "$SBF" info k2.sbf; has out "k                11"
expect 0 "$SBF" create k3.sbf --bits 16Mi -n 1M; expect 0 "$SBF" info k3.sbf; has out "k                12"

# --bits below one block (classic: a 64-bit word): k from the size the filter
# gets, not from the bits asked (classic --bits 63 was 64 bits at k = 44)
expect 0 "$SBF" create w63.sbf --layout classic --bits 63; expect 0 "$SBF" info w63.sbf
has out "k                22"; expect 0 "$SBF" create w64.sbf --layout classic --bits 64; same w63.sbf w64.sbf
expect 0 "$SBF" create w100.sbf --layout classic --bits 100
expect 0 "$SBF" create w128.sbf --layout classic --bits 128; same w100.sbf w128.sbf
expect 0 "$SBF" create b100.sbf --bits 100; expect 0 "$SBF" info b100.sbf; has out "k                7"
expect 0 "$SBF" create b512.sbf --bits 512; same b100.sbf b512.sbf
expect 0 "$SBF" create c100.sbf --bits 100 -n 10; expect 0 "$SBF" create c512.sbf --bits 512 -n 10
same c100.sbf c512.sbf
# a size that holds no key at --fpp is refused, not given k for one key
expect 1 "$SBF" create w0.sbf --layout classic --bits 64 --fpp 1e-20
has err "w0.sbf: --bits 64 (64 bits as classic makes it) holds no key at --fpp 1e-20"
[ ! -e w0.sbf ] && ok || bad "a refused --bits wrote w0.sbf"
expect 0 "$SBF" create w1.sbf --layout classic --bits 64 --fpp 1e-20 -n 1

# ------------------- above the library's maximum: no --force advice, the max
for f in "" --force; do
  expect 1 "$SBF" create mx.sbf -n 100T $f
  has err "mx.sbf: 100000000000000 keys at --fpp 0.01 need more than the maximum filter size, 16 GiB (137438953472 bits), which holds at most 13857543636 keys at that rate: lower -n or raise --fpp"
  grep -q -- "add --force" err && bad "advice that cannot work: $(cat err)" || ok
  expect 1 "$SBF" create mx.sbf --bits 200Gi $f; has err "--bits 200Gi is above the maximum filter size, 137438953472 bits (16 GiB, --bits 128Gi)"
done
[ ! -e mx.sbf ] && ok || bad "a refused create wrote mx.sbf"
# the "at most" is exact: that many keys size (and only --force is missing)
expect 1 "$SBF" create mx.sbf -n 13857543636; has err "would take 16.0 GiB (17179869184 bytes); add --force"
expect 1 "$SBF" create mx.sbf -n 13857543637; has err "at most 13857543636 keys"
# an existing file: the maximum is said first (not "use --force to replace it")
expect 1 "$SBF" create s1.sbf -n 100T --fpp 0.001; has err "lower -n or raise --fpp"
# ------------------------------------------------- fold that cannot fold
expect 0 "$SBF" create odd.sbf -n 2000          # 39 blocks, as -n 64M makes 1239749
cp odd.sbf odd0.sbf
expect 1 "$SBF" fold odd.sbf --fpp 0.01; has err "odd.sbf: cannot fold: its block count is odd (39 blocks"
has err "power-of-two --bits"; same odd.sbf odd0.sbf
[ -s out ] && bad "a refused fold printed '$(cat out)'" || ok
expect 1 "$SBF" fold odd.sbf --times 1; has err "block count is odd"
if grep -q "cannot fold: fold:" err; then bad "'cannot fold: fold:' in: $(cat err)"; else ok; fi
expect 0 "$SBF" create full.sbf --bits 64Ki
seq 1 20000 | "$SBF" add full.sbf
cp full.sbf full0.sbf
expect 1 "$SBF" fold full.sbf --fpp 0.5; has err "folded 0 times: one fold would raise the estimated rate"
has err "above --fpp 0.5; nothing written"; same full.sbf full0.sbf
expect 0 "$SBF" create cls.sbf --layout classic --bits 1024
expect 1 "$SBF" fold cls.sbf --fpp 0.1; has err "cls.sbf: cannot fold: operation not supported"

# ------------------------------------- a save in a directory it cannot write
# (root writes anywhere: the case runs as nobody when we are root)
as_user=()
if [ "$(id -u)" = 0 ]; then
  command -v setpriv >/dev/null && id nobody >/dev/null 2>&1 &&
    as_user=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
fi
if [ "$(id -u)" != 0 ] || [ ${#as_user[@]} -gt 0 ]; then
  mkdir rodir && "$SBF" create rodir/users.sbf -n 100 >/dev/null
  [ "$(id -u)" = 0 ] && chown nobody rodir/users.sbf
  chmod 755 rodir; chmod a-w rodir; chmod 755 "$T"
  cp rodir/users.sbf users0.sbf
  printf 'k\n' > rokey
  expect 1 "${as_user[@]}" "$SBF" add rodir/users.sbf rokey
  has err "rodir/users.sbf: cannot save: its directory rodir is not writable (Permission denied)"
  has err "temporary file"; same rodir/users.sbf users0.sbf
  chmod u+w rodir
else
  echo "cli_traps: skipped the read-only directory case (root without setpriv)" >&2
fi

# ------------------------------------- a stale temporary file of a killed save
expect 0 "$SBF" create st.sbf -n 100
head -c 1000000 /dev/zero > .st.sbf.sbf-tmp-0   # what a SIGKILL'd save leaves
printf 'a\n' | "$SBF" add st.sbf
[ -e .st.sbf.sbf-tmp-0 ] && bad "the next save left the stale temporary file" || ok
# and one left by a save really killed mid-way (a big filter, killed at once)
expect 0 "$SBF" create big.sbf --bits 1Gi --layout blocked
seq 1 10 > tenkeys
"$SBF" add big.sbf tenkeys & kp=$!
seen=0
for _ in $(seq 1 500); do ls -A | grep -q '^\.big\.sbf\.sbf-tmp-' && { seen=1; break; }; sleep 0.01; done
kill -9 $kp 2>/dev/null; wait $kp 2>/dev/null
[ $seen = 1 ] || echo "cli_traps: the save ended before its temporary file was seen" >&2
printf 'b\n' | "$SBF" add big.sbf
if ls -A | grep -q '^\.big\.sbf\.sbf-tmp-'; then bad "a killed save's file survived the next save"; else ok; fi
printf 'b\n' > bkey
expect 0 "$SBF" query big.sbf bkey; [ "$(cat out)" = 1 ] && ok || bad "the save after a killed one lost its key"
rm -f big.sbf

# -------------------------------------------- keys with any byte: --hex
expect 0 "$SBF" create hx.sbf -n 1000
printf '610a62\n00ff\n\n' | "$SBF" add hx.sbf --hex
printf '610a62\r\n00FF\n\n6162\n' > hexkeys
expect 0 "$SBF" query hx.sbf hexkeys --hex; [ "$(tr '\n' ' ' < out)" = "1 1 1 0 " ] && ok || bad "--hex answers: $(cat out)"
printf 'a\nb\n' | "$SBF" query hx.sbf > out2; [ "$(tr '\n' ' ' < out2)" = "0 0 " ] && ok || bad "the key a<LF>b is not a and b: $(cat out2)"
printf '61x2\n' > badhex
expect 1 "$SBF" query hx.sbf badhex --hex; has err "badhex: line 1: not hex digits"; has err "'61x2'"
printf '616\n' > oddhex
expect 1 "$SBF" query hx.sbf oddhex --hex; has err "line 1: not hex digits (an even count"
expect 2 "$SBF" query hx.sbf --hex --u64; has err "--hex gives a key's bytes"
expect 2 "$SBF" add hx.sbf --hex --type int64; has err "--hex gives a key's bytes"

# ------------------------------------------------- a Guava file is not ours to map
expect 0 "$SBF" create gv.sbf --layout classic -n 100
expect 0 "$SBF" convert --to guava gv.sbf gv.bin
printf 'a\n' | "$SBF" query gv.bin > out; [ "$(cat out)" = 0 ] && ok || bad "query of a Guava file"
