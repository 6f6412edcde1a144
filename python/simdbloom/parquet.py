"""The Bloom filters inside .parquet files: list them, and ask "may this
value be in row group G?" (what `sbf parquet list` and `sbf parquet query`
print), without pyarrow.

    >>> from simdbloom import parquet
    >>> with parquet.ParquetFile("data.parquet") as pf:
    ...     for b in pf.blooms():
    ...         print(b.row_group, b.column, b.bytes, b.fill, b.est_fpp)
    ...     pf.row_groups_for("user_id", 287000861)   # e.g. [0, 2]

Values are hashed as Parquet writers hash them: XXH64 of the PLAIN encoding
of the column's physical type (INT32 4 bytes, INT64 8 bytes, FLOAT, DOUBLE
little-endian; BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY the bytes, str as UTF-8).
A row group whose chunk has no Bloom filter may hold anything: it is always
in the answer.
"""
from __future__ import annotations

import os
import struct
from typing import Any, Iterable, List, NamedTuple, Optional

from ._core import Filter
from ._core import ParquetFile as _CParquetFile

__all__ = ["ParquetFile", "Chunk", "Bloom", "TYPES", "open"]

#: Parquet physical type numbers (parquet.thrift `Type`) and their names.
TYPES = {0: "BOOLEAN", 1: "INT32", 2: "INT64", 3: "INT96", 4: "FLOAT", 5: "DOUBLE",
         6: "BYTE_ARRAY", 7: "FIXED_LEN_BYTE_ARRAY"}


class Chunk(NamedTuple):
    """One column chunk of the footer."""
    index: int
    row_group: int
    column: int
    type: Optional[str]     # a TYPES name, None when absent or unknown
    path: str               # path_in_schema joined with '.'
    num_values: int
    bloom_offset: int       # -1: no Bloom filter
    bloom_length: int       # -1: not recorded


class Bloom(NamedTuple):
    """A chunk's Bloom filter, as `sbf parquet list` prints it."""
    row_group: int
    column: str
    offset: int             # where the filter (header + bitset) starts in the file
    bytes: int              # header + bitset
    bitset_bytes: int
    fill: float             # set bits / bits
    est_fpp: float          # false-positive rate estimated from its bits


_FORMS = {"INT32": "<i", "INT64": "<q", "FLOAT": "<f", "DOUBLE": "<d"}


def encode(value: Any, type: str) -> bytes:
    """The PLAIN encoding of value as a Parquet `type` (a TYPES name, or
    'int32', 'int64', 'float', 'double', 'string', 'bytes'), the bytes a
    Parquet writer hashes. Raises TypeError/OverflowError for a value the
    type cannot hold."""
    t = type.upper()
    t = {"STRING": "BYTE_ARRAY", "BYTES": "BYTE_ARRAY"}.get(t, t)
    if t in _FORMS:
        if t in ("INT32", "INT64") and not isinstance(value, int):
            raise TypeError(f"a {t} value is an int, not {value.__class__.__name__}")
        if t == "INT64" and isinstance(value, int) and 2**63 <= value < 2**64:
            return struct.pack("<Q", value)
        try:
            return struct.pack(_FORMS[t], value)
        except struct.error as e:
            raise OverflowError(f"{value!r} is not a {t} value ({e})") from None
    if t in ("BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"):
        if isinstance(value, str):
            return value.encode("utf-8")
        return bytes(memoryview(value))
    raise TypeError(f"no value encoding for Parquet type {type!r}")


