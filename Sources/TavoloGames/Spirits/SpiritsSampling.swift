import TavoloCore

extension SpiritsState {
    /// A full state consistent with `obs`: the cards the seat cannot see (other hands and the draw pile) dealt at
    /// random to the other hands, at their sizes, and to the draw pile in a random order. Used by the searching
    /// bot, and by tests that check a bot decides from the observation alone.
    ///
    /// The game's own generator decides the later rounds' deals, so a copy of it would tell a bot the cards it is
    /// yet to be dealt: the sampled state gets a generator seeded from `rng` instead, and its later rounds are as
    /// unknown to it as they are to the seat. `dealtDeck` is not a real deal (the cards already out of the pile come
    /// first, in kind order) and `moveNumber` is 0: an observation tells neither.
    public init(sampling obs: SpiritsObservation, rng: inout TavoloRNG) {
        var pool = obs.unseen.cards
        rng.shuffle(&pool)
        var hands = SpiritsHands()
        hands[obs.seat] = obs.hand
        var next = 0
        for s in 0..<obs.players where s != obs.seat {
            let size = min(obs.handSizes[s], pool.count - next)
            hands[s] = SpiritsCardCounts(pool[next..<(next + size)])
            next += size
        }
        let drawPile = pool[next...]
        var dealt = SpiritsCardCounts.fullDeck
        for card in drawPile { dealt.remove(card) }
        playerCount = obs.players
        round = obs.round
        phase = obs.phase
        turnSeat = obs.turn ?? 0
        roundStarter = obs.turn ?? 0
        clockwise = obs.clockwise
        fear = obs.fear
        top = obs.top
        moveNumber = 0
        self.rng = TavoloRNG(seed: rng.next())
        dealtDeck = dealt.cards + drawPile
        drawIndex = SpiritsCard.deckSize - drawPile.count
        self.hands = hands
        ghosts = obs.ghosts
        roundGhosts = obs.roundGhosts
        pile = obs.pile
        removed = obs.removed
    }
}
