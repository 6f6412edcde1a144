"""make test-redis: a Redis Cluster for real (issue 19). Three primaries with
one replica each on 127.0.0.1, every node loading the module; redis-py's
RedisCluster adds 10^5 items over 1,000 keys spread over all slots with
BF.MADD; WAIT; a primary is killed (kill -9, by pid) and its replica
promoted; every acknowledged item must still be found through the cluster.
Then a manual CLUSTER FAILOVER, and `redis-cli --cluster reshard` of 1,000
slots (MIGRATE carries the data type). Bounded: every wait has a deadline;
every server is stopped by pid."""
import logging
import os
import signal
import socket
import subprocess
import time

import redis
from redis.cluster import ClusterNode, RedisCluster

from harness import Server, check, eq, wait_for

KEYS = 1000
PER_KEY = 100

# redis-py logs every MOVED it follows (failover, resharding) with a traceback
logging.getLogger("redis.cluster").setLevel(logging.CRITICAL)


def cluster_port():
    """A free port whose cluster bus port (+10000) is free too."""
    for _ in range(100):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        s.close()
        if port + 10000 > 65535:
            continue
        b = socket.socket()
        try:
            b.bind(("127.0.0.1", port + 10000))
            return port
        except OSError:
            continue
        finally:
            b.close()
    raise RuntimeError("no free port pair")


def start_nodes(module, workdir, n):
    nodes = []
    for i in range(n):
        nd = Server(module, workdir, "cluster%d" % i,
                    ["--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
                     "--cluster-node-timeout", "2000", "--cluster-replica-validity-factor", "0",
                     "--appendonly", "no"])
        nd.port_fn = cluster_port
        nodes.append(nd.start())
    return nodes


def node_id(nd):
    return nd.r().execute_command("CLUSTER", "MYID").decode()


def cluster_ok(nd):
    try:
        return b"cluster_state:ok" in nd.r().execute_command("CLUSTER", "INFO")
    except redis.RedisError:
        return False


def create(nodes):
    addrs = ["127.0.0.1:%d" % nd.port for nd in nodes]
    out = subprocess.run(["redis-cli", "--cluster", "create"] + addrs +
                         ["--cluster-replicas", "1", "--cluster-yes"],
                         capture_output=True, text=True, timeout=60)
    eq(out.returncode, 0, "redis-cli --cluster create: %s" % out.stdout[-300:])
    wait_for(lambda: all(cluster_ok(nd) for nd in nodes), "cluster_state:ok", 30)


def roles(nodes):
    """primary node -> its replica node, from CLUSTER NODES."""
    by_id = {node_id(nd): nd for nd in nodes if nd.alive()}
    pairs = {}
    for line in next(nd for nd in nodes if nd.alive()).r().execute_command(
            "CLUSTER", "NODES").decode().splitlines():
        f = line.split()
        if "slave" in f[2] and f[3] in by_id and f[0] in by_id and "fail" not in f[2]:
            pairs[by_id[f[3]]] = by_id[f[0]]
    return pairs


def add_items(rc):
    """BF.MADD of PER_KEY items to each of KEYS keys; the acknowledged ones."""
    acked = {}
    for k in range(KEYS):
        key = "bf:%d" % k
        its = ["%d-%d" % (k, i) for i in range(PER_KEY)]
        rep = rc.execute_command("BF.MADD", key, *its)
        if isinstance(rep, list) and len(rep) == PER_KEY:
            acked[key] = its
    return acked


def found(rc, acked):
    n = 0
    for key, its in acked.items():
        n += sum(rc.execute_command("BF.MEXISTS", key, *its))
    return n


def wait_replicated(rc, pairs):
    for primary, replica in pairs.items():
        node = rc.get_node(host="127.0.0.1", port=primary.port)
        eq(rc.execute_command("WAIT", 1, 10000, target_nodes=node), 1,
           "WAIT: the replica of %d acknowledged" % primary.port)
        want = primary.r().info("replication")["master_repl_offset"]
        wait_for(lambda: replica.r().info("replication")["slave_repl_offset"] >= want,
                 "replica offset", 30)


