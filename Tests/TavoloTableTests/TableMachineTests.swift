import TavoloCore
import TavoloGames
import TavoloProtocol
import TavoloTable
import TavoloTestSupport
import XCTest

/// The table rules with no actor, no clock and no network: directories exchange effects synchronously.
final class TableMachineTests: XCTestCase {
    /// Nodes n0, n1, … as pure directories, and the messages between them, delivered in order.
    struct Mesh {
        var nodes: [NodeID: TableDirectory] = [:]
        var order: [NodeID] = []
        var queue: [(from: NodeID, to: NodeID, message: TableMessage)] = []
        var events: [NodeID: [TableEvent]] = [:]
        var timers: [NodeID: [TableTimer]] = [:]
        var sent: [TableMessage] = []
        /// Every message delivered, in order.
        var delivered: [(from: NodeID, to: NodeID, message: TableMessage)] = []
        /// Delivers each message as its receiver would get it from the wire: encoded as a node sends it (the hot
        /// messages compact, their hashes short, §13) and decoded again.
        var overTheWire = false
        /// The last log each node persisted, by table.
        var persisted: [NodeID: [TableID: GameLog]] = [:]
        /// Messages lost on the way (a test's own fault): never delivered.
        var loses: ((_ from: NodeID, _ to: NodeID, _ message: TableMessage) -> Bool)?

        init(_ count: Int) {
            for i in 0..<count {
                let id = NodeID(bytes: [UInt8](repeating: 0, count: 15) + [UInt8(i + 1)])!
                let context = TableContext(me: id, myName: "n\(i)", catalog: .standard)
                nodes[id] = TableDirectory(context: context, nonces: .reproducible(seed: 5, nodeIndex: UInt64(i)))
                order.append(id)
            }
            for a in order {
                for b in order where a != b {
                    apply(a, nodes[a]!.peerConnected(b, name: "n\(order.firstIndex(of: b)!)"))
                }
            }
            run()
        }

        subscript(_ i: Int) -> NodeID { order[i] }

        mutating func apply(_ node: NodeID, _ effects: [TableEffect]) {
            for e in effects {
                switch e {
                case .send(let m, let to):
                    sent.append(m)
                    for t in to { queue.append((node, t, m)) }
                case .emit(let event): events[node, default: []].append(event)
                case .startTimer(let t, _): timers[node, default: []].append(t)
                case .persist(let log): persisted[node, default: [:]][log.table.id] = log
                default: break
                }
            }
        }

        /// Delivers until nothing is in flight.
        mutating func run() {
            while !queue.isEmpty {
                var (from, to, m) = queue.removeFirst()
                if overTheWire { m = try! TableMessage.decode(wire: try! m.wireBytes()) }
                if loses?(from, to, m) == true { continue }
                delivered.append((from, to, m))
                guard var d = nodes[to] else { continue }
                let effects = d.received(m, from: from)
                nodes[to] = d
                apply(to, effects)
            }
        }

        mutating func request(_ i: Int, _ r: (inout TableDirectory) -> (Result<TableInfo, TableError>, [TableEffect]))
            -> Result<TableInfo, TableError>
        {
            var d = nodes[order[i]]!
            let (result, effects) = r(&d)
            nodes[order[i]] = d
            apply(order[i], effects)
            run()
            return result
        }

        func table(_ i: Int, _ id: TableID) -> TableMachine? { nodes[order[i]]?.tables[id] }
        func kinds(_ i: Int) -> [TableEvent.Kind] { events[order[i], default: []].map(\.kind) }
    }

    func seatedTable(_ mesh: inout Mesh, game: String, bots: [String?]) throws -> TableID {
        let info = try mesh.request(0) { $0.host(game: game, players: bots.count) }.get()
        for (i, bot) in bots.enumerated() {
            _ = try mesh.request(i) { $0.request(info.id, .join(seat: i, bot: bot)) }.get()
        }
        return info.id
    }

