#!/usr/bin/env python3
"""Independent encoder for PROTOCOL.md section 13 (compact hot messages): writes compact.json.
Each valid case gives a compact body (hex), the JSON message it stands for ("value", keys as in section 9.1 /
10.4, hashes in hex: 64 digits, or 16 for the short kinds 5-7), and, for the first ones, the whole plaintext frame
it travels in (a compact frame, type 8, or a datagram), whose payload (a datagram: body) starts with the service
byte of the tables service, 0x01 (section 3.9), before the compact body. A short kind whose host-made table id is written in the text
form (which a receiver accepts, but a sender writes in the 0x00 form) also gives "sent": the bytes a sender writes
for the same message. Each invalid case gives a body a receiver must drop (counted as a refused table message, the
connection kept) and why. Written from the spec alone: the Swift tests decode and re-encode every case."""
import json, os, re, struct

def js(obj):
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()

def varint(n):
    """Unsigned LEB128, shortest form."""
    assert 0 <= n <= 0x7FFFFFFF
    out = bytearray()
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)

def table_id(t):
    """The text form: length 1-64, then the id's ASCII bytes."""
    b = t.encode("ascii")
    assert 1 <= len(b) <= 64 and re.fullmatch(rb"[A-Za-z0-9-]+", b)
    return bytes([len(b)]) + b

HOST_MADE = re.compile(r"([0-9a-f]{8})-(0|[1-9][0-9]*)-(0|[1-9][0-9]*)")

def host_made(t):
    """<h>-<e>-<n> as a host makes it: 8 lower-case hex digits, two decimals 0..2^31-1 without leading zeros."""
    m = HOST_MADE.fullmatch(t)
    return m is not None and int(m.group(2)) <= 0x7FFFFFFF and int(m.group(3)) <= 0x7FFFFFFF

def short_table_id(t, text=False):
    """A short kind's table id: 0x00, 4 bytes, varint e, varint n for a host-made id (what a sender writes);
    the text form for any other id, or for a host-made one when `text` (which a receiver accepts too)."""
    if text or not host_made(t):
        return table_id(t)
    h, e, n = t.split("-")
    return b"\x00" + bytes.fromhex(h) + varint(int(e)) + varint(int(n))

MOVE, CONFIRM, RACE_MOVE, PROGRESS = 1, 2, 3, 4
SHORT_MOVE, SHORT_CONFIRM, SHORT_RACE_MOVE = 5, 6, 7

def move(table, number, seat, state_hash, mv):
    return bytes([MOVE]) + table_id(table) + varint(number) + varint(seat) + state_hash + js(mv)

def confirm(table, number, state_hash):
    return bytes([CONFIRM]) + table_id(table) + varint(number) + state_hash

def race_move(table, seat, number, seat_hash, mv):
    return bytes([RACE_MOVE]) + table_id(table) + varint(seat) + varint(number) + seat_hash + js(mv)

# The short kinds: the table id in its short form, the hash its first 8 bytes (the caller passes 8 bytes).
def short_move(table, number, seat, state_hash, mv, text=False):
    assert len(state_hash) == 8
    return bytes([SHORT_MOVE]) + short_table_id(table, text) + varint(number) + varint(seat) + state_hash + js(mv)

def short_confirm(table, number, state_hash, text=False):
    assert len(state_hash) == 8
    return bytes([SHORT_CONFIRM]) + short_table_id(table, text) + varint(number) + state_hash

def short_race_move(table, seat, number, seat_hash, mv, text=False):
    assert len(seat_hash) == 8
    return bytes([SHORT_RACE_MOVE]) + short_table_id(table, text) + varint(seat) + varint(number) + seat_hash + js(mv)

def progress(table, seat, number, prog):
    return bytes([PROGRESS]) + table_id(table) + varint(seat) + varint(number) + js(prog)

TABLES = 0x01  # the service byte of the tables service (3.9)

