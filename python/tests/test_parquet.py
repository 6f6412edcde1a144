"""simdbloom.parquet against a DuckDB-written file (tests/vectors/duckdb_small.*)
and against `sbf parquet list --json` when the CLI is built."""
import json
import os
import struct
import subprocess

import numpy as np
import pytest

import simdbloom
from simdbloom import parquet
from conftest import REPO, VECTORS

GEN = os.path.join(REPO, "tests", "gen", "gen_parquet.py")

PQ = os.path.join(VECTORS, "duckdb_small.parquet")


def values():
    """{(row_group, column): [(plain bytes, text)]} from duckdb_small.values."""
    out, cur = {}, None
    for line in open(os.path.join(VECTORS, "duckdb_small.values"), encoding="utf-8"):
        parts = line.rstrip("\n").split(" ", 2)
        if parts[0] == "chunk":
            f = line.split()
            cur = out.setdefault((int(f[1]), f[2]), [])
        elif parts[0] == "v":
            raw = b"" if parts[1] == "-" else bytes.fromhex(parts[1])
            cur.append((raw, parts[2] if len(parts) > 2 else ""))
    return out


def test_list_matches_the_cli():
    with parquet.ParquetFile(PQ) as pf:
        assert pf.row_groups == 3
        assert pf.columns == ["b", "n", "d", "s"]
        blooms = pf.blooms()
    assert len(blooms) == 12
    assert blooms[0] == parquet.Bloom(0, "b", "b", 0, 35033, 1040, 1024, blooms[0].fill,
                                      blooms[0].est_fpp)
    assert [(b.row_group, b.column_index) for b in blooms[:4]] == [(0, 0), (0, 1), (0, 2), (0, 3)]
    cli = os.path.join(os.environ.get("SBF_BUILD", os.path.join(REPO, "build")), "sbf")
    if not os.path.exists(cli):
        pytest.skip("the sbf CLI is not built")
    want = json.loads(subprocess.check_output([cli, "parquet", "list", PQ, "--json"]))
    assert [b._asdict() for b in blooms] == want


def test_every_value_is_found_in_its_row_group():
    pf = parquet.ParquetFile(PQ)
    types = {c.path: c.type for c in pf.chunks}
    for (rg, col), vals in values().items():
        f = pf.filter(col, rg)
        assert f.layout == "parquet"
        assert all(raw in f for raw, _ in vals)
        # the same through Python values and the column's type
        for raw, text in vals[:50]:
            t = types[col]
            if t == "INT64" or t == "INT32":
                v = int(text)
            elif t == "DOUBLE":
                v = struct.unpack("<d", raw)[0]
            else:
                v = raw.decode("utf-8")
            assert parquet.encode(v, t) == raw
            assert rg in pf.row_groups_for(col, v)


def test_probe_and_cli_answers():
    pf = parquet.ParquetFile(PQ)
    # the CLI test's answers: 287000861 in row groups 0,1,2; 1 in none
    assert pf.row_groups_for("b", 287000861) == [0, 1, 2]
    assert pf.row_groups_for("b", 1) == []
    assert pf.row_groups_for("s", "no such key") == []
    got = pf.probe("b", np.array([287000861, 1], dtype=np.int64))
    assert got.tolist() == [[True, True, True], [False, False, False]]
    vals = values()
    ints = np.array([int(t) for _, t in vals[(1, "n")]])
    assert pf.probe("n", ints)[:, 1].all()
    dbl = np.array([struct.unpack("<d", r)[0] for r, _ in vals[(2, "d")]])
    assert pf.probe("d", dbl)[:, 2].all()
    strs = [r.decode() for r, _ in vals[(0, "s")]]
    p = pf.probe("s", strs)
    assert p.shape == (len(strs), 3) and p[:, 0].all()
    with pytest.raises(KeyError):
        pf.row_groups_for("zz", 1)
    with pytest.raises(IndexError):
        pf.filter("b", 9)
    with pytest.raises(OverflowError):
        pf.row_groups_for("n", 2**40)
    with pytest.raises(TypeError):
        pf.row_groups_for("n", "text")
    pf.close()
    with pytest.raises(ValueError, match="closed"):
        pf._f.chunks()


def test_encode():
    assert parquet.encode(1, "int32") == b"\x01\x00\x00\x00"
    assert parquet.encode(-1, "INT64") == b"\xff" * 8
    assert parquet.encode(2**64 - 1, "INT64") == b"\xff" * 8
    assert parquet.encode(1.5, "double") == struct.pack("<d", 1.5)
    assert parquet.encode("é", "string") == "é".encode()
    with pytest.raises(TypeError):
        parquet.encode(1, "INT96")


def cli_path():
    cli = os.path.join(os.environ.get("SBF_BUILD", os.path.join(REPO, "build")), "sbf")
    return cli if os.path.exists(cli) else None


