#!/usr/bin/env python3
"""Independent Noise implementation (the `noiseprotocol` package, pip install noiseprotocol) writing noise.json:
a full Noise_XX_25519_ChaChaPoly_SHA256 handshake between fixed static and ephemeral keys with the Tavolo
prologue and payloads, the handshake hash, transport messages with and without associated data (frame
encryption, PROTOCOL.md 3.7), the node ids derived from the static keys (3.3) and the datagram keys (4.6); and
for private circles (3.8) the scrypt PSK of a passphrase, the circle tag, a full Noise_XXpsk3 handshake with the
same keys, a sealed frame after it, and a message 3 written under another passphrase (the responder must refuse it).
The Swift tests (NoiseVectorTests) replay every message byte for byte.

Protocol version 3 (PROTOCOL.md 3.6): wire headers carry version 3 and so do the handshakes; the derivation labels
keep their v2 names (prologue "tavolo/v2", "tavolo/node-id/v2", "tavolo/datagram/v2", "tavolo/circle/v2/").
Application and compact plaintexts, and datagram bodies, start with their service byte (3.9)."""
import hashlib, hmac, json, os, struct
from noise.connection import NoiseConnection, Keypair
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives import serialization

NAME = b"Noise_XX_25519_ChaChaPoly_SHA256"
PROLOGUE = b"tavolo/v2"
VERSION = 3  # the wire version (3.6); the labels keep their v2 names
TABLES = 1  # the service byte of the tables service (3.9)

def key(seed):
    return bytes((seed + i) % 256 for i in range(32))

def public(priv):
    raw = X25519PrivateKey.from_private_bytes(priv).public_key()
    return raw.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)

def node_id(pub):
    return hashlib.sha256(b"tavolo/node-id/v2" + pub).digest()[:16]

def hkdf2(ck, ikm):
    """HKDF as Noise section 4.3 defines it, two outputs."""
    temp = hmac.new(ck, ikm, hashlib.sha256).digest()
    o1 = hmac.new(temp, b"\x01", hashlib.sha256).digest()
    o2 = hmac.new(temp, o1 + b"\x02", hashlib.sha256).digest()
    return o1, o2

def js(obj):
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()

def conn(initiator, s, e):
    c = NoiseConnection.from_name(NAME)
    c.set_as_initiator() if initiator else c.set_as_responder()
    c.set_prologue(PROLOGUE)
    c.set_keypair_from_private_bytes(Keypair.STATIC, s)
    c.set_keypair_from_private_bytes(Keypair.EPHEMERAL, e)
    c.start_handshake()
    return c

i_s, i_e, r_s, r_e = key(1), key(64), key(128), key(192)
i_id, r_id = node_id(public(i_s)), node_id(public(r_s))
init, resp = conn(True, i_s, i_e), conn(False, r_s, r_e)

hs_r = {"capabilities": ["datagrams", "tables"], "name": "bravo", "nodeId": r_id.hex(), "udpPort": 40001, "version": VERSION}
hs_i = {"capabilities": ["datagrams", "tables"], "name": "alpha", "nodeId": i_id.hex(), "udpPort": 40000, "version": VERSION}
messages = []
for sender, receiver, payload in [(init, resp, b""), (resp, init, js(hs_r)), (init, resp, js(hs_i))]:
    m = bytes(sender.write_message(payload))
    got = bytes(receiver.read_message(m))
    assert got == payload
    messages.append({"payload": payload.hex(), "message": m.hex()})
assert init.handshake_finished and resp.handshake_finished
h = bytes(init.get_handshake_hash())
assert h == bytes(resp.get_handshake_hash())

def header(mtype, length):
    return b"TV" + bytes([VERSION, mtype, 0, 0]) + struct.pack(">I", length)

transport = []
for i, (sender, receiver, direction, mtype, body) in enumerate([
        (init, resp, "initiator", 2, js({"sentAt": 1, "seq": 1})),
        (resp, init, "responder", 3, js({"sentAt": 1, "seq": 1})),
        (init, resp, "initiator", 5, bytes([TABLES]) + js({"kind": "hello", "n": 1})),
        # A compact frame (type 8) is sealed like every frame after the handshake (3.7): a short table.confirm.
        (init, resp, "initiator", 8, bytes([TABLES, 6, 0, 0x3a, 0x1b, 0x2c, 0x4d, 1, 1, 5]) + bytes(range(8))),
        (resp, init, "responder", 4, js({"code": "shutdown", "reason": "bye"}))]):
    ad = header(mtype, len(body) + 16)
    ct = bytes(sender.noise_protocol.cipher_state_encrypt.encrypt_with_ad(ad, body))
    assert bytes(receiver.noise_protocol.cipher_state_decrypt.decrypt_with_ad(ad, ct)) == body
    transport.append({"from": direction, "ad": ad.hex(), "plaintext": body.hex(), "ciphertext": ct.hex()})