def frame(mtype, payload, version=1):
    return b"TV" + bytes([version, mtype, 0, 0]) + struct.pack(">I", len(payload)) + payload

def compact_frame(body):
    """A compact frame (type 8): the tables service byte, then the compact body."""
    return frame(8, bytes([TABLES]) + body)

H1 = bytes(range(32))
H2 = bytes(range(0xE0, 0x100))
T = "3a1b2c4d-1-1"
NODE_A = "00112233445566778899aabbccddeeff"

valid = []
def add(name, body, value, **extra):
    case = {"name": name, "kind": value["type"], "hex": body.hex(), "value": value}
    case.update(extra)
    valid.append(case)

b = move(T, 0, 2, H1, {"card": 17})
add("table.move, first move", b,
    {"type": "table.move", "table": T, "number": 0, "seat": 2, "stateHash": H1.hex(), "move": {"card": 17}},
    frame=compact_frame(b).hex())
b = confirm(T, 5, H2)
add("table.confirm", b, {"type": "table.confirm", "table": T, "number": 5, "stateHash": H2.hex()},
    frame=compact_frame(b).hex())
b = progress("3a1b2c4d-1-2", 1, 3, {"board": [1, 2, 3, 4, 5, 6, 7, 8, 0], "inPlace": 8})
add("table.progress in a datagram", b,
    {"type": "table.progress", "table": "3a1b2c4d-1-2", "seat": 1, "number": 3,
     "progress": {"board": [1, 2, 3, 4, 5, 6, 7, 8, 0], "inPlace": 8}},
    frame=frame(6, bytes.fromhex(NODE_A) + struct.pack(">Q", 42) + bytes([TABLES]) + b).hex())
# What a node sends (13.2): the short kinds, a host-made table id in 7 bytes, hashes cut to their first 8 bytes.
b = short_move(T, 0, 2, H1[:8], {"card": 17})
add("table.move, short (kind 5), a host-made table id", b,
    {"type": "table.move", "table": T, "number": 0, "seat": 2, "stateHash": H1[:8].hex(), "move": {"card": 17}},
    frame=compact_frame(b).hex())
b = short_confirm(T, 5, H2[:8])
assert compact_frame(b).hex() == "545601080000000000120106003a1b2c4d010105e0e1e2e3e4e5e6e7"  # 13.2's example
add("table.confirm, short (kind 6), a host-made table id", b,
    {"type": "table.confirm", "table": T, "number": 5, "stateHash": H2[:8].hex()},
    frame=compact_frame(b).hex())
add("table.move, a string move, move 127 (one varint byte)", move(T, 127, 0, H2, "e4"),
    {"type": "table.move", "table": T, "number": 127, "seat": 0, "stateHash": H2.hex(), "move": "e4"})
add("table.move, move 128 (two varint bytes)", move(T, 128, 5, H1, {"pass": True}),
    {"type": "table.move", "table": T, "number": 128, "seat": 5, "stateHash": H1.hex(), "move": {"pass": True}})
add("table.confirm, move 2^31-1 (largest, five varint bytes)", confirm(T, 0x7FFFFFFF, H1),
    {"type": "table.confirm", "table": T, "number": 0x7FFFFFFF, "stateHash": H1.hex()})
long_id = "A" * 30 + "-" + "z9" * 16 + "-"
add("table.confirm, a 64-character table id", confirm(long_id, 300, H2),
    {"type": "table.confirm", "table": long_id, "number": 300, "stateHash": H2.hex()})
add("table.confirm, a 1-character table id", confirm("x", 1, H1),
    {"type": "table.confirm", "table": "x", "number": 1, "stateHash": H1.hex()})
add("table.race-move", race_move("3a1b2c4d-1-2", 3, 41, H2, "up"),
    {"type": "table.race-move", "table": "3a1b2c4d-1-2", "seat": 3, "number": 41, "seatHash": H2.hex(), "move": "up"})
add("table.move, a move that is an array", move(T, 9, 1, H1, [3, [4, 5]]),
    {"type": "table.move", "table": T, "number": 9, "seat": 1, "stateHash": H1.hex(), "move": [3, [4, 5]]})
