#!/usr/bin/env bash
# make check-readme: every ```c block of every Markdown file git tracks
# (README.md, doc/, the tools' READMEs; results/ holds reports, not docs)
# compiles as written, -Wall -Wextra -Werror, against the library just built.
# A block that has an
# #include is a whole file, compiled as it stands; with a main() it is also
# linked and run (it must exit 0). Any other block is a fragment of a
# function body: it is compiled inside one, in a block of its own, where f, g
# and m are filters (sbf_filter *) it may use; it is compiled, not run.
#   BUILD (default build), CC (default cc), LIBS (the library's -l flags)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
CC=${CC:-cc}
LIBS=${LIBS:--lm}
out="$BUILD/readme"
rm -rf "$out"
mkdir -p "$out"

# Each block into $out/snippet_<n>_<line>.c (<line>: its first line in the
# file, <n>: the file's place in $out/files).
mds=$(git ls-files --cached --others --exclude-standard '*.md' 2>/dev/null | grep -v '^results/' || true)
[ -n "$mds" ] || mds=$(find . -name '*.md' -not -path './build/*' -not -path './results/*' | sed 's#^\./##' | sort)
i=0
: > "$out/files"
for md in $mds; do
  grep -q '^```c[ \t]*$' "$md" || continue
  i=$((i + 1))
  echo "$md" >> "$out/files"
  awk -v out="$out" -v n="$i" '
    /^```c[ \t]*$/ { inblk = 1; start = NR + 1; file = out "/snippet_" n "_" start ".c"; next }
    /^```/ && inblk { inblk = 0; close(file); next }
    inblk { print > file }
  ' "$md"
done

flags=(-std=c11 -Wall -Wextra -Werror -Iinclude)
n=0
fail=0
for s in "$out"/snippet_*.c; do
  [ -e "$s" ] || continue
  n=$((n + 1))
  line=${s##*_}
  line=${line%.c}
  nfile=${s##*/snippet_}
  nfile=${nfile%%_*}
  md=$(sed -n "${nfile}p" "$out/files")
  if grep -q '^ *#include' "$s"; then
    { echo "#line $line \"$md\""; cat "$s"; } > "$s.whole.c"
    if ! grep -q 'main *(' "$s"; then
      if "$CC" "${flags[@]}" -c "$s.whole.c" -o "$s.o"; then
        echo "$md:$line: file compiles"
      else
        echo "$md:$line: file does not compile as written" >&2
        fail=1
      fi
    elif "$CC" "${flags[@]}" "$s.whole.c" "$BUILD/libsimdbloom.a" $LIBS -lpthread -o "$s.bin" &&
         (cd "$out" && "./$(basename "$s.bin")" >/dev/null); then
      echo "$md:$line: program compiles and runs"
    else
      echo "$md:$line: program does not compile or run as written" >&2
      fail=1
    fi
  else
    {
      echo '#include <simdbloom.h>'
      echo '#include <stdio.h>'
      echo '#include <stdlib.h>'
      echo "void snippet(sbf_filter *f, sbf_filter *g, sbf_filter *m);"
      echo "void snippet(sbf_filter *f, sbf_filter *g, sbf_filter *m)"
      echo "{"
      echo "    (void)f; (void)g; (void)m;"
      echo "    {"
      echo "#line $line \"$md\""
      cat "$s"
      echo "    }"
      echo "}"
    } > "$s.frag.c"
    if "$CC" "${flags[@]}" -Wno-unused-variable -Wno-unused-but-set-variable \
         -Wno-unused-result -c "$s.frag.c" -o "$s.o"; then
      echo "$md:$line: fragment compiles"
    else
      echo "$md:$line: fragment does not compile as written" >&2
      fail=1
    fi
  fi
done
[ $n -gt 0 ] || { echo "check-readme: no \`\`\`c block in any .md" >&2; exit 1; }
[ $fail = 0 ] || exit 1
echo "check-readme: $n snippets of $(wc -l < "$out/files") Markdown files build ($(tr '\n' ' ' < "$out/files"))"
