import TavoloCore
import TavoloGames
import TavoloProtocol
import TavoloRecords
import TavoloTable
import TavoloTestSupport
import XCTest

/// Pause, catch-up, takeover, forfeit and abandon (PROTOCOL.md §9.10–9.13) on pure directories: no clock, no
/// sockets; links are cut and healed by hand and timers fired by hand.
final class TableResilienceTests: XCTestCase {
    struct Mesh {
        var nodes: [NodeID: TableDirectory] = [:]
        var order: [NodeID] = []
        var queue: [(from: NodeID, to: NodeID, message: TableMessage)] = []
        var events: [NodeID: [TableEvent]] = [:]
        var timers: [NodeID: [TableTimer]] = [:]
        var cut: Set<[NodeID]> = []
        /// The log lines each node wrote (its operator's view).
        var logs: [NodeID: [String]] = [:]
        /// What each node sent and received, as its packet log would hold it.
        var captured: [NodeID: [TableReplay.Captured]] = [:]

        init(_ count: Int) {
            for i in 0..<count {
                let id = NodeID(bytes: [UInt8](repeating: 0, count: 15) + [UInt8(i + 1)])!
                let context = TableContext(me: id, myName: "n\(i)", catalog: .standard)
                nodes[id] = TableDirectory(context: context, nonces: .reproducible(seed: 5, nodeIndex: UInt64(i)))
                order.append(id)
            }
            for a in order { for b in order where a != b { connect(a, b) } }
            run()
        }

        subscript(_ i: Int) -> NodeID { order[i] }

        mutating func connect(_ a: NodeID, _ b: NodeID) {
            apply(a, nodes[a]!.peerConnected(b, name: "n\(order.firstIndex(of: b)!)"))
        }

        mutating func apply(_ node: NodeID, _ effects: [TableEffect]) {
            for e in effects {
                switch e {
                case .send(let m, let to):
                    record(node, sender: node, m)
                    for t in to { queue.append((node, t, m)) }
                case .emit(let event): events[node, default: []].append(event)
                case .startTimer(let t, _): timers[node, default: []].append(t)
                case .log(_, let line): logs[node, default: []].append(line)
                default: break
                }
            }
        }

        /// Delivers until nothing is in flight; messages on a cut link are lost.
        mutating func run() {
            while !queue.isEmpty { step() }
        }

        /// Delivers one message in flight (lost if its link is cut).
        mutating func step() {
            guard !queue.isEmpty else { return }
            let (from, to, m) = queue.removeFirst()
            guard !cut.contains([from, to]), var d = nodes[to] else { return }
            record(to, sender: from, m)
            let effects = d.received(m, from: from)
            nodes[to] = d
            apply(to, effects)
        }

        mutating func record(_ node: NodeID, sender: NodeID, _ m: TableMessage) {
            guard let body = try? CanonicalJSON.encode(m) else { return }
            captured[node, default: []].append(
                TableReplay.Captured(frame: captured[node, default: []].count + 1, sender: sender, body: body))
        }

        /// Node `i` loses every link (each side sees the other lost), with what was in flight.
        mutating func isolate(_ i: Int) {
            for j in order.indices where j != i {
                cut.insert([order[i], order[j]])
                cut.insert([order[j], order[i]])
                lose(order[i], order[j])
                lose(order[j], order[i])
            }
        }

        mutating func lose(_ a: NodeID, _ b: NodeID) { apply(a, nodes[a]!.peerLost(b)) }

        mutating func heal(_ i: Int) {
            for j in order.indices where j != i {
                cut.remove([order[i], order[j]])
                cut.remove([order[j], order[i]])
                connect(order[i], order[j])
                connect(order[j], order[i])
            }
            run()
        }

        mutating func fire(_ i: Int, _ timer: TableTimer) {
            apply(order[i], nodes[order[i]]!.timerFired(timer))
            run()
        }

        mutating func request(
            _ i: Int, deliver: Bool = true,
            _ r: (inout TableDirectory) -> (Result<TableInfo, TableError>, [TableEffect])
        ) -> Result<TableInfo, TableError> {
            var d = nodes[order[i]]!
            let (result, effects) = r(&d)
            nodes[order[i]] = d
            apply(order[i], effects)
            if deliver { run() }
            return result
        }

