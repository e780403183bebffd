import Foundation
import TavoloControl
import TavoloCore
import TavoloTable
import TavoloTestSupport
import XCTest

/// A member of a sealed table killed with `kill -9` and started again with its state directory (PROTOCOL.md §14.12):
/// it deals the game again from the secret its journal kept and the members' messages sent again, catches up every
/// move with its opening, holds the same hand as before, and plays on; nobody takes its seat.
extension SealedHeirIntegrationTests {
    func testAMemberKilledAndRestartedResumesItsSealedGames() throws {
        for game in ["briscola", "spirits"] {
            let id = try sealedTableWaitingFor(2, game: game, nodes: 3, grace: 60)
            let before = try state(2, id)
            harness.kill9(2)
            try waitFor("\(game): node 0 pauses") { try state(0, id).info.phase == .paused }
            try harness.restart(2)
            try waitFor("\(game): node 2 is back at its turn, at the same move", seconds: 90) {
                let st = try state(2, id)
                return st.info.phase == .playing && st.moveNumber == before.moveNumber && !st.legalMoves.isEmpty
            }
            XCTAssertEqual(try state(2, id).legalMoves, before.legalMoves, "\(game): the same hand after the restart")
            try playToTheEnd(2, id, nodes: 3)
            try checkEveryNodeEndsVerified(id, nodes: 3, game)
            harness.stopAll()
            harness = try DaemonHarness(heartbeatInterval: heartbeat.interval, heartbeatTimeout: heartbeat.timeout)
        }
    }

    /// Every member killed at once and started again (a power cut): nobody holds the moves to catch the others up
    /// from, so each plays its own seats' journaled moves again (§14.12). Before, each began the game again from move
    /// 0 and their bots played a new game over the lost one.
    func testEveryMemberKilledTogetherResumesWithEveryMove() throws {
        let id = try sealedTableWaitingFor(2, game: "briscola", nodes: 3, grace: 60)
        for _ in 0..<3 {
            try waitFor("node 2 plays a move") {
                let st = try state(2, id)
                guard let move = st.legalMoves.first else { return false }
                _ = try? client(2).call(.move(table: id, move: move))
                return true
            }
            try waitFor("node 2's turn again", seconds: 30) {
                let st = try state(2, id)
                return st.turn.map { st.mySeats.contains($0) } == true && !st.legalMoves.isEmpty
            }
        }
        let before = try (0..<3).map { try state($0, id) }
        XCTAssertEqual(Set(before.compactMap(\.moveNumber)).count, 1, "the nodes were at one move")
        XCTAssertGreaterThan(before[0].moveNumber ?? 0, 6)
        for i in 0..<3 { harness.kill9(i) }
        for i in 0..<3 { try harness.restart(i) }
        try waitFor("every node back at the same move, node 2 to play", seconds: 90) {
            let states = try (0..<3).map { try state($0, id) }
            return states.allSatisfy { $0.info.phase == .playing && $0.moveNumber == before[0].moveNumber }
                && !states[2].legalMoves.isEmpty
        }
        for i in 0..<3 { XCTAssertEqual(try state(i, id).stateHash, before[i].stateHash, "node \(i): another state") }
        XCTAssertEqual(try state(2, id).legalMoves, before[2].legalMoves, "the same hand after the restart")
        try playToTheEnd(2, id, nodes: 3)
        try checkEveryNodeEndsVerified(id, nodes: 3, "briscola")
    }

    /// Every node ends the game finished on one state, the deck verified, nobody's seat taken.
    func checkEveryNodeEndsVerified(_ id: TableID, nodes: Int, _ game: String) throws {
        var states: [TableState] = []
        try waitFor("\(game): every node ends", seconds: 120) {
            states = try (0..<nodes).map { try state($0, id) }
            return states.allSatisfy { $0.info.phase.isOver }
        }
        for (i, st) in states.enumerated() {
            XCTAssertEqual(st.info.phase, .finished, "\(game): node \(i): \(st.stopped ?? "")")
            XCTAssertEqual(st.deck, "deck verified", "\(game): node \(i)")
            XCTAssertEqual(st.takeovers.count, 0, "\(game): node \(i): nobody took a seat")
        }
        XCTAssertEqual(Set(states.compactMap(\.stateHash)).count, 1, "\(game): final hashes differ")
    }

    /// Plays node `i`'s seat (its first legal move at each of its turns) until the game is over there.
    func playToTheEnd(_ i: Int, _ id: TableID, nodes: Int) throws {
        try waitFor("node \(i) plays its seat to the end", seconds: 180) {
            let st = try state(i, id)
            if st.info.phase == .playing, st.turn.map({ st.mySeats.contains($0) }) == true,
                let move = st.legalMoves.first
            {
                _ = try? client(i).call(.move(table: id, move: move))
            }
            return st.info.phase.isOver
        }
    }
}
