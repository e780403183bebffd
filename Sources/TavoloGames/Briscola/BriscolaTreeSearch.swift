import TavoloCore

/// Information-set Monte Carlo tree search for Briscola (single observer, Cowling, Powley and Whitehouse 2012).
///
/// Every iteration deals the cards the seat cannot see at random (`BriscolaState(sampling:rng:)`) and walks one tree
/// of cards played, shared by all the deals: at each node only the cards the seat to play holds in this deal may be
/// chosen, by UCB over the node's statistics, and a card is counted as available each time it could have been. So
/// the other seats choose without seeing the seat's hand (their statistics are pooled over deals), unlike a
/// look-ahead within one deal, which lets them reply seeing every card. The first new card ends the walk; the game is
/// then played out with the emulator at every seat, and the result, scaled to 0…1 from the strong bot's value, goes
/// back up the walk from each mover's side.
struct BriscolaTreeSearch {
    final class Node {
        let card: Card
        /// The seat that played `card` (the root's is unused).
        let mover: Int
        var children: [Node] = []
        var visits = 0
        var available = 0
        /// Sum of results from `mover`'s side.
        var reward = 0.0

        init(card: Card, mover: Int) {
            self.card = card
            self.mover = mover
        }
    }

    let obs: BriscolaObservation
    let root: Node
    /// The exploration constant of UCB for results in 0…1.
    static let exploration = 0.7

    init(_ obs: BriscolaObservation) {
        self.obs = obs
        root = Node(card: Card(uncheckedID: 0), mover: obs.seat)
    }

    /// Runs `iterations` deals and walks; returns the root's most visited card (ties: `preferred`, then the first).
    mutating func run(iterations: Int, preferred: Card, rng: inout TavoloRNG) -> Card {
        for _ in 0..<iterations { iterate(rng: &rng) }
        var best: Node?
        for child in root.children {
            guard let b = best else {
                best = child
                continue
            }
            if child.visits > b.visits || (child.visits == b.visits && child.card == preferred) { best = child }
        }
        return best?.card ?? preferred
    }

    func iterate(rng: inout TavoloRNG) {
        var s = BriscolaState(sampling: obs, rng: &rng)
        var node = root
        var path: [Node] = []
        while !s.isOver {
            let hand = s.hands[s.current]
            var untried = hand
            for child in node.children where hand.contains(child.card) { untried.remove(child.card) }
            if let card = untried.lowest {
                let child = Node(card: card, mover: s.current)
                node.children.append(child)
                s.play(card)
                path.append(child)
                break
            }
            var chosen = node
            var bestScore = -Double.infinity
            for child in node.children where hand.contains(child.card) {
                child.available += 1
                let mean = child.reward / Double(child.visits)
                let score =
                    mean + Self.exploration * (Double(child.available).log() / Double(child.visits)).squareRoot()
                if score > bestScore {
                    bestScore = score
                    chosen = child
                }
            }
            s.play(chosen.card)
            path.append(chosen)
            node = chosen
        }
        BriscolaStrongBot.rollout(&s)
        // The strong bot's value (point margin ±40 for the game) lies within ±160.
        let result = Double(BriscolaStrongBot.value(s, seat: obs.seat) + 160) / 320
        for n in path {
            n.visits += 1
            n.reward += s.sameSide(n.mover, obs.seat) ? result : 1 - result
        }
    }
}

extension Double {
    fileprivate func log() -> Double {
        // Natural logarithm without Foundation: ln(x) = log2(x) · ln 2, log2 from the exponent and a short series.
        guard self > 0 else { return 0 }
        let e = Double(exponent)
        let m = significand  // 1 ≤ m < 2
        let y = (m - 1) / (m + 1)
        let y2 = y * y
        let lnM = 2 * y * (1 + y2 / 3 + y2 * y2 / 5 + y2 * y2 * y2 / 7 + y2 * y2 * y2 * y2 / 9)
        return e * 0.693_147_180_559_945_3 + lnM
    }
}

/// The tree-searching Briscola bot (`BriscolaTreeSearch`) while the pile lasts; once it is gone, and in Briscola
/// chiamata, the strong bot (with two players nothing is hidden then, and it searches exactly). The budget is a count
/// of iterations, not a time, so the bot plays the same moves on any machine; its randomness is the `botRNG` stream
/// it was made with.
public struct BriscolaTreeSearchBot: Bot {
    var strong: BriscolaStrongBot
    public var iterations: Int
    public let kindName: String

    public init(rng: TavoloRNG, iterations: Int = Self.searchIterations, kind: String = "search") {
        strong = BriscolaStrongBot(rng: rng)
        self.iterations = iterations
        kindName = kind
    }

    public static let searchIterations = 6000

    public var kind: String { kindName }

    public mutating func chooseMove(in state: BriscolaState, seat: Int) -> BriscolaMove {
        let obs = state.observation(for: seat)
        guard obs.phase == nil, obs.pileCount > 0, obs.hand.count > 1 else {
            return strong.chooseMove(in: state, seat: seat)
        }
        var tree = BriscolaTreeSearch(obs)
        return BriscolaMove(tree.run(iterations: iterations, preferred: BriscolaEmulator.choose(obs), rng: &strong.rng))
    }
}
