#!/usr/bin/env python3
"""Independent reference implementation of Protocol/games/fifteen.md (scramble, moves, canonical encoding,
state and seat hashes), on top of PROTOCOL.md section 1. Writes fifteen.json; the Swift tests check the
engine against it."""
import hashlib, json, os, struct

# PROTOCOL.md section 1, from the project's one Python reference of it.
from generate_rng_vectors import M, Xoshiro

# Moves are named by the way the tile moves; the tile sits at blank + offset.
MOVES = ["up", "down", "left", "right"]
OFFSET = {"up": (1, 0), "down": (-1, 0), "left": (0, 1), "right": (0, -1)}
OPPOSITE = {"up": "down", "down": "up", "left": "right", "right": "left"}

def tile_cell(tiles, n, move):
    b = tiles.index(0)
    r, c = b // n + OFFSET[move][0], b % n + OFFSET[move][1]
    return r * n + c if 0 <= r < n and 0 <= c < n else None

def slide(tiles, n, move):
    b = tiles.index(0)
    cell = tile_cell(tiles, n, move)
    assert cell is not None
    tiles[b], tiles[cell] = tiles[cell], 0

def scramble_path(n, seed, steps=130):
    """The scramble and the slides that made it from the solved board."""
    rng = Xoshiro(seed)
    tiles = list(range(1, n * n)) + [0]
    previous, path = None, []
    for _ in range(steps):
        options = [m for m in MOVES if tile_cell(tiles, n, m) is not None and (previous is None or m != OPPOSITE[previous])]
        move = options[rng.bounded(len(options))]
        slide(tiles, n, move)
        path.append(move)
        previous = move
    return tiles, path

def scramble(n, seed, steps=130):
    return scramble_path(n, seed, steps)[0]

def solved(tiles):
    return tiles == list(range(1, len(tiles))) + [0]

def seat_part(board, moves, status):
    return bytes(board) + struct.pack(">IB", moves, status)

def canonical(n, boards, moves, status):
    out = struct.pack(">BB", n, len(boards))
    for i in range(len(boards)):
        out += seat_part(boards[i], moves[i], status[i])
    return out

def seat_canonical(n, seat, board, moves, status):
    return struct.pack(">BB", n, seat) + seat_part(board, moves, status)

def sha(b):
    return hashlib.sha256(b).hexdigest()

def main():
    cases = []
    for n in (4, 5, 6):
        for seed in (1, 2, 3, 42, 0xFFFFFFFFFFFFFFFF):
            for players in (1, 3):
                start = scramble(n, seed)
                boards = [list(start) for _ in range(players)]
                moves = [0] * players
                status = [1 if solved(start) else 0] * players
                case = {"n": n, "seed": str(seed), "players": players, "scramble": start,
                        "startHash": sha(canonical(n, boards, moves, status))}
                # Seat players-1 plays the first legal slides in canonical order, never undoing, 5 times; then
                # seat 0 gives up (when there are several seats).
                seat = players - 1
                played, previous = [], None
                for _ in range(5):
                    move = next(m for m in MOVES if tile_cell(boards[seat], n, m) is not None and (previous is None or m != OPPOSITE[previous]))
                    slide(boards[seat], n, move)
                    moves[seat] += 1
                    played.append(move)
                    previous = move
                case["seat"] = seat
                case["moves"] = played
                case["seatHashAfter"] = sha(seat_canonical(n, seat, boards[seat], moves[seat], status[seat]))
                if players > 1:
                    status[0] = 2
                    case["seat0GivesUp"] = True
                case["hashAfter"] = sha(canonical(n, boards, moves, status))
                case["canonicalAfter"] = canonical(n, boards, moves, status).hex()
                cases.append(case)

    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "fifteen.json"), "w") as f:
        json.dump({"description": "Fifteen-puzzle race (Protocol/games/fifteen.md): the scramble of each (n, seed), "
                   "the start state hash, then seat `seat` slides `moves` (and seat 0 gives up when seat0GivesUp): "
                   "the seat hash of that seat and the state hash after", "cases": cases}, f, indent=1)
        f.write("\n")
    print("wrote fifteen.json with", len(cases), "cases")

if __name__ == "__main__":
    main()
