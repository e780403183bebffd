import Crypto
import Foundation
import TavoloControl
import TavoloCore
import TavoloGames
import TavoloProtocol
import TavoloRecordFormat
import TavoloRecords
import TavoloTable
import TavoloTestSupport
import XCTest

/// Issue 30: records nobody can forge. A real `tavolod` and an authenticated stranger (`RawPeer`, its own key) that
/// pushes records naming the node at a seat, a person's or a bot's: without the node's signature they are refused,
/// and the node's leaderboards and history stay empty.
final class RecordForgeryIntegrationTests: DaemonTestCase {
    func scores(_ i: Int) throws -> ScoreBoard { try client(i).call(.scores(game: nil)) }

    /// A stranger connected to node 0 with a fresh key, and a signer of that key.
    func stranger() throws -> (RawPeer, RecordSigner) {
        let port = try harness.status(0).tcpPort
        let key = RawPeer.strangerKey(below: [try XCTUnwrap(NodeID(hex: try harness.status(0).id))])
        let raw = try RawPeer(port: port)
        try raw.noiseHandshake(
            key: key,
            handshake: Handshake(
                version: 3, nodeId: RawPeer.nodeID(of: key), name: "forger", udpPort: 9, capabilities: ["tables"]))
        return (raw, try XCTUnwrap(RecordSigner(identity: key, signingKey: .init())))
    }

