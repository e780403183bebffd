import Foundation
import TavoloCore
import TavoloGames
import TavoloProtocol
import TavoloTable
import TavoloTestSupport
import XCTest

final class TableTests: XCTestCase {
    /// Three nodes, one bot seat each: every node ends with the same hash, which is the hash of the engine-only
    /// game with the joint seed and the same bots.
    func testBotGameAgreesEverywhereAndMatchesPlayout() async throws {
        let net = FakeNetwork()
        let nodes = await net.makeNodes(3)
        let logs = await withTaskGroup(of: (Int, EventLog).self) { g in
            for (i, n) in nodes.enumerated() { g.addTask { (i, await EventLog(n)) } }
            var out: [Int: EventLog] = [:]
            for await (i, l) in g { out[i] = l }
            return (0..<3).compactMap { out[$0] }
        }
        let table = try await nodes[0].host(game: "spirits", players: 3)
        let kinds = ["heuristic", "random", "heuristic"]
        _ = try await nodes[0].join(table: table.id, game: nil, seat: 0, bot: kinds[0])
        try await require {
            let a = await nodes[1].list().count
            let b = await nodes[2].list().count
            return a == 1 && b == 1
        }
        _ = try await nodes[1].join(table: table.id, game: nil, seat: 1, bot: kinds[1])
        _ = try await nodes[2].join(table: nil, game: "spirits", seat: nil, bot: kinds[2])  // automatch
        try await require(10) { await nodes[0].list().first?.freeSeats.isEmpty == true }
        _ = try await nodes[0].start(table: table.id)
        try await TavoloTestSupport.eventually(
            "every node to finish", within: 30,
            context: { "last events: \(logs.map { $0.all.last.map { "\($0.kind) \($0.message ?? "")" } ?? "-" })" }
        ) { logs.allSatisfy { $0.first(.finished) != nil } }
        let finals = logs.compactMap { $0.first(.finished) }
        XCTAssertEqual(Set(finals.compactMap(\.stateHash)).count, 1, "nodes disagree")
        XCTAssertEqual(finals.first?.result?.finalHashes.count, 3)
        let seed = try XCTUnwrap(finals.first?.result?.jointSeed)
        let playout = try XCTUnwrap(GameCatalog.standard["spirits"]).playout(
            PlayoutRequest(players: 3, games: 1, seed: seed, bots: kinds))
        XCTAssertEqual(playout.finalHash?.hex, finals.first?.stateHash)
        XCTAssertEqual(logs[1].all.filter { $0.kind == .dealt }.count, 3, "three rounds, three checked deals")
        XCTAssertTrue(logs.allSatisfy { $0.first(.rejected) == nil && $0.first(.stopped) == nil })
    }

    func startedTable(_ net: FakeNetwork, _ nodes: [TableManager], game: String = "spirits", bots: [String?])
        async throws
        -> TableID
    {
        let table = try await nodes[0].host(game: game, players: bots.count)
        try await require { await nodes.asyncAllSatisfy { await $0.list().count == 1 } }
        for (i, b) in bots.enumerated() { _ = try await nodes[i].join(table: table.id, game: nil, seat: i, bot: b) }
        try await require { await nodes[0].list().first?.freeSeats.isEmpty == true }
        _ = try await nodes[0].start(table: table.id)
        return table.id
    }

