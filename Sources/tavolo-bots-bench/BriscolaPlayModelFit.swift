import ArgumentParser
import Foundation
import TavoloCore
import TavoloGames

/// Fits `BriscolaPlayModel`: plays the strong bot against itself, keeps every choice it makes from two cards or more
/// while the pile lasts, and fits a softmax over each card's features (`BriscolaPlayModel.leadFeatures`,
/// `replyFeatures`) by gradient ascent on the log-likelihood of the cards it played, on the first 70% of the choices;
/// the rest say how well the model predicts, against the seed's emulator. Prints the weights as Swift.
struct BriscolaPlayModelFit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "briscola-play-model",
        abstract: "Fit the Briscola expert's model of the strong bot's plays to the strong bot's own games.")

    @Option(help: "Games of the strong bot against itself (each deal in both seat orders).") var games = 2000
    @Option(help: "First deal's seed.") var seed: UInt64 = 20001
    @Option(help: "Passes of gradient ascent.") var passes = 1500
    @Option(help: "Step of a pass (per choice, averaged).") var step = 0.5

    /// One choice: each card's features, which card was played, which the emulator would have played.
    struct Choice {
        var features: [[Double]]
        var played: Int
        var emulator: Int
    }

    func run() throws {
        guard games > 0, passes > 0, step > 0 else { throw ValidationError("--games, --passes, --step > 0") }
        var leads: [Choice] = []
        var replies: [Choice] = []
        for g in 0..<games {
            let gameSeed = seed &+ UInt64(g / 2)
            var state = try BriscolaState(players: 2, seed: gameSeed)
            var bots = (0..<2).map { BriscolaStrongBot(rng: botRNG(gameSeed: gameSeed, seat: $0)) }
            while case .seat(let seat) = state.turn {
                let move = bots[seat].chooseMove(in: state, seat: seat)
                let obs = state.observation(for: seat)
                if let card = move.card, let trump = obs.trumpSuit, obs.hand.count > 1, obs.pileCount > 0 {
                    let hand = Array(obs.hand)
                    let led = obs.table.first
                    let features = hand.map { c in
                        led.map { BriscolaPlayModel.replyFeatures(c, led: $0, trump: trump) }
                            ?? BriscolaPlayModel.leadFeatures(c, trump: trump, pile: obs.pileCount)
                    }
                    let choice = Choice(
                        features: features, played: hand.firstIndex(of: card) ?? 0,
                        emulator: hand.firstIndex(of: BriscolaEmulator.choose(obs)) ?? 0)
                    if led == nil { leads.append(choice) } else { replies.append(choice) }
                }
                try state.apply(move)
            }
            if (g + 1) % 500 == 0 { say("  \(g + 1)/\(games) games") }
        }
        fit("lead", leads, name: "leadWeights")
        fit("reply", replies, name: "replyWeights")
    }

    func fit(_ label: String, _ choices: [Choice], name: String) {
        guard let width = choices.first?.features.first?.count else { return }
        let split = choices.count * 7 / 10
        let (train, held) = (choices[..<split], choices[split...])
        var w = [Double](repeating: 0, count: width)
        for _ in 0..<passes {
            var gradient = [Double](repeating: 0, count: width)
            for c in train {
                let p = Self.softmax(c.features, w)
                for j in 0..<width {
                    var expected = 0.0
                    for (i, f) in c.features.enumerated() { expected += p[i] * f[j] }
                    gradient[j] += c.features[c.played][j] - expected
                }
            }
            for j in 0..<width { w[j] += step * gradient[j] / Double(train.count) }
        }
        var (hits, emulatorHits, logLikelihood) = (0, 0, 0.0)
        for c in held {
            let p = Self.softmax(c.features, w)
            if p.indices.max(by: { p[$0] < p[$1] }) == c.played { hits += 1 }
            if c.emulator == c.played { emulatorHits += 1 }
            logLikelihood += log(p[c.played])
        }
        let n = Double(held.count)
        say(
            "\(label): \(choices.count) choices, \(held.count) held out: the model names the card played "
                + String(
                    format: "%.1f%%, the emulator %.1f%%; log-likelihood %.3f a choice", 100 * Double(hits) / n,
                    100 * Double(emulatorHits) / n, logLikelihood / n))
        let rounded = w.map { String(format: "%.2f", $0) }.joined(separator: ", ")
        say("    public static let \(name): [Double] = [\(rounded)]")
    }

    static func softmax(_ features: [[Double]], _ w: [Double]) -> [Double] {
        let scores = features.map { f in zip(f, w).reduce(0) { $0 + $1.0 * $1.1 } }
        let top = scores.max() ?? 0
        let e = scores.map { exp($0 - top) }
        let total = e.reduce(0, +)
        return e.map { $0 / total }
    }
}
