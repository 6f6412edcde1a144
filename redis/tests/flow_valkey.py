"""valkey-bloom's tests (tests/test_*.py of valkey-io/valkey-bloom, the 24 of
its first release), written again by us from the behaviour each checks,
under the same names. Where valkey-bloom differs from RedisBloom 2.6.28
(error texts, BF.INFO field replies, default capacity, type name) we follow
RedisBloom: those are "different by design" and check ours instead."""
import random
import string
import time

import redis

from flow_redisbloom import Env
from harness import Server, wait_for

TESTS = []


def flow(name, design=None):
    def deco(fn):
        TESTS.append((name, fn, design, ("plain",)))
        return fn
    return deco


def rand_prefix():
    return "".join(random.Random(7).choice(string.ascii_letters) for _ in range(7))


def madd_until(env, key, capacity, start, prefix):
    """valkey-bloom's add_items_till_capacity: batches of up to 1,000 new
    items until BF.CARD reaches capacity; returns (false positives, last)."""
    fp, idx, card = 0, start, env.cmd("BF.CARD", key)
    while card < capacity:
        batch = ["%s%d" % (prefix, idx + i) for i in range(min(1000, capacity - card))]
        idx += len(batch)
        for rep in env.cmd("BF.MADD", key, *batch):
            fp += rep == 0
            card += rep == 1
    return fp, idx - 1


def count_exists(env, key, lo, hi, prefix, want):
    errors = 0
    for b in range(lo, hi + 1, 1000):
        its = ["%s%d" % (prefix, i) for i in range(b, min(b + 999, hi) + 1)]
        errors += sum(x != want for x in env.cmd("BF.MEXISTS", key, *its))
    return errors, hi - lo + 1


@flow("test_basic", design="the module's name is `simdbloom` unless loaded with NAME bf; this "
      "test runs a server with NAME bf, as valkey-bloom's looks for `bf`")
def test_basic(env):
    mods = env.cmd("MODULE", "LIST")
    env.eq([m[1] for m in mods], [b"bf"], "MODULE LIST: bf")
    cmds = env.cmd("COMMAND")
    names = {(k if isinstance(k, str) else k.decode()).upper() for k in
             (cmds if isinstance(cmds, dict) else [c[0] for c in cmds])}
    env.check({"BF.ADD", "BF.EXISTS", "BF.MADD", "BF.MEXISTS", "BF.INFO", "BF.CARD",
               "BF.RESERVE", "BF.INSERT"} <= names, "every BF.* command")
    env.eq((env.cmd("BF.ADD filter1 item1"), env.cmd("BF.EXISTS filter1 item1"),
            env.cmd("BF.EXISTS filter1 item2")), (1, 1, 0), "add, exists")


@flow("test_copy_and_exists_cmd")
def test_copy_and_exists_cmd(env):
    madd = env.cmd("BF.MADD filter item1 item2 item3 item4")
    env.eq(env.cmd("EXISTS filter"), 1, "exists")
    mex = env.cmd("BF.MEXISTS filter item1 item2 item3 item4")
    env.eq((len(madd), len(mex), env.cmd("COPY filter new_filter")), (4, 4, 1), "copy")
    env.eq(env.cmd("BF.MEXISTS new_filter item1 item2 item3 item4"), mex, "the copy answers")


@flow("test_memory_usage_cmd")
def test_memory_usage_cmd(env):
    env.eq(env.cmd("BF.ADD filter item1"), 1, "add")
    usage, size = env.cmd("MEMORY USAGE filter"), env.cmd("BF.INFO filter SIZE")[0]
    env.check(usage > size > 0, "MEMORY USAGE %d > Size %d > 0" % (usage, size))


def maxmemory(env, policy, limit):
    env.cmd("CONFIG", "SET", "maxmemory-policy", policy)
    env.cmd("CONFIG", "SET", "maxmemory", limit)


