"""make test-redis: replies, errors, RESP3, scaling, batched adds."""
import random

import redis

from harness import Err, Simple, check, digests, eq, items, madd_all, mexists_all


def test_replies_resp2(s):
    c = s.raw()
    eq(c.cmd("BF.RESERVE", "k", "0.01", "1000"), Simple("OK"), "reserve")
    eq(c.cmd("BF.ADD", "k", "a"), 1, "add new")
    eq(c.cmd("BF.ADD", "k", "a"), 0, "add again")
    eq(c.cmd("BF.MADD", "k", "a", "b", "c", "b"), [0, 1, 1, 0], "madd, duplicate in one command")
    eq(c.cmd("BF.EXISTS", "k", "a"), 1, "exists")
    eq(c.cmd("BF.EXISTS", "k", "zz"), 0, "exists absent")
    eq(c.cmd("BF.MEXISTS", "k", "a", "zz", "c"), [1, 0, 1], "mexists")
    eq(c.cmd("BF.CARD", "k"), 3, "card")
    eq(c.cmd("BF.CARD", "nokey"), 0, "card of a missing key")
    info = c.cmd("BF.INFO", "k")
    eq(info[0::2], ["Capacity", "Size", "Number of filters", "Number of items inserted",
                    "Expansion rate"], "info names")
    check(all(isinstance(x, Simple) for x in info[0::2]), "info names are simple strings")
    eq([info[1], info[5], info[7], info[9]], [1000, 1, 3, 2], "info values")
    check(1200 < info[3] < 2500, "info Size near RedisBloom's 1480 for 0.01/1000: %r" % info[3])
    eq(c.cmd("BF.INFO", "k", "capacity"), [1000], "info capacity")
    eq(c.cmd("BF.INFO", "k", "Items"), [3], "info items, any case")
    eq(c.cmd("BF.INFO", "k", "FILTERS"), [1], "info filters")
    eq(c.cmd("BF.INFO", "k", "expansion"), [2], "info expansion")
    eq(c.cmd("BF.INFO", "k", "size"), [info[3]], "info size")
    eq(c.cmd("BF.INFO", "k", "bogus"), Err("Invalid information value"), "info bad field")
    eq(c.cmd("BF.INFO", "nokey"), Err("ERR not found"), "info missing")
    eq(c.cmd("BF.RESERVE", "k", "0.01", "100"), Err("ERR item exists"), "reserve existing")
    eq(c.cmd("TYPE", "k"), Simple("simdbloom"), "type name")
    # wrong types
    c.cmd("SET", "str", "x")
    wt = Err("WRONGTYPE Operation against a key holding the wrong kind of value")
    for cmd in (["BF.ADD", "str", "a"], ["BF.MADD", "str", "a"], ["BF.RESERVE", "str", "0.1", "10"],
                ["BF.INSERT", "str", "ITEMS", "a"], ["BF.INFO", "str"], ["BF.CARD", "str"],
                ["BF.SCANDUMP", "str", "0"], ["SBF.INFO", "str"]):
        eq(c.cmd(*cmd), wt, "wrong type " + cmd[0])
    eq(c.cmd("BF.EXISTS", "str", "a"), 0, "exists on a foreign key")
    eq(c.cmd("BF.MEXISTS", "str", "a", "b"), [0, 0], "mexists on a foreign key")
    eq(c.cmd("BF.EXISTS", "nokey", "a"), 0, "exists on a missing key")
    eq(c.cmd("GET", "str"), b"x", "foreign key untouched")
    # arity: Redis's own text with the registered lowercase name
    for cmd, name in ((["BF.ADD", "k"], "bf.add"), (["bf.Add", "k", "a", "b"], "bf.add"),
                      (["BF.MADD", "k"], "bf.madd"), (["BF.EXISTS", "k"], "bf.exists"),
                      (["BF.MEXISTS", "k"], "bf.mexists"), (["BF.RESERVE", "k", "0.1"], "bf.reserve"),
                      (["BF.INFO"], "bf.info"), (["BF.INFO", "k", "a", "b"], "bf.info"),
                      (["BF.CARD"], "bf.card"), (["BF.SCANDUMP", "k"], "bf.scandump"),
                      (["BF.LOADCHUNK", "k", "1"], "bf.loadchunk"),
                      (["BF.INSERT", "k", "ITEMS"], "bf.insert"),
                      (["BF.INSERT", "k", "CAPACITY"], "bf.insert"),
                      (["BF.INSERT", "k", "NOCREATE", "ERROR", "0.1"], "bf.insert")):
        eq(c.cmd(*cmd), Err("ERR wrong number of arguments for '%s' command" % name),
           "arity " + " ".join(cmd))
    # auto-created keys take the defaults (capacity 100, error 0.01)
    eq(c.cmd("BF.ADD", "auto", "x"), 1, "add creates")
    eq(c.cmd("BF.INFO", "auto", "capacity"), [100], "default capacity")
    eq(c.cmd("BF.INFO", "auto", "expansion"), [2], "default expansion")
    c.close()


