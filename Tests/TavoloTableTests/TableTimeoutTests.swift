import TavoloCore
import TavoloGames
import TavoloProtocol
import XCTest

@testable import TavoloTable

/// Every wait on a peer ends (PROTOCOL.md §9.8). Timers fire when the test says so: no clock.
final class TableTimeoutTests: XCTestCase {
    typealias Mesh = TableMachineTests.Mesh

    /// `node` sent nothing more from now on (it is connected, but silent at the table layer).
    func silence(_ mesh: inout Mesh, _ node: Int) {
        mesh.nodes[mesh[node]] = nil
        let silent = mesh[node]
        mesh.queue.removeAll { $0.from == silent }
    }

    /// Fires `timer` at node `i` and delivers what follows; returns the effects of the firing itself.
    @discardableResult
    func fire(_ mesh: inout Mesh, _ i: Int, _ timer: TableTimer) throws -> [TableEffect] {
        var d = try XCTUnwrap(mesh.nodes[mesh[i]])
        let effects = d.timerFired(timer)
        mesh.nodes[mesh[i]] = d
        mesh.apply(mesh[i], effects)
        mesh.run()
        return effects
    }

    func seated(_ mesh: inout Mesh, game: String, bots: [String?]) throws -> TableID {
        let info = try mesh.request(0) { $0.host(game: game, players: bots.count) }.get()
        for (i, bot) in bots.enumerated() {
            _ = try mesh.request(i) { $0.request(info.id, .join(seat: i, bot: bot)) }.get()
        }
        return info.id
    }

    /// A participant that never commits: every other member stops the table on its own timer, and the stop it
    /// sends reaches the rest, so nobody waits for ever and nobody re-seeds (which would let the silent one pick).
    func testAParticipantThatNeverCommitsStopsTheTableEverywhere() throws {
        var mesh = Mesh(3)
        let id = try seated(&mesh, game: "spirits", bots: ["random", "random", "random"])
        silence(&mesh, 2)
        _ = try mesh.request(0) { $0.request(id, .start) }.get()
        XCTAssertEqual(mesh.table(1, id)?.info.phase, .seeding)
        XCTAssertTrue(mesh.timers[mesh[1]]?.contains(.seeding(id)) == true)
        try fire(&mesh, 1, .seeding(id))
        for i in 0..<2 {
            XCTAssertEqual(mesh.table(i, id)?.info.phase, .stopped, "node \(i)")
            XCTAssertEqual(mesh.table(i, id)?.stopReason?.code, .timeout, "node \(i)")
        }
        XCTAssertTrue(try XCTUnwrap(mesh.table(1, id)?.stopReason?.reason).contains("n2"))
    }

    /// The same timer on a table whose seed came in time changes nothing.
    func testTimersThatFireAfterTheirWaitEndedChangeNothing() throws {
        var mesh = Mesh(2)
        let id = try seated(&mesh, game: "othello", bots: [nil, nil])
        _ = try mesh.request(0) { $0.request(id, .start) }.get()
        XCTAssertEqual(mesh.table(1, id)?.info.phase, .playing)
        _ = try mesh.request(0) { $0.request(id, .move(.string("d3"))) }.get()
        let sent = mesh.sent.count
        for timer: TableTimer in [.seeding(id), .confirmations(id, move: 0), .results(id), .seatRequest(id)] {
            XCTAssertTrue(try fire(&mesh, 0, timer).isEmpty, "\(timer)")
            try fire(&mesh, 1, timer)
        }
        XCTAssertEqual(mesh.sent.count, sent)
        XCTAssertEqual(mesh.table(0, id)?.info.phase, .playing)
        XCTAssertFalse(mesh.kinds(1).contains(.seatRefused))
    }

    /// A host that never answers a seat request: the requester hears so, as a refusal.
    func testASeatRequestTheHostNeverAnswersIsReportedAsRefused() throws {
        var mesh = Mesh(2)
        let info = try mesh.request(0) { $0.host(game: "othello", players: 2) }.get()
        silence(&mesh, 0)
        _ = try mesh.request(1) { $0.request(info.id, .join(seat: 1, bot: nil)) }.get()
        XCTAssertTrue(mesh.timers[mesh[1]]?.contains(.seatRequest(info.id)) == true)
        XCTAssertFalse(mesh.kinds(1).contains(.seatRefused))
        try fire(&mesh, 1, .seatRequest(info.id))
        XCTAssertEqual(mesh.kinds(1).filter { $0 == .seatRefused }.count, 1)
        try fire(&mesh, 1, .seatRequest(info.id))
        XCTAssertEqual(mesh.kinds(1).filter { $0 == .seatRefused }.count, 1, "reported once")
    }

    /// A member that does not confirm a move is reported by the mover; the game goes on.
    func testAMissingConfirmationIsReportedNotFatal() throws {
        var mesh = Mesh(2)
        let id = try seated(&mesh, game: "othello", bots: [nil, nil])
        _ = try mesh.request(0) { $0.request(id, .start) }.get()
        silence(&mesh, 1)
        _ = try mesh.request(0) { $0.request(id, .move(.string("d3"))) }.get()
        XCTAssertTrue(mesh.timers[mesh[0]]?.contains(.confirmations(id, move: 0)) == true)
        let effects = try fire(&mesh, 0, .confirmations(id, move: 0))
        let warnings = effects.compactMap { e -> String? in
            if case .log(.warning, let line) = e { return line }
            return nil
        }
        XCTAssertEqual(warnings.count, 1)
        XCTAssertTrue(warnings.first?.contains("n1") == true)
        XCTAssertEqual(mesh.table(0, id)?.info.phase, .playing)
        XCTAssertFalse(mesh.timers[mesh[0]]?.contains(.botMove(id, number: 1)) == true, "a human may think")
        try fire(&mesh, 0, .botMove(id, number: 1))
        XCTAssertEqual(mesh.table(0, id)?.info.phase, .playing, "a human may think")
    }

