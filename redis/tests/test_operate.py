"""make test-redis: operating the module (CONFIG SET/GET, the INFO section,
ACL categories, the name `bf`), the chain past its layout's floor, per-key
memory caps, and Guava counts. Each on a fresh server of its own, so that
totals can be checked exactly."""
import struct

import redis

from harness import Err, Server, Simple, check, eq, items, madd_all


def fresh(module, workdir, name, modargs=()):
    return Server(module, workdir, name, modargs=list(modargs)).start()


def test_configs(s):
    c = s.raw()
    got = c.cmd("CONFIG", "GET", "simdbloom.*")
    got = dict(zip(got[0::2], got[1::2]))
    eq(got, {b"simdbloom.initial-size": b"100", b"simdbloom.error-rate": b"0.01",
             b"simdbloom.expansion": b"2", b"simdbloom.layout": b"blocked",
             b"simdbloom.max-bytes": b"17179869184"}, "the defaults, RedisBloom's and ours")
    for name, value in (("initial-size", "500"), ("error-rate", "0.001"), ("expansion", "4"),
                        ("layout", "classic"), ("max-bytes", "1mb")):
        eq(c.cmd("CONFIG", "SET", "simdbloom." + name, value), Simple("OK"), "set " + name)
    eq(c.cmd("CONFIG", "GET", "simdbloom.max-bytes"), [b"simdbloom.max-bytes", b"1048576"],
       "memory units")
    eq(c.cmd("BF.ADD", "cfg", "x"), 1, "a key made under the new defaults")
    eq(c.cmd("BF.INFO", "cfg", "capacity"), [500], "initial-size")
    eq(c.cmd("BF.INFO", "cfg", "expansion"), [4], "expansion")
    info = c.cmd("SBF.INFO", "cfg")
    info = dict(zip(info[0::2], info[1::2]))
    eq((info["Layout"], info["Error rate"]), ("classic", b"0.001"), "layout and rate")
    err = c.cmd("BF.RESERVE", "cfg-big", "0.01", "10000000")
    eq(err, Err("ERR could not create filter: the filter would exceed the module's MAX_BYTES"),
       "max-bytes applies at once")
    for name, value in (("error-rate", "1"), ("error-rate", "x"), ("layout", "bogus"),
                        ("initial-size", "0"), ("expansion", "40000"), ("max-bytes", "1")):
        check(isinstance(c.cmd("CONFIG", "SET", "simdbloom." + name, value), Err),
              "CONFIG SET %s %s refused" % (name, value))
    eq(c.cmd("CONFIG", "GET", "simdbloom.error-rate"), [b"simdbloom.error-rate", b"0.001"],
       "a refused value changes nothing")
    c.close()


def test_info_section(s):
    """INFO simdbloom_stats: totals that match the keys, kept as they
    change (no key is visited to report them)."""
    r = s.r()

    def stats():
        st = r.info("simdbloom_stats")
        return {k[len("simdbloom_"):]: v for k, v in st.items()}

    eq({k: stats()[k] for k in ("keys", "filters", "items", "filter_bytes")},
       {"keys": 0, "filters": 0, "items": 0, "filter_bytes": 0}, "an empty server")
    r.execute_command("BF.RESERVE", "i1", "0.01", "100")
    madd_all(r, "i1", items("i", 1000))
    r.execute_command("SBF.RESERVE", "i2", "0.01", "50", "LAYOUT", "counting")
    r.execute_command("BF.MADD", "i2", "a", "a", "b")
    r.execute_command("COPY", "i1", "i3")
    st = stats()
    keys = ["i1", "i2", "i3"]
    filters = sum(r.execute_command("BF.INFO", k, "filters")[0] for k in keys)
    card = sum(r.execute_command("BF.CARD", k) for k in keys)
    used = sum(int(line.split(b" ")[0].split(b":")[1]) for k in keys
               for line in r.execute_command("BF.DEBUG", k)[1:])
    eq((st["keys"], st["filters"], st["items"], st["filter_bytes"]), (3, filters, card, used),
       "keys, sub-filters, items, bytes")
    check(st["memory"] >= used, "memory: every byte the filters hold (%d)" % st["memory"])
    r.execute_command("SBF.DEL", "i2", "a")
    eq(stats()["items"], card - 1, "a delete")
    r.execute_command("DEBUG", "RELOAD")
    eq(stats()["keys"], 3, "after a reload")
    r.execute_command("FLUSHALL")
    st = stats()
    eq((st["keys"], st["filters"], st["items"], st["filter_bytes"], st["memory"]), (0, 0, 0, 0, 0),
       "after FLUSHALL")