def kill_primary(rc, nodes, pairs, acked):
    victim, heir = next(iter(pairs.items()))
    keys_there = sum(1 for key in acked if rc.keyslot(key) in slots_of(victim))
    t0 = time.time()
    os.kill(victim.proc.pid, signal.SIGKILL)
    victim.proc.wait(10)
    victim.proc = None
    wait_for(lambda: heir.r().info("replication")["role"] == "master", "replica promoted", 30)
    wait_for(lambda: all(cluster_ok(nd) for nd in nodes if nd.alive()), "cluster ok", 30)
    recovered = time.time() - t0
    return victim, heir, keys_there, recovered


def slots_of(nd):
    slots = set()
    for s in nd.r().execute_command("CLUSTER", "SLOTS"):
        if s[2][1] == nd.port:
            slots.update(range(s[0], s[1] + 1))
    return slots


def primaries(nodes):
    return [nd for nd in nodes if nd.alive() and nd.r().info("replication")["role"] == "master"]


def reshard(nodes, rc, acked):
    """Moves 1,000 slots between two primaries; returns how many keys went
    (by MIGRATE, the module's type in a DUMP payload)."""
    wait_for(lambda: len(primaries(nodes)) == 3, "three primaries", 30)
    src, dst = primaries(nodes)[:2]
    before = slots_of(dst)
    out = subprocess.run(["redis-cli", "--cluster", "reshard", "127.0.0.1:%d" % dst.port,
                          "--cluster-from", node_id(src), "--cluster-to", node_id(dst),
                          "--cluster-slots", "1000", "--cluster-yes"],
                         capture_output=True, text=True, timeout=120)
    eq(out.returncode, 0, "redis-cli --cluster reshard: %s" % out.stdout[-300:])
    wait_for(lambda: all(cluster_ok(nd) for nd in nodes if nd.alive()), "cluster ok", 30)
    moved = slots_of(dst) - before
    eq(len(moved), 1000, "1,000 slots moved")
    keys = sum(1 for k in acked if rc.keyslot(k) in moved)
    check(keys > 20, "%d keys migrated with them" % keys)
    return keys


def test_cluster(module, workdir):
    nodes = start_nodes(module, workdir, 6)
    try:
        create(nodes)
        rc = RedisCluster(startup_nodes=[ClusterNode("127.0.0.1", nodes[0].port)],
                          socket_timeout=30, cluster_error_retry_attempts=10)
        wait_for(lambda: len(roles(nodes)) == 3, "every node knows the three pairs", 30)
        pairs = roles(nodes)
        eq(len(pairs), 3, "three primaries with a replica each")
        acked = add_items(rc)
        eq(sum(len(v) for v in acked.values()), KEYS * PER_KEY, "items acknowledged")
        check(len({rc.keyslot(k) for k in acked}) > 900, "keys over all slots")
        wait_replicated(rc, pairs)
        victim, heir, keys_there, recovered = kill_primary(rc, nodes, pairs, acked)
        rc = RedisCluster(startup_nodes=[ClusterNode("127.0.0.1", heir.port)],
                          socket_timeout=30, cluster_error_retry_attempts=10)
        after = found(rc, acked)
        eq(after, KEYS * PER_KEY, "every acknowledged item found after failover")
        wait_for(lambda: len(roles(nodes)) == 2, "two shards with a replica left", 30)
        primary, replica = next(iter(roles(nodes).items()))
        eq(replica.r().execute_command("CLUSTER", "FAILOVER"), b"OK", "CLUSTER FAILOVER")
        wait_for(lambda: replica.r().info("replication")["role"] == "master", "manual failover", 30)
        wait_for(lambda: all(cluster_ok(nd) for nd in nodes if nd.alive()), "cluster ok", 30)
        eq(found(rc, acked), KEYS * PER_KEY, "every item after CLUSTER FAILOVER")
        migrated = reshard(nodes, rc, acked)
        eq(found(rc, acked), KEYS * PER_KEY, "every item after resharding 1,000 slots")
        print("cluster: %d items acknowledged on %d keys; primary :%d (%d keys) killed, replica "
              ":%d promoted and the cluster ok in %.1f s; %d found after failover, all after "
              "CLUSTER FAILOVER and a 1,000-slot reshard that migrated %d keys" %
              (KEYS * PER_KEY, KEYS, victim.port, keys_there, heir.port, recovered, after, migrated))
    finally:
        for nd in nodes:
            nd.stop()
