import TavoloGames

/// Spirits! for one seat: Fear total against 7, the pile, direction, the draw pile, the seat's hand.
struct SpiritsBoard: GameBoard {
    let obs: SpiritsObservation
    /// The pile in the order played, its top last.
    let pile: [SpiritsCard]

    /// `played`: the cards of the table's newest moves, oldest first (`TableSnapshot.playedMoves`).
    init(_ obs: SpiritsObservation, played: [SpiritsCard] = []) {
        self.obs = obs
        self.pile = obs.pileInPlayOrder(newestMoves: played)
    }

    /// xterm-256 colours of the six ghost colours.
    static func colour(_ c: SpiritsColour) -> UInt8 {
        switch c {
        case .red: 196
        case .orange: 208
        case .yellow: 226
        case .green: 40
        case .blue: 33
        case .purple: 129
        }
    }

    /// `[R3]` in its colour: the letter stays for colour-blind players and screens without colour.
    static func card(_ c: SpiritsCard, _ extra: Style = .plain) -> Span {
        Span("[\(c)]", Style(foreground: colour(c.colour), bold: true).merged(extra))
    }

    var headline: String { obs.phase == .over ? "game over" : "round \(obs.round) of \(SpiritsState.rounds)" }

    func lines(options: [MoveOption], selected: Int?) -> [Line] {
        if obs.phase == .over { return [Line("All \(SpiritsState.rounds) rounds are played.")] }
        var out: [Line] = []
        let order = (0..<obs.players).map(String.init).joined(separator: obs.clockwise ? " → " : " ← ")
        out.append(
            Line("Direction ", .bold)
                + Span(
                    obs.clockwise ? "clockwise (ascending seats: \(order))" : "counter-clockwise (\(order), backwards)")
        )
        let filled = String(repeating: "#", count: min(obs.fear, SpiritsState.maxFear))
        let empty = String(repeating: ".", count: max(0, SpiritsState.maxFear - obs.fear))
        let fearStyle: Style = obs.fear >= 6 ? .alert : .accent
        out.append(
            Line("Fear      ", .bold) + Span("\(obs.fear) / \(SpiritsState.maxFear) ", fearStyle)
                + Span("[\(filled)\(empty)]", fearStyle) + Span("  (a new spirit must keep it at 7 or less)", .dim))
        var pile = Line("Pile      ", .bold)
        if obs.pile.isEmpty {
            pile.append("empty — the next player opens a challenge with any card")
        } else {
            // In the order played, the top (the card the next one answers) last.
            for c in self.pile { pile = pile + Self.card(c) + Span(" ") }
            if let top = obs.top {
                pile.append(" top ")
                pile = pile + Self.card(top) + Span(" \(top.longName): same colour mirrors, other colours add", .dim)
            }
        }
        out.append(pile)
        out.append(
            Line("Draw pile ", .bold)
                + Span(
                    "\(obs.drawPileSize) card\(obs.drawPileSize == 1 ? "" : "s") · out this round: \(obs.removed.total)"
                ))
        out.append(handLine(options: options, selected: selected))
        if let first = options.first, first.label.hasPrefix("flee") {
            out.append(
                Line(
                    "No card of yours is legal: you flee (take a ghost) and open a new challenge with the card you choose.",
                    .alert))
        }
        return out
    }

    func handLine(options: [MoveOption], selected: Int?) -> Line {
        var line = Line("Your hand ", .bold)
        if obs.hand.isEmpty { return line + Span("empty", .dim) }
        let legal = Set(options.map(\.key))
        let chosen = selected.flatMap { options.indices.contains($0) ? options[$0].key : nil }
        var marked = false
        for c in obs.hand.cards {
            var extra = Style.plain
            if !legal.isEmpty { extra = legal.contains(c.description) ? Style(underline: true) : .dim }
            if !marked && c.description == chosen {
                extra = .inverse
                marked = true
            }
            line = line + Self.card(c, extra) + Span(" ")
        }
        return line
    }

    func seatDetail(_ seat: Int, of snapshot: TableSnapshot) -> String {
        guard seat < obs.players else { return "" }
        let taken = obs.roundGhosts[seat]
        return "hand \(obs.handSizes[seat]) · ghosts \(obs.ghosts[seat])"
            + (taken > 0 ? " (\(taken) this round)" : "")
    }
}
