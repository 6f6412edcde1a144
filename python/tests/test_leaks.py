"""Reference counts and memory over many calls: nothing kept, nothing lost."""
import gc
import resource
import sys
import threading
import tracemalloc

import numpy as np
import pytest

import simdbloom
from conftest import ArrowLike


def test_refcounts_unchanged():
    f = simdbloom.Filter(1000)
    keys = [b"bytes key", "str key", 2**70 // 2**10, bytearray(b"ba"), np.arange(10, dtype=np.uint64)]
    before = [sys.getrefcount(k) for k in keys]
    seq = ["a", "b", 1]
    seq_before = [sys.getrefcount(x) for x in seq]
    arr = np.arange(100, dtype=np.uint64)
    arr_before = sys.getrefcount(arr)
    out = np.zeros(100, dtype=bool)
    out_before = sys.getrefcount(out)
    for _ in range(20000):
        for k in keys[:4]:
            f.add(k)
            k in f
        f.add_many(arr)
        f.contains_many(arr, out=out)
        f.add_many(seq)
        f.contains_many(seq)
        f.update(seq)
    del k  # the loop variable held the last key
    assert [sys.getrefcount(k) for k in keys] == before
    assert [sys.getrefcount(x) for x in seq] == seq_before
    assert sys.getrefcount(arr) == arr_before and sys.getrefcount(out) == out_before
    for bad in (1.5, 2**65):
        b0 = sys.getrefcount(bad)
        for _ in range(1000):
            with pytest.raises((TypeError, OverflowError)):
                f.add(bad)
        assert sys.getrefcount(bad) == b0


def test_no_python_memory_growth():
    f = simdbloom.Filter(10000)
    arr = np.arange(1000, dtype=np.uint64)
    arrow = ArrowLike([b"x%d" % i for i in range(100)], "u")
    def work(n):
        for i in range(n):
            f.add(i)
            f.add("s%d" % (i % 100))
            i in f
            f.add_many(arr)
            f.contains_many(arr)
            f.add_many(arrow)
            f.contains_many(arrow)
            f.update(range(10))
            try:
                f.add(1.5)
            except TypeError:
                pass
    work(2000)
    gc.collect()
    tracemalloc.start()
    s0 = tracemalloc.take_snapshot()
    work(20000)
    gc.collect()
    s1 = tracemalloc.take_snapshot()
    tracemalloc.stop()
    grown = sum(d.size_diff for d in s1.compare_to(s0, "filename"))
    assert grown < 64 * 1024, grown


def test_no_c_memory_growth(tmp_path):
    p = tmp_path / "f.sbf"
    simdbloom.Filter(100000).save(p)
    def churn(n):
        for _ in range(n):
            f = simdbloom.Filter(100000)   # 128 KiB of filter each
            g = f.copy() | f
            g.to_bytes()
            simdbloom.Filter.load(p)
            simdbloom.Filter.map(p)
    churn(200)
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    churn(2000)  # a leak of one filter per round would be 250+ MiB
    rss1 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    assert rss1 - rss0 < 32 * 1024, (rss0, rss1)  # KiB


def test_threads_share_a_filter():
    # batches drop the GIL; a writer waits for readers and the reverse
    f = simdbloom.Filter(2_000_000)
    parts = [np.arange(i, 2_000_000, 4, dtype=np.uint64) for i in range(4)]
    errors = []
    def add(a):
        try:
            f.add_many(a)
            for k in a[:2000].tolist():
                f.add(k)
        except Exception as e:  # pragma: no cover
            errors.append(e)
    def look():
        for _ in range(5):
            f.contains_many(parts[0])
            f.fpp
    ts = [threading.Thread(target=add, args=(a,)) for a in parts] + \
         [threading.Thread(target=look) for _ in range(2)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert not errors
    for a in parts:
        assert f.contains_many(a).all()
    g = simdbloom.Filter(2_000_000)
    for a in parts:
        g.add_many(a)
    assert g == f
