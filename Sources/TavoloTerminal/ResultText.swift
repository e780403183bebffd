import TavoloCore
import TavoloGames

/// How a finished game came out, by seat owner and name: "you" only for the person's own seat, never for a bot
/// of the person's node.
public enum ResultText {
    public static func lines(_ s: TableSnapshot) -> [Line] {
        let winners = s.winners ?? []
        var out: [Line] = []
        if winners.isEmpty {
            out.append(Line("Draw: nobody wins.", .accent))
        } else {
            let names = winners.map { s.name(of: $0) }.joined(separator: ", ")
            out.append(Line((winners.count > 1 ? "Winners: " : "Winner: ") + names, .accent))
        }
        if let me = s.mySeat {
            if winners.contains(me) {
                out.append(Line("You won.", .good))
            } else if !winners.isEmpty {
                out.append(Line("You lost.", .alert))
            }
        }
        if let (title, entries) = scoreList(s) {
            out.append(Line(title + ":", .bold))
            for e in entries { out.append(Line("  " + e)) }
        }
        if let deck = s.deck {
            out.append(
                Line(deck.prefix(1).uppercased() + deck.dropFirst() + ".", deck == "deck verified" ? .good : .alert))
        }
        return out
    }

    /// `Ghosts (lower is better)` and one entry per seat: `seat 0 you 16`.
    static func scoreList(_ s: TableSnapshot) -> (String, [String])? {
        guard let scores = s.scores, !scores.isEmpty else { return nil }
        let entry = GameCatalog.standard[s.game]
        let what = entry?.scoreName ?? "score"
        let order = entry?.lowerScoreIsBetter == true ? " (lower is better)" : ""
        let list = scores.enumerated().map { i, v in
            "seat \(i) \(s.seats.indices.contains(i) ? (i == s.mySeat ? "you" : s.seats[i].who) : "") \(v)"
        }
        return (what.prefix(1).uppercased() + what.dropFirst() + order, list)
    }

    /// One line for the line mode and logs: `Winner: seat 1 — bob. You lost. Ghosts (lower is better): …`.
    public static func oneLine(_ s: TableSnapshot) -> String {
        var parts = lines(s).prefix(2).map(\.text).filter { !$0.hasSuffix(":") }
        if let (title, entries) = scoreList(s) { parts.append(title + ": " + entries.joined(separator: " · ")) }
        if let deck = s.deck { parts.append(deck.prefix(1).uppercased() + deck.dropFirst() + ".") }
        return parts.joined(separator: " ")
    }
}