    /// The host deals a deck that is not the joint seed's shuffle: injected as the host right after the start, its
    /// forged first deal reaches the others before its honest one (which they then ignore: a deal number is taken once).
    func testWrongDealIsCaughtByEveryOtherNode() async throws {
        let net = FakeNetwork()
        let nodes = await net.makeNodes(3)
        let l1 = await EventLog(nodes[1])
        let l2 = await EventLog(nodes[2])
        let table = try await nodes[0].host(game: "spirits", players: 3)
        try await require { await nodes.asyncAllSatisfy { await $0.list().count == 1 } }
        for i in 0..<3 { _ = try await nodes[i].join(table: table.id, game: nil, seat: i, bot: "random") }
        try await require { await nodes[0].list().first?.freeSeats.isEmpty == true }
        _ = try await nodes[0].start(table: table.id)
        await nodes[0].inject(.deal(table: table.id, number: 1, cards: Array(0..<36)))
        try await require { l1.first(.stopped) != nil && l2.first(.stopped) != nil }
        XCTAssertEqual(l1.first(.stopped)?.code, StopCode.dealMismatch.rawValue)
        XCTAssertEqual(l2.first(.stopped)?.code, "deal/mismatch")
        XCTAssertNil(l1.first(.moved), "a node played on a wrong deal")
    }

    /// A human seat: the owner gets "your turn"; a foreign node's move for that seat and an out-of-turn move are
    /// rejected by every node with stable codes; the real owner's move is then accepted everywhere.
    func testForeignAndOutOfTurnMovesAreRejectedByEveryNode() async throws {
        let net = FakeNetwork()
        let nodes = await net.makeNodes(3)
        let logs = [await EventLog(nodes[0]), await EventLog(nodes[1]), await EventLog(nodes[2])]
        let id = try await startedTable(net, nodes, bots: [nil, nil, nil])
        try await require { logs.contains { $0.first(.yourTurn) != nil } }
        let owner = try XCTUnwrap(logs.firstIndex { $0.first(.yourTurn) != nil })
        let state = try await nodes[owner].state(table: id)
        let seat = try XCTUnwrap(state.turn)
        let legal = try XCTUnwrap(state.legalMoves.first)
        let hash = try XCTUnwrap(state.stateHash)
        let cheater = (owner + 1) % 3
        await nodes[cheater].inject(.move(table: id, number: 0, seat: seat, move: legal, stateHash: hash))
        let others = (0..<3).filter { $0 != cheater }
        try await require {
            others.allSatisfy { logs[$0].first(.rejected)?.code == "move/not-your-turn" }
        }
        // The cheater's own seat, but not its turn.
        await nodes[cheater].inject(.move(table: id, number: 0, seat: cheater, move: legal, stateHash: hash))
        try await require {
            others.allSatisfy { logs[$0].all.filter { $0.kind == .rejected }.count >= 2 }
        }
        // Illegal for the owner through the API: refused locally, nothing sent.
        do {
            _ = try await nodes[owner].move(table: id, move: .object(["nonsense": .integer(1)]))
            XCTFail("a malformed move was accepted")
        } catch {
            XCTAssertEqual(error.code, .malformed)
        }
        // A move of the game that is not legal now: refused as illegal, with the legal ones listed.
        // The first move opens an empty pile, so every card in hand plays: fleeing is not legal.
        guard case .object(let first) = legal, let card = first["play"] else { return XCTFail("not a play: \(legal)") }
        let illegal = JSONValue.object(["flee": card])
        do {
            _ = try await nodes[owner].move(table: id, move: illegal)
            XCTFail("an illegal move was accepted")
        } catch {
            XCTAssertEqual(error.code, .illegal)
            XCTAssertTrue(error.message.contains("legal:"), error.message)
        }
        _ = try await nodes[owner].move(table: id, move: legal)
        try await require { logs.allSatisfy { $0.first(.moved) != nil } }
        XCTAssertEqual(Set(logs.compactMap { $0.first(.moved)?.stateHash }).count, 1)
        XCTAssertTrue(logs.allSatisfy { $0.first(.stopped) == nil })
        // A stale replay of move 0 is rejected too.
        await nodes[owner].inject(.move(table: id, number: 0, seat: seat, move: legal, stateHash: hash))
        try await require {
            others.filter { $0 != owner }.allSatisfy { logs[$0].all.contains { $0.code == "move/stale" } }
        }
    }

