import TavoloGames

/// Briscola for one seat: the trump, the trick on the table, points so far (by partnership with 4), the hand.
struct BriscolaBoard: GameBoard {
    let obs: BriscolaObservation

    init(_ obs: BriscolaObservation) { self.obs = obs }

    /// Three cards fit a line; the eight of chiamata, with their notes, two a line.
    var cardsPerLine: Int { obs.hand.count > 3 ? 2 : 3 }

    static func colour(_ s: Suit) -> UInt8 {
        switch s {
        case .coppe: 196
        case .denari: 220
        case .spade: 39
        case .bastoni: 34
        }
    }

    /// `Asso di Coppe (1C)` in its suit's colour.
    static func card(_ c: Card, _ extra: Style = .plain) -> Span {
        Span("\(c.name) (\(c.code))", Style(foreground: colour(c.suit), bold: true).merged(extra))
    }

    var headline: String {
        if obs.turn == nil { return "game over" }
        switch obs.phase {
        case .bidding: return "auction"
        case .calling: return "the declarer calls a card"
        case .playing: return "trick \((obs.tricks?.count ?? 0) + 1) of 8"
        case nil:
            let cards = obs.players == 3 ? 39 : 40
            return "trick \(obs.moveNumber / obs.players + 1) of \(cards / obs.players)"
        }
    }

    /// A move as a terminal option: a card to play, a bid, a pass or a call.
    static func option(_ m: BriscolaMove, json: [UInt8]) -> MoveOption {
        switch m.action {
        case .play(let c): MoveOption(json: json, key: c.code, label: "\(c.name) (\(c.code))")
        case .bid(let b):
            MoveOption(
                json: json, key: b.isPointsBid ? "bid \(b.target)" : "bid \(b)", label: "bid \(b) (need \(b.target))")
        case .pass: MoveOption(json: json, key: "pass", label: "pass (out of the auction)")
        case .call(let c): MoveOption(json: json, key: "call \(c.code)", label: "call the \(c.name) (\(c.code))")
        }
    }

    func lines(options: [MoveOption], selected: Int?) -> [Line] {
        var out: [Line] = []
        if obs.phase != nil { out += chiamataLines }
        if let trumpLine { out.append(trumpLine) }
        out += trickAndHandLines(options: options, selected: selected)
        return out
    }

    /// The trump line of 2–4 players (the face-up card and the pile); nil in chiamata (its own lines say it).
    var trumpLine: Line? {
        guard let trumpCard = obs.trumpCard else { return nil }
        var trump =
            Line("Trump     ", .bold)
            + Span(trumpCard.suit.name.uppercased(), Style(foreground: Self.colour(trumpCard.suit), bold: true))
        trump.append(" — ")
        trump = trump + Self.card(trumpCard)
        if obs.trumpFaceUp {
            trump.append(
                " face up under the pile, drawn last · pile \(obs.pileCount) card\(obs.pileCount == 1 ? "" : "s")")
        } else {
            trump.append(obs.trumpDrawnBy.map { " drawn by seat \($0) · pile empty" } ?? " · pile empty")
        }
        return trump
    }

    func trickAndHandLines(options: [MoveOption], selected: Int?) -> [Line] {
        var out: [Line] = []
        if obs.phase == .bidding || obs.phase == .calling { return handLines(options: options, selected: selected) }
        var table = Line("On table  ", .bold)
        if obs.table.isEmpty {
            table.append("nothing yet — seat \(obs.turn ?? obs.leader) leads the next trick")
        } else {
            for (i, c) in obs.table.enumerated() {
                if i > 0 { table.append(", ") }
                table.append("seat \((obs.leader + i) % obs.players) ")
                table = table + Self.card(c)
            }
            if let trump = obs.trumpSuit {
                let best = BriscolaState.winningIndex(obs.table, trump: trump)
                table.append("  (seat \((obs.leader + best) % obs.players) takes it so far)", .dim)
            }
        }
        out.append(table)
        out.append(Line("Points    ", .bold) + Span(pointsText + "  (\(goal))"))
        return out + handLines(options: options, selected: selected)
    }

    func handLines(options: [MoveOption], selected: Int?) -> [Line] {
        var out: [Line] = []
        var hand = Line("Your hand ", .bold)
        let chosen = selected.flatMap { options.indices.contains($0) ? options[$0].key : nil }
        for (i, c) in obs.hand.enumerated() {
            if i > 0 && i % cardsPerLine == 0 {
                out.append(hand)
                hand = Line("          ")
            } else if i > 0 {
                hand.append("  ")
            }
            var extra = Style(underline: !options.isEmpty)
            if c.code == chosen { extra = .inverse }
            hand = hand + Self.card(c, extra)
            var notes: [String] = []
            if c.points > 0 { notes.append("\(c.points) pt") }
            if c.suit == obs.trumpSuit { notes.append("trump") }
            if c == obs.calledCard {
                notes.append(obs.declarer == obs.seat ? "called: you play alone" : "called: you are the partner")
            }
            if !notes.isEmpty { hand.append(" " + notes.joined(separator: ", "), .dim) }
        }
        if obs.hand.isEmpty { hand.append("empty", .dim) }
        out.append(hand)
        return out
    }

    var pointsText: String {
        let p = obs.capturedPoints
        if obs.players == 5 { return (0..<5).map { "seat \($0): \(p[$0])" }.joined(separator: " · ") }
        if obs.players == 4 {
            let mine = obs.seat % 2
            let a = p[0] + p[2]
            let b = p[1] + p[3]
            return
                "seats 0+2\(mine == 0 ? " (your side)" : ""): \(a) · seats 1+3\(mine == 1 ? " (your side)" : ""): \(b)"
        }
        return (0..<obs.players).map { "seat \($0): \(p[$0])" }.joined(separator: " · ")
    }

    func seatDetail(_ seat: Int, of snapshot: TableSnapshot) -> String {
        guard seat < obs.players else { return "" }
        var s = "hand \(obs.handCounts[seat]) · won \(obs.capturedPoints[seat]) pt"
        if obs.phase != nil { s += chiamataRole(seat, mySeat: snapshot.mySeat) }
        if obs.players == 4 {
            let partner = (seat + 2) % 4
            let name = snapshot.seats.indices.contains(partner) ? snapshot.seats[partner].who : "free"
            s += " · partner: \(partner == snapshot.mySeat ? "you" : "seat \(partner) \(name)")"
        }
        return s
    }
}
