"""make test-redis: SBF.* commands, key commands, ACL, redis-py, binary items."""
import os
import struct

from harness import VECTORS, Err, Simple, check, eq, mexists_all


def test_extras(s):
    r = s.r()
    c = s.raw()
    for layout in ("classic", "blocked", "split-block", "counting", "blocked-xxh3",
                   "split-block-xxh3", "counting-xxh3", "blocked-fmix", "split-block-fmix"):
        key = "lay-" + layout
        eq(c.cmd("SBF.RESERVE", key, "0.01", "1000", "LAYOUT", layout), Simple("OK"), "reserve " + layout)
        eq(c.cmd("BF.MADD", key, "a", "b"), [1, 1], "madd " + layout)
        info = c.cmd("SBF.INFO", key)
        info = dict(zip(info[0::2], info[1::2]))
        eq(info["Layout"], layout, "SBF.INFO layout")
        check(info["ISA"] in ("scalar", "simde", "avx2", "avx512", "neon"), "SBF.INFO ISA")
        sub = dict(zip(info["Filters"][0][0::2], info["Filters"][0][1::2]))
        check(sub["Bits"] > 0 and sub["Hashes"] > 0, "SBF.INFO bits and k")
        check(float(info["False positive rate now"]) < 1e-6, "SBF.INFO FPR now for 2 items")
    eq(c.cmd("SBF.RESERVE", "x", "0.01", "10", "LAYOUT", "nope"),
       Err("ERR layout must be classic, blocked, split-block, counting, blocked-xxh3, "
           "split-block-xxh3, counting-xxh3, blocked-fmix or split-block-fmix"), "bad layout")
    eq(c.cmd("SBF.RESERVE", "x", "0.01", "10", "FOO"), Err("Unknown argument received"), "sbf unknown")
    # counting: deletion
    eq(c.cmd("BF.INFO", "lay-counting", "expansion"), [None], "counting keys do not scale")
    eq(c.cmd("SBF.DEL", "lay-counting", "a"), 1, "del present")
    eq(c.cmd("BF.EXISTS", "lay-counting", "a"), 0, "gone after del")
    eq(c.cmd("BF.EXISTS", "lay-counting", "b"), 1, "others stay")
    eq(c.cmd("SBF.DEL", "lay-counting", "a"), 0, "del absent")
    eq(c.cmd("BF.ADD", "lay-counting", "b"), 0, "counting add of a present item")
    eq(c.cmd("SBF.DEL", "lay-counting", "b"), 1, "one of two adds removed")
    eq(c.cmd("BF.EXISTS", "lay-counting", "b"), 1, "b added twice, removed once")
    eq(c.cmd("BF.CARD", "lay-counting"), 1, "counting card")
    eq(c.cmd("SBF.DEL", "lay-blocked", "a"), Err("ERR SBF.DEL needs a counting filter"), "del blocked")
    eq(c.cmd("SBF.DEL", "nokey", "a"), Err("ERR not found"), "del missing")
    # Guava: a filter Guava 31.1 wrote, and its answers for 20000 probes
    with open(os.path.join(VECTORS, "guava_long1k.bin"), "rb") as f:
        gbytes = f.read()
    with open(os.path.join(VECTORS, "guava_long1k_probes.txt")) as f:
        want = "".join(l.strip() for l in f if not l.startswith("#"))
    eq(c.cmd("SBF.IMPORTGUAVA", "gv", gbytes), Simple("OK"), "import Guava")
    probes = [struct.pack("<q", i) for i in range(20000)]
    got = "".join(str(int(x)) for x in mexists_all(r, "gv", probes))
    eq(got, want, "Guava's own answers for 20000 binary probes")
    eq(c.cmd("SBF.EXPORTGUAVA", "gv"), gbytes, "export gives Guava's bytes back")
    eq(c.cmd("BF.INFO", "gv", "expansion"), [None], "imported keys do not scale")
    eq(c.cmd("SBF.IMPORTGUAVA", "gv", gbytes), Err("ERR item exists"), "import onto a key")
    eq(isinstance(c.cmd("SBF.IMPORTGUAVA", "gv2", gbytes[:-3]), Err), True, "truncated Guava")
    eq(isinstance(c.cmd("SBF.IMPORTGUAVA", "gv2", b"\x07" + gbytes[1:]), Err), True, "bad strategy")
    eq(c.cmd("EXISTS", "gv2"), 0, "no key from a refused import")
    eq(c.cmd("SBF.IMPORTGUAVA", "gv3", gbytes, "CAPACITY", "1000"), Simple("OK"), "import capacity")
    eq(c.cmd("BF.INFO", "gv3", "capacity"), [1000], "imported capacity")
    eq(c.cmd("SBF.EXPORTGUAVA", "lay-blocked"),
       Err("ERR only a classic filter with one sub-filter has a Guava form"), "export blocked")
    c.close()


