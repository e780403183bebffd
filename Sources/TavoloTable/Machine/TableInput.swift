import TavoloCore
import TavoloProtocol

/// What a table machine reacts to. Everything that happens to a table arrives as one of these, in order.
public enum TableInput: Sendable {
    /// A table message from another node; `from` is the connection it came on, never a field.
    case message(TableMessage, from: NodeID)
    /// A peer's session was established.
    case peerConnected(NodeID)
    /// A peer's session was lost.
    case peerLost(NodeID)
    /// A timer the machine started fired.
    case timer(TableTimer)
}

/// A local user's request on one table (control socket).
public enum TableRequest: Sendable {
    /// Seat me (a human, or my bot of `bot` kind) at `seat` or at any free seat.
    case join(seat: Int?, bot: String?)
    /// Host: every free seat gets a host bot of `bot` kind.
    case fill(bot: String)
    /// Host: reserve `seat` for the connected node `node`.
    case invite(seat: Int, node: NodeID, name: String)
    /// Host: the table is full; start seeding.
    case start
    /// Play `move` (the game's move as JSON) for this node's human seat that is to play.
    case move(JSONValue)
    /// Free my seats before the start, abandon the game after.
    case leave
    /// Test only: send this raw message to the table as this node, as a misbehaving peer would.
    case inject(TableMessage)
}

/// Timers a table machine asks its shell for.
public enum TableTimer: Hashable, Sendable {
    /// A finished or stopped table is dropped from the lobby.
    case expire(TableID)
    /// Seeding began here: every participant's commitment and nonce must be in by then (PROTOCOL.md §9.8).
    case seeding(TableID)
    /// This node asked the host for a seat: the host must answer (an offer or a refusal) by then.
    case seatRequest(TableID)
    /// This node sent move `number`: every member's confirmation should be in by then (reported, not fatal).
    case confirmations(TableID, move: Int)
    /// This node sent its result: every member's result must be in by then.
    case results(TableID)
    /// This node needs the host's deal `number` to go on: it must be in by then.
    case deal(TableID, number: Int)
    /// Move `number` is for another node's bot seat: it must be in by then.
    case botMove(TableID, number: Int)
    /// Simultaneous games: this node's bot at `seat` plays its next move now (the bot's pace, §10.5).
    case raceBot(TableID, seat: Int)

    /// The table the timer belongs to.
    public var table: TableID {
        switch self {
        case .expire(let id), .seeding(let id), .seatRequest(let id), .confirmations(let id, _), .results(let id),
            .deal(let id, _), .botMove(let id, _), .raceBot(let id, _):
            id
        }
    }
}
