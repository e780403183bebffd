#!/usr/bin/env python3
"""Records of a Fifteen-puzzle race (PROTOCOL.md section 11.1 for simultaneous games, section 10.3 for the ranking),
written from the spec with the independent Fifteen reference (generate_fifteen_vectors.py), not from Tavolo's code.
Replaces the race records in records.json (those named "fifteen race, ...") and keeps every other entry.

The game: two seats on the scramble of joint seed 7. Seat 0 (a person) solves it by undoing the scramble's slides;
seat 1 (the paced bot `reduce@20`) slides three tiles and gives up. Both members saw seat 0 complete: each votes
[0], so the ranking is [0] and the winner seat 0; scores are the slides each seat made."""
import hashlib, json, os

from generate_fifteen_vectors import MOVES, OPPOSITE, canonical, scramble_path, slide, solved, tile_cell

N, SEED, PLAYERS = 4, 7, 2
here = os.path.dirname(os.path.abspath(__file__))
canon = lambda x: json.dumps(x, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def play():
    start, path = scramble_path(N, SEED)
    boards = [list(start) for _ in range(PLAYERS)]
    moves, status = [0] * PLAYERS, [0] * PLAYERS
    sequences = {0: [], 1: []}
    # Seat 0 undoes the scramble: the last slide first, each the other way.
    for m in reversed(path):
        slide(boards[0], N, OPPOSITE[m])
        moves[0] += 1
        sequences[0].append(OPPOSITE[m])
    assert solved(boards[0])
    status[0] = 1
    previous = None
    for _ in range(3):
        m = next(x for x in MOVES if tile_cell(boards[1], N, x) is not None and (previous is None or x != OPPOSITE[previous]))
        slide(boards[1], N, m)
        moves[1] += 1
        sequences[1].append(m)
        previous = m
    sequences[1].append("give-up")
    status[1] = 2
    final = hashlib.sha256(canonical(N, boards, moves, status)).hexdigest()
    return sequences, moves, final


def body(sequences, counts, final, **changes):
    b = {
        "version": 1, "table": "0000000000000001-race-1", "game": "fifteen", "players": PLAYERS, "options": {},
        "seats": [
            {"seat": 0, "node": "00000000000000000000000000000001", "name": "ada"},
            {"seat": 1, "node": "00000000000000000000000000000002", "name": "bo", "bot": "reduce@20"},
        ],
        "jointSeed": "%016x" % SEED,
        # Section 11.1: a simultaneous game's moves seat by seat, each seat's in its own order.
        "moves": [{"seat": s, "move": m} for s in sorted(sequences) for m in sequences[s]],
        "outcome": "finished", "winners": [0], "scores": counts, "finalHash": final,
        "ranking": [0], "votes": [[0], [0]],
    }
    b.update(changes)
    return canon(b)


def record(name, text, expect):
    return {"name": name, "id": hashlib.sha256(text.encode("utf-8")).hexdigest(), "body": text, "expect": expect}


def race_records():
    """The four race records (generate_record_vectors.py writes them with the rest of records.json)."""
    sequences, moves, final = play()
    good = body(sequences, moves, final)
    interleaved = json.loads(good)["moves"]
    interleaved.insert(1, interleaved.pop(len(sequences[0])))
    races = [
        record("fifteen race, seat 0 solved and won, seat 1 (a paced bot) gave up", good, "accept"),
        record("fifteen race, moves not listed seat by seat (id recomputed)",
               body(sequences, moves, final, moves=interleaved), "move 2: a race's moves are not listed seat by seat"),
        record("fifteen race, the winner is not the first of the ranking (id recomputed)",
               body(sequences, moves, final, winners=[1]), "the winner is not the first of the ranking"),
        record("fifteen race, finished without its votes (id recomputed)",
               canon({k: v for k, v in json.loads(good).items() if k != "votes"}),
               "a finished race needs its ranking and its votes"),
    ]
    return races


def main():
    races = race_records()
    path = os.path.join(here, "records.json")
    vectors = json.load(open(path, encoding="utf-8"))
    vectors["records"] = [r for r in vectors["records"] if not r["name"].startswith("fifteen race")] + races
    with open(path, "w", encoding="utf-8") as f:
        # The layout the file already has (sorted keys, two spaces, " : "), so a run changes only the race records.
        json.dump(vectors, f, indent=2, separators=(",", " : "), sort_keys=True, ensure_ascii=False)
        f.write("\n")
    print("wrote", len(races), "race records into records.json")


if __name__ == "__main__":
    main()
