#!/usr/bin/python3
"""make test-redis: sbf-redis.so in real redis-server processes.

Starts redis-server on free 127.0.0.1 ports (found by binding port 0), loads
the module, and drives it with a raw RESP2/RESP3 client (exact reply types and
error bytes), redis-py (r.bf(), pipelines) and redis-cli. Every server is
started by this program, waited for with a bounded loop, and killed by its own
pid in a finally block, also when a check fails. Prints "N passed, N failed"
and exits non-zero on any failure.

Run with Debian's /usr/bin/python3 (python3-redis).
"""
import argparse
import os
import random
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
import traceback

import redis

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
VECTORS = os.path.join(ROOT, "tests", "vectors")

PASSED = 0
FAILED = 0
# --asan-preload: servers run with the sanitizer runtime preloaded (for a
# module built with SAN=1), stop gracefully, and their stderr is searched.
ASAN_PRELOAD = None


def check(cond, what):
    global PASSED, FAILED
    if cond:
        PASSED += 1
    else:
        FAILED += 1
        print("FAIL:", what, flush=True)


def eq(got, want, what):
    if got != want:
        g, w = repr(got), repr(want)
        check(False, "%s: got %s, want %s" % (what, g[:300] + "..." * (len(g) > 300),
                                              w[:300] + "..." * (len(w) > 300)))
    else:
        check(True, what)


# --------------------------------------------------------------- a raw client

class Err(Exception):
    """An error reply, with its exact text."""

    def __eq__(self, other):
        return isinstance(other, Err) and self.args == other.args

    def __hash__(self):
        return hash(self.args)


class Simple(str):
    """A simple-string reply (BF.INFO's names are simple strings)."""


class Raw:
    """A minimal RESP2/RESP3 client: replies keep their types (Simple, bytes,
    int, float, bool, None, list, dict, Err)."""

    def __init__(self, port, resp3=False):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=20)
        self.buf = b""
        if resp3:
            self.cmd("HELLO", "3")

    def close(self):
        self.sock.close()

    def _fill(self):
        data = self.sock.recv(1 << 20)
        if not data:
            raise ConnectionError("server closed the connection")
        self.buf += data

    def _line(self):
        while b"\r\n" not in self.buf:
            self._fill()
        line, self.buf = self.buf.split(b"\r\n", 1)
        return line

    def _bytes(self, n):
        while len(self.buf) < n + 2:
            self._fill()
        data, self.buf = self.buf[:n], self.buf[n + 2:]
        return data

    def read(self):
        line = self._line()
        t, rest = line[:1], line[1:]
        if t == b"+":
            return Simple(rest.decode())
        if t == b"-":
            return Err(rest.decode())
        if t == b":":
            return int(rest)
        if t == b"$":
            n = int(rest)
            return None if n < 0 else self._bytes(n)
        if t in (b"*", b"~"):
            n = int(rest)
            return None if n < 0 else [self.read() for _ in range(n)]
        if t == b"%":
            out = {}
            for _ in range(int(rest)):
                k = self.read()
                out[k] = self.read()
            return out
        if t == b"_":
            return None
        if t == b"#":
            return rest == b"t"
        if t == b",":
            return float(rest)
        if t == b"(":
            return int(rest)
        raise ValueError("unknown reply type %r" % line)

    @staticmethod
    def encode(args):
        out = [b"*%d\r\n" % len(args)]
        for a in args:
            if isinstance(a, str):
                a = a.encode()
            elif isinstance(a, int):
                a = str(a).encode()
            elif isinstance(a, float):
                a = repr(a).encode()
            out.append(b"$%d\r\n%s\r\n" % (len(a), a))
        return b"".join(out)

    def cmd(self, *args):
        self.sock.sendall(self.encode(args))
        return self.read()

    def pipe(self, cmds):
        self.sock.sendall(b"".join(self.encode(c) for c in cmds))
        return [self.read() for _ in cmds]


