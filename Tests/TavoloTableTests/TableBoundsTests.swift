import TavoloCore
import TavoloGames
import TavoloProtocol
import TavoloTable
import XCTest

/// What another node can make this node keep is bounded (issue 12): offers per host, offers of a lost host,
/// pending moves, and the size of each offer.
final class TableBoundsTests: XCTestCase {
    typealias Mesh = TableMachineTests.Mesh

    let me = NodeID(bytes: [UInt8](repeating: 0, count: 15) + [1])!
    let peer = NodeID(bytes: [UInt8](repeating: 0, count: 15) + [2])!
    let other = NodeID(bytes: [UInt8](repeating: 0, count: 15) + [3])!

    func directory() -> TableDirectory {
        var d = TableDirectory(
            context: TableContext(me: me, myName: "me", catalog: .standard),
            nonces: .reproducible(seed: 1, nodeIndex: 0))
        _ = d.peerConnected(peer, name: "peer")
        _ = d.peerConnected(other, name: "other")
        return d
    }

    func offer(_ n: Int, host: NodeID, game: String = "othello", players: Int = 2) -> TableInfo {
        let seats = (0..<players).map { #"{"seat":\#($0)}"# }.joined(separator: ",")
        let json =
            #"{"game":"\#(game)","host":"\#(host.hex)","hostName":"h","id":"h\#(host.hex.suffix(2))-\#(n)","phase":"open","#
            + #""players":\#(players),"revision":1,"seats":[\#(seats)]}"#
        return try! CanonicalJSON.decode(TableInfo.self, Array(json.utf8))
    }

    func testOffersFromOneHostAreCappedAndOthersStillCount() {
        var d = directory()
        for n in 1...100 { _ = d.received(.offer(offer(n, host: peer)), from: peer) }
        XCTAssertEqual(d.tables.count, TableDirectory.maxTablesPerPeer)
        _ = d.received(.offer(offer(1, host: other)), from: other)
        XCTAssertEqual(d.tables.count, TableDirectory.maxTablesPerPeer + 1)
    }

    func testALostHostsOffersGoWithIt() {
        var d = directory()
        for n in 1...3 { _ = d.received(.offer(offer(n, host: peer)), from: peer) }
        _ = d.received(.offer(offer(1, host: other)), from: other)
        XCTAssertEqual(d.tables.count, 4)
        _ = d.peerLost(peer)
        XCTAssertEqual(d.tables.map(\.value.info.host), [other])
    }

    /// The offer itself is bounded: a player count the game allows (so at most its seats), names of at most 63
    /// bytes, and an update cannot change the game or the player count.
    func testOffersOutsideTheLimitsAreDropped() {
        var d = directory()
        var huge = offer(1, host: peer, players: 50_000)
        XCTAssertFalse(huge.isWithinLimits(.standard))
        _ = d.received(.offer(huge), from: peer)
        huge = offer(2, host: peer)
        huge.hostName = String(repeating: "x", count: 64)
        _ = d.received(.offer(huge), from: peer)
        var seatName = offer(3, host: peer)
        seatName.seats[1].ownerName = String(repeating: "é", count: 32)
        _ = d.received(.offer(seatName), from: peer)
        XCTAssertTrue(d.tables.isEmpty)
        let ok = offer(4, host: peer)
        _ = d.received(.offer(ok), from: peer)
        var bigger = ok
        bigger.players = 4
        bigger.seats = (0..<4).map { SeatInfo(seat: $0) }
        bigger.game = "spirits"
        bigger.revision = 2
        _ = d.received(.offer(bigger), from: peer)
        XCTAssertEqual(d.tables[ok.id]?.info, ok)
    }

    /// Moves ahead of the game wait, at most 256 of them; the rest are rejected as stale.
    func testPendingMovesAreCapped() throws {
        var mesh = Mesh(2)
        let info = try mesh.request(0) { $0.host(game: "othello", players: 2) }.get()
        _ = try mesh.request(0) { $0.request(info.id, .join(seat: 0, bot: nil)) }.get()
        _ = try mesh.request(1) { $0.request(info.id, .join(seat: 1, bot: nil)) }.get()
        _ = try mesh.request(0) { $0.request(info.id, .start) }.get()
        let hash = try XCTUnwrap(mesh.table(0, info.id)?.session?.stateHash)
        var d = try XCTUnwrap(mesh.nodes[mesh[0]])
        var rejects = 0
        for number in 1...300 {
            let m = TableMessage.move(table: info.id, number: number, seat: 1, move: .string("c4"), stateHash: hash)
            for case .send(.reject(_, _, .stale, _), _) in d.received(m, from: mesh[1]) { rejects += 1 }
        }
        XCTAssertEqual(rejects, 300 - TableMachine.maxPending)
    }
}