    /// Pushes one `records.data` and returns the node's `records.ack`.
    func push(_ records: [RecordMessage.WireRecord], by raw: RawPeer) throws -> RecordMessage? {
        try raw.send(Frame.application(.records, try CanonicalJSON.encode(RecordMessage.data(records))))
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            guard case .application(.records, let bytes) = try raw.readFrame() else { continue }
            if let m = try? CanonicalJSON.decode(RecordMessage.self, bytes), case .ack = m { return m }
        }
        return nil
    }

    /// An Othello game of people (or of bots, `bot`): seat 0 `victim`'s (its node id and name), seat 1 the forger's.
    func gameBetween(
        victim: (id: String, name: String), forger: String, seed: UInt64, bot: String? = nil
    ) throws -> RecordedGame {
        var body = try RecordFactory.playout(
            catalog: .standard, game: "othello", players: 2, seed: seed, bot: "greedy", table: "forged-\(seed)"
        ).decodedBody()
        body.seats = [
            .init(seat: 0, node: victim.id, name: victim.name, bot: bot),
            .init(seat: 1, node: forger, name: "forger", bot: bot),
        ]
        return RecordedGame(body: try CanonicalJSON.encode(body), startedAt: nil, endedAt: 1_700_000_000_000)
    }

    func testGamesNamingTheNodeWithoutItsSignatureAreRefusedAndItsLeaderboardStaysEmpty() throws {
        try harness.start(1)
        try harness.eventually("the node answers", seconds: 30) { (try? scores(0)) != nil }
        let status = try harness.status(0)
        let victim = (id: status.id, name: harness.name(0))
        let (raw, signer) = try stranger()
        var records: [RecordMessage.WireRecord] = []
        // 1: signed by the forger alone.
        let alone = try gameBetween(victim: victim, forger: signer.node, seed: 1)
        records.append(.init(alone, signatures: [try XCTUnwrap(signer.sign(recordID: alone.id))]))
        // 2: with a "signature" of the victim made with the forger's keys under the victim's node id.
        let posing = try gameBetween(victim: victim, forger: signer.node, seed: 2)
        var fake = try XCTUnwrap(signer.sign(recordID: posing.id))
        fake.node = victim.id
        records.append(.init(posing, signatures: [try XCTUnwrap(signer.sign(recordID: posing.id)), fake]))
        // 3: the forger's key bound to the victim's identity key: the binding does not verify under it.
        let bound = try gameBetween(victim: victim, forger: signer.node, seed: 3)
        var stolen = try XCTUnwrap(signer.sign(recordID: bound.id))
        stolen.node = victim.id
        stolen.identity = try XCTUnwrap(NodeKeyPublic.of(stateDir: harness.nodes[0].stateDir))
        records.append(.init(bound, signatures: [try XCTUnwrap(signer.sign(recordID: bound.id)), stolen]))
        // 4: a game of bots alone, the victim's bot at seat 0, signed by the forger alone (every seat owner signs,
        // bots' owners too: §11.4 step 7).
        let bots = try gameBetween(victim: victim, forger: signer.node, seed: 4, bot: "greedy")
        records.append(.init(bots, signatures: [try XCTUnwrap(signer.sign(recordID: bots.id))]))
        let ack = try XCTUnwrap(try push(records, by: raw))
        XCTAssertEqual(ack, .ack(accepted: 0, refused: 4, refusedIDs: records.map(\.id)))
        let board = try scores(0)
        XCTAssertTrue(
            board.games.allSatisfy { $0.humans.isEmpty && $0.bots.isEmpty && $0.finished == 0 }, "\(board)")
        XCTAssertTrue(board.achievements.isEmpty)
        let history = try client(0).call(.history(game: nil, player: nil))
        XCTAssertFalse(history.contains { $0.mine }, "no forged game listed as the node's own: \(history)")
        let log = try String(contentsOfFile: harness.nodes[0].logPath, encoding: .utf8)
        XCTAssertTrue(log.contains("refused: unsigned"), harness.logTail(0))
    }

    /// Two nodes' people play Othello to the end: each node signs its record and sends the other its signature, so
    /// both hold the game signed by both, and both count it for each person by node id (§11.7).
    func testAGameOfTwoPeopleIsSignedByBothAndCountsOnBothNodes() throws {
        try playOthelloOfTwoNodes(bot: nil)
        let ids = try Set((0..<2).map { try harness.status($0).id })
        for i in 0..<2 {
            let othello = try XCTUnwrap(try scores(i).games.first { $0.game == "othello" })
            XCTAssertGreaterThanOrEqual(othello.finished, 1)
            // Other tests' games may be counted too (see `history`): both people are among those counted, by id.
            XCTAssertTrue(
                ids.isSubset(of: Set(othello.humans.compactMap(\.node))), "node \(i) counts both people by node id")
        }
    }

    /// Two nodes' bots play Othello to the end: a bot's owner signs as a person's does (§11.7), so each node's
    /// record lacks the other's signature until it arrives, and then both hold the game signed and count the bots.
    func testAGameOfTwoNodesBotsIsSignedByBothAndCountsOnBothNodes() throws {
        try playOthelloOfTwoNodes(bot: "greedy")
        for i in 0..<2 {
            let othello = try XCTUnwrap(try scores(i).games.first { $0.game == "othello" })
            XCTAssertGreaterThanOrEqual(othello.bots.first { $0.player == "greedy" }?.games ?? 0, 2, "node \(i)")
        }
    }

    /// Two nodes each take a seat of an Othello table hosted by node 0 (a person, or `bot`) and play it to the end;
    /// returns once both hold the table's record signed by both.
    func playOthelloOfTwoNodes(bot: String?) throws {
        try harness.start(2)
        try harness.eventually("a full mesh", seconds: 30) { harness.isFullMesh([0, 1]) }
        let info = try client(0).call(.host(game: "othello", players: 2))
        try harness.eventually("node 1 sees the table", seconds: 15) {
            ((try? client(1).call(.tables)) ?? []).contains { $0.id == info.id }
        }
        _ = try client(0).call(.join(table: info.id, game: nil, seat: 0, bot: bot))
        _ = try client(1).call(.join(table: info.id, game: nil, seat: 1, bot: bot))
        try harness.eventually("both seats taken", seconds: 15) {
            ((try? client(0).call(.tables)) ?? []).first { $0.id == info.id }?.freeSeats.isEmpty
                == true
        }
        _ = try client(0).call(.start(table: info.id))
        // Only this table's record: in a full test run the other tests' nodes on this host are peers too, and their
        // signed games reach these nodes by record sync.
        func history(_ i: Int) -> [RecordSummary] {
            ((try? client(i).call(.history(game: nil, player: nil))) ?? [])
                .filter { $0.table == info.id.rawValue }
        }
        // Each node's person plays its first legal move whenever it is its turn (bots play by themselves).
        try harness.eventually("the game ends on both nodes", seconds: 180) {
            for i in 0..<2 {
                guard let st = try? client(i).call(.state(table: info.id)),
                    st.info.phase == .playing, let turn = st.turn, st.mySeats.contains(turn),
                    let move = st.legalMoves.first
                else { continue }
                _ = try? client(i).call(.move(table: info.id, move: move))
            }
            return history(0).count == 1 && history(1).count == 1
        }
        try harness.eventually("both records signed by both", seconds: 30) {
            history(0).first?.verified == true && history(1).first?.verified == true
        }
        XCTAssertEqual(history(0).map(\.id), history(1).map(\.id), "one record of one game")
    }
}

/// The X25519 public key of a node's `node-key` file (its identity, §3.3), as 64 hex digits.
enum NodeKeyPublic {
    static func of(stateDir: String) -> String? {
        guard let text = try? String(contentsOfFile: stateDir + "/node-key", encoding: .utf8),
            let raw = [UInt8](hexString: text.trimmingCharacters(in: .whitespacesAndNewlines)),
            let key = try? Curve25519.KeyAgreement.PrivateKey(rawRepresentation: raw)
        else { return nil }
        return Array(key.publicKey.rawRepresentation).hexString
    }
}