def used_around(env, *cmd):
    """used_memory just before and just after cmd, with nothing but cmd
    allocating or freeing in between, and cmd's reply. Read by two separate
    INFOs, used_memory moved by -50..+50 KB around a ~640-byte filter: cron
    (10 times a second) shrinks and grows clients' reply buffers, and a
    connection closed by the previous test is freed whenever the server reads
    its EOF; a busy machine put one of them between the INFOs in about 1 run
    of 70, and "counted" failed. So both are read in one MULTI/EXEC (no cron,
    no other client, no freed connection in between), on a connection opened
    after `DEBUG REPLYBUFFER RESIZING 0` (its 16 KB reply buffer, which cron
    then leaves alone, holds every reply of the transaction: no reply block
    allocated in between), with latency tracking off (a command's first call
    since CONFIG RESETSTAT allocates its 24 KB histogram) and the slow log off
    (a command slowed past 10 ms by a busy machine adds an entry and may free
    the oldest)."""
    configs = {name: env.cmd("CONFIG", "GET", name)[1]
               for name in ("latency-tracking", "slowlog-log-slower-than")}
    env.cmd("CONFIG", "SET", "latency-tracking", "no", "slowlog-log-slower-than", "-1")
    env.cmd("DEBUG", "REPLYBUFFER", "RESIZING", "0")
    r = redis.Redis(port=env.s.port, socket_timeout=120)
    try:
        p = r.pipeline(transaction=True)
        p.info("memory")
        p.execute_command(*cmd)
        p.info("memory")
        before, reply, after = p.execute()
    finally:
        r.close()
        env.cmd("DEBUG", "REPLYBUFFER", "RESIZING", "1")
        env.cmd("CONFIG", "SET", *[x for kv in configs.items() for x in kv])
    return before["used_memory"], after["used_memory"], reply


def counted(env, key, used, after, what):
    """A new key's filter is in used_memory: the growth covers BF.INFO Size
    (every byte the filter holds, allocated through Redis) and is little more
    (the key's own object and dict entry)."""
    size = env.cmd("BF.INFO", key, "SIZE")[0]
    env.check(size <= after - used < size + 1024,
              "%s: used_memory +%d for a %d-byte filter" % (what, after - used, size))


@flow("test_large_allocation_when_below_maxmemory")
def test_large_allocation_when_below_maxmemory(env):
    try:
        maxmemory(env, "allkeys-lru", 2 << 20)
        used, after, rep = used_around(env, "BF.ADD", "filter", "item1")
        env.check(rep == 1 and after < 2 << 20, "a small key under maxmemory")
        counted(env, "filter", used, after, "a small key counted")
        env.eq(env.cmd("BF.RESERVE newfilter 0.001 10000000"), b"OK", "a 20 MB filter")
        env.check(env.cmd("DBSIZE") < 2 and env.r.info("stats")["evicted_keys"] > 0, "evictions")
        env.check(env.r.info("memory")["used_memory"] < 2 << 20, "back under maxmemory")
        env.cmd("FLUSHALL")
        env.cmd("BF.ADD filter item1")
        env.cmd("CONFIG", "SET", "maxmemory-policy", "volatile-lru")
        env.eq(env.cmd("BF.RESERVE newfilter 0.001 10000000"), b"OK", "volatile-lru")
        env.eq(env.cmd("DBSIZE"), 2, "nothing volatile to evict")
        env.check(env.r.info("memory")["used_memory"] > 2 << 20, "over maxmemory")
    finally:
        maxmemory(env, "noeviction", 0)


