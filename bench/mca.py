#!/usr/bin/python3
"""llvm-mca on the batch kernels' hot loops, as built (bench/mca.sh runs it).

The loops are cut from the built objects (objdump of build/obj/simd/*.o),
not recompiled: what llvm-mca reads is the code that runs. A loop is a
backward branch inside a function; a kernel (KERNELS below) names its
function and what its loop must contain (mnemonic: at least n times), and
the smallest such loop is taken. Each is run through llvm-mca for each CPU
model; the table gives the model's cycles per key (Total Cycles /
iterations / keys per iteration) and the busiest ports.

llvm-mca is a model of the core with every load an L1 hit, no front end
limits past its dispatch width, and (for Intel) no port 1 shut down by
512-bit uops: a guide to where a loop's time goes, not a measurement.

  bench/mca.py [--obj DIR] [--mcpu a,b] [--kernel REGEX] [--list FUNC] [--asm]
"""
import argparse
import os
import re
import subprocess
import sys

# LLVM 19's models (Debian 12: apt-get install llvm-19) have znver4, Zen 4's
# AVX-512; LLVM 14's newest AMD model is znver3 (no AVX-512: its cells say
# "unsupported" for the AVX-512 loops).
MCA = os.environ.get("LLVM_MCA") or next(
    (m for m in ("llvm-mca-19", "llvm-mca-18", "llvm-mca-17", "llvm-mca-14", "llvm-mca")
     if any(os.access(os.path.join(d, m), os.X_OK)
            for d in os.environ.get("PATH", "/usr/bin").split(":"))), "llvm-mca")
OBJDUMP = os.environ.get("OBJDUMP", "objdump")

# name, object, function, {regex: least count of matching instructions in
# the loop}, keys per iteration, what it is
KERNELS = [
    # the query loops of pipe_probe: a filter the caches hold (at most 256
    # KiB: unrolled 8 times, no prefetch), larger ones (a key a pass,
    # prefetching the next step's block)
    ("avx512 blocked contains (k <= 8)", "avx512", "contains_batch_blocked",
     {"^vperm[it]2d .*ymm": 8, "^vprorvd": 8}, 8, "pipe_probe, cached"),
    ("avx512 blocked contains (k > 8)", "avx512", "contains_batch_blocked",
     {"^vpermd .*zmm": 8, "^vprorvd": 8}, 8, "pipe_probe, cached"),
    # (the prefetching loop: pipe_probe writes it once per form; this is
    # the 16-lane one)
    ("avx512 blocked contains (16 lanes), prefetching", "avx512", "contains_batch_blocked",
     {"^vpermd .*zmm": 1, "^vprorvd": 1, "^prefetcht0": 1}, 1, "pipe_probe"),
    ("avx512 split-block contains (k <= 8)", "avx512", "contains_batch_split",
     {"^vptestnmd .*ymm": 8}, 8, "pipe_probe, cached, 256-bit blocks"),
    ("avx512 split-block contains (k > 8)", "avx512", "contains_batch_split",
     {"^vptestnmd .*zmm": 8}, 8, "pipe_probe, cached, 512-bit blocks"),
    ("avx512 counting contains (k <= 8)", "avx512", "contains_batch_counting",
     {"^vperm[it]2d .*ymm": 8}, 8, "pipe_probe, cached"),
    ("avx512 counting contains (k > 8)", "avx512", "contains_batch_counting",
     {"^vpermd .*zmm": 8}, 8, "pipe_probe, cached"),
    ("avx512 blocked add (all 16 positions)", "avx512", "add_batch_blocked",
     {"^vpsllvd": 17, "^vptestmd": 1}, 1, "pipe_probe's add loop; the model runs every "
     "case of sbf_inl_mask512's switch"),
    ("avx512 split-block add (k <= 8)", "avx512", "add_batch_split",
     {"^vpmulld .*ymm": 1, "^vptest ": 1}, 1, "pipe_probe's add loop"),
    # the hash stages of u64 keys (a step of 32 keys is hashed, and its
    # blocks addressed, before its probes)
    ("avx512 MurmurHash3 stage", "avx512", "add_batch_blocked",
     {"^vpmullq": 6, "^vpmuludq": 2}, 8, "pipe_stage: hash + block address"),
    # (the fused 64-bit stages are unrolled completely: the second of the
    # four bodies of 8 keys, straight code)
    ("avx512 XXH3 stage", "avx512", "pipe_fused_xxh3",
     ("seg", r"^vprolq \$0x20,0x40\(", r"^vprolq \$0x20,0x80\("), 8,
     "pipe_fused_u64: hash + map + block address"),
    ("avx512 fmix stage", "avx512", "pipe_fused_fmix",
     ("seg", r"^vpxord 0x40\(", r"^vpxord 0x80\("), 8,
     "pipe_fused_u64: hash + map + block address"),
    ("avx2 blocked contains", "avx2", "contains_batch_blocked",
     {"^vpermd": 16}, 8, "pipe_probe, cached"),
    ("avx2 split-block contains (k <= 8)", "avx2", "contains_batch_split",
     {"^vptest ": 8, "^vpmulld": 8}, 8, "pipe_probe, cached"),
    ("avx2 MurmurHash3 stage", "avx2", "contains_batch_blocked",
     {"^vpmuludq": 20}, 4, "pipe_stage: hash + block address"),
    ("avx2 XXH3 stage", "avx2", "pipe_fused_xxh3",
     {"^vpmulld": 2, "^vpmuludq": 3}, 4, "pipe_fused_u64: hash + map + block address"),
]

