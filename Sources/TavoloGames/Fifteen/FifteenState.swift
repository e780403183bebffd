import TavoloCore

// The Fifteen-puzzle race (seed 003, RULES.md "Fifteen-puzzle race"; PROTOCOL `games/fifteen.md`).
//
// - N×N board, N ∈ {4, 5, 6}: one game per size (`fifteen`, `fifteen5`, `fifteen6`), as a table has no options.
// - Solved: tiles 1…N²−1 in reading order, the blank last. The scramble is 130 random slides from the solved
//   board, never undoing the previous one, drawn from the game's `TavoloRNG(seed)`: every seat gets it.
// - Every seat races on its own copy at the same time (a simultaneous game, PROTOCOL.md §10): a move slides a
//   tile next to the blank, named by the way the tile moves; `give-up` leaves the race.
// - A seat is done once solved or given up; the game is over when every seat is done. Scores are the moves
//   each seat made; the engine's winners are the solvers with fewest moves. Which solver was *first* is not
//   the engine's to know (it has no clock): the table ranks finishers by the order every node saw (§10.3).

/// A board size of the race.
public protocol FifteenSize: Sendable {
    static var n: Int { get }
    static var gameName: String { get }
}

public enum Fifteen4: FifteenSize {
    public static var n: Int { 4 }
    public static var gameName: String { "fifteen" }
}

public enum Fifteen5: FifteenSize {
    public static var n: Int { 5 }
    public static var gameName: String { "fifteen5" }
}

public enum Fifteen6: FifteenSize {
    public static var n: Int { 6 }
    public static var gameName: String { "fifteen6" }
}

/// Where one seat is in the race.
public enum FifteenSeatStatus: UInt8, Codable, Sendable {
    case racing = 0
    case solved = 1
    case gaveUp = 2
}

/// The full state of a Fifteen-puzzle race of size `Size`.
public struct FifteenState<Size: FifteenSize>: GameState {
    public typealias Move = FifteenMove

    public static var gameName: String { Size.gameName }
    public static var summary: String {
        "Fifteen-puzzle race on a \(Size.n)×\(Size.n) board, 1–8 players at once on the same scramble"
    }
    public static var playerCounts: [Int] { Array(1...8) }
    public static var scoreName: String { "moves" }
    public static var lowerScoreIsBetter: Bool { true }
    public static var isSimultaneous: Bool { true }
    /// Slides in a scramble (the seed's rule).
    public static var scrambleSteps: Int { 130 }

    public let seed: UInt64
    /// The board every seat started from.
    public let scramble: FifteenBoard
    public private(set) var boards: [FifteenBoard]
    /// Moves each seat made (give-up not counted).
    public private(set) var moves: [Int]
    public private(set) var status: [FifteenSeatStatus]

    public init(players: Int, seed: UInt64) throws(GameSetupError) {
        guard Self.playerCounts.contains(players) else {
            throw GameSetupError("\(Self.gameName) is played by 1 to 8 players, not \(players)")
        }
        var rng = TavoloRNG(seed: seed)
        self.seed = seed
        scramble = FifteenBoard.scrambled(n: Size.n, steps: Self.scrambleSteps, rng: &rng)
        boards = Array(repeating: scramble, count: players)
        moves = Array(repeating: 0, count: players)
        status = Array(repeating: scramble.isSolved ? .solved : .racing, count: players)
    }

    public var playerCount: Int { boards.count }
    public var moveNumber: Int { moves.reduce(0, +) + status.filter { $0 == .gaveUp }.count }

    public var activeSeats: [Int] { status.indices.filter { status[$0] == .racing } }

    /// The lowest seat still racing: the turn-based view (playouts and the generic check play it).
    public var turn: Turn { activeSeats.first.map(Turn.seat) ?? .terminal }

    public func legalMoves() -> [FifteenMove] { turn.seat.map { legalMoves(seat: $0) } ?? [] }

    public func legalMoves(seat: Int) -> [FifteenMove] {
        guard status.indices.contains(seat), status[seat] == .racing else { return [] }
        return boards[seat].slides + [.giveUp]
    }