@flow("test_large_allocation_when_above_maxmemory")
def test_large_allocation_when_above_maxmemory(env):
    """maxmemory below what eviction can reach (half the memory in use;
    valkey-bloom sets it to the use before one small key, which evicting
    that key may or may not get under, by a few bytes of overhead)."""
    try:
        env.cmd("CONFIG", "SET", "maxmemory-policy", "allkeys-lru")
        used, after, rep = used_around(env, "BF.ADD", "filter", "item1")
        env.eq(rep, 1, "added")
        counted(env, "filter", used, after, "counted")
        env.cmd("CONFIG", "RESETSTAT")
        for i, policy in enumerate(("allkeys-lru", "volatile-lru")):
            maxmemory(env, policy, used // 2)
            err = env.error("BF.RESERVE newfilter 0.001 10000000") or ""
            env.check("command not allowed when used memory > 'maxmemory'" in err, policy)
            oom = env.r.info("errorstats")["errorstat_OOM"]
            count = oom["count"] if isinstance(oom, dict) else int(str(oom).split("=")[1])
            env.eq(count, i + 1, "OOM counted")
    finally:
        maxmemory(env, "noeviction", 0)


@flow("test_module_data_type", design="our type is `simdbloom` (valkey-bloom's `bloomfltr`, "
      "RedisBloom's `MBbloom--`: each reads only its own RDB encoding)")
def test_module_data_type(env):
    env.eq(env.cmd("BF.ADD filter item1"), 1, "add")
    env.eq((env.cmd("TYPE filter"), env.cmd("OBJECT ENCODING filter")), (b"simdbloom", b"raw"),
           "type and encoding")


@flow("test_bloom_obj_access")
def test_bloom_obj_access(env):
    env.eq((env.cmd("BF.ADD key1 val1"), env.cmd("BF.ADD key2 val2")), (1, 1), "adds")
    env.eq((env.cmd("TOUCH key1 key2"), env.cmd("TOUCH key3"), env.cmd("DBSIZE")), (2, 0, 2),
           "TOUCH, DBSIZE")
    env.check(env.cmd("RANDOMKEY") in (b"key1", b"key2"), "RANDOMKEY")


@flow("test_bloom_transaction")
def test_bloom_transaction(env):
    p = env.r.pipeline(transaction=True)
    for c in ("BF.ADD M1 V1", "BF.ADD M2 V2", "BF.EXISTS M1 V1", "DEL M1", "BF.EXISTS M1 V1"):
        p.execute_command(c)
    env.eq(p.execute(), [1, 1, 1, 1, 0], "MULTI/EXEC")
    env.eq((env.cmd("BF.EXISTS M2 V2"), env.cmd("BF.EXISTS M1 V1"), env.cmd("DBSIZE")), (1, 0, 1),
           "after")


@flow("test_bloom_lua")
def test_bloom_lua(env):
    env.r.eval("redis.call('BF.ADD', 'LUA1', 'ITEM1'); redis.call('BF.ADD', 'LUA2', 'ITEM2'); "
               "redis.call('BF.MADD', 'LUA2', 'ITEM3', 'ITEM4', 'ITEM5');", 0)
    env.eq(env.cmd("BF.MEXISTS LUA2 ITEM1 ITEM3 ITEM4"), [0, 1, 1], "from Lua")
    env.eq(env.cmd("DBSIZE"), 2, "two keys")


@flow("test_bloom_deletes")
def test_bloom_deletes(env):
    env.cmd("BF.ADD filter1 item1")
    env.eq((env.cmd("DEL filter1"), env.cmd("BF.EXISTS filter1 item1"), env.cmd("DBSIZE")),
           (1, 0, 0), "DEL")
    for i in range(10):
        env.cmd("BF.ADD", "SAMPLE%d" % i, "FOO")
    env.eq(env.cmd("DBSIZE"), 10, "ten")
    env.cmd("FLUSHALL")
    env.eq(env.cmd("DBSIZE"), 0, "FLUSHALL")
    env.cmd("BF.ADD A ITEMA")
    env.cmd("BF.ADD B ITEMB")
    env.eq((env.cmd("UNLINK A B C"), env.cmd("BF.MEXISTS A ITEMA ITEMB"), env.cmd("DBSIZE")),
           (2, [0, 0], 0), "UNLINK")


@flow("test_bloom_expiration")
def test_bloom_expiration(env):
    env.cmd("BF.ADD TEST_IDLE val3")
    time.sleep(1.1)
    env.eq(env.cmd("OBJECT IDLETIME test_idle"), None, "no such key")
    env.check(env.cmd("OBJECT IDLETIME TEST_IDLE") > 0, "idle time")
    env.cmd("BF.ADD TEST_EXP ITEM")
    env.eq(env.cmd("TTL TEST_EXP"), -1, "no TTL")
    env.eq(env.cmd("PEXPIRE TEST_EXP 200"), 1, "PEXPIRE (valkey-bloom: EXPIREAT now + 5)")
    wait_for(lambda: env.cmd("BF.EXISTS TEST_EXP ITEM") == 0, "expiry")
    env.cmd("BF.ADD TEST_PERSIST ITEM")
    env.eq(env.cmd("EXPIREAT TEST_PERSIST %d" % (time.time() + 100000)), 1, "EXPIREAT")
    env.check(env.cmd("TTL TEST_PERSIST") > 0, "TTL")
    env.eq((env.cmd("PERSIST TEST_PERSIST"), env.cmd("TTL TEST_PERSIST")), (1, -1), "PERSIST")


@flow("test_bloom_command_arity")
def test_bloom_command_arity(env):
    for cmd in ("bf.exists", "bf.add", "bf.mexists", "bf.madd", "bf.card", "bf.reserve", "bf.info",
                "bf.insert"):
        env.eq(env.cmd("COMMAND", "INFO", cmd)[cmd]["arity"], -1,
               cmd + ": arity -1 (checked by the module)")


# valkey-bloom's cases: every one is an error here too; the texts are
# RedisBloom 2.6.28's where valkey-bloom chose its own.
ERROR_CASES = [
    ("BF.INFO TEST404", "not found"),
    ("BF.ADD bf_non 2", "non scaling filter is full"),
    ("bf.info key item", "Invalid information value"),
    ("bf.insert key CAPACITY 10000 ERROR 0.01 EXPANSION 0.99 NOCREATE NONSCALING ITEMS a b c",
     "Bad expansion"),
    ("BF.INSERT KEY HELLO WORLD", "Unknown argument received"),
    ("BF.INSERT KEY error 2 ITEMS test1", "Bad argument received"),
    ("BF.INSERT TEST_LIMIT ERROR 0.999999999 ITEMS ERROR_RATE", None),
    ("BF.INSERT TEST_LIMIT CAPACITY 4394967295 ITEMS CAP", "Bad capacity"),
    ("BF.INSERT TEST_LIMIT CAPACITY 0 ITEMS CAP0", "Bad argument received"),
    ("BF.INSERT TEST_LIMIT EXPANSION 11 ITEMS EXPAN", None),
    ("BF.INSERT TEST_NOCREATE NOCREATE ITEMS A B", "not found"),
    ("BF.RESERVE KEY String 100", "bad error rate"),
    ("BF.RESERVE KEY 0.999999999 3000", None),
    ("BF.RESERVE KEY 2 100", "(0 < error rate range < 1) "),
    ("BF.RESERVE KEY 0.01 String", "bad capacity"),
    ("BF.RESERVE KEY 0.01 0.01", "bad capacity"),
    ("BF.RESERVE KEY 0.01 -1", "(capacity should be larger than 0)"),
    ("BF.RESERVE KEY 0.01 4394967295", "capacity must be in the range [1, 1073741824]"),
    ("BF.RESERVE bf 0.01 1000", "item exists"),
    ("BF.RESERVE TEST_CAP 0.50 0", "(capacity should be larger than 0)"),
    ("BF.RESERVE TT1 0.01 1 NONSCALING test1 test2 test3",
     "wrong number of arguments for 'bf.reserve' command"),
    ("BF.RESERVE TT 0.01 1 NONSCALING EXPANSION 1", "Nonscaling filters cannot expand"),
]
ARITY_CASES = ["BF.ADD TEST", "BF.ADD", "BF.ADD HELLO TEST WORLD", "BF.CARD KEY ITEM", "bf.card",
               "BF.EXISTS", "bf.exists item", "bf.exists key item hello", "BF.INFO",
               "bf.info key capacity size", "BF.INSERT", "BF.INSERT KEY", "BF.INSERT KEY HELLO",
               "BF.INSERT MISS_ITEM EXPANSION 2", "BF.INSERT MISS_ITEM EXPANSION 2 ITEMS",
               "BF.INSERT MISS_VAL ERROR 0.5 EXPANSION", "BF.INSERT MISS_VAL ERROR 0.5 CAPACITY",
               "BF.INSERT MISS_VAL EXPANSION 2 EXPANSION", "BF.INSERT MISS_VAL EXPANSION 1 error",
               "BF.MADD", "BF.MADD KEY", "BF.MEXISTS", "BF.MEXISTS INFO", "BF.RESERVE",
               "BF.RESERVE KEY", "BF.RESERVE KEY SSS"]


@flow("test_bloom_command_error", design="error texts are RedisBloom 2.6.28's (valkey-bloom's own "
      "differ, e.g. 'bad expansion' for EXPANSION 0.99); three of its cases are accepted: "
      "ERROR 0.999999999 and EXPANSION 11 are valid rates and expansions in RedisBloom")
def test_bloom_command_error(env):
    env.eq(env.cmd("BF.ADD key item"), 1, "set-up")
    env.cmd("BF.RESERVE bf 0.01 1000")
    env.cmd("BF.RESERVE bf_non 0.01 2 NONSCALING")
    env.cmd("BF.MADD bf_non 0 1")
    for cmd, want in ERROR_CASES:
        if want is None:
            env.check(env.cmd(cmd) is not None, cmd + ": accepted")
        else:
            env.eq(env.error(cmd), want, cmd)
    for cmd in ARITY_CASES:
        env.eq(env.error(cmd), "wrong number of arguments for '%s' command" %
               cmd.split()[0].lower(), cmd)


BEHAVIOUR = [
    ("BF.ADD key item", 1), ("BF.ADD key item", 0), ("BF.ADD key item1", 1),
    ("BF.EXISTS key item", 1), ("BF.EXISTS key item2", 0), ("BF.MADD key item item2", [0, 1]),
    ("BF.EXISTS key item", 1), ("BF.EXISTS key item2", 1), ("BF.EXISTS key item3", 0),
    ("BF.MADD hello world1 world2 world3", [1, 1, 1]),
    ("BF.MADD hello world1 world2 world3 world4", [0, 0, 0, 1]),
    ("BF.MEXISTS hello world5", [0]), ("BF.MADD hello world5", [1]),
    ("BF.MEXISTS hello world5 world6 world7", [1, 0, 0]),
    ("BF.INSERT TEST ITEMS ITEM", [1]), ("BF.INSERT TEST CAPACITY 1000 ITEMS ITEM", [0]),
    ("BF.INSERT TEST CAPACITY 200 error 0.50 ITEMS ITEM ITEM1 ITEM2", [0, 1, 1]),
    ("BF.INSERT TEST CAPACITY 300 ERROR 0.50 EXPANSION 1 ITEMS ITEM FOO", [0, 1]),
    ("BF.INSERT TEST ERROR 0.50 EXPANSION 3 NOCREATE items BOO", [1]),
    ("BF.INSERT TEST ERROR 0.50 EXPANSION 1 NOCREATE NONSCALING items BOO", [0]),
    ("BF.INSERT TEST_EXPANSION EXPANSION 9 ITEMS ITEM", [1]),
    ("BF.INSERT TEST_CAPACITY CAPACITY 2000 ITEMS ITEM", [1]),
    ("BF.INSERT TEST_ITEMS ITEMS 1 2 3 EXPANSION 2", [1, 1, 1, 1, 0]),
    ("BF.INFO TEST Capacity", [100]), ("BF.INFO TEST ITEMS", [5]), ("BF.INFO TEST filters", [1]),
    ("bf.info TEST expansion", [2]), ("BF.INFO TEST_EXPANSION EXPANSION", [9]),
    ("BF.INFO TEST_CAPACITY CAPACITY", [2000]), ("BF.CARD key", 3), ("BF.CARD hello", 5),
    ("BF.CARD TEST", 5), ("bf.card HELLO", 0), ("BF.RESERVE bf 0.01 1000", b"OK"),
    ("BF.RESERVE bf_exp 0.01 1000 EXPANSION 2", b"OK"),
    ("BF.RESERVE bf_non 0.01 1000 NONSCALING", b"OK"), ("bf.info bf_exp expansion", [2]),
    ("BF.INFO bf_non expansion", [None]),
]


@flow("test_bloom_command_behavior", design="BF.INFO key FIELD is RedisBloom's one-element array "
      "and a created key's default capacity RedisBloom's 100 (valkey-bloom: a bare value, 100000)")
def test_bloom_command_behavior(env):
    for cmd, want in BEHAVIOUR:
        env.eq(env.cmd(cmd), want, cmd)
    env.eq(env.cmd("BF.RESERVE BF_INFO 0.50 2000 NONSCALING"), b"OK", "reserve")
    full = env.cmd("BF.INFO BF_INFO")
    full = dict(zip(full[0::2], full[1::2]))
    for name, field in ((b"Capacity", "CAPACITY"), (b"Number of filters", "FILTERS"),
                        (b"Number of items inserted", "ITEMS"), (b"Expansion rate", "EXPANSION")):
        env.eq(env.cmd("BF.INFO BF_INFO " + field), [full[name]], field)


def correctness(env, filter_name, capacity, expansion, scale_outs):
    """valkey-bloom's correctness tests: fill, then every added item found,
    false positives within 0.001 + 0.002 while adding and querying, and the
    same on a COPY."""
    prefix = rand_prefix()
    fp, last, total = 0, 0, 0
    for step in range(1, scale_outs + 1):
        total = capacity * (expansion ** step - 1) // (expansion - 1) if expansion > 1 else capacity
        f, last = madd_until(env, filter_name, total, last + 1, prefix)
        fp += f
        inf = env.cmd("BF.INFO", filter_name)
        inf = dict(zip(inf[0::2], inf[1::2]))
        env.eq((inf[b"Capacity"], inf[b"Number of items inserted"], inf[b"Number of filters"]),
               (total, total, step), "after %d sub-filters" % step)
    env.check(fp / last < 0.003, "false positives while adding: %d of %d" % (fp, last))
    env.cmd("COPY", filter_name, "filter_copy")
    for key in (filter_name, "filter_copy"):
        env.eq(count_exists(env, key, 1, last, prefix, 1)[0], 0, key + ": every item")
        errors, n = count_exists(env, key, last + 1, 2 * last, prefix, 0)
        env.check(errors / n < 0.003, "%s: false positives %d of %d" % (key, errors, n))


@flow("test_non_scaling_filter")
def test_non_scaling_filter(env):
    env.eq(env.cmd("BF.RESERVE filter1 0.001 10000 NONSCALING"), b"OK", "reserve")
    correctness(env, "filter1", 10000, 1, 1)
    env.eq(env.error("BF.ADD filter1 new_item"), "non scaling filter is full", "full")


@flow("test_scaling_filter")
def test_scaling_filter(env):
    env.eq(env.cmd("BF.RESERVE filter1 0.001 10000 EXPANSION 2"), b"OK", "reserve")
    correctness(env, "filter1", 10000, 2, 5)


@flow("test_basic_save_and_restore")
def test_basic_save_and_restore(env):
    env.eq(env.cmd("BF.ADD testSave item"), 1, "add")
    info = env.cmd("BF.INFO testSave")
    env.r.bgsave()
    wait_for(lambda: env.r.info("persistence")["rdb_bgsave_in_progress"] == 0, "BGSAVE")
    env.s.stop()
    env.s.start()
    env.r = redis.Redis(port=env.s.port, socket_timeout=120)
    env.eq((env.cmd("DBSIZE"), env.cmd("BF.EXISTS testSave item"), env.cmd("BF.INFO testSave")),
           (1, 1, info), "after a restart")


@flow("test_create")
def test_create(env):
    bf = env.r.bf()
    env.check(bf.create("bloom", 0.01, 1000) and bf.create("bloom_e", 0.01, 1000, expansion=1) and
              bf.create("bloom_ns", 0.01, 1000, noScale=True), "redis-py creates")


@flow("test_bf_add")
def test_bf_add(env):
    bf = env.r.bf()
    bf.create("bloom", 0.01, 1000)
    env.eq((bf.add("bloom", "foo"), bf.add("bloom", "foo")), (1, 0), "add")
    env.eq((bf.madd("bloom", "foo"), bf.madd("bloom", "foo", "bar"),
            bf.madd("bloom", "foo", "bar", "baz")), ([0], [0, 1], [0, 0, 1]), "madd")
    env.eq((bf.exists("bloom", "foo"), bf.exists("bloom", "noexist"),
            bf.mexists("bloom", "foo", "noexist")), (1, 0, [1, 0]), "exists")


@flow("test_bf_insert")
def test_bf_insert(env):
    bf = env.r.bf()
    bf.create("bloom", 0.01, 1000)
    env.eq((bf.insert("bloom", ["foo"]), bf.insert("bloom", ["foo", "bar"]),
            bf.insert("captest", ["foo"], capacity=10), bf.insert("errtest", ["foo"], error=0.01)),
           ([1], [0, 1], [1], [1]), "insert")
    info = bf.info("bloom")
    env.eq((info.insertedNum, info.capacity, info.filterNum), (2, 1000, 1), "redis-py BFInfo")


@flow("test_bf_info")
def test_bf_info(env):
    bf = env.r.bf()
    bf.create("nonscaling", "0.0001", "1000", noScale=True)
    env.eq(bf.info("nonscaling").expansionRate, None, "nonscaling")
    bf.create("expanding", "0.0001", "1000", expansion=4)
    env.eq(bf.info("expanding").expansionRate, 4, "expanding")
    try:
        bf.create("myBloom", "0.0001", "1000", expansion=4, noScale=True)
        env.check(False, "noScale with expansion refused")
    except redis.ResponseError:
        pass


@flow("test_bf_card")
def test_bf_card(env):
    """Debian's redis-py 4.3.4 has no bf().card(): BF.CARD itself."""
    env.eq((env.cmd("BF.CARD", "not_exist"), env.r.bf().add("bf1", "item_foo"),
            env.cmd("BF.CARD", "bf1")), (0, 1, 1), "card")
    env.r.set("setKey", "value")
    env.check(env.error("BF.CARD", "setKey") is not None, "a string")


def replication_pair(module, workdir):
    p = Server(module, workdir, "vk-primary").start()
    p.r().config_set("repl-diskless-sync-delay", 0)
    rep = Server(module, workdir, "vk-replica", ["--replicaof", "127.0.0.1", str(p.port)]).start()
    wait_for(lambda: rep.r().info("replication").get("master_link_status") == "up", "link")
    return p, rep


def synced(p, rep):
    want = p.r().info("replication")["master_repl_offset"]
    wait_for(lambda: rep.r().info("replication")["slave_repl_offset"] >= want, "replica offset")


def test_replication(run, module, workdir, results):
    """test_replication_success and test_replication_behavior, on a primary
    and a replica of their own."""
    p, rep = replication_pair(module, workdir)
    try:
        pe, re_ = Env(p, "test_replication_success"), Env(rep, "test_replication_success")
        pe.cmd("BF.ADD key item1")
        synced(p, rep)
        for c in ("BF.EXISTS key item1", "BF.EXISTS key item2", "BF.INFO key"):
            pe.eq(re_.cmd(c), pe.cmd(c), c + " on the replica")
        results.append(("test_replication_success", "pass"))
        replication_behavior(p, rep)
        results.append(("test_replication_behavior", "different by design, because creations "
                        "replicate as SBF.RESERVE with every parameter (the replica counts no "
                        "BF.RESERVE call); adds of present items, reads and refused commands "
                        "are not replicated, as valkey-bloom's"))
    finally:
        rep.stop()
        p.stop()


def replication_behavior(p, rep):
    pe, re_ = Env(p, "test_replication_behavior"), Env(rep, "test_replication_behavior")

    def stats(e):
        return e.r.info("commandstats")

    for create, add, name in (("BF.ADD key item", "BF.ADD key item1", "bf.add"),
                              ("BF.MADD key item", "BF.MADD key item1", "bf.madd"),
                              ("BF.INSERT key items item", "BF.INSERT key items item1", "bf.insert")):
        for c in (create, add, add):
            pe.cmd(c)
        synced(p, rep)
        pe.eq(re_.cmd("BF.EXISTS key item1"), 1, name + ": replicated")
        pe.eq(stats(re_)["cmdstat_" + name]["calls"], 2, name + ": an add of a present item is "
              "not replicated")
        pe.eq(stats(re_)["cmdstat_sbf.reserve"]["calls"], 1, name + ": the creation, SBF.RESERVE")
        pe.cmd("FLUSHALL")
        synced(p, rep)
        pe.cmd("CONFIG RESETSTAT")
        re_.cmd("CONFIG RESETSTAT")
    pe.cmd("BF.ADD key item1")
    synced(p, rep)
    re_.cmd("CONFIG RESETSTAT")
    for c in ("BF.EXISTS key item1", "BF.MEXISTS key item1 item2", "BF.INFO key", "BF.CARD key"):
        pe.cmd(c)
    for c in ("BF.ADD key item1 item2", "BF.MADD key", "BF.RESERVE key 1.001 100000",
              "BF.INSERT key CAPACITY 0 items item"):
        pe.check(pe.error(c) is not None, c + " refused")
    pe.cmd("BF.ADD key item1")  # present: no change
    synced(p, rep)
    names = [k for k in stats(re_) if k.startswith(("cmdstat_bf.", "cmdstat_sbf."))]
    pe.eq(names, [], "reads, refused commands and no-op adds are not replicated")


def run_valkey(run, module, workdir, mode_runner):
    """Every valkey-bloom test: test_basic on a server loaded with NAME bf,
    the replication ones on a pair, the rest one by one on a plain server."""
    results = []
    run("vk-plain", lambda: results.extend(
        mode_runner(module, workdir, "plain", [t for t in TESTS if t[0] != "test_basic"], "vk",
                    lambda s, n, reload: Env(s, n, False, reload))))
    s = Server(module, workdir, "vk-bf", modargs=["NAME", "bf"]).start()
    try:
        def basic():
            from harness import FAILED_COUNT
            before = FAILED_COUNT()
            test_basic(Env(s, "test_basic", False))
            results.insert(0, ("test_basic", "different by design, because " + TESTS[0][2]
                               if FAILED_COUNT() == before else "FAIL"))
        run("vk-basic", basic)
    finally:
        s.stop()
    run("vk-replication", lambda: test_replication(run, module, workdir, results))
    return results
