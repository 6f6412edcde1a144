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

rm -f hfifo
