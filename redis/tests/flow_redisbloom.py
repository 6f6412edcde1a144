"""RedisBloom 2.6.28's Python flow tests for BF.* (tests/flow/test_overall.py,
class testRedisBloom), written again by us from the behaviour each one
checks (not copied), under the same names.

A test registered with `design=...` is one where we differ on purpose: it
checks our documented behaviour in RedisBloom's scenario instead, and the
report says "different by design, because ...". The rest must answer as
RedisBloom 2.6.28 does. flow_run.py runs them in three modes (plain, AOF,
replica), as RedisBloom's RLTest does.
"""
import redis

from harness import check, eq

TESTS = []


def flow(name, design=None, modes=("plain", "aof", "replica")):
    def deco(fn):
        TESTS.append((name, fn, design, modes))
        return fn
    return deco


class Env:
    """The little of RLTest's Env these tests need: commands (a first
    argument with spaces is split, as redis-py does), expected errors, a
    reload of the data set through the mode's persistence."""

    def __init__(self, server, name, decode=True, reload=None):
        self.s, self.name = server, name
        self.r = redis.Redis(port=server.port, socket_timeout=120, decode_responses=decode)
        self.reload = reload

    def cmd(self, *args):
        return self.r.execute_command(*args)

    def error(self, *args):
        """The error text of a command that must fail (None if it did not)."""
        try:
            self.cmd(*args)
        except redis.ResponseError as e:
            return str(e)
        check(False, "%s: %s should fail" % (self.name, args))
        return None

    def eq(self, got, want, what):
        eq(got, want, "%s: %s" % (self.name, what))

    def check(self, cond, what):
        check(cond, "%s: %s" % (self.name, what))

    def dump_and_reload(self):
        self.reload()


def info(env, key):
    lst = env.cmd("BF.INFO", key)
    return dict(zip(lst[0::2], lst[1::2]))


def debug_links(env, key):
    """BF.DEBUG's sub-filter lines as dicts of integers and the ratio."""
    out = []
    for line in env.cmd("BF.DEBUG", key)[1:]:
        f = dict(kv.split(":") for kv in line.split(" "))
        out.append({k: float(v) if k == "ratio" else int(v) for k, v in f.items()})
    return out


@flow("test_custom_filter")
def test_custom_filter(env):
    env.eq(env.cmd("bf.reserve", "test", "0.05", "1000"), "OK", "reserve")
    env.eq(env.cmd("bf.madd", "test", "foo", "bar", "baz"), [1, 1, 1], "madd")
    env.eq((env.cmd("bf.exists", "test", "foo"), env.cmd("bf.exists", "test", "nonexist")),
           (1, 0), "exists")
    env.check(env.error("bf.reserve", "test", "0.01") is not None, "reserve with 2 arguments")


@flow("test_set")
def test_set(env):
    env.eq(env.cmd("bf.add", "test", "foo"), 1, "add creates")
    env.eq((env.cmd("bf.exists", "test", "foo"), env.cmd("bf.exists", "test", "bar")), (1, 0),
           "exists")
    env.eq(env.cmd("bf.madd", "test", "foo", "bar"), [0, 1], "madd")
    env.eq([env.cmd("bf.exists", "test", x) for x in ("foo", "bar", "nonexist")], [1, 1, 0], "all")


@flow("test_multi")
def test_multi(env):
    env.eq(env.cmd("bf.madd", "test", "foo", "bar", "baz"), [1, 1, 1], "madd")
    env.eq(env.cmd("bf.madd", "test", "foo", "new1", "bar"), [0, 1, 0], "madd again")
    env.eq(env.cmd("bf.mexists", "test", "nonexist"), [0], "mexists one")
    env.eq(env.cmd("bf.mexists", "test", "nonexist", "foo"), [0, 1], "mexists two")


@flow("test_validation")
def test_validation(env):
    for args in ((), ("foo",), ("foo", "0.001"), ("foo", "0.001", "blah"), ("foo", "0", "0"),
                 ("foo", "0", "100"), ("foo", "blah", "1000"), ("foo", "7.7", "1000")):
        env.check(env.error("bf.reserve", *args) is not None, "reserve %s refused" % (args,))
    env.eq(env.cmd("bf.reserve", "test", "0.01", "1000"), "OK", "reserve")
    for cmd in ("bf.add", "bf.madd", "bf.exists", "bf.mexists"):
        for args in ((), ("test",)):
            env.check(env.error(cmd, *args) is not None, "%s %s refused" % (cmd, args))
    for cmd in ("bf.exists", "bf.add"):
        env.check(env.error(cmd, "test", 1, 2) is not None, cmd + " with 3 arguments")
    env.cmd("set", "foo", "bar")
    env.check(env.error("bf.reserve", "foo") is not None, "reserve onto a string")


