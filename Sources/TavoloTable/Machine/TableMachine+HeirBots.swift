import TavoloCore
import TavoloProtocol

/// A seat that passed to a bot (a member voted out or forfeited, PROTOCOL.md §9.12) is played by the heir's node,
/// but the heir does not choose its moves: every member runs the same bot, made from the game seed, and refuses any
/// other move for that seat. Without this, whoever inherits a seat could play it as it liked.
extension TableMachine {
    /// The move an inherited seat's bot plays at move `number` of that seat's sequence (the game's move count in a
    /// turn-based game, the seat's own count in a race).
    struct HeirMove {
        let number: Int
        let move: AnyGameMove
    }

    /// The bot kind playing `seat` when the seat passed from a member to an heir in a turn-based game; nil for any
    /// other seat. Not in a race: there a seat passes at the vote's move count, not at a move of the seat, and a
    /// member that slid the seat on apart drops those moves later (§10.6), so the members would not ask the bot at
    /// the same points of the seat's sequence (PROTOCOL.md §10.6 says so: a race's heir is not checked).
    func inheritedBot(_ seat: Int) -> String? {
        guard session?.isSimultaneous != true, (log.takeovers ?? []).contains(where: { $0.seats.contains(seat) })
        else { return nil }
        return info.seats[safe: seat]?.bot
    }

    /// The move the inherited seat's bot plays at `number`, worked out once: the bot draws from its random stream
    /// for each move it chooses, so a move offered twice for the same number (a resend, a catch-up) must not move
    /// it on twice. Every member, the heir included, goes through here.
    mutating func heirMove(seat: Int, number: Int, kind: String) throws(MoveError) -> AnyGameMove {
        if let known = play?.heirMoves[seat], known.number == number { return known.move }
        guard let s = session else { throw MoveError(.gameOver, "no game") }
        let move = try s.heirBotMove(kind: kind, seat: seat)
        play?.heirMoves[seat] = HeirMove(number: number, move: move)
        return move
    }

    /// Whether another member's move for an inherited seat is the one its bot plays there; false after refusing it.
    /// Only a move due now is checked (`due`): one that is stale or early is refused by the sequencer anyway, and
    /// asking the bot at the wrong point would move its stream on.
    /// Not at a sealed table: the others cannot see the seat's hand the bot plays from (§14.11).
    mutating func heirBotAgrees(seat: Int, number: Int, move: AnyGameMove, from: NodeID, due: Bool) -> Bool {
        guard from != me, due, !info.isSealed, let kind = inheritedBot(seat) else { return true }
        let expected: AnyGameMove
        do { expected = try heirMove(seat: seat, number: number, kind: kind) } catch { return true }
        guard expected != move else { return true }
        heirMovesRefused += 1
        reject(
            number, .illegal,
            "seat \(seat) passed to \(kind): its move \(number) is \(expected.json.jsonText), not \(move.json.jsonText)",
            from: from)
        return false
    }
}
