import TavoloCore
import TavoloGames
import TavoloProtocol
import TavoloSealed
import TavoloTable
import TavoloTestSupport
import XCTest

/// An heir out in turn at a sealed table (PROTOCOL.md §14.11): the heir of a member lost for good holds the only copy
/// of its secret, and a piece of its own secret is sealed to that member, so its own heir needed each secret to open
/// the other's piece, and the table stopped (`sealed/unsupported`). The heir now splits each secret it recovered again
/// among the members it does not act for (its second escrow); its own heir recovers both and plays both seats on.
final class SealedSecondEscrowTests: XCTestCase {
    /// The node that acts for `member` (recovered its secret), if any.
    func heir(of member: Int, _ net: InMemoryTableNetwork, _ id: TableID, among nodes: [Int]) -> Int? {
        nodes.first { (net.table($0, id)?.session as? SealedTableGame)?.sealed.inherited[member] != nil }
    }

    func testAnHeirOutInTurnPassesBothSecretsToTheNextHeir() throws {
        // With four members the two left are no majority to vote the heir out (§9.12): there it forfeits.
        let cases: [(String, Int, UInt64, Bool)] = [
            ("briscola", 5, 40, false), ("spirits", 5, 42, false), ("spirits", 4, 41, true), ("briscola", 4, 43, true),
            ("spirits", 5, 44, true),
        ]
        for (game, players, seed, forfeit) in cases {
            let label = "\(game)/\(players) seed \(seed)\(forfeit ? ", the heir forfeits" : "")"
            var (net, id) = try SealedHeirTests.start(game, players: players, seed: seed, moves: 4)
            let first = Int(seed % UInt64(players))
            net.kill(first)
            var alive = (0..<players).filter { $0 != first }
            // Until the heir recovered the secret and every other member took its second escrow.
            net.run { n in
                guard let h = self.heir(of: first, n, id, among: alive) else { return false }
                return alive.filter { $0 != h }.allSatisfy {
                    (n.table($0, id)?.session as? SealedTableGame)?.sealed.reEscrows[first]?.isEmpty == false
                } || alive.contains { n.first($0, .stopped) != nil || n.first($0, .finished) != nil }
            }
            let h = try XCTUnwrap(heir(of: first, net, id, among: alive), "\(label): nobody recovered the first secret")
            if forfeit {
                XCTAssertNoThrow(try net.request(h, id, .leave).get(), label)
            } else {
                net.kill(h)
            }
            alive.removeAll { $0 == h }
            net.run { n in alive.allSatisfy { n.first($0, .finished) != nil || n.first($0, .stopped) != nil } }
            if ProcessInfo.processInfo.environment["TAVOLO_TRACE"] != nil,
                alive.contains(where: { net.first($0, .finished) == nil })
            {
                print(net.trace.tail(80).joined(separator: "\n"))
                for i in alive {
                    let s = net.state(i, id)
                    print("n\(i): \(s?.info.phase as Any) move \(s?.moveNumber as Any) \(s?.notices as Any)")
                }
            }
            var hashes: Set<StateHash> = []
            for i in alive {
                let stopped = net.first(i, .stopped).map { "\($0)" } ?? "none"
                let result = try XCTUnwrap(net.first(i, .finished)?.result, "\(label): n\(i) stopped: \(stopped)")
                XCTAssertEqual(result.sealed, "verified", "\(label): n\(i): \(result.cheaters ?? [])")
                hashes.insert(result.finalHash)
                let takeovers = net.table(i, id)?.log.takeovers?.map(\.member)
                XCTAssertEqual(takeovers, [net.nodes[first].id, net.nodes[h].id], "\(label): n\(i)")
            }
            XCTAssertEqual(hashes.count, 1, "\(label): the nodes ended on different public states")
            if forfeit {
                // The heir that forfeited follows the game on; its own copy holds no second escrow of its own making
                // and once stopped itself on that (`sealed/unsupported`).
                let own = net.first(h, .stopped).map { "\($0)" } ?? ""
                XCTAssertFalse(own.contains("sealed/unsupported"), "\(label): the leaving heir's copy: \(own)")
            }
            // One member now holds both secrets: the heir's heir.
            let second = try XCTUnwrap(heir(of: h, net, id, among: alive), "\(label): nobody recovered the heir's")
            XCTAssertEqual(heir(of: first, net, id, among: [second]), second, "\(label): the first secret moved on too")
        }
    }
}