add("table.race-move, short (kind 7), a host-made table id", short_race_move("3a1b2c4d-1-2", 3, 41, H2[:8], "up"),
    {"type": "table.race-move", "table": "3a1b2c4d-1-2", "seat": 3, "number": 41, "seatHash": H2[:8].hex(),
     "move": "up"})
add("table.race-move, short, host-made table id 00000000-0-0 (smallest)",
    short_race_move("00000000-0-0", 0, 0, H1[:8], {"dir": "left"}),
    {"type": "table.race-move", "table": "00000000-0-0", "seat": 0, "number": 0, "seatHash": H1[:8].hex(),
     "move": {"dir": "left"}})
add("table.confirm, short, host-made table id with large numbers (3a1b2c4d-300-2147483647)",
    short_confirm("3a1b2c4d-300-2147483647", 7, H1[:8]),
    {"type": "table.confirm", "table": "3a1b2c4d-300-2147483647", "number": 7, "stateHash": H1[:8].hex()})
# Ids a host does not make: the short kinds carry them in the text form, as a sender writes them.
add("table.move, short, a table id not made by a host (my-table, text form)",
    short_move("my-table", 4, 1, H2[:8], {"card": 3}),
    {"type": "table.move", "table": "my-table", "number": 4, "seat": 1, "stateHash": H2[:8].hex(), "move": {"card": 3}})
add("table.confirm, short, upper-case hex in the table id (3A1B2C4D-1-1, text form)",
    short_confirm("3A1B2C4D-1-1", 2, H2[:8]),
    {"type": "table.confirm", "table": "3A1B2C4D-1-1", "number": 2, "stateHash": H2[:8].hex()})
add("table.move, short, a leading zero in the table id (3a1b2c4d-01-1, text form)",
    short_move("3a1b2c4d-01-1", 1, 0, H1[:8], "e4"),
    {"type": "table.move", "table": "3a1b2c4d-01-1", "number": 1, "seat": 0, "stateHash": H1[:8].hex(), "move": "e4"})
add("table.confirm, short, a table id whose count is over 2^31-1 (3a1b2c4d-1-2147483648, text form)",
    short_confirm("3a1b2c4d-1-2147483648", 3, H1[:8]),
    {"type": "table.confirm", "table": "3a1b2c4d-1-2147483648", "number": 3, "stateHash": H1[:8].hex()})
# A host-made id in the text form: a receiver accepts it; a sender writes the 0x00 form ("sent").
add("table.confirm, short, a host-made table id in the text form (accepted; sent in the 0x00 form)",
    short_confirm(T, 5, H2[:8], text=True),
    {"type": "table.confirm", "table": T, "number": 5, "stateHash": H2[:8].hex()},
    sent=short_confirm(T, 5, H2[:8]).hex())

