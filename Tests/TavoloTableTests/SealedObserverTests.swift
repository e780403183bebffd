import TavoloCore
import TavoloGames
import TavoloProtocol
import TavoloSealed
import TavoloTable
import TavoloTestSupport
import XCTest

/// A sealed table whose host holds no seat (PROTOCOL.md §14.1): the host is a member of the table but not of the deck.
/// It follows as an observer — it shuffles and shares nothing, checks every card played — and ends on the members'
/// public state with the same verdict; it never learns a card before it is played or opened to everyone.
final class SealedObserverTests: XCTestCase {
    /// Hosts `game` sealed on node 0, which takes no seat; seat `i` is node `owners[i]`'s random bot.
    static func startWithSeatlessHost(_ net: inout InMemoryTableNetwork, _ game: String, owners: [Int]) throws
        -> TableID
    {
        let hosted = net.request(0) { $0.host(game: game, players: owners.count, sealed: true) }
        let id = try XCTUnwrap(try hosted?.get()).id
        net.deliverAll()
        for (seat, node) in owners.enumerated() {
            XCTAssertNoThrow(try net.join(node, table: id, seat: seat, bot: "random").get())
            net.deliverAll()
        }
        XCTAssertNoThrow(try net.request(0, id, .start).get())
        return id
    }

    /// The host's sealed table, once play has begun.
    static func observer(_ net: InMemoryTableNetwork, _ id: TableID) -> SealedTable? {
        (net.table(0, id)?.session as? SealedTableGame)?.sealed
    }

    func checkEveryNodeVerified(_ net: InMemoryTableNetwork, _ id: TableID, nodes: [Int], _ label: String) throws {
        var hashes: Set<StateHash> = []
        for i in nodes {
            let stopped = net.first(i, .stopped).map { "\($0)" } ?? "none"
            let result = try XCTUnwrap(
                net.first(i, .finished)?.result, "\(label): n\(i) did not finish: stopped \(stopped)")
            XCTAssertEqual(result.sealed, "verified", "\(label): n\(i): \(result.cheaters ?? [])")
            hashes.insert(result.finalHash)
        }
        XCTAssertEqual(hashes.count, 1, "\(label): the nodes ended on different public states")
    }

    func testASeatlessHostFollowsItsSealedTableAndSeesNoHiddenCard() throws {
        let cases: [(String, [Int])] = [
            ("briscola", [1, 1]), ("briscola", [1, 2]), ("briscola", [1, 2, 3]), ("spirits", [1, 2, 3, 1]),
        ]
        for (game, owners) in cases {
            let label = "\(game) \(owners)"
            let nodes = (owners.max() ?? 0) + 1
            var net = InMemoryTableNetwork(nodes: nodes, seed: UInt64(owners.count), catalog: .standard)
            let id = try Self.startWithSeatlessHost(&net, game, owners: owners)
            var seen = 0
            var played = 0
            net.run { n in
                if let table = Self.observer(n, id) {
                    // Before the audit, the host knows no card but those everyone saw.
                    if table.auditSecrets.isEmpty {
                        seen = max(seen, table.deals.map(\.privateCards.count).reduce(0, +))
                    }
                    played = max(played, table.deals.map(\.publicCards.count).reduce(0, +))
                }
                return (0..<nodes).allSatisfy { n.first($0, .finished) != nil || n.first($0, .stopped) != nil }
            }
            let table = try XCTUnwrap(Self.observer(net, id), label)
            XCTAssertTrue(table.isObserver, label)
            XCTAssertEqual(seen, 0, "\(label): the seatless host opened a card of a seat")
            XCTAssertGreaterThan(played, owners.count, "\(label): the host opened the cards played")
            try checkEveryNodeVerified(net, id, nodes: Array(0..<nodes), label)
            XCTAssertNotNil(net.table(0, id)?.log.sealedSecrets, "\(label): the host's log can be dealt again")
        }
    }

