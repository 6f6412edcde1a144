"""make test-redis: SCANDUMP/LOADCHUNK, RDB, AOF, replicas, corrupt RESTOREs."""
import os
import random
import struct

import redis

from harness import (VECTORS, Err, Server, Simple, check, digests, eq, items, madd_all,
                     mexists_all, wait_for)


def test_scandump(s):
    r = s.r()
    c = s.raw()
    chunks = []
    it = 0
    while True:
        rep = c.cmd("BF.SCANDUMP", "sc", it)
        it, data = rep
        if it == 0:
            eq(data, b"", "SCANDUMP ends with [0, \"\"]")
            break
        chunks.append((it, data))
        check(len(chunks) < 100, "SCANDUMP terminates")
        if len(chunks) >= 100:
            return
    eq(chunks[0][0], 1, "SCANDUMP starts with [1, header]")
    eq(len(chunks), 5, "header + 4 sub-filters")
    for it, data in chunks:
        eq(c.cmd("BF.LOADCHUNK", "sc-copy", it, data), Simple("OK"), "LOADCHUNK %d" % it)
    eq(digests(r)[b"sc-copy"], digests(r)[b"sc"], "LOADCHUNK rebuilds the same filter")
    eq(r.execute_command("BF.INFO", "sc-copy"), r.execute_command("BF.INFO", "sc"), "same BF.INFO")
    eq(sum(mexists_all(r, "sc-copy", items("scale-", 10000))), 10000, "copy finds every item")
    # refusals change nothing
    eq(c.cmd("BF.LOADCHUNK", "sc-copy", 1, chunks[0][1]), Err("ERR item exists"), "header onto a key")
    eq(c.cmd("BF.LOADCHUNK", "lc", 1, b"garbage"), Err("ERR received bad data"), "garbage header")
    eq(c.cmd("BF.LOADCHUNK", "lc", 1, b""), Err("ERR received bad data"), "empty header")
    eq(c.cmd("BF.LOADCHUNK", "lc", 5, b"x"), Err("ERR not found"), "chunk with no key")
    eq(c.cmd("BF.LOADCHUNK", "lc", "x", b"x"), Err("ERR Second argument must be numeric"), "iter x")
    eq(c.cmd("BF.SCANDUMP", "sc", "x"), Err("Second argument must be numeric"), "scandump iter x")
    eq(c.cmd("BF.SCANDUMP", "nokey", "0"), Err("ERR not found"), "scandump missing")
    eq(c.cmd("EXISTS", "lc"), 0, "no key from a refused header")
    hdr = bytearray(chunks[0][1])
    for pos in (8, 12, 16, 24, 32, 40, 64):  # version, links, layout, rate, items, link fields
        bad = bytearray(hdr)
        bad[pos] ^= 0x80
        eq(isinstance(c.cmd("BF.LOADCHUNK", "lc%d" % pos, 1, bytes(bad)), Err), True,
           "corrupt header byte %d refused" % pos)
    # a valid header, then bad chunks: each refused, the loading key unchanged
    eq(c.cmd("BF.LOADCHUNK", "lc", 1, chunks[0][1]), Simple("OK"), "header")
    eq(c.cmd("BF.ADD", "lc", "a"), Err("ERR filter is incomplete: BF.LOADCHUNK in progress"),
       "add to an incomplete key")
    eq(c.cmd("BF.EXISTS", "lc", "a"), 0, "exists on an incomplete key")
    it1, d1 = chunks[1]
    eq(isinstance(c.cmd("BF.LOADCHUNK", "lc", chunks[2][0], chunks[2][1]), Err), True, "out of order")
    flipped = bytearray(d1)
    flipped[len(flipped) // 2] ^= 1
    eq(c.cmd("BF.LOADCHUNK", "lc", it1, bytes(flipped)), Err("ERR received bad data"), "checksum")
    eq(isinstance(c.cmd("BF.LOADCHUNK", "lc", it1, d1[:-1]), Err), True, "short chunk")
    for it, data in chunks[1:]:
        eq(c.cmd("BF.LOADCHUNK", "lc", it, data), Simple("OK"), "resume after refusals %d" % it)
    eq(digests(r)[b"lc"], digests(r)[b"sc"], "refusals left nothing behind")
    c.close()


def test_persistence(s):
    r = s.r()
    before = digests(r)
    check(len(before) > 10, "many keys to persist (%d)" % len(before))
    eq(r.execute_command("DEBUG", "RELOAD"), b"OK", "DEBUG RELOAD")
    eq(digests(r), before, "DEBUG RELOAD keeps every key bit for bit")
    r.execute_command("SAVE")
    s.stop()
    s.start()
    r = s.r()
    eq(digests(r), before, "SAVE + restart keeps every key")
    eq(sum(mexists_all(r, "sc", items("scale-", 10000))), 10000, "items found after restart")


def test_aof(module, workdir):
    s = Server(module, workdir, "aof", ["--appendonly", "yes", "--aof-use-rdb-preamble", "no"]).start()
    try:
        r = s.r()
        r.execute_command("BF.RESERVE", "a", "0.01", "500")
        madd_all(r, "a", items("aof-", 3000))
        r.execute_command("SBF.RESERVE", "cnt", "0.01", "100", "LAYOUT", "counting")
        r.execute_command("BF.MADD", "cnt", "p", "q")
        r.execute_command("SBF.DEL", "cnt", "p")
        r.execute_command("BF.LOADCHUNK", "half", 1, r.execute_command("BF.SCANDUMP", "a", 0)[1])
        r.execute_command("BGREWRITEAOF")
        wait_for(lambda: r.info("persistence")["aof_rewrite_in_progress"] == 0 and
                 r.info("persistence")["aof_rewrite_scheduled"] == 0, "AOF rewrite")
        r.execute_command("BF.ADD", "a", "after-rewrite")
        before = digests(r)
        s.stop()
        s.start()
        r = s.r()
        eq(digests(r), before, "AOF rewrite + restart keeps every key (incomplete one too)")
        eq(r.execute_command("BF.EXISTS", "a", "after-rewrite"), 1, "write after the rewrite replayed")
        eq(sum(mexists_all(r, "a", items("aof-", 3000))), 3000, "all items after AOF replay")
    finally:
        s.stop()


def test_replica(module, workdir, primary):
    rp = primary.r()
    rp.config_set("repl-diskless-sync-delay", 0)
    rep = Server(module, workdir, "replica",
                 ["--replicaof", "127.0.0.1", str(primary.port)]).start()
    try:
        rr = rep.r()
        wait_for(lambda: rr.info("replication").get("master_link_status") == "up", "replica link")
        wait_for(lambda: rr.info("replication").get("master_sync_in_progress") == 0, "initial sync")
        # every write command after the initial sync
        rp.execute_command("BF.RESERVE", "rep", "0.01", "100")
        madd_all(rp, "rep", items("rep-", 1000))
        rp.execute_command("BF.ADD", "rep2", "x")
        rp.execute_command("BF.INSERT", "rep3", "CAPACITY", "10", "NONSCALING", "ITEMS", *items("i", 12))
        rp.execute_command("SBF.RESERVE", "repc", "0.01", "100", "LAYOUT", "counting")
        rp.execute_command("BF.MADD", "repc", "a", "b")
        rp.execute_command("SBF.DEL", "repc", "a")
        with open(os.path.join(VECTORS, "guava_long1k.bin"), "rb") as f:
            rp.execute_command("SBF.IMPORTGUAVA", "repg", f.read())
        it, data = 0, None
        while True:
            it, data = rp.execute_command("BF.SCANDUMP", "rep", it)
            if it == 0:
                break
            rp.execute_command("BF.LOADCHUNK", "repl", it, data)
        rp.execute_command("COPY", "rep", "repcopy")
        eq(rp.execute_command("WAIT", 1, 5000), 1, "replica acknowledged")
        dp = digests(rp)
        eq(digests(rr), dp, "replica holds the same keys bit for bit")
        eq(mexists_all(rr, "rep", items("rep-", 1000)), [1] * 1000, "replica answers like its primary")
        eq(rr.execute_command("BF.INFO", "rep"), rp.execute_command("BF.INFO", "rep"), "replica BF.INFO")
        try:
            rr.execute_command("BF.ADD", "rep", "x")
            check(False, "replica refuses writes")
        except redis.ResponseError as e:
            check("READONLY" in str(e) or "read only" in str(e), "replica refuses writes: %s" % e)
    finally:
        rep.stop()


def dump_payload_crc(payload_body):
    """Redis's CRC-64 (Jones, reflected) of a DUMP payload without its CRC."""
    poly = 0x95AC9329AC4BC9B5
    crc = 0
    for b in payload_body:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (poly if crc & 1 else 0)
    return crc


def test_corrupt_rdb(s):
    r = s.r()
    r.execute_command("BF.RESERVE", "dumpme", "0.01", "50", "EXPANSION", "1")
    madd_all(r, "dumpme", items("d", 120))
    payload = r.execute_command("DUMP", "dumpme")
    body = payload[:-8]
    eq(struct.unpack("<Q", payload[-8:])[0], dump_payload_crc(body), "our CRC-64 matches Redis's")
    eq(r.execute_command("RESTORE", "restored", 0, payload), b"OK", "RESTORE of a good payload")
    eq(digests(r)[b"restored"], digests(r)[b"dumpme"], "RESTORE round trip")
    rnd = random.Random(7)
    refused = 0
    cases = []
    for cut in sorted(set([1, 5, 9, 10, 20, 40, len(body) // 2, len(body) - 3, len(body) - 1])):
        if cut < len(body) - 2:
            cases.append(body[:cut] + body[-2:])  # truncated value, same RDB version trailer
    for _ in range(60):
        b = bytearray(body)
        for _ in range(rnd.randint(1, 4)):
            b[rnd.randrange(1, len(b) - 2)] ^= 1 << rnd.randrange(8)
        cases.append(bytes(b))
    for case in cases:
        p = case + struct.pack("<Q", dump_payload_crc(case))
        try:
            r.execute_command("RESTORE", "bad", 0, p, "REPLACE")
            # a flip in a byte nothing checks (an item count) may load
            r.execute_command("DEL", "bad")
        except redis.ResponseError as e:
            refused += 1
            check("Bad data format" in str(e) or "DUMP payload" in str(e), "refusal text: %s" % e)
        check(s.alive() and r.ping(), "server alive after a corrupt RESTORE")
    check(refused >= len(cases) * 3 // 4, "most corrupt payloads refused (%d of %d)" % (refused, len(cases)))
    print("corrupt RESTORE payloads: %d of %d refused, the rest loaded" % (refused, len(cases)))
    eq(r.execute_command("EXISTS", "bad"), 0, "no key from refused payloads")