def test_errors(s):
    c = s.raw()
    rate = Err("ERR (0 < error rate range < 1) ")
    for e in ("0", "1", "-1", "1.5", "inf", "-inf"):
        eq(c.cmd("BF.RESERVE", "e", e, "100"), rate, "reserve error rate " + e)
    for e in ("abc", "nan", "", "0.01x", "1e309"):
        eq(c.cmd("BF.RESERVE", "e", e, "100"), Err("ERR bad error rate"), "reserve rate %r" % e)
    for cap in ("0", "-5"):
        eq(c.cmd("BF.RESERVE", "e", "0.01", cap), Err("ERR (capacity should be larger than 0)"),
           "reserve capacity " + cap)
    for cap in ("abc", "1.5", "", "99999999999999999999"):
        eq(c.cmd("BF.RESERVE", "e", "0.01", cap), Err("ERR bad capacity"), "capacity %r" % cap)
    for cap in ("1073741825", "9223372036854775807"):
        eq(c.cmd("BF.RESERVE", "e", "0.01", cap),
           Err("ERR capacity must be in the range [1, 1073741824]"), "huge capacity " + cap)
    for x in ("-1", "0"):
        eq(c.cmd("BF.RESERVE", "e", "0.01", "100", "EXPANSION", x),
           Err("ERR expansion should be greater or equal to 1"), "expansion " + x)
    eq(c.cmd("BF.RESERVE", "e", "0.01", "100", "EXPANSION", "x"), Err("ERR bad expansion"), "exp x")
    eq(c.cmd("BF.RESERVE", "e", "0.01", "100", "EXPANSION"), Err("ERR no expansion"), "no exp")
    eq(c.cmd("BF.RESERVE", "e", "0.01", "100", "NONSCALING", "EXPANSION", "2"),
       Err("Nonscaling filters cannot expand"), "nonscaling + expansion")
    eq(c.cmd("EXISTS", "e"), 0, "no key made by refused reserves")
    eq(c.cmd("BF.RESERVE", "e", "0.01", "100", "whatever"), Simple("OK"), "unknown word ignored")
    # BF.INSERT
    eq(c.cmd("BF.INSERT", "i", "CAPACITY", "0", "ITEMS", "a"), Err("Bad argument received"), "ins cap 0")
    for e in ("0", "1", "-1"):
        eq(c.cmd("BF.INSERT", "i", "ERROR", e, "ITEMS", "a"), Err("Bad argument received"), "ins err " + e)
    eq(c.cmd("BF.INSERT", "i", "EXPANSION", "-1", "ITEMS", "a"), Err("Bad argument received"), "ins exp")
    eq(c.cmd("BF.INSERT", "i", "EXPANSION", "0", "ITEMS", "a"), Err("Bad argument received"), "ins exp 0")
    eq(c.cmd("BF.INSERT", "i", "ERROR", "x", "ITEMS", "a"), Err("Bad error rate"), "ins err x")
    eq(c.cmd("BF.INSERT", "i", "CAPACITY", "x", "ITEMS", "a"), Err("Bad capacity"), "ins cap x")
    eq(c.cmd("BF.INSERT", "i", "EXPANSION", "x", "ITEMS", "a"), Err("Bad expansion"), "ins exp x")
    eq(c.cmd("BF.INSERT", "i", "CAPACITY", "2000000000", "ITEMS", "a"), Err("Bad capacity"), "ins huge")
    eq(c.cmd("BF.INSERT", "i", "FOO", "ITEMS", "a"), Err("Unknown argument received"), "ins unknown")
    eq(c.cmd("BF.INSERT", "i", "NOCREATE", "ITEMS", "a"), Err("ERR not found"), "ins nocreate")
    eq(c.cmd("EXISTS", "i"), 0, "no key made by refused inserts")
    eq(c.cmd("BF.INSERT", "i", "CAPACITY", "50", "ERROR", "0.001", "EXPANSION", "4", "ITEMS",
             "a", "b", "a"), [1, 1, 0], "insert creates")
    eq(c.cmd("BF.INFO", "i"), ["Capacity", 50, "Size", c.cmd("BF.INFO", "i", "size")[0],
                               "Number of filters", 1, "Number of items inserted", 2,
                               "Expansion rate", 4], "insert's options")
    eq(c.cmd("BF.INSERT", "i", "NOCREATE", "ITEMS", "c"), [1], "insert nocreate existing")
    eq(c.cmd("BF.INSERT", "n", "NONSCALING", "CAPACITY", "10", "ITEMS", "a"), [1], "insert nonscaling")
    eq(c.cmd("BF.INFO", "n", "expansion"), [None], "nonscaling expansion is nil")
    # sizes the module refuses without allocating them: past the library's
    # largest filter, and past max-bytes (default: that largest, 16 GiB)
    eq(c.cmd("CONFIG", "GET", "simdbloom.max-bytes"), [b"simdbloom.max-bytes", b"17179869184"],
       "default max-bytes: the library's largest filter")
    rss0 = int(s.r().info("memory")["used_memory_rss"])
    err = c.cmd("BF.RESERVE", "huge", "1e-300", "1073741824")
    check(isinstance(err, Err) and err.args[0].startswith("ERR could not create filter"),
          "1e-300 x 2^30 refused: %r" % (err,))
    eq(c.cmd("CONFIG", "SET", "simdbloom.max-bytes", "64mb"), Simple("OK"), "max-bytes 64mb")
    eq(c.cmd("BF.RESERVE", "huge", "0.0001", "1073741824"),
       Err("ERR could not create filter: the filter would exceed the module's MAX_BYTES"),
       "a 2.4 GB filter is above max-bytes")
    eq(c.cmd("BF.INSERT", "huge", "CAPACITY", "1073741824", "ITEMS", "x"),
       Err("ERR could not create filter: the filter would exceed the module's MAX_BYTES"),
       "and for an insert that creates")
    eq(c.cmd("CONFIG", "SET", "simdbloom.max-bytes", "17179869184"), Simple("OK"), "reset")
    rss1 = int(s.r().info("memory")["used_memory_rss"])
    check(rss1 - rss0 < 64 << 20, "no giant allocation (%d)" % (rss1 - rss0))
    eq(c.cmd("EXISTS", "huge"), 0, "no key for refused sizes")
    c.close()


