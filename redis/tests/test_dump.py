"""make test-redis: BF.SCANDUMP / BF.LOADCHUNK with RedisBloom's semantics,
and BF.DEBUG."""
from harness import Err, Simple, check, digests, eq, items, mexists_all


def scandump(c, key):
    """Every (iterator, chunk) of a key, the header first."""
    chunks, it = [], 0
    while len(chunks) < 1000:
        it, data = c.cmd("BF.SCANDUMP", key, it)
        if it == 0:
            eq(data, b"", "SCANDUMP ends with [0, \"\"]")
            break
        chunks.append((it, data))
    return chunks


def test_scandump(s):
    r = s.r()
    c = s.raw()
    chunks = scandump(c, "sc")
    eq(chunks[0][0], 1, "SCANDUMP starts with [1, header]")
    info = r.execute_command("SBF.INFO", "sc")
    used = [x[x.index(b"Bits") + 1] // 8 for x in info[info.index(b"Filters") + 1]]
    data = sum(used)
    eq([len(d) for _, d in chunks[1:]], used, "each sub-filter's used bytes, a chunk each")
    eq([it for it, _ in chunks[1:]], [1 + sum(used[:i + 1]) for i in range(len(used))],
       "a chunk's iterator is one past its end")
    for it, d in chunks:
        eq(c.cmd("BF.LOADCHUNK", "sc-copy", it, d), Simple("OK"), "LOADCHUNK %d" % it)
    eq(digests(r)[b"sc-copy"], digests(r)[b"sc"], "LOADCHUNK rebuilds the same filter")
    eq(r.execute_command("BF.INFO", "sc-copy"), r.execute_command("BF.INFO", "sc"), "same BF.INFO")
    eq(sum(mexists_all(r, "sc-copy", items("scale-", 10000))), 10000, "copy finds every item")
    # a header, then the data in chunks of 1000 bytes or less in reverse
    # order: any order and size within a sub-filter
    hdr = chunks[0][1]
    eq(c.cmd("BF.LOADCHUNK", "sc-rev", 1, hdr), Simple("OK"), "header")
    eq(c.cmd("BF.EXISTS", "sc-rev", "scale-1"), 0, "a key made by a header is empty")
    ok = []
    for (it, body), n in reversed(list(zip(chunks[1:], used))):
        base = it - 1 - n
        for end in range(n, 0, -1000):
            start = max(0, end - 1000)
            ok.append(c.cmd("BF.LOADCHUNK", "sc-rev", base + end + 1, body[start:end]))
    eq(set(ok), {Simple("OK")}, "%d chunks taken" % len(ok))
    eq(digests(r)[b"sc-rev"], digests(r)[b"sc"], "chunks in any order and size")
    eq(c.cmd("BF.LOADCHUNK", "sc-rev", used[0] + 2, b"xx"),
       Err("ERR invalid chunk - Too big for current filter"), "a chunk across two sub-filters")
    # refusals change nothing
    eq(c.cmd("BF.LOADCHUNK", "sc-copy", 1, hdr), Err("ERR received bad data"),
       "a header onto a key is a chunk at iterator 1: bad data, as RedisBloom")
    eq(c.cmd("BF.LOADCHUNK", "lc", 1, b"garbage"), Err("ERR received bad data"), "garbage header")
    eq(c.cmd("BF.LOADCHUNK", "lc", 1, b""), Err("ERR received bad data"), "empty header")
    eq(c.cmd("BF.LOADCHUNK", "lc", 5, b"x"), Err("ERR not found"), "chunk with no key")
    eq(c.cmd("BF.LOADCHUNK", "lc", "x", b"x"), Err("ERR Second argument must be numeric"), "iter x")
    eq(c.cmd("BF.SCANDUMP", "sc", "x"), Err("Second argument must be numeric"), "scandump iter x")
    eq(c.cmd("BF.SCANDUMP", "nokey", "0"), Err("ERR not found"), "scandump missing")
    eq(c.cmd("BF.SCANDUMP", "sc", "-5"), [0, b""], "a negative iterator is past the end")
    eq(c.cmd("BF.SCANDUMP", "sc", 1 + data), [0, b""], "so is one past the data")
    eq(c.cmd("EXISTS", "lc"), 0, "no key from a refused header")
    for pos in (8, 12, 16, 24, 32, 40, 56, 64, 80, len(hdr) - 1):
        bad = bytearray(hdr)
        bad[pos] ^= 0x80
        eq(c.cmd("BF.LOADCHUNK", "lc%d" % pos, 1, bytes(bad)), Err("ERR received bad data"),
           "corrupt header byte %d refused" % pos)
    old = b"SBFRCHN1" + hdr[8:]
    eq(c.cmd("BF.LOADCHUNK", "lc", 1, old), Err("ERR received bad data"), "a version-1 dump")
    c.close()


def test_loadchunk_table(s):
    """Issue 19's table: BF.LOADCHUNK into a key BF.RESERVE bf 0.01 10 made,
    RedisBloom 2.6.28's replies. Our first sub-filter is one 64-byte block
    (RedisBloom's: 16 bytes), so the chunk that is too big for it here is
    80 bytes, not 30."""
    c = s.raw()
    eq(c.cmd("BF.RESERVE", "tbl", "0.01", "10"), Simple("OK"), "reserve 0.01 10")
    used = int(c.cmd("BF.DEBUG", "tbl")[1].split()[0].split(b":")[1])
    eq(used, 64, "one block")
    eq(c.cmd("BF.LOADCHUNK", "tbl", 5, b"abc"), Simple("OK"), "bytes 1..3 written")
    eq(c.cmd("BF.SCANDUMP", "tbl", 1)[1][:5], b"\0abc\0", "where they belong")
    eq(c.cmd("BF.LOADCHUNK", "tbl", 1, b"abc"), Err("ERR received bad data"), "iterator 1")
    eq(c.cmd("BF.LOADCHUNK", "tbl", 100000, b"abc"), Err("ERR invalid offset - no link found"),
       "past the data")
    eq(c.cmd("BF.LOADCHUNK", "tbl", 3, b"abc"), Err("ERR invalid offset - no link found"),
       "a chunk that would start before byte 0")
    eq(c.cmd("BF.LOADCHUNK", "tbl", 90, b"x" * 80), Err("ERR invalid chunk - Too big for current filter"),
       "past its sub-filter")
    eq(c.cmd("BF.LOADCHUNK", "tbl", 0, b"abc"), Err("ERR received bad data"), "iterator 0")
    eq(c.cmd("BF.LOADCHUNK", "tbl", -9223372036854775808, b"1"), Err("ERR received bad data"),
       "the smallest iterator")
    eq(c.cmd("BF.LOADCHUNK", "nokey", 0, b"abc"), Err("ERR not found"), "no key")
    eq(c.cmd("BF.ADD", "tbl", "x"), 1, "the key still takes items")
    c.close()


def test_debug(s):
    """BF.DEBUG in RedisBloom's shape: size:<items>, then per sub-filter
    bytes, bits, hashes, hashwidth, capacity, size, ratio (RedisBloom's
    test_debug: the first sub-filter has half the rate, 0.005 for 0.01; then
    0.01/((i+1)(i+2)), issue 33)."""
    c = s.raw()
    c.cmd("BF.RESERVE", "dbg", "0.01", "10")
    c.cmd("BF.MADD", "dbg", *items("d", 100))
    rep = c.cmd("BF.DEBUG", "dbg")
    card = c.cmd("BF.CARD", "dbg")
    eq(rep[0], b"size:%d" % card, "size: the item count")
    eq(len(rep) - 1, c.cmd("BF.INFO", "dbg", "filters")[0], "one line per sub-filter")
    info = c.cmd("SBF.INFO", "dbg")
    subs = info[info.index("Filters") + 1]
    for i, line in enumerate(rep[1:]):
        f = dict(kv.split(b":") for kv in line.split(b" "))
        eq(list(f), [b"bytes", b"bits", b"hashes", b"hashwidth", b"capacity", b"size", b"ratio"],
           "RedisBloom's fields in its order")
        sub = dict(zip(subs[i][0::2], subs[i][1::2]))
        eq((int(f[b"bits"]), int(f[b"hashes"]), int(f[b"capacity"]), int(f[b"size"])),
           (sub["Bits"], sub["Hashes"], 10 * 2 ** i, sub["Items"]), "sub-filter %d" % i)
        eq(int(f[b"bytes"]), sub["Bits"] // 8, "bytes: what it uses")
        check(abs(float(f[b"ratio"]) * (i + 1) * (i + 2) / 0.01 - 1) < 1e-5,
              "ratio %d is 0.01/((i+1)(i+2)): %s" % (i, f[b"ratio"]))
    eq(c.cmd("BF.DEBUG", "dbg", "x"), Err("ERR wrong number of arguments for 'bf.debug' command"),
       "arity")
    eq(c.cmd("BF.DEBUG", "nokey"), Err("ERR not found"), "missing key")
    c.cmd("SET", "dbgs", "x")
    check(c.cmd("BF.DEBUG", "dbgs").args[0].startswith("WRONGTYPE"), "foreign key")
    c.close()