# Datagram keys (PROTOCOL.md 4.6): HKDF(ck = handshake hash, ikm = label), first output initiator->responder.
dg_i2r, dg_r2i = hkdf2(h, b"tavolo/datagram/v2")
datagrams = []
for direction, k, sender, seq, body in [("initiator", dg_i2r, i_id, 1, bytes([TABLES]) + js({"x": 1})),
                                        ("responder", dg_r2i, r_id, 7, bytes([TABLES]) + js({"y": [1, 2]}))]:
    prefix = sender + struct.pack(">Q", seq)
    hdr = header(6, len(prefix) + len(body) + 16)
    nonce = b"\x00" * 4 + struct.pack("<Q", seq)
    ct = ChaCha20Poly1305(k).encrypt(nonce, body, hdr + prefix)
    datagrams.append({"from": direction, "seq": seq, "body": body.hex(), "frame": (hdr + prefix + ct).hex()})

# Private circles (PROTOCOL.md 3.8): Noise_XXpsk3 with the PSK from scrypt(passphrase, "tavolo/circle/v2/" + name).
PSK_NAME = b"Noise_XXpsk3_25519_ChaChaPoly_SHA256"
circle, passphrase = "cucina", "mescola le carte"
psk = hashlib.scrypt(passphrase.encode(), salt=b"tavolo/circle/v2/" + circle.encode(), n=1 << 15, r=8, p=1,
                     maxmem=64 << 20, dklen=32)
tag = hashlib.sha256(b"tavolo/circle-tag/v2" + circle.encode()).digest()[:8]

def psk_conn(initiator, s, e, key):
    c = NoiseConnection.from_name(PSK_NAME)
    c.set_as_initiator() if initiator else c.set_as_responder()
    c.set_prologue(PROLOGUE)
    c.set_psks(psk=key)
    c.set_keypair_from_private_bytes(Keypair.STATIC, s)
    c.set_keypair_from_private_bytes(Keypair.EPHEMERAL, e)
    c.start_handshake()
    return c

p_init, p_resp = psk_conn(True, i_s, i_e, psk), psk_conn(False, r_s, r_e, psk)
psk_messages = []
for sender, receiver, payload in [(p_init, p_resp, b""), (p_resp, p_init, js(hs_r)), (p_init, p_resp, js(hs_i))]:
    m = bytes(sender.write_message(payload))
    assert bytes(receiver.read_message(m)) == payload
    psk_messages.append({"payload": payload.hex(), "message": m.hex()})
assert p_init.handshake_finished and p_resp.handshake_finished
psk_h = bytes(p_init.get_handshake_hash())
hello = bytes([TABLES]) + js({"kind": "hello"})
ad = header(5, len(hello) + 16)
psk_transport = {"from": "initiator", "ad": ad.hex(), "plaintext": hello.hex(),
                 "ciphertext": bytes(p_init.noise_protocol.cipher_state_encrypt.encrypt_with_ad(ad, hello)).hex()}
# Another passphrase: message 3 no longer authenticates at the responder.
w_init, w_resp = psk_conn(True, i_s, i_e, hashlib.sha256(b"wrong").digest()), psk_conn(False, r_s, r_e, psk)
w_resp.read_message(w_init.write_message(b""))
w_init.read_message(w_resp.write_message(js(hs_r)))
wrong3 = bytes(w_init.write_message(js(hs_i)))
try:
    w_resp.read_message(wrong3)
    raise SystemExit("a message 3 under another PSK was accepted")
except Exception as e:
    if isinstance(e, SystemExit): raise

out = {
    "protocol": NAME.decode(), "prologue": PROLOGUE.hex(),
    "initiator": {"static": i_s.hex(), "staticPublic": public(i_s).hex(), "ephemeral": i_e.hex(), "nodeId": i_id.hex()},
    "responder": {"static": r_s.hex(), "staticPublic": public(r_s).hex(), "ephemeral": r_e.hex(), "nodeId": r_id.hex()},
    "handshake": messages, "handshakeHash": h.hex(),
    "transport": transport,
    "datagramKeys": {"initiatorToResponder": dg_i2r.hex(), "responderToInitiator": dg_r2i.hex()},
    "datagrams": datagrams,
    "circle": {"protocol": PSK_NAME.decode(), "name": circle, "passphrase": passphrase,
               "scrypt": {"N": 1 << 15, "r": 8, "p": 1, "salt": (b"tavolo/circle/v2/" + circle.encode()).hex()},
               "psk": psk.hex(), "tag": tag.hex(), "handshake": psk_messages, "handshakeHash": psk_h.hex(),
               "transport": psk_transport, "wrongPassphraseMessage3": wrong3.hex()},
}
path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "noise.json")
with open(path, "w") as f:
    json.dump(out, f, indent=1, sort_keys=True)
    f.write("\n")
print("wrote", path)
