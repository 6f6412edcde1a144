#!/usr/bin/python3
"""make bench-redis: sbf-redis throughput against Redis sets, in one run.

redis-benchmark, 2 connections, pipeline 16, random 12-digit items
(__rand_int__ over a 1M keyspace), as RedisBloom 2.6.28 was recorded
(../shared/REDISBLOOM.md): BF.MADD x100 / BF.MEXISTS x100 on a 2M-capacity
1% filter against SADD x100 / SMISMEMBER x100 of the same kind of items on
the same server, and single BF.ADD / BF.EXISTS against SADD / SISMEMBER.
One warm-up run each, then --runs interleaved rounds, median. The server is started here
on a free 127.0.0.1 port and killed by its pid at the end.

Writes results/runs/<host>-<date>-redis/redis-bench.json and redis-bench.md.
"""
import argparse
import datetime
import json
import os
import platform
import signal
import socket
import statistics
import subprocess
import sys

import redis

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "tests"))
from harness import free_port, wait_up  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# (name, command words, items per command, requests per run)
CASES = [
    ("SADD x100", ["SADD", "set"] + ["__rand_int__"] * 100, 100, 40000),
    ("BF.MADD x100", ["BF.MADD", "bf"] + ["__rand_int__"] * 100, 100, 100000),
    ("SMISMEMBER x100", ["SMISMEMBER", "set"] + ["__rand_int__"] * 100, 100, 60000),
    ("BF.MEXISTS x100", ["BF.MEXISTS", "bf"] + ["__rand_int__"] * 100, 100, 150000),
    # the floor: the same protocol work (100 arguments in, 100 integers out)
    # on a missing key, so no filter or set is touched
    ("BF.MEXISTS x100 no key", ["BF.MEXISTS", "nokey"] + ["__rand_int__"] * 100, 100, 150000),
    ("SMISMEMBER x100 no key", ["SMISMEMBER", "nokey"] + ["__rand_int__"] * 100, 100, 150000),
    ("SADD", ["SADD", "set1", "__rand_int__"], 1, 600000),
    ("BF.ADD", ["BF.ADD", "bf1", "__rand_int__"], 1, 600000),
    ("SISMEMBER", ["SISMEMBER", "set1", "__rand_int__"], 1, 600000),
    ("BF.EXISTS", ["BF.EXISTS", "bf1", "__rand_int__"], 1, 600000),
]
# --large: RedisBloom's DRAM-sized anchor (20M capacity, ~24 MB there)
LARGE = [
    ("BF.MADD x100 20M", ["BF.MADD", "bf20"] + ["__rand_int__"] * 100, 100, 100000),
    ("BF.MEXISTS x100 20M", ["BF.MEXISTS", "bf20"] + ["__rand_int__"] * 100, 100, 150000),
]
RATIOS = [("BF.MADD x100", "SADD x100", 3.37), ("BF.MEXISTS x100", "SMISMEMBER x100", 2.64),
          ("BF.ADD", "SADD", None), ("BF.EXISTS", "SISMEMBER", None),
          ("BF.MEXISTS x100", "BF.MEXISTS x100 no key", None),
          ("BF.MADD x100", "BF.MEXISTS x100 no key", None)]


def run_benchmark(port, words, n):
    cmd = ["redis-benchmark", "-h", "127.0.0.1", "-p", str(port), "-c", "2", "-P", "16",
           "-n", str(n), "-r", "1000000", "--csv"] + words
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=600).stdout
    for line in out.splitlines():
        cols = [c.strip('"') for c in line.split(",")]
        if len(cols) > 1 and cols[0] != "test":
            return float(cols[1])
    raise RuntimeError("no result from redis-benchmark: %r" % out[-500:])


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


def git(*args):
    try:
        return subprocess.run(["git", "-C", ROOT] + list(args), capture_output=True, text=True,
                              timeout=10).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        return ""


