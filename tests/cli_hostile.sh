# Hostile inputs at the edges, sourced by tests/cli.sh: what is not a
# regular file where a filter is named, key input without newlines, numbers
# that mean nothing. Each gets a message naming the cause, never a hang,
# a crash or a misleading errno.

# ------------------------------- a FIFO or a device where a filter is named
# The library refuses them with EINVAL; "Invalid argument" named no cause.
expect 0 "$SBF" create hf.sbf -n 100
expect 0 "$SBF" create hc.sbf -n 100 --layout classic
printf 'a\nb\n' > hkeys
rm -f hfifo; mkfifo hfifo
expect 1 timeout 20 "$SBF" query hfifo hkeys
has err "hfifo: a FIFO, not a regular file: filters are read from and saved to regular files only"
expect 1 timeout 20 "$SBF" add hfifo hkeys; has err "hfifo: a FIFO, not a regular file"
expect 1 timeout 20 "$SBF" info /dev/null; has err "/dev/null: a character device, not a regular file"
expect 1 timeout 20 "$SBF" verify hfifo; has err "hfifo: a FIFO, not a regular file"
# as the output: the save refuses to replace it
expect 1 timeout 20 "$SBF" union hfifo hf.sbf hf.sbf; has err "hfifo: a FIFO, not a regular file"
if [ -w /dev/full ]; then
  expect 1 timeout 20 "$SBF" convert --to guava hc.sbf /dev/full
  has err "/dev/full: a character device, not a regular file"
fi
# errno's own words stay for the other failures
expect 1 "$SBF" query no-such.sbf hkeys; has err "no-such.sbf: No such file or directory"
mkdir -p hdir
expect 1 "$SBF" query hdir hkeys; has err "hdir: Is a directory"

# ------------------------------------------- key input that has no newline
# A line longer than KEY_LINE_MAX (1 GiB; SBF_KEY_LINE_MAX lowers it for
# the test) is refused with its number: /dev/zero as a key file used to
# grow one line until the kernel killed sbf. Nothing is saved.
cp hf.sbf hf0.sbf
SBF_KEY_LINE_MAX=100 expect 1 timeout 20 "$SBF" add hf.sbf /dev/zero
has err "/dev/zero: line 1 is longer than 100 bytes, the most a key's line may hold"
same hf.sbf hf0.sbf
{ printf 'a\n'; head -c 101 /dev/zero | tr '\0' x; printf '\n'; } > hlong
SBF_KEY_LINE_MAX=100 expect 1 "$SBF" query hf.sbf hlong; has err "hlong: line 2 is longer than 100 bytes"
head -c 101 /dev/zero | tr '\0' x > hlast          # the last line, no newline
SBF_KEY_LINE_MAX=100 expect 1 "$SBF" query hf.sbf hlast; has err "hlast: line 1 is longer than 100"
# a line of exactly the limit is a key, from a file or a pipe read in pieces
{ head -c 100 /dev/zero | tr '\0' y; printf '\n'; } > hedge
SBF_KEY_LINE_MAX=100 expect 0 "$SBF" add hf.sbf hedge
SBF_KEY_LINE_MAX=100 expect 0 "$SBF" query hf.sbf hedge; [ "$(cat out)" = 1 ] && ok || bad "edge line: $(cat out)"
# a key of many reads (8 MiB, over a pipe's 64 KiB pieces) is one key, and
# is found again: the reader resumes its search where the last read ended
head -c 8388608 /dev/zero | tr '\0' z > hbig
cat hbig | "$SBF" add hf.sbf 2> err && ok || bad "8 MiB key: $(cat err)"
{ cat hbig; printf '\nz\n'; } | "$SBF" query hf.sbf > out 2> err
[ "$(tr '\n' ' ' < out)" = "1 0 " ] && ok || bad "8 MiB key then z: $(cat out) $(cat err)"

# ------------------------------------- a growing filter where a fixed one goes
# sbf dedup's growing filters (format 3/4): verify said "unknown format
# version" and refused them; add, remove, fold and convert said the same.
seq 1 3000 | "$SBF" dedup --filter hg.sbf --quiet > /dev/null
expect 0 "$SBF" verify hg.sbf; has out "hg.sbf: ok (sbf-v4, a growing filter of 1 sub-filter"
has out "checksums verified"
cp hg.sbf hgc.sbf   # one data byte flipped (the first sub-filter's data is past 8 KiB)
printf '\377' | dd of=hgc.sbf bs=1 seek=9000 conv=notrunc 2>/dev/null
cmp -s hg.sbf hgc.sbf && bad "the flip changed nothing" || ok
expect 1 "$SBF" verify hgc.sbf; has err "hgc.sbf: serialized filter is corrupt"
head -c 5000 hg.sbf > hgt.sbf
expect 1 "$SBF" verify hgt.sbf; has err "hgt.sbf: serialized filter is truncated"
cp hg.sbf hg0.sbf
for c in "add hg.sbf hkeys" "remove hg.sbf hkeys" "fold hg.sbf --times 1" "convert --to sbf hg.sbf hgx.sbf"; do
  expect 1 "$SBF" $c
  has err "hg.sbf: a growing filter (sbf-v4, made by sbf dedup): this command takes a fixed one"
