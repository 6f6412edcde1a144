"""Helpers of the simdbloom tests: the C library itself through ctypes (the
oracle: the binding must set the bits it sets), and Arrow arrays made as the
Arrow C data interface describes them (PyCapsules), without pyarrow."""
import ctypes
import os
import struct

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
VECTORS = os.path.join(REPO, "tests", "vectors")


# ------------------------------------------------------------ the C library

class Params(ctypes.Structure):
    _fields_ = [("layout", ctypes.c_int), ("expected_n", ctypes.c_uint64),
                ("fpp", ctypes.c_double), ("bits", ctypes.c_uint64), ("k", ctypes.c_uint32),
                ("seed", ctypes.c_uint32), ("flags", ctypes.c_uint32),
                ("allocator", ctypes.c_void_p)]


def _load_lib():
    path = os.environ.get("SIMDBLOOM_SO", os.path.join(REPO, "build", "libsimdbloom.so"))
    lib = ctypes.CDLL(path)
    lib.sbf_create.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(Params)]
    lib.sbf_free.argtypes = [ctypes.c_void_p]
    lib.sbf_add.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t]
    lib.sbf_contains.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t]
    lib.sbf_data.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_size_t)]
    lib.sbf_data.restype = ctypes.c_void_p
    lib.sbf_layout_from_name.argtypes = [ctypes.c_char_p]
    return lib


class CFilter:
    """A filter made and filled by the C library alone."""

    lib = None

    def __init__(self, layout, bits, k, seed=0):
        if CFilter.lib is None:
            CFilter.lib = _load_lib()
        p = Params(layout=CFilter.lib.sbf_layout_from_name(layout.encode()), bits=bits, k=k,
                   seed=seed, fpp=0.01, expected_n=1)
        self.f = ctypes.c_void_p()
        rc = CFilter.lib.sbf_create(ctypes.byref(self.f), ctypes.byref(p))
        assert rc == 0, rc

    def __del__(self):
        if self.lib is not None:
            self.lib.sbf_free(self.f)

    def add(self, key: bytes):
        assert self.lib.sbf_add(self.f, key, len(key)) >= 0

    def contains(self, key: bytes) -> bool:
        r = self.lib.sbf_contains(self.f, key, len(key))
        assert r in (0, 1)
        return bool(r)

    def data(self) -> bytes:
        n = ctypes.c_size_t()
        p = self.lib.sbf_data(self.f, ctypes.byref(n))
        return ctypes.string_at(p, n.value)


def key_bytes(key) -> bytes:
    """The documented key rule: int -> 8 little-endian bytes of its 64-bit
    two's complement; str -> UTF-8; bytes-like -> its bytes."""
    if isinstance(key, int):
        return struct.pack("<Q", key % 2**64)
    if isinstance(key, str):
        return key.encode("utf-8")
    return bytes(memoryview(key))


def data_of(f) -> bytes:
    """A binding filter's data bytes (after the 4096-byte file header)."""
    return f.to_bytes()[4096:]


@pytest.fixture
def cfilter():
    return CFilter


# --------------------------------------------------------------- Arrow

_capsule_new = ctypes.pythonapi.PyCapsule_New
_capsule_new.restype = ctypes.py_object
_capsule_new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
_SCHEMA_NAME = b"arrow_schema"
_ARRAY_NAME = b"arrow_array"


class ArrowSchema(ctypes.Structure):
    pass


class ArrowArray(ctypes.Structure):
    pass


_RELEASE_S = ctypes.CFUNCTYPE(None, ctypes.POINTER(ArrowSchema))
_RELEASE_A = ctypes.CFUNCTYPE(None, ctypes.POINTER(ArrowArray))
ArrowSchema._fields_ = [("format", ctypes.c_char_p), ("name", ctypes.c_char_p),
                        ("metadata", ctypes.c_char_p), ("flags", ctypes.c_int64),
                        ("n_children", ctypes.c_int64), ("children", ctypes.c_void_p),
                        ("dictionary", ctypes.c_void_p), ("release", _RELEASE_S),
                        ("private_data", ctypes.c_void_p)]
ArrowArray._fields_ = [("length", ctypes.c_int64), ("null_count", ctypes.c_int64),
                       ("offset", ctypes.c_int64), ("n_buffers", ctypes.c_int64),
                       ("n_children", ctypes.c_int64),
                       ("buffers", ctypes.POINTER(ctypes.c_void_p)),
                       ("children", ctypes.c_void_p), ("dictionary", ctypes.c_void_p),
                       ("release", _RELEASE_A), ("private_data", ctypes.c_void_p)]


