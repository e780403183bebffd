import TavoloCore

/// Briscola's `search` bot (and `expert`): the strong bot with more samples, and an exact ending.
///
/// While the pile is long it samples the hidden cards as the strong bot does, `BriscolaStrongBot.searchWorlds` worlds
/// a move; with two players its play-outs are solved exactly once the pile is empty, a win weighs more against the
/// margin, and a world whose opponent's lead is not the one it would likely have made weighs less. With two players
/// and at most `endgamePile` cards left in the pile it stops sampling: it tries every hand the opponent may hold (all equally likely) and plays each of its cards out exactly, the draws being chance nodes
/// over the cards still hidden (`BriscolaEndgame`), so it never plans on knowing which card it will draw.
/// Deterministic: the enumeration follows the observation, the samples the `botRNG` stream it was made with.
public struct BriscolaExpertBot: Bot {
    public var strong: BriscolaStrongBot
    /// The longest pile (face-up trump included) at which the exact ending takes over from sampling.
    public var endgamePile: Int
    /// What a won game is worth on top of the point margin, in the play-outs and the exact ending: 120 (a win
    /// outweighs any margin) rather than the strong bot's 40, since winning is what counts (57.0% against 55.8%
    /// over 400 games, within the noise but not worse).
    public var winBonus = 120
    /// Whether play-outs solve the last tricks exactly once the pile is empty (56.2% against 55.8% over 400 games,
    /// for a quarter more time).
    public var exactAfterPile = true
    /// The weight of a sampled world in which the opponent's lead is not the emulator's: the strong bot leads as the
    /// emulator does more often than not (57.0% against 55.8% over 400 games).
    public var offLeadWeight = 0.3

    /// Four cards: two draws left, 20 hands for the opponent at most. Six would mean up to 56 hands, each with a tree
    /// about 180 times larger (one more trick and a draw of 20 outcomes): estimated far beyond a second a move.
    public static let defaultEndgamePile = 4

    public init(
        rng: TavoloRNG, worlds: Int = BriscolaStrongBot.searchWorlds, endgamePile: Int = Self.defaultEndgamePile,
        kind: String = "search"
    ) {
        strong = BriscolaStrongBot(rng: rng, worlds: worlds, kind: kind)
        self.endgamePile = endgamePile
    }

    public var kind: String { strong.kind }

    public mutating func chooseMove(in state: BriscolaState, seat: Int) -> BriscolaMove {
        let obs = state.observation(for: seat)
        if let auction = ChiamataAuctionView(obs) { return strong.chooseAuctionMove(auction) }
        if obs.players == 2, obs.trumpFaceUp, obs.pileCount <= endgamePile, let trump = obs.trumpCard,
            obs.hand.count > 1
        {
            return BriscolaMove(endgameChoice(obs, trumpCard: trump))
        }
        if obs.players == 2, obs.phase == nil, obs.hand.count > 1, obs.pileCount > 0 {
            return BriscolaMove(sampledChoice(obs))
        }
        return BriscolaMove(strong.choose(obs))
    }

    /// The strong bot's sampling (`BriscolaStrongBot.choose`) with this bot's values: emulator play-outs until the
    /// pile is empty, then (`exactAfterPile`) the rest solved exactly, which in a two-player world is what both
    /// players see; a world is weighted by how likely the opponent's card on the table was from its sampled hand.
    mutating func sampledChoice(_ obs: BriscolaObservation) -> Card {
        let moves = Self.candidates(obs)
        var totals = [Double](repeating: 0, count: moves.count)
        for _ in 0..<strong.worlds {
            let world = BriscolaState(sampling: obs, rng: &strong.rng)
            let weight = leadWeight(obs, world)
            for (i, card) in moves.enumerated() {
                var s = world
                s.play(card)
                totals[i] += weight * Double(playOut(&s, seat: obs.seat))
            }
        }
        return Self.best(moves, totals)
    }