@flow("test_oom")
def test_oom(env):
    env.check(env.error("bf.reserve", "test", 0.01, 4294967296 * 4294967296) is not None,
              "capacity 2^64 refused")


@flow("test_rdb_reload")
def test_rdb_reload(env):
    env.eq(env.cmd("bf.add", "test", "foo"), 1, "add")
    env.dump_and_reload()
    env.eq((env.cmd("bf.exists", "test", "foo"), env.cmd("bf.exists", "test", "bar")), (1, 0),
           "after reload")


@flow("test_dump_and_load")
def test_dump_and_load(env):
    env.cmd("bf.reserve", "myBloom", 0.001, 1000 * 1024 * 8)
    for args in (("bf.scandump", "myBloom"), ("bf.scandump", "myBloom", "str"),
                 ("bf.scandump", "myCuckoo", 0), ("bf.loadchunk", "myBloom"),
                 ("bf.loadchunk", "myBloom", "str", "data")):
        env.check(env.error(*args) is not None, "%s refused" % (args,))


@flow("test_missing")
def test_missing(env):
    env.eq(env.cmd("bf.exists", "myBloom", "foo"), 0, "exists")
    env.eq(env.cmd("bf.mexists", "myBloom", "foo", "bar", "baz"), [0, 0, 0], "mexists")


@flow("test_insert", design="the sub-filter's bytes, bits and hashes are our layout's (RedisBloom's "
      "classic 98880/791040/11 for 50000 at 0.0005); capacity, size and ratio are RedisBloom's")
def test_insert(env):
    for args in (("missingFilter", "NOCREATE", "ITEMS", "foo", "bar"),
                 ("missingFilter", "DONTEXIST", "NOCREATE"), ("missingFilter",),
                 ("missingFilter", "NOCREATE", "ITEMS"), ("missingFilter", "NOCREATE", "CAPACITY"),
                 ("missingFilter", "CAPACITY", 0.3), ("missingFilter", "ERROR"),
                 ("missingFilter", "ERROR", "big"), ("missingFilter", "EXPANSION", "0", "ITEMS", "foo"),
                 ("missingFilter", "EXPANSION", "big")):
        env.check(env.error("bf.insert", *args) is not None, "insert %s refused" % (args,))
    env.eq(env.cmd("BF.INSERT", "missingFilter", "ERROR", "0.001", "CAPACITY", "50000",
                   "EXPANSION", 2, "ITEMS", "foo"), [1], "insert creates")
    dbg = env.cmd("bf.debug", "missingFilter")
    link = debug_links(env, "missingFilter")[0]
    env.eq((dbg[0], len(dbg), link["capacity"], link["size"], link["ratio"]),
           ("size:1", 2, 50000, 1, 0.0005), "debug after one")
    env.eq(link["bytes"] * 8, link["bits"], "bytes and bits agree")
    env.eq(env.cmd("BF.INSERT", "missingFilter", "ERROR", "0.1", "ITEMS", "foo", "bar", "baz"),
           [0, 1, 1], "options of an existing key ignored")
    env.eq(env.cmd("bf.debug", "missingFilter")[0], "size:3", "debug after three")


@flow("test_mem_usage", design="MEMORY USAGE is our allocation (RedisBloom's 1104 bytes are its "
      "struct and bit array); we check it equals BF.INFO Size plus the key's object and stays so")
def test_mem_usage(env):
    env.eq(env.cmd("bf.reserve", "bf", "0.05", "1000"), "OK", "reserve")
    env.dump_and_reload()
    usage = env.cmd("MEMORY USAGE", "bf")
    size = env.cmd("bf.info", "bf", "size")[0]
    env.check(0 <= usage - size < 100, "MEMORY USAGE %d = Size %d + the key" % (usage, size))
    env.eq(env.cmd("bf.madd", "bf", "foo", "bar", "baz"), [1, 1, 1], "madd")
    env.eq(env.cmd("MEMORY USAGE", "bf"), usage, "adds do not allocate")
    env.check(env.error("bf.debug", "bf", "noexist") is not None, "debug arity")
    env.check(env.error("bf.debug", "cf") is not None, "debug of a missing key")


@flow("test_expansion", design="the number of sub-filters follows the items counted, which depend "
      "on false positives while adding (RedisBloom's 23 for expansion 1 reflects its hash); we "
      "check it is the fewest sub-filters of 4, 4e, 4e^2... that hold BF.CARD items")