    /// The seatless host killed mid-game and started again from its journal, which holds no secret (§14.12): it
    /// takes every member's steps and shares again, catches the moves up, and ends on the members' verdict.
    func testASeatlessHostRestartedMidGameFollowsToTheVerifiedEnd() throws {
        for (game, owners) in [("briscola", [1, 2, 3]), ("spirits", [1, 2])] {
            var net = InMemoryTableNetwork(nodes: (owners.max() ?? 0) + 1, seed: 7, catalog: .standard)
            let id = try Self.startWithSeatlessHost(&net, game, owners: owners)
            net.run { n in (n.table(0, id)?.session?.moveNumber ?? 0) >= 6 }
            XCTAssertNil(net.table(0, id)?.log.sealedResume?.secret, "\(game): an observer journals no secret")
            net.kill(0)
            net.run { n in (n.table(1, id)?.session?.moveNumber ?? 0) >= 9 || n.first(1, .finished) != nil }
            XCTAssertEqual(net.restart(0), [id], "\(game): the host did not restore its table")
            let nodes = Array(0...(owners.max() ?? 0))
            net.run { n in nodes.allSatisfy { n.first($0, .finished) != nil || n.first($0, .stopped) != nil } }
            try checkEveryNodeVerified(net, id, nodes: nodes, "\(game) restarted")
        }
    }

    /// Two players and a seatless host: the host and the player left are a majority of three, but a vote would take the
    /// lost player's secret away with its seats (no escrow with two, §14.11). Nobody votes; the table waits paused, and
    /// the player back after its grace plays on to the verified end.
    func testATwoPlayerSealedTableWaitsForAPlayerLostPastItsGrace() throws {
        for game in ["briscola", "spirits"] {
            var net = InMemoryTableNetwork(nodes: 3, seed: 11, catalog: .standard)
            let id = try Self.startWithSeatlessHost(&net, game, owners: [1, 2])
            net.run { n in (n.table(0, id)?.session?.moveNumber ?? 0) >= 5 }
            net.kill(2)
            let lostAt = net.now
            net.run { n in n.now > lostAt + 200_000 }
            for i in 0..<2 {
                XCTAssertNil(net.first(i, .stopped), "\(game): n\(i) stopped instead of waiting")
                XCTAssertEqual(net.table(i, id)?.info.phase, .paused, "\(game): n\(i)")
                XCTAssertEqual(net.table(i, id)?.log.ownVotes?.count ?? 0, 0, "\(game): n\(i) voted the player out")
            }
            XCTAssertEqual(net.restart(2), [id], "\(game): the player did not restore its table")
            net.run { n in (0..<3).allSatisfy { n.first($0, .finished) != nil || n.first($0, .stopped) != nil } }
            try checkEveryNodeVerified(net, id, nodes: [0, 1, 2], "\(game), the player back")
        }
    }

    /// A member that leaves a sealed table with a seatless host: its heir is a member of the deck, never the host, which
    /// holds no piece of any secret (§14.11), even where the heirs' order ranks the host first.
    func testTheHeirOfASealedSeatIsNeverTheSeatlessHost() throws {
        var checked = false
        for seed in UInt64(1)...16 {
            var net = InMemoryTableNetwork(nodes: 4, seed: seed, catalog: .standard)
            let id = try Self.startWithSeatlessHost(&net, "briscola", owners: [1, 2, 3])
            net.run { n in (n.table(0, id)?.session?.moveNumber ?? 0) >= 4 }
            let everyone = Set((0..<3).map { net.nodes[$0].id })
            let joint = try XCTUnwrap(net.table(0, id)?.jointSeed, "seed \(seed)")
            // Only a seed whose heirs' order puts the host before the members who stay proves anything.
            guard HeirOrder.first(of: everyone, jointSeed: joint) == net.nodes[0].id else { continue }
            _ = try net.request(3, id, .leave).get()
            net.run { n in (0..<3).allSatisfy { n.first($0, .finished) != nil || n.first($0, .stopped) != nil } }
            try checkEveryNodeVerified(net, id, nodes: [0, 1, 2], "seed \(seed)")
            for i in 0..<3 {
                let heirs = net.table(i, id)?.log.takeovers?.map(\.heir) ?? []
                XCTAssertEqual(heirs.count, 1, "seed \(seed): n\(i)")
                XCTAssertFalse(heirs.contains(net.nodes[0].id), "seed \(seed): n\(i) named the seatless host heir")
            }
            checked = true
            break
        }
        XCTAssertTrue(checked, "no seed ranked the host first")
    }
}
