"""Runs the ported flow tests (flow_redisbloom*.py, flow_valkey.py) in
RedisBloom's three RLTest modes: plain; AOF (after each test the AOF is
rewritten and reloaded, and every key must come back bit for bit); replica
(after each test the replica must hold every key bit for bit). Prints one
line per test and mode: pass, different by design (with the reason), or
FAIL."""
import harness
from harness import Server, check, digests, eq, wait_for


def reload_rdb(r):
    r.execute_command("DEBUG", "RELOAD")


def reload_aof(r):
    wait_for(lambda: r.info("persistence")["aof_rewrite_in_progress"] == 0, "no AOF rewrite")
    r.execute_command("BGREWRITEAOF")
    wait_for(lambda: r.info("persistence")["aof_rewrite_in_progress"] == 0 and
             r.info("persistence")["aof_rewrite_scheduled"] == 0, "AOF rewrite")
    r.execute_command("DEBUG", "LOADAOF")


def start(module, workdir, mode, tag):
    extra = ["--appendonly", "yes", "--aof-use-rdb-preamble", "no",
             "--auto-aof-rewrite-percentage", "0"] if mode == "aof" else []
    s = Server(module, workdir, "flow-%s-%s" % (tag, mode), extra).start()
    rep = None
    if mode == "replica":
        s.r().config_set("repl-diskless-sync-delay", 0)
        rep = Server(module, workdir, "flow-%s-replica" % tag,
                     ["--replicaof", "127.0.0.1", str(s.port)]).start()
        rr = rep.r()
        wait_for(lambda: rr.info("replication").get("master_link_status") == "up", "replica link")
    return s, rep


def after(mode, s, rep, name):
    """The mode's own check after a test."""
    r = s.r()
    if mode == "aof":
        before = digests(r)
        reload_aof(r)
        eq(digests(r), before, "%s: every key back from the AOF" % name)
    elif mode == "replica":
        # WAIT would only wait for this connection's writes: compare offsets
        rr = rep.r()
        want = r.info("replication")["master_repl_offset"]
        wait_for(lambda: rr.info("replication")["slave_repl_offset"] >= want, "replica offset")
        eq(digests(rr), digests(r), "%s: the replica holds every key bit for bit" % name)


def run_mode(module, workdir, mode, tests, tag, envclass):
    s, rep = start(module, workdir, mode, tag)
    results = []
    try:
        for name, fn, design, modes in tests:
            if mode not in modes:
                continue
            r = s.r()
            r.execute_command("FLUSHALL")
            failed = harness.FAILED
            reload = (lambda: reload_aof(s.r())) if mode == "aof" else (lambda: reload_rdb(s.r()))
            try:
                fn(envclass(s, name, reload=reload))
            except Exception as e:  # noqa: BLE001 - a test's error is its failure
                check(False, "%s (%s) raised %r" % (name, mode, e))
            if s.alive():
                after(mode, s, rep, name)
            else:
                check(False, "%s (%s): the server died" % (name, mode))
                s.start()
            ok = harness.FAILED == failed
            results.append((name, "FAIL" if not ok else
                            "different by design, because " + design if design else "pass"))
    finally:
        if rep is not None:
            rep.stop()
        s.stop()
    return results


def report(title, by_mode):
    names = [n for n, _ in next(iter(by_mode.values()))]
    print("%s: %d tests" % (title, len(names)))
    for mode, results in by_mode.items():
        counts = {}
        for _, st in results:
            key = st.split(",")[0]
            counts[key] = counts.get(key, 0) + 1
        print("  %-8s %s" % (mode, ", ".join("%d %s" % (v, k) for k, v in sorted(counts.items()))))
    for name, st in next(iter(by_mode.values())):
        modes = [m for m, res in by_mode.items() if dict(res).get(name) == "FAIL"]
        print("  %-46s %s%s" % (name, st, " (FAIL in %s)" % modes if modes else ""))


def run_redisbloom(run, module, workdir):
    """RedisBloom 2.6.28's flow tests for BF.* in the three modes."""
    import flow_redisbloom
    import flow_redisbloom_dump

    by_mode = {}
    for mode in ("plain", "aof", "replica"):
        def one(mode=mode):
            res = run_mode(module, workdir, mode, flow_redisbloom.TESTS, "rb",
                           flow_redisbloom.Env)
            res += run_mode(module, workdir, mode, flow_redisbloom_dump.TESTS, "rbdump",
                            lambda s, n, reload: flow_redisbloom.Env(s, n, False, reload))
            by_mode[mode] = res
        run("rb-flow-" + mode, one)
    if by_mode:
        report("RedisBloom 2.6.28 flow tests (tests/flow/test_overall.py, test_resp3.py)", by_mode)


def run_valkey_flow(run, module, workdir):
    import flow_valkey

    results = flow_valkey.run_valkey(run, module, workdir, run_mode)
    if results:
        report("valkey-bloom tests (tests/test_*.py)", {"plain": results})
