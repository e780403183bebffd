import Foundation
import TavoloCore
import TavoloGames
import XCTest

/// Observations travel as JSON to clients that may read numbers as `Double`: no 64-bit value may be a JSON number,
/// and what a client decodes must be exactly what the engine meant.
final class ObservationJSONTests: XCTestCase {
    /// Every number in every observation of many seeded games, every seat, stays far below 2^53.
    func testNoObservationCarriesALargeNumber() throws {
        for entry in GameCatalog.standard.entries {
            for players in entry.playerCounts {
                for seed: UInt64 in 1...5 {
                    let session = try entry.session(players: players, seed: seed)
                    var rng = TavoloRNG(seed: seed)
                    while session.turn != .terminal {
                        for seat in 0..<players {
                            let json = session.observation(for: seat).jsonBytes
                            let value = try JSONSerialization.jsonObject(with: Data(json), options: [.fragmentsAllowed])
                            for n in Self.numbers(in: value) {
                                XCTAssertLessThan(
                                    Swift.abs(n), 4_294_967_296.0,
                                    "\(entry.name): \(String(decoding: json, as: UTF8.self))")
                            }
                        }
                        let legal = session.legalMoves()
                        try session.apply(legal[rng.below(legal.count)])
                    }
                }
            }
        }
    }

    /// h8 is bit 63: a board with it set, and bitboards near 2^64, come out exactly.
    func testOthelloWithH8OccupiedSurvivesADoubleRoundTrip() throws {
        let black: UInt64 = 0xFFFF_FFFF_FFFF_FFFE & ~(1 << 62) & ~(1 << 9)
        let white: UInt64 = 1 << 62 | 1
        let state = OthelloState(black: black, white: white, toMove: 1, moveNumber: 40)
        let obs = state.observation(for: 0)
        XCTAssertEqual(obs.board[0], "XXXXXXOX", "rank 8: g8 white, h8 black")
        XCTAssertEqual(obs.disc(at: 63), "X")
        XCTAssertEqual(obs.disc(at: 62), "O")
        XCTAssertEqual(obs.disc(at: 0), "O")
        XCTAssertEqual(obs.disc(at: 9), ".")
        XCTAssertEqual(obs.discs, [black.nonzeroBitCount, white.nonzeroBitCount])
        // Through Foundation's JSON (numbers as Double) and back.
        let bytes = try JSONEncoder().encode(obs)
        let loose = try JSONSerialization.jsonObject(with: bytes)
        let again = try JSONDecoder().decode(
            OthelloObservation.self, from: try JSONSerialization.data(withJSONObject: loose))
        XCTAssertEqual(again, obs)
        XCTAssertEqual(obs.legal, state.legalMoves().filter { !$0.isPass }.map(\.description))
        for n in Self.numbers(in: loose) { XCTAssertLessThan(Swift.abs(n), 4_294_967_296.0) }
    }

    func testOthelloStartObservationReadsAsABoard() throws {
        let obs = try OthelloState(players: 2, seed: 0).observation(for: 1)
        XCTAssertEqual(
            obs.board, ["........", "........", "........", "...XO...", "...OX...", "........", "........", "........"])
        XCTAssertEqual(obs.legal, ["d3", "c4", "f5", "e6"])
        XCTAssertEqual(obs.turn, 0)
    }

    func testBriscolaHandIsAListOfCards() throws {
        let state = try BriscolaState(players: 2, seed: 3)
        let json = String(decoding: try JSONEncoder().encode(state.observation(for: 0)), as: UTF8.self)
        XCTAssertFalse(json.contains("bits"), json)
        let codes = state.hands[0].map { "\"\($0.code)\"" }.joined(separator: ",")
        XCTAssertTrue(json.contains("\"hand\":[\(codes)]"), json)
        let back = try JSONDecoder().decode(BriscolaObservation.self, from: Data(json.utf8))
        XCTAssertEqual(back, state.observation(for: 0))
    }

    func testSpiritsObservationNamesItsPhaseAndListsOneEntryPerSeat() throws {
        let state = try SpiritsState(players: 3, seed: 9)
        let obs = state.observation(for: 2)
        let json = try JSONEncoder().encode(obs)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        XCTAssertEqual(object["phase"] as? String, "open")
        XCTAssertEqual((object["handSizes"] as? [Any])?.count, 3)
        XCTAssertEqual(try JSONDecoder().decode(SpiritsObservation.self, from: json), obs)
    }

    static func numbers(in value: Any) -> [Double] {
        switch value {
        case let a as [Any]: return a.flatMap(numbers)
        case let o as [String: Any]: return o.values.flatMap(numbers)
        case is Bool: return []
        case let n as NSNumber: return [n.doubleValue]
        default: return []
        }
    }
}
