"""make test-redis: the sizing rule a chain grows by travels with it.

New chains (BF.RESERVE, BF.INSERT, an autocreated key, SBF.RESERVE) are
sized by the library's default rule (its formula plus three of its spread);
chains stored before the rule was recorded (RDB encoding 1 and 2, dump
header version 2) keep the formula alone. redis/tests/test_chain.c compares
the sub-filters with the library's own chain for the same parameters; here
a server loads the older module's RDB file (redis/tests/fixtures/old-module,
encoding 2, chains of the formula rule), new keys are made beside its keys
with the same parameters and adds, and:
- the new keys say "spread", the old ones "formula" (SBF.INFO);
- sub-filter by sub-filter the new ones have the same capacity and rate and
  at least the old ones' bits, more in some (the rule differs where it
  should, and only there);
- after DEBUG RELOAD, an AOF rewrite and restart, and SCANDUMP/LOADCHUNK into
  another key, every key holds the same bytes (DEBUG DIGEST-VALUE), and the
  same adds then grow it into the same sub-filters as a twin that never
  went through any of it (its rule survived: the other rule would make
  other sub-filters); the old keys grow as the older module's did.
"""
import os
import shutil

from harness import Server, check, eq, items, madd_all, wait_for

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURE = os.path.join(HERE, "fixtures", "old-module")


def info(r, key):
    v = r.execute_command("SBF.INFO", key)
    d = dict(zip(v[0::2], v[1::2]))
    subs = [dict(zip(s[0::2], s[1::2])) for s in d[b"Filters"]]
    return d, subs


def geometry(r, key):
    return [(s[b"Capacity"], s[b"Error rate"], s[b"Bits"], s[b"Hashes"]) for s in info(r, key)[1]]


def digest(r, key):
    return r.execute_command("DEBUG", "DIGEST-VALUE", key)[0]


# (old key in the fixture, the command that made it with a new key name, its adds)
TWINS = [
    ("grow2", lambda k: ["BF.RESERVE", k, "0.01", "100"], items("g2-", 1000)),
    ("split", lambda k: ["SBF.RESERVE", k, "0.001", "100", "LAYOUT", "split-block"], items("sp-", 500)),
    ("ins", lambda k: ["BF.INSERT", k, "CAPACITY", "40", "ERROR", "0.02", "EXPANSION", "4", "ITEMS",
                       "i-first"], items("in-", 700)),
    ("auto", None, items("au-", 250)),  # INITIAL_SIZE 100, ERROR_RATE 0.01, EXPANSION 2
    ("big", lambda k: ["BF.RESERVE", k, "0.001", "20000"], items("bg-", 3000)),
]
MORE = items("rule-more-", 60000)


def more(old):
    return MORE[:60000 if old == "big" else 5000]


def make_new(r, name, create, adds):
    if create is not None:
        r.execute_command(*create(name))
    madd_all(r, name, adds)


def scandump_copy(r, src, dst):
    it, chunks = 0, []
    while True:
        it, data = r.execute_command("BF.SCANDUMP", src, it)
        if it == 0:
            break
        chunks.append((it, data))
    for it, data in chunks:
        r.execute_command("BF.LOADCHUNK", dst, it, data)
    return chunks


