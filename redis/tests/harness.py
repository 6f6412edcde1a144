"""The harness of make test-redis: checks, a raw RESP2/RESP3 client, and
redis-server processes on free 127.0.0.1 ports (found by binding port 0),
each waited for with a bounded loop and killed by its own pid.

Run with Debian's /usr/bin/python3 (python3-redis).
"""
import os
import signal
import socket
import subprocess
import time

import redis

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
VECTORS = os.path.join(ROOT, "tests", "vectors")

PASSED = 0
FAILED = 0
# --asan-preload: servers run with the sanitizer runtime preloaded (for a
# module built with SAN=1), stop gracefully, and their stderr is searched.
ASAN_PRELOAD = None


def FAILED_COUNT():
    return FAILED


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
        self.port_fn = free_port

    def start(self):
        for attempt in range(5):
            self.port = self.port_fn()
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
                    if any(b"simdbloom" in list(m) or b"bf" in list(m) for m in mods):
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


def wait_up(r, proc, timeout, pause=0.05):
    """Until the server behind client r answers PING; RuntimeError when its
    process proc has exited or timeout seconds have passed."""
    deadline = time.time() + timeout
    while True:
        try:
            r.ping()
            return
        except redis.ConnectionError:
            if time.time() > deadline or proc.poll() is not None:
                raise RuntimeError("redis-server did not start")
            time.sleep(pause)


def wait_for(pred, what, timeout=20):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if pred():
            return True
        time.sleep(0.05)
    check(False, "timed out waiting for " + what)
    return False
