"""The Bloom filters inside .parquet files: list them, and ask "may this
value be in row group G?" (what `sbf parquet list` and `sbf parquet query`
print), without pyarrow.

    >>> from simdbloom import parquet
    >>> with parquet.ParquetFile("data.parquet") as pf:
    ...     for b in pf.blooms():
    ...         print(b.row_group, b.name, b.bytes, b.fill, b.est_fpp)
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

from ._core import Error, Filter
from ._core import ParquetFile as _CParquetFile

__all__ = ["ParquetFile", "Chunk", "Bloom", "TYPES", "MAX_FILTER_BYTES", "open"]

#: Parquet physical type numbers (parquet.thrift `Type`) and their names.
TYPES = {0: "BOOLEAN", 1: "INT32", 2: "INT64", 3: "INT96", 4: "FLOAT", 5: "DOUBLE",
         6: "BYTE_ARRAY", 7: "FIXED_LEN_BYTE_ARRAY"}


class Chunk(NamedTuple):
    """One column chunk of the footer."""
    index: int
    row_group: int
    column: int             # the column's place in its row group (column index)
    type: Optional[str]     # a TYPES name, None when absent or unknown
    path: str               # path_in_schema joined with '.' (two columns may share it)
    num_values: int
    bloom_offset: int       # -1: no Bloom filter
    bloom_length: int       # -1: not recorded
    name: str               # the unambiguous name: a top-level column "a.b" is
                            # a\.b, field b of struct a is a.b, control bytes \xHH


class Bloom(NamedTuple):
    """A chunk's Bloom filter, as `sbf parquet list --json` prints it."""
    row_group: int
    column: str             # the raw path (path_in_schema joined with '.')
    name: str               # the unambiguous name (Chunk.name)
    column_index: int
    offset: int             # where the filter (header + bitset) starts in the file
    bytes: int              # header + bitset
    bitset_bytes: int
    fill: float             # set bits / bits
    est_fpp: float          # false-positive rate estimated from its bits


