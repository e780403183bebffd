import Foundation
import TavoloControl
import TavoloCore
import TavoloGames
import TavoloProtocol
import TavoloRecordFormat
import TavoloTable
import XCTest

@testable import TavoloRecords

/// The store, the queries and the verifier, on a real SQLite file in a temp directory (no daemon).
final class RecordStoreTests: XCTestCase {
    var dir: String!
    let me = String(format: "%032x", 1)

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("records-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func record(
        _ game: String = "othello", players: Int = 2, seed: UInt64 = 7, bot: String = "random",
        names: [String]? = nil
    ) throws -> RecordedGame {
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
            people.seats = people.seats.enumerated().map {
                .init(seat: $0.offset, node: $0.element.node, name: ["ann", "bob"][$0.offset], bot: nil)
            }
            let peopleRecord = RecordedGame(body: try CanonicalJSON.encode(people), startedAt: nil, endedAt: 1)
            try store.insert([try TestSigners.signed(peopleRecord), try TestSigners.signed(r)], source: .peer)
        }
        let board = try store.scores(game: nil, catalog: .standard)
        let othello = try XCTUnwrap(board.games.first { $0.game == "othello" })
        XCTAssertEqual(othello.finished, 24)
        XCTAssertEqual(
            Dictionary(uniqueKeysWithValues: othello.humans.map { ($0.player, $0.wins) }),
            ["ann": wins[0], "bob": wins[1]])
        XCTAssertEqual(othello.bots.map(\.player), ["random"])
        XCTAssertEqual(othello.bots.first?.games, 24)
        let firstWins = board.achievements.filter { $0.code == "othello/first-win" && !$0.bot }.map(\.player).sorted()
        XCTAssertEqual(firstWins, wins.enumerated().filter { $0.element > 0 }.map { ["ann", "bob"][$0.offset] })
    }

    func testAGenuineRecordVerifiesAndAChangedWinnerOrIdIsRefused() throws {
        let verifier = RecordVerifier(catalog: .standard)
        for (game, players, bot) in [
            ("othello", 2, "greedy"), ("briscola", 4, "emulator"), ("spirits", 3, "heuristic"),
        ] {
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
        let log = try gameLog(of: b)
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

    /// The game log a node of the time wrote for the game of `b` (no start/end times), built as JSON: GameLog is
    /// the file's shape. `extra` adds members (takeovers).
    func gameLog(of b: RecordBody, extra: [String: Any] = [:]) throws -> GameLog {
        let host = try XCTUnwrap(NodeID(hex: b.seats[0].node))
        var logJSON: [String: Any] = [
            "table": [
                "id": b.table, "game": b.game, "players": 2, "host": host.hex, "hostName": "bench0",
                "phase": "finished",
                "revision": 3,
                "seats": b.seats.map { ["seat": $0.seat, "owner": $0.node, "ownerName": $0.name, "bot": $0.bot!] },
            ],
            "participants": [], "deals": [], "finalHashes": [:],
            "jointSeed": NSNumber(value: try XCTUnwrap(b.seed)),
            "moves": try b.moves.enumerated().map {
                [
                    "number": $0.offset, "seat": $0.element.seat, "text": "", "before": "", "after": b.finalHash,
                    "move": try JSONSerialization.jsonObject(
                        with: Data($0.element.move.jsonBytes), options: .fragmentsAllowed),
                ]
            },
            "winners": b.winners, "scores": b.scores, "finalHash": b.finalHash,
        ]
        logJSON.merge(extra) { _, new in new }
        return try CanonicalJSON.decode(GameLog.self, Array(try JSONSerialization.data(withJSONObject: logJSON)))
    }

    func testABrokenDatabaseIsOneErrorNamingTheRebuildAndTheRebuildWorks() throws {
        try Data((0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }).write(
            to: URL(fileURLWithPath: dir + "/records.sqlite"))
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
        var batch: [SignedRecord] = []
        for seed in UInt64(1)...30 {
            for (game, players, bot) in [("othello", 2, "greedy"), ("briscola", 2, "random"), ("spirits", 3, "random")]
            {
                let r = try record(game, players: players, seed: seed, bot: bot, names: ["ann", "bob", "cat"])
                batch.append(try TestSigners.signed(r))
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
        let signed = try (UInt64(1)...20).map { try TestSigners.signed(try record(seed: $0)) }
        let records = signed.map(\.game)
        try store.insert(signed, source: .peer)
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

    /// An Othello record in which "eve" sat at seat 1 and left at move 10: the heir's bot played the seat on, and
    /// `seats` names that bot's owner at the end.
    func forfeitRecord(eve: String = String(format: "%032x", 9)) throws -> (RecordedGame, RecordBody) {
        var b = try record(seed: 3, bot: "greedy", names: ["ann", "bob"]).decodedBody()
        b.seats[0].bot = nil
        b.takeovers = [
            .init(
                member: eve, name: "eve", seats: [1], heir: b.seats[1].node, bot: "greedy", number: 10, appliedAt: 10,
                forfeit: true)
        ]
        let r = RecordedGame(body: try CanonicalJSON.encode(b), startedAt: nil, endedAt: 5)
        return (r, b)
    }

    /// Leaving a game one is losing does not keep it off one's record: the member that forfeited counts a game
    /// played and not won, with no score, and its history lists the game (PROTOCOL.md §11.6).
    func testAForfeitCountsAsAGamePlayedAndNotWonByTheMemberThatLeft() throws {
        let eve = TestSigners.node(9)
        let (store, _) = try RecordStore.open(stateDirectory: dir, me: eve)
        let (unsigned, b) = try forfeitRecord(eve: String(format: "%032x", 9))
        XCTAssertEqual(try RecordVerifier(catalog: .standard).verify(id: unsigned.id, body: unsigned.body).get(), b)
        let signed = try TestSigners.signed(unsigned)
        let r = signed.game
        XCTAssertEqual(try store.insert([signed], source: .peer), 1)
        let othello = try XCTUnwrap(try store.scores(game: "othello", catalog: .standard).games.first)
        let line = try XCTUnwrap(othello.humans.first { $0.player == "eve" })
        XCTAssertEqual([line.games, line.wins, line.totalScore], [1, 0, 0])
        XCTAssertNil(line.bestScore, "eve has no scored game")
        XCTAssertEqual(othello.humans.first { $0.player == "ann" }?.games, 1)
        XCTAssertEqual(othello.bots.map(\.player), ["greedy"], "the heir's bot counts the seat's result")
        let history = try store.history(game: nil, player: "eve")
        XCTAssertEqual(history.map(\.id), [r.id])
        XCTAssertEqual(history.first?.forfeited, [.init(name: "eve", node: eve, seats: [1])])
        XCTAssertTrue(history.first?.mine == true, "the node that left took part")
        let (stored, recomputed) = try store.standingsCheck()
        XCTAssertEqual(stored, recomputed)
        // A record with no takeover has none in its body: its bytes, and id, are those of before.
        let plain = try record(seed: 3)
        XCTAssertFalse(String(decoding: plain.body, as: UTF8.self).contains("takeovers"))
        XCTAssertNil(try store.history(game: nil, player: nil).first { $0.id != r.id }?.forfeited)
    }

    /// A forfeit in a record the member that left did not sign is listed, and counted against nobody: anyone could
    /// otherwise charge anyone with a lost game (§11.7).
    func testAForfeitTheLeaverDidNotSignIsListedAndNotCounted() throws {
        let (store, _) = try RecordStore.open(stateDirectory: dir, me: me)
        let signed = try TestSigners.signed(try forfeitRecord().0, except: [9])
        XCTAssertTrue(signed.isSigned, "every seat owner signed it")
        XCTAssertEqual(try store.insert([signed], source: .peer), 1)
        XCTAssertEqual(try store.history(game: nil, player: "eve").map(\.id), [signed.game.id])
        let othello = try XCTUnwrap(try store.scores(game: "othello", catalog: .standard).games.first)
        XCTAssertNil(othello.humans.first { $0.player == "eve" })
        XCTAssertEqual(othello.humans.map(\.player), ["ann"])
        let (stored, recomputed) = try store.standingsCheck()
        XCTAssertEqual(stored, recomputed)
    }

    /// A record waiting for a person's signature is kept and listed as unverified, and counted nowhere; its last
    /// signature makes it count, once.
    func testARecordCountsOnceEveryPersonSignedIt() throws {
        let (store, _) = try RecordStore.open(stateDirectory: dir, me: me)
        var b = try record(seed: 4, bot: "greedy", names: ["ann", "bob"]).decodedBody()
        b.seats = b.seats.map { .init(seat: $0.seat, node: $0.node, name: $0.name, bot: nil) }
        let people = RecordedGame(body: try CanonicalJSON.encode(b), startedAt: nil, endedAt: 9)
        let full = try TestSigners.signed(people)
        var half = full
        half.signatures = full.signatures.filter { $0.node == TestSigners.node(1) }
        XCTAssertFalse(half.isSigned)
        XCTAssertEqual(try store.insert([half], source: .local), 1)
        XCTAssertEqual(try store.history(game: nil, player: nil).map(\.verified), [false])
        var othello = try XCTUnwrap(try store.scores(game: "othello", catalog: .standard).games.first)
        XCTAssertEqual([othello.finished, othello.unverified], [0, 1])
        XCTAssertEqual(othello.humans, [])
        XCTAssertEqual(try store.bucketDigests(), Array(repeating: "", count: 256), "an unsigned record is not offered")
        XCTAssertTrue(try store.addSignatures(full.signatures, recordID: full.game.id))
        XCTAssertFalse(try store.addSignatures(full.signatures, recordID: full.game.id), "counted once")
        othello = try XCTUnwrap(try store.scores(game: "othello", catalog: .standard).games.first)
        XCTAssertEqual([othello.finished, othello.unverified], [1, 0])
        XCTAssertEqual(Set(othello.humans.map(\.player)), ["ann", "bob"])
        XCTAssertEqual(Set(othello.humans.compactMap(\.node)), [TestSigners.node(1), TestSigners.node(2)])
        let (stored, recomputed) = try store.standingsCheck()
        XCTAssertEqual(stored, recomputed)
    }

    /// People are counted by node id: a node that takes another's name gets a line of its own, not the other's games.
    func testANameTakenByAnotherNodeIsAnotherLine() throws {
        let (store, _) = try RecordStore.open(stateDirectory: dir, me: me)
        for seed in UInt64(1)...2 {
            var b = try record(seed: seed, bot: "greedy", names: ["ann", "ann"]).decodedBody()
            b.seats = b.seats.map { .init(seat: $0.seat, node: $0.node, name: $0.name, bot: nil) }
            try store.insert(
                [try TestSigners.signed(RecordedGame(body: try CanonicalJSON.encode(b), startedAt: nil, endedAt: 1))],
                source: .peer)
        }
        let humans = try XCTUnwrap(try store.scores(game: "othello", catalog: .standard).games.first).humans
        XCTAssertEqual(humans.map(\.player), ["ann", "ann"])
        XCTAssertEqual(Set(humans.compactMap(\.node)).count, 2)
        XCTAssertEqual(humans.map(\.games), [2, 2])
    }

    /// At start a node signs the games of its own logs that lack its signature (a database from before signatures,
    /// or rebuilt): its bots' games then count; a record a peer sent that names it is never signed so.
    func testANodeSignsTheGamesOfItsOwnLogsAndNeverOnesAPeerSent() throws {
        let me = TestSigners.node(1)
        let (store, _) = try RecordStore.open(stateDirectory: dir, me: me)
        // A game of this node's bots alone (made-up id 1 at both seats): its signature is the only one it needs.
        var b = try record(seed: 1, bot: "greedy").decodedBody()
        b.seats = b.seats.map { .init(seat: $0.seat, node: String(format: "%032x", 1), name: "ann", bot: $0.bot) }
        let own = try TestSigners.signed(RecordedGame(body: try CanonicalJSON.encode(b), startedAt: nil, endedAt: 1))
        let sent = try TestSigners.signed(try record(seed: 2, bot: "greedy"))
        try store.insert([(own.game, own.body)], source: .import)
        try store.insert([(sent.game, sent.body)], source: .peer)
        XCTAssertEqual(try store.history(game: nil, player: nil).map(\.verified), [false, false])
        XCTAssertEqual(try store.signOwnRecords { TestSigners.all[0].sign(recordID: $0) }, 1)
        XCTAssertEqual(try store.verified([own.game.id, sent.game.id]), [own.game.id])
        XCTAssertEqual(try store.signOwnRecords { TestSigners.all[0].sign(recordID: $0) }, 0, "once")
        XCTAssertEqual(try store.scores(game: "othello", catalog: .standard).games.first?.finished, 1)
    }

    /// A database from before signatures: its records are kept, listed as unverified, and counted nowhere.
    func testRecordsFromBeforeSignaturesAreKeptUnverified() throws {
        let (store, _) = try RecordStore.open(stateDirectory: dir, me: me)
        let signed = try TestSigners.signed(try record(seed: 2, bot: "greedy"))
        XCTAssertEqual(try store.insert([signed], source: .peer), 1)
        XCTAssertEqual(try store.scores(game: "othello", catalog: .standard).games.first?.finished, 1)
        // Back to the schema of before the migration (standings counted every record then).
        try store.pool.write { db in
            try db.execute(sql: "DROP TABLE signature")
            try db.execute(sql: "DROP INDEX seat_on_node_endedAt")
            try db.execute(sql: "DROP INDEX record_on_receivedFrom")
            try db.execute(sql: "ALTER TABLE record DROP COLUMN verified")
            try db.execute(sql: "ALTER TABLE record DROP COLUMN receivedFrom")
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v5-signatures'")
        }
        try store.close()
        let (again, _) = try RecordStore.open(stateDirectory: dir, me: me)
        XCTAssertEqual(try again.history(game: nil, player: nil).map(\.verified), [false])
        let othello = try XCTUnwrap(try again.scores(game: "othello", catalog: .standard).games.first)
        XCTAssertEqual([othello.finished, othello.unverified], [0, 1])
        XCTAssertEqual(othello.bots, [])
        let (stored, recomputed) = try again.standingsCheck()
        XCTAssertEqual(stored, recomputed)
    }
}
