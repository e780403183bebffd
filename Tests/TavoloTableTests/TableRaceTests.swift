import TavoloCore
import TavoloGames
import TavoloProtocol
import TavoloTable
import TavoloTestSupport
import XCTest

/// Simultaneous play (PROTOCOL.md §10) with pure machines: bots' pace timers are fired by hand in a chosen
/// interleaving, so who is seen to finish first is decided by the test, not by a clock.
final class TableRaceTests: XCTestCase {
    typealias Mesh = TableMachineTests.Mesh

    /// Fires every pending `raceBot` timer of node `i`'s seats in `seats` once (one move each).
    func fire(_ mesh: inout Mesh, _ id: TableID, node i: Int, seats: Set<Int>) {
        let node = mesh[i]
        for seat in seats.sorted() {
            guard let at = mesh.timers[node, default: []].firstIndex(of: .raceBot(id, seat: seat)) else {
                continue
            }
            mesh.timers[node]?.remove(at: at)
            var d = mesh.nodes[node]!
            let effects = d.timerFired(.raceBot(id, seat: seat))
            mesh.nodes[node] = d
            mesh.apply(node, effects)
            mesh.run()
        }
    }

    /// Plays rounds until the table is over: in each round every seat moves once, and the seats in `twice` move
    /// a second time, so they finish first.
    func race(_ mesh: inout Mesh, _ id: TableID, players: Int, twice: Set<Int>) {
        for _ in 0..<2_000 where mesh.table(0, id)?.info.phase == .playing {
            for i in 0..<players { fire(&mesh, id, node: i, seats: [i]) }
            for i in twice.sorted() { fire(&mesh, id, node: i, seats: [i]) }
        }
    }

    func seatedTable(_ mesh: inout Mesh, game: String, bots: [String?]) throws -> TableID {
        let info = try mesh.request(0) { $0.host(game: game, players: bots.count) }.get()
        for (i, bot) in bots.enumerated() {
            _ = try mesh.request(i) { $0.request(info.id, .join(seat: i, bot: bot)) }.get()
        }
        return info.id
    }

    func finished(_ mesh: Mesh, _ i: Int) -> TableResult? {
        for e in mesh.events[mesh[i], default: []] { if case .finished(let r) = e.detail { return r } }
        return nil
    }

    func testBotsRaceOnTheSameScrambleAndEveryNodeAgreesOnTheRanking() throws {
        var mesh = Mesh(3)
        let id = try seatedTable(&mesh, game: "fifteen", bots: ["reduce", "reduce", "reduce"])
        _ = try mesh.request(0) { $0.request(id, .start) }.get()
        XCTAssertEqual(mesh.table(0, id)?.session?.isSimultaneous, true)
        race(&mesh, id, players: 3, twice: [2])
        let results = (0..<3).compactMap { finished(mesh, $0) }
        XCTAssertEqual(results.count, 3, "every node finished")
        XCTAssertEqual(Set(results.map(\.finalHash)).count, 1)
        XCTAssertEqual(results.map(\.ranking), Array(repeating: [2, 0, 1], count: 3))
        XCTAssertEqual(results.first?.winners, [2])
        // Every seat solved the same scramble with the same bot: the same number of moves.
        XCTAssertEqual(Set(results.first?.scores ?? []).count, 1)
    }

    /// A race's scores are each seat's own slides (docs/rules/fifteen.md), whatever the others made.
    func testScoresAreEachSeatsOwnSlides() throws {
        var mesh = Mesh(2)
        let id = try seatedTable(&mesh, game: "fifteen", bots: ["reduce", "random"])
        _ = try mesh.request(0) { $0.request(id, .start) }.get()
        race(&mesh, id, players: 2, twice: [])
        let result = try XCTUnwrap(finished(mesh, 0))
        let log = try XCTUnwrap(mesh.table(0, id)?.log)
        let slides = (0..<2).map { seat in log.moves.filter { $0.seat == seat && $0.move != .string("give-up") }.count }
        XCTAssertEqual(result.scores, slides)
        XCTAssertNotEqual(slides[0], slides[1], "seed-dependent, but a solver and a random slider differ")
    }

