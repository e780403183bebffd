import TavoloGames

// Briscola chiamata (5 players) on the terminal: the auction, the called card, and the partner only as far as
// this seat may know it (its observation says so: the partner is there only for the partner, or once revealed).

extension BriscolaBoard {
    static let bidsPerLine = 6

    /// What wins: over 60 (2 and 4 players), the most points (3), the declarer's target (5).
    var goal: String {
        switch obs.players {
        case 3: "the most of 120 wins"
        case 5: "the declarer's side needs \(obs.target ?? 61) of 120"
        default: "over 60 of 120 wins"
        }
    }

    /// The auction so far, or the call and the trump.
    var chiamataLines: [Line] {
        var out: [Line] = []
        var auction = Line("Auction   ", .bold)
        let entries = obs.auction ?? []
        if entries.isEmpty { auction.append("no bid yet — seat \((obs.dealer + 1) % obs.players) opens", .dim) }
        for (i, e) in entries.enumerated() {
            if i > 0 && i % Self.bidsPerLine == 0 {
                out.append(auction)
                auction = Line("          ")
            } else if i > 0 {
                auction.append(", ")
            }
            auction.append("seat \(e.seat) " + (e.chiamataBid.map { "\($0)" } ?? "passes"))
        }
        out.append(auction)
        if let called = obs.calledCard, let d = obs.declarer {
            var call = Line("Called    ", .bold) + Self.card(called)
            call.append(" by seat \(d)\(d == obs.seat ? " (you)" : "") · trump ")
            call = call + Span(called.suit.name.uppercased(), Style(foreground: Self.colour(called.suit), bold: true))
            out.append(call)
            out.append(Line("Partner   ", .bold) + Span(partnerText(declarer: d)))
        } else if let d = obs.declarer {
            out.append(Line("Declarer  ", .bold) + Span("seat \(d)\(d == obs.seat ? " (you)" : "") is calling a card"))
        }
        if let points = obs.gamePoints {
            let text = points.enumerated().map { "seat \($0.offset): \($0.element > 0 ? "+" : "")\($0.element)" }
            out.append(Line("Game pts  ", .bold) + Span(text.joined(separator: " · ")))
        }
        return out
    }

    func partnerText(declarer d: Int) -> String {
        guard let p = obs.partner else { return "secret until the called card is played" }
        if p == d {
            return obs.seat == d ? "none: you called your own card and play alone" : "none: seat \(d) plays alone"
        }
        guard p == obs.seat else { return "seat \(p)" }
        let secret = obs.calledCard.map { obs.hand.contains($0) } ?? false
        return secret
            ? "you (nobody else knows until you play the called card)"
            : "you (everyone knows: you played the called card)"
    }

    /// A seat's role once known to this seat: declarer, partner, or (partner known) defender.
    func chiamataRole(_ seat: Int, mySeat: Int?) -> String {
        guard let d = obs.declarer else { return "" }
        if seat == d { return " · declarer" }
        if let p = obs.partner { return seat == p ? " · partner" : " · defender" }
        return ""
    }
}
