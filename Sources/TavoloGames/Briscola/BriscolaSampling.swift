import TavoloCore

extension BriscolaState {
    /// A full state consistent with `obs`: the unseen cards dealt at random to the other hands and the pile
    /// (the face-up trump goes back to whoever drew it, if unplayed). Used by bots that sample hidden cards,
    /// and by tests that check a bot decides from the observation alone. Its `dealtDeck` is not a real deal.
    ///
    /// In chiamata, `partner` (when the seat does not know it) names the seat given the called card; otherwise
    /// the called card lands wherever the shuffle puts it.
    public init(sampling obs: BriscolaObservation, partner: Int? = nil, rng: inout TavoloRNG) {
        var unseen = obs.unseen
        let p = obs.players
        var hands = Array(repeating: CardSet(), count: p)
        hands[obs.seat] = obs.hand
        func place(_ card: Card, with seat: Int) {
            guard seat != obs.seat, unseen.contains(card) else { return }
            unseen.remove(card)
            hands[seat].insert(card)
        }
        if !obs.trumpFaceUp, let t = obs.trumpCard, let holder = obs.trumpDrawnBy { place(t, with: holder) }
        if let called = obs.calledCard, let holder = obs.partner ?? partner { place(called, with: holder) }
        var pool = Array(unseen)
        rng.shuffle(&pool)
        var next = 0
        for seat in 0..<p where seat != obs.seat {
            while hands[seat].count < obs.handCounts[seat] && next < pool.count {
                hands[seat].insert(pool[next])
                next += 1
            }
        }
        let pile = Array(pool[next...])
        playerCount = p
        seed = 0
        dealtDeck = Self.sampledDeck(players: p, trumpCard: obs.trumpCard, pile: pile)
        dealer = obs.dealer
        trumpCard = obs.trumpCard
        trumpSuit = obs.trumpSuit
        self.hands = hands
        captured = obs.captured
        table = obs.table
        leader = obs.leader
        drawn = dealtDeck.count - Self.dealSize(players: p) * p - obs.pileCount
        trumpDrawnBy = obs.trumpDrawnBy
        current = obs.turn ?? obs.leader
        moveNumber = obs.moveNumber
        isOver = obs.turn == nil
        chiamata = obs.phase.map { phase in
            var c = ChiamataPart()
            c.phase = phase
            c.auction = obs.auction ?? []
            c.declarer = obs.declarer
            c.calledCard = obs.calledCard
            c.partner = obs.partner ?? obs.calledCard.flatMap { card in (0..<p).first { hands[$0].contains(card) } }
            c.partnerRevealed =
                obs.calledCard.map { card in obs.captured.contains { $0.contains(card) } || obs.table.contains(card) }
                ?? false
            c.tricks = obs.tricks ?? []
            return c
        }
    }

    /// A deck that puts `pile` last and the face-up card in its place: the dealt and played cards first, in any
    /// order (only the pile's order matters from here on).
    static func sampledDeck(players: Int, trumpCard: Card?, pile: [Card]) -> [Card] {
        var rest = CardSet(deck(players: players))
        for c in pile { rest.remove(c) }
        guard let t = trumpCard else { return Array(rest) + pile }
        rest.remove(t)
        var head = Array(rest)
        head.insert(t, at: handSize * players)
        return head + pile
    }
}
