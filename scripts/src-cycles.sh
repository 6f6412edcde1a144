#!/bin/sh
# No two src/ files call or include each other in a circle:
# "a b" when a's object calls a symbol b's object defines, or a includes
# the src/ header b; tsort(1) fails on any cycle in those edges.
#   scripts/src-cycles.sh BUILD/obj/src
set -eu
objdir=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for o in "$objdir"/*.o; do
    f=$(basename "$o" .o)
    nm --defined-only "$o" | awk -v f="$f" 'NF == 3 && $2 ~ /^[TDRBV]$/ { print $3, f }'
done | sort > "$tmp/defs"
for o in "$objdir"/*.o; do
    f=$(basename "$o" .o)
    nm -u "$o" | awk -v f="$f" '{ print $NF, f }'
done | sort > "$tmp/uses"
# symbol user definer -> "user.c definer.c"
join "$tmp/uses" "$tmp/defs" | awk '$2 != $3 { print $2 ".c", $3 ".c" }' > "$tmp/edges"
for s in src/*.c src/*.h; do
    sed -n 's/^#[[:space:]]*include[[:space:]]*"\([^"/]*\)".*/\1/p' "$s" |
    while read -r h; do
        if [ -f "src/$h" ]; then echo "$(basename "$s") $h"; fi
    done
done >> "$tmp/edges"
sort -u "$tmp/edges" -o "$tmp/edges"
if ! tsort "$tmp/edges" > /dev/null 2> "$tmp/err"; then
    echo "src/ files in a circle (caller callee / includer included):"
    grep -v 'input contains a loop:' "$tmp/err" | sed 's/^tsort: /  /'
    exit 1
fi
echo "src-cycles: $(wc -l < "$tmp/edges") edges between src/ files, no circle"
