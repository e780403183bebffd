import Crypto
import Foundation
import TavoloControl
import TavoloCore
import TavoloMesh
import TavoloProtocol
import TavoloTable
import TavoloTestSupport
import XCTest

/// A node that ground its key for the lowest node id at a three-seat table gains nothing from it (issue 30, §9.12):
/// a voted-out member's seats, and the host's jobs, go to the first member in `HeirOrder` (a hash of the joint seed
/// and the id), which no member can choose. Real `tavolod` processes; one honest member is killed with `kill -9`.
final class HeirGrindingIntegrationTests: DaemonTestCase {
    /// Short heartbeats: the killed node is noticed in 1.5 s.
    override var heartbeat: (interval: Double, timeout: Double) { (0.3, 1.5) }

    func state(_ i: Int, _ id: TableID) throws -> TableState {
        try client(i).call(.state(table: id))
    }

    func waitFor(_ what: String, seconds: Double = 30, line: UInt = #line, _ condition: () throws -> Bool) throws {
        let harness: DaemonHarness = harness
        try eventuallySync(
            what, within: seconds, line: line,
            context: {
                harness.nodes.indices.map { "--- \(harness.name($0)):\n\(harness.logTail($0, lines: 12))" }
                    .joined(separator: "\n")
            }, condition)
    }

    /// A key whose node id begins with a zero byte and is below every id in `others`: what an attacker grinds in
    /// well under a second.
    func groundKey(below others: [NodeID]) throws -> (key: Curve25519.KeyAgreement.PrivateKey, id: NodeID) {
        for _ in 0..<1_000_000 {
            let key = Curve25519.KeyAgreement.PrivateKey()
            guard let id = NodeID.derived(from: key.publicKey) else { continue }
            if id.bytes[0] == 0 && others.allSatisfy({ id < $0 }) { return (key, id) }
        }
        throw HarnessError("no key below \(others.map(\.hex)) in a million tries")
    }

    /// The joint seed of table `id`, read from node `i`'s journal: the control socket does not tell it while the
    /// game goes on (it would let a user work out every hand).
    func jointSeed(_ i: Int, _ id: TableID) throws -> UInt64 {
        var seed: UInt64?
        try waitFor("the joint seed of \(id)") {
            let journal = "\(harness.nodes[i].stateDir)/games/\(id).journal"
            let bytes = FileManager.default.contents(atPath: journal).map { [UInt8]($0) } ?? []
            seed = (try? GameJournal.read(bytes))?.log.jointSeed
            return seed != nil
        }
        return try XCTUnwrap(seed)
    }

    /// Spirits! for 3 hosted by node 0, seat i node i's: nodes 0 and 1 seat bots, node 2 (the test) a person, so
    /// the game waits at node 2's turns.
    func startTable() throws -> TableID {
        let host = ControlCall.host(game: "spirits", players: 3, grace: 3, takeoverBot: "random")
        let id = try client(0).call(host).id
        try waitFor("every node sees \(id)") {
            try (0...2).allSatisfy { try client($0).call(.tables).contains { $0.id == id } }
        }
        for i in 0...2 {
            _ = try client(i).call(
                .join(table: id, game: nil, seat: i, bot: i == 2 ? nil : "random"))
        }
        try waitFor("seats taken") {
            try client(0).call(.tables).first { $0.id == id }?.freeSeats.isEmpty == true
        }
        _ = try client(0).call(.start(table: id))
        return id
    }

    /// Node 2's seat plays its first legal move if it is its turn.
    func playNode2IfItsTurn(_ id: TableID) {
        guard let st = try? state(2, id), st.info.phase == .playing, let turn = st.turn, st.mySeats.contains(turn),
            let move = st.legalMoves.first
        else { return }
        _ = try? client(2).call(.move(table: id, move: move))
    }

