"""make test-redis: the filters live in Redis's memory (issue 19): used_memory,
maxmemory (OOM under noeviction, eviction under an LRU policy), MEMORY USAGE
and INFO see them. The issue's case: 108 MB filters (BF.RESERVE k 0.01
75000000) under maxmemory 50mb; before, five of them were made while
used_memory said 1 MB and the process held 540 MB. Issue 33: under
noeviction a filter that would take used memory past maxmemory is refused
up front (one was accepted, then every write refused), and a new filter's
memory is not written when made (rss does not grow by its size)."""
import redis

from harness import Server, check, eq

MB = 1 << 20
FILTER = ["0.01", "75000000"]  # one 108,146,816-byte sub-filter


def reserve(r, key):
    try:
        return r.execute_command("BF.RESERVE", key, *FILTER)
    except redis.ResponseError as e:
        return e


def reserve_args(r, key, *args):
    try:
        return r.execute_command("BF.RESERVE", key, *args)
    except redis.ResponseError as e:
        return e


def mem(r):
    m = r.info("memory")
    return m["used_memory"], m["used_memory_rss"]


def test_maxmemory(module, workdir):
    s = Server(module, workdir, "maxmemory", ["--maxmemory", "50mb",
                                                "--maxmemory-policy", "noeviction"]).start()
    try:
        r = s.r()
        used0, rss0 = mem(r)
        replies = [reserve(r, "m%d" % i) for i in range(5)]
        used1, rss1 = mem(r)
        eq([str(x) for x in replies], ["Insufficient memory to create filter"] * 5,
           "noeviction: a 108 MB filter under 50mb is refused up front (issue 33: it was "
           "accepted, then every write refused)")
        check(used1 - used0 < MB, "nothing taken: +%d bytes" % (used1 - used0))
        eq(r.execute_command("BF.RESERVE", "s0", "0.01", "20000000"), b"OK", "29 MB fits")
        eq(str(reserve_args(r, "s1", "0.01", "20000000")), "Insufficient memory to create filter",
           "a second 29 MB does not")
        r.execute_command("BF.ADD", "s0", "x")  # under maxmemory: writes go on
        r.execute_command("DEL", "s0")
        r.execute_command("CONFIG", "SET", "maxmemory", "0")
        eq(reserve(r, "m0"), b"OK", "without maxmemory the 108 MB filter is made")
        used1, rss1 = mem(r)
        check(rss1 - rss0 < 32 * MB, "no pass over the new filter's memory (issue 33: pages "
              "the kernel zeroes when first touched): rss +%d MB" % ((rss1 - rss0) // MB))
        check(used1 - used0 >= 96 * MB, "used_memory sees it: +%d MB" % ((used1 - used0) // MB))
        usage = r.execute_command("MEMORY", "USAGE", "m0")
        check(108 * MB // 1.05 < usage < 112 * MB, "MEMORY USAGE %d" % usage)
        size = r.execute_command("BF.INFO", "m0", "size")[0]
        check(0 <= usage - size < 100, "BF.INFO Size %d: the real allocation (MEMORY USAGE adds "
              "the key's own object)" % size)
        held = r.info("simdbloom_stats")["simdbloom_memory"]
        check(108146816 <= held <= usage, "INFO simdbloom_memory %d" % held)
        r.execute_command("CONFIG", "SET", "maxmemory", "50mb")
        try:
            r.execute_command("BF.ADD", "m0", "x")
            check(False, "deny-oom writes refused over maxmemory")
        except redis.ResponseError as e:
            check("command not allowed when used memory > 'maxmemory'" in str(e), "BF.ADD: %s" % e)
        eq(r.execute_command("BF.EXISTS", "m0", "x"), 0, "queries still answer")
        r.execute_command("DEL", "m0")
        r.execute_command("CONFIG", "SET", "maxmemory-policy", "allkeys-lru")
        ev0 = r.info("stats")["evicted_keys"]
        replies = [reserve(r, "l%d" % i) for i in range(5)]
        used2, rss2 = mem(r)
        eq([str(x) for x in replies], ["b'OK'"] * 5, "allkeys-lru: every one is made")
        eq(r.info("stats")["evicted_keys"] - ev0, 5,
           "and each evicted by the next command (a 108 MB key cannot stay under 50mb)")
        eq(r.execute_command("DBSIZE"), 0, "none left")
        check(used2 < 50 * MB, "used_memory back under maxmemory: %d MB" % (used2 // MB))
        print("maxmemory 50mb, 108 MB filters: noeviction 5 refused up front; without maxmemory 1 made, "
              "used_memory %d -> %d MB, "
              "rss %d -> %d MB; allkeys-lru 5 made, 5 evicted, used_memory %d MB, rss %d MB" %
              (used0 // MB, used1 // MB, rss0 // MB, rss1 // MB, used2 // MB, rss2 // MB))
    finally:
        s.stop()
