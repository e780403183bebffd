import TavoloCore

/// The seed's "emulator" (seed 001 §3, RULES.md Briscola rule 7): a priority list; the first rule that
/// matches picks the card.
///
/// Terms: liscio = a non-trump card worth 0 points; carico = a non-trump card worth points; briscola = a trump.
/// "Lowest"/"highest" order cards by trick strength (Due < 4 < … < 7 < Fante < Cavallo < Re < Tre < Asso),
/// ties between suits going to the lower suit number (Coppe, Denari, Spade, Bastoni).
///
/// The seed describes two players. With four, "the table card" is the card currently taking the trick;
/// the emulator ignores its partner (it is the seed's two-player bot).
public enum BriscolaEmulator {
    /// The rules, named after the case and their place in the seed's list.
    public enum Rule: String, CaseIterable, Sendable {
        // Leading (no card on the table).
        case leadLowestLiscio = "lead.1"
        case leadLowestCarico = "lead.2"
        case leadLowestBriscola = "lead.3"
        // Replying to a briscola.
        case onBriscolaHighestLiscio = "briscola.1"
        case onBriscolaLowestCaricoUnder10 = "briscola.2"
        case onBriscolaLowestPointlessBriscola = "briscola.3"
        case onBriscolaLowestBeatingBriscolaIfPoints = "briscola.4"
        case onBriscolaLowestCarico = "briscola.5"
        case onBriscolaLowestBriscola = "briscola.6"
        // Replying to a carico.
        case onCaricoHighestBeatingCaricoOfSuit = "carico.1"
        case onCaricoLowestBriscola = "carico.2"
        case onCaricoHighestLiscio = "carico.3"
        case onCaricoLowestCarico = "carico.4"
        // Replying to a liscio.
        case onLiscioHighestBigCaricoOfSuit = "liscio.1"
        case onLiscioHighestLiscioOtherSuit = "liscio.2"
        case onLiscioLowestNonBeatingLiscioOfSuit = "liscio.3"
        case onLiscioHighestCaricoOfSuit = "liscio.4"
        case onLiscioLowestLiscio = "liscio.5"
        case onLiscioLowestFiguraCarico = "liscio.6"
        case onLiscioLowestPointlessBriscola = "liscio.7"
        case onLiscioLowestCarico = "liscio.8"
        case onLiscioLowestBriscola = "liscio.9"
    }

    /// The card the emulator plays from `hand` (not empty) against `table` (nil when leading), and the rule used.
    public static func choose(hand: CardSet, table: Card?, trump: Suit) -> (card: Card, rule: Rule) {
        let briscole = hand & .suit(trump)
        let plain = hand & ~CardSet.suit(trump)
        let lisci = plain & ~CardSet.counting
        let carichi = plain & .counting
        let pointless = briscole & ~CardSet.counting

        func pick(_ candidates: [(Card?, Rule)]) -> (Card, Rule) {
            for (card, rule) in candidates { if let card { return (card, rule) } }
            // Unreachable for a non-empty hand: every list ends with a rule covering what is left.
            let any = hand.lowest ?? Card(uncheckedID: 0)
            return (any, candidates.last?.1 ?? .leadLowestLiscio)
        }

        guard let t = table else {
            return pick([
                (lisci.lowest, .leadLowestLiscio),
                (carichi.lowest, .leadLowestCarico),
                (briscole.lowest, .leadLowestBriscola),
            ])
        }
        var beating = CardSet()
        for c in hand where BriscolaState.beats(c, t, trump: trump) { beating.insert(c) }
        let ofSuit = hand & .suit(t.suit)
        if t.suit == trump {
            return pick([
                (lisci.highest, .onBriscolaHighestLiscio),
                ((carichi & ~CardSet.assiAndTre).lowest, .onBriscolaLowestCaricoUnder10),
                (pointless.lowest, .onBriscolaLowestPointlessBriscola),
                (t.points > 0 ? (briscole & beating).lowest : nil, .onBriscolaLowestBeatingBriscolaIfPoints),
                (carichi.lowest, .onBriscolaLowestCarico),
                (briscole.lowest, .onBriscolaLowestBriscola),
            ])
        }
        if t.points > 0 {
            return pick([
                ((carichi & ofSuit & beating).highest, .onCaricoHighestBeatingCaricoOfSuit),
                (briscole.lowest, .onCaricoLowestBriscola),
                (lisci.highest, .onCaricoHighestLiscio),
                (carichi.lowest, .onCaricoLowestCarico),
            ])
        }
        let bigOfSuit = (carichi & ofSuit).highest.flatMap { [1, 3, 10].contains($0.rank) ? $0 : nil }
        return pick([
            (bigOfSuit, .onLiscioHighestBigCaricoOfSuit),
            ((lisci & ~ofSuit).highest, .onLiscioHighestLiscioOtherSuit),
            ((lisci & ofSuit & ~beating).lowest, .onLiscioLowestNonBeatingLiscioOfSuit),
            ((carichi & ofSuit).highest, .onLiscioHighestCaricoOfSuit),
            (lisci.lowest, .onLiscioLowestLiscio),
            ((carichi & .figure).lowest, .onLiscioLowestFiguraCarico),
            (pointless.lowest, .onLiscioLowestPointlessBriscola),
            (carichi.lowest, .onLiscioLowestCarico),
            (briscole.lowest, .onLiscioLowestBriscola),
        ])
    }

    /// The emulator's choice for the seat to play in `obs`: replies to the card taking the trick.
    public static func choose(_ obs: BriscolaObservation) -> Card {
        // Cards are played only once trump is known; an empty hand has nothing to play.
        guard let trump = obs.trumpSuit, !obs.hand.isEmpty else { return obs.hand.lowest ?? Card(uncheckedID: 0) }
        let target = obs.table.isEmpty ? nil : obs.table[BriscolaState.winningIndex(obs.table, trump: trump)]
        return choose(hand: obs.hand, table: target, trump: trump).card
    }
}

extension CardSet {
    /// Every card of the given ranks, all suits.
    static func ranks(_ ranks: [Int]) -> CardSet {
        CardSet(Card.all.filter { ranks.contains($0.rank) })
    }
    static let assiAndTre = ranks([1, 3])
    /// Fante, Cavallo, Re.
    static let figure = ranks([8, 9, 10])
}

/// The seed's emulator as a bot: deterministic, decides from the observation. The seed has no auction: in
/// Briscola chiamata it passes whenever it may (`ChiamataAuctionView.cautiousMove`).
public struct BriscolaEmulatorBot: Bot {
    public init() {}
    public var kind: String { "emulator" }
    public mutating func chooseMove(in state: BriscolaState, seat: Int) -> BriscolaMove {
        let obs = state.observation(for: seat)
        if let auction = ChiamataAuctionView(obs) { return auction.cautiousMove }
        return BriscolaMove(BriscolaEmulator.choose(obs))
    }
}
