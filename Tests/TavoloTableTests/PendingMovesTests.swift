import TavoloCore
import TavoloProtocol
import XCTest

@testable import TavoloTable

/// The one queue of moves before their turn: bounded in all, one move per lane and number, and a member's moves
/// dropped by lane and number when they are no longer its to play.
final class PendingMovesTests: XCTestCase {
    let a = NodeID(bytes: [UInt8](repeating: 1, count: 16))!
    let b = NodeID(bytes: [UInt8](repeating: 2, count: 16))!

    func move(_ from: NodeID, seat: Int) -> PendingMoves.Move {
        PendingMoves.Move(
            from: from, seat: seat, move: .integer(Int64(seat)),
            stateHash: StateHash(bytes: [UInt8](repeating: 0, count: 32)))
    }

    func testOneMovePerLaneAndNumberAndABoundInAll() {
        var q = PendingMoves()
        XCTAssertTrue(q.add(move(a, seat: 0), lane: 0, number: 3, limit: 3))
        XCTAssertFalse(q.add(move(b, seat: 0), lane: 0, number: 3, limit: 3), "the first move under a number stays")
        XCTAssertEqual(q[0, 3]?.from, a)
        XCTAssertTrue(q.add(move(b, seat: 1), lane: 1, number: 3, limit: 3), "another lane, the same number")
        XCTAssertTrue(q.add(move(a, seat: 0), lane: PendingMoves.turns, number: 0, limit: 3))
        XCTAssertFalse(q.add(move(a, seat: 0), lane: 2, number: 0, limit: 3), "three wait: the bound holds")
        XCTAssertEqual(q.count, 3)
        XCTAssertEqual(q.laneIDs, [PendingMoves.turns, 0, 1])
        XCTAssertNil(q.take(lane: 0, number: 4))
        XCTAssertEqual(q.take(lane: 0, number: 3)?.from, a)
        XCTAssertEqual(q.laneIDs, [PendingMoves.turns, 1], "an emptied lane is gone")
        XCTAssertEqual(q.count, 2)
    }

    func testDroppingAMembersMovesFromANumberInSomeLanes() {
        var q = PendingMoves()
        for n in 0..<4 {
            _ = q.add(move(n % 2 == 0 ? a : b, seat: 0), lane: 0, number: n, limit: 100)
            _ = q.add(move(a, seat: 1), lane: 1, number: n, limit: 100)
        }
        q.drop(from: a, numberedFrom: 2, in: [0])
        XCTAssertNotNil(q[0, 0], "before the number: kept")
        XCTAssertNil(q[0, 2], "a's from the number on: dropped")
        XCTAssertNotNil(q[0, 3], "b's: kept")
        XCTAssertNotNil(q[1, 3], "another lane: untouched")
        q.drop(from: a, in: [1])
        XCTAssertEqual(q.laneIDs, [0])
        XCTAssertEqual(q.count, 3)
        q.keepLanes { $0 != 0 }
        XCTAssertEqual(q.count, 0)
        XCTAssertEqual(q.laneIDs, [])
    }
}
