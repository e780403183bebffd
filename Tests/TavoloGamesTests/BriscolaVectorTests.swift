import Foundation
import TavoloCore
import TavoloTestSupport
import XCTest

@testable import TavoloGames

/// The engine against the independent Python reference (`Protocol/vectors/generate_briscola_vectors.py`): the deal
/// of every player count, the sorted legal moves (the vectors' moves are picked by index from them), every state
/// hash, the chiamata partner's visibility, and the outcome.
final class BriscolaVectorTests: XCTestCase {
    func loadCases(file: String = #filePath) throws -> [[String: Any]] {
        let data = try ProtocolVectors.data("briscola.json")
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try XCTUnwrap(object["cases"] as? [[String: Any]])
    }

    /// The generator's choice among the sorted legal moves (its `choose`).
    func choose(_ s: BriscolaState, _ legal: [BriscolaMove], style: String, rng: inout TavoloRNG) -> BriscolaMove {
        if let c = s.chiamata, c.phase == .bidding, style != "random" {
            let bids = legal.filter { if case .bid = $0.action { return true } else { return false } }
            let canPass = legal.contains(.pass)
            let options =
                style == "low"
                ? Array(bids.prefix(2)) + (canPass ? [.pass] : []) : (canPass ? [.pass] : Array(bids.prefix(1)))
            return options[rng.below(options.count)]
        }
        return legal[rng.below(legal.count)]
    }

    func testEngineMatchesThePythonVectors() throws {
        let cases = try loadCases()
        XCTAssertEqual(Set(cases.compactMap { $0["players"] as? Int }), [2, 3, 4, 5])
        XCTAssertGreaterThanOrEqual(cases.count, 28)
        for c in cases { try check(c) }
    }

    func check(_ c: [String: Any]) throws {
        let players = try XCTUnwrap(c["players"] as? Int)
        let seed = try XCTUnwrap(UInt64(try XCTUnwrap(c["seed"] as? String)))
        let style = try XCTUnwrap(c["auctionStyle"] as? String)
        let name = "\(players) players seed \(seed) \(style)"
        var s = try BriscolaState(players: players, seed: seed)
        XCTAssertEqual(s.dealtDeck.map { Int($0.id) }, c["dealtDeck"] as? [Int], name)
        XCTAssertEqual(s.dealer, c["dealer"] as? Int, name)
        XCTAssertEqual(s.canonicalBytes.hexString, c["startCanonical"] as? String, name)
        XCTAssertEqual(s.stateHash.hex, c["startHash"] as? String, name)
        let moves = try XCTUnwrap(c["moves"] as? [Any])
        let hashes = try XCTUnwrap(c["hashes"] as? [String])
        let shown = c["partnerShownTo"] as? [[Int]]
        var rng = TavoloRNG(seed: seed, stream: 7)
        for (i, json) in moves.enumerated() {
            let data = try JSONSerialization.data(withJSONObject: json)
            let move = try JSONDecoder().decode(BriscolaMove.self, from: data)
            XCTAssertEqual(
                choose(s, s.legalMoves(), style: style, rng: &rng), move, "\(name) move \(i): the legal moves")
            try s.apply(move)
            XCTAssertEqual(s.stateHash.hex, hashes[i], "\(name) after move \(i) \(move)")
            if let shown {
                let seeing = (0..<players).filter { s.observation(for: $0).partner != nil }
                XCTAssertEqual(seeing, shown[i], "\(name) after move \(i): who sees the partner")
            }
            if s.stateHash.hex != hashes[i] { return }
        }
        let outcome = try XCTUnwrap(s.outcome, name)
        XCTAssertEqual(outcome.winners, c["winners"] as? [Int], name)
        XCTAssertEqual(outcome.scores, c["scores"] as? [Int], name)
        XCTAssertEqual(s.canonicalBytes.hexString, c["endCanonical"] as? String, name)
    }

    /// Perft through the catalog (the generic walk over `legalMoves`) equals the Python count: the auction's moves.
    func testPerftMatchesThePythonCounts() throws {
        let data = try ProtocolVectors.data("briscola.json")
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let counts = try XCTUnwrap(object["perft"] as? [[String: Any]])
        let entry = try XCTUnwrap(GameCatalog.standard["briscola"])
        XCTAssertEqual(counts.count, 2)
        for c in counts {
            let players = try XCTUnwrap(c["players"] as? Int)
            let seed = try XCTUnwrap(UInt64(try XCTUnwrap(c["seed"] as? String)))
            let depth = try XCTUnwrap(c["depth"] as? Int)
            let nodes = try entry.perft(players: players, seed: seed, depth: depth)
            XCTAssertEqual(nodes, UInt64(try XCTUnwrap(c["nodes"] as? Int)), "\(players) players depth \(depth)")
        }
    }

    /// The moves' JSON round-trips, and malformed moves are refused on decoding.
    func testMovesOnTheWire() throws {
        let moves: [BriscolaMove] = [
            BriscolaMove(Card(id: 39)!), .bid(ChiamataBid(wire: 3)!), .bid(ChiamataBid(wire: 75)!), .pass,
            .call(Card(id: 2)!),
        ]
        let texts = ["{\"card\":\"10B\"}", "{\"bid\":3}", "{\"bid\":75}", "{\"pass\":true}", "{\"call\":\"3C\"}"]
        for (m, t) in zip(moves, texts) {
            XCTAssertEqual(String(decoding: try JSONEncoder().encode(m), as: UTF8.self), t)
            XCTAssertEqual(try JSONDecoder().decode(BriscolaMove.self, from: Data(t.utf8)), m)
        }
        for bad in ["{\"bid\":11}", "{\"bid\":61}", "{\"pass\":false}", "{\"card\":\"1C\",\"pass\":true}", "{}"] {
            XCTAssertThrowsError(try JSONDecoder().decode(BriscolaMove.self, from: Data(bad.utf8)), bad)
        }
    }
}
