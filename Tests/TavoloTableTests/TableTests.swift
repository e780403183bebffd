import Foundation
import TavoloCore
import TavoloGames
import TavoloProtocol
import TavoloTable
import TavoloTestSupport
import XCTest

/// The table rules between a few nodes driven by hand, on the pure in-memory network (`InMemoryTableNetwork`): each
/// test is one seeded run, so it never waits and a failure replays step for step.
final class TableTests: XCTestCase {
    /// Three nodes, one bot seat each: every node ends with the same hash, which is the hash of the engine-only
    /// game with the joint seed and the same bots.
    func testBotGameAgreesEverywhereAndMatchesPlayout() throws {
        var net = InMemoryTableNetwork(nodes: 3, seed: 1, catalog: .standard)
        let table = try net.host(0, game: "spirits", players: 3).get()
        let kinds = ["heuristic", "random", "heuristic"]
        try net.join(0, table: table.id, seat: 0, bot: kinds[0]).get()
        net.deliverAll()
        XCTAssertTrue(net.list(1).count == 1 && net.list(2).count == 1, "the offer reached every node")
        try net.join(1, table: table.id, seat: 1, bot: kinds[1]).get()
        net.deliverAll()
        try net.join(2, table: nil, game: "spirits", seat: nil, bot: kinds[2]).get()  // automatch
        net.deliverAll()
        XCTAssertEqual(net.list(0).first?.freeSeats, [])
        try net.request(0, table.id, .start).get()
        finish(&net, nodes: 0..<3)
        let finals = (0..<3).compactMap { net.first($0, .finished) }
        XCTAssertEqual(Set(finals.compactMap(\.stateHash)).count, 1, "nodes disagree")
        XCTAssertEqual(finals.first?.result?.finalHashes.count, 3)
        let seed = try XCTUnwrap(finals.first?.result?.jointSeed)
        let playout = try XCTUnwrap(GameCatalog.standard["spirits"]).playout(
            PlayoutRequest(players: 3, games: 1, seed: seed, bots: kinds))
        XCTAssertEqual(playout.finalHash?.hex, finals.first?.stateHash)
        XCTAssertEqual(net.all(1, .dealt).count, 3, "three rounds, three checked deals")
        XCTAssertTrue((0..<3).allSatisfy { net.first($0, .rejected) == nil && net.first($0, .stopped) == nil })
    }

    /// Hosts `game` on node 0 with node i in seat i (`bots[i]`, nil for a human) and starts it.
    func startedTable(_ net: inout InMemoryTableNetwork, game: String = "spirits", bots: [String?]) throws -> TableID {
        let id = try seatedTable(&net, game: game, seats: bots.enumerated().map { ($0.offset, $0.element) })
        try net.request(0, id, .start).get()
        return id
    }

    /// Hosts `game` on node 0 and seats `seats[i]` (a node and its bot, nil for a human) at seat i; not started.
    func seatedTable(_ net: inout InMemoryTableNetwork, game: String, seats: [(node: Int, bot: String?)]) throws
        -> TableID
    {
        let table = try net.host(0, game: game, players: seats.count).get()
        net.deliverAll()
        for (i, s) in seats.enumerated() { try net.join(s.node, table: table.id, seat: i, bot: s.bot).get() }
        net.deliverAll()
        XCTAssertEqual(net.list(0).first?.freeSeats, [])
        return table.id
    }

    /// Runs until every node in `nodes` finished the game, failing with the last events of each if one never does.
    func finish(
        _ net: inout InMemoryTableNetwork, nodes: Range<Int>, file: StaticString = #filePath, line: UInt = #line
    ) {
        let done = net.run { n in nodes.allSatisfy { n.first($0, .finished) != nil } }
        let last = nodes.map { net.nodes[$0].events.last.map { "\($0.kind) \($0.message ?? "")" } ?? "-" }
        XCTAssertTrue(done, "not every node finished; last events: \(last)", file: file, line: line)
    }

    /// The host deals a deck that is not the joint seed's shuffle: injected as the host right after the start, its
    /// forged first deal reaches the others before its honest one (which they then ignore: a deal number is taken once).
    func testWrongDealIsCaughtByEveryOtherNode() throws {
        var net = InMemoryTableNetwork(nodes: 3, seed: 2, catalog: .standard)
        let id = try startedTable(&net, bots: ["random", "random", "random"])
        net.inject(0, .deal(table: id, number: 1, cards: Array(0..<36)))
        net.run { $0.first(1, .stopped) != nil && $0.first(2, .stopped) != nil }
        XCTAssertEqual(net.first(1, .stopped)?.code, StopCode.dealMismatch.rawValue)
        XCTAssertEqual(net.first(2, .stopped)?.code, "deal/mismatch")
        XCTAssertNil(net.first(1, .moved), "a node played on a wrong deal")
    }

