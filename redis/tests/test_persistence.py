"""make test-redis: RDB, AOF, replicas, corrupt RESTOREs."""
import os
import random
import struct

import redis

from harness import VECTORS, Server, check, digests, eq, items, madd_all, mexists_all, wait_for


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
        eq(digests(r), before, "AOF rewrite + restart keeps every key (a header-only one too)")
        eq(r.execute_command("BF.EXISTS", "a", "after-rewrite"), 1, "write after the rewrite replayed")
        eq(sum(mexists_all(r, "a", items("aof-", 3000))), 3000, "all items after AOF replay")
    finally:
        s.stop()


def rewrite_and_restart(s, r):
    r.execute_command("BGREWRITEAOF")
    wait_for(lambda: r.info("persistence")["aof_rewrite_in_progress"] == 0 and
             r.info("persistence")["aof_rewrite_scheduled"] == 0, "AOF rewrite")
    s.stop()
    s.start()
    return s.r()


def test_aof_limits(module, workdir, primary):
    """Whatever a server accepted, it loads (issue 19): under MAX_BYTES 1000,
    a classic key of 800 items at 1% (992 bytes used, 1,024 allocated; the
    library's default rule, the formula plus three spreads) and a
    larger key RESTOREd from a server without the limit survive BGREWRITEAOF
    (aof-use-rdb-preamble no, so as BF.LOADCHUNK commands) and a restart; a
    client's command that would grow the restored key is refused whole."""
    s = Server(module, workdir, "aoflimits", ["--appendonly", "yes", "--aof-use-rdb-preamble", "no"],
               modargs=["MAX_BYTES", "1000"]).start()
    try:
        r = s.r()
        eq(r.execute_command("SBF.RESERVE", "edge", "0.01", "800", "LAYOUT", "classic",
                             "NONSCALING"), b"OK", "the edge key is accepted")
        sub = r.execute_command("SBF.INFO", "edge")[-1][0]
        eq(sub[sub.index(b"Bits") + 1], 992 * 8, "992 bytes used")
        madd_all(r, "edge", items("e", 780))
        rp = primary.r()
        rp.execute_command("BF.RESERVE", "big", "0.01", "10000")
        madd_all(rp, "big", items("b", 10000))
        eq(r.execute_command("RESTORE", "big", 0, rp.execute_command("DUMP", "big")), b"OK",
           "a 12 KB key RESTOREd under MAX_BYTES 1000")
        rp.execute_command("DEL", "big")
        before = digests(r)
        r = rewrite_and_restart(s, r)
        eq(sorted(digests(r)), [b"big", b"edge"], "both keys loaded from the rewritten AOF")
        eq(digests(r), before, "bit for bit")
        eq(sum(mexists_all(r, "big", items("b", 10000))), 10000, "every item of the big key")
        card = r.execute_command("BF.CARD", "big")
        try:
            r.execute_command("BF.MADD", "big", *items("more", 500))
            check(False, "growth past MAX_BYTES refused")
        except redis.ResponseError as e:
            eq(str(e), "could not grow the filter: the filter would exceed the module's MAX_BYTES",
               "growth past MAX_BYTES refused")
        eq(r.execute_command("BF.CARD", "big"), card, "and nothing added")
    finally:
        s.stop()


