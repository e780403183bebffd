#!/usr/bin/env python3
"""Record signatures (PROTOCOL.md section 11.7), written from the spec with the Python `cryptography` package
(X25519, Ed25519) and the Ed25519 group arithmetic of RFC 8032 written out below, not from Tavolo's code.
Writes record-signatures.json: two nodes' keys, the Edwards form of each identity key, each binding, their
signatures of a record both played, records a receiver must accept or refuse (section 11.4 step 7), and the
canonical bytes of a `records.signatures` message and of a `records.data` whose record carries signatures (11.3).

The record is the first of records.json (an Othello game, accepted there) with its seats given to the two nodes
here, as people; its moves, and so its replay, are unchanged. Other records give its seats to node A's bots, to both
nodes' bots, to A's person and B's bot; one is the game of records.json whose seat 1 was left at move 10, here by
node B, and played on by node A's bot. Each verdict is computed by `verdict` below from section 11.4 step 7 (every
node named as a seat's `node`, a person's seat or a bot's, must have a valid signature) and checked against the
verdict written beside the case.

Run: python3 Protocol/vectors/generate_record_signature_vectors.py (needs the `cryptography` package); it rewrites
record-signatures.json next to it."""
import hashlib, json, os, struct

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

here = os.path.dirname(os.path.abspath(__file__))
canon = lambda x: json.dumps(x, sort_keys=True, separators=(",", ":"), ensure_ascii=False)

# RFC 8032 section 5.1: the field, the group order and the base point.
P = 2**255 - 19
L = 2**252 + 27742317777372353535851937790883648493
D = -121665 * pow(121666, P - 2, P) % P
inv = lambda x: pow(x, P - 2, P)


