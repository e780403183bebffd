import TavoloCore
import TavoloGames
import TavoloProtocol
import TavoloTable
import TavoloTestSupport
import XCTest

/// Sealed tables restarted with nobody to catch the moves up from (PROTOCOL.md §14.12): a node alone at its table (its
/// user and its bots: `tavolo host spirits --seat --bots --start`, sealed by default), or every member at once. A
/// restarted member begins its sealed game again with nothing played and catches the moves up from the others; with
/// nobody to ask, its bots played the game again from move 0, its user's moves were lost and the journal written over.
/// Each member now plays its own seats' journaled moves again, each card opened as the first time.
final class SealedJournalReplayTests: XCTestCase {
    /// Plays the user's seat (its first legal move) until the game has `moves` moves or is over.
    func playUser(_ net: inout InMemoryTableNetwork, _ id: TableID, until moves: Int) throws {
        while let state = net.state(0, id), (state.moveNumber ?? 0) < moves, !state.info.phase.isOver {
            if let move = state.legalMoves.first {
                XCTAssertNoThrow(try net.request(0, id, .move(move)).get())
            }
            net.run { n in
                guard let s = n.state(0, id) else { return true }
                return !s.legalMoves.isEmpty || s.info.phase.isOver || (s.moveNumber ?? 0) >= moves
            }
        }
    }

    /// A sealed table of `game` whose seat `i` is node `owners[i]`'s (seat 0 the user's, the others random bots),
    /// started and played until every node has applied 12 moves; with the moves each node journaled.
    func startPlayedTwelve(
        _ game: String, owners: [Int], seed: UInt64, _ label: String
    ) throws -> (net: InMemoryTableNetwork, id: TableID, journals: [[String]]) {
        let nodes = (owners.max() ?? 0) + 1
        var net = InMemoryTableNetwork(nodes: nodes, seed: seed, catalog: .standard)
        let hosted = net.request(0) { $0.host(game: game, players: owners.count, sealed: true) }
        let id = try XCTUnwrap(try hosted?.get(), label).id
        net.deliverAll()
        for (seat, node) in owners.enumerated() {
            XCTAssertNoThrow(try net.join(node, table: id, seat: seat, bot: seat == 0 ? nil : "random").get())
            net.deliverAll()
        }
        XCTAssertNoThrow(try net.request(0, id, .start).get(), label)
        net.deliverAll()
        try playUser(&net, id, until: 12)
        net.run { n in (0..<nodes).allSatisfy { (n.state($0, id)?.moveNumber ?? 0) >= 12 } }
        return (net, id, (0..<nodes).map { net.table($0, id)?.log.moves.map(\.after) ?? [] })
    }

    /// The user plays on to the end; every node finishes with the deck verified.
    func playToAVerifiedEnd(_ net: inout InMemoryTableNetwork, _ id: TableID, nodes: Int, _ label: String) throws {
        try playUser(&net, id, until: .max)
        net.run { n in (0..<nodes).allSatisfy { n.first($0, .finished) != nil || n.first($0, .stopped) != nil } }
        for i in 0..<nodes {
            let stopped = net.first(i, .stopped).map { "\($0)" } ?? "none"
            let result = try XCTUnwrap(
                net.first(i, .finished)?.result, "\(label): n\(i) not finished; stopped \(stopped)")
            XCTAssertEqual(result.sealed, "verified", "\(label): n\(i)")
        }
    }

    func testALoneMemberRestartedMidGameKeepsEveryMoveAndEndsVerified() throws {
        for (game, players) in [("spirits", 3), ("briscola", 2), ("briscola", 4)] {
            let label = "\(game) for \(players)"
            var net = InMemoryTableNetwork(nodes: 1, seed: UInt64(players), catalog: .standard)
            let hosted = net.request(0) { $0.host(game: game, players: players, sealed: true) }
            let id = try XCTUnwrap(try hosted?.get(), label).id
            XCTAssertNoThrow(try net.join(0, table: id, seat: 0, bot: nil).get(), label)
            for seat in 1..<players {
                XCTAssertNoThrow(try net.join(0, table: id, seat: seat, bot: "random").get(), label)
            }
            XCTAssertNoThrow(try net.request(0, id, .start).get(), label)
            net.deliverAll()
            try playUser(&net, id, until: 12)
            let before = try XCTUnwrap(net.state(0, id), label)
            let moves = try XCTUnwrap(net.table(0, id)?.log.moves, label)
            XCTAssertGreaterThanOrEqual(moves.count, 12, label)

            net.kill(0)
            XCTAssertEqual(net.restart(0), [id], "\(label): the table was not restored")
            net.run { n in (n.state(0, id)?.moveNumber ?? 0) >= moves.count || n.first(0, .stopped) != nil }
            let after = try XCTUnwrap(net.state(0, id), label)
            XCTAssertEqual(after.moveNumber, before.moveNumber, "\(label): moves lost in the restart")
            XCTAssertEqual(after.stateHash, before.stateHash, "\(label): another state after the restart")
            XCTAssertEqual(
                net.table(0, id)?.log.moves.map(\.after), moves.map(\.after), "\(label): the journal's moves changed")

            try playUser(&net, id, until: .max)
            let stopped = net.first(0, .stopped).map { "\($0)" } ?? "none"
            let result = try XCTUnwrap(net.first(0, .finished)?.result, "\(label): not finished; stopped \(stopped)")
            XCTAssertEqual(result.sealed, "verified", label)
        }
    }

