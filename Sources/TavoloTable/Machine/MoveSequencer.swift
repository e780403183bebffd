import TavoloCore
import TavoloProtocol

/// The one place a table's moves are checked and applied to its game, for turn-based play (PROTOCOL.md §9.4) and
/// simultaneous play (§10.2) alike: live play (`TableMachine`), a restart from the journal, a peer's record and
/// `tavolo show` (`LogReplayer`) all go through `apply`, so a move is accepted by exactly the same rules wherever it
/// is replayed.
///
/// Turn-based: move `number` is the game's next move, by the seat to play, made for the state whose hash it carries.
/// Simultaneous: each seat's moves form their own sequence numbered from 0, each made for that seat's part of the
/// state (its seat hash); moves of different seats commute (§10.1), so the interleaving does not matter.
public struct MoveSequencer {
    /// The game, mutated in place (a session is a reference: `copy()` before sharing a sequencer's game).
    public private(set) var game: any GameSession
    /// Turn-based: the state hash after k moves, k = 0 … moveNumber. Simultaneous: only the first state's.
    public private(set) var hashes: [StateHash]
    /// Simultaneous: each seat's next move number.
    public private(set) var nextNumber: [Int: Int] = [:]
    /// Simultaneous: completed seats in the order their completing move was applied here (§10.2 step 5).
    public private(set) var finishingOrder: [Int] = []

    /// A move that was not applied, and why (the code every member and replay give, §9.4 and §10.2).
    public struct Rejection: Error, Sendable {
        public var code: MoveErrorCode
        public var reason: String
    }

    /// A move that was applied.
    public struct Applied: Sendable {
        /// The move in words, as it read before it was applied.
        public var text: String
        /// The hash the move was checked against (state, or seat for a race) and the one after it.
        public var before: StateHash
        public var after: StateHash
    }

    public init(game: any GameSession) {
        self.game = game
        hashes = [game.stateHash]
    }

    /// Takes `replayed` as the game: the same game replayed from the log to the same point (its hash), whose bots drew
    /// as a restart's do. False, and nothing changed, when it is not at the same point.
    mutating func takeReplayedGame(_ replayed: any GameSession) -> Bool {
        guard replayed.moveNumber == game.moveNumber, replayed.stateHash == game.stateHash else { return false }
        game = replayed
        return true
    }

    public var isSimultaneous: Bool { game.isSimultaneous }

    /// The number the next move of `seat` carries.
    public func next(of seat: Int) -> Int {
        isSimultaneous ? nextNumber[seat] ?? 0 : game.moveNumber
    }

    /// The hash a move of `seat` is made for now: the state's (turn-based) or the seat's (simultaneous).
    public func hashBefore(seat: Int) -> StateHash {
        isSimultaneous ? game.seatHash(seat) : hashes.last ?? game.stateHash
    }

    /// The hash this node gives the state so far in a `table.sync`: after the last move (turn-based), or of the
    /// whole state (simultaneous, where it depends on no interleaving, §10.6).
    public var currentHash: StateHash { isSimultaneous ? game.stateHash : hashes.last ?? game.stateHash }

    /// Checks move `number` of `seat`, made for `claimed` (nil when the source carries no hash: a record), and
    /// applies it. The checks of §9.4 / §10.2 step 4: the number is the next one, the seat may move, the hash
    /// agrees (full, or its first 8 bytes when short), the game finds the move legal.
    public mutating func apply(seat: Int, number: Int, move: AnyGameMove, claimed: StateHash?)
        -> Result<Applied, Rejection>
    {
        let expected = next(of: seat)
        guard number == expected else {
            let code: MoveErrorCode = number < expected ? .stale : .notYourTurn
            return .failure(Rejection(code: code, reason: "move \(number) of seat \(seat) where \(expected) is next"))
        }
        if isSimultaneous {
            guard game.activeSeats.contains(seat) else {
                return .failure(Rejection(code: .notYourTurn, reason: "seat \(seat) is no longer in the race"))
            }
        } else if game.turn.seat != seat {
            let toPlay = game.turn.seat.map(String.init) ?? "none"
            return .failure(Rejection(code: .notYourTurn, reason: "seat \(seat) moved but seat \(toPlay) is to play"))
        }
        let before = hashBefore(seat: seat)
        if let claimed, !claimed.agrees(with: before) {
            let kind = isSimultaneous ? "seat state" : "state"
            return .failure(
                Rejection(
                    code: .stale,
                    reason: "made for \(kind) \(claimed.hex.prefix(12))…, this node has \(before.hex.prefix(12))…"))
        }
        let text = isSimultaneous ? game.describe(move, seat: seat) : game.describe(move)
        do {
            if isSimultaneous { try game.apply(move, seat: seat) } else { try game.apply(move) }
        } catch { return .failure(Rejection(code: error.code, reason: error.message)) }
        let after: StateHash
        if isSimultaneous {
            after = game.seatHash(seat)
            nextNumber[seat] = number + 1
            if game.seatCompleted(seat) && !finishingOrder.contains(seat) { finishingOrder.append(seat) }
        } else {
            after = game.stateHash
            hashes.append(after)
        }
        return .success(Applied(text: text, before: before, after: after))
    }
}
