import Foundation
import TavoloProtocol
import XCTest

/// The seeded fuzzer over every input path a peer or a local client reaches. A short run is part of the suite;
/// `scripts/fuzz N [SEED]` runs this test with `TAVOLO_FUZZ_INPUTS=N` (and `TAVOLO_FUZZ_SEED`) for a long one.
final class FuzzTests: XCTestCase {
    /// Inputs per run, over all four targets; the suite's default is a few seconds' worth.
    var inputs: Int { ProcessInfo.processInfo.environment["TAVOLO_FUZZ_INPUTS"].flatMap { Int($0) } ?? 20_000 }
    var seed: UInt64 { ProcessInfo.processInfo.environment["TAVOLO_FUZZ_SEED"].flatMap { UInt64($0) } ?? 12 }

    func testFuzzEveryInputPath() throws {
        CrashReporter.install()
        var rng = FuzzRNG(seed: seed)
        let frameSeeds = try FuzzTargets.frameSeeds()
        XCTAssertGreaterThanOrEqual(frameSeeds.count, 6, "a valid vector of every frame type")
        var node = try TableFuzzNode()
        var sealed = try SealedFuzzNode()
        var tallies: [String: FuzzTally] = [:]
        let start = ContinuousClock.now
        for n in 0..<inputs {
            switch n % 4 {
            case 0:
                // Several frames back to back, one of them mutated (or all, or none).
                var stream: [UInt8] = []
                for _ in 0...rng.below(3) { stream += rng.pick(frameSeeds) }
                if rng.chance(90) { stream = Mutator.mutate(stream, &rng, seeds: frameSeeds) }
                CrashReporter.hold(stream, target: "frames")
                tally(&tallies, "frames", FuzzTargets.frameStream(stream))
            case 1:
                // A payload straight into Frame.decode as each type, the handshake's validation included.
                let payload = Mutator.mutate(Array(rng.pick(frameSeeds).dropFirst(10)), &rng, seeds: node.seeds)
                let type = MessageType.allCases[rng.below(MessageType.allCases.count)]
                CrashReporter.hold(payload, target: "payloads")
                tally(&tallies, "payloads", (try? Frame.decode(type: type, payload: payload)) != nil)
            case 2 where n % 8 == 6:
                // A sealed table (§14), its deck final: shuffles, shares, openings and audits, true and mutated.
                if n % 800 == 6 { sealed = try SealedFuzzNode() }  // a lie stops the table: a fresh one often
                var body = rng.pick(sealed.seeds)
                if rng.chance(70) { body = Mutator.mutate(body, &rng, seeds: sealed.seeds) }
                CrashReporter.hold(body, target: "sealed")
                tally(&tallies, "sealed", sealed.feed(body, &rng))
            case 2:
                if n % 8_000 == 2 { node = try TableFuzzNode() }  // a fresh table now and then
                var body = rng.pick(node.seeds)
                if rng.chance(70) { body = Mutator.mutate(body, &rng, seeds: node.seeds) }
                CrashReporter.hold(body, target: "table")
                tally(&tallies, "table", node.feed(body, &rng))
            default:
                var lines = rng.pick(FuzzTargets.controlSeeds)
                if rng.chance(80) { lines = Mutator.mutate(lines, &rng, seeds: FuzzTargets.controlSeeds) }
                lines.append(UInt8(ascii: "\n"))
                CrashReporter.hold(lines, target: "control")
                tally(&tallies, "control", FuzzTargets.controlLines(lines))
            }
        }
        let seconds = (ContinuousClock.now - start) / .seconds(1)
        let summary = tallies.keys.sorted().map { "\($0) \(tallies[$0]!.accepted)/\(tallies[$0]!.inputs)" }
        print(
            "fuzz: \(inputs) inputs, seed \(seed), \(String(format: "%.1f", seconds)) s, "
                + "\(Int(Double(inputs) / max(seconds, 1e-9))) inputs/s; accepted: \(summary.joined(separator: ", "))")
        XCTAssertEqual(tallies.values.reduce(0) { $0 + $1.inputs }, inputs)
        for (name, t) in tallies where t.inputs >= 100 {
            XCTAssertGreaterThan(t.accepted, 0, "\(name): nothing got through, the fuzzer explores nothing")
            XCTAssertLessThan(t.accepted, t.inputs, "\(name): everything got through, the mutations do nothing")
        }
    }

    func tally(_ tallies: inout [String: FuzzTally], _ name: String, _ accepted: Bool) {
        tallies[name, default: FuzzTally()].inputs += 1
        if accepted { tallies[name, default: FuzzTally()].accepted += 1 }
    }
}
