#!/usr/bin/env python3
"""Independent reference implementation of PROTOCOL.md section 14 (the sealed deck), written from the spec text:
card points, member keys and their Schnorr proofs, the joint key, every member's shuffle (permutation keys and
re-randomisers), decryption shares with Chaum-Pedersen proofs, opening, deck hashes and the escrow of a secret.
Group operations are libsodium's ristretto255 through pysodium (pip install pysodium==0.7.19); everything above
the group (encodings, labels, transcripts, derivations, order) is written here from section 14.
Writes sealed.json, which the Swift tests replay byte for byte."""
import hashlib, json, os, struct
import pysodium as na

L = 2**252 + 27742317777372353535851937790883648493


def sha512(b):
    return hashlib.sha512(b).digest()


def sha256(b):
    return hashlib.sha256(b).digest()


def u8(v):
    return struct.pack(">B", v)


def u16(v):
    return struct.pack(">H", v)


def u32(v):
    return struct.pack(">I", v)


def string(s):
    b = s.encode("utf-8")
    return u16(len(b)) + b


def scalar_of(transcript):
    """H_s: SHA-512 of the transcript, read as a little-endian integer, modulo l (section 14.2)."""
    return (int.from_bytes(sha512(transcript), "little") % L).to_bytes(32, "little")


def smul(a, b):
    return ((int.from_bytes(a, "little") * int.from_bytes(b, "little")) % L).to_bytes(32, "little")


def sadd(a, b):
    return ((int.from_bytes(a, "little") + int.from_bytes(b, "little")) % L).to_bytes(32, "little")


IDENTITY = bytes(32)


def base(s):
    return na.crypto_scalarmult_ristretto255_base(s)


def mul(s, p):
    return na.crypto_scalarmult_ristretto255(s, p)


def add(p, q):
    if p == IDENTITY:
        return q
    if q == IDENTITY:
        return p
    return na.crypto_core_ristretto255_add(p, q)


def sub(p, q):
    return na.crypto_core_ristretto255_sub(p, q)


def card_point(i):
    return na.crypto_core_ristretto255_from_hash(sha512(b"tavolo/sealed/card/v1" + u16(i)))


def derive(label, sigma, table):
    """Every value a member derives from its secret starts label || sigma || string(table)."""
    return label + sigma + string(table)


class Member:
    def __init__(self, sigma, table, index):
        self.sigma, self.table, self.index = sigma, table, index
        self.x = scalar_of(derive(b"tavolo/sealed/key/v1", sigma, table))
        self.h = base(self.x)

    def key_proof(self):
        k = scalar_of(derive(b"tavolo/sealed/key-nonce/v1", self.sigma, self.table) + u8(self.index))
        r = base(k)
        c = scalar_of(b"tavolo/sealed/key-proof/v1" + string(self.table) + u8(self.index) + self.h + r)
        return c + sadd(k, smul(c, self.x))

    def order(self, deal, n):
        keys = [sha256(derive(b"tavolo/sealed/perm/v1", self.sigma, self.table) + u32(deal) + u16(p)) for p in range(n)]
        return sorted(range(n), key=lambda p: (keys[p], p))

    def shuffle(self, deck, deal, joint):
        out = []
        for q, p in enumerate(self.order(deal, len(deck))):
            r = scalar_of(derive(b"tavolo/sealed/rerandomise/v1", self.sigma, self.table) + u32(deal) + u16(q))
            a, b = deck[p]
            out.append((add(a, base(r)), add(b, mul(r, joint))))
        return out

    def share(self, deal, position, a):
        d = mul(self.x, a)
        k = scalar_of(derive(b"tavolo/sealed/share-nonce/v1", self.sigma, self.table) + u32(deal) + u16(position) + a)
        c = share_challenge(self.table, deal, position, self.index, self.h, a, d, base(k), mul(k, a))
        return d, c + sadd(k, smul(c, self.x))


def share_challenge(table, deal, position, member, h, a, d, t1, t2):
    return scalar_of(b"tavolo/sealed/share-proof/v1" + string(table) + u32(deal) + u16(position) + u8(member)
                     + h + a + d + t1 + t2)


def neg(s):
    return ((L - int.from_bytes(s, "little")) % L).to_bytes(32, "little")


def lin(s, p, c, q):
    """s*P - c*Q, computed as s*P + (l - c)*Q so that no step can yield an identity libsodium refuses."""
    return add(mul(s, p), mul(neg(c), q))


def verify_share(table, deal, position, member, h, a, d, proof):
    c, s = proof[:32], proof[32:]
    if int.from_bytes(c, "little") >= L or int.from_bytes(s, "little") >= L:
        return False
    t1 = lin(s, base(bytes([1]) + bytes(31)), c, h)
    t2 = lin(s, a, c, d)
    return share_challenge(table, deal, position, member, h, a, d, t1, t2) == c


