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
        // A seat that fled keeps some cards of the kinds its flee allowed: those come first, from the shuffled pool
        // in order, then every hand is filled from what is left, in order; the rest is the draw pile. Seats whose
        // kinds overlap can leave a later one short: then the pool is shuffled again, a few times at most.
        var taken: UInt64 = 0
        precondition(pool.count <= 64)
        func dealClued() -> Bool {
            hands = SpiritsHands()
            hands[obs.seat] = obs.hand
            taken = 0
            var short = false
            for s in 0..<obs.players where s != obs.seat {
                let mask = obs.fleeClues.allowed(s)
                var need = obs.fleeClues.heldAtLeast(s, handSize: obs.handSizes[s])
                var i = 0
                while need > 0 && i < pool.count {
                    if taken & (1 << i) == 0 && mask.contains(pool[i]) {
                        taken |= 1 << i
                        hands[s].insert(pool[i])
                        need -= 1
                    }
                    i += 1
                }
                short = short || need > 0
            }
            return !short
        }
        var reshuffles = 0
        while !dealClued() && reshuffles < Self.clueReshuffles {
            rng.shuffle(&pool)
            reshuffles += 1
        }
        var next = 0
        for s in 0..<obs.players where s != obs.seat {
            while hands[s].total < obs.handSizes[s] && next < pool.count {
                if taken & (1 << next) == 0 {
                    taken |= 1 << next
                    hands[s].insert(pool[next])
                }
                next += 1
            }
        }
        var drawPile: [SpiritsCard] = []
        drawPile.reserveCapacity(pool.count - taken.nonzeroBitCount)
        for i in pool.indices where taken & (1 << i) == 0 { drawPile.append(pool[i]) }
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
        fleeClues = obs.fleeClues
        lastPlays = obs.lastPlays
    }

    /// How many times a sampled deal is shuffled again when it cannot give every seat that fled the cards its flee
    /// says it kept; after that the deal stands as it is.
    static let clueReshuffles = 16
}
