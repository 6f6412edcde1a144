#!/usr/bin/env python3
"""The comparison half of `make bench-check` (scripts/bench-check.sh).

  check.py merge   --callgrind DIR --ratios FILE[,FILE...] --out FILE
                   [--insn-skipped "ISA ..."] [--valgrind VERSION]
      Builds a measurement file from callgrind's per-phase dumps (written by
      `sbf-bench --check-insn`) and the ratio runs (`sbf-bench
      --check-ratios`; the median of the runs is kept for each ratio).
  check.py compare --baseline FILE --measured FILE
      Compares every metric of the baseline with the measurement. All metrics
      are lower-is-better; a metric fails when
          measured > baseline * (1 + tolerance)
      Exit status 1 if any metric fails (or is missing without a reason).
  check.py baseline --measured FILE --out FILE
      Writes a new baseline (what `make bench-baseline` does).

Tolerances (justified in bench/README.md):
  insn.*   instructions per key counted by callgrind: 3%
  ratio.*  time(isa) / time(scalar) within one run, best of 41 rounds, the
           median of three runs: 35%
"""
import glob
import json
import os
import re
import sys

TOLERANCES = [("insn.", 0.03), ("ratio.", 0.35)]
UNITS = {"insn.": "instructions/key", "ratio.": "x scalar time"}


def tolerance(name):
    for prefix, tol in TOLERANCES:
        if name.startswith(prefix):
            return tol
    return 0.10


def unit(name):
    for prefix, u in UNITS.items():
        if name.startswith(prefix):
            return u
    return ""


def describe(name):
    """'insn.avx2.contains_u64_neg.blocked' -> 'kernel avx2 contains_u64_neg, blocked layout'"""
    parts = name.split(".")
    what = "instruction count" if parts[0] == "insn" else "time vs scalar"
    s = "kernel %s %s" % (parts[1], parts[2]) if len(parts) > 2 else name
    if len(parts) > 3:
        s += ", %s layout" % parts[3]
    return "%s (%s)" % (s, what)


def fmt(v):
    return "%.6g" % v


def load(path):
    with open(path) as f:
        return json.load(f)