    /// Node 2's id is ground below both others'. Tables are started until one whose joint seed ranks an honest node
    /// before node 2 (two in three do); the other honest node is killed. Its seat and, when it hosted, the host's
    /// jobs go to that honest node, although node 2's id is the lowest; both survivors log the same takeover.
    func testAGroundLowIDDoesNotMakeItsNodeTheHeir() throws {
        try harness.start(2)
        var honest: [NodeID] = []
        try waitFor("nodes 0 and 1 up") {
            honest = try (0...1).compactMap { NodeID(hex: try harness.status($0).id) }
            return honest.count == 2
        }
        let ground = try groundKey(below: honest)
        let stateDir = harness.root.appendingPathComponent("state-2")
        try FileManager.default.createDirectory(at: stateDir, withIntermediateDirectories: true)
        XCTAssertTrue(
            FileManager.default.createFile(
                atPath: stateDir.appendingPathComponent(NodeKeyFile.fileName).path,
                contents: Data((Array(ground.key.rawRepresentation).hexString + "\n").utf8),
                attributes: [.posixPermissions: 0o600]))
        XCTAssertEqual(try harness.startNode(), 2)
        XCTAssertEqual(harness.nodes[2].stateDir, stateDir.path)
        let ids = honest + [ground.id]
        try waitFor("node 2 up") { (try? harness.status(2)) != nil }
        XCTAssertEqual(try harness.status(2).id, ground.id.hex, "node 2 does not run with the ground key")
        XCTAssertEqual(ids.min(), ground.id)
        try harness.eventually("full mesh of 3", seconds: 30) { harness.isFullMesh([0, 1, 2]) }

        // Tables whose seed puts node 2 first wait at node 2's turn, playing nothing: 8 tries fail 1 time in 6561.
        var chosen: (id: TableID, seed: UInt64, heir: Int)?
        for attempt in 1...8 where chosen == nil {
            let id = try startTable()
            let seed = try jointSeed(0, id)
            let ranks = ids.map { HeirOrder.rank(of: $0, jointSeed: seed) }
            let ahead = (0...1).filter { ranks[$0].lexicographicallyPrecedes(ranks[2]) }
            print("heir grinding: table \(attempt) \(id), seed \(seed): nodes ranked before node 2: \(ahead)")
            if let heir = ahead.first { chosen = (id, seed, heir) }
        }
        let (id, seed, heir) = try XCTUnwrap(chosen, "8 tables in a row ranked the ground id first (1 in 6561)")
        let victim = 1 - heir
        XCTAssertEqual(HeirOrder.first(of: [ids[heir], ground.id], jointSeed: seed), ids[heir])
        XCTAssertNotEqual(ids[heir], [ids[heir], ground.id].min(), "the case where the order differs from the ids'")
        print("heir grinding: killing node \(victim) (host: \(victim == 0)); HeirOrder names node \(heir), not node 2")

        harness.kill9(victim)
        let survivors = [heir, 2]
        var states: [TableState] = []
        try waitFor("node \(victim)'s seat passes and the game plays on", seconds: 45) {
            playNode2IfItsTurn(id)
            states = try survivors.map { try state($0, id) }
            return states.allSatisfy { st in
                st.takeovers.first.map { (st.moveNumber ?? 0) > $0.appliedAt } == true
            }
        }
        for (i, st) in zip(survivors, states) {
            XCTAssertEqual(st.takeovers.map(\.member), [ids[victim]], "node \(i)'s takeovers")
            XCTAssertEqual(st.takeovers.map(\.heir), [ids[heir]], "node \(i) names another heir")
            XCTAssertEqual(st.takeovers.map(\.seats), [[victim]], "node \(i)'s takeover seats")
            XCTAssertEqual(st.info.seats[victim].owner, ids[heir], "node \(i): the seat's owner")
            XCTAssertEqual(st.info.host, victim == 0 ? ids[heir] : ids[0], "node \(i): the host")
        }
        XCTAssertEqual(states[0].takeovers, states[1].takeovers)
        let said = "table \(id): \(harness.name(victim)) is voted out from move"
        let lines = survivors.map { i in
            ((try? String(contentsOfFile: harness.nodes[i].logPath, encoding: .utf8)) ?? "").split(separator: "\n")
                .lazy.compactMap { line in line.range(of: said).map { String(line[$0.lowerBound...]) } }.first
        }
        XCTAssertEqual(lines[0], lines[1], "the survivors log different takeovers")
        XCTAssertTrue(lines[0]?.hasSuffix("; \(harness.name(heir))'s random takes its seats") == true, "\(lines)")
    }
}
