#!/usr/bin/env python3
"""Independent reference for PROTOCOL.md section 9: writes tables.json with the JSON of every table
message (compact, keys sorted), joint-seed examples (nonces -> commitments -> seed), race rankings and the
heirs' order (9.12)."""
import hashlib, json, os, struct

def js(o):
    return json.dumps(o, sort_keys=True, separators=(",", ":"), ensure_ascii=False)

A = "00112233445566778899aabbccddeeff"
B = "ffeeddccbbaa99887766554433221100"
offer = {"type": "table.offer", "id": "00112233-1", "game": "spirits", "players": 2, "host": A, "hostName": "alpha",
         "phase": "open", "revision": 3,
         "seats": [{"seat": 0, "owner": A, "ownerName": "alpha", "bot": "heuristic"}, {"seat": 1, "invited": "beta"}]}
T = "00112233-1"
messages = [
    offer,
    {"type": "table.seat-request", "table": T, "seat": 1, "bot": "random"},
    {"type": "table.seat-request", "table": T},
    {"type": "table.seat-refused", "table": T, "reason": "seat 1 is taken or reserved"},
    {"type": "table.invite", "table": T, "seat": 1},
    {"type": "table.leave", "table": T},
    {"type": "table.commit", "table": T, "commitment": hashlib.sha256(bytes(32)).hexdigest()},
    {"type": "table.reveal", "table": T, "nonce": bytes(32).hex()},
    {"type": "table.deal", "table": T, "number": 1, "cards": [17, 0, 5]},
    {"type": "table.move", "table": T, "number": 0, "seat": 1, "move": {"play": "R3"}, "stateHash": "ab" * 32},
    {"type": "table.move", "table": T, "number": 4, "seat": 0, "move": "d3", "stateHash": "cd" * 32},
    {"type": "table.confirm", "table": T, "number": 0, "stateHash": "ef" * 32},
    {"type": "table.reject", "table": T, "number": 0, "code": "move/illegal", "reason": "not legal"},
    {"type": "table.result", "table": T, "winners": [1], "scores": [5, 2], "finalHash": "01" * 32},
    # Relayed by a member that finished: B's result, and the relayer's log holds 2 takeovers (9.5).
    {"type": "table.result", "table": T, "winners": [1], "scores": [5, 2], "finalHash": "01" * 32, "member": B,
     "takeovers": 2},
    {"type": "table.stop", "table": T, "code": "deal/mismatch", "reason": "the host's deal 1 is not the shuffle"},
    # A game that survives a lost player (sections 9.9-9.13).
    dict(offer, id="00112233-2-1", phase="paused", revision=7, grace=30, takeoverBot="heuristic"),
    {"type": "table.sync", "table": T, "moves": 12, "stateHash": "ab" * 32},
    {"type": "table.catch-up", "table": T, "deals": [{"number": 2, "cards": [3, 1, 2]}],
     "moves": [{"number": 12, "seat": 1, "move": {"play": "R3"}, "stateHash": "ab" * 32, "after": "cd" * 32},
               {"number": 13, "seat": 0, "move": "d3", "stateHash": "cd" * 32, "after": "ef" * 32}]},
    {"type": "table.catch-up", "table": T, "deals": [], "moves": []},
    {"type": "table.takeover", "table": T, "member": B, "number": 12},
    # Sent again to the member voted out: every voter the sender counted (9.12).
    {"type": "table.takeover", "table": T, "member": B, "number": 12, "voters": [A, "0" * 32]},
    {"type": "table.forfeit", "table": T, "number": 0},
    # A race's forfeit: the leaver's count of each seat's moves, adding up to number (10.6).
    {"type": "table.forfeit", "table": T, "number": 9, "seatMoves": [4, 0, 5]},
    # With the leaver's signature object of its forfeit (11.7); any bytes of the right lengths decode here.
    {"type": "table.forfeit", "table": T, "number": 9,
     "signature": {"node": B, "identity": "11" * 32, "identityEd": "22" * 32, "key": "33" * 32,
                   "binding": "44" * 64, "signature": "55" * 64}},
    {"type": "table.stop", "table": T, "code": "table/abandoned", "reason": "beta did not come back"},
    {"type": "table.race-move", "table": T, "seat": 2, "number": 17, "move": "left", "seatHash": "23" * 32},
    {"type": "table.race-order", "table": T, "order": [2, 0]},
    # Relayed by a member that finished, just before B's relayed result: B's finishing order (9.5).
    {"type": "table.race-order", "table": T, "order": [2, 0], "member": B},
]

