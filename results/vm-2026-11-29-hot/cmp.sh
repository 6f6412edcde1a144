#!/bin/bash
# cmp.sh SIZE ROUNDS IMPLS OPS bin1 bin2 ... : alternate the binaries, one round each, pinned to CPU 1
size=$1; rounds=$2; impls=$3; ops=$4; shift 4
out=${OUT:-/tmp/hot/cmp_$$}; mkdir -p $out
for r in $(seq 1 $rounds); do
  for b in "$@"; do
    taskset -c ${CPUN:-1} $b --size $size --rounds 1 --min-time ${MT:-0.05} --impls $impls --ops $ops --seed $r 2>/dev/null | grep ^R | sed "s|^|$(basename $b),|" >> $out/all.csv
  done
done
/usr/bin/python3 - $out/all.csv <<'PY'
import sys, collections, statistics
d = collections.defaultdict(list)
for line in open(sys.argv[1]):
    f = line.strip().split(',')
    binname, impl, op, p10 = f[0], f[3], f[4], float(f[6])
    d[(binname, impl, op)].append(p10)
bins = sorted(set(k[0] for k in d), key=lambda b: [k[0] for k in d].index(b))
rows = sorted(set((k[1], k[2]) for k in d))
print("%-28s %-7s" % ("impl", "op") + "".join("%18s" % b for b in bins))
for impl, op in rows:
    s = "%-28s %-7s" % (impl, op)
    for b in bins:
        v = d.get((b, impl, op))
        ref = d.get((b, 'ff-simdblock', op))
        if v:
            med = statistics.median(v); mn = min(v)
            r = "" if not ref else " (%.2f)" % (med / statistics.median(ref))
            s += "%18s" % ("%.2f%s" % (med, r))
        else: s += "%18s" % "-"
    print(s)
PY