        func table(_ i: Int, _ id: TableID) -> TableMachine? { nodes[order[i]]?.tables[id] }
        func kinds(_ i: Int) -> [TableEvent.Kind] { events[order[i], default: []].map(\.kind) }
        func moves(_ i: Int, _ id: TableID) -> Int { table(i, id)?.session?.moveNumber ?? -1 }
        func hash(_ i: Int, _ id: TableID) -> StateHash? { table(i, id)?.session?.stateHash }
    }

    /// The record a node writes of `log` carries its takeovers and holds for a peer that checks it (§11.4).
    func assertRecordHolds(_ log: GameLog, takeovers: [Bool], file: StaticString = #filePath, line: UInt = #line) throws
    {
        let record = try XCTUnwrap(RecordedGame.from(log, startedAt: nil, endedAt: 1), file: file, line: line)
        let body = try RecordVerifier(catalog: .standard).verify(id: record.id, body: record.body).get()
        XCTAssertEqual(body.takeovers?.map(\.forfeit), takeovers, file: file, line: line)
    }

    /// Othello hosted by n0 (no seat), seat 0 played by n1 (`bot0`, nil for a human), seat 1 by n2's human.
    func othello(_ mesh: inout Mesh, bot0: String?) throws -> TableID {
        let info = try mesh.request(0) { $0.host(game: "othello", players: 2) }.get()
        _ = try mesh.request(1) { $0.request(info.id, .join(seat: 0, bot: bot0)) }.get()
        _ = try mesh.request(2) { $0.request(info.id, .join(seat: 1, bot: nil)) }.get()
        _ = try mesh.request(0) { $0.request(info.id, .start) }.get()
        return info.id
    }

    func legal(_ mesh: Mesh, _ i: Int, _ id: TableID) throws -> JSONValue {
        try XCTUnwrap(mesh.table(i, id)?.view.legalMoves.first)
    }

    func testALostMemberPausesTheTableAndItsReturnResumesIt() throws {
        var mesh = Mesh(3)
        let id = try othello(&mesh, bot0: nil)
        let first = try legal(mesh, 1, id)
        _ = try mesh.request(1) { $0.request(id, .move(first)) }.get()
        mesh.isolate(2)
        for i in 0..<2 {
            XCTAssertEqual(mesh.table(i, id)?.info.phase, .paused)
            XCTAssertTrue(mesh.kinds(i).contains(.paused))
            XCTAssertEqual(mesh.table(i, id)?.view.absent, ["n2"])
        }
        XCTAssertTrue(mesh.timers[mesh[0], default: []].contains(.grace(id, member: mesh[2])))
        mesh.heal(2)
        for i in 0..<3 { XCTAssertEqual(mesh.table(i, id)?.info.phase, .playing, "node \(i)") }
        XCTAssertTrue(mesh.kinds(1).contains(.resumed))
        let reply = try legal(mesh, 2, id)
        _ = try mesh.request(2) { $0.request(id, .move(reply)) }.get()
        XCTAssertEqual(Set((0..<3).map { mesh.moves($0, id) }), [2])
        XCTAssertEqual(Set((0..<3).compactMap { mesh.hash($0, id) }).count, 1)
    }

    /// A move sent just before a member was lost never reached it: when it is back, it gets it from a catch-up.
    func testAMemberThatMissedMovesCatchesUp() throws {
        var mesh = Mesh(3)
        let id = try othello(&mesh, bot0: nil)
        let first = try legal(mesh, 1, id)
        _ = try mesh.request(1, deliver: false) { $0.request(id, .move(first)) }.get()
        mesh.isolate(2)
        mesh.run()
        XCTAssertEqual(mesh.moves(0, id), 1)
        XCTAssertEqual(mesh.moves(2, id), 0, "n2 got the move through a cut link")
        XCTAssertEqual(mesh.table(2, id)?.info.phase, .paused)
        mesh.heal(2)
        XCTAssertEqual(mesh.moves(2, id), 1)
        XCTAssertEqual(mesh.hash(2, id), mesh.hash(1, id))
        XCTAssertFalse(mesh.kinds(2).contains(.stopped))
    }

    /// A member that relays a move never played (another legal move, with the hash after it) is caught by the
    /// other members' word on the state.
    func testARelayedMoveThatWasNeverPlayedIsCaught() throws {
        var mesh = Mesh(3)
        let id = try othello(&mesh, bot0: nil)
        let legal = try XCTUnwrap(mesh.table(1, id)?.view.legalMoves)
        XCTAssertGreaterThan(legal.count, 1)
        let start = try XCTUnwrap(mesh.hash(1, id))
        _ = try mesh.request(1, deliver: false) { $0.request(id, .move(legal[0])) }.get()
        mesh.isolate(2)
        mesh.run()
        // n0 forges the catch-up: the other legal move, with the true hash after *that* move.
        let forgedGame = try XCTUnwrap(GameCatalog.standard["othello"]).session(
            players: 2, seed: try XCTUnwrap(mesh.table(0, id)?.jointSeed))
        try forgedGame.apply(try forgedGame.decodeMove(legal[1]))
        let forged = TableMessage.catchUp(
            table: id, deals: [],
            moves: [RelayedMove(number: 0, seat: 0, move: legal[1], stateHash: start, after: forgedGame.stateHash)])
        mesh.cut = []
        var d2 = mesh.nodes[mesh[2]]!
        mesh.apply(mesh[2], d2.received(forged, from: mesh[0]))
        mesh.nodes[mesh[2]] = d2
        XCTAssertEqual(mesh.moves(2, id), 1, "the forged move applies: it is legal")
        // n1's sync is its word on the state after move 0: it differs.
        mesh.apply(mesh[2], mesh.nodes[mesh[2]]!.peerConnected(mesh[1], name: "n1"))
        mesh.apply(mesh[1], mesh.nodes[mesh[1]]!.peerConnected(mesh[2], name: "n2"))
        mesh.run()
        XCTAssertEqual(mesh.table(2, id)?.stopReason?.code, .hashMismatch)
    }

    /// Past the grace period, the two members still here are a majority of three: a bot takes the lost seat at
    /// the move they agree on, and the game finishes.
    func testABotTakesTheSeatOfAMemberLostPastTheGrace() throws {
        var mesh = Mesh(3)
        let id = try othello(&mesh, bot0: "random")
        XCTAssertEqual(mesh.moves(0, id), 1, "n1's bot opened")
        mesh.isolate(2)
        mesh.fire(0, .grace(id, member: mesh[2]))
        XCTAssertEqual(mesh.table(0, id)?.info.phase, .paused, "one vote of three is no majority")
        mesh.fire(1, .grace(id, member: mesh[2]))
        for i in 0..<2 {
            let t = try XCTUnwrap(mesh.table(i, id))
            XCTAssertEqual(t.info.phase, .finished, "node \(i): \(t.stopReason.map { $0.reason } ?? "")")
            XCTAssertEqual(t.log.takeovers?.map(\.seats), [[1]])
            XCTAssertEqual(t.log.takeovers?.first?.appliedAt, 1)
            let heir = HeirOrder.first(of: [mesh[0], mesh[1]], jointSeed: t.jointSeed)
            XCTAssertEqual(t.info.seats[1].owner, heir, "the heir is the remaining member first in the heirs' order")
        }
        XCTAssertEqual(mesh.hash(0, id), mesh.hash(1, id))
        XCTAssertTrue(mesh.kinds(1).contains(.takenOver))
        // The game is the engine's with seat 1 played by the heir's bot from move 1: replaying the log agrees.
        let log = try XCTUnwrap(mesh.table(1, id)?.log)
        try assertRecordHolds(log, takeovers: [false])
        let replayed = try TableMachine(restoring: log, TableContext(me: mesh[1], myName: "n1", catalog: .standard))
        XCTAssertEqual(replayed.session?.stateHash, mesh.hash(1, id))
        // So does the packet-log replay of what n1 sent and received (votes included), as an auditor.
        let outcome = try XCTUnwrap(TableReplay(catalog: .standard).run(mesh.captured[mesh[1], default: []]).first)
        XCTAssertNil(outcome.problem)
        XCTAssertEqual(outcome.finalHash, mesh.hash(1, id))
    }

    /// One member of three is a minority: it waits, paused, and never plays on its own.
    func testAMinorityWaitsAndNeverPlays() throws {
        var mesh = Mesh(3)
        let id = try othello(&mesh, bot0: "random")
        mesh.isolate(2)
        mesh.fire(2, .grace(id, member: mesh[0]))
        mesh.fire(2, .grace(id, member: mesh[1]))
        let t = try XCTUnwrap(mesh.table(2, id))
        XCTAssertEqual(t.info.phase, .paused)
        XCTAssertEqual(t.session?.moveNumber, 1)
        XCTAssertTrue(t.replaced.isEmpty)
    }

    /// A member whose bot plays next skips its confirmation (its move carries the hash), but not while the table is
    /// paused: its bot waits for every member, and the host would wait for its word as long. The host does not
    /// report a lost member's missing confirmations either: the pause already names it.
    func testAPausedMemberWhoseBotPlaysNextStillConfirms() throws {
        var mesh = Mesh(4)
        let info = try mesh.request(0) { $0.host(game: "spirits", players: 3) }.get()
        _ = try mesh.request(1) { $0.request(info.id, .join(seat: 0, bot: "random")) }.get()
        _ = try mesh.request(2) { $0.request(info.id, .join(seat: 1, bot: nil)) }.get()
        _ = try mesh.request(3) { $0.request(info.id, .join(seat: 2, bot: nil)) }.get()
        _ = try mesh.request(0) { $0.request(info.id, .start) }.get()
        // Seats play 0, 1, 2 in turn from the one the joint seed names; n1's bot plays its own at once.
        for _ in 0..<3 where mesh.table(3, info.id)?.view.turn != 2 {
            XCTAssertEqual(mesh.table(2, info.id)?.view.turn, 1)
            let move = try legal(mesh, 2, info.id)
            _ = try mesh.request(2) { $0.request(info.id, .move(move)) }.get()
        }
        XCTAssertEqual(mesh.table(3, info.id)?.view.turn, 2)
        let number = mesh.moves(3, info.id)
        // n3 moves, and n2 is lost before the move reaches anyone: n1 applies it paused, its bot to play next.
        let third = try legal(mesh, 3, info.id)
        _ = try mesh.request(3, deliver: false) { $0.request(info.id, .move(third)) }.get()
        mesh.isolate(2)
        mesh.run()
        XCTAssertEqual(mesh.table(1, info.id)?.info.phase, .paused)
        XCTAssertEqual(mesh.moves(1, info.id), number + 1)
        XCTAssertEqual(mesh.table(1, info.id)?.view.turn, 0, "n1's bot plays next")
        let confirmed = mesh.captured[mesh[0], default: []].contains { c in
            guard c.sender == mesh[1], let m = try? TableMessage.decode(wire: c.body),
                case .confirm(_, let n, _) = m
            else { return false }
            return n == number
        }
        XCTAssertTrue(confirmed, "n1 confirms move \(number) to the host while paused")
        mesh.fire(0, .confirmations(info.id, move: number))
        XCTAssertFalse(
            mesh.logs[mesh[0], default: []].contains { $0.contains("no confirmation") },
            "\(mesh.logs[mesh[0], default: []])")
        mesh.heal(2)
        for i in 0..<4 { XCTAssertEqual(mesh.table(i, info.id)?.info.phase, .playing, "node \(i)") }
        XCTAssertEqual(Set((0..<4).compactMap { mesh.hash($0, info.id) }).count, 1)
    }

    func testLeavingDuringPlayIsAForfeit() throws {
        var mesh = Mesh(3)
        let id = try othello(&mesh, bot0: "random")
        _ = try mesh.request(2) { $0.request(id, .leave) }.get()
        XCTAssertEqual(mesh.table(2, id)?.stopReason?.code, .memberLeft)
        for i in 0..<2 {
            let t = try XCTUnwrap(mesh.table(i, id))
            XCTAssertEqual(t.info.phase, .finished, "node \(i)")
            XCTAssertEqual(t.log.takeovers?.first?.forfeit, true)
            XCTAssertEqual(t.log.takeovers?.first?.memberName, "n2")
        }
    }

    /// A member cut off when another left misses the forfeit, and no vote exists for it to be sent again: the one
    /// that left sends it again when the member's session comes back, and the member agrees it like everyone.
    func testAForfeitMissedWhileCutOffIsLearnedOnReturn() throws {
        var mesh = Mesh(3)
        let id = try othello(&mesh, bot0: nil)
        mesh.isolate(1)
        // n2 leaves while n1 is cut off: n0 agrees its forfeit; n1 never hears of it.
        _ = try mesh.request(2) { $0.request(id, .leave) }.get()
        XCTAssertEqual(mesh.table(0, id)?.replaced, [mesh[2]])
        XCTAssertEqual(mesh.table(1, id)?.replaced, [], "n1 was cut off")
        XCTAssertEqual(mesh.table(1, id)?.info.phase, .paused)
        mesh.heal(1)
        let t1 = try XCTUnwrap(mesh.table(1, id))
        XCTAssertEqual(t1.replaced, [mesh[2]], "n1 learned the forfeit from n2 on its return")
        XCTAssertEqual(t1.info.phase, .playing, "n2 is not waited for: \(t1.view.absent)")
        // n1 plays its seat; n0's bot, the heir of n2's seat, answers; both end with the same game and log.
        while let t = mesh.table(1, id), t.info.phase == .playing, t.view.turn == 0 {
            let move = try legal(mesh, 1, id)
            _ = try mesh.request(1) { $0.request(id, .move(move)) }.get()
        }
        for i in 0..<2 {
            let t = try XCTUnwrap(mesh.table(i, id))
            XCTAssertEqual(t.info.phase, .finished, "node \(i): \(t.stopReason.map { $0.reason } ?? "")")
            XCTAssertEqual(t.log.takeovers?.map(\.forfeit), [true], "node \(i)")
            XCTAssertEqual(t.log.takeovers?.first?.appliedAt, mesh.table(0, id)?.log.takeovers?.first?.appliedAt)
        }
        XCTAssertEqual(mesh.hash(0, id), mesh.hash(1, id))
        for i in 0..<2 { try assertRecordHolds(try XCTUnwrap(mesh.table(i, id)?.log), takeovers: [true]) }
    }

    /// Two members: the one left can never be a majority; after the grace it may end the table as abandoned.
    func testATwoMemberTableIsAbandonedNotTakenOver() throws {
        var mesh = Mesh(2)
        let info = try mesh.request(0) { $0.host(game: "othello", players: 2) }.get()
        _ = try mesh.request(0) { $0.request(info.id, .join(seat: 0, bot: nil)) }.get()
        _ = try mesh.request(1) { $0.request(info.id, .join(seat: 1, bot: nil)) }.get()
        _ = try mesh.request(0) { $0.request(info.id, .start) }.get()
        mesh.isolate(1)
        XCTAssertThrowsError(try mesh.request(0) { $0.request(info.id, .move(.string("d3"))) }.get()) {
            XCTAssertEqual(($0 as? TableError)?.code, .paused)
        }
        mesh.fire(0, .grace(info.id, member: mesh[1]))
        XCTAssertEqual(mesh.table(0, info.id)?.info.phase, .paused)
        _ = try mesh.request(0) { $0.request(info.id, .leave) }.get()
        XCTAssertEqual(mesh.table(0, info.id)?.stopReason?.code, .abandoned)
    }

    /// A node alone at its table (its user and its bot) that leaves ends the table: nobody plays on, and the stop says
    /// so (it said "a bot plays their seats", and was logged as an error).
    func testALoneMemberThatLeavesEndsItsTable() throws {
        var mesh = Mesh(1)
        let info = try mesh.request(0) { $0.host(game: "othello", players: 2) }.get()
        _ = try mesh.request(0) { $0.request(info.id, .join(seat: 0, bot: nil)) }.get()
        _ = try mesh.request(0) { $0.request(info.id, .join(seat: 1, bot: "greedy")) }.get()
        _ = try mesh.request(0) { $0.request(info.id, .start) }.get()
        _ = try mesh.request(0) { $0.request(info.id, .leave) }.get()
        let stop = try XCTUnwrap(mesh.table(0, info.id)?.stopReason)
        XCTAssertEqual(stop.code, .memberLeft)
        XCTAssertFalse(stop.reason.contains("a bot plays"), stop.reason)
    }
}