    /// A second power cut while the members play their journals again: the restart had written each journal again from
    /// its header, so the moves not yet played again were on no disk, and a second restart lost them. The journal's
    /// header now keeps them until the game passes them (§14.12).
    func testEveryMemberRestartedTwiceDuringTheReplayKeepsEveryMove() throws {
        for (game, owners) in [("briscola", [0, 1]), ("spirits", [0, 1, 2])] {
            let label = "\(game) \(owners)"
            let nodes = owners.count
            let started = try startPlayedTwelve(game, owners: owners, seed: UInt64(nodes) + 20, label)
            var net = started.net
            let (id, journals) = (started.id, started.journals)
            let longest = try XCTUnwrap(journals.max { $0.count < $1.count })

            for i in 0..<nodes { net.kill(i) }
            for i in 0..<nodes { XCTAssertEqual(net.restart(i), [id], "\(label): n\(i) did not restore its table") }
            // Part of the journals played again, then the power goes again.
            net.run { n in (0..<nodes).contains { (n.state($0, id)?.moveNumber ?? 0) >= 3 } }
            let partway = (0..<nodes).map { net.state($0, id)?.moveNumber ?? 0 }
            XCTAssertLessThan(partway.max() ?? 0, longest.count, "\(label): the replay was not cut partway")
            for i in 0..<nodes { net.kill(i) }
            for i in 0..<nodes { XCTAssertEqual(net.restart(i), [id], "\(label): n\(i) not restored the second time") }
            net.run { n in
                (0..<nodes).allSatisfy { (n.state($0, id)?.moveNumber ?? 0) >= longest.count }
                    || (0..<nodes).contains { n.first($0, .stopped) != nil }
            }
            for i in 0..<nodes {
                let replayed = net.table(i, id)?.log.moves.map(\.after).prefix(longest.count) ?? []
                XCTAssertEqual(
                    Array(replayed), longest, "\(label): n\(i) lost moves in the second restart (cut at \(partway))")
            }
            try playToAVerifiedEnd(&net, id, nodes: nodes, label)
        }
    }

    /// Every member killed together (a power cut at the party) and started again: each had begun its sealed game again
    /// from move 0 with nobody to catch up from, and their bots dealt and played a new game over the old one. Each
    /// plays its own seats' journaled moves again now, each card opened by its mover as the first time; the others'
    /// come from them.
    func testEveryMemberRestartedTogetherKeepsEveryMoveAndEndsVerified() throws {
        for (game, owners) in [("briscola", [0, 1]), ("spirits", [0, 1, 2]), ("briscola", [0, 1, 0, 1])] {
            let label = "\(game) \(owners)"
            let nodes = (owners.max() ?? 0) + 1
            let started = try startPlayedTwelve(game, owners: owners, seed: UInt64(owners.count) + 10, label)
            var net = started.net
            let (id, journals) = (started.id, started.journals)
            // A bot's move may be on its way when the power goes: the journals are prefixes of the longest.
            let longest = try XCTUnwrap(journals.max { $0.count < $1.count })
            for j in journals { XCTAssertEqual(Array(longest.prefix(j.count)), j, "\(label): journals differ") }

            for i in 0..<nodes { net.kill(i) }
            for i in 0..<nodes { XCTAssertEqual(net.restart(i), [id], "\(label): n\(i) did not restore its table") }
            net.run { n in
                (0..<nodes).allSatisfy { (n.state($0, id)?.moveNumber ?? 0) >= longest.count }
                    || (0..<nodes).contains { n.first($0, .stopped) != nil }
            }
            for i in 0..<nodes {
                let replayed = net.table(i, id)?.log.moves.map(\.after).prefix(longest.count) ?? []
                XCTAssertEqual(Array(replayed), longest, "\(label): n\(i) lost or changed moves in the restart")
            }
            try playToAVerifiedEnd(&net, id, nodes: nodes, label)
        }
    }
}
