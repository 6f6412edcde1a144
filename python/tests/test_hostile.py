"""Inputs from outside: every one refused with a clear Python exception,
nothing changed, no crash."""
import os
import subprocess
import sys

import numpy as np
import pytest

import simdbloom


def test_wrong_key_types():
    f = simdbloom.Filter(100)
    for bad in (1.5, None, object(), [1], {1: 2}, 1j):
        with pytest.raises(TypeError, match="a key is an int, bytes, str"):
            f.add(bad)
        with pytest.raises(TypeError):
            bad in f
    with pytest.raises(UnicodeEncodeError):
        f.add("\ud800")  # a lone surrogate has no UTF-8
    assert f.keys_added == 0


def test_wrong_arrays():
    f = simdbloom.Filter(100)
    for bad in (np.zeros(4, dtype=np.float64), np.zeros(4, dtype=np.int32),
                np.zeros(4, dtype=np.uint16), np.array(["a"], dtype="U3"),
                np.zeros((2, 2), dtype=np.int64)):
        with pytest.raises(TypeError, match="take 1-D arrays of uint64"):
            f.add_many(bad)
        with pytest.raises(TypeError):
            f.contains_many(bad)
    with pytest.raises(TypeError, match="one key"):
        f.add_many(np.zeros(4, dtype=np.uint8))
    with pytest.raises(TypeError, match="for one key"):
        f.add_many(b"abc")
    with pytest.raises(TypeError):
        f.add_many(5)
    with pytest.raises(TypeError):
        f.add_many([1, 2.5])
    big = np.arange(10, dtype=np.uint64)
    with pytest.raises(ValueError, match="C-contiguous"):
        f.add_many(big[::2])
    with pytest.raises(ValueError, match="C-contiguous"):
        f.contains_many(np.zeros((4, 3), dtype=np.uint8)[:, :2])
    be = np.arange(4, dtype=">u8")
    with pytest.raises(TypeError):
        f.add_many(be)
    assert f.keys_added == 0
    with pytest.raises(ValueError, match="out must be"):
        f.contains_many(big, out=np.zeros(9, dtype=bool))
    with pytest.raises(ValueError, match="out must be"):
        f.contains_many(big, out=np.zeros(10, dtype=np.int64))
    with pytest.raises(ValueError, match="out must be a writable"):
        f.contains_many(big, out=b"x" * 10)  # not writable
    ro = np.zeros(10, dtype=bool)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="out must be a writable"):
        f.contains_many(big, out=ro)


def test_constructor_arguments():
    with pytest.raises(simdbloom.Error, match="false-positive rate must be") as e:
        simdbloom.Filter(100, 1.5)
    assert e.value.code == -2 and isinstance(e.value, ValueError)
    with pytest.raises(ValueError):
        simdbloom.Filter(-1)
    with pytest.raises(TypeError):
        simdbloom.Filter("many")
    with pytest.raises(OverflowError):
        simdbloom.Filter(2**64)
    with pytest.raises(simdbloom.Error):
        simdbloom.Filter(10**18, 1e-9)  # too large
    with pytest.raises(simdbloom.Error, match="hash functions"):
        simdbloom.Filter(10, layout="blocked", k=99)
    with pytest.raises(ValueError, match="seed"):
        simdbloom.Filter(10, seed=2**32)
    with pytest.raises(ValueError, match="unknown layout"):
        simdbloom.Filter(10, layout=99)
    with pytest.raises(TypeError):
        simdbloom.Filter(10, layout=1.0)
    # a name is the whole string: one cut at a NUL is not a layout's name
    for bad in ("blocked\0x", "counting\0", "\0"):
        with pytest.raises(ValueError, match="unknown layout"):
            simdbloom.Filter(10, layout=bad)


