#!/usr/bin/env python3
"""Independent encoder for PROTOCOL.md section 12 (chat) and the chat service of section 3.9: writes chat.json.
`frame` is a lobby message as a sender writes it: the plaintext application frame (3.6), its service byte 0x03
(chat), then the canonical JSON. `routed` are chat frames whose text looks like another service's message (the
word "records.summary", a table message written out in JSON): each is a chat message, routed by its service
byte alone. `clean` gives text as a receiver keeps it (null: dropped), `rooms` valid and invalid room names.
Written from the spec alone: the Swift tests (ChatMessageTests) encode and check every case."""
import json, os, re, struct

CHAT = 0x03  # the chat service (3.9)

def js(obj):
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()

def application_frame(service, payload):
    body = bytes([service]) + payload
    return b"TV" + bytes([1, 5, 0, 0]) + struct.pack(">I", len(body)) + body

def chat(room, text):
    return {"room": room, "text": text, "type": "chat"}

# Section 4.1's hidden and direction-changing characters, which cleaning removes too.
HIDDEN = [(0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
          (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
          (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF9, 0xFFFB), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A),
          (0xE0000, 0xE007F)]
CONTROL = set(range(0x00, 0x20)) | set(range(0x7F, 0xA0)) | {0x2028, 0x2029}
CONTROL |= {c for lo, hi in HIDDEN for c in range(lo, hi + 1)}
SPACE = {0x20, 0x09, 0x0A, 0x0D}

def clean(text):
    """Section 12: spaces, tabs and line ends become one space (runs collapse), other control characters go,
    the ends are trimmed; empty or over 500 bytes of UTF-8 is dropped (None)."""
    out, last_space = [], True
    for ch in text:
        c = ord(ch)
        if c in SPACE:
            if not last_space:
                out.append(" ")
            last_space = True
        elif c not in CONTROL:
            out.append(ch)
            last_space = False
    s = "".join(out).rstrip(" ")
    return s if s and len(s.encode()) <= 500 else None

def is_room(room):
    return re.fullmatch(r"[A-Za-z0-9-]{1,64}", room) is not None

lobby = chat("lobby", "ciao a tutti")
frame = application_frame(CHAT, js(lobby))
# 12's vector, as the spec prints it.
assert frame.hex().startswith("5456010500000000003503" + "7b22726f6f6d22")

routed = []
for name, text in [
        ("text naming a records message", 'see "records.summary" here'),
        ("text that is a table message in JSON", '{"table":"a-1","type":"table.leave"}'),
        ("text that is a records message in JSON", '{"buckets":[],"count":0,"type":"records.summary"}')]:
    m = chat("lobby", text)
    routed.append({"name": name, "room": "lobby", "text": text, "service": CHAT,
                   "hex": application_frame(CHAT, js(m)).hex()})

inputs = ["ciao a tutti", "  two\tlines\r\nhere  ", "bell\u0007 and \u001b[31mred\u001b[0m",
          "c1\u0085 del\u007f sep\u2028", "<b>not bold</b>", "\u0000\u0001 \t", "",
          "\u00e9" * 250, "\u00e9" * 250 + "x", "x" * 500, "x" * 501,
          "evil\u202egnp.exe", "ann\u200b\u200d\u2066 \ufeffbob\u061c", "\u200b\u202e"]
rooms = {"valid": ["lobby", "3a1b2c4d-1", "A-z-9"],
         "invalid": ["", "bad room", "\u00fcmlaut", "x" * 65, "a/b"]}
assert all(is_room(r) for r in rooms["valid"]) and not any(is_room(r) for r in rooms["invalid"])

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "chat.json"), "w") as f:
    json.dump({"comment": "PROTOCOL.md §12 Chat, §3.9 services. `frame`: a lobby message as sent (the plaintext "
               "application frame: service byte 0x03, then canonical JSON, keys sorted). `routed`: chat frames whose "
               "text looks like another service's message; each is chat. `clean`: text as a receiver keeps it (null: "
               "dropped). `rooms`: valid room names and invalid ones. Written by generate_chat_vectors.py.",
               "frame": {"room": lobby["room"], "text": lobby["text"], "service": CHAT, "hex": frame.hex()},
               "routed": routed,
               "clean": [{"in": t, "out": clean(t)} for t in inputs],
               "rooms": rooms}, f, indent=1, ensure_ascii=False)
