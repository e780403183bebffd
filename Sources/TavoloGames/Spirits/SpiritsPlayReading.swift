import TavoloCore

extension SpiritsState {
    /// How well this world explains the other seats' last plays this round if they choose as the heuristic bot does:
    /// for each seat but `observer` that has played, the share of the cards it may have drawn since (none if it did
    /// not draw) for which the heuristic, holding what the seat then held, plays the card it played; each share is
    /// raised to at least `floor` (a seat may be a person, or another bot), and the shares are multiplied. What the
    /// seat had seen then is taken as what is seen now less its card: the cards played after it are few and change
    /// the heuristic's odds little.
    func lastPlaysLikelihood(observer: Int, floor: Double) -> Double {
        var seen = pile
        seen.formUnion(removed)
        var sizes = SpiritsSeatBytes()
        for s in 0..<playerCount { sizes[s] = hands[s].total }
        var weight = 1.0
        for s in 0..<playerCount where s != observer {
            guard let play = lastPlays.last(s) else { continue }
            var obs = SpiritsObservation(
                seat: s, players: playerCount, round: round, phase: play.top == nil ? .open : .follow, turn: s,
                clockwise: play.clockwise, fear: play.fear, top: play.top, hand: hands[s], handSizes: sizes,
                ghosts: ghosts, roundGhosts: roundGhosts, drawPileSize: drawPileSize, pile: SpiritsCardCounts(),
                removed: seen.subtracting(SpiritsCardCounts([play.card])))
            let heuristic = SpiritsHeuristicBot(rng: TavoloRNG(seed: 0))
            func plays(_ held: SpiritsCardCounts) -> Bool {
                obs.hand = held
                obs.handSizes[s] = held.total
                return heuristic.choose(obs).card == play.card
            }
            let now = hands[s]
            var hits = 0
            var tries = 0
            if play.drew && !now.isEmpty {
                for drawn in now.kinds {
                    var held = now
                    held.remove(drawn)
                    held.insert(play.card)
                    let copies = now.count(of: drawn)
                    tries += copies
                    if plays(held) { hits += copies }
                }
            } else {
                var held = now
                held.insert(play.card)
                tries = 1
                hits = plays(held) ? 1 : 0
            }
            weight *= floor + (1 - floor) * Double(hits) / Double(tries)
        }
        return weight
    }
}