@_RELEASE_S
def _release_schema(s):
    pass  # the test keeps the memory; nothing to free


@_RELEASE_A
def _release_array(a):
    pass


class ArrowLike:
    """An object with __arrow_c_array__, as pyarrow/polars arrays have.
    values: ints (format 'l' or 'L') or bytes (format 'u', 'z', 'U', 'Z');
    None is a null. offset: the Arrow array offset (a slice)."""

    def __init__(self, values, fmt, offset=0, declare_nulls=True):
        self.fmt = fmt
        n = len(values) - offset
        valid = [v is not None for v in values]
        bitmap = bytearray((len(values) + 7) // 8)
        for i, ok in enumerate(valid):
            if ok:
                bitmap[i // 8] |= 1 << (i % 8)
        nulls = valid.count(False)
        self._keep = []
        bufs = []
        bufs.append(self._buf(bytes(bitmap)) if nulls else None)
        if fmt in ("l", "L"):
            code = "<q" if fmt == "l" else "<Q"
            bufs.append(self._buf(b"".join(struct.pack(code, v if v is not None else 0)
                                           for v in values)))
        else:
            data = b"".join(v if v is not None else b"" for v in values)
            offs, o = [0], 0
            for v in values:
                o += len(v) if v is not None else 0
                offs.append(o)
            code = "<q" if fmt in ("U", "Z") else "<i"
            bufs.append(self._buf(b"".join(struct.pack(code, x) for x in offs)))
            bufs.append(self._buf(data))
        self.bufarr = (ctypes.c_void_p * len(bufs))(*bufs)
        self.schema = ArrowSchema(format=fmt.encode(), name=b"x", n_children=0,
                                  release=_release_schema)
        self.array = ArrowArray(length=n, null_count=nulls if declare_nulls else -1,
                                offset=offset, n_buffers=len(bufs), n_children=0,
                                buffers=self.bufarr, release=_release_array)

    def _buf(self, b):
        buf = ctypes.create_string_buffer(b, max(len(b), 1))
        self._keep.append(buf)
        return ctypes.cast(buf, ctypes.c_void_p).value

    def __arrow_c_array__(self, requested_schema=None):
        return (_capsule_new(ctypes.addressof(self.schema), _SCHEMA_NAME, None),
                _capsule_new(ctypes.addressof(self.array), _ARRAY_NAME, None))


@pytest.fixture
def arrow():
    return ArrowLike


class ArrowArrayStream(ctypes.Structure):
    pass


_GET_SCHEMA = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ArrowArrayStream), ctypes.c_void_p)
_GET_NEXT = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ArrowArrayStream), ctypes.c_void_p)
_GET_ERR = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.POINTER(ArrowArrayStream))
_RELEASE_ST = ctypes.CFUNCTYPE(None, ctypes.POINTER(ArrowArrayStream))
ArrowArrayStream._fields_ = [("get_schema", _GET_SCHEMA), ("get_next", _GET_NEXT),
                             ("get_last_error", _GET_ERR), ("release", _RELEASE_ST),
                             ("private_data", ctypes.c_void_p)]
_STREAM_NAME = b"arrow_array_stream"


class ArrowStreamLike:
    """An object with only __arrow_c_stream__ (a chunked array, a polars
    Series): chunks are ArrowLike arrays of one format. fail_at: get_next
    returns an error at that chunk."""

    def __init__(self, chunks, fail_at=None):
        self.chunks = chunks
        self.fail_at = fail_at

        def get_schema(st, out):
            ctypes.memmove(out, ctypes.addressof(chunks[0].schema), ctypes.sizeof(ArrowSchema))
            return 0

        def get_next(st, out):
            i = self.i
            if i == self.fail_at:
                return 5
            if i < len(chunks):
                ctypes.memmove(out, ctypes.addressof(chunks[i].array), ctypes.sizeof(ArrowArray))
            else:
                ctypes.memset(out, 0, ctypes.sizeof(ArrowArray))
            self.i += 1
            return 0

        self._why = ctypes.create_string_buffer(b"the producer failed")
        why = ctypes.addressof(self._why)
        self._cb = (_GET_SCHEMA(get_schema), _GET_NEXT(get_next),
                    _GET_ERR(lambda st: why), _RELEASE_ST(lambda st: None))
        self.stream = ArrowArrayStream(*self._cb)

    def __arrow_c_stream__(self, requested_schema=None):
        self.i = 0
        return _capsule_new(ctypes.addressof(self.stream), _STREAM_NAME, None)


@pytest.fixture
def arrow_stream():
    return ArrowStreamLike