    /// A deal from a member that is not the host stops the table everywhere (`deal/not-host`), except from the host's
    /// successor: the host's forfeit may be on its way to a member on another connection while the successor, the new
    /// host already, deals; such a deal is kept until the sender is the host (§9.13).
    func testADealFromANonHostStopsTheTableButTheSuccessorsWaits() throws {
        for fromSuccessor in [false, true] {
            var net = InMemoryTableNetwork(nodes: 3, seed: 12, catalog: .standard)
            let id = try startedTable(&net, bots: [nil, nil, nil])
            net.run { n in (0..<3).allSatisfy { n.first($0, .dealt) != nil } }
            let seed = try XCTUnwrap(net.table(0, id)?.jointSeed)
            let successor = try XCTUnwrap(HeirOrder.first(of: [net[1], net[2]], jointSeed: seed))
            let dealer = fromSuccessor ? try XCTUnwrap(net.index(of: successor)) : (successor == net[1] ? 2 : 1)
            net.inject(dealer, .deal(table: id, number: 2, cards: Array(0..<36)))
            net.deliverAll()
            let stops = (0..<3).filter { $0 != dealer }.map { net.first($0, .stopped)?.code }
            XCTAssertEqual(stops, fromSuccessor ? [nil, nil] : ["deal/not-host", "deal/not-host"], "\(fromSuccessor)")
        }
    }

    /// A human seat: the owner gets "your turn"; a foreign node's move for that seat and an out-of-turn move are
    /// rejected by every node with stable codes; the real owner's move is then accepted everywhere.
    func testForeignAndOutOfTurnMovesAreRejectedByEveryNode() throws {
        var net = InMemoryTableNetwork(nodes: 3, seed: 3, catalog: .standard)
        let id = try startedTable(&net, bots: [nil, nil, nil])
        net.run { n in (0..<3).contains { n.first($0, .yourTurn) != nil } }
        let owner = try XCTUnwrap((0..<3).first { net.first($0, .yourTurn) != nil })
        let state = try XCTUnwrap(net.state(owner, id))
        let seat = try XCTUnwrap(state.turn)
        let legal = try XCTUnwrap(state.legalMoves.first)
        let hash = try XCTUnwrap(state.stateHash)
        let cheater = (owner + 1) % 3
        let others = (0..<3).filter { $0 != cheater }
        net.inject(cheater, .move(table: id, number: 0, seat: seat, move: legal, stateHash: hash))
        net.deliverAll()
        // Each other node rejects it itself (and hears of the other's rejection).
        let foreign = "rejected move 0 from n\(cheater): n\(cheater) does not own seat \(seat)"
        XCTAssertEqual(
            others.map { rejections(net, $0, containing: foreign) }, others.map { _ in ["move/not-your-turn"] })
        // The cheater's own seat, but not its turn.
        net.inject(cheater, .move(table: id, number: 0, seat: cheater, move: legal, stateHash: hash))
        net.deliverAll()
        let early = "rejected move 0 from n\(cheater): seat \(cheater) moved but seat \(seat) is to play"
        XCTAssertEqual(
            others.map { rejections(net, $0, containing: early) }, others.map { _ in ["move/not-your-turn"] })
        // Illegal for the owner through the API: refused locally, nothing sent.
        XCTAssertEqual(failure(net.request(owner, id, .move(.object(["nonsense": .integer(1)]))))?.code, .malformed)
        // A move of the game that is not legal now: refused as illegal, with the legal ones listed.
        // The first move opens an empty pile, so every card in hand plays: fleeing is not legal.
        guard case .object(let first) = legal, let card = first["play"] else { return XCTFail("not a play: \(legal)") }
        let illegal = try XCTUnwrap(failure(net.request(owner, id, .move(.object(["flee": card])))))
        XCTAssertEqual(illegal.code, .illegal)
        XCTAssertTrue(illegal.message.contains("legal:"), illegal.message)
        try net.request(owner, id, .move(legal)).get()
        net.deliverAll()
        XCTAssertTrue((0..<3).allSatisfy { net.first($0, .moved) != nil })
        XCTAssertEqual(Set((0..<3).compactMap { net.first($0, .moved)?.stateHash }).count, 1)
        XCTAssertTrue((0..<3).allSatisfy { net.first($0, .stopped) == nil })
        // A stale replay of move 0 is rejected too.
        net.inject(owner, .move(table: id, number: 0, seat: seat, move: legal, stateHash: hash))
        net.deliverAll()
        for i in others where i != owner {
            XCTAssertTrue(net.nodes[i].events.contains { $0.code == "move/stale" }, "n\(i) took a stale move")
        }
    }

    /// The codes of node `i`'s rejections whose text contains `text`.
    func rejections(_ net: InMemoryTableNetwork, _ i: Int, containing text: String) -> [String] {
        net.all(i, .rejected).filter { $0.message?.contains(text) == true }.compactMap(\.code)
    }

    func failure(_ r: Result<TableInfo, TableError>) -> TableError? {
        if case .failure(let e) = r { return e }
        XCTFail("accepted")
        return nil
    }

