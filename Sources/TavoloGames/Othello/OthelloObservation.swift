/// Othello as seen by one seat: everything (no hidden information), in a form people and JSON read exactly.
/// No bitboard travels: a 64-bit board as a JSON number passes through a `Double` in most decoders and loses its
/// low bits (h8 is bit 63).
public struct OthelloObservation: Codable, Sendable, Equatable {
    public var seat: Int
    /// Eight rows of eight characters, rank 8 first, files a…h left to right: `X` black, `O` white, `.` empty.
    public var board: [String]
    /// The squares the seat to play may place on (`["c4","d3"]`); empty when it must pass or the game is over.
    public var legal: [String]
    /// Discs of black (seat 0) and white (seat 1).
    public var discs: [Int]
    /// The seat to play (0 black, 1 white); nil when the game is over.
    public var turn: Int?
    public var moveNumber: Int

    public init(_ state: OthelloState, seat: Int) {
        self.seat = seat
        board = (0..<8).reversed().map { rank in
            String(
                (0..<8).map { file -> Character in
                    let bit: UInt64 = 1 << UInt64(rank * 8 + file)
                    return state.black & bit != 0 ? "X" : state.white & bit != 0 ? "O" : "."
                })
        }
        legal = state.legalMoves().filter { !$0.isPass }.map(\.description)
        discs = state.discs
        turn = state.turn.seat
        moveNumber = state.moveNumber
    }

    /// The disc on a square (0 = a1 … 63 = h8): `X`, `O` or `.`; `.` off the board.
    public func disc(at square: Int) -> Character {
        guard (0..<64).contains(square) else { return "." }
        let row = Array(board.indices.contains(7 - square / 8) ? board[7 - square / 8] : "")
        return square % 8 < row.count ? row[square % 8] : "."
    }
}