def test_expansion(env):
    for e in (1, 2, 4):
        env.eq(env.cmd("bf.reserve exp%d 0.01 4 expansion %d" % (e, e)), "OK", "reserve %d" % e)
    for i in range(100):
        for e in (1, 2, 4):
            env.cmd("bf.add exp%d" % e, str(i))
    for e in (1, 2, 4):
        env.eq([env.cmd("bf.exists exp%d" % e, str(i)) for i in range(100)], [1] * 100,
               "every item of exp%d" % e)
        card, held, links, cap = env.cmd("bf.card", "exp%d" % e), 0, 0, 4
        while held < card:
            held, links, cap = held + cap, links + 1, cap * e
        env.eq(env.cmd("bf.info", "exp%d" % e)[5], links, "exp%d: %d items" % (e, card))
    for args in ("bf.reserve exp4 0.01 4 expansion", "bf.reserve exp4 0.01 4 expansion 0",
                 "bf.reserve exp4 0.01 4 expansion str"):
        env.check(env.error(args) is not None, args)


@flow("test_debug", design="bytes, bits and hashes are our layout's, and sub-filter i has rate "
      "r/((i+1)(i+2)), not RedisBloom's r/2^(i+1) (issue 33: the sum stays below r at every depth "
      "without asking deep sub-filters for 1e-20); RedisBloom's capacities, the first sub-filter "
      "at half the rate and per-sub-filter counts are checked")
def test_debug(env):
    env.eq(env.cmd("bf.reserve", "bf", "0.01", "10"), "OK", "reserve")
    for i in range(100):
        env.cmd("bf.add", "bf", str(i))
    for key, rate, cap, n in (("bf", 0.01, 10, 100), ("bf2", 0.001, 100, 4000)):
        if key == "bf2":
            env.eq(env.cmd("bf.reserve", key, rate, cap), "OK", "reserve")
            for i in range(n):
                env.cmd("bf.add", key, str(i))
        links = debug_links(env, key)
        env.eq(env.cmd("bf.debug", key)[0], "size:%d" % env.cmd("bf.card", key), key + " size")
        env.eq([x["capacity"] for x in links], [cap * 2 ** i for i in range(len(links))],
               key + " capacities")
        env.eq([round(x["ratio"] * (i + 1) * (i + 2) / rate, 4) for i, x in enumerate(links)],
               [1.0] * len(links), key + " ratios r/((i+1)(i+2))")
        env.eq([x["size"] for x in links[:-1]], [x["capacity"] for x in links[:-1]],
               key + " full sub-filters but the last")
        env.check(len(links) == (4 if key == "bf" else 6), key + ": %d sub-filters" % len(links))


@flow("test_info", design="Size is our allocation (RedisBloom's 296 for 100 at 0.001)")
def test_info(env):
    env.eq(env.cmd("bf.reserve", "bf", "0.001", "100"), "OK", "reserve")
    got = env.cmd("bf.info bf")
    env.eq(got[0::2], ["Capacity", "Size", "Number of filters", "Number of items inserted",
                       "Expansion rate"], "names")
    env.eq([got[1], got[5], got[7], got[9]], [100, 1, 0, 2], "values")
    env.check(0 <= env.cmd("MEMORY USAGE", "bf") - got[3] < 100, "Size: the allocation")
    env.check(env.error("bf.info", "cf") is not None, "missing key")
    env.check(env.error("bf.info") is not None, "arity")


def info_field(field, want):
    def test(env):
        env.eq(env.cmd("bf.reserve", "bf", "0.001", "100"), "OK", "reserve")
        env.eq(env.cmd("bf.info bf " + field), [want(env)], field)
    return test


flow("test_info_capacity")(info_field("capacity", lambda env: 100))
flow("test_info_size", design="Size is our allocation (RedisBloom's 296); we check it equals "
     "BF.INFO's full reply")(info_field("size", lambda env: info(env, "bf")["Size"]))
flow("test_info_filters")(info_field("filters", lambda env: 1))
flow("test_info_items")(info_field("items", lambda env: 0))
flow("test_info_expansion")(info_field("expansion", lambda env: 2))


@flow("test_info_errors")
def test_info_errors(env):
    env.eq(env.cmd("bf.reserve", "bf", "0.001", "100"), "OK", "reserve")
    env.check(env.error("bf.info", "bf", "capacity", "size") is not None, "two fields")
    env.check(env.error("bf.info", "bf", "wrong_value") is not None, "unknown field")


