#!/usr/bin/env python3
"""make bench-compare: the ratio table of two sbf-bench JSON files.

  compare.py SCALAR_BUILD.json SIMD_BUILD.json

Rows are matched on (layout, size, operation, mode, keys, lookup); from each
file the rows of its default ISA are used (scalar in a SIMD=0 build).
speedup = scalar-build ns / SIMD-build ns (above 1: the SIMD build is faster).
"""
import json
import sys


def rows(doc):
    isa = doc["meta"]["isa_default"]
    out = {}
    for t in doc.get("throughput", []):
        if t["isa"] != isa:
            continue
        key = (t["layout"], t["size"], t["op"], t["mode"], t["keys"], t["lookup"] or "")
        out[key] = t["ns_per_key"]
    hashes = {h["isa"]: h["ns_per_key"] for h in doc.get("hash", [])}
    return isa, out, hashes.get(isa)


def fmt(v):
    return "-" if v is None else ("%.2f" % v if v < 10 else "%.1f" % v)


def main(argv):
    if len(argv) != 3:
        print(__doc__)
        return 2
    a, b = (json.load(open(p)) for p in argv[1:3])
    ia, ra, ha = rows(a)
    ib, rb, hb = rows(b)
    print("# bench-compare: SIMD=0 build (%s) vs dispatching build (%s)\n" % (ia, ib))
    print("host %s, %s; commit %s\n" % (b["meta"]["host"], b["meta"]["cpu"], b["meta"]["commit"]))
    print("ns per key; speedup = SIMD=0 build / dispatching build.\n")
    if ha and hb:
        print("| batched hash | SIMD=0 (%s) | dispatch (%s) | speedup |" % (ia, ib))
        print("|---|---:|---:|---:|")
        print("| sbf_murmur3_x64_128_u64 | %s | %s | %.2fx |\n" % (fmt(ha), fmt(hb), ha / hb))
    print("| layout | size | operation | keys | SIMD=0 (%s) | dispatch (%s) | speedup |" % (ia, ib))
    print("|---|---|---|---|---:|---:|---:|")
    sizes = [s["label"] for s in b["meta"]["sizes"]]
    layouts = ["classic", "blocked", "split-block", "counting"]
    for key in sorted(set(ra) & set(rb),
                      key=lambda k: (layouts.index(k[0]) if k[0] in layouts else 9,
                                     sizes.index(k[1]) if k[1] in sizes else 99,
                                     k[4] != "u64", k[2], k[3], k[5])):
        layout, size, op, mode, keys, lookup = key
        x, y = ra[key], rb[key]
        print("| %s | %s | %s %s%s | %s | %s | %s | %.2fx |"
              % (layout, size, op, mode, " " + lookup if lookup else "", keys, fmt(x), fmt(y),
                 x / y if y else float("nan")))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