    public mutating func apply(_ move: FifteenMove) throws(MoveError) {
        guard let seat = turn.seat else { throw MoveError(.gameOver, "the race is over") }
        try apply(move, seat: seat)
    }

    public mutating func apply(_ move: FifteenMove, seat: Int) throws(MoveError) {
        guard status.indices.contains(seat) else { throw MoveError(.notYourTurn, "no seat \(seat)") }
        guard status[seat] == .racing else {
            throw MoveError(.notYourTurn, "seat \(seat) has \(status[seat] == .solved ? "solved" : "given up")")
        }
        if move == .giveUp {
            status[seat] = .gaveUp
            return
        }
        guard boards[seat].slide(move) else {
            throw MoveError(.illegal, "no tile can move \(move) on seat \(seat)'s board")
        }
        moves[seat] += 1
        if boards[seat].isSolved { status[seat] = .solved }
    }

    public var outcome: GameOutcome? {
        guard turn == .terminal else { return nil }
        let solvers = status.indices.filter { status[$0] == .solved }
        let best = solvers.map { moves[$0] }.min()
        return GameOutcome(winners: solvers.filter { moves[$0] == best }, scores: moves)
    }

    public func observation(for seat: Int) -> FifteenObservation {
        FifteenObservation(
            seat: seat, n: Size.n, boards: boards.map { $0.tiles.map(Int.init) }, moves: moves,
            status: status.map(\.name), legal: legalMoves(seat: seat).map(\.description))
    }

    public func seatCompleted(_ seat: Int) -> Bool { status.indices.contains(seat) && status[seat] == .solved }

    /// `{"board": [N² cells], "inPlace": tiles home}`: what opponents draw live (PROTOCOL.md §10.4).
    public func liveProgress(seat: Int) -> JSONValue? {
        guard boards.indices.contains(seat) else { return nil }
        return .object([
            "board": .array(boards[seat].tiles.map { .integer(Int64($0)) }),
            "inPlace": .integer(Int64(boards[seat].tilesInPlace)),
        ])
    }

    public func writeCanonical(into w: inout CanonicalWriter) {
        w.u8(UInt8(Size.n))
        w.u8(UInt8(playerCount))
        for seat in boards.indices { writeSeatPart(seat, into: &w) }
    }

    public func writeSeatCanonical(_ seat: Int, into w: inout CanonicalWriter) {
        w.u8(UInt8(Size.n))
        w.u8(UInt8(seat))
        writeSeatPart(seat, into: &w)
    }

    private func writeSeatPart(_ seat: Int, into w: inout CanonicalWriter) {
        for t in boards[seat].tiles { w.u8(t) }
        w.u32(UInt32(moves[seat]))
        w.u8(status[seat].rawValue)
    }

    public func describe(_ move: FifteenMove) -> String {
        guard let seat = turn.seat else { return move.description }
        return describe(move, seat: seat)
    }

    /// Said from `seat`'s own board: in a race any seat may move, not only the lowest one still racing.
    public func describe(_ move: FifteenMove, seat: Int) -> String {
        guard move != .giveUp else { return "gives up" }
        guard boards.indices.contains(seat), let tile = boards[seat].tile(movedBy: move) else {
            return move.description
        }
        return "tile \(tile) \(move)"
    }
}

extension FifteenSeatStatus {
    public var name: String {
        switch self {
        case .racing: "racing"
        case .solved: "solved"
        case .gaveUp: "gave-up"
        }
    }
}

/// Everything (nothing in the race is hidden): every seat's board, row by row, 0 the blank.
public struct FifteenObservation: Codable, Sendable, Equatable {
    public var seat: Int
    public var n: Int
    public var boards: [[Int]]
    public var moves: [Int]
    public var status: [String]
    public var legal: [String]
}

public typealias FifteenState4 = FifteenState<Fifteen4>
public typealias FifteenState5 = FifteenState<Fifteen5>
public typealias FifteenState6 = FifteenState<Fifteen6>
