#!/usr/bin/env python3
"""Writes Protocol/vectors/records.json from PROTOCOL.md section 11 and the games' specs, without Tavolo's code:
records of an Othello game (its own small engine below, from Protocol/games/othello.md) and of a Briscola game (the
independent reference generate_briscola_vectors.py), copies of them altered as section 11.5 lists with the verdict
section 11.4 gives each, the Fifteen race records of generate_race_record_vectors.py, a summary of two ids
(section 11.2) and one message of each type (section 11.3). The Swift test RecordVectorTests replays every record
with Tavolo's engines and must reach the same verdicts; check_record_vectors.py checks ids, digests and bytes.

Both games are played by one rule: at each move, legal[bounded(len(legal))] from TavoloRNG(seed, stream 7) over the
legal moves in order (Othello: squares ascending; a pass when it is the only move). A record only has to be a game
the rules allow: its seats name the `random` bot, which may play any legal move."""
import hashlib, json, os, struct

from generate_briscola_vectors import Game as Briscola, move_json as briscola_move
from generate_race_record_vectors import race_records
from generate_rng_vectors import Xoshiro

here = os.path.dirname(os.path.abspath(__file__))
# Section 11.1's canonical JSON: keys sorted (all ASCII here, so code points order them as UTF-8 bytes do), no
# whitespace, '/' not escaped, non-ASCII as UTF-8.
canon = lambda x: json.dumps(x, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
sha = lambda text: hashlib.sha256(text.encode("utf-8")).hexdigest()
node = lambda n: "%032x" % n


class Othello:
    """Protocol/games/othello.md: bitboards, seat 0 black moving first, a pass only without a placement, over when
    neither colour has one."""
    DIRECTIONS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]

    def __init__(self):
        self.boards = [0x0000000810000000, 0x0000001008000000]
        self.turn, self.number, self.over = 0, 0, False

    def flips(self, seat, square):
        """The discs a disc of `seat` on `square` turns over (none: not a placement)."""
        mine, theirs = self.boards[seat], self.boards[1 - seat]
        if (mine | theirs) >> square & 1:
            return 0
        turned = 0
        for dr, dc in self.DIRECTIONS:
            r, c, line = square // 8 + dr, square % 8 + dc, 0
            while 0 <= r < 8 and 0 <= c < 8 and theirs >> (r * 8 + c) & 1:
                line |= 1 << (r * 8 + c)
                r, c = r + dr, c + dc
            if line and 0 <= r < 8 and 0 <= c < 8 and mine >> (r * 8 + c) & 1:
                turned |= line
        return turned

    def placements(self, seat):
        return [s for s in range(64) if self.flips(seat, s)]

    def legal(self):
        return [] if self.over else (self.placements(self.turn) or ["pass"])

    def apply(self, move):
        seat = self.turn
        if move != "pass":
            turned = self.flips(seat, move)
            self.boards[seat] |= turned | 1 << move
            self.boards[1 - seat] &= ~turned
        self.number += 1
        self.turn = 1 - seat
        self.over = not self.placements(0) and not self.placements(1)

    def canonical(self):
        return struct.pack(">QQBI", self.boards[0], self.boards[1], 0xFF if self.over else self.turn, self.number)

    def outcome(self):
        scores = [bin(b).count("1") for b in self.boards]
        return ([0] if scores[0] > scores[1] else [1] if scores[1] > scores[0] else []), scores


