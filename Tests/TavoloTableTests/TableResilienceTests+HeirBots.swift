import TavoloCore
import TavoloProtocol
import TavoloTable
import XCTest

/// An inherited seat is played by its bot, not by its heir (PROTOCOL.md §9.12): every member runs the bot and
/// refuses any other move for that seat.
extension TableResilienceTests {
    func testAnHeirThatPlaysAnotherMoveThanItsBotIsRefused() throws {
        var mesh = Mesh(3)
        let id = try othello(&mesh, bot0: "random")
        mesh.isolate(2)
        mesh.fire(0, .grace(id, member: mesh[2]))
        let seed = try XCTUnwrap(mesh.table(0, id)?.jointSeed)
        let heirIndex = HeirOrder.first(of: [mesh[0], mesh[1]], jointSeed: seed) == mesh[0] ? 0 : 1
        let (heir, checker) = (mesh[heirIndex], mesh[1 - heirIndex])
        // The second vote agrees the takeover; what follows is delivered by hand, the heir's first move of seat 1
        // changed in flight to another legal move (a heir's node that chose for itself).
        mesh.apply(mesh[1], mesh.nodes[mesh[1]]!.timerFired(.grace(id, member: mesh[2])))
        var forgedNumber: Int?
        while forgedNumber == nil, !mesh.queue.isEmpty {
            let (from, to, message) = mesh.queue[0]
            if from == heir, to == checker, case .move(let t, let number, 1, let move, let hash) = message,
                let other = mesh.table(1 - heirIndex, id)?.session?.legalMoves().map(\.json).first(where: { $0 != move }
                )
            {
                mesh.queue[0].message = .move(table: t, number: number, seat: 1, move: other, stateHash: hash)
                forgedNumber = number
            }
            mesh.step()
        }
        let number = try XCTUnwrap(forgedNumber, "the heir never played seat 1 with another move to choose from")
        let table = try XCTUnwrap(mesh.table(1 - heirIndex, id))
        XCTAssertEqual(table.heirMovesRefused, 1)
        XCTAssertEqual(table.session?.moveNumber, number, "the forged move is not applied")
        XCTAssertEqual(mesh.table(heirIndex, id)?.heirMovesRefused, 0)
    }

    /// With an honest heir, every member's copy of the bot plays the heir's moves: none is refused, and the game
    /// finishes the same everywhere.
    func testEveryMemberAgreesWithAnHonestHeirsBot() throws {
        var mesh = Mesh(3)
        let id = try othello(&mesh, bot0: "random")
        mesh.isolate(2)
        mesh.fire(0, .grace(id, member: mesh[2]))
        mesh.fire(1, .grace(id, member: mesh[2]))
        for i in 0..<2 {
            let t = try XCTUnwrap(mesh.table(i, id))
            XCTAssertEqual(t.info.phase, .finished, "node \(i): \(t.stopReason.map { $0.reason } ?? "")")
            XCTAssertEqual(t.heirMovesRefused, 0, "node \(i)")
            XCTAssertGreaterThan(t.log.moves.filter { $0.seat == 1 }.count, 5, "the heir played seat 1 on")
        }
        XCTAssertEqual(mesh.hash(0, id), mesh.hash(1, id))
    }
}
