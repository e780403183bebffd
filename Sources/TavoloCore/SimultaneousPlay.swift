/// Turn-based defaults for simultaneous play (PROTOCOL.md §10): one seat at a time, the one `turn` names, so
/// every turn-based game behaves exactly as before and its hashes do not change.
extension GameState {
    public static var isSimultaneous: Bool { false }

    public var activeSeats: [Int] { turn.seat.map { [$0] } ?? [] }

    public func legalMoves(seat: Int) -> [Move] { turn.seat == seat ? legalMoves() : [] }

    public mutating func apply(_ move: Move, seat: Int) throws(MoveError) {
        guard let toPlay = turn.seat else { throw MoveError(.gameOver, "the game is over") }
        guard toPlay == seat else { throw MoveError(.notYourTurn, "seat \(toPlay) is to play, not seat \(seat)") }
        try apply(move)
    }

    public func seatCompleted(_ seat: Int) -> Bool { false }

    public func liveProgress(seat: Int) -> JSONValue? { nil }

    public func writeSeatCanonical(_ seat: Int, into writer: inout CanonicalWriter) { writeCanonical(into: &writer) }

    /// SHA-256 of `writeSeatCanonical(seat)`: the hash a seat's moves carry in a simultaneous game.
    public func seatHash(_ seat: Int) -> StateHash {
        var w = CanonicalWriter()
        writeSeatCanonical(seat, into: &w)
        return StateHash(canonical: w.bytes)
    }
}
