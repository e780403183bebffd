import TavoloCore
import XCTest

@testable import TavoloGames

func bigEndian<T: FixedWidthInteger>(_ v: T) -> [UInt8] { withUnsafeBytes(of: v.bigEndian) { Array($0) } }

/// The canonical encoding rebuilt by hand from Protocol/games/briscola.md, field by field.
final class BriscolaCanonicalTests: XCTestCase {
    func testBriscolaLayoutMatchesTheDocument() throws {
        for players in [2, 3, 4] {
            var s = try BriscolaState(players: players, seed: 0x0123_4567_89AB_CDEF)
            var bot = BriscolaEmulatorBot()
            for _ in 0..<(players + 1) { try s.apply(bot.chooseMove(in: s, seat: s.current)) }
            var bytes: [UInt8] = [UInt8(players)] + bigEndian(s.seed) + s.dealtDeck.map(\.id)
            bytes += [UInt8(s.dealer), try XCTUnwrap(s.trumpCard).id] + bigEndian(UInt32(s.moveNumber))
            bytes += [UInt8(s.current), UInt8(s.leader), UInt8(s.drawn), 0xFF]
            for seat in 0..<players { bytes += bigEndian(s.hands[seat].bits) + bigEndian(s.captured[seat].bits) }
            bytes += bigEndian(UInt16(s.table.count)) + s.table.map(\.id)
            XCTAssertEqual(s.canonicalBytes, bytes)
            XCTAssertEqual(bytes.count, [2: 93, 3: 108, 4: 125][players, default: 0] + s.table.count)
        }
    }
}
