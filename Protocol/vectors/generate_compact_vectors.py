#!/usr/bin/env python3
"""Independent encoder for PROTOCOL.md section 13 (compact hot messages): writes compact.json.
Each valid case gives a compact body (hex), the JSON message it stands for ("value", keys as in section 9.1 /
10.4, hashes in hex), and, for the first ones, the whole frame it travels in (a compact frame, type 8, or a
datagram). Each invalid case gives a body a receiver must drop (counted as a refused table message, the
connection kept) and why. Written from the spec alone: the Swift tests decode and re-encode every case."""
import json, os, struct

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
    b = t.encode("ascii")
    assert 1 <= len(b) <= 64
    return bytes([len(b)]) + b

MOVE, CONFIRM, RACE_MOVE, PROGRESS = 1, 2, 3, 4

def move(table, number, seat, state_hash, mv):
    return bytes([MOVE]) + table_id(table) + varint(number) + varint(seat) + state_hash + js(mv)

def confirm(table, number, state_hash):
    return bytes([CONFIRM]) + table_id(table) + varint(number) + state_hash

def race_move(table, seat, number, seat_hash, mv):
    return bytes([RACE_MOVE]) + table_id(table) + varint(seat) + varint(number) + seat_hash + js(mv)

def progress(table, seat, number, prog):
    return bytes([PROGRESS]) + table_id(table) + varint(seat) + varint(number) + js(prog)

def frame(mtype, payload, version=1):
    return b"TV" + bytes([version, mtype, 0, 0]) + struct.pack(">I", len(payload)) + payload

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
    frame=frame(8, b).hex())
b = confirm(T, 5, H2)
add("table.confirm", b, {"type": "table.confirm", "table": T, "number": 5, "stateHash": H2.hex()},
    frame=frame(8, b).hex())
b = progress("3a1b2c4d-1-2", 1, 3, {"board": [1, 2, 3, 4, 5, 6, 7, 8, 0], "inPlace": 8})
add("table.progress in a datagram", b,
    {"type": "table.progress", "table": "3a1b2c4d-1-2", "seat": 1, "number": 3,
     "progress": {"board": [1, 2, 3, 4, 5, 6, 7, 8, 0], "inPlace": 8}},
    frame=frame(6, bytes.fromhex(NODE_A) + struct.pack(">Q", 42) + b).hex())
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

good_confirm = confirm(T, 5, H1)
invalid = [
    {"name": "empty", "hex": ""},
    {"name": "kind 5 (reserved)", "hex": (bytes([5]) + good_confirm[1:]).hex()},
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
]

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "compact.json"), "w") as f:
    json.dump({"description": "compact hot messages (PROTOCOL.md 13): bodies in hex, the JSON message each stands "
               "for, whole frames for the first ones; invalid bodies a receiver drops",
               "valid": valid, "invalid": invalid}, f, indent=1, ensure_ascii=False)
