"""Every key kind sets the bits the C library sets for the documented bytes
(int: 8 little-endian bytes of its two's complement; str: UTF-8; bytes-like:
its bytes), on every layout the library names; answers agree key by key."""
import random

import numpy as np
import pytest

import simdbloom
from conftest import CFilter, data_of, key_bytes

LAYOUTS = simdbloom.layouts()

INTS = [0, 1, -1, 2**63 - 1, -2**63, 2**64 - 1, 2**32, 12345678901234, True,
        # each size of CPython's 30-bit digits, and the edges of three
        2**30 - 1, 2**30, -2**30, 2**60 - 1, 2**60, -2**60, 2**60 + 12345, 2**62 + 7,
        2**63, 2**63 + 1, -2**63 + 1, -2**61 - 3, 0xDEADBEEFCAFEF00D]
STRS = ["", "a", "héllo", "日本語", "x" * 1000]
BYTES = [b"", b"\x00", b"abc", bytes(range(256))]


def twins(layout, n=2000, seed=0):
    f = simdbloom.Filter(n, 0.01, layout=layout, seed=seed)
    return f, CFilter(layout, f.bits, f.k, f.seed)


def test_layouts_come_from_the_library():
    assert LAYOUTS[:5] == ("classic", "blocked", "split-block", "counting", "parquet")
    for name in LAYOUTS:
        assert simdbloom.Filter(10, layout=name).layout == name
    with pytest.raises(ValueError, match="unknown layout 'nope' \\(layouts: classic, blocked"):
        simdbloom.Filter(10, layout="nope")


@pytest.mark.parametrize("layout", LAYOUTS)
def test_single_keys_same_bits_as_c(layout):
    f, c = twins(layout, seed=7 if layout != "parquet" else 0)
    keys = INTS + STRS + BYTES + [bytearray(b"ba"), memoryview(b"mv"), np.uint64(77),
                                  np.int64(-5), np.int32(9)]
    for k in keys:
        f.add(k)
        c.add(key_bytes(int(k) if isinstance(k, np.integer) else k))
    assert data_of(f) == c.data()
    probes = keys + list(range(1000, 3000)) + [str(i) for i in range(2000)]
    for k in probes:
        kb = key_bytes(int(k) if isinstance(k, np.integer) else k)
        assert (k in f) == c.contains(kb)
    for k in keys:
        assert k in f, k


def test_int_range_and_aliases():
    f = simdbloom.Filter(100)
    f.add(-1)
    assert 2**64 - 1 in f
    f.add(-2**63)
    assert 2**63 in f
    f.add(5)
    assert (5).to_bytes(8, "little") in f  # an int is its 8-byte little-endian form
    for bad in (2**64, -2**63 - 1, 10**30, -10**30):
        with pytest.raises(OverflowError, match="-2\\*\\*63 .. 2\\*\\*64-1"):
            f.add(bad)
        with pytest.raises(OverflowError):
            bad in f


@pytest.mark.parametrize("layout", LAYOUTS)
def test_update_same_bits_as_c(layout):
    f, c = twins(layout, 5000)
    rnd = random.Random(1)
    ints = [rnd.randrange(-2**63, 2**64) for _ in range(3000)]
    mixed = ints + [str(i) for i in range(1500)] + [bytes([i % 256]) * (i % 9) for i in range(700)]
    rnd.shuffle(mixed)
    f.update(iter(mixed), range(10))
    for k in mixed + list(range(10)):
        c.add(key_bytes(k))
    assert data_of(f) == c.data()
    g = simdbloom.Filter(5000, layout=layout)
    for k in mixed + list(range(10)):
        g.add(k)
    assert g == f
    assert g.keys_added == f.keys_added


@pytest.mark.parametrize("layout", LAYOUTS)
def test_numpy_batches_same_bits_as_c(layout):
    rnd = np.random.default_rng(3)
    u = rnd.integers(0, 2**64 - 1, size=20000, dtype=np.uint64, endpoint=True)
    i = rnd.integers(-2**63, 2**63 - 1, size=5000, dtype=np.int64)
    s = np.array([b"k%d" % j for j in range(3000)], dtype="S8")  # NUL padded
    rows = rnd.integers(0, 256, size=(1000, 5), dtype=np.uint8)
    f, c = twins(layout, 30000)
    changed = f.add_many(u) + f.add_many(i) + f.add_many(s) + f.add_many(rows)
    assert changed == f.keys_added
    for k in u.tolist() + i.tolist():
        c.add(key_bytes(k))
    for k in s.tolist():  # NumPy reads 'S' items without their trailing NULs
        c.add(k)
    for r in rows:
        c.add(r.tobytes())
    assert data_of(f) == c.data()
    # answers: contains_many = the C library key by key, present keys all True
    probe = np.concatenate([u[:500], rnd.integers(0, 2**64 - 1, size=20000, dtype=np.uint64)])
    ans = f.contains_many(probe)
    assert ans.dtype == np.bool_ and ans.shape == probe.shape
    assert ans.tolist() == [c.contains(key_bytes(k)) for k in probe.tolist()]
    assert f.contains_many(u).all() and f.contains_many(i).all()
    assert f.contains_many(s).all() and f.contains_many(rows).all()
    assert f.count_many(probe) == int(ans.sum())
    out = np.zeros(len(probe), dtype=np.uint8)
    assert f.contains_many(probe, out=out) is out
    assert out.tolist() == ans.astype(np.uint8).tolist()


def test_sequences_in_batches():
    f = simdbloom.Filter(1000)
    keys = [1, "two", b"three", bytearray(b"four"), -5]
    assert f.add_many(keys) == 5
    assert f.contains_many(keys).all()
    assert f.contains_many(("nope", 99, b"x")).tolist() == [k in f for k in ("nope", 99, b"x")]
    assert f.add_many([]) == 0
    assert f.contains_many(np.array([], dtype=np.uint64)).shape == (0,)


