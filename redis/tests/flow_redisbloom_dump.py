"""RedisBloom 2.6.28's flow tests of SCANDUMP/LOADCHUNK and loading
(tests/flow/test_overall.py, class testRedisBloomNoCodec) and of RESP3
(tests/flow/test_resp3.py), written again by us from the behaviour each one
checks, under the same names. See flow_redisbloom.py."""
import os
import random

import redis

from harness import Raw

TESTS = []


def flow(name, design=None, modes=("plain", "aof", "replica")):
    def deco(fn):
        TESTS.append((name, fn, design, modes))
        return fn
    return deco


def scan_all(env, key):
    chunks = []
    while True:
        last = chunks[-1][0] if chunks else 0
        chunk = env.cmd("bf.scandump", key, last)
        if not chunk[0]:
            return chunks
        chunks.append(chunk)


def dump_reload_check(env, key, reserve, items):
    """RedisBloom's SCANDUMP tests: fill, dump, delete, load, every item
    found again (in `dst`, or the same key)."""
    env.cmd("bf.reserve", key, *reserve)
    p = env.r.pipeline(transaction=False)
    for x in items:
        p.execute_command("bf.add", key, x)
    p.execute()
    chunks = scan_all(env, key)
    env.cmd("del", key)
    env.check(env.error("bf.loadchunk", key) is not None, "loadchunk arity")
    env.check(env.error("bf.loadchunk", key, "str") is not None, "loadchunk arity 2")
    for it, data in chunks:
        env.eq(env.cmd("bf.loadchunk", key, it, data), b"OK", "chunk %d" % it)
    env.eq(env.cmd("bf.mexists", key, *items), [1] * len(items), "every item after the load")
    return chunks


