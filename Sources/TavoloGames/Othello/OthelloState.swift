import TavoloCore

// Othello (seed 004, RULES.md "Othello"), standard rules, 2 players: seat 0 is black, seat 1 white.
//
// - 8×8 board; start: white on d4 and e5, black on d5 and e4. Black moves first.
// - A placement must bracket one or more straight lines (8 directions) of opponent discs; they all flip.
// - A pass is a move, and the only legal one, exactly when the player to move has no placement.
// - The game ends as soon as neither player can place; more discs wins, equal is a draw.
// - Nothing is random: the seed is accepted (every game takes one) and kept, but the position ignores it.

/// An Othello move: a disc on a square (0 = a1 … 63 = h8), or a pass. Sorts by square; pass last.
public struct OthelloMove: GameMove {
    /// 0…63, or 64 for a pass.
    public let square: UInt8

    public static let pass = OthelloMove(rawSquare: 64)

    init(rawSquare: UInt8) { square = rawSquare }

    /// A placement on `square` (0…63); nil outside the board.
    public init?(square: Int) {
        guard (0..<64).contains(square) else { return nil }
        self.square = UInt8(square)
    }

    /// A move from its name (`d3`, `pass`); nil if malformed.
    public init?(name: String) {
        if name.lowercased() == "pass" {
            self = .pass
        } else if let sq = OthelloBitboard.square(named: name) {
            square = UInt8(sq)
        } else {
            return nil
        }
    }

    public var isPass: Bool { square == 64 }
    public var description: String { isPass ? "pass" : OthelloBitboard.name(Int(square)) }
    public static func < (a: OthelloMove, b: OthelloMove) -> Bool { a.square < b.square }

    public init(from decoder: Decoder) throws {
        let s = try decoder.singleValueContainer().decode(String.self)
        guard let m = OthelloMove(name: s) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "not an Othello move: \(s)"))
        }
        self = m
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}

/// The full state of an Othello game.
public struct OthelloState: GameState {
    public typealias Move = OthelloMove

    public static let gameName = "othello"
    public static let summary = "Othello (Reversi) on an 8×8 board, 2 players; seat 0 is black and moves first"
    public static let playerCounts = [2]
    public static let scoreName = "discs"

    /// The standard start: black on d5 and e4, white on d4 and e5.
    public static let startBlack: UInt64 = 1 << 35 | 1 << 28
    public static let startWhite: UInt64 = 1 << 27 | 1 << 36

    public var playerCount: Int { 2 }
    public let seed: UInt64
    public private(set) var black: UInt64
    public private(set) var white: UInt64
    /// The colour to move: 0 black, 1 white (meaningless once the game is over).
    public private(set) var toMove: Int
    public private(set) var moveNumber: Int
    public private(set) var isOver: Bool

    public init(players: Int, seed: UInt64) throws(GameSetupError) {
        guard players == 2 else { throw GameSetupError("othello is played by 2 players, not \(players)") }
        self.init(black: Self.startBlack, white: Self.startWhite, toMove: 0, seed: seed)
    }

    /// Any position (for tests and analysis): ends the game at once if neither colour can place.
    /// Overlapping discs go to black.
    public init(black: UInt64, white: UInt64, toMove: Int, moveNumber: Int = 0, seed: UInt64 = 0) {
        self.seed = seed
        self.black = black
        self.white = white & ~black
        self.toMove = toMove == 0 ? 0 : 1
        self.moveNumber = moveNumber
        isOver =
            OthelloBitboard.moves(self.black, self.white) == 0 && OthelloBitboard.moves(self.white, self.black) == 0
    }

    /// Discs of the colour to move and of the other colour.
    @inline(__always) var own: UInt64 { toMove == 0 ? black : white }
    @inline(__always) var opp: UInt64 { toMove == 0 ? white : black }

    public var turn: Turn { isOver ? .terminal : .seat(toMove) }

    /// Squares the player to move may place on.
    public var placements: UInt64 { isOver ? 0 : OthelloBitboard.moves(own, opp) }