    /// The hand's cards, the emulator's choice first: it wins ties.
    static func candidates(_ obs: BriscolaObservation) -> [Card] {
        var moves = Array(obs.hand)
        if let i = moves.firstIndex(of: BriscolaEmulator.choose(obs)) { moves.swapAt(0, i) }
        return moves
    }

    /// The move with the highest total; the first of those tied.
    static func best(_ moves: [Card], _ totals: [Double]) -> Card {
        var best = 0
        for i in moves.indices.dropFirst() where totals[i] > totals[best] { best = i }
        return moves[best]
    }

    /// Plays `s` out with the emulator (exactly once the pile is empty, with `exactAfterPile`); its value for `seat`.
    func playOut(_ s: inout BriscolaState, seat: Int) -> Int {
        while !s.isOver, let trump = s.trumpSuit {
            if exactAfterPile && s.pileCount == 0 && s.table.isEmpty {
                return Int(exactValue(s, seat: seat))
            }
            let target = s.table.isEmpty ? nil : s.table[BriscolaState.winningIndex(s.table, trump: trump)]
            s.play(BriscolaEmulator.choose(hand: s.hands[s.current], table: target, trump: trump).card)
        }
        return BriscolaStrongBot.value(s, seat: seat, winBonus: winBonus)
    }

    /// The exact value for `seat` of a two-player world with an empty pile, at the start of a trick.
    func exactValue(_ s: BriscolaState, seat: Int) -> Double {
        let p = s.capturedPoints
        let position = BriscolaEndgame(
            hands: (s.hands[seat], s.hands[1 - seat]), pool: CardSet(), trumpInPile: false,
            trumpCard: s.trumpCard ?? Card(uncheckedID: 0), points: (p[seat], p[1 - seat]),
            leader: s.leader == seat ? 0 : 1, led: nil, winBonus: winBonus)
        return position.search(alpha: -Double.infinity, beta: Double.infinity)
    }

    /// How likely the opponent's lead on the table is from its hand in `world`: 1 when it is the emulator's lead
    /// (the strong bot's usual choice), `offLeadWeight` otherwise; 1 when it did not lead.
    func leadWeight(_ obs: BriscolaObservation, _ world: BriscolaState) -> Double {
        guard offLeadWeight < 1, let led = obs.table.first, let trump = obs.trumpSuit else { return 1 }
        var before = world.hands[1 - obs.seat]
        before.insert(led)
        return BriscolaEmulator.choose(hand: before, table: nil, trump: trump).card == led ? 1 : offLeadWeight
    }

    /// The card with the best mean exact value over every hand the opponent may hold; ties go to the emulator's
    /// choice, then to the lower card number.
    func endgameChoice(_ obs: BriscolaObservation, trumpCard: Card) -> Card {
        let moves = Self.candidates(obs)
        let opponent = 1 - obs.seat
        let unseen = Array(obs.unseen)
        let points = obs.capturedPoints
        var totals = [Double](repeating: 0, count: moves.count)
        Self.forEachSubset(of: unseen, size: obs.handCounts[opponent]) { theirs in
            var pool = CardSet(unseen)
            for c in theirs { pool.remove(c) }
            let position = BriscolaEndgame(
                hands: (obs.hand, theirs), pool: pool, trumpInPile: true, trumpCard: trumpCard,
                points: (points[obs.seat], points[opponent]), leader: obs.leader == obs.seat ? 0 : 1,
                led: obs.table.first, winBonus: winBonus)
            for (i, card) in moves.enumerated() { totals[i] += position.value(after: card) }
        }
        return Self.best(moves, totals)
    }

    /// Calls `body` with every subset of `cards` of `size` cards, in a fixed order.
    static func forEachSubset(of cards: [Card], size: Int, _ body: (CardSet) -> Void) {
        func extend(_ from: Int, _ chosen: CardSet, _ left: Int) {
            if left == 0 { return body(chosen) }
            guard cards.count - from >= left else { return }
            var with = chosen
            with.insert(cards[from])
            extend(from + 1, with, left - 1)
            extend(from + 1, chosen, left)
        }
        extend(0, CardSet(), size)
    }
}