#: Parquet writers (parquet-java, Arrow) make filters of at most 128 MiB; a
#: larger one is refused unless max_filter_bytes lifts the limit.
MAX_FILTER_BYTES = 128 << 20

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
    filters are read when first asked for and kept, a filter several chunks
    point at read once. A filter above max_filter_bytes (header + bitset;
    default 128 MiB, Parquet writers' cap) is refused with simdbloom.Error
    before it is read, as `sbf parquet --max-filter-bytes` does.

    A column is named by its unambiguous name (Chunk.name, what
    `sbf parquet list` prints), by its raw path when that names one column
    alone, or by its int column index; a name two columns share raises
    ValueError naming both (never one picked silently)."""

    def __init__(self, path: "str | bytes | os.PathLike[str]",
                 max_filter_bytes: int = MAX_FILTER_BYTES) -> None:
        if not isinstance(max_filter_bytes, int) or max_filter_bytes < 0:
            raise ValueError(f"max_filter_bytes must be an int >= 0, not {max_filter_bytes!r}")
        self.path = path
        self.max_filter_bytes = max_filter_bytes
        self._f = _CParquetFile(path)
        self._filters: dict = {}     # bloom offset -> Filter
        self._extents: dict = {}     # chunk index -> (offset, bytes)
        self.chunks: List[Chunk] = [
            Chunk(i, rg, col, TYPES.get(t), p, nv, off, ln, name)
            for i, (rg, col, t, p, nv, off, ln, name) in enumerate(self._f.chunks())
        ]

    def __enter__(self) -> "ParquetFile":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Closes the file; filters already read stay valid."""
        self._f.close()
        self._filters.clear()
        self._extents.clear()

    @property
    def row_groups(self) -> int:
        """How many row groups the file has."""
        return self._f.row_groups

    @property
    def columns(self) -> List[str]:
        """The columns' unambiguous names, by column index (footer order)."""
        seen: dict = {}
        for c in self.chunks:
            seen.setdefault(c.column, c.name)
        return [seen[k] for k in sorted(seen)]

    def _extent(self, c: Chunk) -> "tuple[int, int]":
        e = self._extents.get(c.index)
        if e is None:
            e = self._f.bloom_extent(c.index)
            if e[1] > self.max_filter_bytes:
                raise Error(f"{self.path}: row group {c.row_group}, column {c.name}: a Bloom "
                            f"filter of {e[1]} bytes, above the limit of {self.max_filter_bytes} "
                            f"bytes (Parquet writers make at most 128 MiB); "
                            f"max_filter_bytes= lifts it")
            self._extents[c.index] = e
        return e

    def _plan(self, chunks: Iterable[Chunk]) -> None:
        """Checks the filters of chunks before any is read: each within the
        limit, none overlapping another (a writer never does that)."""
        exts = sorted((self._extent(c), c) for c in chunks if c.bloom_offset >= 0)
        prev = None
        for (off, n), c in exts:
            if prev is not None and off != prev[0][0] and off < prev[0][0] + prev[0][1]:
                raise Error(f"{self.path}: the Bloom filters of row group {prev[1].row_group}, "
                            f"column {prev[1].name} and row group {c.row_group}, column "
                            f"{c.name} overlap in the file (a writer never does that: corrupt "
                            f"or forged)")
            if prev is None or off != prev[0][0]:
                prev = ((off, n), c)

    def _filter(self, c: Chunk) -> Filter:
        off = self._extent(c)[0]
        f = self._filters.get(off)
        if f is None:
            f = self._filters[off] = self._f.filter(c.index)
        return f

    def blooms(self) -> List[Bloom]:
        """Every chunk that has a Bloom filter, as `sbf parquet list --json`."""
        self._plan(self.chunks)
        out = []
        for c in self.chunks:
            if c.bloom_offset < 0:
                continue
            f = self._filter(c)
            out.append(Bloom(c.row_group, c.path, c.name, c.column, c.bloom_offset,
                             self._extent(c)[1], f.nbytes, f.fill_ratio, f.fpp_estimate()))
        return out

    def _column(self, column: "str | int") -> List[Chunk]:
        """The chunks of the one column `column` names."""
        if isinstance(column, int) and not isinstance(column, bool):
            cs = [c for c in self.chunks if c.column == column]
            if not cs:
                raise KeyError(f"{self.path}: no column index {column}")
            return cs
        if not isinstance(column, str):
            raise TypeError(f"a column is a str name or an int index, not "
                            f"{column.__class__.__name__}")
        hits = [c for c in self.chunks if c.name == column or c.path == column]
        if not hits:
            raise KeyError(f"{self.path}: no column {column!r} (ParquetFile.columns "
                           f"lists the names)")
        first = hits[0]
        other = next((c for c in hits if c.column != first.column), None)
        if other is not None:
            raise ValueError(f"{self.path}: column name {column!r} is ambiguous: it names "
                             f"column {first.column} ({first.name!r}, path {first.path!r}) and "
                             f"column {other.column} ({other.name!r}, path {other.path!r}); "
                             f"give the escaped name or the int column index")
        return [c for c in self.chunks if c.column == first.column]

    def filter(self, column: "str | int", row_group: int) -> Optional[Filter]:
        """The column's Bloom filter in a row group (a parquet-layout Filter:
        `encode(value, type) in f`), or None when that chunk has none."""
        if not 0 <= row_group < self.row_groups:
            raise IndexError(f"{self.path}: no row group {row_group} (the file has "
                             f"{self.row_groups})")
        for c in self._column(column):
            if c.row_group == row_group:
                if c.bloom_offset < 0:
                    return None
                self._plan([c])
                return self._filter(c)
        return None

    def _type(self, cs: List[Chunk], type: Optional[str]) -> str:
        if type is not None:
            return type
        t = cs[0].type
        if t not in ("INT32", "INT64", "FLOAT", "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"):
            raise TypeError(f"column {cs[0].name!r}: no value encoding for its type {t}; "
                            f"give type=")
        return t

    def row_groups_for(self, column: "str | int", value: Any,
                       type: Optional[str] = None) -> List[int]:
        """The row groups whose filter may hold value (row groups without a
        filter included): what a reader's row-group pruning keeps."""
        cs = self._column(column)
        key = encode(value, self._type(cs, type))
        self._plan(cs)
        out = []
        for c in cs:
            if c.bloom_offset < 0 or key in self._filter(c):
                out.append(c.row_group)
        return out

    def probe(self, column: "str | int", values: Iterable[Any], type: Optional[str] = None):
        """A NumPy bool array of shape (len(values), row_groups): [i, g] is
        True when row group g may hold values[i]. values: a sequence, or a
        NumPy array (its values converted to the column's type)."""
        import numpy as np

        cs = self._column(column)
        t = self._type(cs, type).upper()
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
        self._plan(cs)
        for c in cs:
            if c.bloom_offset >= 0:
                self._filter(c).contains_many(keys, out=col)
                out[:, c.row_group] = col
        return out


def open(path: "str | bytes | os.PathLike[str]",  # noqa: A001
         max_filter_bytes: int = MAX_FILTER_BYTES) -> ParquetFile:
    """ParquetFile(path, max_filter_bytes)."""
    return ParquetFile(path, max_filter_bytes)