@flow("test_scandump")
def test_scandump(env):
    dump_reload_check(env, "bf", (0.01, 500 // 8), [str(x) for x in range(500)])
    for args in (("bf.scandump", "bf"), ("bf.scandump", "bf", "str"), ("bf.scandump", "noexist", "0")):
        env.check(env.error(*args) is not None, "%s refused" % (args,))


@flow("test_scandump_with_expansion")
def test_scandump_with_expansion(env):
    dump_reload_check(env, "bf", (0.01, 500 // 8, "expansion", "2"), [str(x) for x in range(500)])


@flow("test_scandump_huge")
def test_scandump_huge(env):
    chunks = dump_reload_check(env, "bf", (0.01, 1024 * 1024 * 64), ["foo"])
    env.check(len(chunks) >= 6, "%d chunks of at most 16 MiB" % len(chunks))


@flow("test_scandump_with_content")
def test_scandump_with_content(env):
    env.cmd("bf.reserve", "bf", 0.01, 1024 * 1024 * 64)
    its = ["foo%d" % x for x in range(1000)]
    env.cmd("bf.madd", "bf", *its)
    chunks = scan_all(env, "bf")
    env.cmd("del", "bf")
    for it, data in chunks:
        env.cmd("bf.loadchunk", "bf2", it, data)
    env.eq(env.cmd("bf.mexists", "bf2", *its), [1] * 1000, "every item in the new key")


@flow("test_scandump_invalid")
def test_scandump_invalid(env):
    env.cmd("bf.reserve", "bf", 0.1, 4)
    for it, data in (("-9223372036854775808", "1"), ("922337203685477588", "1"),
                     ("4", "kdoasdksaodsadsadsadsadsadadsadadsdad"), ("4", "abcd")):
        env.check(env.error("bf.loadchunk", "bf", it, data) is not None, "chunk %s refused" % it)
    env.eq([env.cmd("bf.add", "bf", x) for x in ("x", "y")], [1, 1], "the key still works")


@flow("test_scandump_invalid_header")
def test_scandump_invalid_header(env):
    env.cmd("bf.reserve", "bf", 0.01, 5)
    env.cmd("bf.madd", "bf", *["foo%d" % x for x in range(50)])
    hdr = env.cmd("bf.scandump", "bf", 0)[1]
    env.cmd("del", "bf")
    for spans in ([(72, 8)], [(12, 4)], [(0, 4)], [(36, 8), (0, 8)]):
        arr = bytearray(hdr)
        for at, n in spans:
            arr[at:at + n] = (b"\0" if spans == [(72, 8)] else b"\xff") * n
        env.eq(env.error("bf.loadchunk", "bf", 1, bytes(arr)), "received bad data",
               "header corrupt at %s" % spans)


def scan_random(env, key, n, spread):
    size = env.cmd("BF.INFO", key)
    size = size[size.index(b"Size") + 1]
    for _ in range(n):
        env.cmd("bf.scandump", key, random.randint(0, size * spread))


def insert_batches(env, key, batches, per):
    for i in range(batches):
        try:
            env.cmd("bf.insert", key, "ITEMS", *["x%d%d" % (i, j) for j in range(per)])
        except redis.ResponseError as e:
            if str(e) != "Maximum expansions reached":
                raise


@flow("test_scandump_scan_small")
def test_scandump_scan_small(env):
    env.cmd("bf.reserve", "bf", 0.1, 50)
    for i in range(1500):
        env.cmd("bf.add", "bf", "x%d" % i)
    size = env.cmd("BF.INFO", "bf")
    size = size[size.index(b"Size") + 1]
    for i in range(size + 1024):
        env.cmd("bf.scandump", "bf", i)
    env.check(True, "every iterator up to Size + 1024 answered")


@flow("test_scandump_scan_big")
def test_scandump_scan_big(env):
    """Scaled to bound CI time: 20 random iterators (RedisBloom: 100, each
    up to a 16 MiB chunk of a 72 MB filter)."""
    env.cmd("bf.reserve", "bf", 0.001, 1024, "EXPANSION", 30000)
    insert_batches(env, "bf", 100, 10000)
    scan_random(env, "bf", 20, 2)
    env.check(True, "random iterators answered")


def load_random(env, key, n, lo, hi, spread):
    size = env.cmd("BF.INFO", key)
    size = size[size.index(b"Size") + 1]
    ok = 0
    for _ in range(n):
        data = os.urandom(random.randint(lo, hi))
        try:
            env.cmd("bf.loadchunk", key, random.randint(0, size * spread), data)
            ok += 1
        except redis.ResponseError as e:
            env.check(str(e) in ("invalid offset - no link found",
                                 "invalid chunk - Too big for current filter",
                                 "received bad data"), "error text: %s" % e)
    return ok


@flow("test_scandump_load_small")
def test_scandump_load_small(env):
    env.cmd("bf.reserve", "bf", 0.01, 10)
    insert_batches(env, "bf", 100, 1000)
    load_random(env, "bf", 100, 0, 4096, 2)


@flow("test_scandump_load_big")
def test_scandump_load_big(env):
    """Scaled to bound CI time: 10 chunks of 1 KiB to 4 MiB (RedisBloom: 100
    of 1 KiB to 36 MiB); the behaviour checked is the same."""
    env.cmd("bf.reserve", "bf", 0.01, 1024, "EXPANSION", 30000)
    insert_batches(env, "bf", 100, 1000)
    load_random(env, "bf", 10, 1024, 4 << 20, 1)


@flow("test_insufficient_memory", design="skipped upstream too (env.skip(): the capacity is "
      "above 2^30); we check the same refusal")
def test_insufficient_memory(env):
    env.check(env.error("bf.reserve", "bf", 0.01, 1000000000000000000) is not None, "reserve")
    env.check(env.error("bf.insert", "bf", "capacity", 1000000000000000000, "error", 0.01,
                        "ITEMS", 1) is not None, "insert")


@flow("test_arbitrary_offset", design="SCANDUMP bytes are each implementation's own: "
      "RedisBloom's raw-struct header is bad data to us (ours is checksummed); the chunk at an "
      "offset past every sub-filter is refused as there")
def test_arbitrary_offset(env):
    rb_header = (b"\x11\x18\xf3\xdd\x74\x48\x01\x00\x01\x00\x00\x00\x01\x00\x00\x00\x01\x00\x00"
                 b"\x00\x01\x00\x00\x00\x00\x00\x00\x00\x08\x00\x00\x00\x00\x00\x00\x00")
    env.eq(env.error("bf.loadchunk", "k", 1, rb_header), "received bad data", "theirs")
    env.cmd("bf.reserve", "src", 0.1, 1)
    env.eq(env.cmd("bf.loadchunk", "k", 1, env.cmd("bf.scandump", "src", 0)[1]), b"OK", "ours")
    env.eq(env.cmd("bf.add", "k", 1), 1, "a key made by a header takes items")
    env.check("invalid offset" in env.error("bf.loadchunk", "k", 71752852194637, b"HELLO"),
              "an arbitrary offset")


@flow("test_load_error_handling")
def test_load_error_handling(env):
    payload = bytes([7, 0x81]) + b"0\x16\xe5\xa2\x89\xbe\xf8\x04\x02\x02" + b"\x00" * 40 + \
        b"\x0c\x00j\xb3hZ\xc1\xd7\xd5e"
    env.check("DUMP payload version or checksum are wrong" in env.error("restore", "a", 0, payload),
              "a payload whose checksum is wrong")


@flow("test_rdb_load_guards")
def test_rdb_load_guards(env):
    body = bytes([7, 0x81]) + b"0\x16\xe5\xa2\x89\xbe\xf8\x04" + b"\x81" + b"\x00" * 7 + b"\x02" * 9
    for payload in (body + b"X" * 600 + b"\x02\x00\x00\xff\x0c\x00" + b"\xee" * 8,
                    body + b"\x00" * 700 + b"\x0c\x00" + b"]?\x84\xd9\xa7\xa7\x8by"):
        env.check("DUMP payload version or checksum are wrong" in
                  env.error("RESTORE", "hax", 0, payload, "REPLACE"), "a forged payload")


@flow("test_load_bloom_with_large_number_of_filters", design="a multi-item add is all or none, "
      "and a chain stops growing at 256 sub-filters (or where its sub-filters' rate is past what "
      "the layout can give): the 5,001 items that would each need a "
      "sub-filter of one are refused whole; added one by one, the chain stops at its limit with "
      "an error, and the key reloads")
def test_load_bloom_with_large_number_of_filters(env):
    env.cmd("bf.reserve", "poc", 0.0001, 1, "EXPANSION", 1)
    err = env.error("bf.madd", "poc", "items", *[str(i) for i in range(10000, 15000)])
    env.check(err is not None and err.startswith("could not grow the filter: "), "refused: %s" % err)
    env.eq(env.cmd("bf.card", "poc"), 0, "nothing added")
    added, i = 0, 0
    while True:
        try:
            added += env.cmd("bf.add", "poc", str(i))
        except redis.ResponseError as e:
            env.check(str(e).startswith("could not grow the filter: "), "stops with: %s" % e)
            break
        i += 1
    links = env.cmd("bf.info", "poc", "filters")[0]
    env.eq(links, 256, "%d sub-filters of one item, %d items" % (links, added))
    env.dump_and_reload()
    env.eq(env.cmd("bf.info", "poc", "filters"), [links], "reloaded")


@flow("test_bf_resp3", design="no Cuckoo filters (CF.*: BF.* only), and Size is our allocation "
      "(RedisBloom's 240); the BF.* replies are RedisBloom's RESP3 types and values")
def test_bf_resp3(env):
    c = Raw(env.s.port, resp3=True)
    try:
        env.eq(c.cmd("bf.add", "test", "item"), True, "add: a boolean")
        env.eq(c.cmd("bf.card", "test"), 1, "card")
        env.eq(c.cmd("bf.EXISTS", "test", "item"), True, "exists")
        got = c.cmd("bf.info", "test")
        env.eq({k: v for k, v in got.items() if k != "Size"},
               {"Capacity": 100, "Number of filters": 1, "Number of items inserted": 1,
                "Expansion rate": 2}, "info is a map")
        env.eq(c.cmd("bf.insert", "test", "ITEMS", "item2", "item3", "item2"), [True, True, False],
               "insert")
        env.eq(c.cmd("bf.madd", "test", "item4", "item5", "item2"), [True, True, False], "madd")
        env.eq(c.cmd("bf.MEXISTS", "test", "item4", "item5", "item6"), [True, True, False],
               "mexists")
        env.check(str(c.cmd("CF.RESERVE", "a", "9")).startswith("ERR unknown command"), "no CF")
    finally:
        c.close()