def cmd_merge(args):
    cg_dir = args["--callgrind"]
    metrics, units, meta = {}, {}, {}
    for path in sorted(glob.glob(os.path.join(cg_dir, "cg.*"))):
        trigger, total = None, None
        with open(path, errors="replace") as f:
            for line in f:
                m = re.match(r"desc: Trigger: Client Request: (\S+) (\d+)", line)
                if m:
                    trigger = (m.group(1), int(m.group(2)))
                m = re.match(r"(?:summary|totals): (\d+)", line)
                if m and total is None:
                    total = int(m.group(1))
        if trigger and total is not None:
            name, keys = trigger
            metrics[name] = round(total / keys, 4)
            units[name] = "instructions/key"
    if not metrics:
        sys.exit("check.py: no callgrind phase dumps in %s" % cg_dir)
    skipped = []
    runs = [load(p) for p in args.get("--ratios", "").split(",") if p]
    if runs:
        meta = runs[0].get("meta", {})
        meta["ratio_runs"] = len(runs)
        for k in runs[0].get("metrics", {}):
            vals = sorted(r["metrics"][k] for r in runs if k in r.get("metrics", {}))
            metrics[k] = vals[len(vals) // 2]  # the median run
            units[k] = "x scalar time"
        skipped = runs[0].get("skipped", "").split()
    for isa in args.get("--insn-skipped", "").split():
        skipped.append("insn:" + isa)
    meta["valgrind"] = args.get("--valgrind", "")
    out = {
        "schema": "simdbloom-bench-check/1",
        "meta": meta,
        "skipped": sorted(set(skipped)),
        "tolerances": {p: t for p, t in TOLERANCES},
        "metrics": dict(sorted(metrics.items())),
        "units": dict(sorted(units.items())),
    }
    with open(args["--out"], "w") as f:
        json.dump(out, f, indent=2)
        f.write("\n")
    return 0


def skipped_reason(name, measured):
    parts = name.split(".")
    if len(parts) < 2:
        return None
    sk = measured.get("skipped", [])
    if isinstance(sk, str):
        sk = sk.split()
    if parts[1] in sk:
        return "%s is not available on this machine" % parts[1]
    if parts[0] == "insn" and "insn:" + parts[1] in sk:
        return "callgrind cannot run %s here" % parts[1]
    return None


# What a timing ratio depends on beyond the code: the CPU (a VM's model name,
# "AMD EPYC", covers several generations; cpu_id and the cache sizes tell
# them apart). Fields missing on either side are not compared.
CPU_FIELDS = ("cpu", "cpu_id", "l1d_bytes", "l2_bytes", "l3_bytes")


def other_cpu(base, meas):
    """The fields in which the baseline's CPU differs from this one's, or []."""
    bm, mm = base.get("meta", {}), meas.get("meta", {})
    return ["%s %s (baseline %s)" % (k, mm[k], bm[k]) for k in CPU_FIELDS
            if k in bm and k in mm and bm[k] != mm[k]]


def cmd_compare(args):
    base = load(args["--baseline"])
    meas = load(args["--measured"])
    bm, mm = base.get("metrics", {}), meas.get("metrics", {})
    differs = other_cpu(base, meas)
    if differs:
        # Instruction counts do not depend on the CPU; timing ratios do (the
        # same binary's avx2/scalar ratio differs between two generations of
        # one CPU family): compare them only on the kind of machine the
        # baseline came from.
        print("bench-check: the baseline was measured on another CPU: %s; the timing "
              "ratios are not compared (make bench-baseline on this kind of machine "
              "records them)" % "; ".join(differs))
        bm = {k: v for k, v in bm.items() if not k.startswith("ratio.")}
    if not bm:
        print("bench-check: the baseline %s has no metrics" % args["--baseline"])
        return 1
    fails, better, skipped, ok = [], [], [], 0
    for name in sorted(bm):
        b = bm[name]
        if not isinstance(b, (int, float)):
            fails.append("FAIL %s: baseline value is not a number" % name)
            continue
        tol = tolerance(name)
        if name not in mm:
            why = skipped_reason(name, meas)
            if why:
                skipped.append("skip %s: %s" % (name, why))
            else:
                fails.append("FAIL %s: %s was not measured (baseline %s %s)"
                             % (name, describe(name), fmt(b), unit(name)))
            continue
        m = mm[name]
        if m > b * (1 + tol):
            fails.append("FAIL %s: %s: measured %s %s, baseline %s (%+.1f%%, tolerance +%g%%)"
                         % (name, describe(name), fmt(m), unit(name), fmt(b),
                            (m / b - 1) * 100 if b else float("inf"), tol * 100))
        else:
            ok += 1
            if m < b * (1 - tol):
                better.append("better %s: measured %s, baseline %s (%+.1f%%)"
                              % (name, fmt(m), fmt(b), (m / b - 1) * 100))
    new = sorted(set(mm) - set(bm))
    for line in skipped:
        print(line)
    for line in better:
        print(line)
    if better:
        print("bench-check: %d metric(s) improved beyond the tolerance; "
              "`make bench-baseline` records them" % len(better))
    if new:
        print("bench-check: %d metric(s) not in the baseline (ignored): %s"
              % (len(new), ", ".join(new[:8]) + (" ..." if len(new) > 8 else "")))
    for line in fails:
        print(line)
    print("bench-check: %d passed, %d failed, %d skipped (baseline %s)"
          % (ok, len(fails), len(skipped), args["--baseline"]))
    return 1 if fails else 0


def cmd_baseline(args):
    meas = load(args["--measured"])
    meas["note"] = ("Written by `make bench-baseline`. Every number under \"metrics\" is "
                    "lower-is-better; tolerances are in bench/check.py and bench/README.md.")
    with open(args["--out"], "w") as f:
        json.dump(meas, f, indent=2)
        f.write("\n")
    print("bench-check: wrote %d metrics to %s" % (len(meas.get("metrics", {})), args["--out"]))
    return 0


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0 if len(argv) >= 2 else 2
    cmd, rest = argv[1], argv[2:]
    args = {}
    i = 0
    while i < len(rest):
        if not rest[i].startswith("--") or i + 1 >= len(rest):
            sys.exit("check.py: bad arguments: %s" % " ".join(rest))
        args[rest[i]] = rest[i + 1]
        i += 2
    fn = {"merge": cmd_merge, "compare": cmd_compare, "baseline": cmd_baseline}.get(cmd)
    if fn is None:
        sys.exit("check.py: unknown command %s" % cmd)
    return fn(args)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