    func testIllegalMoveFromTheRightOwnerIsRejected() async throws {
        let net = FakeNetwork()
        let nodes = await net.makeNodes(2)
        let logs = [await EventLog(nodes[0]), await EventLog(nodes[1])]
        let id = try await startedTable(net, nodes, game: "othello", bots: [nil, nil])
        try await require { logs[0].first(.yourTurn) != nil }
        let st = try await nodes[0].state(table: id)
        let hash = try XCTUnwrap(st.stateHash)
        // a1 is never legal from the start position.
        await nodes[0].inject(.move(table: id, number: 0, seat: 0, move: .string("a1"), stateHash: hash))
        try await require { logs[1].first(.rejected) != nil }
        // "a1" decodes as an Othello move: it is illegal, not malformed.
        XCTAssertEqual(logs[1].first(.rejected)?.code, MoveErrorCode.illegal.rawValue)
    }

    func testDivergingConfirmationStopsTheTableNamingTheMove() async throws {
        let net = FakeNetwork()
        let nodes = await net.makeNodes(2)
        let logs = [await EventLog(nodes[0]), await EventLog(nodes[1])]
        let id = try await startedTable(net, nodes, game: "othello", bots: [nil, nil])
        try await require(10) { logs[0].first(.yourTurn) != nil }
        let state = try await nodes[0].state(table: id)
        _ = try await nodes[0].move(table: id, move: try XCTUnwrap(state.legalMoves.first))
        try await require(10) { logs[1].first(.moved) != nil }
        await nodes[1].inject(
            .confirm(table: id, number: 0, stateHash: StateHash(bytes: [UInt8](repeating: 0, count: 32))))
        try await require { logs[0].first(.stopped) != nil }
        XCTAssertEqual(logs[0].first(.stopped)?.code, "hash/mismatch")
        XCTAssertTrue(logs[0].first(.stopped)?.message?.contains("first diverging move 0") == true)
    }

    func testBadRevealStopsTheTable() async throws {
        let net = FakeNetwork()
        let nodes = await net.makeNodes(2)
        let log0 = await EventLog(nodes[0])
        let table = try await nodes[0].host(game: "othello", players: 2)
        try await require(10) { await nodes[1].list().count == 1 }
        _ = try await nodes[0].join(table: table.id, game: nil, seat: 0, bot: "random")
        _ = try await nodes[1].join(table: table.id, game: nil, seat: 1, bot: "random")
        try await require(10) { await nodes[0].list().first?.freeSeats.isEmpty == true }
        // Node 1 commits to one thing and reveals another before the real protocol runs.
        await nodes[1].inject(
            .commit(table: table.id, commitment: JointSeed.commitment(for: [UInt8](repeating: 1, count: 32))))
        await nodes[1].inject(.reveal(table: table.id, nonce: [UInt8](repeating: 2, count: 32).hexString))
        // The bad reveal may stop the table before the host even starts it.
        _ = try? await nodes[0].start(table: table.id)
        try await require { log0.first(.stopped) != nil }
        XCTAssertTrue(
            ["seed/bad-reveal", "seed/recommit"].contains(log0.first(.stopped)?.code ?? ""),
            "\(String(describing: log0.first(.stopped)?.code))")
    }

    func testInviteReservesTheSeat() async throws {
        let net = FakeNetwork()
        let nodes = await net.makeNodes(3)
        let log2 = await EventLog(nodes[2])
        let table = try await nodes[0].host(game: "briscola", players: 2)
        try await require(10) { await nodes[2].list().count == 1 }
        _ = try await nodes[0].invite(table: table.id, seat: 1, node: "n2")
        try await require { log2.first(.invited) != nil }
        // n1 may not take the reserved seat; n2 may.
        try await require(10) { await nodes[1].list().first?.seats[1].invited == "n2" }
        let log1 = await EventLog(nodes[1])
        _ = try await nodes[1].join(table: table.id, game: nil, seat: 1, bot: "random")
        try await require { log1.first(.seatRefused) != nil }
        XCTAssertTrue(log1.first(.seatRefused)?.message?.contains("reserved") == true)
        _ = try await nodes[2].join(table: table.id, game: nil, seat: 1, bot: "random")
        try await require { await nodes[0].list().first?.seats[1].ownerName == "n2" }
    }

