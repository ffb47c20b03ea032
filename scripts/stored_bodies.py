"""The request log's bodies read straight from a SQLite database file, for the scripts that check the file
after a crash (scripts/faults.py), when no server runs to answer GET /v1/requests/{id}.

Decodes the record format of docs/store.md#body-codec: `body_format` 0 is the body as received; 1 is a
frame — one tag byte, the body's length as an unsigned LEB128 varint, then the payload (tag 0 stored,
1 LZ4 block, 2 zstd frame, 3 and 4 LZ4 block against the built-in dictionary 1 or 2). The compressors are the
system's liblz4.so.1 and libzstd.so.1 through ctypes; the dictionaries are read from
Sources/Store/BodyDictionary.swift and BodyDictionary2.swift, the one place their bytes live. Python 3
standard library only.
"""

import ctypes
import os
import re

_HERE = os.path.dirname(os.path.abspath(__file__))
# Frame tag: (Swift source of the dictionary's bytes, the tag of the dictionary they start with, the length).
# Dictionary 2's source names dictionary 1 and holds the bytes after it.
_DICTIONARIES = {
    3: (os.path.join(_HERE, "..", "Sources", "Store", "BodyDictionary.swift"), None, 8179),
    4: (os.path.join(_HERE, "..", "Sources", "Store", "BodyDictionary2.swift"), 3, 34397),
}
_lz4 = None
_zstd = None
_dictionary = {}


def _library(name):
    return ctypes.CDLL(name)


def dictionary(tag):
    """The bytes of the dictionary of frame tag 3 (dictionary 1) or 4 (dictionary 2), joined from the raw string
    literals of its Swift source."""
    if tag not in _dictionary:
        source, first, length = _DICTIONARIES[tag]
        text = open(source, encoding="utf-8").read()
        body = text[text.index("Array(") :]
        out = []
        for piece, newline in re.findall(r'#"(.*?)"#( \+ "\\n")?', body):
            out.append(piece)
            if newline:
                out.append("\n")
        data = (dictionary(first) if first else b"") + "".join(out).encode("utf-8")
        if len(data) != length:
            raise ValueError(f"dictionary of tag {tag} read as {len(data)} bytes, expected {length}")
        _dictionary[tag] = data
    return _dictionary[tag]


def dictionary_1():
    """Dictionary 1's bytes."""
    return dictionary(3)


def _varint(frame, at):
    value, shift = 0, 0
    while True:
        byte = frame[at]
        at += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, at
        shift += 7


def decode_frame(frame):
    """The body a frame holds; raises ValueError on a damaged frame."""
    global _lz4, _zstd
    frame = bytes(frame)
    tag = frame[0]
    length, at = _varint(frame, 1)
    payload = frame[at:]
    if tag == 0:
        return payload
    out = ctypes.create_string_buffer(max(1, length))
    if tag in (1, 3, 4):
        if _lz4 is None:
            _lz4 = _library("liblz4.so.1")
        if tag == 1:
            n = _lz4.LZ4_decompress_safe(payload, out, len(payload), length)
        else:
            d = dictionary(tag)
            n = _lz4.LZ4_decompress_safe_usingDict(payload, out, len(payload), length, d, len(d))
    elif tag == 2:
        if _zstd is None:
            _zstd = _library("libzstd.so.1")
            _zstd.ZSTD_decompress.restype = ctypes.c_size_t
        n = _zstd.ZSTD_decompress(out, ctypes.c_size_t(length), payload, ctypes.c_size_t(len(payload)))
    else:
        raise ValueError(f"unknown frame tag {tag}")
    if n != length:
        raise ValueError(f"frame tag {tag} decoded to {n} bytes, expected {length}")
    return out.raw[:length]


def request_bodies(connection):
    """Every stored request body of an open sqlite3 connection, decoded, in id order."""
    columns = {row[1] for row in connection.execute("PRAGMA table_info(request_bodies)")}
    if "body_format" not in columns:
        for (body,) in connection.execute("SELECT request FROM request_bodies ORDER BY request_id"):
            yield bytes(body) if body is not None else b""
        return
    for body, body_format in connection.execute(
        "SELECT request, body_format FROM request_bodies ORDER BY request_id"
    ):
        raw = bytes(body) if body is not None else b""
        yield decode_frame(raw) if body_format == 1 else raw
