import Foundation

/// A game in progress with its types erased: what a table needs to run any registered game by name.
/// Moves cross this boundary as JSON (the game's Codable `Move`, keys sorted).
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
    /// The legal moves of the seat to play, as JSON, sorted as the game sorts them.
    func legalMoves() -> [[UInt8]]
    /// Decodes and applies a move; `move/malformed` if it does not decode, `move/illegal` if not legal.
    func apply(json: [UInt8]) throws(MoveError)
    /// Like `apply(json:)`, and returns the move in words as it reads before it is applied (one decode).
    func applyDescribed(json: [UInt8]) throws(MoveError) -> String
    /// The move the bot of `kind` at the seat to play chooses, as JSON. The bot for each seat is created once,
    /// from the game seed, exactly as `tavolo playout` creates it.
    func botMove(kind: String) throws(MoveError) -> [UInt8]
    /// A move in words, in the context of the current state.
    func describe(json: [UInt8]) -> String
    /// What `seat` may see, as JSON.
    func observation(for seat: Int) -> [UInt8]
}

final class GameSessionBox<State: GameState>: GameSession {
    var state: State
    let seed: UInt64
    let factories: [BotFactory<State>]
    var bots: [Int: any Bot<State>] = [:]

    init(players: Int, seed: UInt64, factories: [BotFactory<State>]) throws(GameSetupError) {
        state = try State(players: players, seed: seed)
        self.seed = seed
        self.factories = factories
    }

    var gameName: String { State.gameName }
    var playerCount: Int { state.playerCount }
    var turn: Turn { state.turn }
    var moveNumber: Int { state.moveNumber }
    var stateHash: StateHash { state.stateHash }
    var outcome: GameOutcome? { state.outcome }
    var dealNumber: Int { state.dealNumber }
    var currentDeal: [UInt8]? { state.currentDeal }

    static func encode(_ move: State.Move) -> [UInt8] {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? Array(e.encode(move))) ?? []
    }

    func decode(_ json: [UInt8]) throws(MoveError) -> State.Move {
        do { return try JSONDecoder().decode(State.Move.self, from: Data(json)) } catch {
            throw MoveError(
                .malformed, "not a \(State.gameName) move: \(String(decoding: json.prefix(200), as: UTF8.self))")
        }
    }

    func legalMoves() -> [[UInt8]] { state.legalMoves().map(Self.encode) }

    func apply(json: [UInt8]) throws(MoveError) { try state.apply(try decode(json)) }

    func applyDescribed(json: [UInt8]) throws(MoveError) -> String {
        let move = try decode(json)
        let text = state.describe(move)
        try state.apply(move)
        return text
    }

    func botMove(kind: String) throws(MoveError) -> [UInt8] {
        guard let seat = state.turn.seat else { throw MoveError(.gameOver, "the game is over") }
        if bots[seat] == nil {
            guard let f = factories.first(where: { $0.kind == kind }) else {
                throw MoveError(.illegal, "unknown bot '\(kind)' for \(State.gameName)")
            }
            bots[seat] = f.make(seed, seat)
        }
        guard var bot = bots[seat] else { throw MoveError(.illegal, "no bot") }
        let move = bot.chooseMove(in: state, seat: seat)
        bots[seat] = bot
        return Self.encode(move)
    }

    func describe(json: [UInt8]) -> String {
        guard let move = try? decode(json) else { return String(decoding: json, as: UTF8.self) }
        return state.describe(move)
    }

    func observation(for seat: Int) -> [UInt8] {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        return (try? Array(e.encode(state.observation(for: seat)))) ?? []
    }
}