def test_resp3(s):
    c = s.raw(resp3=True)
    eq(c.cmd("BF.RESERVE", "r3", "0.01", "1000"), Simple("OK"), "resp3 reserve")
    eq(c.cmd("BF.ADD", "r3", "a"), True, "resp3 add is a boolean")
    eq(c.cmd("BF.ADD", "r3", "a"), False, "resp3 add again")
    eq(c.cmd("BF.MADD", "r3", "a", "b"), [False, True], "resp3 madd booleans")
    eq(c.cmd("BF.EXISTS", "r3", "b"), True, "resp3 exists")
    eq(c.cmd("BF.MEXISTS", "r3", "b", "zz"), [True, False], "resp3 mexists")
    eq(c.cmd("BF.INSERT", "r3", "ITEMS", "c"), [True], "resp3 insert")
    eq(c.cmd("BF.CARD", "r3"), 3, "resp3 card")
    info = c.cmd("BF.INFO", "r3")
    check(isinstance(info, dict), "resp3 info is a map")
    eq(sorted(info), sorted(["Capacity", "Size", "Number of filters", "Number of items inserted",
                             "Expansion rate"]), "resp3 info keys")
    eq(info.get("Capacity"), 1000, "resp3 info capacity")
    eq(c.cmd("BF.INFO", "r3", "capacity"), {"Capacity": 1000}, "resp3 info field is a map")
    c.cmd("BF.RESERVE", "r3n", "0.01", "2", "NONSCALING")
    eq(c.cmd("BF.INFO", "r3n", "expansion"), {"Expansion rate": None}, "resp3 nil expansion")
    eq(c.cmd("BF.MADD", "r3n", "a", "b", "c"), Err("ERR non scaling filter is full"),
       "resp3: three items do not fit two")
    eq(c.cmd("BF.MADD", "r3n", "a", "b"), [True, True], "resp3: two do")
    sinfo = c.cmd("SBF.INFO", "r3")
    check(isinstance(sinfo, dict) and isinstance(sinfo.get("False positive rate now"), float),
          "resp3 SBF.INFO doubles")
    c.close()
    eq(s.cli("BF.EXISTS", "r3", "a", resp3=True), "(true)", "redis-cli -3 shows a boolean")
    eq(s.cli("BF.EXISTS", "r3", "a"), "1", "redis-cli RESP2 shows an integer")


