import ArgumentParser
import Foundation
import TavoloCore
import TavoloGames

/// Optimal 4×4 solves with the pattern databases (the figures behind the `expert` Fifteen bot): the databases'
/// build time and memory, then time and nodes per solve over seeded positions drawn uniformly from every solvable
/// board (`FifteenBoard.randomSolvable`), or over the race's own 130-slide scrambles with `--scrambles`.
struct FifteenSpeed: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fifteen-speed", abstract: "Optimal 4×4 Fifteen solves with additive pattern databases.")

    enum Partition: String, ExpressibleByArgument {
        case p663 = "6-6-3"
        case p555 = "5-5-5"
    }

    @Option(help: "Positions solved.")
    var positions = 100

    @Option(help: "Seed of the first position (position i uses seed + i).")
    var seed: UInt64 = 1

    @Option(help: "The partition: 6-6-3 (the bot's) or 5-5-5.")
    var partition = Partition.p663

    @Flag(help: "Do not look the mirrored board up too.")
    var noReflection = false

    @Flag(help: "Solve the race's 130-slide scrambles instead of uniformly random boards.")
    var scrambles = false

    func run() throws {
        let groups: [[UInt8]] =
            partition == .p663
            ? [[1, 5, 6, 9, 10, 13], [7, 8, 11, 12, 14, 15], [2, 3, 4]]
            : [[1, 2, 5, 6, 9], [3, 4, 7, 8, 12], [10, 11, 13, 14, 15]]
        let buildStart = (wall: Date(), cpu: threadCPUSeconds())
        let heuristic =
            partition == .p663 && !noReflection
            ? FifteenPatternHeuristic.standard
            : FifteenPatternHeuristic(k: 4, groups: groups, reflected: !noReflection)
        let build = (wall: Date().timeIntervalSince(buildStart.wall), cpu: threadCPUSeconds() - buildStart.cpu)
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let kind = scrambles ? "130-slide scrambles" : "uniformly random solvable boards"
        say(
            "fifteen 4x4 optimal: \(partition.rawValue) pattern databases\(noReflection ? "" : " + reflection"); "
                + "\(positions) \(kind), seeds \(seed)...\(seed + UInt64(positions) - 1), one solve at a time")
        say(
            String(
                format: "  databases: %.1f MB, built in %.2f s CPU (%.2f s wall); peak RSS after the build %.1f MB",
                Double(heuristic.bytes) / 1e6, build.cpu, build.wall, Double(usage.ru_maxrss) / 1024))
        var seconds: [Double] = []
        var nodes: [Int] = []
        var lengths: [Int] = []
        for i in 0..<positions {
            var rng = TavoloRNG(seed: seed + UInt64(i))
            let board =
                scrambles
                ? FifteenBoard.scrambled(n: 4, steps: FifteenState4.scrambleSteps, rng: &rng)
                : FifteenBoard.randomSolvable(n: 4, rng: &rng)
            let start = threadCPUSeconds()
            guard let found = FifteenPatternSearch.solve(board, heuristic: heuristic) else {
                throw ValidationError("position \(i) not solved")
            }
            seconds.append(threadCPUSeconds() - start)
            nodes.append(found.nodes)
            lengths.append(found.moves.count)
        }
        report(seconds: seconds, nodes: nodes, lengths: lengths)
    }

    func report(seconds: [Double], nodes: [Int], lengths: [Int]) {
        // Nearest rank: the median of 100 is the 50th smallest, p90 the 90th.
        func quantile<T: Comparable>(_ xs: [T], _ q: Double) -> T {
            let sorted = xs.sorted()
            return sorted[min(sorted.count - 1, Int((Double(sorted.count) * q).rounded(.up)) - 1)]
        }
        guard !seconds.isEmpty else { return }
        say(
            String(
                format: "  CPU per solve: median %.1f ms, p90 %.1f ms, max %.1f ms, mean %.1f ms, total %.2f s",
                1000 * quantile(seconds, 0.5), 1000 * quantile(seconds, 0.9), 1000 * (seconds.max() ?? 0),
                1000 * seconds.reduce(0, +) / Double(seconds.count), seconds.reduce(0, +)))
        say(
            "  nodes per solve: median \(quantile(nodes, 0.5)), p90 \(quantile(nodes, 0.9)), "
                + "max \(nodes.max() ?? 0), mean \(nodes.reduce(0, +) / nodes.count)"
                + String(
                    format: "; %.1f M nodes/s", Double(nodes.reduce(0, +)) / max(1e-9, seconds.reduce(0, +)) / 1e6))
        say(
            String(
                format: "  optimal length: mean %.2f, min %d, max %d",
                Double(lengths.reduce(0, +)) / Double(lengths.count),
                lengths.min() ?? 0, lengths.max() ?? 0))
    }
}