    func testThreeBotsPlayToTheEndAndAgreeWithPlayout() throws {
        var mesh = Mesh(3)
        let id = try seatedTable(&mesh, game: "spirits", bots: ["heuristic", "random", "heuristic"])
        _ = try mesh.request(0) { $0.request(id, .start) }.get()
        let hashes = (0..<3).compactMap { mesh.table($0, id)?.session?.stateHash }
        XCTAssertEqual(hashes.count, 3)
        XCTAssertEqual(Set(hashes).count, 1)
        XCTAssertTrue((0..<3).allSatisfy { mesh.table($0, id)?.info.phase == .finished })
        let seed = try XCTUnwrap(mesh.table(1, id)?.jointSeed)
        let playout = try XCTUnwrap(GameCatalog.standard["spirits"]).playout(
            PlayoutRequest(players: 3, games: 1, seed: seed, bots: ["heuristic", "random", "heuristic"]))
        XCTAssertEqual(playout.finalHash, hashes.first)
        XCTAssertEqual(mesh.kinds(1).filter { $0 == .dealt }.count, 3)
        XCTAssertTrue(mesh.timers[mesh[0]]?.contains(.expire(id)) == true, "a finished table expires")
        // The same seed and nonces give the same game: the machine is a pure function of its inputs.
        var again = Mesh(3)
        let id2 = try seatedTable(&again, game: "spirits", bots: ["heuristic", "random", "heuristic"])
        _ = try again.request(0) { $0.request(id2, .start) }.get()
        XCTAssertEqual(again.table(2, id2)?.session?.stateHash, hashes.first)
    }

    /// Members confirm to the host only, and never their own move; the host confirms a move to its mover only,
    /// never its own move (PROTOCOL.md §9.4). Played over the wire, so every hash a node compares is the short one a peer sent (§13.2),
    /// and the game still ends agreed.
    func testConfirmationsGoToTheHostAndTheHostsToTheMover() throws {
        var mesh = Mesh(3)
        mesh.overTheWire = true
        let id = try seatedTable(&mesh, game: "spirits", bots: ["heuristic", "random", "heuristic"])
        _ = try mesh.request(0) { $0.request(id, .start) }.get()
        XCTAssertTrue((0..<3).allSatisfy { mesh.table($0, id)?.info.phase == .finished })
        let confirms = mesh.delivered.filter { if case .confirm = $0.message { true } else { false } }
        XCTAssertFalse(confirms.isEmpty)
        for c in confirms where c.from != mesh[0] { XCTAssertEqual(c.to, mesh[0], "a member confirms to the host") }
        var mover: [Int: NodeID] = [:]
        for d in mesh.delivered { if case .move(_, let number, _, _, _) = d.message { mover[number] = d.from } }
        for c in confirms {
            guard case .confirm(_, let number, _) = c.message else { continue }
            XCTAssertNotEqual(mover[number], c.from, "a mover confirms nothing of its own move (move \(number))")
        }
        let fromHost = confirms.filter { $0.from == mesh[0] }
        XCTAssertFalse(fromHost.isEmpty)
        for c in fromHost {
            guard case .confirm(_, let number, _) = c.message else { continue }
            XCTAssertNotEqual(mover[number], mesh[0], "the host confirms no move of its own")
            XCTAssertEqual(c.to, mover[number], "the host's confirmation of move \(number) goes to its mover only")
        }
        XCTAssertEqual(
            fromHost.count,
            Set(
                fromHost.map { c -> Int in
                    if case .confirm(_, let n, _) = c.message { n } else { -1 }
                }
            ).count, "one confirmation per move")
        XCTAssertTrue(
            confirms.allSatisfy { c in
                if case .confirm(_, _, let h) = c.message { h.bytes.count == StateHash.shortSize } else { false }
            })
        let checked = (0..<3).compactMap { mesh.table($0, id)?.hashesChecked }
        XCTAssertTrue(checked.allSatisfy { $0 > 0 }, "\(checked)")
    }