    /// The host need not play: a host without a seat seeds from the players' reveals and checks every move.
    func testHostWithoutASeatFollowsTheGame() async throws {
        let net = FakeNetwork()
        let nodes = await net.makeNodes(3)
        let logs = [await EventLog(nodes[0]), await EventLog(nodes[1]), await EventLog(nodes[2])]
        let table = try await nodes[0].host(game: "othello", players: 2)
        try await require(10) { await nodes.asyncAllSatisfy { await $0.list().count == 1 } }
        _ = try await nodes[1].join(table: table.id, game: nil, seat: 0, bot: "greedy")
        _ = try await nodes[2].join(table: table.id, game: nil, seat: 1, bot: "random")
        try await require(10) { await nodes[0].list().first?.freeSeats.isEmpty == true }
        _ = try await nodes[0].start(table: table.id)
        try await TavoloTestSupport.eventually(
            "every node to finish", within: 20, context: { "\(logs.map { $0.all.last?.kind.rawValue ?? "-" })" }
        ) { logs.allSatisfy { $0.first(.finished) != nil } }
        XCTAssertEqual(Set(logs.compactMap { $0.first(.finished)?.stateHash }).count, 1)
        XCTAssertEqual(logs[0].first(.finished)?.result?.finalHashes.count, 3)
    }

    /// A node lists other nodes' tables but is not part of them: losing one of their members stops nothing here
    /// (it used to stop the listed table and report it, which a concurrent simulation took for its own game).
    func testLosingAMemberOfSomeoneElsesTableStopsNothingHere() async throws {
        let net = FakeNetwork()
        let nodes = await net.makeNodes(3)
        let outsider = await EventLog(nodes[2])
        let table = try await nodes[0].host(game: "othello", players: 2)
        try await require(10) { await nodes.asyncAllSatisfy { await $0.list().count == 1 } }
        _ = try await nodes[0].join(table: table.id, game: nil, seat: 0, bot: "random")
        _ = try await nodes[1].join(table: table.id, game: nil, seat: 1, bot: "random")
        try await require(10) { await nodes[0].list().first?.freeSeats.isEmpty == true }
        _ = try await nodes[0].start(table: table.id)
        try await require(10) { await nodes[2].list().first.map { $0.phase != .open } == true }
        await nodes[2].peerLost(nodes[1].me)
        // The members play on: the outsider learns from the host's offers that the game finished, not stopped.
        try await require(20) { await nodes[2].list().first?.phase == .finished }
        XCTAssertNil(outsider.first(.stopped))
    }

    func testJointSeedFormula() {
        let a = [UInt8](repeating: 0xAA, count: 32)
        let b = [UInt8](repeating: 0xBB, count: 32)
        XCTAssertNotEqual(JointSeed.seed(nonces: [a, b]), JointSeed.seed(nonces: [b, a]))
        XCTAssertEqual(
            JointSeed.commitment(for: []), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        // SHA-256("tavolo/joint-seed/v1" ‖ 0xAA×32 ‖ 0xBB×32), first 8 bytes, computed independently (Python hashlib).
        XCTAssertEqual(JointSeed.seed(nonces: [a, b]), JointSeedVector.seedAB)
        XCTAssertNotEqual(
            JointSeed.testNonce(seed: 1, nodeIndex: 2, counter: 3),
            JointSeed.testNonce(seed: 1, nodeIndex: 2, counter: 4))
    }
}

extension Array {
    func asyncAllSatisfy(_ p: (Element) async -> Bool) async -> Bool {
        for e in self where !(await p(e)) { return false }
        return true
    }
}
