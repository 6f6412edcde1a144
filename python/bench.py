"""make bench-python: simdbloom's Python binding against abloom (built from
../shared/peers/python into a temporary directory by the Makefile, never part
of this repository), a Python set, and the C library's own batched call.

Each row runs every variant once per round, alternating, for --rounds
rounds, and prints the median; on a shared, loaded machine read the ratios
of one run, not the absolute figures.

    make bench-python BENCH_ARGS="--loop-keys 1000000 --batch-keys 10000000 --map-gib 1"
"""
import argparse
import gc
import os
import platform
import statistics
import tempfile
import time

import numpy as np

import simdbloom
from simdbloom import _core

try:
    import abloom
except ImportError:  # the table says so
    abloom = None


def rss_kib(kind="RssAnon"):
    """Resident KiB of this process: RssAnon (private memory) or RssFile
    (file pages mapped in: shared page cache, not a copy)."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(kind + ":"):
                return int(line.split()[1])
    return 0


def timed(fn):
    gc.collect()
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def loop_add(add, keys):
    for k in keys:
        add(k)


def loop_in(f, keys):
    hits = 0
    for k in keys:
        if k in f:
            hits += 1
    return hits


def rounds_of(variants, rounds):
    """variants: {name: callable returning seconds}; alternated per round."""
    got = {name: [] for name in variants}
    for _ in range(rounds):
        for name, fn in variants.items():
            got[name].append(fn())
    return {name: statistics.median(v) for name, v in got.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--loop-keys", type=int, default=1_000_000)
    ap.add_argument("--batch-keys", type=int, default=10_000_000)
    ap.add_argument("--map-gib", type=float, default=1.0)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--fpp", type=float, default=0.01)
    ap.add_argument("--layout", default="blocked")
    a = ap.parse_args()
    R, fpp, lay = a.rounds, a.fpp, a.layout

    print(f"simdbloom {simdbloom.__version__} (library {simdbloom.library_version}, "
          f"isa {simdbloom.isa()}, one-key code {_core._view_isa()}, layout {lay}), abloom "
          f"{getattr(abloom, '__version__', 'present') if abloom else 'NOT BUILT'}, "
          f"Python {platform.python_version()}, numpy {np.__version__}")
    print(f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}; fpp {fpp}, "
          f"{R} rounds alternating, medians")

    rng = np.random.default_rng(42)
    keys = rng.integers(0, 2**62, size=a.loop_keys, dtype=np.uint64).tolist()
    n = len(keys)
    rows = []

    def new_sbf(cap=n):
        return simdbloom.Filter(cap, fpp, layout=lay)

    def new_ab(cap=n):
        return abloom.BloomFilter(cap, fpp)

    # per-key add and in, from a Python loop
    filled = {}

    def add_sbf():
        f = new_sbf()
        t = timed(lambda: loop_add(f.add, keys))
        filled["sbf"] = f
        return t

    def add_ab():
        f = new_ab()
        t = timed(lambda: loop_add(f.add, keys))
        filled["ab"] = f
        return t

    def add_set():
        s = set()
        t = timed(lambda: loop_add(s.add, keys))
        filled["set"] = s
        return t

    v = {"simdbloom": add_sbf, "set": add_set}
    if abloom:
        v["abloom"] = add_ab
    m = rounds_of(v, R)
    rows.append((f"add(k), Python loop, {n:,} ints", "ns/key", m, n))

    v = {"simdbloom": lambda: timed(lambda: loop_in(filled["sbf"], keys)),
         "set": lambda: timed(lambda: loop_in(filled["set"], keys))}
    if abloom:
        v["abloom"] = lambda: timed(lambda: loop_in(filled["ab"], keys))
    m = rounds_of(v, R)
    rows.append((f"k in f, Python loop, {n:,} ints", "ns/key", m, n))
    filled.clear()

    v = {"simdbloom": lambda: (lambda f: timed(lambda: f.update(keys)))(new_sbf()),
         "set": lambda: (lambda s: timed(lambda: s.update(keys)))(set())}
    if abloom:
        v["abloom"] = lambda: (lambda f: timed(lambda: f.update(keys)))(new_ab())
    m = rounds_of(v, R)
    rows.append((f"update(list of {n:,} ints)", "ns/key", m, n))
    del keys

    # batches over a NumPy uint64 array
    N = a.batch_keys
    arr = rng.integers(0, 2**64 - 1, size=N, dtype=np.uint64, endpoint=True)

    v = {"simdbloom": lambda: (lambda f: timed(lambda: f.add_many(arr)))(new_sbf(N)),
         "C call": lambda: _core._c_batch(new_sbf(N), arr, True)}
    ab_list = None
    if abloom:
        ab_list = arr.tolist()
        v["abloom"] = lambda: (lambda f: timed(lambda: f.update(ab_list)))(new_ab(N))
    m = rounds_of(v, R)
    rows.append((f"add_many(uint64 array of {N:,}) [abloom: update(list)]", "ns/key", m, N))

    full = new_sbf(N)
    full.add_many(arr)
    probe = np.concatenate([arr[: N // 2], rng.integers(0, 2**64 - 1, size=N - N // 2,
                                                        dtype=np.uint64, endpoint=True)])
    out = np.empty(N, dtype=bool)
    v = {"simdbloom": lambda: timed(lambda: full.contains_many(probe, out=out)),
         "C call": lambda: _core._c_batch(full, probe, False)}
    if abloom:
        ab = new_ab(N)
        ab.update(ab_list)
        probe_list = probe.tolist()
        v["abloom"] = lambda: timed(lambda: loop_in(ab, probe_list))
    m = rounds_of(v, R)
    rows.append((f"contains_many(uint64 array of {N:,}, half present) [abloom: loop]",
                 "ns/key", m, N))
    del full, ab_list, arr, probe
    if abloom:
        del ab, probe_list
    gc.collect()

    # print the speed table
    cols = ["simdbloom", "abloom", "set", "C call"]
    w = max(len(r[0]) for r in rows) + 2
    print()
    print(f"{'operation (ns per key)':<{w}}" + "".join(f"{c:>11}" for c in cols)
          + f"{'vs abloom':>11}{'vs C':>8}")
    for label, unit, m, count in rows:
        ns = {c: m[c] / count * 1e9 for c in m}
        cells = "".join(f"{ns[c]:>11.1f}" if c in ns else f"{'-':>11}" for c in cols)
        vs_ab = f"{ns['abloom'] / ns['simdbloom']:>10.1f}x" if "abloom" in ns else f"{'-':>11}"
        vs_c = f"{ns['simdbloom'] / ns['C call']:>7.2f}x" if "C call" in ns else f"{'-':>8}"
        print(f"{label:<{w}}{cells}{vs_ab}{vs_c}")
    print("vs abloom: abloom's time / simdbloom's (higher is faster); vs C: the binding's "
          "time / the bare library call's (1.00 = no overhead)")

    # a large mapped filter
    if a.map_gib > 0:
        bits = int(a.map_gib * 8 * 2**30)
        with tempfile.TemporaryDirectory(dir=os.environ.get("TMPDIR", "/tmp")) as d:
            path = os.path.join(d, "big.sbf")
            f = simdbloom.Filter(1, layout=lay, bits=bits)
            some = np.arange(1_000_000, dtype=np.uint64)
            f.add_many(some)
            t_save = timed(lambda: f.save(path))
            size = os.path.getsize(path)
            del f
            gc.collect()
            opens, rss, rssf = [], [], []
            for _ in range(5):
                r0, f0 = rss_kib(), rss_kib("RssFile")
                t0 = time.perf_counter()
                g = simdbloom.Filter.map(path)
                opens.append(time.perf_counter() - t0)
                rss.append(rss_kib() - r0)
                rssf.append(rss_kib("RssFile") - f0)
                del g
            g = simdbloom.Filter.map(path)
            r0, f0 = rss_kib(), rss_kib("RssFile")
            t_probe = timed(lambda: g.contains_many(some[:1000]))
            r_probe, f_probe = rss_kib() - r0, rss_kib("RssFile") - f0
            assert g.count_many(some[:1000]) == 1000
            del g
            t_load = timed(lambda: simdbloom.Filter.load(path))
            print()
            print(f"map() of a {size / 2**30:.2f} GiB filter file (saved in {t_save:.2f} s, in the "
                  f"page cache): open {statistics.median(opens) * 1e3:.3f} ms (median of 5, "
                  f"max {max(opens) * 1e3:.3f})")
            print(f"  resident after map(): private +{statistics.median(rss)} KiB, file pages "
                  f"+{statistics.median(rssf)} KiB; after 1000 probes ({t_probe * 1e3:.2f} ms): "
                  f"private +{r_probe} KiB, file pages +{f_probe} KiB (the shared page cache, "
                  f"mapped in by the kernel's fault-around)")
            print(f"  load() of the same file (a private copy): {t_load * 1e3:.0f} ms")


if __name__ == "__main__":
    main()