    /// A member whose hash after a move differs is caught from the short hash it sends.
    func testADivergingShortHashStopsTheTable() throws {
        var mesh = Mesh(2)
        mesh.overTheWire = true
        let id = try seatedTable(&mesh, game: "othello", bots: [nil, nil])
        _ = try mesh.request(0) { $0.request(id, .start) }.get()
        _ = try mesh.request(0) { $0.request(id, .move(.string("d3"))) }.get()
        XCTAssertEqual(mesh.table(0, id)?.info.phase, .playing)
        // Node 1 claims another state after move 0: only the first 8 bytes travel, and they differ.
        var d = mesh.nodes[mesh[0]]!
        let wrong = StateHash(canonical: Array("another state".utf8))
        let claimed = try TableMessage.decode(
            wire: try TableMessage.confirm(table: id, number: 0, stateHash: wrong).wireBytes())
        mesh.apply(mesh[0], d.received(claimed, from: mesh[1]))
        mesh.nodes[mesh[0]] = d
        XCTAssertEqual(mesh.table(0, id)?.stopReason?.code, .hashMismatch)
    }

    /// Every member's last log says the table finished, as the host's does: that log is what each node records
    /// (§11) and what a restart reads. (Only the host's did: members never recorded their own games.)
    func testEveryMembersLastLogSaysTheTableFinished() throws {
        var mesh = Mesh(2)
        let id = try seatedTable(&mesh, game: "othello", bots: ["random", "greedy"])
        _ = try mesh.request(0) { $0.request(id, .start) }.get()
        let logs = (0..<2).compactMap { mesh.persisted[mesh[$0]]?[id] }
        XCTAssertEqual(logs.count, 2)
        XCTAssertEqual(logs.map(\.table.phase), [.finished, .finished])
        XCTAssertEqual(Set(logs.map { $0.moves.map(\.after) }).count, 1)
        XCTAssertEqual(Set(logs.compactMap(\.finalHash)).count, 1)
    }

    func testExpiredTablesLeaveTheLobby() throws {
        var mesh = Mesh(2)
        let id = try seatedTable(&mesh, game: "othello", bots: ["random", "random"])
        _ = try mesh.request(0) { $0.request(id, .start) }.get()
        XCTAssertEqual(mesh.table(1, id)?.info.phase, .finished)
        var d = mesh.nodes[mesh[1]]!
        _ = d.timerFired(.expire(id))
        XCTAssertNil(d.tables[id])
        XCTAssertTrue(d.list().isEmpty)
    }

    /// A node that is not a member may say what it likes: it changes nothing and is never answered.
    func testMessagesFromANonMemberAreIgnored() throws {
        var mesh = Mesh(3)
        let id = try seatedTable(&mesh, game: "othello", bots: [nil, nil])
        _ = try mesh.request(0) { $0.request(id, .start) }.get()
        let outsider = mesh[2]
        let hash = try XCTUnwrap(mesh.table(0, id)?.session?.stateHash)
        let sentBefore = mesh.sent.count
        for m: TableMessage in [
            .deal(table: id, number: 1, cards: [1, 2, 3]),
            .move(table: id, number: 0, seat: 0, move: .string("d3"), stateHash: hash),
            .stop(table: id, code: .hashMismatch, reason: "forged"),
            .reject(table: id, number: 0, code: .illegal, reason: "\u{1B}[2Jforged"),
        ] {
            for member in 0..<2 {
                var d = mesh.nodes[mesh[member]]!
                let effects = d.received(m, from: outsider)
                mesh.nodes[mesh[member]] = d
                mesh.apply(mesh[member], effects)
            }
        }
        mesh.run()
        XCTAssertEqual(mesh.sent.count, sentBefore, "a member answered a non-member")
        XCTAssertFalse(mesh.kinds(0).contains(.stopped) || mesh.kinds(1).contains(.stopped))
        XCTAssertFalse(mesh.kinds(1).contains(.rejected))
        XCTAssertEqual(mesh.table(1, id)?.info.phase, .playing)
        XCTAssertEqual(mesh.table(1, id)?.session?.moveNumber, 0)
    }

