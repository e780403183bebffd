import Foundation
import TavoloControl
import TavoloCore
import TavoloTable
import TavoloTestSupport
import XCTest

/// A sealed table that loses a member (PROTOCOL.md §14.11) between real `tavolod` processes: the member killed with
/// `kill -9`, or stopped with SIGSTOP past the grace, is voted out; the others release its escrowed secret to the heir,
/// whose bot plays its cards to the end, and every node left ends "deck verified" on one state.
final class SealedHeirIntegrationTests: DaemonTestCase {
    /// Short heartbeats: a killed or stopped node is noticed in 1.5 s.
    override var heartbeat: (interval: Double, timeout: Double) { (0.3, 1.5) }

    func state(_ i: Int, _ id: TableID) throws -> TableState { try client(i).call(.state(table: id)) }

    func waitFor(_ what: String, seconds: Double = 60, _ condition: () throws -> Bool) throws {
        let harness: DaemonHarness = harness
        try eventuallySync(
            what, within: seconds,
            context: {
                harness.nodes.indices.map { "--- \(harness.name($0)):\n\(harness.logTail($0, lines: 12))" }
                    .joined(separator: "\n")
            }, condition)
    }

    /// A sealed table of `game` hosted on node 0 with a 3-second grace: a `random` bot at every seat but the last,
    /// which is node `human`'s own seat, played by nobody; returns once it is that seat's turn.
    func sealedTableWaitingFor(_ human: Int, game: String, nodes: Int, grace: Int = 3) throws -> TableID {
        _ = try harness.start(nodes)
        try harness.eventually("full mesh of \(nodes)", seconds: 30) { harness.isFullMesh(Array(0..<nodes)) }
        let info = try client(0).call(.host(game: game, players: nodes, grace: grace, sealed: true))
        try waitFor("every node sees \(info.id)") {
            try (0..<nodes).allSatisfy { n in try client(n).call(.tables).contains { $0.id == info.id } }
        }
        for seat in 0..<nodes {
            _ = try client(seat).call(.join(table: info.id, game: nil, seat: seat, bot: seat == human ? nil : "random"))
        }
        try waitFor("seats taken") {
            try client(0).call(.tables).first { $0.id == info.id }?.freeSeats.isEmpty == true
        }
        _ = try client(0).call(.start(table: info.id))
        try waitFor("node \(human)'s turn") {
            let st = try state(human, info.id)
            return st.turn.map { st.mySeats.contains($0) } == true && !st.legalMoves.isEmpty
        }
        return info.id
    }

    /// The nodes `alive` end on one state, the deck verified, `leaver`'s seat taken over.
    func checkEnd(_ alive: [Int], _ id: TableID, leaver: Int) throws {
        var states: [TableState] = []
        try waitFor("the game finishes on nodes \(alive)", seconds: 120) {
            states = try alive.map { try state($0, id) }
            return states.allSatisfy { $0.info.phase == .finished || $0.info.phase == .stopped }
        }
        for (i, st) in zip(alive, states) {
            XCTAssertEqual(st.info.phase, .finished, "node \(i): \(st.stopped ?? "")")
            XCTAssertEqual(st.deck, "deck verified", "node \(i)")
            XCTAssertEqual(st.takeovers.map(\.memberName), [harness.name(leaver)], "node \(i)")
        }
        XCTAssertEqual(Set(states.compactMap(\.stateHash)).count, 1, "final hashes differ")
    }

    func testAKilledMembersSealedSeatsPassToAnHeirAndTheGameEndsVerified() throws {
        let id = try sealedTableWaitingFor(3, game: "briscola", nodes: 4)
        harness.kill9(3)
        try checkEnd([0, 1, 2], id, leaver: 3)
        harness.stopAll()
        harness = try DaemonHarness(heartbeatInterval: heartbeat.interval, heartbeatTimeout: heartbeat.timeout)
        let spirits = try sealedTableWaitingFor(1, game: "spirits", nodes: 3)
        harness.kill9(1)
        try checkEnd([0, 2], spirits, leaver: 1)
    }

    /// Stopped past the grace, then back: it follows the rest of the game as a spectator and ends verified too.
    func testAStoppedMemberOfASealedBriscolaTableIsVotedOutAndFollowsToTheEnd() throws {
        let id = try sealedTableWaitingFor(2, game: "briscola", nodes: 3)
        harness.signal(2, SIGSTOP)
        try waitFor("a bot takes node 2's seat") { try (0...1).allSatisfy { try !state($0, id).takeovers.isEmpty } }
        harness.signal(2, SIGCONT)
        try checkEnd([0, 1], id, leaver: 2)
        try waitFor("node 2 follows to the end") { try state(2, id).info.phase == .finished }
        XCTAssertEqual(try state(2, id).deck, "deck verified")
        XCTAssertEqual(try state(2, id).stateHash, try state(0, id).stateHash)
    }
}
