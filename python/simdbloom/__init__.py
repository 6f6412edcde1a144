"""simdbloom: fast Bloom filters (a binding of the simdbloom C library).

    >>> import simdbloom
    >>> f = simdbloom.Filter(1_000_000, fpp=0.01)
    >>> f.add("hello")
    >>> "hello" in f
    True

See help(simdbloom.Filter), simdbloom.parquet and python/README.md.
"""
from ._core import Error, Filter, isa, layouts, library_version
from . import parquet

__all__ = ["Error", "Filter", "isa", "layouts", "library_version", "parquet"]
__version__ = "0.2.0"
