import Foundation

/// A game in progress with its types erased: what a table needs to run any registered game by name.
/// A move crosses this boundary once, as JSON, in `decodeMove`; from then on it is the game's own value.
///
/// A class: a table keeps its session for the table's whole life and mutates it in place (a game state can be
/// large, and copying it on every move would cost more than the move).
public protocol GameSession: AnyObject {
    var gameName: String { get }
    var playerCount: Int { get }
    var seed: UInt64 { get }
    var turn: Turn { get }
    var moveNumber: Int { get }
    var stateHash: StateHash { get }
    var outcome: GameOutcome? { get }
    var dealNumber: Int { get }
    var currentDeal: [UInt8]? { get }
    /// The game's move from its JSON; `move/malformed` when it is not one.
    func decodeMove(_ json: JSONValue) throws(MoveError) -> AnyGameMove
    /// The legal moves of the seat to play, sorted as the game sorts them.
    func legalMoves() -> [AnyGameMove]
    /// Applies a move; `move/malformed` if it is another game's, `move/illegal` if not legal.
    func apply(_ move: AnyGameMove) throws(MoveError)
    /// The move the bot of `kind` at the seat to play chooses. The bot for each seat is created once, from the
    /// game seed, exactly as `tavolo playout` creates it.
    func botMove(kind: String) throws(MoveError) -> AnyGameMove
    /// A move in words, in the context of the current state (before it is applied). Public: it names nothing
    /// the other seats may not see.
    func describe(_ move: AnyGameMove) -> String
    /// A move of `seat` in words (a simultaneous game's seat moves on its own part of the state).
    func describe(_ move: AnyGameMove, seat: Int) -> String
    /// What `seat` may see.
    func observation(for seat: Int) -> JSONValue
    /// An independent session at the same point, bots' random streams included: a table machine copied (a
    /// rebuilt game compared with the live one, a test's snapshot) must not move the original's game.
    func copy() -> any GameSession

    // Simultaneous play (PROTOCOL.md §10): every seat in `activeSeats` may move, each in its own sequence.

    /// Whether several seats may move at once.
    var isSimultaneous: Bool { get }
    /// The seats that may move now.
    var activeSeats: [Int] { get }
    /// The legal moves of `seat`, sorted.
    func legalMoves(seat: Int) -> [AnyGameMove]
    /// Applies a move of `seat`.
    func apply(_ move: AnyGameMove, seat: Int) throws(MoveError)
    /// The hash of `seat`'s own part of the state (what its moves carry).
    func seatHash(_ seat: Int) -> StateHash
    /// Whether `seat` completed the game's task (ranked by when it was seen to).
    func seatCompleted(_ seat: Int) -> Bool
    /// The seat's live progress for datagrams, if the game has any.
    func liveProgress(seat: Int) -> JSONValue?
    /// The move the bot of `kind` (a pace suffix `@n` is ignored) at `seat` chooses.
    func botMove(kind: String, seat: Int) throws(MoveError) -> AnyGameMove
    /// The move of the bot that inherited `seat` from a member voted out (PROTOCOL.md §9.12). An instance of its
    /// own, made from the game seed at the first call: every member calls it at each of the seat's moves from the
    /// pass on, so the heir's bot and every member's copy draw the same stream, whatever bot played the seat before
    /// (the leaver's own may have drawn from its stream on its node only).
    func heirBotMove(kind: String, seat: Int) throws(MoveError) -> AnyGameMove
}

/// A bot kind as a seat names it: `solver` or `solver@8`, the second playing 8 moves per second in a
/// simultaneous game (PROTOCOL.md §10.5).
public struct BotKindName: Sendable, Equatable {
    public let kind: String
    /// Moves per second, when the name gives one.
    public let pace: Double?

    public init(_ name: String) {
        let parts = name.split(separator: "@", maxSplits: 1)
        if parts.count == 2, let pace = Double(parts[1]), pace > 0, pace <= 1000 {
            kind = String(parts[0])
            self.pace = pace
        } else {
            kind = name
            pace = nil
        }
    }
}

/// Any game's session. Not final: a sealed game's session (`SealedGameSessionBox`) is this one with its moves applied
/// by `applySealed`, and shares everything else (bots, decoded moves, copies) rather than repeating it.
class GameSessionBox<State: GameState>: GameSession {
    var state: State
    let seed: UInt64
    let factories: [BotFactory<State>]
    var bots: [Int: any Bot<State>] = [:]
    var heirBots: [Int: any Bot<State>] = [:]

    init(players: Int, seed: UInt64, factories: [BotFactory<State>]) throws(GameSetupError) {
        state = try State(players: players, seed: seed)
        self.seed = seed
        self.factories = factories
    }