def test_update_routes_arrays_to_add_many():
    a = np.arange(10000, dtype=np.int64)
    f, g = simdbloom.Filter(10000), simdbloom.Filter(10000)
    f.update(a)
    g.add_many(a)
    assert f == g


@pytest.mark.parametrize("fmt", ["l", "L", "u", "z", "U", "Z"])
@pytest.mark.parametrize("layout", ["blocked", "classic", "parquet"])
def test_arrow_arrays_same_bits_as_c(arrow, fmt, layout):
    if fmt in ("l", "L"):
        lo = -2**63 if fmt == "l" else 0
        hi = 2**63 - 1 if fmt == "l" else 2**64 - 1
        rnd = random.Random(5)
        vals = [rnd.randint(lo, hi) for _ in range(3000)] + [lo, hi, 0]
    else:
        vals = [("v%d" % j).encode() * (j % 4) for j in range(3000)] + ["é".encode()]
    vals_n = list(vals)
    vals_n[3] = None
    vals_n[100] = None
    f, c = twins(layout, 5000)
    arr = arrow(vals_n, fmt)
    added = f.add_many(arr)
    for v in vals_n:
        if v is not None:
            c.add(key_bytes(v))
    assert data_of(f) == c.data()
    assert added == f.keys_added
    ans = f.contains_many(arr)
    assert ans[3] == False and ans[100] == False  # noqa: E712  (nulls answer False)
    assert all(ans[j] for j in range(len(vals_n)) if vals_n[j] is not None)
    # a slice (Arrow offset) and an unknown null count
    sl = arrow(vals_n, fmt, offset=1000, declare_nulls=False)
    assert f.contains_many(sl).tolist() == [v is not None for v in vals_n[1000:]]
    probes = arrow([key_bytes(j) if fmt not in ("l", "L") else j for j in range(10**6, 10**6 + 2000)],
                   fmt if fmt != "l" else "l")
    got = f.contains_many(probes).tolist()
    want = [c.contains(key_bytes(j) if fmt in ("l", "L") else key_bytes(key_bytes(j)))
            for j in range(10**6, 10**6 + 2000)]
    assert got == want


def test_arrow_refusals(arrow):
    f = simdbloom.Filter(100)
    a = arrow([1, 2], "l")
    a.schema.format = b"i"
    with pytest.raises(TypeError, match="not format 'i'"):
        f.add_many(a)
    b = arrow([b"x", b"y"], "u")
    b.array.n_buffers = 2
    with pytest.raises(ValueError, match="malformed Arrow array"):
        f.add_many(b)
    c = arrow([1], "l")
    c.array.release = ctypes_null_release()
    with pytest.raises(ValueError, match="already released"):
        f.contains_many(c)
    d = arrow([b"aa", b"b"], "u")
    # decreasing offsets are refused, not read
    import ctypes
    offs = ctypes.cast(d.bufarr[1], ctypes.POINTER(ctypes.c_int32))
    offs[1] = 5
    with pytest.raises(ValueError, match="offsets decrease"):
        f.add_many(d)

    class NotTuple:
        def __arrow_c_array__(self, requested_schema=None):
            return 5
    with pytest.raises(TypeError, match="capsules"):
        f.add_many(NotTuple())


def ctypes_null_release():
    from conftest import _RELEASE_A
    return _RELEASE_A()


@pytest.mark.parametrize("fmt", ["l", "u", "Z"])
def test_arrow_streams(arrow, arrow_stream, fmt):
    def val(j):
        return j if fmt == "l" else b"s%d" % j
    chunks = [[val(j) for j in range(a, b)] for a, b in ((0, 1000), (1000, 1000), (1000, 2500))]
    chunks[2][7] = None
    s = arrow_stream([arrow(c, fmt) for c in chunks])
    f, g = simdbloom.Filter(5000), simdbloom.Filter(5000)
    assert f.add_many(s) == 2499 == f.keys_added
    for c in chunks:
        g.add_many(arrow(c, fmt))
    assert f == g
    flat = [v for c in chunks for v in c]
    ans = f.contains_many(s)
    assert ans.tolist() == [v is not None for v in flat]
    out = np.zeros(len(flat), dtype=bool)
    assert f.contains_many(s, out=out) is out and out.tolist() == ans.tolist()
    assert f.count_many(s) == 2499
    with pytest.raises(ValueError, match="shorter"):
        f.contains_many(s, out=np.zeros(10, dtype=bool))
    with pytest.raises(ValueError, match="out has"):
        f.contains_many(s, out=np.zeros(len(flat) + 1, dtype=bool))
    h = simdbloom.Filter(5000)
    h.update(s)
    assert h == f
    bad = arrow_stream([arrow(c, fmt) for c in chunks], fail_at=1)
    with pytest.raises(ValueError, match="the producer failed"):
        f.add_many(bad)


def test_every_one_key_isa_same_bits():
    # the one-key code exists per ISA (view_avx2.c, view_avx512.c, portable):
    # each sets the C library's bits and gives its answers, on every layout
    from simdbloom import _core
    first = _core._view_isa()
    ran = []
    try:
        for isa in ("portable", "avx2", "avx512"):
            try:
                _core._view_isa(isa)
            except ValueError:
                continue  # not compiled in, or this CPU lacks it
            ran.append(isa)
            for layout in LAYOUTS:
                test_single_keys_same_bits_as_c(layout)
                test_update_same_bits_as_c(layout)
    finally:
        _core._view_isa(first)
    assert "portable" in ran
    with pytest.raises(ValueError):
        _core._view_isa("sse9")
