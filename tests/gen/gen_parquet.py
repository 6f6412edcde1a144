#!/usr/bin/env python3
"""Writes small .parquet files for tests/parquet_cli.sh: only what sbf reads
(PAR1, the Bloom filters, a Thrift compact footer of row groups -> column
chunks -> ColumnMetaData type, path_in_schema, num_values,
bloom_filter_offset/length), so that colliding and hostile shapes can be
made without a Parquet writer.

usage: gen_parquet.py MODE OUT [ARGS]
  dots OUT A.bloom B.bloom   column 0 is the top-level "a.b" (filter A),
                             column 1 field b of struct a (filter B)
  groups OUT N               N row groups; column x without a filter, column
                             y with its own empty 32-byte filter in each
  shared OUT N BYTES         N row groups whose column x all point at one
                             filter of BYTES bitset bytes
  overlap OUT                two filters, the second inside the first
  huge OUT                   one filter whose header announces 2^31-32
                             bytes (a sparse file of 2 GiB)
  deep OUT                   a footer nested deeper than the reader allows
  newline OUT A.bloom        one column named "x\\ny" (filter A)
A .bloom file is a filter in Parquet's form (sbf convert --to parquet).
"""
import struct
import sys

BYTE_ARRAY = 6


def varint(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def zz(v):
    return varint((v << 1) ^ (v >> 63))


def field(delta, ttype):
    assert 1 <= delta <= 15
    return bytes([delta << 4 | ttype])


def lst(etype, items):
    n = len(items)
    head = bytes([n << 4 | etype]) if n < 15 else bytes([0xF0 | etype]) + varint(n)
    return head + b"".join(items)


def binary(s):
    return varint(len(s)) + s


def bloom_header(num_bytes):
    # {1: numBytes, 2: BLOCK, 3: XXHASH, 4: UNCOMPRESSED}, as writers write it
    return b"\x15" + zz(num_bytes) + b"\x1c\x1c\x00\x00" * 3 + b"\x00"


def column_meta(path, num_values, bloom_off=None, bloom_len=None, ptype=BYTE_ARRAY):
    m = field(1, 5) + zz(ptype)
    m += field(2, 9) + lst(8, [binary(p) for p in path])  # field 3: delta 2 from 1
    m += field(2, 6) + zz(num_values)                      # field 5
    last = 5
    if bloom_off is not None:
        m += field(14 - last, 6) + zz(bloom_off)
        last = 14
        if bloom_len is not None:
            m += field(15 - last, 5) + zz(bloom_len)
    return m + b"\x00"


def chunk(meta):
    return field(3, 12) + meta + b"\x00"   # ColumnChunk {3: meta_data}


def row_group(chunks):
    return field(1, 9) + lst(12, chunks) + b"\x00"


def footer(groups):
    return field(4, 9) + lst(12, groups) + b"\x00"   # FileMetaData {4: row_groups}


def write(out, body, foot):
    with open(out, "wb") as f:
        f.write(b"PAR1" + body + foot + struct.pack("<I", len(foot)) + b"PAR1")


def main():
    mode, out = sys.argv[1], sys.argv[2]
    args = sys.argv[3:]
    if mode == "dots":
        a = open(args[0], "rb").read()
        b = open(args[1], "rb").read()
        oa, ob = 4, 4 + len(a)
        g = row_group([chunk(column_meta([b"a.b"], 1000, oa, len(a))),
                       chunk(column_meta([b"a", b"b"], 1000, ob, len(b)))])
        write(out, a + b, footer([g]))
    elif mode == "newline":
        a = open(args[0], "rb").read()
        g = row_group([chunk(column_meta([b"x\ny"], 10, 4, len(a)))])
        write(out, a, footer([g]))
    elif mode == "groups":
        n = int(args[0])
        blob = bloom_header(32) + bytes(32)
        body = blob * n
        gs = [row_group([chunk(column_meta([b"x"], 0)),
                         chunk(column_meta([b"y"], 0, 4 + i * len(blob), len(blob)))])
              for i in range(n)]
        write(out, body, footer(gs))
    elif mode == "shared":
        n, nbytes = int(args[0]), int(args[1])
        blob = bloom_header(nbytes) + bytes(nbytes)
        gs = [row_group([chunk(column_meta([b"x"], 1, 4, len(blob)))]) for _ in range(n)]
        write(out, blob, footer(gs))
    elif mode == "overlap":
        inner = bloom_header(1024) + bytes(1024)
        outer_bits = 4096
        h = bloom_header(outer_bits)
        body = h + inner + bytes(outer_bits - len(inner))
        gs = [row_group([chunk(column_meta([b"x"], 1, 4))]),
              row_group([chunk(column_meta([b"x"], 1, 4 + len(h)))])]
        write(out, body, footer(gs))
    elif mode == "huge":
        nbytes = (1 << 31) - 32
        h = bloom_header(nbytes)
        foot = footer([row_group([chunk(column_meta([b"x"], 1, 4))])])
        with open(out, "wb") as f:
            f.write(b"PAR1" + h)
            f.seek(4 + len(h) + nbytes)
            f.write(foot + struct.pack("<I", len(foot)) + b"PAR1")
    elif mode == "deep":
        depth = 64
        foot = (field(1, 12)) * depth + b"\x00" * (depth + 1)
        write(out, b"", foot)
    else:
        sys.exit("gen_parquet.py: unknown mode " + mode)


if __name__ == "__main__":
    main()