# ------------------------------------------------------------------- servers

def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Server:
    def __init__(self, module, workdir, name, extra=(), modargs=()):
        self.module, self.name, self.extra, self.modargs = module, name, list(extra), list(modargs)
        self.dir = os.path.join(workdir, name)
        os.makedirs(self.dir, exist_ok=True)
        self.proc = None
        self.port = None

    def start(self):
        for attempt in range(5):
            self.port = free_port()
            args = ["redis-server", "--bind", "127.0.0.1", "--port", str(self.port),
                    "--dir", self.dir, "--logfile", "redis.log", "--save", "",
                    "--enable-debug-command", "yes", "--daemonize", "no",
                    "--loadmodule", self.module] + self.modargs + self.extra
            env = dict(os.environ)
            if ASAN_PRELOAD:
                env["LD_PRELOAD"] = ASAN_PRELOAD
                env["ASAN_OPTIONS"] = "detect_leaks=1:abort_on_error=0"
                env["UBSAN_OPTIONS"] = "print_stacktrace=1"
            self.stderr = open(os.path.join(self.dir, "stderr.log"), "ab")
            self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL,
                                         stderr=self.stderr, env=env)
            deadline = time.time() + 10
            while time.time() < deadline and self.proc.poll() is None:
                try:
                    r = redis.Redis(port=self.port, socket_timeout=2)
                    r.ping()
                    # the port may belong to another process: ours has the module
                    mods = r.execute_command("MODULE", "LIST")
                    if any(b"simdbloom" in list(m) for m in mods):
                        return self
                    break
                except (redis.ConnectionError, redis.BusyLoadingError):
                    time.sleep(0.05)
            self.stop()
        raise RuntimeError("%s did not start; log: %s" % (self.name, self.log_tail()))

    def log_tail(self):
        try:
            with open(os.path.join(self.dir, "redis.log")) as f:
                return "".join(f.readlines()[-15:])
        except OSError:
            return "(no log)"

    def sanitizer_report(self):
        try:
            with open(os.path.join(self.dir, "stderr.log"), errors="replace") as f:
                text = f.read()
        except OSError:
            return ""
        return text if "Sanitizer" in text or "runtime error" in text else ""

    def stop(self):
        if ASAN_PRELOAD and self.proc is not None and self.proc.poll() is None:
            try:  # a normal exit, so that LeakSanitizer runs
                redis.Redis(port=self.port, socket_timeout=20).execute_command("SHUTDOWN", "NOSAVE")
            except redis.ConnectionError:
                pass
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                pass
            report = self.sanitizer_report()
            check(not report, "%s: sanitizer report:\n%s" % (self.name, report[-4000:]))
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                pass
        self.proc = None

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def r(self, **kw):
        return redis.Redis(port=self.port, socket_timeout=30, **kw)

    def raw(self, resp3=False):
        return Raw(self.port, resp3)

    def cli(self, *args, resp3=False):
        cmd = ["redis-cli", "-h", "127.0.0.1", "-p", str(self.port)]
        if resp3:
            cmd.append("-3")
        out = subprocess.run(cmd + list(args), capture_output=True, timeout=20)
        return out.stdout.decode(errors="replace").strip()


def digests(r):
    """DEBUG DIGEST-VALUE of every key (the module's digest callback)."""
    keys = sorted(r.keys("*"))
    return {k: r.execute_command("DEBUG", "DIGEST-VALUE", k)[0] for k in keys}


def items(prefix, n, start=0):
    return ["%s%d" % (prefix, i) for i in range(start, start + n)]


def multi_all(r, cmd, key, its, per):
    """cmd (BF.MADD or BF.MEXISTS) over many items, pipelined in slices."""
    p = r.pipeline(transaction=False)
    for i in range(0, len(its), per):
        p.execute_command(cmd, key, *its[i:i + per])
    return [x for rep in p.execute() for x in rep]