def square_name(s):
    return "pass" if s == "pass" else "abcdefgh"[s % 8] + str(s // 8 + 1)


def play(game, seed, seat_of, wire):
    """Plays `game` to its end by the rule above: the moves as the record lists them, and the final state hash."""
    chooser, moves = Xoshiro.stream(seed, 7), []
    while not game.over:
        legal = game.legal()
        move = legal[chooser.bounded(len(legal))]
        moves.append({"move": wire(move), "seat": seat_of(game)})
        game.apply(move)
    return moves, hashlib.sha256(game.canonical()).hexdigest()


def body(table, name, seed, names, moves, final, winners, scores, **extra):
    b = {
        "version": 1, "table": table, "game": name, "players": 2, "options": {},
        "seats": [{"seat": s, "node": node(s + 1), "name": names[s], "bot": "random"} for s in range(2)],
        "jointSeed": "%016x" % seed, "moves": moves, "outcome": "finished", "winners": winners, "scores": scores,
        "finalHash": final,
    }
    b.update(extra)
    return b


def record(name, b, expect, id=None):
    text = canon(b)
    return {"name": name, "id": id or sha(text), "body": text, "expect": expect}


def othello_records():
    """The Othello game of seed 5 and the altered copies of section 11.5."""
    g = Othello()
    moves, final = play(g, 5, lambda g: g.turn, square_name)
    winners, scores = g.outcome()
    genuine = body("0a1b2c3d-1", "othello", 5, ["ann", "bob"], moves, final, winners, scores)
    other = [1] if winners == [0] else [0]
    changed = dict(genuine, winners=other)
    # Seat 1's member (node 9) left at move 10; the heir, seat 1's node, played it on with its bot (section 9.12).
    takeover = {"member": node(9), "name": "eve", "seats": [1], "heir": node(2), "bot": "random", "number": 10,
                "appliedAt": 10, "forfeit": True}
    forfeit = dict(genuine, table="0a1b2c3d-3", takeovers=[takeover])
    stray = dict(forfeit, takeovers=[dict(takeover, heir=node(1))])
    return [
        record("othello, finished", genuine, "accept"),
        record("othello, winner changed (id recomputed)", changed, "winners or scores are not the ones the moves give"),
        record("othello, winner changed under the genuine id", changed, "id is not the SHA-256 of the body",
               id=sha(canon(genuine))),
        record("othello, last move missing", dict(genuine, moves=moves[:-1]), "the moves reach"),
        record("othello, finished, seat 1 left at move 10 and a bot played it on", forfeit, "accept"),
        record("othello, a takeover whose heir does not own the seat at the end", stray,
               "takeover: seat 1 is not owned at the end by its last heir's bot"),
    ]


def briscola_record():
    g = Briscola(2, 9)
    moves, final = play(g, 9, lambda g: g.current, briscola_move)
    winners, scores = g.outcome()
    return record("briscola, finished", body("0a1b2c3d-2", "briscola", 9, ["cat", "dan"], moves, final, winners,
                                             scores), "accept")


def digests(ids):
    """Section 11.2: per bucket, the first 16 hex digits of SHA-256 over its ids in ascending order, "" if none."""
    buckets = [""] * 256
    for b in range(256):
        inside = sorted(i for i in ids if int(i[:2], 16) == b)
        if inside:
            buckets[b] = hashlib.sha256("".join(inside).encode("ascii")).hexdigest()[:16]
    return buckets


def main():
    othello = othello_records()
    briscola = briscola_record()
    genuine = othello[0]
    ids = sorted([genuine["id"], briscola["id"]])
    wire = {"id": briscola["id"], "body": briscola["body"], "startedAt": 1700000060000, "endedAt": 1700000120000}
    messages = [
        {"name": "summary", "json": canon({"type": "records.summary", "count": 2, "buckets": digests(ids)})},
        {"name": "ids", "json": canon({"type": "records.ids", "bucket": int(genuine["id"][:2], 16),
                                       "ids": [genuine["id"]]})},
        {"name": "data", "json": canon({"type": "records.data", "records": [wire]})},
        {"name": "ack", "json": canon({"type": "records.ack", "accepted": 1, "refused": 0})},
    ]
    records = othello[:1] + [briscola] + othello[1:] + race_records()
    vectors = {"records": records, "summary": {"ids": ids, "buckets": digests(ids)}, "messages": messages}
    with open(os.path.join(here, "records.json"), "w", encoding="utf-8") as f:
        json.dump(vectors, f, indent=2, separators=(",", " : "), sort_keys=True, ensure_ascii=False)
        f.write("\n")
    print("wrote records.json:", len(records), "records,", len(messages), "messages")


if __name__ == "__main__":
    main()