    func testAWrongSolutionAndALyingVoteDoNotWin() throws {
        var mesh = Mesh(3)
        let id = try seatedTable(&mesh, game: "fifteen", bots: ["reduce", "reduce", "reduce"])
        _ = try mesh.request(0) { $0.request(id, .start) }.get()
        let session: any GameSession = try XCTUnwrap(mesh.table(2, id)?.session)
        // n2 claims a move for seat 2 made on another board (a wrong seat hash), one that no tile can make, and a
        // move for seat 0, which is not its seat; then votes itself first before anyone finished.
        let wrongHash = StateHash(canonical: [1, 2, 3])
        let legal: [AnyGameMove] = session.legalMoves(seat: 2)
        let good: AnyGameMove = try XCTUnwrap(legal.first)
        let impossible = try XCTUnwrap(
            ["up", "down", "left", "right"].map { JSONValue.string($0) }.first { json in
                !legal.contains { $0.json == json }
            })
        for message in [
            TableMessage.raceMove(table: id, seat: 2, number: 0, move: good.json, seatHash: wrongHash),
            .raceMove(table: id, seat: 2, number: 0, move: impossible, seatHash: session.seatHash(2)),
            .raceMove(table: id, seat: 0, number: 0, move: good.json, seatHash: session.seatHash(0)),
            .raceOrder(table: id, order: [2, 0, 1]),
        ] {
            _ = try mesh.request(2) { $0.request(id, .inject(message)) }.get()
        }
        // n0's own rejections (it also hears n1's, as `table.reject`).
        let rejected = mesh.events[mesh[0], default: []].filter {
            $0.kind == .rejected && $0.message?.hasPrefix("rejected move 0 from n2") == true
        }
        XCTAssertEqual(rejected.count, 3, "n0 rejects all three false moves")
        XCTAssertEqual(mesh.table(0, id)?.session?.seatHash(2), session.seatHash(2), "n0 applied none of them")
        // Seat 0 is the fastest; n2's own vote says seat 2 came first, but it is one vote of three.
        race(&mesh, id, players: 3, twice: [0])
        let results = (0..<3).compactMap { finished(mesh, $0) }
        XCTAssertEqual(results.count, 3)
        XCTAssertEqual(Set(results.map(\.finalHash)).count, 1)
        XCTAssertEqual(Set(results.map { $0.ranking ?? [] }).count, 1, "every node agrees")
        XCTAssertEqual(results.first?.ranking?.first, 0, "the fastest seat wins despite the lie")
        XCTAssertNotEqual(results.first?.winners, [2])
    }

    func testRankingAddsUpTheVotesAndIgnoresInvalidOnes() {
        // Two honest votes against one liar: the liar's seat does not win.
        let r = RaceRanking.rank(
            orders: [[0, 1, 2], [0, 2, 1], [2, 0, 1]], completed: [0, 1, 2], moves: [50, 50, 50])
        XCTAssertEqual(r.ranking, [0, 2, 1])
        XCTAssertEqual(r.ignored, [])
        // A vote naming a seat that did not complete, or naming one twice, is no vote.
        let bad = RaceRanking.rank(orders: [[1, 0], [0, 0], [0, 1, 2]], completed: [0, 1], moves: [40, 30, 0])
        XCTAssertEqual(bad.ranking, [1, 0])
        XCTAssertEqual(bad.ignored, [1, 2])
        // Two members voting themselves first tie: fewer moves, then the lower seat, decide.
        XCTAssertEqual(
            RaceRanking.rank(orders: [[0, 1], [1, 0]], completed: [0, 1], moves: [44, 40]).ranking, [1, 0])
        XCTAssertEqual(
            RaceRanking.rank(orders: [[0, 1], [1, 0]], completed: [0, 1], moves: [40, 40]).ranking, [0, 1])
    }
}