def madd_all(r, key, its):
    return multi_all(r, "BF.MADD", key, its, 500)


def mexists_all(r, key, its):
    return multi_all(r, "BF.MEXISTS", key, its, 1000)


def wait_for(pred, what, timeout=20):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if pred():
            return True
        time.sleep(0.05)
    check(False, "timed out waiting for " + what)
    return False


# --------------------------------------------------------------------- tests

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
    # a size the module refuses without allocating it
    rss0 = int(s.r().info("memory")["used_memory_rss"])
    t0 = time.time()
    err = c.cmd("BF.RESERVE", "huge", "1e-300", "1073741824")
    check(isinstance(err, Err) and err.args[0].startswith("ERR could not create filter"),
          "1e-300 x 2^30 refused: %r" % (err,))
    err = c.cmd("BF.RESERVE", "huge", "0.0001", "1073741824")
    check(isinstance(err, Err), "a 2.4 GB filter is above MAX_BYTES: %r" % (err,))
    rss1 = int(s.r().info("memory")["used_memory_rss"])
    check(rss1 - rss0 < 64 << 20 and time.time() - t0 < 2, "no giant allocation (%d)" % (rss1 - rss0))
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
    eq(c.cmd("BF.MADD", "r3n", "a", "b", "c"), [True, True, Err("ERR non scaling filter is full")],
       "resp3 full")
    sinfo = c.cmd("SBF.INFO", "r3")
    check(isinstance(sinfo, dict) and isinstance(sinfo.get("False positive rate now"), float),
          "resp3 SBF.INFO doubles")
    c.close()
    eq(s.cli("BF.EXISTS", "r3", "a", resp3=True), "(true)", "redis-cli -3 shows a boolean")
    eq(s.cli("BF.EXISTS", "r3", "a"), "1", "redis-cli RESP2 shows an integer")