    /// A table's host is bound at first sight: an offer for the same id from another node changes nothing.
    func testAForgedOfferCannotHijackATable() throws {
        var mesh = Mesh(3)
        let info = try mesh.request(0) { $0.host(game: "briscola", players: 2) }.get()
        var forged = info
        forged.host = mesh[2]
        forged.hostName = "n2"
        forged.revision = 99
        for target in [0, 1] {
            var d = mesh.nodes[mesh[target]]!
            _ = d.received(.offer(forged), from: mesh[2])
            mesh.nodes[mesh[target]] = d
        }
        XCTAssertEqual(mesh.table(1, info.id)?.info.host, mesh[0])
        XCTAssertEqual(mesh.table(0, info.id)?.info.host, mesh[0])
        // Joins still go to the real host.
        _ = try mesh.request(1) { $0.request(info.id, .join(seat: 1, bot: nil)) }.get()
        XCTAssertEqual(mesh.table(0, info.id)?.info.seats[1].owner, mesh[1])
    }

    func testFillTakesReservedSeatsToo() throws {
        var mesh = Mesh(2)
        let info = try mesh.request(0) { $0.host(game: "spirits", players: 3) }.get()
        let n1 = mesh[1]
        _ = try mesh.request(0) { $0.request(info.id, .invite(seat: 2, node: n1, name: "n1")) }.get()
        let filled = try mesh.request(0) { $0.request(info.id, .fill(bot: "random")) }.get()
        XCTAssertTrue(filled.freeSeats.isEmpty)
        XCTAssertEqual(filled.seats[2].bot, "random")
    }

    func testPlayersDefaultToTheGamesOnlyCount() throws {
        var mesh = Mesh(1)
        XCTAssertEqual(try mesh.request(0) { $0.host(game: "othello", players: nil) }.get().players, 2)
        XCTAssertThrowsError(try mesh.request(0) { $0.host(game: "spirits", players: nil) }.get()) {
            XCTAssertEqual(($0 as? TableError)?.code, .badPlayers)
        }
        XCTAssertThrowsError(try mesh.request(0) { $0.host(game: "chess", players: 2) }.get()) {
            XCTAssertEqual(($0 as? TableError)?.code, .unknownGame)
        }
    }

    /// A local move is decoded once into the game's type and compared as a value with the legal moves.
    func testLocalMovesAreCheckedAsValues() throws {
        var mesh = Mesh(2)
        let id = try seatedTable(&mesh, game: "othello", bots: [nil, "random"])
        _ = try mesh.request(0) { $0.request(id, .start) }.get()
        XCTAssertThrowsError(try mesh.request(0) { $0.request(id, .move(.string("a1"))) }.get()) {
            XCTAssertEqual(($0 as? TableError)?.code, .illegal)
        }
        XCTAssertThrowsError(try mesh.request(0) { $0.request(id, .move(.integer(7))) }.get()) {
            XCTAssertEqual(($0 as? TableError)?.code, .malformed)
        }
        _ = try mesh.request(0) { $0.request(id, .move(.string("d3"))) }.get()
        // The random bot answered at once: two moves applied on both nodes, same hashes.
        XCTAssertEqual(mesh.table(1, id)?.session?.moveNumber, 2)
        XCTAssertEqual(mesh.table(0, id)?.session?.stateHash, mesh.table(1, id)?.session?.stateHash)
        XCTAssertThrowsError(try mesh.request(1) { $0.request(id, .move(.string("c4"))) }.get()) {
            XCTAssertEqual(($0 as? TableError)?.code, .notYourTurn)
        }
    }
}