def test_rule(module, workdir):
    s = Server(module, workdir, "rule")
    shutil.copy(os.path.join(FIXTURE, "dump.rdb"), os.path.join(s.dir, "dump.rdb"))
    try:
        s.start()
        r = s.r()
        eq(r.execute_command("EXISTS", "grow2"), 1, "the older module's keys loaded")
        wider = 0
        for old, create, adds in TWINS:
            new, twin = "new-" + old, "twin-" + old
            for k in (new, twin):
                make_new(r, k, create, adds)
            eq(info(r, old)[0][b"Sizing rule"], b"formula", old + ": an encoding-2 chain, the formula")
            eq(info(r, new)[0][b"Sizing rule"], b"spread", new + ": a new chain, the default rule")
            go, gn = geometry(r, old), geometry(r, new)
            eq(len(gn), len(go), new + ": as many sub-filters as the formula chain")
            eq([g[:2] for g in gn], [g[:2] for g in go], new + ": the same capacities and rates")
            check(all(n[2] >= o[2] for n, o in zip(gn, go)),
                  "%s: bits %s, at least the formula's %s" % (new, [g[2] for g in gn], [g[2] for g in go]))
            wider += sum(n[2] > o[2] for n, o in zip(gn, go))
        check(wider >= 5, "the default rule gave more bits to %d sub-filters" % wider)

        # the twins grow now, before anything is stored: the reference
        grown, n0 = {}, {}
        for old, _, _ in TWINS:
            n0[old] = len(geometry(r, "new-" + old))
            madd_all(r, "twin-" + old, more(old))
            grown[old] = (geometry(r, "twin-" + old), digest(r, "twin-" + old))
            check(len(grown[old][0]) > n0[old], "%s: the adds grew the twin (%d -> %d sub-filters)"
                  % (old, n0[old], len(grown[old][0])))
        # every way a chain is stored, then the same adds as the twins
        for old, _, _ in TWINS:
            scandump_copy(r, "new-" + old, "dumped-" + old)
            eq(info(r, "dumped-" + old)[0][b"Sizing rule"], b"spread",
               old + ": SCANDUMP/LOADCHUNK keeps the rule")
            eq(digest(r, "dumped-" + old), digest(r, "new-" + old), old + ": the same bytes")
        before = {k: digest(r, k) for k in r.keys("*")}
        eq(r.execute_command("DEBUG", "RELOAD"), b"OK", "DEBUG RELOAD (RDB encoding 3)")
        eq({k: digest(r, k) for k in r.keys("*")}, before, "DEBUG RELOAD keeps every key")
        # an AOF of BF.LOADCHUNK commands (no RDB preamble), then a restart
        # that reads it alone
        r.execute_command("CONFIG", "SET", "aof-use-rdb-preamble", "no")
        r.execute_command("CONFIG", "SET", "appendonly", "yes")  # a rewrite of the dataset
        wait_for(lambda: r.info("persistence")["aof_enabled"] == 1 and
                 r.info("persistence")["aof_rewrite_in_progress"] == 0 and
                 r.info("persistence")["aof_rewrite_scheduled"] == 0, "AOF rewrite")
        s.stop()
        os.remove(os.path.join(s.dir, "dump.rdb"))
        s.extra += ["--appendonly", "yes", "--aof-use-rdb-preamble", "no"]
        s.start()
        r = s.r()
        base = [f for f in os.listdir(os.path.join(s.dir, "appendonlydir")) if f.endswith(".base.aof")]
        with open(os.path.join(s.dir, "appendonlydir", base[0]), "rb") as f:
            check(b"BF.LOADCHUNK" in f.read(), "the AOF base holds BF.LOADCHUNK commands")
        eq({k: digest(r, k) for k in r.keys("*")}, before, "AOF rewrite + restart keeps every key")
        for old, _, _ in TWINS:
            for k in ("new-" + old, "dumped-" + old):
                eq(info(r, k)[0][b"Sizing rule"], b"spread", k + ": the rule after RDB, AOF")
            eq(info(r, old)[0][b"Sizing rule"], b"formula", old + ": still the formula")
            gt, dt = grown[old]
            for k in ("new-" + old, "dumped-" + old):
                madd_all(r, k, more(old))
                eq(geometry(r, k), gt, k + ": the stored and loaded chain grows as its twin did")
            eq(digest(r, "new-" + old), dt, old + ": the same bytes as the twin")
            # the formula chain from encoding 2 grows by the formula: its new
            # sub-filters have no more bits than the default rule's
            madd_all(r, old, more(old))
            go = geometry(r, old)
            eq([g[:2] for g in go[:len(gt)]], [g[:2] for g in gt[:len(go)]],
               old + ": the formula chain's capacities and rates")
            check(all(o[2] <= t[2] for o, t in zip(go, gt)) and
                  any(o[2] < t[2] for o, t in zip(go[n0[old]:], gt[n0[old]:])),
                  "%s: grown by the formula (bits %s, the default rule's %s)"
                  % (old, [g[2] for g in go], [g[2] for g in gt]))
    finally:
        s.stop()
