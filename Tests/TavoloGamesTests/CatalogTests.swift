import TavoloCore
import TavoloGames
import XCTest

final class CatalogTests: XCTestCase {
    func testEveryGameHasRandomBotAndDefaultBot() {
        for entry in GameCatalog.standard.entries {
            XCTAssertTrue(entry.bots.contains { $0.kind == "random" }, "\(entry.name) lacks a random bot")
            XCTAssertTrue(entry.bots.contains { $0.kind == entry.defaultBot }, "\(entry.name) default bot unknown")
            XCTAssertFalse(entry.playerCounts.isEmpty)
        }
    }

    /// Every registered game plays a short seeded batch through the type-erased entry, twice, identically.
    func testEveryGamePlaysOutDeterministically() throws {
        for entry in GameCatalog.standard.entries {
            for players in entry.playerCounts {
                let request = PlayoutRequest(
                    players: players, games: 20, seed: 99, bots: Array(repeating: "random", count: players))
                let a = try entry.playout(request)
                let b = try entry.playout(request)
                XCTAssertEqual(a.transcript, b.transcript, entry.name)
                XCTAssertEqual(a.totalMoves, b.totalMoves, entry.name)
            }
        }
    }

    /// A type-erased session driven move by move with the same bots gives the playout's final hash,
    /// so a table over the mesh can be checked against `tavolo playout`.
    func testSessionWithBotsMatchesPlayout() throws {
        for entry in GameCatalog.standard.entries {
            let players = entry.playerCounts[0]
            for seed: UInt64 in [3, 4] {
                let bots = Array(repeating: entry.bots.map(\.kind).first { $0 != "random" } ?? "random", count: players)
                let report = try entry.playout(PlayoutRequest(players: players, games: 1, seed: seed, bots: bots))
                let session = try entry.session(players: players, seed: seed)
                var deals = Set<Int>()
                while session.turn != .terminal {
                    deals.insert(session.dealNumber)
                    let legal = session.legalMoves()
                    let move = try session.botMove(kind: bots[0])
                    XCTAssertTrue(legal.contains(move), "\(entry.name): bot move not among legal moves")
                    XCTAssertFalse(session.describe(move).isEmpty)
                    // The move survives its trip as JSON: decoded, it is the same value.
                    XCTAssertEqual(try session.decodeMove(move.json), move)
                    try session.apply(move)
                }
                XCTAssertEqual(session.stateHash, report.finalHash, entry.name)
                XCTAssertNotNil(session.outcome)
                if entry.name == "spirits" { XCTAssertEqual(deals, [1, 2, 3]) }
            }
        }
    }

    /// A move decoded again (from the session's memo) is the same value; a malformed one still fails, every time.
    func testADecodedMoveIsTheSameTheSecondTime() throws {
        let session = try XCTUnwrap(GameCatalog.standard["spirits"]).session(players: 3, seed: 1)
        for move in session.legalMoves() {
            XCTAssertEqual(try session.decodeMove(move.json), move)
            XCTAssertEqual(try session.decodeMove(move.json), move)
        }
        for _ in 0..<2 {
            XCTAssertThrowsError(try session.decodeMove(.object(["play": .string("Z9")])))
        }
        // The same move parsed again from its bytes, as a peer's message arrives: found, and the same value.
        let play = try XCTUnwrap(session.legalMoves().first)
        XCTAssertEqual(try session.decodeMove(try CanonicalJSON.decode(JSONValue.self, play.json.jsonBytes)), play)
    }

    func testSessionRejectsMalformedAndIllegalMoves() throws {
        let session = try XCTUnwrap(GameCatalog.standard["spirits"]).session(players: 3, seed: 1)
        let before = session.stateHash
        XCTAssertThrowsError(try session.decodeMove(.string("{nope"))) { error in
            XCTAssertEqual((error as? MoveError)?.code, .malformed)
        }
        XCTAssertThrowsError(try session.decodeMove(.object(["play": .string("Z9")]))) { error in
            XCTAssertEqual((error as? MoveError)?.code, .malformed)
        }
        // Another game's move is malformed here too.
        XCTAssertThrowsError(try session.apply(AnyGameMove(OthelloMove.pass))) { error in
            XCTAssertEqual((error as? MoveError)?.code, .malformed)
        }
        // A Spirits! move that decodes but is not legal: flee while every card plays on the empty pile.
        let play = try XCTUnwrap(session.legalMoves().first?.as(SpiritsMove.self))
        let flee = AnyGameMove(SpiritsMove.flee(open: play.card))
        XCTAssertFalse(session.legalMoves().contains(flee))
        XCTAssertThrowsError(try session.apply(flee)) { error in
            XCTAssertEqual((error as? MoveError)?.code, .illegal)
        }
        XCTAssertEqual(session.stateHash, before)
        XCTAssertEqual(session.currentDeal?.count, 54)
    }
}
