import Foundation
import TavoloControl
import TavoloCore
import TavoloProtocol
import TavoloTable
import TavoloTestSupport
import XCTest

/// A game survives a lost player (PROTOCOL.md §9.9–): real `tavolod` processes killed with `kill -9`, stopped with
/// SIGSTOP and restarted with their state directory, on real sockets and real Avahi.
final class ResilienceIntegrationTests: XCTestCase {
    var harness: DaemonHarness!

    override func setUpWithError() throws {
        try requireAvahi()
        // Short heartbeats: a killed or stopped node is noticed in 1.5 s.
        harness = try DaemonHarness(heartbeatInterval: 0.3, heartbeatTimeout: 1.5)
    }

    override func tearDown() {
        harness?.stopAll()
    }

    func client(_ i: Int) throws -> ControlClient { try ControlClient(path: harness.nodes[i].controlPath) }

    func state(_ i: Int, _ id: TableID) throws -> TableState { try client(i).call(.state(table: id), as: TableState.self) }

    func waitFor(_ what: String, seconds: Double = 30, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if (try? condition()) == true { return }
            Thread.sleep(forTimeInterval: 0.1)
        }
        let tails = harness.nodes.indices.map { "--- \(harness.name($0)):\n\(harness.logTail($0, lines: 12))" }
        XCTFail("timed out: \(what)\n" + tails.joined(separator: "\n"))
        throw HarnessError("gave up waiting for \(what)")
    }

    /// Hosts a table on `host` (with `grace` seconds when given), seats `seats[i]` in order and starts it.
    func startTable(host: Int, game: String, seats: [(node: Int, bot: String?)], grace: Int? = nil) throws -> TableID {
        let info = try client(host).call(.host(game: game, players: seats.count, grace: grace), as: TableInfo.self)
        try waitFor("every node sees \(info.id)") {
            try seats.allSatisfy { s in
                try client(s.node).call(.tables, as: [TableInfo].self).contains { $0.id == info.id }
            }
        }
        for (i, s) in seats.enumerated() {
            _ = try client(s.node).call(.join(table: info.id, game: nil, seat: i, bot: s.bot), as: JoinResult.self)
        }
        try waitFor("seats taken") {
            try client(host).call(.tables, as: [TableInfo].self).first { $0.id == info.id }?.freeSeats.isEmpty == true
        }
        _ = try client(host).call(.start(table: info.id), as: TableInfo.self)
        return info.id
    }

    /// Plays the first legal move for node `i`'s human seat once it is that seat's turn; returns the move number.
    @discardableResult
    func playHumanMove(_ i: Int, _ id: TableID) throws -> Int {
        var st = try state(i, id)
        try waitFor("node \(i)'s turn") {
            st = try state(i, id)
            return st.info.phase == .playing && st.turn.map { st.mySeats.contains($0) } == true && !st.legalMoves.isEmpty
        }
        _ = try client(i).call(.move(table: id, move: st.legalMoves[0]), as: Empty.self)
        return st.moveNumber ?? 0
    }

    func gameLog(_ i: Int, _ id: TableID) throws -> GameLog {
        let path = "\(harness.nodes[i].stateDir)/games/\(id).json"
        return try JSONDecoder().decode(GameLog.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    }

    // MARK: Durability and ids

    func testARestartedHostNeverReusesATableID() throws {
        try harness.start(1)
        try waitFor("node up") { try client(0).call(.tables, as: [TableInfo].self).isEmpty }
        let first = try client(0).call(.host(game: "othello", players: 2), as: TableInfo.self).id
        harness.kill9(0)
        try harness.restart(0)
        try waitFor("node up again") { try client(0).call(.tables, as: [TableInfo].self).isEmpty }
        let second = try client(0).call(.host(game: "othello", players: 2), as: TableInfo.self).id
        XCTAssertNotEqual(first, second, "a restarted host reused table id \(first)")
    }

    /// `kill -9` a member mid-game: its log on disk holds every move it had applied (and so confirmed).
    func testAKilledMembersLogHoldsEveryMoveItConfirmed() throws {
        try harness.start(2)
        try harness.eventually("full mesh of 2", seconds: 30) { harness.isFullMesh([0, 1]) }
        // Othello: node 0 plays black by hand, node 1's bot white; the game waits at each of black's turns.
        let id = try startTable(host: 0, game: "othello", seats: [(0, nil), (1, "greedy")])
        for _ in 0..<3 { try playHumanMove(0, id) }
        var applied = 0
        try waitFor("black to play again") {
            let st = try state(1, id)
            applied = st.moveNumber ?? 0
            return st.turn == 0 && applied == 6
        }
        let hash = try state(1, id).stateHash
        harness.kill9(1)
        let log = try gameLog(1, id)
        XCTAssertEqual(log.moves.count, applied, "moves on disk after kill -9")
        XCTAssertEqual(log.moves.last?.after, hash?.hex)
        XCTAssertEqual(log.moves.map(\.number), Array(0..<applied))
    }
}
