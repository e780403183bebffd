import TavoloCore

// Moves described for people. `describe` is what every seat saw happen: the card played (public once played),
// the Fear total, the direction, ghosts; never a hand, a drawn card or a deal. `transcriptLine` is the omniscient
// view of `tavolo playout spirits --transcript` (deals, draws, the hand of a player who flees): a tool for checking
// games, never sent to a player.

extension SpiritsState {
    public func describe(_ move: SpiritsMove) -> String { describe(move, revealing: false) }

    public func transcriptLine(_ move: SpiritsMove) -> String { describe(move, revealing: true) }

    func describe(_ move: SpiritsMove, revealing: Bool) -> String {
        var after = self
        // A flee's "no legal card" is taken on trust, as a sealed deck's public rules take it (§14.10): a sealed
        // node's state is a completion whose unseen cards are placeholders, so checking that hand would call a
        // flee every seat saw rejected.
        do { try after.apply(move, trustingFlee: true) } catch { return "\(move) (rejected: \(error))" }
        var lines: [String] = []
        if moveNumber == 0 { lines += roundStartLines(reason: "chosen at random", revealing: revealing) }
        var text = ""
        switch move {
        case .play(let card) where phase == .open:
            text = "opens a challenge with \(card): Fear \(card.value)"
        case .play(let card):
            if let top, top.colourIndex == card.colourIndex {
                text =
                    "plays \(card), a mirror of \(top): Fear stays \(fear); direction reverses to \(Self.directionName(!clockwise))"
            } else {
                text = "plays \(card), a new spirit: Fear \(fear) + \(card.value) = \(fear + card.value)"
            }
        case .flee(let card):
            let topName = top.map(\.description) ?? "-"
            let hand = revealing ? ", hand \(hands[turnSeat].listing)" : ""
            text =
                "has no legal card (top \(topName), Fear \(fear)\(hand)): flees, "
                + "takes a ghost (\(roundGhosts[turnSeat] + 1) this round, \(ghosts[turnSeat] + 1) held), "
                + "pile cleared, opens a new challenge with \(card): Fear \(card.value)"
        }
        if drawIndex < SpiritsCard.deckSize {
            let drawn = revealing ? "\(dealtDeck[drawIndex])" : "a card"
            text += "; draws \(drawn) (draw pile \(drawPileSize - 1))"
        } else {
            text += "; draw pile empty, no draw"
        }
        let cwAfter =
            move.isFlee || phase == .open ? clockwise : (top?.colourIndex == move.card.colourIndex) != clockwise
        let next = seat(after: turnSeat, clockwise: cwAfter)
        let roundEnded = after.phase == .over || after.round != round
        if !roundEnded {
            text += "; next seat \(next)"
            lines.append(text)
        } else {
            text += "; seat \(next) has no cards: round \(round) ends"
            lines.append(text)
            lines += roundEndLines(after: after, move: move)
            if after.phase != .over { lines += after.roundStartLines(reason: "most ghosts", revealing: revealing) }
        }
        return lines.joined(separator: "\n     ")
    }

    static func directionName(_ cw: Bool) -> String { cw ? "clockwise" : "counter-clockwise" }

    func roundStartLines(reason: String, revealing: Bool) -> [String] {
        let start = "round \(round) begins: seat \(roundStarter) starts (\(reason)), clockwise"
        guard revealing else { return [start + "; \(SpiritsState.handSize) cards each, draw pile \(drawPileSize)"] }
        let deal = (0..<playerCount).map { "seat \($0) \(hands[$0].listing)" }.joined(separator: " | ")
        return [start, "deal: \(deal); draw pile \(drawPileSize)"]
    }

    private func roundEndLines(after: SpiritsState, move: SpiritsMove) -> [String] {
        var taken = roundGhosts
        if move.isFlee { taken.increment(turnSeat) }
        var returns: [String] = []
        for s in 0..<playerCount {
            let held = ghosts[s] + (move.isFlee && s == turnSeat ? 1 : 0)
            let back = held - after.ghosts[s]
            if taken[s] == 0 {
                returns.append("seat \(s) lost no challenge and returns \(back) (\(held) → \(after.ghosts[s]))")
            }
        }
        let takenText = (0..<playerCount).map { "seat \($0) \(taken[$0])" }.joined(separator: ", ")
        let heldText = (0..<playerCount).map { "seat \($0) \(after.ghosts[$0])" }.joined(separator: ", ")
        var lines = ["remaining cards discarded; ghosts taken this round: \(takenText)"]
        if !returns.isEmpty { lines.append(returns.joined(separator: "; ")) }
        lines.append("ghosts held: \(heldText)")
        return lines
    }
}
