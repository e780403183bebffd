import TavoloCore
import TavoloProtocol
import XCTest

@testable import TavoloTable

/// PROTOCOL.md §9.1: a `table.result` from a node with no say is dropped and counted like every other such message
/// (it once went uncounted); a member's own result is not a refusal.
extension TableMachineTests {
    func refusals(_ effects: [TableEffect]) -> Int {
        effects.filter { if case .refused = $0 { true } else { false } }.count
    }

    func testAResultFromANonMemberIsCountedAsRefused() throws {
        var mesh = Mesh(3)
        let id = try seatedTable(&mesh, game: "othello", bots: [nil, nil])
        _ = try mesh.request(0) { $0.request(id, .start) }.get()
        let hash = try XCTUnwrap(mesh.table(0, id)?.session?.stateHash)
        let result = TableMessage.result(table: id, winners: [0], scores: [64, 0], finalHash: hash)
        for member in 0..<2 {
            var d = try XCTUnwrap(mesh.nodes[mesh[member]])
            XCTAssertEqual(refusals(d.received(result, from: mesh[2])), 1, "from the outsider, at member \(member)")
            XCTAssertEqual(refusals(d.received(result, from: mesh[1 - member])), 0, "from the other member")
            mesh.nodes[mesh[member]] = d
        }
        XCTAssertEqual(mesh.table(0, id)?.info.phase, .playing)
    }
}