def measure(r, port, a):
    """Every case: a warm-up run, then --runs interleaved rounds (every case
    once per round, so the load of the shared machine falls on the commands
    of a ratio alike); the median of each."""
    only = set(a.only.split(",")) if a.only else None
    cases = [(name, words, per, max(1000, int(n * a.scale)))
             for name, words, per, n in CASES + (LARGE if a.large else [])
             if not only or name in only]
    for name, words, per, n in cases:  # warm-up: fills the set and the filter
        run_benchmark(port, words, max(1000, n // 4))
    rps = {name: [] for name, _, _, _ in cases}
    for rnd in range(a.runs):
        for name, words, per, n in cases:
            rps[name].append(run_benchmark(port, words, n))
    results = {}
    for name, words, per, n in cases:
        med = statistics.median(rps[name])
        results[name] = {"commands_per_s": med, "items_per_s": med * per, "runs": rps[name],
                         "requests": n}
        print("%-16s %10.0f cmd/s %12.0f items/s   runs %s" %
              (name, med, med * per, " ".join("%.0f" % x for x in rps[name])), flush=True)
    return results


def run_server(a):
    """The server on a free port, the filters, the measurements; the server
    is killed by its pid whatever happens."""
    port = free_port()
    proc = subprocess.Popen(["redis-server", "--bind", "127.0.0.1", "--port", str(port),
                             "--save", "", "--appendonly", "no", "--daemonize", "no",
                             "--loadmodule", a.module],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        r = redis.Redis(port=port, socket_timeout=30)
        wait_up(r, proc, 10)
        r.execute_command("BF.RESERVE", "bf", "0.01", "2000000")
        r.execute_command("BF.RESERVE", "bf1", "0.01", "2000000")
        if a.large:
            r.execute_command("BF.RESERVE", "bf20", "0.01", "20000000")
        sinfo = r.execute_command("SBF.INFO", "bf")
        sinfo = {k.decode(): v for k, v in zip(sinfo[0::2], sinfo[1::2])}
        results = measure(r, port, a)
        facts = {"isa": sinfo["ISA"].decode(), "layout": sinfo["Layout"].decode(),
                 "bf_bytes": r.execute_command("BF.INFO", "bf", "size")[0],
                 "bf_items": r.execute_command("BF.CARD", "bf"), "set_card": r.scard("set"),
                 "redis_version": r.info("server")["redis_version"]}
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
    return results, facts


def ratios_of(results):
    ratios = []
    for num, den, anchor in RATIOS:
        if num in results and den in results:
            ratio = results[num]["items_per_s"] / results[den]["items_per_s"]
            # the same ratio within each round (the two ran seconds apart)
            rounds = [x / y for x, y in zip(results[num]["runs"], results[den]["runs"])]
            ratios.append({"ratio": "%s / %s" % (num, den), "value": round(ratio, 2),
                           "per_round": [round(x, 2) for x in rounds],
                           "redisbloom_2.6.28": anchor})
            print("%-34s %.2f  rounds %s%s" % (num + " / " + den, ratio,
                                             " ".join("%.2f" % x for x in rounds),
                                             "   (RedisBloom 2.6.28: %.2f)" % anchor
                                             if anchor else ""))
    return ratios


def write_report(out, meta, results, ratios):
    with open(os.path.join(out, "redis-bench.json"), "w") as f:
        json.dump({"meta": meta, "results": results, "ratios": ratios}, f, indent=1)
    with open(os.path.join(out, "redis-bench.md"), "w") as f:
        f.write("# sbf-redis throughput, %s\n\n" % meta["date"])
        f.write("%s, %d CPUs, redis-server %s, %s kernels, default layout %s, commit %s%s.\n"
                % (meta["cpu"], meta["nproc"], meta["redis_version"], meta["isa"],
                   meta["layout"], meta["commit"][:12], " (dirty)" if meta["dirty"] else ""))
        f.write("%s. Filter: `%s`, %d bytes, %d items at the end; set: %d members.\n\n"
                % (meta["method"], meta["filter"]["command"], meta["filter"]["bytes"],
                   meta["filter"]["items_after"], meta["set_members_after"]))
        f.write("| command | commands/s | items/s | runs |\n|---|---:|---:|---|\n")
        for name, v in results.items():
            f.write("| %s | %.0f | %.0f | %s |\n" % (name, v["commands_per_s"], v["items_per_s"],
                                                     " ".join("%.0f" % x for x in v["runs"])))
        f.write("\n| ratio (items/s) | medians | per round | RedisBloom 2.6.28 |\n"
                "|---|---:|---|---:|\n")
        for x in ratios:
            f.write("| %s | %.2f | %s | %s |\n" % (x["ratio"], x["value"],
                                                    " ".join("%.2f" % y for y in x["per_round"]),
                                                    "%.2f" % x["redisbloom_2.6.28"]
                                                    if x["redisbloom_2.6.28"] else "-"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--module", required=True)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--scale", type=float, default=1.0, help="multiplies the request counts")
    ap.add_argument("--out", default=None)
    ap.add_argument("--only", default=None, help="comma-separated case names")
    ap.add_argument("--large", action="store_true", help="also a 20M-capacity filter")
    a = ap.parse_args()
    results, facts = run_server(a)
    ratios = ratios_of(results)
    host = socket.gethostname().split(".")[0]
    date = datetime.date.today().isoformat()
    out = a.out or os.path.join(ROOT, "results", "runs", "%s-%s-redis" % (host, date))
    os.makedirs(out, exist_ok=True)
    meta = {"host": host, "date": datetime.datetime.now(datetime.timezone.utc).isoformat(),
            "cpu": cpu_model(), "nproc": os.cpu_count(), "commit": git("rev-parse", "HEAD"),
            "dirty": bool(git("status", "--porcelain", "--untracked-files=no")),
            "redis_version": facts["redis_version"], "module": os.path.basename(a.module),
            "isa": facts["isa"], "layout": facts["layout"],
            "method": "redis-benchmark -c 2 -P 16 -r 1000000 --csv, one warm-up run each, "
                      "then %d interleaved rounds, median; client and server share the "
                      "machine" % a.runs,
            "filter": {"command": "BF.RESERVE bf 0.01 2000000", "bytes": facts["bf_bytes"],
                       "items_after": facts["bf_items"]},
            "set_members_after": facts["set_card"]}
    write_report(out, meta, results, ratios)
    print("wrote", out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