LINE = re.compile(r"^\s*([0-9a-f]+):\s+(\S.*)$")
BRANCH = re.compile(r"^(j[a-z]+|loop\w*)\s+([0-9a-f]+)\b")
DROP = re.compile(r"^(nop|xchg\s+%ax,%ax|cs nop|data16|int3)")


def disasm(obj, func):
    out = subprocess.run([OBJDUMP, "-d", "--no-show-raw-insn", "-M", "att",
                          "--disassemble=" + func, obj],
                         check=True, capture_output=True, text=True).stdout
    ins = []
    for line in out.splitlines():
        m = LINE.match(line)
        if m:
            text = m.group(2).split("#")[0].strip()
            ins.append((int(m.group(1), 16), re.sub(r"\s+", " ", text)))
    return ins


def loops(ins):
    """(start index, end index) of every backward branch's range."""
    where = {a: i for i, (a, _) in enumerate(ins)}
    res = []
    for i, (a, t) in enumerate(ins):
        m = BRANCH.match(t)
        if m:
            tgt = int(m.group(2), 16)
            if tgt <= a and tgt in where:
                res.append((where[tgt], i))
    return res


def mnem(t):
    return t.split(" ", 1)[0]


def counts(body):
    c = {}
    for _, t in body:
        c[mnem(t)] = c.get(mnem(t), 0) + 1
    return c


def matches(body, rx):
    return sum(1 for _, t in body if re.search(rx, t))


def pick(ins, need):
    """The smallest loop with at least n instructions matching each regex;
    or for ("seg", a, b) the straight code from the first instruction
    matching a to the one before the next matching b (one copy of a body
    the compiler unrolled completely)."""
    if isinstance(need, tuple):
        s = next((i for i, (_, t) in enumerate(ins) if re.search(need[1], t)), None)
        if s is None:
            return None
        e = next((i for i in range(s + 1, len(ins)) if re.search(need[2], ins[i][1])), None)
        return None if e is None else (s, e - 1)
    best = None
    for s, e in loops(ins):
        if all(matches(ins[s:e + 1], rx) >= n for rx, n in need.items()):
            if best is None or e - s < best[1] - best[0]:
                best = (s, e)
    return best


def mca_text(body):
    """The loop as assembly llvm-mca reads: branches to labels, no nops."""
    first = body[0][0]
    lines = [".Lloop:"]
    for a, t in body:
        if DROP.match(t):
            continue
        m = BRANCH.match(t)
        if m:
            tgt = int(m.group(2), 16)
            t = "%s %s" % (m.group(1), ".Lloop" if tgt == first else ".Lout")
        if t.startswith("call"):
            t = "call .Lout"
        lines.append("  " + t)
    lines.append(".Lout:")
    return "\n".join(lines) + "\n"