def gen(tmp_path, mode, *args):
    out = str(tmp_path / (mode + ".parquet"))
    subprocess.check_call(["/usr/bin/python3", GEN, mode, out, *map(str, args)])
    return out


def dots_file(tmp_path):
    """Issue 33's collision: column 0 the top-level "a.b" holding top-0..49,
    column 1 field b of struct a holding nested-0..49."""
    blooms = []
    for name, prefix in (("A", "top-"), ("B", "nested-")):
        f = simdbloom.Filter(50, fpp=0.01, layout="parquet")
        for i in range(50):
            f.add(f"{prefix}{i}".encode())
        p = tmp_path / (name + ".bloom")
        p.write_bytes(f.to_parquet())
        blooms.append(p)
    return gen(tmp_path, "dots", *blooms)


def test_colliding_names_never_pick_one(tmp_path):
    path = dots_file(tmp_path)
    with parquet.ParquetFile(path) as pf:
        assert [(c.column, c.path, c.name) for c in pf.chunks] == [
            (0, "a.b", "a\\.b"), (1, "a.b", "a.b")]
        assert pf.columns == ["a\\.b", "a.b"]
        # the raw path names two columns: refused, both named in the message
        for call in (lambda: pf.row_groups_for("a.b", "top-1", type="string"),
                     lambda: pf.probe("a.b", ["top-1"], type="string"),
                     lambda: pf.filter("a.b", 0)):
            with pytest.raises(ValueError, match=r"ambiguous.*column 0.*column 1") as e:
                call()
            assert not isinstance(e.value, simdbloom.Error)
        # the escaped names and the indexes each find their own column
        for top in ("a\\.b", 0):
            assert pf.row_groups_for(top, "top-1", type="string") == [0]
            assert pf.row_groups_for(top, "nested-1", type="string") == []
        for nested in (1,):
            assert pf.row_groups_for(nested, "nested-1", type="string") == [0]
            assert pf.row_groups_for(nested, "top-1", type="string") == []
        got = pf.probe(0, ["top-%d" % i for i in range(50)], type="string")
        assert got.shape == (50, 1) and got.all()
        with pytest.raises(KeyError):
            pf.row_groups_for(2, "x", type="string")
        with pytest.raises(KeyError):
            pf.row_groups_for("a\\.c", "x", type="string")
        with pytest.raises(TypeError):
            pf.row_groups_for(1.0, "x", type="string")
        blooms = pf.blooms()
        assert [(b.column, b.name, b.column_index) for b in blooms] == [
            ("a.b", "a\\.b", 0), ("a.b", "a.b", 1)]
    cli = cli_path()
    if cli is not None:
        want = json.loads(subprocess.check_output([cli, "parquet", "list", path, "--json"]))
        assert [b._asdict() for b in blooms] == want


def test_shared_filter_read_once(tmp_path):
    path = gen(tmp_path, "shared", 4, 64)
    with parquet.ParquetFile(path) as pf:
        assert pf.row_groups == 4
        fs = [pf.filter("x", g) for g in range(4)]
        assert all(f is fs[0] for f in fs)
        assert len(pf._filters) == 1
        assert pf.row_groups_for("x", b"k", type="bytes") == []
        blooms = pf.blooms()
        assert len(pf._filters) == 1
    assert [b.offset for b in blooms] == [4] * 4
    cli = cli_path()
    if cli is not None:
        want = json.loads(subprocess.check_output([cli, "parquet", "list", path, "--json"]))
        assert [b._asdict() for b in blooms] == want


def test_filter_size_limit(tmp_path):
    path = gen(tmp_path, "shared", 2, 4096)
    with parquet.ParquetFile(path) as pf:
        off, total = pf._f.bloom_extent(0)
    assert off == 4 and 4096 < total < 4096 + 32   # the header and the bitset
    with parquet.ParquetFile(path, max_filter_bytes=4096) as pf:
        with pytest.raises(simdbloom.Error, match=f"{total} bytes, above the limit of 4096"):
            pf.row_groups_for("x", b"k", type="bytes")
        with pytest.raises(simdbloom.Error, match="max_filter_bytes"):
            pf.blooms()
        assert pf._filters == {}
    with parquet.ParquetFile(path, max_filter_bytes=total) as pf:
        assert pf.row_groups_for("x", b"k", type="bytes") == []
    with pytest.raises(ValueError):
        parquet.ParquetFile(path, max_filter_bytes=-1)
    assert parquet.MAX_FILTER_BYTES == 128 << 20


def test_overlapping_filters_refused(tmp_path):
    path = gen(tmp_path, "overlap")
    with parquet.ParquetFile(path) as pf:
        with pytest.raises(simdbloom.Error, match="overlap"):
            pf.blooms()
        with pytest.raises(simdbloom.Error, match="overlap"):
            pf.row_groups_for("x", b"k", type="bytes")