def replica_writes(rp):
    """Every kind of write, as (name, key, function)."""
    def loadchunk(src, dst):
        it = 0
        while True:
            it, data = rp.execute_command("BF.SCANDUMP", src, it)
            if it == 0:
                return
            rp.execute_command("BF.LOADCHUNK", dst, it, data)

    def refused(*cmd):
        try:
            rp.execute_command(*cmd)
            check(False, "%s refused" % (cmd,))
        except redis.ResponseError:
            pass

    with open(os.path.join(VECTORS, "guava_long1k.bin"), "rb") as f:
        guava = f.read()
    return [
        ("BF.RESERVE", "rep", lambda: rp.execute_command("BF.RESERVE", "rep", "0.01", "100")),
        ("BF.MADD growing", "rep", lambda: madd_all(rp, "rep", items("rep-", 1000))),
        ("BF.ADD creating", "rep2", lambda: rp.execute_command("BF.ADD", "rep2", "x")),
        ("BF.ADD present", "rep2", lambda: rp.execute_command("BF.ADD", "rep2", "x")),
        ("BF.MADD creating", "rep2b", lambda: rp.execute_command("BF.MADD", "rep2b", "x", "y")),
        ("BF.INSERT nonscaling", "rep3", lambda: rp.execute_command(
            "BF.INSERT", "rep3", "CAPACITY", "10", "NONSCALING", "ITEMS", *items("i", 8))),
        ("BF.MADD refused", "rep3", lambda: refused("BF.MADD", "rep3", *items("j", 5))),
        ("BF.INSERT options", "rep4", lambda: rp.execute_command(
            "BF.INSERT", "rep4", "ERROR", "0.001", "EXPANSION", "3", "ITEMS", *items("k", 300))),
        ("SBF.RESERVE counting", "repc", lambda: rp.execute_command(
            "SBF.RESERVE", "repc", "0.01", "100", "LAYOUT", "counting")),
        ("BF.MADD counting", "repc", lambda: rp.execute_command("BF.MADD", "repc", "a", "b", "a")),
        ("SBF.DEL", "repc", lambda: rp.execute_command("SBF.DEL", "repc", "a")),
        ("SBF.RESERVE past the floor", "repf", lambda: rp.execute_command(
            "SBF.RESERVE", "repf", "0.01", "10", "LAYOUT", "split-block", "EXPANSION", "1")),
        ("BF.MADD past the floor", "repf", lambda: madd_all(rp, "repf", items("f", 400))),
        ("SBF.IMPORTGUAVA", "repg", lambda: rp.execute_command("SBF.IMPORTGUAVA", "repg", guava)),
        ("BF.LOADCHUNK", "repl", lambda: loadchunk("rep", "repl")),
        ("BF.LOADCHUNK at an offset", "repl",
         lambda: rp.execute_command("BF.LOADCHUNK", "repl", 104, b"x" * 100)),
        ("COPY", "repcopy", lambda: rp.execute_command("COPY", "rep", "repcopy")),
    ]


def test_replica(module, workdir, primary):
    """A replica whose module arguments differ in everything (layout,
    defaults, a MAX_BYTES that would refuse these keys) answers DEBUG
    DIGEST-VALUE like its primary after every kind of write: creations are
    replicated with every parameter, accepted commands never refused."""
    rp = primary.r()
    rp.config_set("repl-diskless-sync-delay", 0)
    rep = Server(module, workdir, "replica", ["--replicaof", "127.0.0.1", str(primary.port)],
                 modargs=["LAYOUT", "classic", "INITIAL_SIZE", "7", "ERROR_RATE", "0.2",
                          "EXPANSION", "5", "MAX_BYTES", "64"]).start()
    try:
        rr = rep.r()
        wait_for(lambda: rr.info("replication").get("master_link_status") == "up", "replica link")
        wait_for(lambda: rr.info("replication").get("master_sync_in_progress") == 0, "initial sync")
        for name, key, write in replica_writes(rp):
            write()
            eq(rp.execute_command("WAIT", 1, 5000), 1, name + ": replica acknowledged")
            eq(rr.execute_command("DEBUG", "DIGEST-VALUE", key),
               rp.execute_command("DEBUG", "DIGEST-VALUE", key), name + ": same digest")
        eq(digests(rr), digests(rp), "replica holds the same keys bit for bit")
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


def corrupt_payload(r, key):
    """A DUMP payload of key with one data byte flipped and Redis's CRC-64
    recomputed: only the module can see that it is corrupt."""
    body = bytearray(r.execute_command("DUMP", key)[:-8])
    body[len(body) // 2] ^= 0x10
    return bytes(body) + struct.pack("<Q", dump_payload_crc(bytes(body)))


def test_restore_flood(s):
    """Refused RESTOREs do not flood the log (issue 19: 10,000 of them added
    940 KB): one warning a minute, the rest at verbose level, all counted in
    INFO."""
    r = s.r()
    r.execute_command("BF.RESERVE", "flood", "0.01", "1000")
    madd_all(r, "flood", items("f", 500))
    bad = corrupt_payload(r, "flood")
    log = os.path.join(s.dir, "redis.log")
    size0 = os.path.getsize(log)
    refused0 = r.info("simdbloom_stats").get("simdbloom_refused_loads", 0)
    p = r.pipeline(transaction=False)
    for _ in range(2000):
        p.execute_command("RESTORE", "flood-bad", 0, bad, "REPLACE")
    reps = p.execute(raise_on_error=False)
    eq(sum(isinstance(x, redis.ResponseError) for x in reps), 2000, "2,000 corrupt RESTOREs refused")
    grew = os.path.getsize(log) - size0
    check(grew < 1000, "the log grew %d bytes for 2,000 refusals (at most one warning)" % grew)
    eq(r.info("simdbloom_stats").get("simdbloom_refused_loads", 0) - refused0, 2000,
       "INFO counts them")
    eq(r.execute_command("EXISTS", "flood-bad"), 0, "no key from refused payloads")


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