def test_files_that_are_not_filters(tmp_path):
    f = simdbloom.Filter(1000)
    f.update(range(100))
    p = tmp_path / "f.sbf"
    f.save(p)
    raw = p.read_bytes()
    for cut in (0, 10, 4095, 4096, len(raw) - 1):
        q = tmp_path / f"cut{cut}.sbf"
        q.write_bytes(raw[:cut])
        for opener in (simdbloom.Filter.load, simdbloom.Filter.map):
            with pytest.raises(simdbloom.Error) as e:
                opener(q)
            assert str(q) in str(e.value)
        with pytest.raises(simdbloom.Error):
            simdbloom.Filter.from_bytes(raw[:cut])
    junk = tmp_path / "junk"
    junk.write_bytes(os.urandom(8192))
    with pytest.raises(simdbloom.Error, match="corrupt|magic"):
        simdbloom.Filter.load(junk)
    bad = bytearray(raw)
    bad[5000] ^= 1  # one data bit: the checksum says so
    q = tmp_path / "flip.sbf"
    q.write_bytes(bad)
    with pytest.raises(simdbloom.Error, match="checksum|corrupt"):
        simdbloom.Filter.load(q)
    with pytest.raises(simdbloom.Error):
        simdbloom.Filter.map(q, verify=True)
    with pytest.raises(FileNotFoundError):
        simdbloom.Filter.load(tmp_path / "missing")
    with pytest.raises(IsADirectoryError):
        simdbloom.Filter.map(tmp_path)
    with pytest.raises(OSError):
        f.save(tmp_path / "no" / "such" / "dir")
    with pytest.raises(TypeError):
        simdbloom.Filter.load(5)
    for blob in (b"", b"\x01", b"\x01\x05\x00\x00\x00\x01", os.urandom(100)):
        with pytest.raises(simdbloom.Error):
            simdbloom.Filter.from_guava(blob)
        with pytest.raises(simdbloom.Error):
            simdbloom.Filter.from_parquet(blob)


def test_parquet_file_refusals(tmp_path):
    from simdbloom import parquet
    p = tmp_path / "x.parquet"
    p.write_bytes(b"PAR1" + os.urandom(100))
    with pytest.raises(simdbloom.Error):
        parquet.ParquetFile(p)
    p.write_bytes(b"not parquet at all")
    with pytest.raises(simdbloom.Error, match="PAR1"):
        parquet.ParquetFile(p)
    with pytest.raises(FileNotFoundError):
        parquet.ParquetFile(tmp_path / "missing.parquet")


def test_files_of_other_versions(tmp_path):
    """A file of a version Filter cannot take names what it is: a growing
    filter (sbf dedup's, format 3/4), or version 1 to map (its data is not
    page aligned); both said 'unknown format version'."""
    from conftest import REPO, VECTORS
    cli = os.path.join(os.environ.get("SBF_BUILD", os.path.join(REPO, "build")), "sbf")
    g = tmp_path / "grow.sbf"
    subprocess.run([cli, "dedup", "--filter", str(g), "--quiet"], input=b"a\nb\nc\n",
                   stdout=subprocess.DEVNULL, check=True)
    for opener in (simdbloom.Filter.load, simdbloom.Filter.map):
        with pytest.raises(simdbloom.Error, match="a growing filter \\(format 4") as e:
            opener(g)
        assert e.value.code == -18 and str(g) in str(e.value)
    with pytest.raises(simdbloom.Error, match="a growing filter \\(format 4"):
        simdbloom.Filter.from_bytes(g.read_bytes())
    v1 = os.path.join(VECTORS, "sbf_v1_blocked.bin")
    assert simdbloom.Filter.load(v1).bits == 1024
    with pytest.raises(simdbloom.Error, match="format version 1 cannot be mapped") as e:
        simdbloom.Filter.map(v1)
    assert e.value.code == -18
    newer = bytearray(open(os.path.join(VECTORS, "sbf_v2_blocked.bin"), "rb").read())
    newer[4] = 9  # a version no build knows yet: the library's words stay
    with pytest.raises(simdbloom.Error, match="unknown format version"):
        simdbloom.Filter.from_bytes(bytes(newer))


def test_bad_environment_is_named():
    """SBF_ISA / SBF_PROBE refused by the library: the error names the
    variable and its value, not only 'unknown instruction set'."""
    code = "import simdbloom\ntry:\n    simdbloom.Filter(10)\nexcept simdbloom.Error as e:\n" \
           "    print(e.code, e)\n"
    for var, val, want in (("SBF_ISA", "bogus", "SBF_ISA='bogus'"),
                           ("SBF_PROBE", "sideways", "SBF_PROBE='sideways'")):
        env = dict(os.environ, **{var: val})
        out = subprocess.run([sys.executable, "-P", "-c", code], env=env, capture_output=True,
                             text=True, check=True).stdout
        assert out.startswith("-14 ") and want in out, out