def test_nonscaling_full(s):
    """A multi-item add to a NONSCALING key adds every item or none (a
    partial add is what desynchronised valkey-bloom's replicas); RedisBloom
    2.6 adds up to the first that finds no room."""
    c = s.raw()
    full = Err("ERR non scaling filter is full")
    eq(c.cmd("BF.RESERVE", "ns", "0.01", "3", "NONSCALING"), Simple("OK"), "reserve nonscaling")
    eq(c.cmd("BF.MADD", "ns", "a", "b", "c", "d", "e"), full, "five new items do not fit three")
    eq(c.cmd("BF.CARD", "ns"), 0, "and none was added")
    eq(c.cmd("BF.MADD", "ns", "a", "b", "a", "c"), [1, 1, 0, 1], "three distinct ones fit")
    eq(c.cmd("BF.MADD", "ns", "a", "b", "c", "d"), full, "a fourth does not")
    eq(c.cmd("BF.MADD", "ns", "a", "b", "c"), [0, 0, 0], "present items to a full filter: 0")
    eq(c.cmd("BF.ADD", "ns", "d"), full, "add to a full filter")
    eq(c.cmd("BF.ADD", "ns", "a"), 0, "add of a present item to a full filter")
    eq(c.cmd("BF.INSERT", "ns", "ITEMS", "x", "y"), full, "insert into a full filter")
    eq(c.cmd("BF.INSERT", "ns", "ITEMS", "c", "b"), [0, 0], "insert of present items")
    eq(c.cmd("BF.INFO", "ns", "items"), [3], "full filter keeps its count")
    eq(c.cmd("BF.INFO", "ns", "filters"), [1], "full filter keeps one sub-filter")
    # crossing the capacity in one command: exact, whatever false positives
    eq(c.cmd("BF.RESERVE", "ns2", "0.01", "10", "NONSCALING"), Simple("OK"), "reserve 10")
    eq(c.cmd("BF.MADD", "ns2", *items("p", 6)), [1] * 6, "six")
    eq(c.cmd("BF.MADD", "ns2", *(items("p", 3) + items("q", 5))), full, "3 present + 5 new > 4")
    eq(c.cmd("BF.MADD", "ns2", *(items("p", 6) + items("q", 4))), [0] * 6 + [1] * 4, "6 + 4 fit")
    eq(c.cmd("BF.CARD", "ns2"), 10, "full")
    c.close()


