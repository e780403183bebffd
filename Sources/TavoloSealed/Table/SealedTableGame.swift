import TavoloCore

/// A sealed table's game as the table layer sees any game (`GameSession`): the table's sequencer applies moves to it
/// and stores its hashes, which are the public completion's (`SealedTable.common`, §14.9); its user and bots play
/// from this node's own game (`SealedTable.local`): legal moves, bots' moves and what a seat observes. What the
/// sealed deck itself says and checks (keys, shuffles, shares, the audit) goes through `sealed`; what a move applied
/// makes this node send waits in `outbox`, and a lie seen while applying one in `faults`, for the table to take.
public final class SealedTableGame: GameSession {
    public var sealed: SealedTable
    /// Messages to send, in order: shares for draws, a new deal's shuffle.
    public var outbox: [SealedMessage] = []
    /// Lies found while a move was applied (the table stops, naming the member).
    public var faults: [SealedFault] = []

    public init(_ sealed: SealedTable) { self.sealed = sealed }

    private var common: any SealedGameSession { sealed.common }
    private var local: any SealedGameSession { sealed.local }

    public var gameName: String { common.gameName }
    public var playerCount: Int { common.playerCount }
    public var seed: UInt64 { common.seed }
    public var turn: Turn { common.turn }
    public var moveNumber: Int { common.moveNumber }
    public var stateHash: StateHash { common.stateHash }
    public var outcome: GameOutcome? { common.outcome }
    public var dealNumber: Int { common.dealNumber }
    /// Nobody deals a sealed table (§14.7).
    public var currentDeal: [UInt8]? { nil }

    public func decodeMove(_ json: JSONValue) throws(MoveError) -> AnyGameMove { try common.decodeMove(json) }
    public func legalMoves() -> [AnyGameMove] { local.legalMoves() }

    /// Applies a move whose card `sealed.openPlay` has opened: to the public game, then to this node's (`applied`).
    public func apply(_ move: AnyGameMove) throws(MoveError) {
        try common.apply(move)
        do { outbox += try sealed.applied(move) } catch { faults.append(error) }
    }

    public func botMove(kind: String) throws(MoveError) -> AnyGameMove {
        let move = try local.botMove(kind: kind)
        return sealed.cheats.contains(.falseFlee) ? falseFlee(instead: move) ?? move : move
    }

    /// `falseFlee`: a flee of the card the bot would play, when the public rules take it (the pile is open to
    /// follow and the card is in the hand): a claim of "no legal card" while holding one.
    private func falseFlee(instead move: AnyGameMove) -> AnyGameMove? {
        guard case .object(let fields) = move.json, let card = fields["play"],
            let flee = try? local.decodeMove(.object(["flee": card]))
        else { return nil }
        let trial = local.copy()
        return (try? trial.apply(flee)) != nil ? flee : nil
    }
    public func describe(_ move: AnyGameMove) -> String { common.describe(move) }
    public func describe(_ move: AnyGameMove, seat: Int) -> String { common.describe(move, seat: seat) }
    public func observation(for seat: Int) -> JSONValue { local.observation(for: seat) }

    public func copy() -> any GameSession {
        var table = sealed
        table.replaceGames(local: local.copy(), common: common.copy())
        let game = SealedTableGame(table)
        game.outbox = outbox
        game.faults = faults
        return game
    }

    public var isSimultaneous: Bool { false }
    public var activeSeats: [Int] { common.activeSeats }
    public func legalMoves(seat: Int) -> [AnyGameMove] { local.legalMoves(seat: seat) }
    public func apply(_ move: AnyGameMove, seat: Int) throws(MoveError) { try apply(move) }
    public func seatHash(_ seat: Int) -> StateHash { common.seatHash(seat) }
    public func seatCompleted(_ seat: Int) -> Bool { common.seatCompleted(seat) }
    public func liveProgress(seat: Int) -> JSONValue? { nil }
    public func botMove(kind: String, seat: Int) throws(MoveError) -> AnyGameMove {
        try local.botMove(kind: kind, seat: seat)
    }
    public func heirBotMove(kind: String, seat: Int) throws(MoveError) -> AnyGameMove {
        try local.heirBotMove(kind: kind, seat: seat)
    }

    /// Takes what applying moves left to send.
    public func takeOutbox() -> [SealedMessage] {
        defer { outbox = [] }
        return outbox
    }
}