    init(copying other: GameSessionBox<State>) {
        state = other.state
        seed = other.seed
        factories = other.factories
        bots = other.bots
        heirBots = other.heirBots
        decodedMoves = other.decodedMoves
    }

    func copy() -> any GameSession { GameSessionBox(copying: self) }

    var gameName: String { State.gameName }
    var playerCount: Int { state.playerCount }
    var turn: Turn { state.turn }
    var moveNumber: Int { state.moveNumber }
    var stateHash: StateHash { state.stateHash }
    var outcome: GameOutcome? { state.outcome }
    var dealNumber: Int { state.dealNumber }
    var currentDeal: [UInt8]? { state.currentDeal }

    func typed(_ move: AnyGameMove) throws(MoveError) -> State.Move {
        guard let m = move.as(State.Move.self) else { throw MoveError(.malformed, "not a \(State.gameName) move") }
        return m
    }

    /// Moves decoded so far, by their JSON. A game has few distinct moves (Spirits! 36, Othello 64) and every node
    /// decodes every move it receives: through `Codable` that was 3% of a six-node game's CPU, a lookup is a hash.
    /// Bounded, so a peer sending ever new JSON grows nothing, and only a move's own JSON is kept: not one that
    /// fails to decode, nor one padded with members the move ignores.
    private var decodedMoves: [JSONValue: AnyGameMove] = [:]
    static var decodedMovesLimit: Int { 512 }

    func decodeMove(_ json: JSONValue) throws(MoveError) -> AnyGameMove {
        if let known = decodedMoves[json] { return known }
        let move: AnyGameMove
        do { move = AnyGameMove(try json.decode(State.Move.self)) } catch {
            throw MoveError(.malformed, "not a \(State.gameName) move: \(json.jsonText.prefix(200))")
        }
        if decodedMoves.count < Self.decodedMovesLimit && move.json == json { decodedMoves[json] = move }
        return move
    }

    func legalMoves() -> [AnyGameMove] { state.legalMoves().map(AnyGameMove.init) }

    func apply(_ move: AnyGameMove) throws(MoveError) { try state.apply(try typed(move)) }

    func botMove(kind: String) throws(MoveError) -> AnyGameMove {
        guard let seat = state.turn.seat else { throw MoveError(.gameOver, "the game is over") }
        return try botMove(kind: kind, seat: seat)
    }

    var isSimultaneous: Bool { State.isSimultaneous }
    var activeSeats: [Int] { state.activeSeats }
    func legalMoves(seat: Int) -> [AnyGameMove] { state.legalMoves(seat: seat).map(AnyGameMove.init) }
    func apply(_ move: AnyGameMove, seat: Int) throws(MoveError) { try state.apply(try typed(move), seat: seat) }
    func seatHash(_ seat: Int) -> StateHash { state.seatHash(seat) }
    func seatCompleted(_ seat: Int) -> Bool { state.seatCompleted(seat) }
    func liveProgress(seat: Int) -> JSONValue? { state.liveProgress(seat: seat) }

    func botMove(kind name: String, seat: Int) throws(MoveError) -> AnyGameMove {
        try choose(kind: name, seat: seat, from: &bots)
    }

    func heirBotMove(kind name: String, seat: Int) throws(MoveError) -> AnyGameMove {
        try choose(kind: name, seat: seat, from: &heirBots)
    }

    /// The move of the bot of `seat` in `slots`, made there at its first move.
    private func choose(kind name: String, seat: Int, from slots: inout [Int: any Bot<State>]) throws(MoveError)
        -> AnyGameMove
    {
        guard state.activeSeats.contains(seat) else { throw MoveError(.notYourTurn, "seat \(seat) may not move now") }
        let kind = BotKindName(name).kind
        if slots[seat] == nil {
            guard let f = factories.first(where: { $0.kind == kind }) else {
                throw MoveError(.illegal, "unknown bot '\(kind)' for \(State.gameName)")
            }
            slots[seat] = f.make(seed, seat)
        }
        guard var bot = slots[seat] else { throw MoveError(.illegal, "no bot") }
        let move = bot.chooseMove(in: state, seat: seat)
        slots[seat] = bot
        return AnyGameMove(move)
    }

    func describe(_ move: AnyGameMove) -> String {
        guard let m = move.as(State.Move.self) else { return move.description }
        return state.describe(m)
    }

    func describe(_ move: AnyGameMove, seat: Int) -> String {
        guard let m = move.as(State.Move.self) else { return move.description }
        return state.describe(m, seat: seat)
    }

    func observation(for seat: Int) -> JSONValue {
        (try? JSONValue(encoding: state.observation(for: seat))) ?? .null
    }
}