    func testIllegalMoveFromTheRightOwnerIsRejected() throws {
        var net = InMemoryTableNetwork(nodes: 2, seed: 4, catalog: .standard)
        let id = try startedTable(&net, game: "othello", bots: [nil, nil])
        net.run { $0.first(0, .yourTurn) != nil }
        let hash = try XCTUnwrap(net.state(0, id)?.stateHash)
        // a1 is never legal from the start position.
        net.inject(0, .move(table: id, number: 0, seat: 0, move: .string("a1"), stateHash: hash))
        net.deliverAll()
        // "a1" decodes as an Othello move: it is illegal, not malformed.
        XCTAssertEqual(net.first(1, .rejected)?.code, MoveErrorCode.illegal.rawValue)
    }

    func testDivergingConfirmationStopsTheTableNamingTheMove() throws {
        var net = InMemoryTableNetwork(nodes: 2, seed: 5, catalog: .standard)
        let id = try startedTable(&net, game: "othello", bots: [nil, nil])
        net.run { $0.first(0, .yourTurn) != nil }
        try net.request(0, id, .move(try XCTUnwrap(net.state(0, id)?.legalMoves.first))).get()
        net.run { $0.first(1, .moved) != nil }
        net.inject(1, .confirm(table: id, number: 0, stateHash: StateHash(bytes: [UInt8](repeating: 0, count: 32))))
        net.run { $0.first(0, .stopped) != nil }
        XCTAssertEqual(net.first(0, .stopped)?.code, "hash/mismatch")
        XCTAssertTrue(net.first(0, .stopped)?.message?.contains("first diverging move 0") == true)
    }

    func testBadRevealStopsTheTable() throws {
        var net = InMemoryTableNetwork(nodes: 2, seed: 6, catalog: .standard)
        let id = try seatedTable(&net, game: "othello", seats: [(0, "random"), (1, "random")])
        // Node 1 commits to one thing and reveals another before the real protocol runs.
        let commitment = JointSeed.commitment(for: [UInt8](repeating: 1, count: 32))
        net.inject(1, .commit(table: id, commitment: commitment))
        net.inject(1, .reveal(table: id, nonce: [UInt8](repeating: 2, count: 32).hexString))
        // The bad reveal may stop the table before the host even starts it.
        _ = net.request(0, id, .start)
        net.run { $0.first(0, .stopped) != nil }
        let code = net.first(0, .stopped)?.code
        XCTAssertTrue(["seed/bad-reveal", "seed/recommit"].contains(code ?? ""), "\(String(describing: code))")
    }

    func testInviteReservesTheSeat() throws {
        var net = InMemoryTableNetwork(nodes: 3, seed: 7, catalog: .standard)
        let table = try net.host(0, game: "briscola", players: 2).get()
        net.deliverAll()
        let n2 = try XCTUnwrap(net.nodes[0].directory?.connectedNode(named: "n2"))
        try net.request(0, table.id, .invite(seat: 1, node: n2, name: "n2")).get()
        net.deliverAll()
        XCTAssertNotNil(net.first(2, .invited))
        // n1 may not take the reserved seat; n2 may.
        XCTAssertEqual(net.list(1).first?.seats[1].invited, "n2")
        try net.join(1, table: table.id, seat: 1, bot: "random").get()
        net.deliverAll()
        XCTAssertTrue(net.first(1, .seatRefused)?.message?.contains("reserved") == true)
        try net.join(2, table: table.id, seat: 1, bot: "random").get()
        net.deliverAll()
        XCTAssertEqual(net.list(0).first?.seats[1].ownerName, "n2")
    }

    /// The host need not play: a host without a seat seeds from the players' reveals and checks every move.
    func testHostWithoutASeatFollowsTheGame() throws {
        var net = InMemoryTableNetwork(nodes: 3, seed: 8, catalog: .standard)
        let id = try seatedTable(&net, game: "othello", seats: [(1, "greedy"), (2, "random")])
        try net.request(0, id, .start).get()
        finish(&net, nodes: 0..<3)
        XCTAssertEqual(Set((0..<3).compactMap { net.first($0, .finished)?.stateHash }).count, 1)
        XCTAssertEqual(net.first(0, .finished)?.result?.finalHashes.count, 3)
    }

    /// A node lists other nodes' tables but is not part of them: losing one of their members stops nothing here
    /// (it used to stop the listed table and report it, which a concurrent simulation took for its own game).
    func testLosingAMemberOfSomeoneElsesTableStopsNothingHere() throws {
        var net = InMemoryTableNetwork(nodes: 3, seed: 9, catalog: .standard)
        let id = try startedTable(&net, game: "othello", bots: ["random", "random"])
        net.run { $0.list(2).first.map { $0.phase != .open } == true }
        net.cut(1, 2)
        // The members play on: the outsider learns from the host's offers that the game finished, not stopped.
        net.run { $0.list(2).first?.phase == .finished }
        XCTAssertEqual(net.list(2).first?.phase, .finished)
        XCTAssertNil(net.first(2, .stopped))
        XCTAssertEqual(net.list(2).first?.id, id)
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
