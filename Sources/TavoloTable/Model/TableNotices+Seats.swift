/// Leaving and seats that pass to a bot, in words (issue 34: leaving once said three different things, and the bot
/// that took a seat was "bob's bot", then announced as the winner under that name). One set of texts for
/// `tavolo leave`, `tavolo play`, `tavolo watch`, `tavolo state` and the page.
extension TableNotices {
    /// What leaving does: `tavolo leave --help`, and what `tavolo play` and the page say before one leaves.
    public static let leaveHelp =
        "Leave a table. Before the game starts your seat is freed; during a game you forfeit: it counts as lost "
        + "for you, and a bot of another player's node plays your seats to the end."

    /// A person's own node stopped under them (its control socket or the page's link closed): the start of what
    /// `tavolo play`, `tavolo watch` and the page (app.js, whose copy WebAssetsTests checks) say, each then telling
    /// its own way back. The seats wait: a member lost during a game has the table's grace period to come back.
    public static let ownNodeStopped =
        "Your node stopped. Your seats wait for you for the table's grace period: start tavolod again"

    /// A seat a bot plays: `bot (greedy) for bob` (bob's node runs it).
    public static func bot(_ kind: String, for owner: String) -> String { "bot (\(kind)) for \(owner)" }

    /// Who plays each seat, for every client to show alike: `bob`, `bot (greedy) for bob`, `free`, and a seat whose
    /// owner left but whose move has not come yet `alice (left: bot (greedy) for bob takes over)`.
    public static func seatNames(_ state: TableState) -> [String] {
        state.info.seats.map { seat in
            if let d = state.departures?.first(where: { $0.seats.contains(seat.seat) }) {
                let how = d.forfeit ? "left" : "gone"
                return "\(d.memberName) (\(how): \(bot(d.bot, for: d.heirName)) takes over)"
            }
            guard let owner = seat.ownerName else { return seat.invited.map { "reserved for \($0)" } ?? "free" }
            return seat.bot.map { bot($0, for: owner) } ?? owner
        }
    }

    /// The leaver's own line: `You left the game: it counts as lost for you; bot (greedy) for bob plays seat 1 on`
    /// (nothing about a bot when nobody else was at the table to take the seat).
    public static func youLeft(_ state: TableState) -> String {
        let said = "You left the game: it counts as lost for you"
        guard let d = state.departures?.first(where: { $0.isMe && $0.forfeit }) else { return said }
        return "\(said); \(bot(d.bot, for: d.heirName)) plays \(seatList(d.seats)) on"
    }

    /// Another member's takeover agreed whose seats have not passed yet: `alice left the game (lost for them): bot
    /// (greedy) for bob takes seat 1 now`.
    public static func departure(_ d: TableState.Departure) -> String {
        "\(gone(d.memberName, forfeit: d.forfeit)): \(bot(d.bot, for: d.heirName)) takes \(seatList(d.seats)) now"
    }

    /// Seats that passed: `alice left the game (lost for them): bot (greedy) for bob plays seat 1 from move 13`.
    public static func takeover(_ t: GameLog.LoggedTakeover, in state: TableState) -> String {
        let heir = t.seats.first.flatMap { state.info.seats[safe: $0]?.ownerName } ?? "another member"
        return "\(gone(t.memberName, forfeit: t.forfeit)): \(bot(t.bot, for: heir)) plays \(seatList(t.seats)) "
            + "from move \(t.appliedAt + 1)"
    }

    /// `alice left the game (lost for them)`, `alice did not come back in time`.
    static func gone(_ name: String, forfeit: Bool) -> String {
        forfeit ? "\(name) left the game (lost for them)" : "\(name) did not come back in time"
    }
}
