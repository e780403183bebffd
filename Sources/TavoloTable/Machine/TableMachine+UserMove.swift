import TavoloCore
import TavoloProtocol

/// The move this node's user plays for its human seat (`tavolo move`, the page, `tavolo play`): checked here first,
/// then sent and applied as any move of this node's (`TableMachine+Lockstep.swift`).
extension TableMachine {
    /// The local user's move for the human seat to play.
    mutating func playLocalMove(_ json: JSONValue) throws(TableError) {
        if session?.isSimultaneous == true { return try playLocalRaceMove(json) }
        guard info.phase == .playing, let s = session else {
            if info.phase == .paused {
                throw TableError(.paused, "table \(id) is paused: \(absentNames) lost; moves wait for them")
            }
            throw TableError(.notPlaying, "table \(id) is \(info.phase.rawValue)")
        }
        guard !replaced.contains(me) else {
            throw TableError(
                .notYourTurn, "you were voted out of table \(id): a bot plays your seat; you follow the game")
        }
        guard let seat = s.turn.seat, info.seats[seat].owner == me, info.seats[seat].bot == nil else {
            throw TableError(.notYourTurn, "it is not a seat of yours to play")
        }
        guard sealedReady else { throw TableError(.notYourTurn, "your cards are still being opened: a moment") }
        let move: AnyGameMove
        do { move = try s.decodeMove(json) } catch { throw TableError(TableErrorCode(error.code), error.message) }
        let legal = s.legalMoves()
        guard legal.contains(move) else {
            let options = legal.map(\.json.jsonText).joined(separator: " ")
            throw TableError(.illegal, "\(move) is not a legal move; legal: \(options)")
        }
        sendMove(s.moveNumber, seat: seat, move: move)
        progress()
    }
}