def recover_x(y, sign):
    xx = (y * y - 1) * inv(D * y * y + 1) % P
    x = pow(xx, (P + 3) // 8, P)
    if (x * x - xx) % P != 0:
        x = x * pow(2, (P - 1) // 4, P) % P
    assert (x * x - xx) % P == 0
    return P - x if x & 1 != sign else x


BY = 4 * inv(5) % P
BASE = (recover_x(BY, 0), BY)


def add(p1, p2):
    (x1, y1), (x2, y2) = p1, p2
    t = D * x1 * x2 * y1 * y2 % P
    return ((x1 * y2 + x2 * y1) * inv(1 + t) % P, (y1 * y2 + x1 * x2) * inv(1 - t) % P)


def mul(n, point):
    result, addend = (0, 1), point
    while n:
        if n & 1:
            result = add(result, addend)
        addend = add(addend, addend)
        n >>= 1
    return result


def encode(point):
    x, y = point
    return (y | ((x & 1) << 255)).to_bytes(32, "little")


def montgomery_u(edwards):
    y = int.from_bytes(edwards, "little") & ((1 << 255) - 1)
    return ((1 + y) * inv(1 - y) % P).to_bytes(32, "little")


def identity_sign(k, message):
    """Section 11.7: Ed25519 with the clamped X25519 scalar and the nonce SHA-512(domain || a || M) mod L."""
    a = bytearray(k)
    a[0] &= 248
    a[31] &= 127
    a[31] |= 64
    scalar = int.from_bytes(a, "little")
    A = encode(mul(scalar, BASE))
    r = int.from_bytes(hashlib.sha512(b"tavolo/identity-nonce/v1" + bytes(a) + message).digest(), "little") % L
    R = encode(mul(r, BASE))
    h = int.from_bytes(hashlib.sha512(R + A + message).digest(), "little") % L
    S = (r + h * scalar) % L
    return A, R + S.to_bytes(32, "little")


def node_id(u):
    return hashlib.sha256(b"tavolo/node-id/v2" + u).digest()[:16].hex()


def make_node(k, seed):
    u = X25519PrivateKey.from_private_bytes(k).public_key().public_bytes_raw()
    signing = Ed25519PrivateKey.from_private_bytes(seed)
    K = signing.public_key().public_bytes_raw()
    A, binding = identity_sign(k, b"tavolo/signing-key/v1" + u + K)
    # The spec's two checks, with a library that is not ours: A maps to u, and the binding verifies under A.
    assert montgomery_u(A) == u
    Ed25519PublicKey.from_public_bytes(A).verify(binding, b"tavolo/signing-key/v1" + u + K)
    return {"k": k, "u": u, "A": A, "seed": seed, "K": K, "binding": binding, "signing": signing, "id": node_id(u)}


def signature(node, record_id, **override):
    sig = node["signing"].sign(b"tavolo/record/v1" + bytes.fromhex(record_id))
    s = {"node": node["id"], "identity": node["u"].hex(), "identityEd": node["A"].hex(), "key": node["K"].hex(),
         "binding": node["binding"].hex(), "signature": sig.hex()}
    s.update(override)
    return s


def forfeit_statement(table, joint_seed, number):
    """PROTOCOL.md 11.7: "tavolo/forfeit/v1" || u64(jointSeed) || u64(number) || the table id's UTF-8 bytes."""
    return b"tavolo/forfeit/v1" + struct.pack(">QQ", joint_seed, number) + table.encode("utf-8")


def forfeit_signature(node, table, joint_seed, number):
    s = signature(node, "00" * 32)
    s["signature"] = node["signing"].sign(forfeit_statement(table, joint_seed, number)).hex()
    return s


def record(base, seats, takeovers=None):
    b = json.loads(base)
    b["seats"] = seats
    if takeovers is not None:
        b["takeovers"] = takeovers
    body = canon(b)
    return body, hashlib.sha256(body.encode("utf-8")).hexdigest()


def valid_for_record(s, record_id):
    """Section 11.7: `node` is the id of `identity`, `identityEd` is its Edwards form, `binding` verifies under
    `identityEd`, and `signature` verifies under `key` for the record's id."""
    try:
        u, A, K = (bytes.fromhex(s[k]) for k in ("identity", "identityEd", "key"))
        if node_id(u) != s["node"] or montgomery_u(A) != u:
            return False
        Ed25519PublicKey.from_public_bytes(A).verify(bytes.fromhex(s["binding"]), b"tavolo/signing-key/v1" + u + K)
        Ed25519PublicKey.from_public_bytes(K).verify(bytes.fromhex(s["signature"]),
                                                     b"tavolo/record/v1" + bytes.fromhex(record_id))
        return True
    except Exception:
        return False


def verdict(body, record_id, signatures):
    """Section 11.4 step 7: a valid signature of every node named as a seat's `node`, bots' seats included.
    Signatures of nodes named neither at a seat nor as a takeovers member are ignored."""
    b = json.loads(body)
    owners = {seat["node"] for seat in b["seats"]}
    named = owners | {t["member"] for t in b.get("takeovers", [])}
    signed = {s["node"] for s in signatures if s["node"] in named and valid_for_record(s, record_id)}
    return "accept" if owners <= signed else "unsigned"


def main():
    a = make_node(bytes(range(1, 33)), bytes(range(101, 133)))
    b = make_node(bytes(range(33, 65)), bytes(range(133, 165)))
    base = json.load(open(os.path.join(here, "records.json"), encoding="utf-8"))["records"][0]["body"]
    people, pid = record(base, [{"seat": 0, "node": a["id"], "name": "alba"},
                                {"seat": 1, "node": b["id"], "name": "bruno"}])
    bots, bid = record(base, [{"seat": 0, "node": a["id"], "name": "alba", "bot": "greedy"},
                              {"seat": 1, "node": a["id"], "name": "alba", "bot": "greedy"}])
    bots2, b2id = record(base, [{"seat": 0, "node": a["id"], "name": "alba", "bot": "greedy"},
                                {"seat": 1, "node": b["id"], "name": "bruno", "bot": "greedy"}])
    mixed, mid = record(base, [{"seat": 0, "node": a["id"], "name": "alba"},
                               {"seat": 1, "node": b["id"], "name": "bruno", "bot": "greedy"}])
    left_base = next(r for r in json.load(open(os.path.join(here, "records.json"), encoding="utf-8"))["records"]
                     if r["name"] == "othello, finished, seat 1 left at move 10 and a bot played it on")["body"]
    lt = json.loads(left_base)["takeovers"][0]
    left, lid = record(left_base, [{"seat": 0, "node": a["id"], "name": "alba"},
                                   {"seat": 1, "node": a["id"], "name": "alba", "bot": lt["bot"]}],
                       [dict(lt, member=b["id"], name="bruno", heir=a["id"])])
    other = "00" * 32
    # A signing key of node A's presented as node B's: B's identity, A's key, and A's binding of it.
    stolen = signature(b, pid, key=a["K"].hex(), binding=a["binding"].hex(), signature=signature(a, pid)["signature"])
    # B's identity with an Edwards key and binding made by A's identity: A does not map to B's X25519 key.
    foreign = signature(b, pid, identityEd=a["A"].hex(),
                        binding=identity_sign(a["k"], b"tavolo/signing-key/v1" + b["u"] + b["K"])[1].hex())
    cases = [
        ("both people signed", people, pid, [signature(a, pid), signature(b, pid)], "accept"),
        ("bruno's signature missing", people, pid, [signature(a, pid)], "unsigned"),
        ("a signing key bound to another node", people, pid, [signature(a, pid), stolen], "unsigned"),
        ("a binding made by another identity key", people, pid, [signature(a, pid), foreign], "unsigned"),
        ("bruno signed another record", people, pid, [signature(a, pid), signature(b, other)], "unsigned"),
        ("bots alone, signed by the node that ran them", bots, bid, [signature(a, bid)], "accept"),
        ("bots alone, no signature", bots, bid, [], "unsigned"),
        ("bots alone, signed only by a node without a seat", bots, bid, [signature(b, bid)], "unsigned"),
        ("bots of both nodes, both signed", bots2, b2id, [signature(a, b2id), signature(b, b2id)], "accept"),
        ("bots alone naming bruno at a bot's seat he never signed", bots2, b2id, [signature(a, b2id)], "unsigned"),
        ("alba's person and bruno's bot, signed by alba alone", mixed, mid, [signature(a, mid)], "unsigned"),
        ("bruno left, his seat passed to alba's bot: alba alone signed", left, lid, [signature(a, lid)], "accept"),
        ("bruno left, his seat passed to alba's bot: bruno alone signed", left, lid, [signature(b, lid)], "unsigned"),
    ]
    for name, body, rid, sigs, expect in cases:
        assert verdict(body, rid, sigs) == expect, name
    both = [signature(a, pid), signature(b, pid)]
    messages = [
        {"name": "records.signatures", "json": canon({"type": "records.signatures", "id": pid, "signatures": both})},
        {"name": "records.data with signatures",
         "json": canon({"type": "records.data", "records": [
             {"id": pid, "body": people, "endedAt": 1700000000000, "signatures": both}]})},
    ]
    forfeits = [
        {"name": name, "table": t, "jointSeed": str(seed), "number": n, "statement": forfeit_statement(t, seed, n).hex(),
         "signature": forfeit_signature(who, t, seed, n) if signed_number is None
         else forfeit_signature(who, t, seed, signed_number), "member": b["id"], "expect": e}
        for name, who, t, seed, n, signed_number, e in (
            ("bruno signed his forfeit", b, "a1b2c3d4-7", 0x1122334455667788, 12, None, "counts"),
            ("bruno signed a forfeit at another move", b, "a1b2c3d4-7", 0x1122334455667788, 12, 13, "does not count"),
            ("alba signed bruno's forfeit", a, "a1b2c3d4-7", 2**64 - 1, 0, None, "does not count"),
        )]
    out = {
        "forfeits": forfeits,
        "messages": messages,
        "nodes": [{"x25519Private": n["k"].hex(), "identity": n["u"].hex(), "node": n["id"],
                   "identityEd": n["A"].hex(), "signingSeed": n["seed"].hex(), "key": n["K"].hex(),
                   "binding": n["binding"].hex()} for n in (a, b)],
        "records": [{"name": n, "body": body, "id": rid, "signatures": sigs, "expect": e}
                    for n, body, rid, sigs, e in cases],
    }
    with open(os.path.join(here, "record-signatures.json"), "w", encoding="utf-8") as f:
        json.dump(out, f, indent=1, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    main()
