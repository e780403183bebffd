import TavoloCore
import TavoloGames
import TavoloProtocol
import XCTest

@testable import TavoloTable

/// `TablePlay` keeps its fields in a shared box (TablePlay.swift), but it is still a value: a copy changed later
/// leaves the original as it was, and a change to an unshared box happens in place.
final class TablePlayCopyTests: XCTestCase {
    func testACopyOfPlayIsAValue() throws {
        let game = try XCTUnwrap(GameCatalog.standard["othello"]).session(players: 2, seed: 7)
        var original = TablePlay(seed: 7, sequencer: MoveSequencer(game: game), round: SeedRound())
        let member = try XCTUnwrap(NodeID(hex: "00112233445566778899aabbccddeeff"))
        original.results[member] = StateHash(bytes: [UInt8](repeating: 1, count: 32))
        var copy = original
        copy.absence.replaced.insert(member)
        copy.results[member] = StateHash(bytes: [UInt8](repeating: 2, count: 32))
        XCTAssertEqual(original.absence.replaced, [])
        XCTAssertEqual(original.results[member], StateHash(bytes: [UInt8](repeating: 1, count: 32)))
        XCTAssertEqual(copy.absence.replaced, [member])
        XCTAssertEqual(copy.seed, 7)
    }
}
