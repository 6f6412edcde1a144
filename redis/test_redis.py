#!/usr/bin/python3
"""make test-redis: sbf-redis.so in real redis-server processes.

Starts redis-server on free 127.0.0.1 ports, loads the module, and drives it
with a raw RESP2/RESP3 client (exact reply types and error bytes), redis-py
(r.bf(), pipelines) and redis-cli. Every server is started by the harness
(redis/tests/harness.py), waited for with a bounded loop, and killed by its
own pid in a finally block, also when a check fails. Prints "N passed, N
failed" and exits non-zero on any failure.

Run with Debian's /usr/bin/python3 (python3-redis), not from the project
root (redis/ would shadow the redis package).
"""
import argparse
import os
import shutil
import sys
import tempfile
import time
import traceback

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "tests"))

import harness  # noqa: E402
from harness import Server, check  # noqa: E402
from test_commands import (test_batch_equals_single, test_errors, test_nonscaling_full,  # noqa: E402
                           test_replies_resp2, test_resp3, test_scaling_and_fpr)
from test_extras import (test_binary_items, test_extras, test_key_commands,  # noqa: E402
                         test_redis_py)
from flow_run import run_redisbloom, run_valkey_flow  # noqa: E402
from test_cluster import test_cluster  # noqa: E402
from test_fuzz import fuzz_server  # noqa: E402
from test_memory import test_maxmemory  # noqa: E402
from test_promise import test_chain_fpr, test_limits_named  # noqa: E402
from test_operate import run_all as operate_all  # noqa: E402
from test_dump import test_debug, test_loadchunk_table, test_scandump  # noqa: E402
from old_module import test_old_dumps  # noqa: E402
from test_rule import test_rule  # noqa: E402
from test_persistence import (test_aof, test_aof_limits, test_corrupt_rdb,  # noqa: E402
                              test_persistence, test_replica, test_restore_flood)


def run(name, fn):
    """One group of checks; an exception is a failed check, not the end."""
    t = time.time()
    try:
        fn()
    except Exception:
        check(False, "%s raised:\n%s" % (name, traceback.format_exc()))
    print("%-12s %5.1fs  (%d passed, %d failed so far)" %
          (name, time.time() - t, harness.PASSED, harness.FAILED), flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--module", required=True)
    ap.add_argument("--fuzz-count", type=int, default=20000,
                    help="commands the fuzz sends (a fixed number, whatever the load)")
    ap.add_argument("--asan-preload", default=None)
    a = ap.parse_args()
    harness.ASAN_PRELOAD = a.asan_preload
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
                         ("scandump", test_scandump), ("loadchunk", test_loadchunk_table),
                         ("debug", test_debug), ("chain-fpr", test_chain_fpr),
                         ("limits", test_limits_named),
                         ("extras", test_extras), ("key-commands", test_key_commands),
                         ("redis-py", test_redis_py),
                         ("binary", test_binary_items), ("corrupt-rdb", test_corrupt_rdb),
                         ("restore-flood", test_restore_flood),
                         ("persistence", test_persistence)):
            run(name, lambda: fn(primary))
            if not primary.alive():
                check(False, "server died during %s:\n%s" % (name, primary.log_tail()))
                primary.start()
        run("aof", lambda: test_aof(a.module, workdir))
        run("old-dumps", lambda: test_old_dumps(a.module, workdir))
        run("rule", lambda: test_rule(a.module, workdir))
        run("aof-limits", lambda: test_aof_limits(a.module, workdir, primary))
        run("replica", lambda: test_replica(a.module, workdir, primary))
        operate_all(run, a.module, workdir)
        run("maxmemory", lambda: test_maxmemory(a.module, workdir))
        run("fuzz", lambda: fuzz_server(a, workdir))
        run("cluster", lambda: test_cluster(a.module, workdir))
        run_redisbloom(run, a.module, workdir)
        run_valkey_flow(run, a.module, workdir)
    finally:
        primary.stop()
        if harness.FAILED == 0:
            shutil.rmtree(workdir, ignore_errors=True)
        else:
            print("server logs kept in", workdir)
    print("test-redis: %.1fs" % (time.time() - t0))
    print("%d passed, %d failed" % (harness.PASSED, harness.FAILED))
    return 1 if harness.FAILED else 0


if __name__ == "__main__":
    sys.exit(main())