def run_mca(text, cpu, iters=200):
    r = subprocess.run([MCA, "-mcpu=" + cpu, "-iterations=%d" % iters,
                        "-resource-pressure", "-timeline=false"],
                       input=text, capture_output=True, text=True)
    if r.returncode != 0:
        return None
    out = r.stdout
    cyc = int(re.search(r"Total Cycles:\s+(\d+)", out).group(1))
    uops = int(re.search(r"Total uOps:\s+(\d+)", out).group(1))
    rth = float(re.search(r"Block RThroughput:\s+([\d.]+)", out).group(1))
    # resource pressure per iteration: header line of names, then values
    m = re.search(r"Resource pressure per iteration:\n(.*)\n(.*)\n", out)
    names = re.findall(r"\[([^\]]+)\]", m.group(1))
    vals = [float(v) if v != "-" else 0.0 for v in m.group(2).split()]
    res = re.search(r"Resources:\n((?:\[.*\n)+)", out).group(1)
    label = dict(re.findall(r"\[([^\]]+)\]\s+-\s+(\S+)", res))
    press = sorted(((v, label.get(n, n)) for n, v in zip(names, vals)), reverse=True)
    return cyc / iters, uops / iters, rth, press, out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--obj", default="build/obj/simd",
                    help="folder of the built ISA objects (avx512.o, avx2.o)")
    ap.add_argument("--mcpu", default="icelake-server,sapphirerapids,znver4",
                    help="llvm-mca CPU models, comma-separated")
    ap.add_argument("--kernel", default="", help="only kernels whose name matches")
    ap.add_argument("--list", metavar="FUNC",
                    help="list FUNC's loops in --isa's object (size, vector ops)")
    ap.add_argument("--isa", default="avx512")
    ap.add_argument("--asm", action="store_true", help="print each loop's assembly")
    ap.add_argument("--full", action="store_true", help="print llvm-mca's whole report")
    a = ap.parse_args()
    cpus = a.mcpu.split(",")

    if a.list:
        ins = disasm(os.path.join(a.obj, a.isa + ".o"), a.list)
        if not loops(ins):
            ins = disasm(os.path.join(a.obj, a.isa + ".o"), a.list + ".part.0")
        for s, e in sorted(loops(ins)):
            c = counts(ins[s:e + 1])
            vec = " ".join("%s:%d" % kv for kv in sorted(c.items())
                           if kv[0].startswith(("vpmul", "vperm", "vpror", "vptest",
                                                "vpsllv", "vpgather", "prefetch")))
            print("%x-%x %3d insns  %s" % (ins[s][0], ins[e][0], e - s + 1, vec))
        return 0

    print("llvm-mca: %s" % MCA)
    print("| kernel | keys/iter | insns/key | " +
          " | ".join("%s cyc/key (busiest)" % c for c in cpus) + " |")
    print("|---|---:|---:|" + "---|" * len(cpus))
    for name, isa, func, need, keys, what in KERNELS:
        if a.kernel and not re.search(a.kernel, name):
            continue
        obj = os.path.join(a.obj, isa + ".o")
        if not os.path.exists(obj):
            continue
        ins = disasm(obj, func)
        lp = pick(ins, need)
        if lp is None:  # gcc's split-off body of the function
            ins = disasm(obj, func + ".part.0")
            lp = pick(ins, need)
        if lp is None:
            print("| %s | (no loop with %s in %s) | | %s" %
                  (name, need, func, "| " * len(cpus)))
            continue
        body = ins[lp[0]:lp[1] + 1]
        text = mca_text(body)
        n = sum(1 for l in text.splitlines() if l.startswith("  "))
        cells = []
        for cpu in cpus:
            res = run_mca(text, cpu)
            if res is None:
                cells.append("unsupported")
                continue
            cyc, uops, rth, press, out = res
            top = ", ".join("%s %.1f" % (p, v / keys) for v, p in press[:2])
            cells.append("%.2f (%s)" % (cyc / keys, top))
            if a.full:
                print("\n### %s, %s\n%s" % (name, cpu, out))
        print("| %s | %d | %.1f | %s |" % (name, keys, n / keys, " | ".join(cells)))
        if a.asm:
            print("\n```\n# %s: %s %x-%x\n%s```\n" % (name, func, body[0][0], body[-1][0], text))
    return 0


if __name__ == "__main__":
    sys.exit(main())