class ParquetFile:
    """A .parquet file's footer and Bloom filters. The footer is read and
    checked by the C library when the file opens (simdbloom.Error with the
    reason for a file it refuses: not Parquet, truncated, encrypted...);
    filters are read when first asked for and kept."""

    def __init__(self, path: "str | bytes | os.PathLike[str]") -> None:
        self.path = path
        self._f = _CParquetFile(path)
        self._filters: dict = {}
        self.chunks: List[Chunk] = [
            Chunk(i, rg, col, TYPES.get(t), p, nv, off, ln)
            for i, (rg, col, t, p, nv, off, ln) in enumerate(self._f.chunks())
        ]

    def __enter__(self) -> "ParquetFile":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Closes the file; filters already read stay valid."""
        self._f.close()
        self._filters.clear()

    @property
    def row_groups(self) -> int:
        """How many row groups the file has."""
        return self._f.row_groups

    @property
    def columns(self) -> List[str]:
        """The column paths, in footer order."""
        seen: dict = {}
        for c in self.chunks:
            seen.setdefault(c.path, None)
        return list(seen)

    def _filter(self, i: int) -> Filter:
        f = self._filters.get(i)
        if f is None:
            f = self._filters[i] = self._f.filter(i)
        return f

    def blooms(self) -> List[Bloom]:
        """Every chunk that has a Bloom filter, as `sbf parquet list`."""
        out = []
        for c in self.chunks:
            if c.bloom_offset < 0:
                continue
            raw = self._f.read_bloom(c.index)
            f = self._filter(c.index)
            out.append(Bloom(c.row_group, c.path, c.bloom_offset, len(raw), f.nbytes,
                             f.fill_ratio, f.fpp_estimate()))
        return out

    def _column(self, column: str) -> List[Chunk]:
        cs = [c for c in self.chunks if c.path == column]
        if not cs:
            raise KeyError(f"{self.path}: no column {column!r}")
        return cs

    def filter(self, column: str, row_group: int) -> Optional[Filter]:
        """The column's Bloom filter in a row group (a parquet-layout Filter:
        `encode(value, type) in f`), or None when that chunk has none."""
        if not 0 <= row_group < self.row_groups:
            raise IndexError(f"{self.path}: no row group {row_group} (the file has "
                             f"{self.row_groups})")
        for c in self._column(column):
            if c.row_group == row_group:
                return self._filter(c.index) if c.bloom_offset >= 0 else None
        return None

    def _type(self, column: str, type: Optional[str]) -> str:
        if type is not None:
            return type
        t = self._column(column)[0].type
        if t not in ("INT32", "INT64", "FLOAT", "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"):
            raise TypeError(f"column {column!r}: no value encoding for its type {t}; give type=")
        return t

    def row_groups_for(self, column: str, value: Any, type: Optional[str] = None) -> List[int]:
        """The row groups whose filter may hold value (row groups without a
        filter included): what a reader's row-group pruning keeps."""
        key = encode(value, self._type(column, type))
        out = []
        for c in self._column(column):
            if c.bloom_offset < 0 or key in self._filter(c.index):
                out.append(c.row_group)
        return out

    def probe(self, column: str, values: Iterable[Any], type: Optional[str] = None):
        """A NumPy bool array of shape (len(values), row_groups): [i, g] is
        True when row group g may hold values[i]. values: a sequence, or a
        NumPy array (its values converted to the column's type)."""
        import numpy as np

        t = self._type(column, type).upper()
        t = {"STRING": "BYTE_ARRAY", "BYTES": "BYTE_ARRAY"}.get(t, t)
        if isinstance(values, np.ndarray) and t in _FORMS:
            dt = {"INT32": "<i4", "INT64": "<i8", "FLOAT": "<f4", "DOUBLE": "<f8"}[t]
            arr = np.ascontiguousarray(values.astype(dt, casting="same_kind"))
            keys = arr if t == "INT64" else arr.view(np.uint8).reshape(len(arr), -1)
        else:
            keys = [encode(v, t) for v in values]
        n = len(keys)
        out = np.ones((n, self.row_groups), dtype=bool)
        col = np.empty(n, dtype=bool)
        for c in self._column(column):
            if c.bloom_offset >= 0:
                self._filter(c.index).contains_many(keys, out=col)
                out[:, c.row_group] = col
        return out


def open(path: "str | bytes | os.PathLike[str]") -> ParquetFile:  # noqa: A001
    """ParquetFile(path)."""
    return ParquetFile(path)