def race_ranking(orders, completed, moves):
    """PROTOCOL.md 10.3: sum of 0-based positions over the valid votes; then fewer moves; then the lower seat."""
    valid = [o for o in orders if len(o) == len(completed) and set(o) == set(completed)]
    score = {s: sum(o.index(s) for o in valid) for s in completed}
    return sorted(completed, key=lambda s: (score[s], moves[s], s))

rankings = []
for orders, completed, moves in (
        ([[0, 1, 2], [0, 2, 1], [2, 0, 1]], [0, 1, 2], [50, 50, 50]),
        ([[1, 0], [0, 0], [0, 1, 2]], [0, 1], [40, 30, 0]),
        ([[0, 1], [1, 0]], [0, 1], [44, 40]),
        ([[0, 1], [1, 0]], [0, 1], [40, 40]),
        ([[3, 1, 0], [1, 3, 0], [1, 0, 3], [0, 1, 3]], [0, 1, 3], [80, 90, 0, 70]),
        ([], [], [10, 10])):
    rankings.append({"orders": orders, "completed": completed, "moves": moves,
                     "ranking": race_ranking(orders, completed, moves)})

def joint_seed(nonces):
    h = hashlib.sha256(b"tavolo/joint-seed/v1")
    for n in nonces:
        h.update(n)
    return struct.unpack(">Q", h.digest()[:8])[0]

def test_nonce(seed, index, k):
    return hashlib.sha256(b"tavolo/test-nonce/v1" + struct.pack(">QQQ", seed, index, k)).digest()

seeds = []
for nonces in ([bytes([1]) * 32, bytes([2]) * 32], [bytes([2]) * 32, bytes([1]) * 32],
               [test_nonce(11, i, 0) for i in range(6)]):
    seeds.append({"nonces": [n.hex() for n in nonces], "commitments": [hashlib.sha256(n).hexdigest() for n in nonces],
                  "jointSeed": str(joint_seed(nonces))})
test_nonces = [{"seed": "11", "index": i, "counter": k, "nonce": test_nonce(11, i, k).hex()} for i in (0, 5) for k in (0, 1)]
def heir_rank(seed, node_hex):
    """PROTOCOL.md 9.12: SHA-256("tavolo/heir-rank/v1" || u64 big-endian joint seed || the node id's 16 bytes)."""
    return hashlib.sha256(b"tavolo/heir-rank/v1" + struct.pack(">Q", seed) + bytes.fromhex(node_hex)).digest()

heirs = []
for seed, members in ((1, [A, B]), (2, [A, B]), (18446744073709551615, [A, B, "0" * 32]),
                      (joint_seed([bytes([1]) * 32, bytes([2]) * 32]),
                       ["%032x" % (i * 0x1111111111111111) for i in range(1, 7)])):
    ranked = sorted(members, key=lambda m: heir_rank(seed, m))
    heirs.append({"jointSeed": str(seed), "members": members, "ranks": [heir_rank(seed, m).hex() for m in members],
                  "order": ranked})

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "tables.json"), "w") as f:
    json.dump({"description": "table messages as compact JSON with sorted keys, and joint seeds (PROTOCOL.md 9)",
               "messages": [js(m) for m in messages], "jointSeeds": seeds, "testNonces": test_nonces,
               "raceRankings": rankings, "heirOrders": heirs}, f, indent=1)