def verify_key(table, member, h, proof):
    c, s = proof[:32], proof[32:]
    r = lin(s, base(bytes([1]) + bytes(31)), c, h)
    return scalar_of(b"tavolo/sealed/key-proof/v1" + string(table) + u8(member) + h + r) == c


def deck_bytes(deck):
    return b"".join(a + b for a, b in deck)


def deck_hash(deck):
    return sha256(b"tavolo/sealed/deck/v1" + u16(len(deck)) + deck_bytes(deck))


def seal_pieces(member, holders, holder_keys, pieces, commits):
    """Section 14.11: each piece XOR a pad from e*h_i, with E = e*G published."""
    out = []
    for i, h_i, piece, commit in zip(holders, holder_keys, pieces, commits):
        e = scalar_of(derive(b"tavolo/sealed/escrow-ephemeral/v1", member.sigma, member.table) + u8(i))
        pad = sha256(b"tavolo/sealed/escrow-pad/v1" + string(member.table) + u8(member.index) + u8(i) + mul(e, h_i))
        out.append({"member": i, "ephemeral": base(e).hex(), "sealed": bytes(x ^ y for x, y in zip(piece, pad)).hex(),
                    "commitment": commit.hex()})
    return out


def open_piece(holder, owner_index, ephemeral, sealed):
    pad = sha256(b"tavolo/sealed/escrow-pad/v1" + string(holder.table) + u8(owner_index) + u8(holder.index)
                 + mul(holder.x, ephemeral))
    return bytes(x ^ y for x, y in zip(sealed, pad))


def escrow(member, holders):
    pieces = [sha256(derive(b"tavolo/sealed/escrow-piece/v1", member.sigma, member.table) + u8(i)) for i in holders[:-1]]
    last = member.sigma
    for p in pieces:
        last = bytes(x ^ y for x, y in zip(last, p))
    pieces.append(last)
    commits = [sha256(b"tavolo/sealed/escrow/v1" + string(member.table) + u8(member.index) + u8(i) + p)
               for i, p in zip(holders, pieces)]
    return pieces, commits


def example_messages(table, members, sealed, pieces, deal, n):
    """One message of each kind of section 14.7 that these values make, as JSON objects; then member 1's shares
    as an heir or a relayer sends them (with `member`)."""
    first_step = deal["steps"][0]
    initial = [(IDENTITY, card_point(i)) for i in range(n)]
    return [
        {"type": "table.sealed-key", "table": table, "key": members[0].h.hex(), "proof": members[0].key_proof().hex()},
        {"type": "table.sealed-escrow", "table": table, "pieces": sealed},
        {"type": "table.sealed-shuffle", "table": table, "deal": deal["deal"], "input": deck_hash(initial).hex(),
         "deck": first_step},
        {"type": "table.sealed-shares", "table": table, "deal": deal["deal"],
         "shares": [{"position": s["position"], "share": s["share"], "proof": s["proof"]}
                    for s in deal["shares"] if s["member"] == 1]},
        {"type": "table.sealed-open", "table": table, "deal": deal["deal"], "number": 3, "position": 0,
         **{k: s[k] for s in deal["shares"] if s["member"] == 0 and s["position"] == 0 for k in ("share", "proof")}},
        {"type": "table.sealed-audit", "table": table, "secrets": [{"member": 2, "secret": members[2].sigma.hex()}]},
        {"type": "table.sealed-release", "table": table, "member": 0,
         "pieces": [{"holder": 1, "piece": pieces[0].hex()}]},
        {"type": "table.sealed-shares", "table": table, "deal": deal["deal"],
         "shares": [{"position": s["position"], "share": s["share"], "proof": s["proof"]}
                    for s in deal["shares"] if s["member"] == 1], "member": 1},
    ]


def test_sigma(case, j):
    return sha256(b"sealed-vector-secret" + u8(case) + u8(j))


