/// A sealed game's session (PROTOCOL.md §14): `GameSessionBox` with every move applied by `applySealed` and the
/// draws it made recorded, so a table knows which positions to open for which seat. The game is a completion of the
/// deal: when a node learns a card it rebuilds the game on the new completion (`sealedRebuild`) and keeps its bots.
final class SealedGameSessionBox<State: SealedCardGame>: GameSessionBox<State>, SealedGameSession {
    private(set) var sealedLastDraws: [SealedPlacement] = []

    override init(players: Int, seed: UInt64, factories: [BotFactory<State>]) throws(GameSetupError) {
        try super.init(players: players, seed: seed, factories: factories)
    }

    private init(copying other: SealedGameSessionBox<State>) {
        sealedLastDraws = other.sealedLastDraws
        super.init(copying: other)
    }

    /// A copy is sealed too: its moves must still go through `applySealed`.
    override func copy() -> any GameSession { SealedGameSessionBox(copying: self) }

    /// Nobody deals a sealed table (§14.7): there is no deal to check a host's against.
    override var currentDeal: [UInt8]? { nil }

    override func apply(_ move: AnyGameMove) throws(MoveError) {
        let typedMove = try typed(move)
        let before = state
        try state.applySealed(typedMove)
        sealedLastDraws = state.sealedDraws(since: before)
    }

    /// Sealed games are turn-based: the seat must be the one to play, then the move is applied as above.
    override func apply(_ move: AnyGameMove, seat: Int) throws(MoveError) {
        guard let toPlay = state.turn.seat else { throw MoveError(.gameOver, "the game is over") }
        guard toPlay == seat else { throw MoveError(.notYourTurn, "seat \(toPlay) is to play, not seat \(seat)") }
        try apply(move)
    }

    var sealedCardNumbers: [Int] { State.sealedCardNumbers(players: playerCount) }

    func sealedDealtPositions() -> [SealedPlacement] { state.sealedDealtPositions() }

    func sealedCardsPlayed(by move: AnyGameMove) -> [Int]? {
        move.as(State.Move.self).flatMap { state.sealedCardsPlayed(by: $0) }
    }

    /// Only `state` is replaced, and only once the whole replay applied: the bots (their streams and what they
    /// learned), the heirs' bots and the decoded moves stay, so a rebuild changes no bot's next choice but through
    /// the cards it now sees.
    func sealedRebuild(deals: [[Int]], moves: [AnyGameMove]) throws(MoveError) {
        var typedMoves: [State.Move] = []
        typedMoves.reserveCapacity(moves.count)
        for move in moves { typedMoves.append(try typed(move)) }
        var draws: [SealedPlacement] = []
        let replay: SealedReplay<State>
        do {
            replay = try SealedReplay(
                players: playerCount, seed: seed, deals: deals, moves: typedMoves, requireEveryDeal: false
            ) { (state, move) throws(MoveError) in
                let before = state
                try state.applySealed(move)
                draws = state.sealedDraws(since: before)
            }
        } catch {
            throw MoveError(.illegal, "a sealed deal does not apply: \(error.message)")
        }
        if let refused = replay.refused {
            throw MoveError(refused.error.code, "move \(refused.index) of the rebuild: \(refused.error.message)")
        }
        state = replay.state
        sealedLastDraws = draws
    }

    /// §14.10 step 5: the replay a rebuild makes, with every deal's true order and the full rules (`apply`). A move
    /// the public rules take (`applySealed`) on the same state is a false claim (a flee with a card that could follow);
    /// a move they refuse too names a card the seat did not hold. A move that does not decode, or deals that do not
    /// replay, name the move where it stopped.
    func sealedAuditFinding(deals: [[Int]], moves: [AnyGameMove]) -> SealedAuditFinding? {
        var typedMoves: [State.Move] = []
        for (n, move) in moves.enumerated() {
            guard let m = move.as(State.Move.self) else {
                return SealedAuditFinding(
                    moveNumber: n, seat: -1, error: MoveError(.malformed, "not a \(State.gameName) move"),
                    isFalseClaim: false)
            }
            typedMoves.append(m)
        }
        let replay: SealedReplay<State>
        do {
            replay = try SealedReplay(
                players: playerCount, seed: seed, deals: deals, moves: typedMoves, requireEveryDeal: true
            ) { (state, move) throws(MoveError) in try state.apply(move) }
        } catch {
            return SealedAuditFinding(
                moveNumber: 0, seat: -1, error: MoveError(.illegal, error.message), isFalseClaim: false)
        }
        guard let refused = replay.refused else { return nil }
        var trial = replay.state
        let claim = (try? trial.applySealed(typedMoves[refused.index])) != nil
        return SealedAuditFinding(
            moveNumber: refused.index, seat: replay.state.turn.seat ?? -1, error: refused.error, isFalseClaim: claim)
    }
}