good_confirm = confirm(T, 5, H1)
good_short_confirm = short_confirm(T, 5, H2[:8])
HOST = bytes.fromhex(T.split("-")[0])
invalid = [
    {"name": "empty", "hex": ""},
    # Kinds 5-7 are the short kinds now: a kind-2 body relabelled 6 has 24 bytes after its 8-byte hash.
    {"name": "kind 6 with a 32-byte hash (bytes after its 8-byte hash)", "hex": (bytes([6]) + good_confirm[1:]).hex()},
    {"name": "kind 8 (reserved)", "hex": (bytes([8]) + good_confirm[1:]).hex()},
    {"name": "table id length 0", "hex": (bytes([CONFIRM, 0]) + varint(5) + H1).hex()},
    {"name": "table id length 65", "hex": (bytes([CONFIRM, 65]) + b"a" * 65 + varint(5) + H1).hex()},
    {"name": "table id with a dot", "hex": (bytes([CONFIRM, 3]) + b"a.b" + varint(5) + H1).hex()},
    {"name": "table id cut short", "hex": bytes([CONFIRM, 12]).hex() + b"3a1b".hex()},
    {"name": "number not in its shortest form (0x85 0x00)",
     "hex": (bytes([CONFIRM]) + table_id(T) + bytes([0x85, 0x00]) + H1).hex()},
    {"name": "number of six varint bytes",
     "hex": (bytes([CONFIRM]) + table_id(T) + bytes([0x80] * 5 + [0x01]) + H1).hex()},
    {"name": "number 2^31 (too large)",
     "hex": (bytes([CONFIRM]) + table_id(T) + bytes([0x80, 0x80, 0x80, 0x80, 0x08]) + H1).hex()},
    {"name": "number cut short (last byte has the high bit)", "hex": (bytes([CONFIRM]) + table_id(T) + bytes([0x85])).hex()},
    {"name": "confirm hash of 31 bytes", "hex": (bytes([CONFIRM]) + table_id(T) + varint(5) + H1[:31]).hex()},
    {"name": "confirm with a byte after the hash", "hex": (good_confirm + b"\x00").hex()},
    {"name": "move without its JSON", "hex": (bytes([MOVE]) + table_id(T) + varint(0) + varint(2) + H1).hex()},
    {"name": "move whose JSON is not JSON", "hex": (bytes([MOVE]) + table_id(T) + varint(0) + varint(2) + H1 + b"{nope").hex()},
    {"name": "move with two JSON values", "hex": (bytes([MOVE]) + table_id(T) + varint(0) + varint(2) + H1 + b"1 2").hex()},
    {"name": "move JSON nested 16 deep (a whole message may nest 16)",
     "hex": (bytes([MOVE]) + table_id(T) + varint(0) + varint(2) + H1 + b"[" * 16 + b"]" * 16).hex()},
    {"name": "progress without its JSON", "hex": (bytes([PROGRESS]) + table_id(T) + varint(1) + varint(3)).hex()},
    # The short kinds (13.2, 13.4).
    {"name": "kind 8 (reserved) with a short table id", "hex": (bytes([8]) + good_short_confirm[1:]).hex()},
    {"name": "short table id cut short (0x00, then 2 bytes)", "hex": (bytes([SHORT_CONFIRM, 0x00]) + HOST[:2]).hex()},
    {"name": "short table id whose e is not in its shortest form (0x80 0x00)",
     "hex": (bytes([SHORT_CONFIRM, 0x00]) + HOST + bytes([0x80, 0x00]) + varint(1) + varint(5) + H2[:8]).hex()},
    {"name": "short table id whose n is 2^31 (too large)",
     "hex": (bytes([SHORT_CONFIRM, 0x00]) + HOST + varint(1) + bytes([0x80, 0x80, 0x80, 0x80, 0x08]) + varint(5)
             + H2[:8]).hex()},
    {"name": "short kind, table id length 65",
     "hex": (bytes([SHORT_CONFIRM, 65]) + b"a" * 65 + varint(5) + H2[:8]).hex()},
    {"name": "short table id (0x00) in kind 2 (only the short kinds have it)",
     "hex": (bytes([CONFIRM]) + short_table_id(T) + varint(5) + H2).hex()},
    {"name": "short confirm with a byte after its 8-byte hash", "hex": (good_short_confirm + b"\x00").hex()},
    {"name": "short move with its hash cut short (5 bytes, then nothing)",
     "hex": (bytes([SHORT_MOVE]) + short_table_id(T) + varint(0) + varint(2) + H1[:5]).hex()},
]

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "compact.json"), "w") as f:
    json.dump({"description": "compact hot messages (PROTOCOL.md 13): bodies in hex, the JSON message each stands "
               "for, whole plaintext frames for the first ones (service byte 0x01, tables, before the body); \"sent\", when present, is what a sender writes for the same "
               "message (a short kind's host-made table id in the 0x00 form); invalid bodies a receiver drops",
               "valid": valid, "invalid": invalid}, f, indent=1, ensure_ascii=False)
