import ArgumentParser
import Foundation
import TavoloGames

/// Fits the pattern evaluation's weights to the positions of `othello-train-games` by least squares, stage by
/// stage (from the opening's end of the game to the last empties, each stage starting from its neighbour's weights,
/// so that configurations a stage never saw keep a sensible value), with one position in ten held out to say how
/// good the fit is and when to stop.
struct OthelloFit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "othello-fit", abstract: "Fit the Othello pattern weights to labelled positions.")

    @Argument(help: "Files written by othello-train-games.") var inputs: [String]
    @Option(help: "Where the weights go, as the Swift source the evaluation embeds.") var swiftOut: String
    @Option(help: "Passes over a stage's positions at most.") var epochs = 400
    @Option(help: "Step size of a pass (about one over the features a position has: larger diverges).") var step = 0.012
    @Option(help: "Positions a configuration's update is spread over at least (shrinks rare configurations).")
    var prior = 30.0
    @Option(
        help: "Empty squares beyond its own a stage also learns from, on each side (neighbouring stages' positions).")
    var overlap = 3

    struct Sample {
        var features: [Int32]
        var extras: (Int, Int, Int)
        var label: Float
        var held: Bool
    }

    func run() throws {
        guard epochs > 0, step > 0, prior >= 0, (0...20).contains(overlap) else {
            throw ValidationError("--epochs > 0, --step > 0, --prior >= 0, --overlap 0…20")
        }
        var byStage = [[Sample]](repeating: [], count: OthelloPatternWeights.stages)
        var total = 0
        for path in inputs {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            guard data.count % 17 == 0 else { throw ValidationError("\(path): not a positions file") }
            data.withUnsafeBytes { raw in
                for i in stride(from: 0, to: raw.count, by: 17) {
                    let own = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self).littleEndian
                    let opp = raw.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self).littleEndian
                    let label = Int8(bitPattern: raw[i + 16])
                    let empties = 64 - (own | opp).nonzeroBitCount
                    let e = OthelloPatternWeights.extraFeatures(
                        own, opp, ownMoves: OthelloBitboard.moves(own, opp), oppMoves: OthelloBitboard.moves(opp, own))
                    let held = (own &* 0x9E37_79B9_7F4A_7C15 ^ opp) % 10 == 0
                    let sample = Sample(
                        features: OthelloPatterns.features(own, opp), extras: e, label: Float(label), held: held)
                    let stages = Set(
                        (empties - overlap...empties + overlap).map { OthelloPatternWeights.stage(empties: $0) })
                    for stage in stages { byStage[stage].append(sample) }
                    total += 1
                }
            }
        }
        print("othello-fit: \(total) positions from \(inputs.count) files")
        let per = OthelloPatternWeights.perStage
        var all = [Int16](repeating: 0, count: OthelloPatternWeights.stages * per)
        var previous = [Float](repeating: 0, count: per)
        for stage in (0..<OthelloPatternWeights.stages).reversed() {
            let w = fit(byStage[stage], from: previous, stage: stage)
            for i in 0..<per { all[stage * per + i] = Int16(clamping: Int((w[i] * 100).rounded())) }
            previous = w
        }
        try OthelloWeightsSource.write(all, to: swiftOut)
        print("othello-fit: wrote \(swiftOut)")
    }

    /// One stage's weights (in discs), starting from `start`.
    func fit(_ samples: [Sample], from start: [Float], stage: Int) -> [Float] {
        var w = start
        let base = OthelloPatterns.weightsPerStage
        guard !samples.isEmpty else { return w }
        var counts = [Float](repeating: 0, count: w.count)
        var extraSquares: (Float, Float, Float) = (0, 0, 0)
        for s in samples where !s.held {
            for f in s.features { counts[Int(f)] += 1 }
            extraSquares.0 += Float(s.extras.0 * s.extras.0)
            extraSquares.1 += Float(s.extras.1 * s.extras.1)
            extraSquares.2 += Float(s.extras.2 * s.extras.2)
        }
        func predict(_ s: Sample, _ w: [Float]) -> Float {
            var p: Float = 0
            for f in s.features { p += w[Int(f)] }
            return p + w[base] * Float(s.extras.0) + w[base + 1] * Float(s.extras.1) + w[base + 2] * Float(s.extras.2)
        }
        func heldError(_ w: [Float]) -> Double {
            var sum = 0.0
            var n = 0
            for s in samples where s.held {
                let r = Double(s.label - predict(s, w))
                sum += r * r
                n += 1
            }
            return n == 0 ? 0 : (sum / Double(n)).squareRoot()
        }
        var best = (error: heldError(w), weights: w, epoch: 0)
        let first = best.error
        var gradient = [Float](repeating: 0, count: w.count)
        for epoch in 1...epochs {
            for i in gradient.indices { gradient[i] = 0 }
            for s in samples where !s.held {
                let r = s.label - predict(s, w)
                for f in s.features { gradient[Int(f)] += r }
                gradient[base] += r * Float(s.extras.0)
                gradient[base + 1] += r * Float(s.extras.1)
                gradient[base + 2] += r * Float(s.extras.2)
            }
            let step = Float(self.step)
            for i in 0..<base where counts[i] > 0 { w[i] += step * gradient[i] / (counts[i] + Float(prior)) }
            w[base] += step * gradient[base] / max(1, extraSquares.0)
            w[base + 1] += step * gradient[base + 1] / max(1, extraSquares.1)
            w[base + 2] += step * gradient[base + 2] / max(1, extraSquares.2)
            if epoch % 10 == 0 {
                let e = heldError(w)
                if e < best.error { best = (e, w, epoch) } else if epoch - best.epoch >= 60 { break }
            }
        }
        let trained = samples.filter { !$0.held }.count
        print(
            String(
                format:
                    "  stage %2d (%2d–%2d empties): %7d positions, held-out RMS error %.2f discs (%.2f from the start), epoch %d",
                stage, stage * OthelloPatternWeights.stageWidth,
                min(60, stage * OthelloPatternWeights.stageWidth + OthelloPatternWeights.stageWidth - 1), trained,
                best.error, first, best.epoch))
        return best.weights
    }
}
