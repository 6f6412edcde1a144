#!/usr/bin/python3
"""make bench-redis-insn: instructions per item of the multi-item commands
inside redis-server, counted by callgrind, so the figure does not move with
the machine's load.

redis-server runs under `valgrind --tool=callgrind` with the module (the
kernels valgrind runs: AVX2, not AVX-512) on a free 127.0.0.1 port; after
`BF.RESERVE bf 0.01 2000000` (the 2M-capacity 1% filter of make
bench-redis) each phase zeroes the counters (callgrind_control -z), sends
--commands commands of 100 random 12-digit items one at a time, and dumps
(callgrind_control -d): the whole server's instructions over the phase,
divided by the items. Phases: the floor (BF.MEXISTS x100 on a missing key:
the same protocol work, no filter touched), BF.MADD x100 (new items),
BF.MEXISTS x100, and the floor again (the two floors show the noise: cron
ticks). Prints one line, and the share of the floor each command reaches
(floor / command: 1 would be a free filter).
"""
import argparse
import glob
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

import redis

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "tests"))
from harness import free_port, wait_up  # noqa: E402


def dump_total(pid, out, name):
    """Dumps the counters since the last zero; their total instructions."""
    before = set(glob.glob(out + "*"))
    subprocess.run(["callgrind_control", "-d", name, str(pid)], check=True, capture_output=True)
    deadline = time.time() + 60
    while time.time() < deadline:
        new = sorted(set(glob.glob(out + "*")) - before)
        if new:
            break
        time.sleep(0.1)
    else:
        raise RuntimeError("callgrind wrote no dump for " + name)
    for _ in range(100):  # the file is complete once its totals line is there
        with open(new[-1]) as f:
            lines = [ln for ln in f if ln.startswith(("totals:", "summary:"))]
        if lines:
            return int(lines[-1].split()[1])
        time.sleep(0.1)
    raise RuntimeError("callgrind dump for %s has no totals" % name)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--module", required=True)
    ap.add_argument("--commands", type=int, default=1000, help="commands per phase")
    a = ap.parse_args()
    for tool in ("valgrind", "callgrind_control", "redis-server"):
        if shutil.which(tool) is None:
            print("bench-redis-insn: %s not found" % tool)
            return 2
    wd = tempfile.mkdtemp(prefix="sbf-redis-insn-")
    out = os.path.join(wd, "callgrind.out")
    port = free_port()
    proc = subprocess.Popen(
        ["valgrind", "--tool=callgrind", "--dump-instr=no", "--callgrind-out-file=" + out,
         "redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
         "--dir", wd, "--loadmodule", os.path.abspath(a.module)],
        stdout=subprocess.DEVNULL, stderr=open(os.path.join(wd, "valgrind.log"), "w"))
    try:
        r = redis.Redis(port=port, socket_timeout=600)
        wait_up(r, proc, 120, pause=0.2)  # valgrind starts slowly
        r.execute_command("BF.RESERVE", "bf", "0.01", "2000000")
        rnd = random.Random(1)
        items = a.commands * 100

        def phase(name, cmd, key):
            cmds = [["%012d" % rnd.randrange(10 ** 12) for _ in range(100)]
                    for _ in range(a.commands)]
            subprocess.run(["callgrind_control", "-z", str(proc.pid)], check=True,
                           capture_output=True)
            for its in cmds:
                r.execute_command(cmd, key, *its)
            return dump_total(proc.pid, out, name) / items

        res = [("floor", phase("floor", "BF.MEXISTS", "missing")),
               ("BF.MADD", phase("madd", "BF.MADD", "bf")),
               ("BF.MEXISTS", phase("mexists", "BF.MEXISTS", "bf")),
               ("floor again", phase("floor2", "BF.MEXISTS", "missing"))]
        floor = (res[0][1] + res[3][1]) / 2
        print("instructions per item (callgrind, %d commands x 100 items): %s; "
              "share of the floor: BF.MADD %.2f, BF.MEXISTS %.2f" %
              (a.commands, ", ".join("%s %.0f" % kv for kv in res),
               floor / res[1][1], floor / res[2][1]))
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(60)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10)
        shutil.rmtree(wd, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
