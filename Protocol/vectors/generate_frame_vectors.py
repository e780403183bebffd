#!/usr/bin/env python3
"""Independent encoder for PROTOCOL.md sections 3-4: writes frames.json, the wire test vectors.
Each valid case gives the frame bytes (hex) and the decoded value; each invalid case gives bytes and
the error a receiver must report. The Swift tests decode every case and re-encode the valid ones."""
import json, os, struct

def header(version, mtype, length, flags=0, magic=b"TV"):
    return magic + bytes([version, mtype, flags, 0]) + struct.pack(">I", length)

def js(obj):
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()

def frame(mtype, payload, version=1):
    return header(version, mtype, len(payload)) + payload

NODE_A = "00112233445566778899aabbccddeeff"
hs = {"capabilities": ["datagrams", "tables"], "name": "alpha", "nodeId": NODE_A, "udpPort": 40000, "version": 1}
hb = {"sentAt": 123456789, "seq": 7}
bye = {"code": "duplicate-connection", "reason": "already connected to 00112233"}
app = {"kind": "hello", "n": 1}
dg_body = js({"x": 1})
dg_payload = bytes.fromhex(NODE_A) + struct.pack(">Q", 42) + dg_body
# Section 13: a compact table.confirm (kind 2, table "3a1b2c4d-1-1", move 5, hash 00 01 .. 1f); compact.json has
# every kind and what each decodes to.
compact_body = bytes([2, 12]) + b"3a1b2c4d-1-1" + bytes([5]) + bytes(range(32))

valid = [
    {"name": "handshake", "type": "handshake", "value": hs, "hex": frame(1, js(hs)).hex()},
    {"name": "heartbeat", "type": "heartbeat", "value": hb, "hex": frame(2, js(hb)).hex()},
    {"name": "heartbeat-ack", "type": "heartbeat-ack", "value": hb, "hex": frame(3, js(hb)).hex()},
    {"name": "goodbye", "type": "goodbye", "value": bye, "hex": frame(4, js(bye)).hex()},
    {"name": "application", "type": "application", "value": app, "hex": frame(5, js(app)).hex()},
    {"name": "datagram", "type": "datagram",
     "value": {"sender": NODE_A, "seq": 42, "body": {"x": 1}}, "hex": frame(6, dg_payload).hex()},
    {"name": "compact", "type": "compact", "value": {"body": compact_body.hex(), "kind": "table.confirm"},
     "hex": frame(8, compact_body).hex()},
]
invalid = [
    {"name": "bad magic", "error": "badMagic", "hex": (b"XX" + frame(2, js(hb))[2:]).hex()},
    {"name": "version 2", "error": "unsupportedVersion", "hex": frame(2, js(hb), version=2).hex()},
    {"name": "unknown type", "error": "unknownType", "hex": frame(9, b"{}").hex()},
    {"name": "length over 1 MiB", "error": "tooLarge", "hex": header(1, 5, (1 << 20) + 1).hex()},
    {"name": "truncated payload", "error": "truncated", "hex": frame(2, js(hb)).hex()[:-4]},
    {"name": "payload not JSON", "error": "badPayload", "hex": frame(2, b"{nope").hex()},
    {"name": "handshake missing field", "error": "badPayload",
     "hex": frame(1, js({"name": "x", "nodeId": NODE_A, "version": 1})).hex()},
    {"name": "short datagram", "error": "badPayload", "hex": frame(6, b"\x00" * 10).hex()},
    {"name": "application payload not JSON", "error": "badPayload", "hex": frame(5, b"{nope").hex()},
    {"name": "application payload empty", "error": "badPayload", "hex": frame(5, b"").hex()},
    {"name": "datagram body not JSON", "error": "badPayload",
     "hex": frame(6, bytes.fromhex(NODE_A) + struct.pack(">Q", 1) + b"{nope").hex()},
    {"name": "compact payload empty", "error": "badPayload", "hex": frame(8, b"").hex()},
    {"name": "compact payload that is JSON", "error": "badPayload", "hex": frame(8, b"{}").hex()},
    {"name": "compact payload starting with kind 9", "error": "badPayload", "hex": frame(8, b"\x09" + compact_body[1:]).hex()},
    {"name": "heartbeat seq not an integer", "error": "badPayload",
     "hex": frame(2, js({"sentAt": 5, "seq": 1.0})).hex()},
    # Section 3.4: at most 16 arrays and objects open at once, in every JSON payload.
    {"name": "application payload nested 17 deep", "error": "badPayload",
     "hex": frame(5, b"[" * 17 + b"1" + b"]" * 17).hex()},
    {"name": "application payload with an empty array at depth 17", "error": "badPayload",
     "hex": frame(5, b"[" * 16 + b"[]" + b"]" * 16).hex()},
    {"name": "heartbeat with an unknown member nested 17 deep", "error": "badPayload",
     "hex": frame(2, b'{"sentAt":5,"seq":1,"x":' + b"[" * 16 + b"]" * 16 + b"}").hex()},
]

def bad_handshake(label, **changes):
    """A handshake that decodes as JSON but breaks a rule of section 4.1: the receiver's goodbye is bad-frame."""
    h = dict(hs, **changes)
    return {"name": "handshake " + label, "error": "badPayload", "hex": frame(1, js(h)).hex()}

invalid += [
    bad_handshake("nodeId in upper case", nodeId=NODE_A.upper()),
    bad_handshake("nodeId of 31 digits", nodeId=NODE_A[:31]),
    bad_handshake("udpPort 70000", udpPort=70000),
    bad_handshake("udpPort 0", udpPort=0),
    bad_handshake("udpPort -5", udpPort=-5),
    bad_handshake("udpPort 99999999999", udpPort=99999999999),
    bad_handshake("udpPort 1.0", udpPort=1.0),
    bad_handshake("udpPort as a string", udpPort="40000"),
    bad_handshake("version 1.0", version=1.0),
    bad_handshake("name empty", name=""),
    bad_handshake("name of 64 bytes", name="\u00e9" * 32),
    bad_handshake("name with a control character", name="al\npha"),
    bad_handshake("name with a slash", name="al/pha"),
    bad_handshake("capability not a string", capabilities=["datagrams", 7]),
    bad_handshake("capability in upper case", capabilities=["Datagrams"]),
    bad_handshake("17 capabilities", capabilities=["c%d" % i for i in range(17)]),
]
valid += [
    {"name": "handshake with a 63-byte name and no capabilities", "type": "handshake",
     "value": dict(hs, name="\u00e9" * 31 + "x", capabilities=[]),
     "hex": frame(1, js(dict(hs, name="\u00e9" * 31 + "x", capabilities=[]))).hex()},
]
# The goodbye a TCP receiver sends for each error (section 3.5); a truncated frame just ends the connection.
GOODBYE = {"badMagic": "bad-frame", "unsupportedVersion": "version-mismatch", "unknownType": "bad-frame",
           "tooLarge": "frame-too-large", "truncated": None, "badPayload": "bad-frame"}
for case in invalid:
    case["goodbye"] = GOODBYE[case["error"]]

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "frames.json"), "w") as f:
    json.dump({"description": "wire frames of protocol version 1: hex bytes and decoded values (PROTOCOL.md 3-4)",
               "valid": valid, "invalid": invalid}, f, indent=1, ensure_ascii=False)