def make_case(case, table, m, n, deals):
    cards = [card_point(i) for i in range(n)]
    members = [Member(test_sigma(case, j), table, j) for j in range(m)]
    joint = IDENTITY
    for mem in members:
        assert verify_key(table, mem.index, mem.h, mem.key_proof())
        joint = add(joint, mem.h)
    out = {"table": table, "members": m, "cards": n, "jointKey": joint.hex(), "secrets": [], "deals": []}
    for mem in members:
        out["secrets"].append({"sigma": mem.sigma.hex(), "key": mem.x.hex(), "publicKey": mem.h.hex(),
                               "keyProof": mem.key_proof().hex()})
    for deal in deals:
        deck = [(IDENTITY, c) for c in cards]
        steps, orders = [], []
        for mem in members:
            orders.append(mem.order(deal, n))
            deck = mem.shuffle(deck, deal, joint)
            steps.append(deck_bytes(deck).hex())
        shares, opened = [], []
        for p, (a, b) in enumerate(deck):
            total = IDENTITY
            for mem in members:
                d, proof = mem.share(deal, p, a)
                assert verify_share(table, deal, p, mem.index, mem.h, a, d, proof)
                total = add(total, d)
                if p < 3:
                    shares.append({"position": p, "member": mem.index, "share": d.hex(), "proof": proof.hex()})
            opened.append(cards.index(sub(b, total)))
        assert sorted(opened) == list(range(n))
        out["deals"].append({"deal": deal, "orders": orders, "steps": steps, "finalHash": deck_hash(deck).hex(),
                             "shares": shares, "opened": opened})
    if m >= 3:
        holders = [i for i in range(m) if i != 0]
        pieces, commits = escrow(members[0], holders)
        sealed = seal_pieces(members[0], holders, [members[i].h for i in holders], pieces, commits)
        for entry, piece in zip(sealed, pieces):
            holder = members[entry["member"]]
            assert open_piece(holder, 0, bytes.fromhex(entry["ephemeral"]), bytes.fromhex(entry["sealed"])) == piece
        recovered = bytes(32)
        for piece in pieces:
            recovered = bytes(x ^ y for x, y in zip(recovered, piece))
        assert recovered == members[0].sigma
        out["escrow"] = {"owner": 0, "holders": holders, "pieces": [p.hex() for p in pieces],
                         "commitments": [c.hex() for c in commits], "sealed": sealed}
        out["messages"] = example_messages(table, members, sealed, pieces, out["deals"][0], n)
    if m >= 5:
        out["secondEscrow"] = second_escrow(table, members)
    return out


def second_escrow(table, members):
    """Section 14.11's second escrow: member 0 is out and member 1, its heir, recovered sigma_0; member 1 splits it
    again among the members it does not act for (2..m-1) with the same formulas, and sends it as
    table.sealed-reescrow; member 2 releases its piece of it to a later heir as table.sealed-rerelease."""
    owner, heir = members[0], 1
    holders = [i for i in range(len(members)) if i not in (0, heir)]
    pieces, commits = escrow(owner, holders)
    sealed = seal_pieces(owner, holders, [members[i].h for i in holders], pieces, commits)
    recovered = bytes(32)
    for piece in pieces:
        recovered = bytes(x ^ y for x, y in zip(recovered, piece))
    assert recovered == owner.sigma
    return {"owner": 0, "heir": heir, "holders": holders, "pieces": [p.hex() for p in pieces],
            "commitments": [c.hex() for c in commits],
            "messages": [
                {"type": "table.sealed-reescrow", "table": table, "member": 0, "pieces": sealed},
                {"type": "table.sealed-rerelease", "table": table, "member": 0,
                 "pieces": [{"holder": 2, "piece": pieces[0].hex()}]},
            ]}


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    doc = {
        "description": "PROTOCOL.md section 14, by generate_sealed_vectors.py (independent Python on libsodium's "
                       "ristretto255). cardPoints: M_i for i = 0..53 (a 40-card deck uses the first 40). Each case: "
                       "the members' secrets sigma (test values) and what they derive (key, public key, key proof), "
                       "the joint key; per deal, each member's order (order[q] = input position sent to output q), "
                       "the deck after each member's shuffle (hex of n*64 bytes), the final deck hash, the shares and "
                       "proofs of every member for positions 0-2, and the card index every position opens to. "
                       "escrow: member 0's pieces for the others, their commitments, and "
                       "each piece sealed to its holder's key (table.sealed-escrow's pieces). messages: a "
                       "table.sealed-key, -escrow, -shuffle (member 0, first deal), -shares (member 1, positions "
                       "0-2), -open (member 0, position 0, move 3), -audit (member 2), -release (member 1's piece of member "
                       "0's secret) and -shares with member (member 1's shares as an heir or a relayer sends them) as "
                       "section 14.7 writes them. secondEscrow (cases of 5 members or more): member 1, heir of member "
                       "0, splits sigma_0 again among members 2.. (section 14.11's second escrow): the pieces, their "
                       "commitments, its table.sealed-reescrow and member 2's table.sealed-rerelease of its piece.",
        "cardPoints": [card_point(i).hex() for i in range(54)],
        "cases": [
            make_case(0, "0a1b2c3d-1-1", 2, 40, [1]),
            make_case(1, "9f00e1d2-77-3", 3, 54, [1, 2]),
            make_case(2, "cafe0001-5-12", 6, 54, [3]),
        ],
    }
    with open(os.path.join(here, "sealed.json"), "w") as f:
        json.dump(doc, f, indent=1)


if __name__ == "__main__":
    main()