@flow("test_card")
def test_card(env):
    env.eq(env.cmd("bf.card not_exist"), 0, "missing key")
    env.eq(env.cmd("bf.reserve", "bf", "0.001", "100"), "OK", "reserve")
    env.eq(env.cmd("bf.card bf"), 0, "empty")
    env.eq(env.cmd("bf.add", "bf", "foo"), 1, "add")
    env.eq(env.cmd("bf.card bf"), 1, "one")
    env.check(env.error("bf.card") is not None, "arity")
    env.cmd("set", "key:string", "foo")
    env.check(env.error("bf.card", "key:string") is not None, "a string")


@flow("test_no_1_error_rate")
def test_no_1_error_rate(env):
    env.check(env.error("bf.reserve bf 1 1000") is not None, "rate 1")


@flow("test_error_rate", design="statistics: RedisBloom's 10,240 probes of the 0.001 filter see "
      "12 false positives (0.00117) where its 0.0005 first sub-filter expects 5, a 0.6% "
      "fluctuation with our hash; we check the rate over 102,400 probes")
def test_error_rate(env):
    for rate in (0.1, 0.01, 0.001, 0.0001):
        key = "bf%s" % rate
        env.cmd("bf.reserve", key, rate, 1024)
        env.cmd("bf.madd", key, *range(1024))
        probes = list(range(1024, 1024 * 101))
        hits = [x for i in range(0, len(probes), 10000)
                for x in env.cmd("bf.mexists", key, *probes[i:i + 10000])]
        fp = sum(hits) / len(hits)
        env.check(fp <= rate, "%s: measured %.5f over %d probes" % (key, fp, len(hits)))


@flow("test_no_scaling")
def test_no_scaling(env):
    env.eq(env.cmd("bf.reserve bf 0.01", 3, "nonscaling"), "OK", "reserve")
    env.eq([env.cmd("bf.add bf", i) for i in range(3)], [1, 1, 1], "three")
    env.check(env.error("bf.add bf extra") is not None, "full")
    env.check(env.error("bf.reserve bf_mix 0.01 1000 nonscaling expansion 2") is not None, "mix")
    env.eq(env.cmd("bf.reserve bfnonscale 0.001 1000 nonscaling"), "OK", "nonscale")
    env.eq(env.cmd("bf.reserve bfscale 0.001 1000"), "OK", "scale")
    env.check(env.cmd("bf.info bfnonscale")[3] < env.cmd("bf.info bfscale")[3],
              "a NONSCALING filter has the whole rate: smaller")


@flow("test_nonscaling_err", design="a multi-item add to a NONSCALING key adds all items or none "
      "(issue 19; RedisBloom adds up to the first error); Size is our allocation")
def test_nonscaling_err(env):
    env.eq(env.cmd("BF.INSERT nonscaling_err CAPACITY 3 NONSCALING ITEMS a b c"), [1, 1, 1], "3")
    env.eq(env.error("BF.INSERT nonscaling_err ITEMS a b c d d"), "non scaling filter is full",
           "refused whole")
    got = info(env, "nonscaling_err")
    env.eq((got["Capacity"], got["Number of filters"], got["Number of items inserted"],
            got["Expansion rate"]), (3, 1, 3, None), "unchanged")


@flow("test_invalid_expansion")
def test_invalid_expansion(env):
    env.eq(env.error("BF.RESERVE b 0.1 1 EXPANSION 0"), "expansion should be greater or equal to 1",
           "the text")


@flow("test_issue178", design="Size is our allocation: blocked at 5e-7 needs 1.54 GB where "
      "RedisBloom's classic takes 1,132,420,232 bytes; the default max-bytes accepts it",
      modes=("plain",))
def test_issue178(env):
    env.eq(env.cmd("bf.reserve bf", 0.000001, 300 * 1000 * 1000), "OK", "a 300M-item filter")
    got = info(env, "bf")
    env.eq(got["Capacity"], 300000000, "capacity")
    link = debug_links(env, "bf")[0]
    env.check(got["Size"] >= link["bytes"] > 1132420232, "Size %d" % got["Size"])
    env.cmd("DEL", "bf")


@flow("test_very_high_error_rate")
def test_very_high_error_rate(env):
    for key, rate, cap in (("bf1", 0.99, 3), ("bf2", 0.95, 8), ("bf3", 0.9999999999999999, 100)):
        env.eq(env.cmd("bf.reserve", key, rate, cap, "NONSCALING"), "OK", key)
        env.eq(env.cmd("bf.add", key, 1), 1, key + " add")