    public func legalMoves() -> [OthelloMove] {
        guard !isOver else { return [] }
        var bits = placements
        if bits == 0 { return [.pass] }
        var list: [OthelloMove] = []
        list.reserveCapacity(bits.nonzeroBitCount)
        while bits != 0 {
            list.append(OthelloMove(rawSquare: UInt8(bits.trailingZeroBitCount)))
            bits &= bits - 1
        }
        return list
    }

    public mutating func apply(_ move: OthelloMove) throws(MoveError) {
        guard !isOver else { throw MoveError(.gameOver, "the game is over") }
        let legal = placements
        if move.isPass {
            guard legal == 0 else { throw MoveError(.illegal, "pass is legal only with no placement") }
        } else {
            guard move.square < 64, legal & (1 << UInt64(move.square)) != 0 else {
                throw MoveError(.illegal, "\(move) brackets no \(toMove == 0 ? "white" : "black") disc")
            }
        }
        play(move)
    }

    /// Applies a move known to be legal.
    @inline(__always)
    mutating func play(_ move: OthelloMove) {
        if !move.isPass {
            let bit: UInt64 = 1 << UInt64(move.square)
            let f = OthelloBitboard.flips(own, opp, square: Int(move.square))
            if toMove == 0 {
                black |= bit | f
                white &= ~f
            } else {
                white |= bit | f
                black &= ~f
            }
        }
        moveNumber += 1
        toMove ^= 1
        if OthelloBitboard.moves(own, opp) == 0 && OthelloBitboard.moves(opp, own) == 0 { isOver = true }
    }

    /// Discs per seat: black, white.
    public var discs: [Int] { [black.nonzeroBitCount, white.nonzeroBitCount] }

    public var outcome: GameOutcome? {
        guard isOver else { return nil }
        let d = discs
        return GameOutcome(winners: d[0] > d[1] ? [0] : d[1] > d[0] ? [1] : [], scores: d)
    }

    public func observation(for seat: Int) -> OthelloObservation { OthelloObservation(self, seat: seat) }

    public func writeCanonical(into w: inout CanonicalWriter) {
        w.u64(black)
        w.u64(white)
        w.u8(isOver ? 0xFF : UInt8(toMove))
        w.u32(UInt32(moveNumber))
    }

    /// The board as 9 lines: ranks 8 down to 1, then the file letters. `X` black, `O` white, `.` empty;
    /// the disc on `marked` is drawn in lower case (`x`/`o`).
    public func boardDiagram(marked: Int? = nil) -> [String] {
        var lines: [String] = []
        for rank in stride(from: 7, through: 0, by: -1) {
            var line = "\(rank + 1) "
            for file in 0..<8 {
                let sq = rank * 8 + file
                let bit: UInt64 = 1 << UInt64(sq)
                var c = black & bit != 0 ? "X" : white & bit != 0 ? "O" : "."
                if sq == marked { c = c.lowercased() }
                line += file == 7 ? c : c + " "
            }
            lines.append(line)
        }
        lines.append("  a b c d e f g h")
        return lines
    }

    /// The move, the discs it flips, the counts after it, and the board before and after side by side.
    public func describe(_ move: OthelloMove) -> String {
        let colour = toMove == 0 ? "black" : "white"
        var after = self
        var text: String
        if move.isPass {
            text = "\(colour) passes (no placement)"
        } else {
            let f = OthelloBitboard.flips(own, opp, square: Int(move.square))
            var names: [String] = []
            var bits = f
            while bits != 0 {
                names.append(OthelloBitboard.name(bits.trailingZeroBitCount))
                bits &= bits - 1
            }
            text = "\(colour) \(move), flips \(names.joined(separator: " "))"
        }
        after.play(move)
        text += " (black \(after.black.nonzeroBitCount), white \(after.white.nonzeroBitCount))"
        if after.isOver { text += "; game over" }
        let before = boardDiagram()
        let next = after.boardDiagram(marked: move.isPass ? nil : Int(move.square))
        let header = "   before" + String(repeating: " ", count: 16) + "after"
        let rows = zip(before, next).map { "   " + $0 + "    " + $1 }
        return ([text, header] + rows).joined(separator: "\n")
    }
}
