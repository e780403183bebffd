#!/usr/bin/env python3
"""Independent reference implementation of Protocol/games/briscola.md (deal for 2-5 players, the chiamata auction
and call, tricks and draws, outcome, canonical encoding), on top of PROTOCOL.md section 1. Writes briscola.json;
the Swift tests check the engine against it.

Each case deals a game from `seed`, then plays it to the end choosing, at every move, legal[bounded(len(legal))]
from TavoloRNG(seed, stream 7) over the sorted legal moves (a chiamata auction may narrow the options: `choose`): a different list of legal moves, or a different order,
picks other moves and the hashes part."""
import copy, hashlib, json, os, struct

from generate_rng_vectors import Xoshiro

POINTS = [11, 0, 10, 0, 0, 0, 0, 2, 3, 4]          # by rank - 1
STRENGTH = [9, 0, 8, 1, 2, 3, 4, 5, 6, 7]          # by rank - 1
RANK_ORDER = [1, 3, 10, 9, 8, 7, 6, 5, 4, 2]       # bid levels 0..9
MAX_LEVEL = 68

def code(card):
    return "%d%s" % (card % 10 + 1, "CDSB"[card // 10])

def points(card): return POINTS[card % 10]
def strength(card): return STRENGTH[card % 10]
def suit(card): return card // 10
def rank(card): return card % 10 + 1

def beats(card, best, trump):
    return strength(card) > strength(best) if suit(card) == suit(best) else suit(card) == trump

def winning_index(cards, trump):
    best = 0
    for i in range(1, len(cards)):
        if beats(cards[i], cards[best], trump):
            best = i
    return best

def bid_rank(level): return RANK_ORDER[level] if level < 10 else 2
def bid_target(level): return 61 if level < 10 else 62 + level - 10
def bid_wire(level): return RANK_ORDER[level] if level < 10 else bid_target(level)

class Game:
    def __init__(self, players, seed):
        self.p = players
        self.seed = seed
        rng = Xoshiro(seed)
        deck = [c for c in range(40) if not (players == 3 and c == 1)]
        rng.shuffle(deck)
        self.deck = deck
        self.dealer = rng.bounded(players)
        self.chiamata = players == 5
        per = 8 if self.chiamata else 3
        self.hands = [set() for _ in range(players)]
        for i in range(per * players):
            self.hands[(self.dealer + 1 + i) % players].add(deck[i])
        self.trump_card = None if self.chiamata else deck[3 * players]
        self.trump = None if self.chiamata else suit(self.trump_card)
        self.captured = [set() for _ in range(players)]
        self.table = []
        self.leader = (self.dealer + 1) % players
        self.current = self.leader
        self.drawn = 0
        self.trump_drawn_by = None
        self.moves = 0
        self.over = False
        # chiamata
        self.phase = 0
        self.auction = []          # (seat, level or None)
        self.called = None
        self.partner = None
        self.revealed = False
        self.tricks = []
        self.declarer = None

    def pile_count(self):
        return 0 if self.chiamata else len(self.deck) - 3 * self.p - self.drawn

    def pile_card(self, i):
        first = 3 * self.p + 1
        return self.deck[first + i] if first + i < len(self.deck) else self.trump_card

    def highest(self):
        for seat, level in reversed(self.auction):
            if level is not None:
                return level, seat
        return None

    def passed(self):
        return {seat for seat, level in self.auction if level is None}

    def legal(self):
        """Sorted legal moves as (kind, value): kind 0 play, 1 bid, 2 pass, 3 call."""
        if self.over:
            return []
        if self.chiamata and self.phase == 0:
            h = self.highest()
            start = 0 if h is None else h[0] + 1
            moves = [(1, level) for level in range(start, MAX_LEVEL + 1)]
            must = h is None and len(self.passed()) == self.p - 1
            if not must:
                moves.append((2, 0))
            return moves
        if self.chiamata and self.phase == 1:
            r = bid_rank(self.highest()[0])
            return [(3, s * 10 + r - 1) for s in range(4)]
        return [(0, c) for c in sorted(self.hands[self.current])]

    def apply(self, move):
        kind, value = move
        self.moves += 1
        if kind == 1 or kind == 2:
            self.auction.append((self.current, value if kind == 1 else None))
            out = self.passed()
            h = self.highest()
            if h is not None and len(out) == self.p - 1:
                self.phase = 1
                self.declarer = h[1]
                self.current = h[1]
            else:
                seat = (self.current + 1) % self.p
                while seat in out:
                    seat = (seat + 1) % self.p
                self.current = seat
        elif kind == 3:
            self.called = value
            self.partner = next(s for s in range(self.p) if value in self.hands[s])
            self.trump = suit(value)
            self.phase = 2
            self.leader = (self.dealer + 1) % self.p
            self.current = self.leader
        else:
            self.play(value)

    def play(self, card):
        self.hands[self.current].remove(card)
        self.table.append(card)
        if card == self.called:
            self.revealed = True
        if len(self.table) < self.p:
            self.current = (self.current + 1) % self.p
            return
        winner = (self.leader + winning_index(self.table, self.trump)) % self.p
        self.captured[winner] |= set(self.table)
        if self.chiamata:
            self.tricks.append((self.leader, list(self.table)))
        self.table = []
        if self.pile_count() > 0:
            for k in range(self.p):
                seat = (winner + k) % self.p
                if self.pile_count() == 1:
                    self.trump_drawn_by = seat
                self.hands[seat].add(self.pile_card(self.drawn))
                self.drawn += 1
        self.leader = winner
        self.current = winner
        if not self.hands[winner]:
            self.over = True

    def side_points(self):
        taken = [sum(points(c) for c in cap) for cap in self.captured]
        if self.p == 4:
            return [taken[s] + taken[(s + 2) % 4] for s in range(4)]
        if self.chiamata and self.partner is not None:
            side = {self.declarer, self.partner}
            d = sum(taken[s] for s in side)
            return [d if s in side else 120 - d for s in range(5)]
        return taken

    def outcome(self):
        scores = self.side_points()
        if self.chiamata:
            side = {self.declarer, self.partner}
            won = scores[self.declarer] >= bid_target(self.highest()[0])
            return [s for s in range(5) if (s in side) == won], scores
        if self.p == 3:
            best = max(scores)
            top = [s for s in range(3) if scores[s] == best]
            return ([] if len(top) == 3 else top), scores
        if scores[0] > 60:
            return ([0, 2] if self.p == 4 else [0]), scores
        if scores[1] > 60:
            return ([1, 3] if self.p == 4 else [1]), scores
        return [], scores

    def canonical(self):
        def mask(cards):
            return struct.pack(">Q", sum(1 << c for c in cards))
        hands = b"".join(mask(self.hands[s]) + mask(self.captured[s]) for s in range(self.p))
        table = struct.pack(">H", len(self.table)) + bytes(self.table)
        turn = 0xFF if self.over else self.current
        head = struct.pack(">BQ", self.p, self.seed) + bytes(self.deck) + bytes([self.dealer])
        if not self.chiamata:
            return (head + bytes([self.trump_card]) + struct.pack(">I", self.moves)
                    + bytes([turn, self.leader, self.drawn, 0xFF if self.trump_drawn_by is None else self.trump_drawn_by])
                    + hands + table)
        out = head + struct.pack(">I", self.moves) + bytes([turn, self.phase]) + struct.pack(">H", len(self.auction))
        for seat, level in self.auction:
            out += bytes([seat, 0xFF if level is None else level])
        out += bytes([0xFF if self.called is None else self.called, 0xFF if self.partner is None else self.partner,
                      1 if self.revealed else 0, self.leader])
        out += hands + struct.pack(">H", len(self.tricks))
        for leader, cards in self.tricks:
            out += bytes([leader] + cards)
        return out + table

    def partner_shown_to(self):
        """Seats whose observation names the partner."""
        if self.partner is None:
            return []
        return list(range(5)) if self.revealed else [self.partner]

def move_json(move):
    kind, value = move
    if kind == 0: return {"card": code(value)}
    if kind == 1: return {"bid": bid_wire(value)}
    if kind == 2: return {"pass": True}
    return {"call": code(value)}

def count(g, depth):
    """Perft: move sequences of `depth` moves from `g` (leaves at the end of the game count once)."""
    if depth == 0 or g.over:
        return 1
    total = 0
    for move in g.legal():
        child = copy.deepcopy(g)
        child.apply(move)
        total += count(child, depth - 1)
    return total

def sha(b):
    return hashlib.sha256(b).hexdigest()

def choose(g, legal, chooser, style):
    """`random`: any legal move. In the auction, `low`: one of the two lowest bids or the pass; `passes`: the pass
    whenever legal, else the lowest bid. Every choice draws from `chooser` once."""
    if g.chiamata and g.phase == 0 and style != "random":
        bids = [m for m in legal if m[0] == 1]
        can_pass = (2, 0) in legal
        options = (bids[:2] + ([(2, 0)] if can_pass else [])) if style == "low" else ([(2, 0)] if can_pass else bids[:1])
        return options[chooser.bounded(len(options))]
    return legal[chooser.bounded(len(legal))]

def main():
    cases = []
    runs = [(p, seed, "random") for p in (2, 3, 4, 5) for seed in (1, 2, 42, 0x0123456789ABCDEF, 0xFFFFFFFFFFFFFFFF)]
    runs += [(5, seed, "low") for seed in (3, 4, 5, 6, 7, 8)] + [(5, seed, "passes") for seed in (9, 10)]
    for players, seed, style in runs:
            g = Game(players, seed)
            case = {"players": players, "seed": str(seed), "auctionStyle": style, "dealtDeck": list(g.deck), "dealer": g.dealer,
                    "startCanonical": g.canonical().hex(), "startHash": sha(g.canonical()),
                    "moves": [], "hashes": []}
            if g.chiamata:
                case["partnerShownTo"] = []
            chooser = Xoshiro.stream(seed, 7)
            while not g.over:
                legal = g.legal()
                move = choose(g, legal, chooser, style)
                case["moves"].append(move_json(move))
                g.apply(move)
                case["hashes"].append(sha(g.canonical()))
                if g.chiamata:
                    case["partnerShownTo"].append(g.partner_shown_to())
            winners, scores = g.outcome()
            case["winners"] = winners
            case["scores"] = scores
            case["endCanonical"] = g.canonical().hex()
            cases.append(case)
    perft = [{"players": p, "seed": "3", "depth": d, "nodes": count(Game(p, 3), d)} for p, d in ((3, 6), (5, 3))]
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "briscola.json"), "w") as f:
        json.dump({"description": "Briscola (Protocol/games/briscola.md) for 2, 3, 4 and 5 players: the deal of each "
                   "seed, the canonical encoding and state hash at the start, then the game played to its end with "
                   "each move legal[bounded(len(legal))] from TavoloRNG(seed, stream 7) over the sorted legal moves (in a "
                   "chiamata auction with auctionStyle `low`: options = the two lowest bids then the pass if legal, "
                   "options[bounded(len(options))]; `passes`: options = [pass] if legal else [lowest bid]): "
                   "the moves as JSON, the state hash after each, the winners and scores, the final encoding; in "
                   "chiamata, after each move, the seats whose observation names the partner; perft: the number of "
                   "move sequences of `depth` moves from the deal of (players, seed)",
                   "cases": cases,
                   "perft": perft}, f, indent=1)
        f.write("\n")
    print("wrote briscola.json with", len(cases), "cases")

if __name__ == "__main__":
    main()