READS = ["bf.exists", "bf.mexists", "bf.info", "bf.card", "bf.debug", "bf.scandump", "sbf.info",
         "sbf.exportguava"]
WRITES = ["bf.reserve", "bf.add", "bf.madd", "bf.insert", "bf.loadchunk", "sbf.reserve", "sbf.del",
          "sbf.importguava"]


def test_acl(s):
    """ACL: Redis 7.0 puts module commands in no category (7.2 lets a module
    name existing ones, 7.4 add its own: @read/@write and @bloom there), so
    here users get the commands by name, as redis/README.md says; key specs make
    %R~ read-only key patterns work (test_key_commands)."""
    c = s.raw()
    cats = [x.decode() for x in c.cmd("ACL", "CAT")]
    member = {cat: {x.decode() for x in c.cmd("ACL", "CAT", cat)} for cat in cats}
    if "bloom" in cats:  # Redis >= 7.4
        check(set(READS + WRITES) <= member["bloom"], "@bloom has every command")
        check(set(READS) <= member["read"] and set(WRITES) <= member["write"], "@read, @write")
    elif any(set(READS) & m for m in member.values()):  # Redis 7.2
        check(set(READS) <= member["read"] and set(WRITES) <= member["write"], "@read, @write")
    else:
        check(not any(x.startswith(("bf.", "sbf.")) for m in member.values() for x in m),
              "Redis 7.0: in no category")
        check("no ACL category" in open(s.dir + "/redis.log").read(), "and the log says so")
    c.cmd("BF.ADD", "acl", "x")
    c.cmd("ACL", "SETUSER", "reader", "on", ">pw", "~*", "-@all", *("+" + x for x in READS))
    ro = s.raw()
    ro.cmd("AUTH", "reader", "pw")
    eq(ro.cmd("BF.EXISTS", "acl", "x"), 1, "README's read-only user queries")
    for cmd in (["BF.ADD", "acl", "y"], ["BF.RESERVE", "acl2", "0.1", "10"],
                ["BF.LOADCHUNK", "acl", "5", "abc"], ["SBF.DEL", "acl", "x"]):
        rep = ro.cmd(*cmd)
        check(isinstance(rep, Err) and rep.args[0].startswith("NOPERM"), "%s refused" % cmd[0])
    ro.close()
    c.cmd("ACL", "DELUSER", "reader")
    c.close()


def test_name_bf(module, workdir):
    """NAME bf: found as RedisBloom's module `bf` (valkey-bloom's test_basic
    looks for it), version 20628; configs and INFO follow the name."""
    s = fresh(module, workdir, "name-bf", ["NAME", "bf"])
    try:
        c = s.raw()
        mods = c.cmd("MODULE", "LIST")
        mods = [dict(zip(m[0::2], m[1::2])) for m in mods]
        eq([(m[b"name"], m[b"ver"]) for m in mods], [(b"bf", 20628)], "MODULE LIST")
        eq(c.cmd("CONFIG", "GET", "bf.error-rate"), [b"bf.error-rate", b"0.01"], "bf.error-rate")
        c.cmd("BF.ADD", "k", "x")
        check(b"bf_keys:1" in c.cmd("INFO", "bf_stats"), "INFO bf_stats")
        eq(c.cmd("TYPE", "k"), Simple("simdbloom"), "the type keeps its own name")
        c.close()
    finally:
        s.stop()


