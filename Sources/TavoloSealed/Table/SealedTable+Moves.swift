import TavoloCore

/// A card played, and the draws a move makes (PROTOCOL.md §14.8 steps 4 and 5): the mover's `open` proves the card is
/// the one at a position its seat holds; every member opens it, and then sends its shares of the positions the move
/// drew to a seat it does not own.
extension SealedTable {
    /// A card's opening (`table.sealed-open`, §14.7): the position of the card played and the mover's share of it.
    public typealias CardOpening = SealedMessage.PositionShare

    /// The `open` this node's seat `seat` sends with `move`: the first position it holds whose card the move plays.
    /// Nil when the move plays no card; a `SealedFault` when the seat holds no such card (this node's own bug).
    public func opening(seat: Int, move: AnyGameMove) throws(SealedFault) -> CardOpening? {
        guard let played = local.sealedCardsPlayed(by: move) else { return nil }
        guard let view = current, owns(seat: seat), let mover = actingSecret(seatMembers[seat]),
            let position = view.positions(of: seat).first(where: { view.knownCards[$0].map(played.contains) == true }),
            let share = view.deal.shares(of: mover, positions: [position]).first?.share
        else { throw SealedFault(.wrongCard, member: me, "seat \(seat) holds no card \(move) plays") }
        return CardOpening(position: position, share: share)
    }

    /// `wrongCard`: the opening this node sends with its first card move instead of the true one: another position
    /// its seat holds, with this node's true share of that position. Nil when it does not cheat (or cannot).
    public mutating func falseOpening(seat: Int, true opening: CardOpening) -> CardOpening? {
        guard cheats.contains(.wrongCard), let view = current, let secret,
            let other = view.positions(of: seat).first(where: { $0 != opening.position }),
            let share = view.deal.shares(of: secret, positions: [other]).first?.share
        else { return nil }
        cheats.remove(.wrongCard)
        return CardOpening(position: other, share: share)
    }

    /// Opens the card `move` of `seat` plays with `opening`, this node's own move included, before the move is
    /// applied: the position must be one the seat holds, the share must verify against the mover's key, and the card
    /// must be one the move plays. Then the card is public, out of the seat's hand, and `common` is rebuilt with it.
    /// False while a share the card needs has not arrived (the move waits); a lie throws, naming the mover (or the
    /// member whose share was false).
    public mutating func openPlay(seat: Int, move: AnyGameMove, opening: CardOpening?) throws(SealedFault) -> Bool {
        let mover = seatMembers[seat]
        guard let played = common.sealedCardsPlayed(by: move) else {
            guard opening == nil else { throw SealedFault(.wrongCard, member: mover, "an open on a move with no card") }
            return true
        }
        // No card of a deal opens before its deck is final here and its open positions are known (§14.8 step 3).
        guard let d = deals.indices.last, deals[d].deal.finalDeck != nil,
            deals[d].openPositions.allSatisfy({ deals[d].publicCards[$0] != nil })
        else { return false }
        guard let opening, deals[d].holders[opening.position] == seat else {
            throw SealedFault(.wrongCard, member: mover, "the card played is not from a position seat \(seat) holds")
        }
        let p = opening.position
        if mover != me {
            do { try deals[d].deal.acceptShares(from: mover, [(p, opening.share)]) } catch {
                throw SealedFault(.wrongCard, member: mover, "the card's share does not verify: \(error.detail)")
            }
        }
        guard let card = try deals[d].deal.open(p, with: actingSecrets) else { return false }
        guard played.contains(card) else {
            throw SealedFault(
                .wrongCard, member: mover, "position \(p) holds card \(card), which \(move) does not play")
        }
        deals[d].publicCards[p] = card
        deals[d].privateCards[p] = nil
        deals[d].holders[p] = nil
        playedCards[moves.count] = PlayedCard(deal: d + 1, position: p, mover: mover)
        try rebuildCommon()
        return true
    }

    /// The move was applied to `common` by the table's sequencer: it is kept, the positions it drew change hands,
    /// `local` catches up, and a new deal begins when the game reached one. Messages to send: this node's shares for
    /// the drawn positions of other members' seats (`shareOut`), and its shuffle of a new deal when it is member 0.
    public mutating func applied(_ move: AnyGameMove) throws(SealedFault) -> [SealedMessage] {
        moves.append(move)
        guard let d = deals.indices.last else { return [] }
        var owed: [Int] = []
        for draw in common.sealedLastDraws {
            guard let seat = draw.seat else { continue }
            deals[d].holders[draw.position] = seat
            if deals[d].publicCards[draw.position] == nil { owed.append(draw.position) }
        }
        var out = try shareOut(d, positions: owed)
        // `local` catches up with the move: rebuilt by `openKnown` when it opened a card, else here.
        if try !openKnown(d) { try rebuildLocal() }
        out += try beginDealIfDue()
        return out
    }
}
