"""save/load/map, pickling (deterministic, exact), a multiprocessing pool on
one mapped filter, Guava and Parquet bytes."""
import copy
import multiprocessing
import os
import pickle

import numpy as np
import pytest

import simdbloom
from conftest import VECTORS

KEYS = np.arange(0, 200000, 3, dtype=np.uint64)


def filled(layout="blocked"):
    f = simdbloom.Filter(len(KEYS), 0.01, layout=layout)
    f.add_many(KEYS)
    f.add("text key")
    return f


@pytest.mark.parametrize("layout", simdbloom.layouts())
def test_save_load_map_round_trip(tmp_path, layout):
    f = filled(layout)
    p = tmp_path / "f.sbf"
    f.save(p)
    assert p.read_bytes() == f.to_bytes()
    for g in (simdbloom.Filter.load(p), simdbloom.Filter.map(p),
              simdbloom.Filter.map(str(p), verify=True), simdbloom.Filter.from_bytes(f.to_bytes())):
        assert g == f and g.keys_added == f.keys_added
        assert g.layout == f.layout and g.bits == f.bits and g.k == f.k
        assert g.contains_many(KEYS).all() and "text key" in g
    m = simdbloom.Filter.map(p)
    assert m.readonly and not f.readonly
    with pytest.raises(simdbloom.Error, match="read-only") as e:
        m.add(1)
    assert e.value.code == -19
    with pytest.raises(simdbloom.Error):
        m.add_many(KEYS)
    with pytest.raises(simdbloom.Error):
        m.clear()
    with pytest.raises(simdbloom.Error):
        m |= f
    assert m == f  # refused calls changed nothing
    c = m.copy()
    assert not c.readonly
    c.add("more")
    assert "more" in c and c != f


def test_pickle_deterministic_and_exact():
    f = filled()
    b1, b2 = pickle.dumps(f), pickle.dumps(f)
    assert b1 == b2
    g = pickle.loads(b1)
    assert g == f and g.keys_added == f.keys_added and g.fpp == f.fpp
    assert pickle.dumps(g) == b1
    assert pickle.dumps(copy.deepcopy(f)) == b1 and copy.copy(f) == f
    for proto in range(2, pickle.HIGHEST_PROTOCOL + 1):
        assert pickle.loads(pickle.dumps(f, protocol=proto)) == f


def test_pickled_mapping_is_its_path(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    f = filled()
    p = tmp_path / "f.sbf"
    f.save(p)
    m = simdbloom.Filter.map(p)
    b = pickle.dumps(m)
    assert len(b) < 1000  # the path, not the bits
    g = pickle.loads(b)
    assert g.readonly and g == f
    # a relative path travels as an absolute one
    os.chdir(tmp_path)
    r = pickle.dumps(simdbloom.Filter.map("f.sbf"))
    os.chdir("/")
    assert pickle.loads(r) == f


def _worker(args):
    f, lo, hi = args
    keys = KEYS[lo:hi]
    return bool(f.readonly), int(f.count_many(keys)), len(keys), os.getpid()


def test_pool_shares_one_mapped_filter(tmp_path):
    f = filled()
    p = tmp_path / "f.sbf"
    f.save(p)
    m = simdbloom.Filter.map(p)
    n = len(KEYS)
    jobs = [(m, i, min(i + 5000, n)) for i in range(0, n, 5000)]
    with multiprocessing.get_context("fork").Pool(2) as pool:
        res = pool.map(_worker, jobs)
    assert all(r[0] for r in res)                 # each worker mapped the file
    assert sum(r[1] for r in res) == n            # no false negative anywhere
    assert sum(r[2] for r in res) == n
    assert all(r[3] != os.getpid() for r in res)


def test_guava_vectors():
    # Guava's BloomFilter<Long> of 0..999 and its answers for 0..19999: Guava
    # hashes a long as 8 little-endian bytes, as simdbloom hashes an int
    g = simdbloom.Filter.from_guava(open(os.path.join(VECTORS, "guava_long1k.bin"), "rb").read())
    assert g.layout == "classic" and g.keys_added is None
    want = "".join(l.strip() for l in open(os.path.join(VECTORS, "guava_long1k_probes.txt"))
                   if not l.startswith("#"))
    got = g.contains_many(np.arange(20000, dtype=np.int64))
    assert "".join("1" if x else "0" for x in got) == want
    s = simdbloom.Filter.from_guava(open(os.path.join(VECTORS, "guava_utf8_100.bin"), "rb").read())
    want = "".join(l.strip() for l in open(os.path.join(VECTORS, "guava_utf8_100_probes.txt"))
                   if not l.startswith("#"))
    assert "".join("1" if str(i) in s else "0" for i in range(10000)) == want
    # out again, byte for byte
    raw = open(os.path.join(VECTORS, "guava_long1k.bin"), "rb").read()
    assert simdbloom.Filter.from_guava(raw).to_guava() == raw


def test_guava_needs_classic_seed_0():
    with pytest.raises(simdbloom.Error, match="not supported by this filter.s layout"):
        simdbloom.Filter(10).to_guava()
    f = simdbloom.Filter(100, layout="classic")
    f.add(3)
    assert simdbloom.Filter.from_guava(f.to_guava()) == f


def test_parquet_form_round_trip():
    f = simdbloom.Filter(1000, layout="parquet")
    f.add_many(np.arange(1000, dtype=np.int64))
    g = simdbloom.Filter.from_parquet(f.to_parquet())
    assert g == f
    with pytest.raises(simdbloom.Error):
        simdbloom.Filter(10).to_parquet()


def test_set_operations():
    a, b = simdbloom.Filter(1000), simdbloom.Filter(1000)
    a.update(range(0, 600))
    b.update(range(400, 1000))
    u, i = a | b, a & b
    assert u.contains_many(np.arange(1000)).all()
    assert i.contains_many(np.arange(400, 600)).all()
    assert u.keys_added is None and i.keys_added is None
    assert u.fpp > 0 and 900 < u.estimated_count < 1100
    c = a.copy()
    c |= b
    assert c == u
    c &= a
    assert c.contains_many(np.arange(600)).all()
    d = a.copy()
    d &= b
    assert d == i
    with pytest.raises(simdbloom.Error, match="differ in layout"):
        a | simdbloom.Filter(10)
    with pytest.raises(TypeError):
        a | {1, 2}
    assert (a == 5) is False and a != 5
    with pytest.raises(TypeError):
        hash(a)
    a.clear()
    assert a.keys_added == 0 and 5 not in a and a.fill_ratio == 0
    assert a == simdbloom.Filter(1000)


def test_counts_and_rates():
    f = simdbloom.Filter(10000, 0.01)
    assert f.keys_added == 0 and f.fpp == 0 and f.estimated_count == 0
    f.update(range(10000))
    assert 9800 <= f.keys_added <= 10000
    assert 0.005 < f.fpp <= 0.011 and 9500 < f.estimated_count < 10500
    assert f.fpp_at(10000) == pytest.approx(f.fpp, rel=0.05)
    with pytest.raises(TypeError):
        len(f)
    r = repr(f)
    assert "layout=blocked" in r and "keys_added=" in r


def test_counting_remove():
    f = simdbloom.Filter(100, layout="counting")
    f.add("a")
    f.remove("a")
    assert "a" not in f
    with pytest.raises(KeyError):
        f.remove("a")
    with pytest.raises(simdbloom.Error, match="not supported"):
        simdbloom.Filter(10).remove("a")