def test_floor(s):
    """Issue 19: blocked, 10 items at 1%, EXPANSION 1, then 943 distinct
    adds reached 94 sub-filters and 1.9 GB (each halves the rate; blocked
    layouts have a floor). Then the tail went classic; since issue 33 the
    rates fall as 1/((i+1)(i+2)), not 1/2^i, so every sub-filter stays
    blocked (a small classic filter misses its formula), and the key small."""
    r = s.r()
    r.execute_command("CONFIG", "SET", "simdbloom.max-bytes", "64mb")  # before the fix: refused
    r.execute_command("BF.RESERVE", "fl", "0.01", "10", "EXPANSION", "1")
    r.execute_command("SBF.RESERVE", "fl-ref", "0.01", "10", "LAYOUT", "classic", "EXPANSION", "1")
    for k in ("fl", "fl-ref"):
        madd_all(r, k, items("f", 943))
    mem, ref = (r.execute_command("MEMORY", "USAGE", k) for k in ("fl", "fl-ref"))
    check(mem < 200000, "943 items in %d bytes" % mem)
    check(mem <= ref * 3 // 2 + 65536, "within 1.5x of an all-classic chain (%d vs %d)" % (mem, ref))
    info = r.execute_command("SBF.INFO", "fl")
    subs = info[info.index(b"Filters") + 1]
    layouts = [x[x.index(b"Layout") + 1] for x in subs]
    eq(set(layouts), {b"blocked"}, "every sub-filter blocked")
    eq(sum(x[x.index(b"Items") + 1] for x in subs), r.execute_command("BF.CARD", "fl"), "counts")
    r.execute_command("CONFIG", "SET", "simdbloom.max-bytes", "17179869184")


def test_growth_cap(s):
    """Every key has a memory cap (max-bytes): a command whose growth would
    pass it is refused whole."""
    r = s.r()
    r.execute_command("BF.RESERVE", "cap", "0.01", "1000")
    madd_all(r, "cap", items("c", 1000))
    r.execute_command("CONFIG", "SET", "simdbloom.max-bytes", "4096")
    before = r.execute_command("DEBUG", "DIGEST-VALUE", "cap")
    try:
        r.execute_command("BF.MADD", "cap", *items("d", 100))
        check(False, "growth past max-bytes refused")
    except redis.ResponseError as e:
        eq(str(e), "could not grow the filter: the filter would exceed the module's MAX_BYTES",
           "growth past max-bytes refused")
    eq(r.execute_command("DEBUG", "DIGEST-VALUE", "cap"), before, "nothing changed")
    r.execute_command("CONFIG", "SET", "simdbloom.max-bytes", "17179869184")
    eq(r.execute_command("BF.MADD", "cap", *items("d", 100))[:3], [1, 1, 1], "then it grows")


def test_guava_all_ones(s):
    """Issue 19: an all-ones Guava filter made BF.CARD -9223372036854775808,
    which SCANDUMP/LOADCHUNK carried on. Now m/k * ln m, a lower bound."""
    c = s.raw()
    ones = bytes([1, 3]) + struct.pack(">i", 16) + b"\xff" * 128  # 1024 bits, k = 3
    eq(c.cmd("SBF.IMPORTGUAVA", "g1", ones), Simple("OK"), "import")
    want = round(1024 / 3 * 6.931471805599453)
    eq(c.cmd("BF.CARD", "g1"), want, "m/k * ln m")
    hdr = c.cmd("BF.SCANDUMP", "g1", 0)[1]
    c.cmd("BF.LOADCHUNK", "g2", 1, hdr)
    eq(c.cmd("BF.CARD", "g2"), want, "through SCANDUMP/LOADCHUNK")
    c.close()


def run_all(run, module, workdir):
    """Each group on a fresh server."""
    for name, fn in (("configs", test_configs), ("info", test_info_section), ("acl", test_acl),
                     ("floor", test_floor), ("growth-cap", test_growth_cap),
                     ("guava-ones", test_guava_all_ones)):
        s = fresh(module, workdir, "op-" + name)
        try:
            run(name, lambda: fn(s))
        finally:
            s.stop()
    run("name-bf", lambda: test_name_bf(module, workdir))
