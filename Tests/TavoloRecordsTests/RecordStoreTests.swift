import Foundation
import TavoloControl
import TavoloCore
import TavoloGames
import TavoloProtocol
@testable import TavoloRecords
import TavoloTable
import XCTest

/// The store, the queries and the verifier, on a real SQLite file in a temp directory (no daemon).
final class RecordStoreTests: XCTestCase {
    var dir: String!
    let me = String(format: "%032x", 1)

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("records-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func record(_ game: String = "othello", players: Int = 2, seed: UInt64 = 7, bot: String = "random",
                names: [String]? = nil) throws -> RecordedGame {
        try RecordFactory.playout(catalog: .standard, game: game, players: players, seed: seed, bot: bot, names: names)
    }

    func testTheDatabaseIsWALAndARecordIsStoredOnceAndListed() throws {
        let (store, imported) = try RecordStore.open(stateDirectory: dir, me: me)
        XCTAssertEqual(imported, 0)
        let r = try record()
        XCTAssertTrue(try store.insert(r))
        XCTAssertFalse(try store.insert(r), "the same record twice is stored once")
        XCTAssertEqual(store.count, 1)
        let h = try store.history(game: nil, player: nil)
        XCTAssertEqual(h.map(\.id), [r.id])
        XCTAssertTrue(h[0].mine, "seat 0's node is this node's id")
        XCTAssertEqual(try store.history(game: "briscola", player: nil).count, 0)
        XCTAssertEqual(try store.history(game: nil, player: "bench1").count, 1)
        XCTAssertEqual(try store.history(game: nil, player: "nobody").count, 0)
        let mode = try String(contentsOfFile: dir + "/records.sqlite", encoding: .isoLatin1).prefix(20)
        XCTAssertTrue(mode.hasPrefix("SQLite format 3"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/records.sqlite-wal"), "WAL mode")
    }

    func testScoresCountWinsPerPlayerWithPeopleAndBotsApartAndAchievements() throws {
        let (store, _) = try RecordStore.open(stateDirectory: dir, me: me)
        var wins = [0, 0]
        for seed in UInt64(1)...12 {
            let r = try record(seed: seed)
            let b = try r.decodedBody()
            for w in b.winners { wins[w] += 1 }
            // Seats as people: the bot field cleared by making a body of people (as a table of humans writes).
            var people = b
            people.seats = people.seats.enumerated().map { .init(seat: $0.offset, node: $0.element.node, name: ["ann", "bob"][$0.offset], bot: nil) }
            try store.insert(RecordedGame(body: try CanonicalJSON.encode(people), startedAt: nil, endedAt: 1), source: .peer)
            try store.insert(r, source: .peer)
        }
        let board = try store.scores(game: nil, catalog: .standard)
        let othello = try XCTUnwrap(board.games.first { $0.game == "othello" })
        XCTAssertEqual(othello.finished, 24)
        XCTAssertEqual(Dictionary(uniqueKeysWithValues: othello.humans.map { ($0.player, $0.wins) }), ["ann": wins[0], "bob": wins[1]])
        XCTAssertEqual(othello.bots.map(\.player), ["random"])
        XCTAssertEqual(othello.bots.first?.games, 24)
        let firstWins = board.achievements.filter { $0.code == "othello/first-win" && !$0.bot }.map(\.player).sorted()
        XCTAssertEqual(firstWins, wins.enumerated().filter { $0.element > 0 }.map { ["ann", "bob"][$0.offset] })
    }

    func testAGenuineRecordVerifiesAndAChangedWinnerOrIdIsRefused() throws {
        let verifier = RecordVerifier(catalog: .standard)
        for (game, players, bot) in [("othello", 2, "greedy"), ("briscola", 4, "emulator"), ("spirits", 3, "heuristic")] {
            let r = try record(game, players: players, seed: 42, bot: bot)
            XCTAssertNoThrow(try verifier.verify(id: r.id, body: r.body).get(), game)
            var b = try r.decodedBody()
            b.winners = b.winners == [0] ? [1] : [0]
            let tampered = RecordedGame(body: try CanonicalJSON.encode(b), startedAt: nil, endedAt: 0)
            guard case .failure(let why) = verifier.verify(id: tampered.id, body: tampered.body) else {
                return XCTFail("\(game): a changed winner was accepted")
            }
            XCTAssertTrue(why.description.contains("winners"), why.description)
            guard case .failure = verifier.verify(id: r.id, body: tampered.body) else {
                return XCTFail("\(game): a body under another's id was accepted")
            }
            var cut = try r.decodedBody()
            cut.moves.removeLast()
            let short = RecordedGame(body: try CanonicalJSON.encode(cut), startedAt: nil, endedAt: 0)
            guard case .failure = verifier.verify(id: short.id, body: short.body) else {
                return XCTFail("\(game): a record missing its last move was accepted")
            }
        }
    }

    func testGameLogsAreImportedAtFirstStartOnly() throws {
        let games = dir + "/games"
        try FileManager.default.createDirectory(atPath: games, withIntermediateDirectories: true)
        let r = try record()
        let b = try r.decodedBody()
        let host = try XCTUnwrap(NodeID(hex: b.seats[0].node))
        // A log as a node of the time wrote it (no start/end times), built as JSON: GameLog is the file's shape.
        let logJSON: [String: Any] = [
            "table": [
                "id": b.table, "game": b.game, "players": 2, "host": host.hex, "hostName": "bench0", "phase": "finished",
                "revision": 3,
                "seats": b.seats.map { ["seat": $0.seat, "owner": $0.node, "ownerName": $0.name, "bot": $0.bot!] },
            ],
            "participants": [], "deals": [], "finalHashes": [:],
            "jointSeed": NSNumber(value: try XCTUnwrap(b.seed)),
            "moves": try b.moves.enumerated().map {
                [
                    "number": $0.offset, "seat": $0.element.seat, "text": "", "before": "", "after": b.finalHash,
                    "move": try JSONSerialization.jsonObject(with: Data($0.element.move.jsonBytes), options: .fragmentsAllowed),
                ]
            },
            "winners": b.winners, "scores": b.scores, "finalHash": b.finalHash,
        ]
        let log = try CanonicalJSON.decode(GameLog.self, Array(try JSONSerialization.data(withJSONObject: logJSON)))
        // The body a node records its games with (not decoded again from the bytes) is the one the bytes hold.
        let made = try XCTUnwrap(RecordedGame.withBody(log, startedAt: nil, endedAt: 1))
        XCTAssertEqual(made.record.id, r.id)
        XCTAssertEqual(try made.record.decodedBody(), made.body)
        try CanonicalJSON.encodePretty(log).write(to: URL(fileURLWithPath: games + "/\(b.table).json"))
        try Data("not json".utf8).write(to: URL(fileURLWithPath: games + "/broken.json"))
        let (store, imported) = try RecordStore.open(stateDirectory: dir, me: me)
        XCTAssertEqual(imported, 1)
        XCTAssertEqual(try store.history(game: nil, player: nil).map(\.id), [r.id], "the log gives the same record id")
        try store.close()
        let (_, again) = try RecordStore.open(stateDirectory: dir, me: me)
        XCTAssertEqual(again, 0)
    }

    func testABrokenDatabaseIsOneErrorNamingTheRebuildAndTheRebuildWorks() throws {
        try Data((0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }).write(to: URL(fileURLWithPath: dir + "/records.sqlite"))
        do {
            _ = try RecordStore.open(stateDirectory: dir, me: me)
            XCTFail("a broken database opened")
        } catch {
            XCTAssertTrue(error.description.contains("--rebuild-records"), error.description)
        }
        let (store, _, moved) = try RecordStore.rebuild(stateDirectory: dir, me: me)
        XCTAssertNotNil(moved)
        XCTAssertEqual(store.count, 0)
    }

    func testStandingsKeptAtInsertEqualTheOnesComputedFromEveryRecord() throws {
        let (store, _) = try RecordStore.open(stateDirectory: dir, me: me)
        var batch: [(RecordedGame, RecordBody)] = []
        for seed in UInt64(1)...30 {
            for (game, players, bot) in [("othello", 2, "greedy"), ("briscola", 2, "random"), ("spirits", 3, "random")] {
                let r = try record(game, players: players, seed: seed, bot: bot, names: ["ann", "bob", "cat"])
                batch.append((r, try r.decodedBody()))
            }
        }
        try store.insert(Array(batch.prefix(40)), source: .peer)
        for r in batch.dropFirst(40) { try store.insert([r], source: .local) }
        let (stored, recomputed) = try store.standingsCheck()
        XCTAssertEqual(stored, recomputed)
        XCTAssertTrue(stored.contains { $0.first?.contains("othello/first-win") == true })
        let board = try store.scores(game: nil, catalog: .standard)
        XCTAssertEqual(board.games.map(\.finished), [30, 30, 30])
        XCTAssertTrue(board.achievements.contains { $0.code.hasSuffix("ten-wins") })
    }

    func testBucketDigestsAndIds() throws {
        let (store, _) = try RecordStore.open(stateDirectory: dir, me: me)
        XCTAssertEqual(try store.bucketDigests(), Array(repeating: "", count: 256))
        let records = try (UInt64(1)...20).map { try record(seed: $0) }
        try store.insert(records.map { ($0, try $0.decodedBody()) }, source: .peer)
        let digests = try store.bucketDigests()
        for r in records {
            let b = Int(r.id.prefix(2), radix: 16)!
            XCTAssertEqual(digests[b].count, 16)
            XCTAssertTrue(try store.ids(inBucket: b).contains(r.id))
        }
        XCTAssertEqual(try store.known([records[0].id, String(repeating: "0", count: 64)]), [records[0].id])
    }

    /// `history --player` takes a player's latest seats through an index and stops early: it must list exactly the
    /// games a filter over every record gives, ties on the end time included, with and without a game.
    func testHistoryOfAPlayerEqualsTheFilterOverEveryRecord() throws {
        let (store, _) = try RecordStore.open(stateDirectory: dir, me: me)
        let names = ["ann", "bob", "cat", "dan"]
        var batch: [(RecordedGame, RecordBody)] = []
        for seed in UInt64(1)...24 {
            let (game, players) = [("othello", 2), ("briscola", 2), ("spirits", 3)][Int(seed % 3)]
            // Rotated names (a name at two seats sometimes) and end times with ties.
            let seated = (0..<players).map { names[(Int(seed) + $0 * Int(seed % 2 + 1)) % names.count] }
            let r = try RecordFactory.playout(
                catalog: .standard, game: game, players: players, seed: seed, bot: "random", names: seated,
                table: "t\(seed)", endedAt: 1_700_000_000_000 + Int64(seed / 4))
            batch.append((r, try r.decodedBody()))
        }
        try store.insert(batch, source: .peer)
        let every = try store.history(game: nil, player: nil, limit: 1000)
        XCTAssertEqual(every.count, 24)
        for player in names + ["nobody"] {
            for game in [nil, "othello", "spirits"] as [String?] {
                for limit in [1, 3, 200] {
                    let expected = every.filter { r in
                        (game == nil || r.game == game) && r.seats.contains { $0.name == player }
                    }.prefix(limit).map(\.id)
                    XCTAssertEqual(
                        try store.history(game: game, player: player, limit: limit).map(\.id), Array(expected),
                        "\(player) \(game ?? "any game") limit \(limit)")
                }
            }
        }
    }
}