done
same hg.sbf hg0.sbf; [ ! -e hgx.sbf ] && ok || bad "convert of a growing filter wrote hgx.sbf"

# --------------------------------------- a closed standard input or output
# With standard input closed, the next open() took descriptor 0: 'sbf add F'
# then read its keys from F's own lock descriptor (the filter's bytes) and
# saved them, exit 0. A closed descriptor must fail as closed.
expect 0 "$SBF" create hs.sbf -n 1000
cp hs.sbf hs0.sbf
"$SBF" add hs.sbf <&- > out 2> err; rc=$?
[ $rc = 1 ] && ok || bad "add with standard input closed: exit $rc ($(cat err))"
has err "standard input: Bad file descriptor"; same hs.sbf hs0.sbf
"$SBF" dedup --filter hs.sbf <&- > out 2> err; rc=$?
[ $rc = 1 ] && ok || bad "dedup with standard input closed: exit $rc ($(cat err))"
same hs.sbf hs0.sbf
"$SBF" query hs.sbf hkeys >&- 2> err; rc=$?
[ $rc = 1 ] && ok || bad "query with standard output closed: exit $rc"
has err "standard output: Bad file descriptor"

# ------------------------------------- fold in place beside an sbf add
# A holds F's lock and waits for keys on a FIFO; B folds F in place.
# Unlocked, B folded and saved F at once, then A saved the unfolded F with
# its keys: the fold was lost (or, the other way round, the keys). Locked,
# B waits and folds A's result: F ends folded and holding A's keys.
expect 0 "$SBF" create hl.sbf --bits 64Ki
seq 1 500 | sed 's/^/k/' > hlk
rm -f hla; mkfifo hla
"$SBF" add hl.sbf hla 2> erra & pa=$!
exec 3> hla          # returns once A has locked and loaded hl.sbf
"$SBF" fold hl.sbf --times 1 > outb 2> errb 3>&- & pb=$!
sleep 0.3            # unlocked, B would fold and save now
cat hlk >&3; exec 3>&-
wait $pa && ok || bad "add A failed: $(cat erra)"
wait $pb && ok || bad "fold B failed: $(cat errb)"
expect 0 "$SBF" info hl.sbf; has out "bits             32768"
expect 0 "$SBF" query hl.sbf hlk --count
[ "$(cat out)" = 500 ] && ok || bad "fold beside add kept $(cat out) of 500 keys"
rm -f hla

# ------------------------------------------------- an empty file name
# create '' said "cannot write  in simdbloom's form: the filter is blocked
# (seed 0), and invalid argument", blaming the filter
expect 2 "$SBF" create '' -n 10; has err "create: an empty argument: a file name cannot be empty"
expect 2 "$SBF" info ''; has err "info: an empty argument"
expect 2 "$SBF" union '' hf.sbf hf.sbf; has err "union: an empty argument"

# --------------------------------------------- SBF_PROBE with a bad value
# The library refuses it with SBF_E_ISA_UNKNOWN, which sbf blamed on
# SBF_ISA: "SBF_ISA='': unknown instruction set name", SBF_ISA unset.
SBF_PROBE=sideways expect 1 "$SBF" info hf.sbf
has err "SBF_PROBE='sideways': not a form of the batch queries (narrow, wide or auto)"
if grep -q "SBF_ISA=" err; then bad "SBF_PROBE's fault blamed on SBF_ISA: $(cat err)"; else ok; fi
SBF_ISA=bogus expect 1 "$SBF" info hf.sbf; has err "SBF_ISA='bogus': unknown instruction set"
SBF_PROBE=wide expect 0 "$SBF" info hf.sbf

# ----------------------------- a growing filter truncated under sbf query
# A fixed filter's mapping was guarded ("cut short while mapped", exit 1);
# a growing one's sub-filters were not: SIGBUS, exit 135.
seq 1 200000 | "$SBF" dedup --filter hgq.sbf --quiet > /dev/null
rm -f hgk; mkfifo hgk
"$SBF" query hgq.sbf hgk --count > outq 2> errq & pq=$!
exec 3> hgk          # returns once the query has mapped hgq.sbf and opened hgk
truncate -s 8192 hgq.sbf
seq 1 100000 >&3; exec 3>&-
wait $pq; rc=$?
[ $rc = 1 ] && ok || bad "query of a truncated growing filter: exit $rc, wanted 1"
has errq "hgq.sbf: the file was cut short while mapped"
rm -f hgk

# ------------------------------------------------------ fold --times 0
# was "cannot fold: invalid argument" after the file was read
expect 0 "$SBF" create hp.sbf --bits 64Ki
expect 2 "$SBF" fold hp.sbf --times 0; has err "--times: must be at least 1"
rm -f hfifo