def test_key_commands(s):
    """Ordinary key commands, the command table, key specs and ACL (after
    test_extras and the scaling test, whose keys it uses)."""
    c = s.raw()
    # ordinary key commands
    eq(c.cmd("COPY", "lay-blocked", "cp"), 1, "COPY")
    eq(c.cmd("BF.ADD", "cp", "only-in-copy"), 1, "copy is independent")
    eq(c.cmd("BF.EXISTS", "lay-blocked", "only-in-copy"), 0, "original unchanged by the copy")
    eq(c.cmd("RENAME", "cp", "cp2"), Simple("OK"), "RENAME")
    eq(c.cmd("BF.EXISTS", "cp2", "a"), 1, "renamed key answers")
    eq(c.cmd("EXPIRE", "cp2", "100"), 1, "EXPIRE")
    check(0 < c.cmd("TTL", "cp2") <= 100, "TTL")
    mem = c.cmd("MEMORY", "USAGE", "sc")
    check(isinstance(mem, int) and mem > 15000 * 10 // 8, "MEMORY USAGE counts the bits: %r" % mem)
    eq(c.cmd("DEL", "cp2"), 1, "DEL")
    # command table: flags and key positions (Cluster routes by them)
    info = c.cmd("COMMAND", "INFO", "bf.madd", "bf.mexists")
    flags = [set(cmd[2]) for cmd in info]
    check({"write", "denyoom"} <= flags[0], "bf.madd is write deny-oom: %r" % flags[0])
    check({"readonly", "fast"} <= flags[1], "bf.mexists is readonly fast: %r" % flags[1])
    eq([list(cmd[3:6]) for cmd in info], [[1, 1, 1], [1, 1, 1]], "first, last, step key")
    eq(c.cmd("COMMAND", "GETKEYS", "BF.MADD", "thekey", "a", "b"), [b"thekey"], "GETKEYS")
    # key specs: queries read, writes insert; a read-only ACL user may query
    for name, want in (("bf.exists", {"RO", "access"}), ("bf.scandump", {"RO", "access"}),
                       ("bf.madd", {"RW", "insert"}), ("bf.loadchunk", {"RW", "update"}),
                       ("sbf.del", {"RW", "delete"})):
        spec = c.cmd("COMMAND", "INFO", name)[0][8][0]
        flags = set(x if isinstance(x, str) else x.decode() for x in spec[spec.index(b"flags") + 1])
        eq(flags, want, name + " key spec flags")
    eq(c.cmd("ACL", "SETUSER", "sbfro", "on", ">pw", "%R~*", "+@all"), Simple("OK"), "ACL user")
    ro = s.raw()
    eq(ro.cmd("AUTH", "sbfro", "pw"), Simple("OK"), "AUTH read-only user")
    eq(ro.cmd("BF.EXISTS", "lay-blocked", "a"), 1, "read-only user queries")
    eq(ro.cmd("SBF.INFO", "lay-blocked")[0], "Capacity", "read-only user reads SBF.INFO")
    rep = ro.cmd("BF.ADD", "lay-blocked", "zz")
    check(isinstance(rep, Err) and rep.args[0].startswith("NOPERM"), "read-only user cannot add")
    ro.close()
    c.cmd("ACL", "DELUSER", "sbfro")
    c.close()


def test_redis_py(s):
    r = s.r()
    bf = r.bf()
    check(bf.create("py", 0.01, 1000), "redis-py bf().create")
    eq(bf.add("py", "x"), 1, "redis-py add")
    eq(bf.madd("py", "x", "y"), [0, 1], "redis-py madd")
    eq(bf.exists("py", "y"), 1, "redis-py exists")
    eq(bf.mexists("py", "y", "nope"), [1, 0], "redis-py mexists")
    eq(bf.insert("py", ["z"]), [1], "redis-py insert")
    info = bf.info("py")
    eq((info.capacity, info.insertedNum, info.filterNum, info.expansionRate), (1000, 3, 1, 2),
       "redis-py BFInfo parses our BF.INFO")
    it, chunk = bf.scandump("py", 0)
    eq(it, 1, "redis-py scandump")


def test_binary_items(s):
    c = s.raw()
    odd = [b"", b"\x00", b"\x00\x00", b"\xff" * 100, bytes(range(256)), b"a\r\nb", b"x" * 100000]
    eq(c.cmd("BF.MADD", "bin", *odd), [1] * len(odd), "binary and empty items added")
    eq(c.cmd("BF.MEXISTS", "bin", *odd), [1] * len(odd), "binary and empty items found")
    eq(c.cmd("BF.EXISTS", "bin", b"\x00\x00\x00"), 0, "a near miss is absent")
    c.close()