def test_scaling_and_fpr(s):
    r = s.r()
    r.execute_command("BF.RESERVE", "sc", "0.01", "1000")
    its = items("scale-", 10000)
    rep = madd_all(r, "sc", its)
    new = sum(rep)
    info = r.execute_command("BF.INFO", "sc")
    info = dict(zip(info[0::2], info[1::2]))
    eq(info[b"Number of filters"], 4, "10000 items in 1000*(1+2+4+8)")
    eq(info[b"Capacity"], 15000, "capacity is the sum of the sub-filters'")
    eq(info[b"Number of items inserted"], new, "count = items that answered 1")
    check(new >= 9900, "few false positives while adding (%d new)" % new)
    eq(sum(mexists_all(r, "sc", its)), len(its), "every added item is found after scaling")
    absent = items("absent-", 100000)
    fp = sum(mexists_all(r, "sc", absent)) / len(absent)
    check(fp <= 0.01, "scaled chain's FPR %.5f within the asked 0.01" % fp)
    # growth at the (capacity+1)th new item
    r.execute_command("BF.RESERVE", "g", "0.01", "100")
    i = 0
    while r.execute_command("BF.CARD", "g") < 100 and i < 1000:
        r.execute_command("BF.ADD", "g", "grow-%d" % i)
        i += 1
    eq(r.execute_command("BF.INFO", "g", "filters"), [1], "one sub-filter at capacity")
    while r.execute_command("BF.ADD", "g", "grow-%d" % i) == 0 and i < 2000:
        i += 1
    eq(r.execute_command("BF.INFO", "g", "filters"), [2], "a second at the next new item")
    eq(r.execute_command("BF.INFO", "g", "capacity"), [300], "expansion 2")
    # a NONSCALING filter filled to capacity: FPR near the asked rate and
    # near the exact formula SBF.INFO reports
    for layout, rate in (("blocked", 0.01), ("split-block", 0.01), ("classic", 0.01),
                         ("blocked", 0.001), ("blocked-xxh3", 0.01), ("split-block-xxh3", 0.01),
                         ("blocked-fmix", 0.01), ("split-block-fmix", 0.01)):
        key = "fpr-" + layout + str(rate)
        r.execute_command("SBF.RESERVE", key, rate, 20000, "LAYOUT", layout, "NONSCALING")
        madd_all(r, key, items("in-", 20000))
        n = 200000
        fp = sum(mexists_all(r, key, items("out-", n))) / n
        sinfo = r.execute_command("SBF.INFO", key)
        sinfo = dict(zip(sinfo[0::2], sinfo[1::2]))
        theory = float(sinfo[b"False positive rate now"])
        sd = (theory * (1 - theory) / n) ** 0.5
        check(theory <= rate * 1.001, "%s %g: formula %.5f <= asked" % (layout, rate, theory))
        check(abs(fp - theory) <= 5 * sd + 0.1 * theory,
              "%s %g: measured %.5f vs formula %.5f" % (layout, rate, fp, theory))
        check(fp >= 0.5 * rate, "%s %g: measured %.5f not far below (honest sizing)" % (layout, rate, fp))


def test_batch_equals_single(s):
    """BF.MADD (batched paths) answers and stores exactly what BF.ADD one by
    one does when it adds (duplicates in a command, growth in the middle of
    one, several sub-filters, every layout), and is refused, changing
    nothing, exactly when one by one would meet a full filter (counting
    keys here, which do not scale)."""
    r = s.r()
    rnd = random.Random(99)
    for layout in ("blocked", "split-block", "classic", "counting", "blocked-xxh3",
                   "split-block-xxh3", "counting-xxh3", "blocked-fmix", "split-block-fmix"):
        a, b = "eqa-" + layout, "eqb-" + layout
        for k in (a, b):
            r.execute_command("SBF.RESERVE", k, "0.05", "50", "LAYOUT", layout, "EXPANSION", "2")
        refused = 0
        for _ in range(60):
            batch = ["it%d" % rnd.randrange(600) for _ in range(rnd.randrange(1, 40))]
            try:
                ra = r.execute_command("BF.MADD", a, *batch)
            except redis.ResponseError as e:
                ra = e
            r.execute_command("COPY", b, "eq-try", "REPLACE")
            rb = []
            for it in batch:
                try:
                    rb.append(r.execute_command("BF.ADD", "eq-try", it))
                except redis.ResponseError as e:
                    rb = e
                    break
            if isinstance(ra, Exception) or isinstance(rb, Exception):
                refused += 1
                eq(str(ra), str(rb), layout + ": refused whole exactly when one by one is full")
            else:
                eq(ra, rb, layout + ": MADD replies = ADD replies one by one")
                r.execute_command("COPY", "eq-try", b, "REPLACE")
            d = digests(r)
            if d[a.encode()] != d[b.encode()]:
                eq(d[a.encode()], d[b.encode()], layout + ": MADD stores what ADD does")
                break
        check(d[a.encode()] == d[b.encode()], layout + ": MADD stores what ADD does")
        r.execute_command("DEL", "eq-try")
        if not layout.startswith("counting"):
            check(r.execute_command("BF.INFO", a, "filters")[0] >= 3, layout + ": grew in the test")
        else:
            check(refused >= 10, "%s: refused whole %d times" % (layout, refused))