def test_nonscaling_full(s):
    c = s.raw()
    eq(c.cmd("BF.RESERVE", "ns", "0.01", "3", "NONSCALING"), Simple("OK"), "reserve nonscaling")
    eq(c.cmd("BF.MADD", "ns", "a", "b", "c", "d", "e"),
       [1, 1, 1, Err("ERR non scaling filter is full")], "madd stops at the first full error")
    eq(c.cmd("BF.MADD", "ns", "a", "b", "c", "d", "e"),
       [0, 0, 0, Err("ERR non scaling filter is full")], "present items still answer 0")
    eq(c.cmd("BF.ADD", "ns", "d"), Err("ERR non scaling filter is full"), "add to a full filter")
    eq(c.cmd("BF.ADD", "ns", "a"), 0, "add of a present item to a full filter")
    eq(c.cmd("BF.INSERT", "ns", "ITEMS", "x", "y"), [Err("ERR non scaling filter is full")],
       "insert into a full filter")
    eq(c.cmd("BF.INFO", "ns", "items"), [3], "full filter keeps its count")
    eq(c.cmd("BF.INFO", "ns", "filters"), [1], "full filter keeps one sub-filter")
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
                         ("blocked", 0.001)):
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
    one does: duplicates in a command, growth in the middle of one, several
    sub-filters, every layout."""
    r = s.r()
    rnd = random.Random(99)
    for layout in ("blocked", "split-block", "classic", "counting"):
        a, b = "eqa-" + layout, "eqb-" + layout
        for k in (a, b):
            r.execute_command("SBF.RESERVE", k, "0.05", "50", "LAYOUT", layout, "EXPANSION", "2")
        pa = r.pipeline(transaction=False)
        rb = []
        for _ in range(60):
            batch = ["it%d" % rnd.randrange(600) for _ in range(rnd.randrange(1, 40))]
            pa.execute_command("BF.MADD", a, *batch)
            for it in batch:  # one by one, up to the first error as MADD's array
                try:
                    rb.append(r.execute_command("BF.ADD", b, it))
                except redis.ResponseError as e:
                    rb.append(e)
                    break
        ra = [x for rep in pa.execute(raise_on_error=False) for x in rep]
        ra = [str(x) if isinstance(x, Exception) else x for x in ra]
        rb = [str(x) if isinstance(x, Exception) else x for x in rb]
        eq(ra, rb, layout + ": MADD replies = ADD replies one by one")
        d = digests(r)
        eq(d[a.encode()], d[b.encode()], layout + ": MADD stores what ADD does")
        if layout != "counting":
            check(r.execute_command("BF.INFO", a, "filters")[0] >= 3, layout + ": grew in the test")


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


def test_extras(s):
    r = s.r()
    c = s.raw()
    for layout in ("classic", "blocked", "split-block", "counting"):
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
       Err("ERR layout must be classic, blocked, split-block or counting"), "bad layout")
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


def fuzz_value(rnd):
    choice = rnd.randrange(14)
    if choice == 0:
        return str(rnd.randint(-10, 10))
    if choice == 1:
        return str(rnd.choice([0, 1, -1, 2 ** 31, 2 ** 63 - 1, -(2 ** 63), 2 ** 64, 10 ** 30, 1 << 30]))
    if choice == 2:
        return rnd.choice(["nan", "inf", "-inf", "1e309", "-0", "0.0", "1e-300", "0.5", "0.01", "1.0"])
    if choice == 3:
        return rnd.choice(["ITEMS", "ERROR", "CAPACITY", "EXPANSION", "NOCREATE", "NONSCALING",
                           "LAYOUT", "counting", "classic", "blocked", "split-block", "capacity",
                           "size", "filters", "items", "expansion"])
    if choice == 4:
        return bytes(rnd.randrange(256) for _ in range(rnd.randrange(64)))
    if choice == 5:
        return b""
    if choice == 6:
        return str(rnd.random())
    if choice == 7:
        return str(rnd.randint(0, 1 << 50))
    return "fz%d" % rnd.randrange(20)


def test_fuzz(s, seconds, count):
    r = s.r()
    c = s.raw()
    rnd = random.Random(12345)
    cmds = ["BF.RESERVE", "BF.ADD", "BF.MADD", "BF.EXISTS", "BF.MEXISTS", "BF.INSERT", "BF.INFO",
            "BF.CARD", "BF.SCANDUMP", "BF.LOADCHUNK", "SBF.RESERVE", "SBF.INFO", "SBF.DEL",
            "SBF.EXPORTGUAVA", "SBF.IMPORTGUAVA"]
    # some real dumps to splice from
    c.cmd("BF.RESERVE", "fzsrc", "0.01", "100")
    c.cmd("BF.MADD", "fzsrc", *items("s", 300))
    dump = []
    it = 0
    while True:
        it, data = c.cmd("BF.SCANDUMP", "fzsrc", it)
        if it == 0:
            break
        dump.append((it, data))
    deadline = time.time() + seconds
    n = 0
    errors = 0
    # A model of what must be found: items a key acknowledged (answered 0 or
    # 1 to an add); None for keys whose contents the model cannot follow
    # (counting keys, which SBF.DEL may empty; loaded or imported keys).
    model = {}

    def well_formed(key):
        """A command that is right more often than not, with edge values."""
        rate = rnd.choice(["0.01", "0.001", "0.5", "0.1", "1e-9", "0.999", str(rnd.random())])
        cap = str(rnd.choice([1, 2, 3, 10, 100, rnd.randrange(1, 5000), 1 << 30]))
        its = [rnd.choice([b"", b"\x00", "it%d" % rnd.randrange(300), fuzz_value(rnd)])
               for _ in range(rnd.randrange(1, 40))]
        k = rnd.randrange(9)
        if k == 0:
            extra = rnd.choice([[], ["NONSCALING"], ["EXPANSION", str(rnd.randrange(0, 6))]])
            return ["BF.RESERVE", key, rate, cap] + extra
        if k == 1:
            return ["SBF.RESERVE", key, rate, cap, "LAYOUT",
                    rnd.choice(["classic", "blocked", "split-block", "counting"])] + \
                rnd.choice([[], ["NONSCALING"], ["EXPANSION", str(rnd.randrange(1, 4))]])
        if k == 2:
            return ["BF.MADD", key] + its
        if k == 3:
            return ["BF.ADD", key, its[0]]
        if k == 4:
            opts = []
            for o in rnd.sample(["CAPACITY", "ERROR", "EXPANSION", "NOCREATE", "NONSCALING"],
                                rnd.randrange(3)):
                opts += [o] + ([cap] if o == "CAPACITY" else [rate] if o == "ERROR" else
                               [str(rnd.randrange(1, 4))] if o == "EXPANSION" else [])
            return ["BF.INSERT", key] + opts + ["ITEMS"] + its
        if k == 5:
            return ["SBF.DEL", key, its[0]]
        if k == 6:
            return ["DEL", key]
        if k == 7:
            return ["BF.MEXISTS", key] + its
        return [rnd.choice(["BF.INFO", "SBF.INFO", "BF.CARD"]), key]

    def verify_model():
        checked = 0
        for key, its in model.items():
            if its:
                its = sorted(its)
                got = c.cmd("BF.MEXISTS", key, *its)
                if got != [1] * len(its):
                    eq(got, [1] * len(its), "fuzzed %s finds its items" % key)
                checked += len(its)
        return checked

    followed = 0
    while n < count and time.time() < deadline:
        key = "fz%d" % rnd.randrange(20)
        if rnd.random() < 0.6:
            argv = well_formed(key)
        else:
            cmd = rnd.choice(cmds)
            args = [fuzz_value(rnd) for _ in range(rnd.randrange(6))]
            if cmd == "BF.LOADCHUNK" and dump and rnd.random() < 0.6:
                it, data = rnd.choice(dump)
                data = bytearray(data)
                if data and rnd.random() < 0.7:
                    data[rnd.randrange(len(data))] ^= 1 << rnd.randrange(8)
                if rnd.random() < 0.3:
                    data = data[:rnd.randrange(len(data) + 1)]
                args = [it, bytes(data)]
            if cmd == "SBF.IMPORTGUAVA" and rnd.random() < 0.5:
                args = [bytes([1, rnd.randrange(256)]) + struct.pack(">i", rnd.randint(-5, 40)) +
                        bytes(rnd.randrange(256) for _ in range(rnd.randrange(400)))]
            argv = [cmd, key] + args
        existed = c.cmd("EXISTS", key)
        rep = c.cmd(*argv)
        errors += isinstance(rep, Err)
        n += 1
        name = argv[0]
        if name == "DEL" or (not existed and c.cmd("EXISTS", key)):
            model[key] = set()  # deleted, or a new key made by this command
        if c.cmd("TYPE", key) != "simdbloom" or name in ("BF.LOADCHUNK", "SBF.IMPORTGUAVA"):
            if c.cmd("TYPE", key) != "none":
                model[key] = None
        elif key in model and model[key] is not None:
            info = c.cmd("SBF.INFO", key)
            if isinstance(info, list) and info[info.index("Layout") + 1] == "counting":
                model[key] = None
            elif name in ("BF.ADD", "BF.MADD", "BF.INSERT") and not isinstance(rep, Err):
                words = [x.upper() if isinstance(x, str) else x for x in argv]
                its = argv[2:] if name != "BF.INSERT" else argv[words.index("ITEMS") + 1:]
                reps = rep if isinstance(rep, list) else [rep]
                for it, one in zip(its, reps):
                    if not isinstance(one, Err):
                        model[key].add(it if isinstance(it, bytes) else str(it).encode())
        if n % 500 == 0:
            if not s.alive():
                break
            followed += verify_model()
    followed += verify_model()
    check(followed > 1000, "the fuzz model checked %d items" % followed)
    check(s.alive(), "server alive after %d fuzzed commands" % n)
    eq(c.cmd("PING"), Simple("PONG"), "server answers after the fuzz")
    check(n >= min(count, 500), "fuzz ran %d commands (%d errors)" % (n, errors))
    # every key still persists and reloads
    before = digests(r)
    eq(r.execute_command("DEBUG", "RELOAD"), b"OK", "DEBUG RELOAD after the fuzz")
    eq(digests(r), before, "fuzzed keys reload bit for bit")
    for k in r.keys("fz*"):
        if r.type(k) == b"simdbloom":
            info = c.cmd("BF.INFO", k)
            check(isinstance(info, list) and len(info) == 10, "BF.INFO of fuzzed key %r" % k)
    c.close()
    print("fuzz: %d commands, %d error replies, %d acknowledged items checked" %
          (n, errors, followed))


def fuzz_server(a, workdir):
    """The fuzz on a server of its own whose MAX_BYTES (4 MiB per sub-filter)
    keeps twenty random keys small on a shared machine."""
    s = Server(a.module, workdir, "fuzz", modargs=["MAX_BYTES", "4194304"]).start()
    try:
        test_fuzz(s, a.fuzz_seconds, a.fuzz_count)
    finally:
        s.stop()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--module", required=True)
    ap.add_argument("--fuzz-seconds", type=float, default=8)
    ap.add_argument("--fuzz-count", type=int, default=20000)
    ap.add_argument("--asan-preload", default=None)
    a = ap.parse_args()
    global ASAN_PRELOAD
    ASAN_PRELOAD = a.asan_preload
    if shutil.which("redis-server") is None:
        print("redis-server not found (Debian: redis-server)")
        print("0 passed, 1 failed")
        return 1
    workdir = tempfile.mkdtemp(prefix="sbf-redis-test-")
    t0 = time.time()
    primary = Server(a.module, workdir, "primary")
    try:
        primary.start()
        for name, fn in (("replies", test_replies_resp2), ("errors", test_errors),
                         ("resp3", test_resp3), ("nonscaling", test_nonscaling_full),
                         ("scaling+fpr", test_scaling_and_fpr), ("madd=add", test_batch_equals_single),
                         ("scandump", test_scandump),
                         ("extras", test_extras), ("redis-py", test_redis_py),
                         ("binary", test_binary_items), ("corrupt-rdb", test_corrupt_rdb),
                         ("persistence", test_persistence)):
            t = time.time()
            try:
                fn(primary)
            except Exception:
                check(False, "%s raised:\n%s" % (name, traceback.format_exc()))
            print("%-12s %5.1fs  (%d passed, %d failed so far)" % (name, time.time() - t,
                                                                   PASSED, FAILED), flush=True)
            if not primary.alive():
                check(False, "server died during %s:\n%s" % (name, primary.log_tail()))
                primary.start()
        for name, fn in (("aof", lambda: test_aof(a.module, workdir)),
                         ("replica", lambda: test_replica(a.module, workdir, primary)),
                         ("fuzz", lambda: fuzz_server(a, workdir))):
            t = time.time()
            try:
                fn()
            except Exception:
                check(False, "%s raised:\n%s" % (name, traceback.format_exc()))
            print("%-12s %5.1fs  (%d passed, %d failed so far)" % (name, time.time() - t,
                                                                   PASSED, FAILED), flush=True)
    finally:
        primary.stop()
        if FAILED == 0:
            shutil.rmtree(workdir, ignore_errors=True)
        else:
            print("server logs kept in", workdir)
    print("test-redis: %.1fs" % (time.time() - t0))
    print("%d passed, %d failed" % (PASSED, FAILED))
    return 1 if FAILED else 0


if __name__ == "__main__":
    sys.exit(main())
