"""make test-redis: a command fuzz with a model of what must be found."""
import random
import struct

from harness import Err, Server, Simple, check, digests, eq, items


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


FUZZ_COMMANDS = ["BF.RESERVE", "BF.ADD", "BF.MADD", "BF.EXISTS", "BF.MEXISTS", "BF.INSERT",
                 "BF.INFO", "BF.CARD", "BF.SCANDUMP", "BF.LOADCHUNK", "SBF.RESERVE", "SBF.INFO",
                 "SBF.DEL", "SBF.EXPORTGUAVA", "SBF.IMPORTGUAVA"]


class Fuzz:
    """Random commands on twenty keys, with a model of what must be found:
    the items a key acknowledged (answered 0 or 1 to an add); None for keys
    whose contents the model cannot follow (counting keys, which SBF.DEL may
    empty; loaded or imported keys)."""

    def __init__(self, s):
        self.s, self.c = s, s.raw()
        self.rnd = random.Random(12345)
        self.model = {}
        self.n = self.errors = 0
        # some real dumps to splice from
        self.c.cmd("BF.RESERVE", "fzsrc", "0.01", "100")
        self.c.cmd("BF.MADD", "fzsrc", *items("s", 300))
        self.dump = []
        it = 0
        while True:
            it, data = self.c.cmd("BF.SCANDUMP", "fzsrc", it)
            if it == 0:
                break
            self.dump.append((it, data))

    def well_formed(self, key):
        """A command that is right more often than not, with edge values."""
        rnd = self.rnd
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

    def garbage(self, key):
        """Any command with random arguments; real dump chunks, flipped or
        cut, for LOADCHUNK; Guava-like bytes for IMPORTGUAVA."""
        rnd = self.rnd
        cmd = rnd.choice(FUZZ_COMMANDS)
        args = [fuzz_value(rnd) for _ in range(rnd.randrange(6))]
        if cmd == "BF.LOADCHUNK" and self.dump and rnd.random() < 0.6:
            it, data = rnd.choice(self.dump)
            data = bytearray(data)
            if data and rnd.random() < 0.7:
                data[rnd.randrange(len(data))] ^= 1 << rnd.randrange(8)
            if rnd.random() < 0.3:
                data = data[:rnd.randrange(len(data) + 1)]
            args = [it, bytes(data)]
        if cmd == "SBF.IMPORTGUAVA" and rnd.random() < 0.5:
            args = [bytes([1, rnd.randrange(256)]) + struct.pack(">i", rnd.randint(-5, 40)) +
                    bytes(rnd.randrange(256) for _ in range(rnd.randrange(400)))]
        return [cmd, key] + args

    def follow(self, key, argv, rep, existed):
        """The model after one command."""
        c, model, name = self.c, self.model, argv[0]
        if name == "DEL" or (not existed and c.cmd("EXISTS", key)):
            model[key] = set()  # deleted, or a new key made by this command
        if c.cmd("TYPE", key) != "simdbloom" or name in ("BF.LOADCHUNK", "SBF.IMPORTGUAVA"):
            if c.cmd("TYPE", key) != "none":
                model[key] = None
            return
        if key not in model or model[key] is None:
            return
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

    def verify_model(self):
        checked = 0
        for key, its in self.model.items():
            if its:
                its = sorted(its)
                got = self.c.cmd("BF.MEXISTS", key, *its)
                if got != [1] * len(its):
                    eq(got, [1] * len(its), "fuzzed %s finds its items" % key)
                checked += len(its)
        return checked

    def step(self):
        key = "fz%d" % self.rnd.randrange(20)
        argv = self.well_formed(key) if self.rnd.random() < 0.6 else self.garbage(key)
        existed = self.c.cmd("EXISTS", key)
        rep = self.c.cmd(*argv)
        self.errors += isinstance(rep, Err)
        self.n += 1
        self.follow(key, argv, rep, existed)


def test_fuzz(s, count):
    """Exactly `count` commands (a fixed seed, so the same ones every run):
    work bounded by counting, never by a clock, so a loaded machine runs the
    same test, only slower."""
    fz = Fuzz(s)
    c = fz.c
    followed = 0
    while fz.n < count:
        fz.step()
        if fz.n % 500 == 0:
            if not s.alive():
                break
            followed += fz.verify_model()
    followed += fz.verify_model()
    check(followed > 1000, "the fuzz model checked %d items" % followed)
    check(s.alive(), "server alive after %d fuzzed commands" % fz.n)
    eq(c.cmd("PING"), Simple("PONG"), "server answers after the fuzz")
    eq(fz.n, count, "fuzz ran every command (%d error replies)" % fz.errors)
    # every key still persists and reloads
    r = s.r()
    before = digests(r)
    eq(r.execute_command("DEBUG", "RELOAD"), b"OK", "DEBUG RELOAD after the fuzz")
    eq(digests(r), before, "fuzzed keys reload bit for bit")
    for k in r.keys("fz*"):
        if r.type(k) == b"simdbloom":
            info = c.cmd("BF.INFO", k)
            check(isinstance(info, list) and len(info) == 10, "BF.INFO of fuzzed key %r" % k)
    c.close()
    print("fuzz: %d commands, %d error replies, %d acknowledged items checked" %
          (fz.n, fz.errors, followed))


def fuzz_server(a, workdir):
    """The fuzz on a server of its own whose MAX_BYTES (4 MiB per sub-filter)
    keeps twenty random keys small on a shared machine."""
    s = Server(a.module, workdir, "fuzz", modargs=["MAX_BYTES", "4194304"]).start()
    try:
        test_fuzz(s, a.fuzz_count)
    finally:
        s.stop()