    /// Two members: a move of the member leaves the host nobody else's confirmation to wait for (the mover sends
    /// none of its own move, §9.4), so no deadline runs to report it missing; the mover waits for the host's.
    func testAMoveOfTheOnlyOtherMemberStartsNoDeadlineAtTheHost() throws {
        var mesh = Mesh(2)
        let id = try seated(&mesh, game: "othello", bots: [nil, nil])
        _ = try mesh.request(0) { $0.request(id, .start) }.get()
        _ = try mesh.request(0) { $0.request(id, .move(.string("d3"))) }.get()
        XCTAssertEqual(mesh.table(1, id)?.session?.moveNumber, 1)
        _ = try mesh.request(1) { $0.request(id, .move(.string("c3"))) }.get()
        XCTAssertEqual(mesh.table(0, id)?.session?.moveNumber, 2)
        XCTAssertFalse(mesh.timers[mesh[0]]?.contains(.confirmations(id, move: 1)) == true)
        XCTAssertTrue(mesh.timers[mesh[1]]?.contains(.confirmations(id, move: 1)) == true, "the mover waits")
        XCTAssertNil(mesh.table(1, id)?.confirmedBy[1], "and the host's confirmation came")
        XCTAssertNil(mesh.table(0, id)?.confirmedBy[1])
        XCTAssertEqual(mesh.table(0, id)?.info.phase, .playing)
    }

    /// Another node's bot that does not move: stopped, since a bot answers without asking anyone.
    func testABotMoveThatNeverComesStopsTheTable() throws {
        var mesh = Mesh(2)
        let id = try seated(&mesh, game: "othello", bots: [nil, "random"])
        _ = try mesh.request(0) { $0.request(id, .start) }.get()
        silence(&mesh, 1)
        _ = try mesh.request(0) { $0.request(id, .move(.string("d3"))) }.get()
        XCTAssertEqual(mesh.timers[mesh[0]]?.filter { $0 == .botMove(id, number: 1) }.count, 1)
        try fire(&mesh, 0, .botMove(id, number: 1))
        XCTAssertEqual(mesh.table(0, id)?.stopReason?.code, .timeout)
    }

    /// A host that never deals: every member stops the table instead of waiting for the cards.
    func testADealThatNeverComesStopsTheTable() throws {
        var mesh = Mesh(2)
        let id = try seated(&mesh, game: "briscola", bots: ["random", "random"])
        var d = try XCTUnwrap(mesh.nodes[mesh[0]])
        let (result, effects) = d.request(id, .start)
        XCTAssertNoThrow(try result.get())
        mesh.nodes[mesh[0]] = d
        mesh.apply(mesh[0], effects)
        let n0 = mesh[0]
        deliver(&mesh) { from, m in
            if case .deal = m { return from != n0 }
            return true
        }
        XCTAssertEqual(mesh.table(1, id)?.info.phase, .playing)
        XCTAssertTrue(mesh.timers[mesh[1]]?.contains(.deal(id, number: 1)) == true)
        try fire(&mesh, 1, .deal(id, number: 1))
        XCTAssertEqual(mesh.table(1, id)?.stopReason?.code, .timeout)
        XCTAssertEqual(mesh.table(0, id)?.stopReason?.code, .timeout)
    }

    /// Delivers what is in flight, except the messages `keep` refuses.
    func deliver(_ mesh: inout Mesh, keep: (NodeID, TableMessage) -> Bool) {
        while !mesh.queue.isEmpty {
            let (from, to, m) = mesh.queue.removeFirst()
            guard keep(from, m), var node = mesh.nodes[to] else { continue }
            let out = node.received(m, from: from)
            mesh.nodes[to] = node
            mesh.apply(to, out)
        }
    }

    /// A member that never sends its result: the others stop the table instead of waiting at the end.
    func testAMissingResultStopsTheTable() throws {
        var mesh = Mesh(2)
        let id = try seated(&mesh, game: "othello", bots: ["random", "random"])
        // n1 plays but its results never arrive.
        var d = try XCTUnwrap(mesh.nodes[mesh[0]])
        let (result, effects) = d.request(id, .start)
        XCTAssertNoThrow(try result.get())
        mesh.nodes[mesh[0]] = d
        mesh.apply(mesh[0], effects)
        let n1 = mesh[1]
        deliver(&mesh) { from, m in
            if case .result = m { return from != n1 }
            return true
        }
        XCTAssertEqual(mesh.table(0, id)?.info.phase, .playing, "waiting for n1's result")
        XCTAssertNotNil(mesh.table(0, id)?.session?.outcome)
        XCTAssertTrue(mesh.timers[mesh[0]]?.contains(.results(id)) == true)
        try fire(&mesh, 0, .results(id))
        XCTAssertEqual(mesh.table(0, id)?.stopReason?.code, .timeout)
        // n1 had both results: it finished, and a stop after the end changes nothing there.
        XCTAssertEqual(mesh.table(1, id)?.info.phase, .finished)
    }
}
