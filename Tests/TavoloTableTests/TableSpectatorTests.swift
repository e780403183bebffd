import Foundation
import TavoloCore
import TavoloGames
import TavoloProtocol
import XCTest

@testable import TavoloTable

/// A member voted out follows the rest of the game as a spectator of its former seats, and a minority cut off by a
/// partition rejoins the same way (PROTOCOL.md §9.12–9.13): pure directories, links cut and healed by hand.
final class TableSpectatorTests: XCTestCase {
    typealias Mesh = TableResilienceTests.Mesh

    /// Othello hosted by n0 (no seat), seat 0 played by n1's random bot, seat 1 by n2's human.
    func othello(_ mesh: inout Mesh) throws -> TableID {
        let info = try mesh.request(0) { $0.host(game: "othello", players: 2) }.get()
        _ = try mesh.request(1) { $0.request(info.id, .join(seat: 0, bot: "random")) }.get()
        _ = try mesh.request(2) { $0.request(info.id, .join(seat: 1, bot: nil)) }.get()
        _ = try mesh.request(0) { $0.request(info.id, .start) }.get()
        return info.id
    }

    /// What must be alike in every log of one game: moves, deals, takeovers, result and final hashes.
    func assertSameLogs(_ mesh: Mesh, _ nodes: [Int], _ id: TableID, file: StaticString = #filePath, line: UInt = #line)
        throws
    {
        let logs = try nodes.map { try XCTUnwrap(mesh.table($0, id)?.log, file: file, line: line) }
        for (i, log) in zip(nodes, logs).dropFirst() {
            let ref = logs[0]
            XCTAssertEqual(log.moves.map(\.after), ref.moves.map(\.after), "moves of n\(i)", file: file, line: line)
            XCTAssertEqual(log.moves.map(\.move), ref.moves.map(\.move), "moves of n\(i)", file: file, line: line)
            XCTAssertEqual(log.deals.map(\.number), ref.deals.map(\.number), "deals of n\(i)", file: file, line: line)
            XCTAssertEqual(log.takeovers ?? [], ref.takeovers ?? [], "takeovers of n\(i)", file: file, line: line)
            XCTAssertEqual(log.finalHash, ref.finalHash, "final hash of n\(i)", file: file, line: line)
            XCTAssertEqual(log.finalHashes, ref.finalHashes, "final hashes of n\(i)", file: file, line: line)
        }
    }

    /// n2 is lost past the grace: the two others vote it out and finish the game. When its links come back it learns
    /// the votes, follows the game it missed as a spectator of seat 1, and ends with the same log.
    func testAMemberVotedOutFollowsTheRestOfTheGame() throws {
        var mesh = Mesh(3)
        let id = try othello(&mesh)
        mesh.isolate(2)
        mesh.fire(0, .grace(id, member: mesh[2]))
        mesh.fire(1, .grace(id, member: mesh[2]))
        XCTAssertEqual(mesh.table(0, id)?.info.phase, .finished)
        let before = mesh.captured[mesh[2], default: []].count
        mesh.heal(2)
        // Back, n2 sends syncs and nothing else: it has no say any more (no move, confirmation, result, vote).
        let sent = mesh.captured[mesh[2], default: []].dropFirst(before).filter { $0.sender == mesh[2] }
        let types = Set(
            sent.compactMap { c -> String? in
                (try? JSONSerialization.jsonObject(with: Data(c.body)) as? [String: Any])?["type"] as? String
            })
        XCTAssertEqual(types, ["table.sync"])
        let t = try XCTUnwrap(mesh.table(2, id))
        XCTAssertEqual(t.info.phase, .finished, t.stopReason.map { $0.reason } ?? "")
        XCTAssertTrue(t.isSpectator)
        XCTAssertFalse(t.isMember)
        XCTAssertEqual(t.view.spectatorOf, [1])
        XCTAssertEqual(mesh.hash(2, id), mesh.hash(0, id))
        XCTAssertTrue(
            mesh.events[mesh[2], default: []].contains {
                $0.kind == .takenOver && $0.message?.contains("spectator") == true
            })
        try assertSameLogs(mesh, [0, 1, 2], id)
        XCTAssertEqual(t.log.finalHashes.keys.sorted(), ["n0", "n1"], "a spectator's hash is not the table's word")
        // A spectator plays nothing.
        XCTAssertThrowsError(try mesh.request(2) { $0.request(id, .move(.string("d3"))) }.get())
    }

    /// n2 did not see its links go and played its seat on its own: that move never reached the table, where n0's
    /// bot played the seat instead. When n2 learns it was voted out it drops the move and follows the table's game.
    func testASpectatorDropsTheMovesItPlayedAlone() throws {
        var mesh = Mesh(3)
        let id = try othello(&mesh)
        for j in [0, 1] {
            mesh.cut.insert([mesh[2], mesh[j]])
            mesh.cut.insert([mesh[j], mesh[2]])
        }
        let move = try XCTUnwrap(mesh.table(2, id)?.view.legalMoves.first)
        _ = try mesh.request(2) { $0.request(id, .move(move)) }.get()
        XCTAssertEqual(mesh.moves(2, id), 2, "n2 played alone")
        for j in [0, 1] { mesh.lose(mesh[j], mesh[2]) }
        mesh.run()
        mesh.fire(0, .grace(id, member: mesh[2]))
        mesh.fire(1, .grace(id, member: mesh[2]))
        XCTAssertEqual(mesh.table(0, id)?.info.phase, .finished)
        XCTAssertEqual(mesh.table(0, id)?.log.takeovers?.first?.appliedAt, 1)
        for j in [0, 1] { mesh.lose(mesh[2], mesh[j]) }
        mesh.heal(2)
        let t = try XCTUnwrap(mesh.table(2, id))
        XCTAssertEqual(t.info.phase, .finished, t.stopReason.map { $0.reason } ?? "")
        try assertSameLogs(mesh, [0, 1, 2], id)
    }

    /// A six-node Spirits! table of bots cut 2/4 mid-game: the four vote the two out after the grace and finish the
    /// game; the two wait, paused, and play nothing. After the heal both follow as spectators and every log is alike.
    func testATableCutTwoFourFinishesOnTheFourAndTheTwoFollowAfterTheHeal() throws {
        try cutTwoFour([4, 5], healOneLinkAtATime: false)
    }

    /// The same, the links coming back one at a time, each delivering what it carries before the next: a cut node
    /// gets a catch-up from the first member back long before the last member's votes.
    func testTheTwoFollowWhenTheirLinksComeBackOneAtATime() throws {
        try cutTwoFour([4, 5], healOneLinkAtATime: true)
    }

    /// The two lowest ids cut off, the host among them, their takeovers agreed in a different order at different
    /// members: the heir is named when the seats pass, so every member names the same one and the logs are alike
    /// (named when agreed, half the members recorded n0 -> n1 -> n2 and the other half n0 -> n2).
    func testTheTwoLowestIdsCutOffGetTheSameHeirEverywhere() throws {
        try cutTwoFour([0, 1], healOneLinkAtATime: false)
        try cutTwoFour([1, 0], healOneLinkAtATime: true)
    }

    func cutTwoFour(_ cut: [Int], healOneLinkAtATime: Bool) throws {
        let rest = (0..<6).filter { !cut.contains($0) }
        var mesh = Mesh(6)
        let info = try mesh.request(0) { $0.host(game: "spirits", players: 6) }.get()
        let id = info.id
        for i in 0..<6 { _ = try mesh.request(i) { $0.request(id, .join(seat: i, bot: "random")) }.get() }
        _ = try mesh.request(0, deliver: false) { $0.request(id, .start) }.get()
        while mesh.moves(0, id) < 30 && !mesh.queue.isEmpty { mesh.step() }
        XCTAssertEqual(mesh.table(0, id)?.info.phase, .playing)
        // The two lose the four others; they keep each other.
        mesh.partition(cut, from: rest)
        mesh.run()
        let cutAt = cut.map { mesh.moves($0, id) }
        for i in cut {
            for j in rest { mesh.fire(i, .grace(id, member: mesh[j])) }
        }
        // Each of the four agrees the two takeovers in its own order.
        for (k, i) in rest.enumerated() {
            for j in k % 2 == 0 ? cut : cut.reversed() { mesh.fire(i, .grace(id, member: mesh[j])) }
        }
        for i in rest {
            let t = try XCTUnwrap(mesh.table(i, id))
            XCTAssertEqual(t.info.phase, .finished, "n\(i): \(t.stopReason.map { $0.reason } ?? "")")
            XCTAssertEqual(t.log.takeovers?.map(\.memberName).sorted(), cut.sorted().map { "n\($0)" })
        }
        for (k, i) in cut.enumerated() {
            XCTAssertEqual(mesh.table(i, id)?.info.phase, .paused, "the minority waits")
            XCTAssertEqual(mesh.moves(i, id), cutAt[k], "the minority played a move")
        }
        if healOneLinkAtATime {
            for i in cut { for j in rest { mesh.heal([i], with: [j]) } }
        } else {
            mesh.heal(cut, with: rest)
        }
        for i in cut {
            let t = try XCTUnwrap(mesh.table(i, id))
            XCTAssertEqual(t.info.phase, .finished, "n\(i): \(t.stopReason.map { $0.reason } ?? "")")
            XCTAssertTrue(t.isSpectator)
        }
        try assertSameLogs(mesh, Array(0..<6), id)
    }
}

extension TableResilienceTests.Mesh {
    /// Cuts every link between the two groups (each side sees the other lost), with what was in flight.
    mutating func partition(_ a: [Int], from b: [Int]) {
        for i in a {
            for j in b {
                cut.insert([order[i], order[j]])
                cut.insert([order[j], order[i]])
                lose(order[i], order[j])
                lose(order[j], order[i])
            }
        }
    }

    /// Heals every link between the two groups.
    mutating func heal(_ a: [Int], with b: [Int]) {
        for i in a {
            for j in b {
                cut.remove([order[i], order[j]])
                cut.remove([order[j], order[i]])
                connect(order[i], order[j])
                connect(order[j], order[i])
            }
        }
        run()
    }
}
