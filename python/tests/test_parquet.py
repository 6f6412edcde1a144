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
    assert blooms[0] == parquet.Bloom(0, "b", 35033, 1040, 1024, blooms[0].fill, blooms[0].est_fpp)
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
