import TavoloCore
import TavoloGames
import TavoloProtocol
import TavoloSealed
import TavoloTable
import TavoloTestSupport
import XCTest

/// Sealed tables (PROTOCOL.md §14) through the table machines, on the in-memory network: seats, seeding with keys,
/// the members' shuffles, every card opened by shares, moves checked by every member, the audit, and the verdict in
/// the result; no node ever holds a card of another member's seat that was not played.
final class SealedTableTests: XCTestCase {
    /// Hosts a sealed table of `game` on node 0, seats one bot per seat in turn on each node, starts it and runs the
    /// network until every node finished (or it went quiet).
    static func playSealed(_ game: String, owners: [Int], seed: UInt64, bot: String = "random") throws
        -> (InMemoryTableNetwork, TableID)
    {
        let nodes = (owners.max() ?? 0) + 1
        var net = InMemoryTableNetwork(nodes: nodes, seed: seed, catalog: .standard)
        let hosted = net.request(0) { $0.host(game: game, players: owners.count, sealed: true) }
        let id = try XCTUnwrap(try hosted?.get()).id
        net.deliverAll()
        for (seat, node) in owners.enumerated() {
            XCTAssertNoThrow(try net.join(node, table: id, seat: seat, bot: bot).get())
            net.deliverAll()
        }
        XCTAssertNoThrow(try net.request(0, id, .start).get())
        net.run { n in (0..<nodes).allSatisfy { n.first($0, .finished) != nil || n.first($0, .stopped) != nil } }
        return (net, id)
    }

    /// Hosts a sealed `game` on node 0 of `net`, seat `i` on node `i` played by `bots[i]` (nil: its user), and starts it.
    static func startSealed(_ net: inout InMemoryTableNetwork, _ game: String, bots: [String?]) throws -> TableID {
        let id = try XCTUnwrap(try net.request(0) { $0.host(game: game, players: bots.count, sealed: true) }?.get()).id
        net.deliverAll()
        for (seat, bot) in bots.enumerated() {
            XCTAssertNoThrow(try net.join(seat, table: id, seat: seat, bot: bot).get())
            net.deliverAll()
        }
        XCTAssertNoThrow(try net.request(0, id, .start).get())
        return id
    }

    func checkVerified(_ net: InMemoryTableNetwork, _ id: TableID, nodes: Int, _ label: String) throws {
        var hashes: Set<StateHash> = []
        for i in 0..<nodes {
            let stopped = net.first(i, .stopped).map { "\($0)" } ?? "none"
            let result = try XCTUnwrap(
                net.first(i, .finished)?.result, "\(label): n\(i) did not finish: stopped \(stopped)")
            XCTAssertEqual(result.sealed, "verified", "\(label): n\(i)")
            XCTAssertNil(result.cheaters, "\(label): n\(i)")
            XCTAssertEqual(net.state(i, id)?.deck, "deck verified", "\(label): n\(i): what its clients are shown")
            hashes.insert(result.finalHash)
        }
        XCTAssertEqual(hashes.count, 1, "\(label): the nodes ended on different public states")
    }

    func testSealedBriscolaForTwoThreeAndFourFinishesVerifiedAtEveryNode() throws {
        for owners in [[0, 1], [0, 1, 2], [0, 1, 2, 3]] {
            let (net, id) = try Self.playSealed("briscola", owners: owners, seed: UInt64(owners.count))
            try checkVerified(net, id, nodes: owners.count, "briscola \(owners)")
        }
    }

    func testSealedSpiritsPlaysEveryRoundAndFinishesVerified() throws {
        for owners in [[0, 1, 2], [0, 1, 0, 2]] {
            let (net, id) = try Self.playSealed("spirits", owners: owners, seed: 5)
            try checkVerified(net, id, nodes: (owners.max() ?? 0) + 1, "spirits \(owners)")
        }
    }

    /// A member that never sends its audit is named by the others once the audits' deadline passes (§14.9).
    func testAMissingAuditIsNamedAtItsDeadline() throws {
        var net = InMemoryTableNetwork(nodes: 3, seed: 9, catalog: .standard)
        net.delivers = { m, from, _ in
            guard from == 2, case .sealed(_, .audit) = m else { return true }
            return false
        }
        let id = try XCTUnwrap(try net.request(0) { $0.host(game: "briscola", players: 3, sealed: true) }?.get()).id
        net.deliverAll()
        for i in 0..<3 { XCTAssertNoThrow(try net.join(i, table: id, seat: i, bot: "random").get()) }
        net.deliverAll()
        XCTAssertNoThrow(try net.request(0, id, .start).get())
        net.run { n in n.table(0, id)?.session?.turn == .terminal && n.table(1, id)?.session?.turn == .terminal }
        net.deliverAll()
        XCTAssertNil(net.first(0, .finished), "the result waits for every audit")
        for i in 0..<2 { net.fire(i, .results(id)) }
        net.run { n in (0..<3).allSatisfy { n.first($0, .finished) != nil } }
        for i in 0..<2 {
            let result = try XCTUnwrap(net.first(i, .finished)?.result, "n\(i)")
            XCTAssertEqual(result.sealed, "cheated", "n\(i)")
            XCTAssertEqual(result.cheaters, [net.nodes[2].name], "n\(i)")
        }
        XCTAssertEqual(net.first(2, .finished)?.result?.sealed, "verified", "n2 had every other audit")
    }

    /// A member's key can overtake the offer that seats it: kept, it counts once the member is seated.
    func testAKeyThatComesBeforeItsSendersSeatIsKept() throws {
        let a = NodeID(bytes: [UInt8](repeating: 0, count: 15) + [0x0A])!
        let b = NodeID(bytes: [UInt8](repeating: 0, count: 15) + [0x0B])!
        var d = TableDirectory(
            context: TableContext(me: a, myName: "a", catalog: .standard), nonces: .reproducible(seed: 3, nodeIndex: 0))
        _ = d.peerConnected(b, name: "b")
        let table = try d.host(game: "briscola", players: 2, sealed: true).0.get().id
        _ = try d.request(table, .join(seat: 0, bot: nil)).0.get()
        let secret = SealedMemberSecret(
            seed: [UInt8](repeating: 5, count: 32), context: SealedContext(tableId: table.rawValue), member: 1)
        let key = SealedMessage.key(table: table.rawValue, key: secret.publicKey, proof: secret.keyProof())
        _ = d.received(.sealed(table: table, key), from: b)
        _ = d.received(.seatRequest(table: table, seat: 1, bot: nil), from: b)
        _ = try d.request(table, .start).0.get()
        let nonce = [UInt8](repeating: 7, count: JointSeed.nonceLength)
        _ = d.received(.commit(table: table, commitment: JointSeed.commitment(for: nonce)), from: b)
        _ = d.received(.reveal(table: table, nonce: nonce.hexString), from: b)
        XCTAssertEqual(d.tables[table]?.info.phase, .playing, "the early key did not count")
        XCTAssertTrue(d.tables[table]?.session is SealedTableGame)
    }

    func testASealedTableNeedsACardGame() throws {
        var net = InMemoryTableNetwork(nodes: 2, seed: 1, catalog: .standard)
        let othello = net.request(0) { $0.host(game: "othello", players: 2, sealed: true) }
        XCTAssertThrowsError(try othello?.get()) { XCTAssertTrue("\($0)".contains("no hidden cards"), "\($0)") }
    }
}
