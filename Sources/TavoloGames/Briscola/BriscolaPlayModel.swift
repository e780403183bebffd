import Foundation
import TavoloCore

/// How likely the strong bot is to play each card of a hand, while the pile lasts: a softmax over a few features of
/// the card (its points, trump or not, strength, whether it takes the card led and what that card is worth), with
/// weights fitted by maximum likelihood to 68,000 of its own decisions while the pile lasts (strong against strong,
/// 2,000 games from seed 20001, hands of two cards or more; `tavolo-bots-bench briscola-play-model`, which fits on 70%
/// and reports the rest).
/// Held out, it names the card played 68% of the time on a reply (the emulator: 67%) and 45% on a lead (41%), with a
/// log-likelihood of −0.68 a reply and −1.01 a lead (uniform over three cards: −1.10): a lead says little about the
/// hand, a reply more.
public enum BriscolaPlayModel {
    public static let leadWeights: [Double] = [-2.3, -0.96, 0.79, 0.04, 0.85, -1.24, 1.08, -0.96]
    public static let replyWeights: [Double] = [
        -4.27, -0.23, -3.01, 0.45, -0.69, 3.53, 6.61, -0.49, 1.92, 0.12, -0.2, 1.6,
    ]

    /// The probability that the strong bot plays `card` from `hand` (which holds it), leading (`led` nil) or
    /// replying to `led`, with `pile` cards left.
    static func probability(of card: Card, hand: CardSet, led: Card?, trump: Suit, pile: Int) -> Double {
        var total = 0.0
        var mine = 0.0
        for c in hand {
            let e = exp(score(c, led: led, trump: trump, pile: pile))
            total += e
            if c == card { mine = e }
        }
        return total > 0 ? mine / total : 1
    }

    /// The features of a lead of `card`, in the order of `leadWeights`: its points, trump, trump × points, strength,
    /// trump × strength, trump and points late in the game (10 cards left or fewer), a plain card (no points, no trump).
    public static func leadFeatures(_ card: Card, trump: Suit, pile: Int) -> [Double] {
        let (p, t, s, plain) = basics(card, trump: trump)
        let late = pile <= 10 ? 1.0 : 0
        return [p, t, t * p, s, t * s, late * t, late * p, plain]
    }

    /// The features of a reply of `card` to `led`, in the order of `replyWeights`: points, trump, trump × points,
    /// strength, takes the trick, × the points led, × its own points, × trump, × trump × the points led, a plain card,
    /// takes it without a trump, × the points led.
    public static func replyFeatures(_ card: Card, led: Card, trump: Suit) -> [Double] {
        let (p, t, s, plain) = basics(card, trump: trump)
        let b = BriscolaState.beats(card, led, trump: trump) ? 1.0 : 0
        let lp = Double(led.points) / 11
        return [p, t, t * p, s, b, b * lp, b * p, b * t, b * t * lp, plain, b * (1 - t), b * (1 - t) * lp]
    }

    @inline(__always)
    static func basics(_ card: Card, trump: Suit) -> (points: Double, trump: Double, strength: Double, plain: Double) {
        let t = card.suit == trump ? 1.0 : 0
        return (Double(card.points) / 11, t, Double(card.strength) / 9, card.points == 0 && t == 0 ? 1 : 0)
    }

    /// The linear score of `card`: the features above times their weights, written out so the search's inner loop
    /// allocates nothing (`BriscolaHandReadingTests` checks the two agree).
    static func score(_ card: Card, led: Card?, trump: Suit, pile: Int) -> Double {
        let (p, t, s, plain) = basics(card, trump: trump)
        guard let led else {
            let late = pile <= 10 ? 1.0 : 0
            let w = leadWeights
            return w[0] * p + w[1] * t + w[2] * t * p + w[3] * s + w[4] * t * s + w[5] * late * t + w[6] * late * p
                + w[7] * plain
        }
        let b = BriscolaState.beats(card, led, trump: trump) ? 1.0 : 0
        let lp = Double(led.points) / 11
        let w = replyWeights
        return w[0] * p + w[1] * t + w[2] * t * p + w[3] * s + w[4] * b + w[5] * b * lp + w[6] * b * p
            + w[7] * b * t + w[8] * b * t * lp + w[9] * plain + w[10] * b * (1 - t) + w[11] * b * (1 - t) * lp
    }
}
