#!/usr/bin/env python3
"""Independent encoder for PROTOCOL.md sections 3-4: writes frames.json, the test vectors of the plaintext frames
(header version byte 1, section 3.6). Each valid case gives the frame bytes (hex) and the decoded value; an
application, compact or datagram case also its service byte (3.9: 1 tables, 2 records, 3 chat; a frame with an
unassigned one is still a valid frame, unrouted by the receiver). Each invalid case gives bytes and the error a
receiver must report. The Swift tests decode every case and re-encode the valid ones."""
import json, os, struct

def header(version, mtype, length, flags=0, magic=b"TV"):
    return magic + bytes([version, mtype, flags, 0]) + struct.pack(">I", length)

def js(obj):
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()

def frame(mtype, payload, version=1):
    return header(version, mtype, len(payload)) + payload

NODE_A = "00112233445566778899aabbccddeeff"
TABLES, RECORDS, CHAT = 1, 2, 3  # the services of section 3.9

def message(service, body):
    """An application, compact or datagram message: the service byte, then the service's bytes (3.9)."""
    return bytes([service]) + body
hs = {"capabilities": ["datagrams", "tables"], "name": "alpha", "nodeId": NODE_A, "udpPort": 40000, "version": 1}
hb = {"sentAt": 123456789, "seq": 7}
bye = {"code": "duplicate-connection", "reason": "already connected to 00112233"}
app = {"kind": "hello", "n": 1}
dg_body = message(TABLES, js({"x": 1}))
dg_payload = bytes.fromhex(NODE_A) + struct.pack(">Q", 42) + dg_body
def dg(body):
    return bytes.fromhex(NODE_A) + struct.pack(">Q", 1) + body
# Section 13: a compact table.confirm (kind 2, table "3a1b2c4d-1-1", move 5, hash 00 01 .. 1f); compact.json has
# every kind and what each decodes to.
compact_body = bytes([2, 12]) + b"3a1b2c4d-1-1" + bytes([5]) + bytes(range(32))

valid = [
    {"name": "handshake", "type": "handshake", "value": hs, "hex": frame(1, js(hs)).hex()},
    {"name": "heartbeat", "type": "heartbeat", "value": hb, "hex": frame(2, js(hb)).hex()},
    {"name": "heartbeat-ack", "type": "heartbeat-ack", "value": hb, "hex": frame(3, js(hb)).hex()},
    {"name": "goodbye", "type": "goodbye", "value": bye, "hex": frame(4, js(bye)).hex()},
    {"name": "application", "type": "application", "service": TABLES, "value": app,
     "hex": frame(5, message(TABLES, js(app))).hex()},
    {"name": "datagram", "type": "datagram", "service": TABLES,
     "value": {"sender": NODE_A, "seq": 42, "body": {"x": 1}}, "hex": frame(6, dg_payload).hex()},
    {"name": "compact", "type": "compact", "service": TABLES,
     "value": {"body": compact_body.hex(), "kind": "table.confirm"}, "hex": frame(8, message(TABLES, compact_body)).hex()},
    # Section 3.9: every service in an application frame; the mesh checks the JSON whatever the service byte.
    {"name": "application for the records service", "type": "application", "service": RECORDS,
     "value": {"buckets": [""] * 2, "count": 0, "type": "records.summary"},
     "hex": frame(5, message(RECORDS, js({"buckets": [""] * 2, "count": 0, "type": "records.summary"}))).hex()},
    {"name": "application for the chat service, text naming a records message", "type": "application",
     "service": CHAT, "value": {"room": "lobby", "text": 'see "records.summary" here', "type": "chat"},
     "hex": frame(5, message(CHAT, js({"room": "lobby", "text": 'see "records.summary" here', "type": "chat"}))).hex()},
    {"name": "application for an unassigned service (0x2a): a valid frame, unrouted", "type": "application",
     "service": 0x2A, "value": app, "hex": frame(5, message(0x2A, js(app))).hex()},
    {"name": "application for service 0x00 (unassigned), a JSON string", "type": "application", "service": 0,
     "value": "hi", "hex": frame(5, message(0, js("hi"))).hex()},
    {"name": "compact for the chat service (no compact form: a valid frame, unrouted)", "type": "compact",
     "service": CHAT, "value": {"body": compact_body.hex(), "kind": "table.confirm"},
     "hex": frame(8, message(CHAT, compact_body)).hex()},
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
    {"name": "application payload not JSON", "error": "badPayload", "hex": frame(5, message(TABLES, b"{nope")).hex()},
    {"name": "application payload empty (no service byte)", "error": "badPayload", "hex": frame(5, b"").hex()},
    {"name": "application payload of a service byte alone", "error": "badPayload",
     "hex": frame(5, bytes([CHAT])).hex()},
    {"name": "application payload as version 2 wrote it (JSON, no service byte)", "error": "badPayload",
     "hex": frame(5, js(app)).hex()},
    {"name": "datagram body not JSON", "error": "badPayload", "hex": frame(6, dg(message(TABLES, b"{nope"))).hex()},
    {"name": "datagram without a service byte (prefix only)", "error": "badPayload", "hex": frame(6, dg(b"")).hex()},
    {"name": "datagram body of a service byte alone", "error": "badPayload", "hex": frame(6, dg(bytes([TABLES]))).hex()},
    {"name": "datagram body as version 2 wrote it (JSON, no service byte)", "error": "badPayload",
     "hex": frame(6, dg(js({"x": 1}))).hex()},
    {"name": "compact payload empty", "error": "badPayload", "hex": frame(8, b"").hex()},
    {"name": "compact payload of a service byte alone", "error": "badPayload", "hex": frame(8, bytes([TABLES])).hex()},
    {"name": "compact payload that is JSON after its service byte", "error": "badPayload",
     "hex": frame(8, message(TABLES, b"{}")).hex()},
    {"name": "compact payload starting with kind 9", "error": "badPayload",
     "hex": frame(8, message(TABLES, b"\x09" + compact_body[1:])).hex()},
    {"name": "compact payload as version 2 wrote it (kind first, no service byte)", "error": "badPayload",
     "hex": frame(8, bytes([6, 0x00])).hex()},
    {"name": "heartbeat seq not an integer", "error": "badPayload",
     "hex": frame(2, js({"sentAt": 5, "seq": 1.0})).hex()},
    # Section 3.4: at most 16 arrays and objects open at once, in every JSON payload.
    {"name": "application payload nested 17 deep", "error": "badPayload",
     "hex": frame(5, message(TABLES, b"[" * 17 + b"1" + b"]" * 17)).hex()},
    {"name": "application payload with an empty array at depth 17", "error": "badPayload",
     "hex": frame(5, message(TABLES, b"[" * 16 + b"[]" + b"]" * 16)).hex()},
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
    json.dump({"description": "plaintext frames of protocol version 3 (header version byte 1, PROTOCOL.md 3.6): hex "
               "bytes, decoded values and the service byte of application messages (3.9); invalid frames with the "
               "error and goodbye (PROTOCOL.md 3-4)",
               "valid": valid, "invalid": invalid}, f, indent=1, ensure_ascii=False)
