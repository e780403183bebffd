import Foundation
import Logging
import TavoloCore
import TavoloGames
import TavoloProtocol
import TavoloSealed
import XCTest

@testable import TavoloTable

/// The game journal (PROTOCOL.md §9.9): one appended line per deal, move or takeover; a torn last line left out,
/// any other bad line refusing the restore; a node restarted after a crash at any point restores exactly what it
/// had written. Real files in a temporary directory, flushes off (they change nothing a test can see).
final class GameJournalTests: XCTestCase {
    var dirs: [String] = []

    override func tearDown() {
        for d in dirs { try? FileManager.default.removeItem(atPath: d) }
        super.tearDown()
    }

    func temporaryStateDirectory() -> String {
        let dir = NSTemporaryDirectory() + "tavolo-journal-\(UUID().uuidString)"
        dirs.append(dir)
        return dir
    }

    func store(_ dir: String) -> GameLogStore {
        GameLogStore(
            stateDirectory: dir,
            sync: JournalSync(enabled: false, interval: .milliseconds(1), logger: Logger(label: "t")))
    }

    func node(_ i: Int) -> NodeID { NodeID(bytes: [UInt8](repeating: 0, count: 15) + [UInt8(i + 1)])! }

    /// The logs node n1 persists, in order, through a whole Othello game: n0 hosts and plays seat 0 with a bot,
    /// n1 plays seat 1 by hand.
    func persistedLogs() throws -> [GameLog] {
        var nodes = (0..<2).map {
            TableDirectory(
                context: TableContext(me: node($0), myName: "n\($0)", catalog: .standard),
                nonces: .reproducible(seed: 9, nodeIndex: UInt64($0)))
        }
        var queue: [(to: Int, from: NodeID, message: TableMessage)] = []
        var persisted: [GameLog] = []
        func apply(_ i: Int, _ effects: [TableEffect]) {
            for e in effects {
                switch e {
                case .send(let m, let to): for t in to { queue.append((t == node(0) ? 0 : 1, node(i), m)) }
                case .persist(let log) where i == 1: persisted.append(log)
                default: break
                }
            }
        }
        func run() {
            while !queue.isEmpty {
                let (to, from, m) = queue.removeFirst()
                apply(to, nodes[to].received(m, from: from))
            }
        }
        apply(0, nodes[0].peerConnected(node(1), name: "n1"))
        apply(1, nodes[1].peerConnected(node(0), name: "n0"))
        run()
        let (hosted, e0) = nodes[0].host(game: "othello", players: 2)
        let id = try hosted.get().id
        apply(0, e0)
        run()
        for (i, bot) in [(0, "random"), (1, nil)] as [(Int, String?)] {
            let (r, e) = nodes[i].request(id, .join(seat: i, bot: bot))
            _ = try r.get()
            apply(i, e)
            run()
        }
        let (started, e) = nodes[0].request(id, .start)
        _ = try started.get()
        apply(0, e)
        run()
        while let t = nodes[1].tables[id], t.info.phase == .playing, let move = t.view.legalMoves.first {
            let (r, e) = nodes[1].request(id, .move(move))
            _ = try r.get()
            apply(1, e)
            run()
        }
        XCTAssertEqual(nodes[1].tables[id]?.info.phase, .finished)
        return persisted
    }

    /// Restores the one unfinished game of `dir` as n1 would at a restart: its move count and state hash.
    func restore(_ dir: String) throws -> (moves: Int, hash: StateHash?, torn: Bool) {
        let (games, problems) = SavedGames.unfinished(stateDirectory: dir)
        XCTAssertEqual(problems, [])
        let game = try XCTUnwrap(games.first)
        XCTAssertEqual(games.count, 1)
        var fresh = TableDirectory(
            context: TableContext(me: node(1), myName: "n1", catalog: .standard),
            nonces: .reproducible(seed: 9, nodeIndex: 1))
        let id = try fresh.restore(game.log).get()
        return (game.log.moves.count, fresh.tables[id]?.session?.stateHash, game.tornTail)
    }

    // MARK: Format

    func sampleLog() throws -> GameLog {
        let logs = try persistedLogs()
        var log = try XCTUnwrap(logs.last { !$0.isComplete })
        log.takeovers = [
            GameLog.LoggedTakeover(
                member: node(0), memberName: "n0", seats: [0], heir: node(1), bot: "random", number: 4, appliedAt: 5,
                forfeit: false)
        ]
        return log
    }

    func testAJournalReadsBackTheLogItWasWrittenFrom() throws {
        let log = try sampleLog()
        XCTAssertFalse(log.moves.isEmpty)
        let bytes = try GameJournal.lines(for: log)
        XCTAssertEqual(bytes.last, 0x0A)
        let lines = bytes.split(separator: 0x0A)
        XCTAssertEqual(lines.count, 1 + log.deals.count + log.moves.count + 1, "one line per record, header first")
        let read = try GameJournal.read(bytes)
        XCTAssertEqual(read.log, log)
        XCTAssertFalse(read.tornTail)
        // A later header replaces the header fields and keeps the records read before it.
        var changed = log
        changed.table.seats[0].bot = "greedy"
        let more = bytes + (try GameJournal.Record.header(changed.journalHeader).line())
        XCTAssertEqual(try GameJournal.read(more).log, changed)
    }

    /// A move's line is written by hand (`LoggedMove.journalLine`): it must be the bytes the `Codable` encoding
    /// gives, for a real game's moves and for awkward ones (escapes, non-ASCII text, nested and negative values).
    func testAMoveLineIsTheCanonicalEncodingOfItsRecord() throws {
        var moves = try sampleLog().moves
        XCTAssertFalse(moves.isEmpty)
        let awkward: JSONValue = .object([
            "zeta": .array([.integer(-7), .unsigned(UInt64.max), .bool(true), .null, .string("a\"b\\c\n\u{1}")]),
            "alpha": .object(["b": .integer(2), "B": .integer(1), "é": .string("ü/€ \u{2028}")]),
        ])
        moves.append(
            GameLog.LoggedMove(
                number: 123_456, seat: 5, move: awkward, text: "plays \"7♥\"\tthen\nmore / ", before: "", after: "ab"))
        moves.append(GameLog.LoggedMove(number: 0, seat: 0, move: .string(""), text: "", before: "x", after: "y"))
        for m in moves {
            let codable = try CanonicalJSON.encodeWithFoundation(GameJournal.Record.move(m)) + [0x0A]
            XCTAssertEqual(
                String(decoding: try m.journalLine(), as: UTF8.self), String(decoding: codable, as: UTF8.self))
            XCTAssertEqual(try GameJournal.Record.move(m).line(), codable)
        }
        // A fraction is Foundation's to write: the line falls back to the generic encoding, the same bytes.
        let fraction = GameLog.LoggedMove(number: 1, seat: 0, move: .number(0.5), text: "", before: "", after: "")
        XCTAssertThrowsError(try fraction.journalLine())
        XCTAssertEqual(
            try GameJournal.Record.move(fraction).line(),
            try CanonicalJSON.encodeWithFoundation(GameJournal.Record.move(fraction)) + [0x0A])
    }

    func testATornLastLineIsLeftOut() throws {
        let log = try sampleLog()
        var shorter = log
        let last = shorter.moves.removeLast()
        let whole = try GameJournal.lines(for: shorter)
        let line = try GameJournal.Record.move(last).line()
        for cut in [1, line.count / 2, line.count - 1] {
            let read = try GameJournal.read(whole + line.prefix(cut))
            XCTAssertEqual(read.log, shorter, "cut after \(cut) bytes")
            XCTAssertTrue(read.tornTail)
        }
        // A last line that ends but does not parse (a power cut left zeros before the newline) is left out too.
        let read = try GameJournal.read(whole + [UInt8](repeating: 0, count: 7) + [0x0A])
        XCTAssertEqual(read.log, shorter)
        XCTAssertTrue(read.tornTail)
        XCTAssertEqual(try GameJournal.read(whole + line).log, log)
    }

    func testACorruptMiddleLineIsNotRestored() throws {
        let log = try sampleLog()
        var lines = try GameJournal.lines(for: log).split(separator: 0x0A, omittingEmptySubsequences: false).map(
            Array.init)
        lines[2] = Array(lines[2].dropLast(3))
        let bytes = Array(lines.joined(separator: [0x0A]))
        XCTAssertThrowsError(try GameJournal.read(bytes)) { error in
            XCTAssertEqual((error as? GameJournal.Malformed)?.line, 3)
        }
        // A first line that is not a header, or two records on a line, are as bad.
        XCTAssertThrowsError(try GameJournal.read(Array(lines[1...].joined(separator: [0x0A]))))
        XCTAssertThrowsError(try GameJournal.read(Array(#"{"deal":{"cards":[],"number":1},"move":{}}"#.utf8) + [0x0A]))

        let dir = temporaryStateDirectory()
        try FileManager.default.createDirectory(atPath: dir + "/games", withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: "\(dir)/games/\(log.table.id).journal"))
        let (games, problems) = SavedGames.unfinished(stateDirectory: dir)
        XCTAssertTrue(games.isEmpty, "a journal with a hole in it is not restored")
        XCTAssertEqual(problems.count, 1)
        XCTAssertTrue(problems[0].contains("line 3"), problems[0])
    }

    // MARK: Store and restart

    /// Each save after the first appends exactly the new records; at the end the complete log replaces the journal.
    func testMovesAreAppendedAndTheCompleteLogReplacesTheJournal() throws {
        let logs = try persistedLogs()
        let dir = temporaryStateDirectory()
        let s = store(dir)
        let id = logs[0].table.id
        var kinds: [GameLogStore.Written] = []
        var sizes: [Int] = []
        for log in logs {
            kinds.append(try s.save(log))
            let attributes = try? FileManager.default.attributesOfItem(atPath: s.journalPath(id))
            sizes.append((attributes?[.size] as? Int) ?? -1)
        }
        XCTAssertEqual(kinds.first, .started)
        XCTAssertEqual(kinds.last, .complete)
        XCTAssertEqual(Set(kinds.dropFirst().dropLast()), [.appended])
        XCTAssertEqual(sizes.last, -1, "the journal is removed at the end")
        for (a, b) in zip(sizes.dropLast(), sizes.dropFirst().dropLast()) { XCTAssertLessThan(a, b, "appended") }
        let complete = try XCTUnwrap(SavedGames.readComplete(s.completePath(id)))
        XCTAssertEqual(complete, logs.last)
        XCTAssertTrue(SavedGames.unfinished(stateDirectory: dir).games.isEmpty)
        XCTAssertEqual(SavedGames.load(stateDirectory: dir, table: id), logs.last)
    }

    /// A sealed table's private part (σ, the keys, the escrows, the moves to play again: PROTOCOL.md §14.12) is in the
    /// journal's header while the game goes on, for a restart, and not in the complete log that replaces the journal at the end.
    func testASealedSecretStaysInTheJournalAndGoesWithIt() throws {
        let secret = SealedMemberSecret(
            seed: [UInt8](repeating: 7, count: SealedMemberSecret.byteCount), context: SealedContext(tableId: "t"),
            member: 0)
        let key = SealedMessage.key(table: "t", key: secret.publicKey, proof: secret.keyProof())
        var resume = SealedResume(secret: secret.seed.hexString, keys: [.init(node: node(1), message: key)])
        // The moves a restarted member has yet to play again travel in the header too.
        resume.replay = Array(try XCTUnwrap(try persistedLogs().last).moves.prefix(3))
        XCTAssertEqual(resume.replay?.count, 3)
        let logs = try persistedLogs().map { log in
            var log = log
            log.sealedResume = resume
            return log
        }
        let dir = temporaryStateDirectory()
        let s = store(dir)
        for log in logs.dropLast() { _ = try s.save(log) }
        XCTAssertEqual(SavedGames.unfinished(stateDirectory: dir).games.first?.log.sealedResume, resume)
        _ = try s.save(try XCTUnwrap(logs.last))
        let id = logs[0].table.id
        XCTAssertNil(try XCTUnwrap(SavedGames.readComplete(s.completePath(id))).sealedResume)
        let written = try String(contentsOfFile: s.completePath(id), encoding: .utf8)
        XCTAssertFalse(written.contains(secret.seed.hexString), "σ is not in the complete log")
    }

    /// A crash after any write, or in the middle of any append, leaves a journal that restores exactly the game as
    /// this node had applied it when its last complete append was made.
    func testARestartAfterACrashAtAnyPointRestoresWhatWasWritten() throws {
        let logs = try persistedLogs()
        let unfinished = logs.filter { !$0.isComplete }
        XCTAssertGreaterThan(unfinished.count, 20)
        let replay = try hashesByMoveCount(unfinished)
        for k in unfinished.indices {
            let dir = temporaryStateDirectory()
            let s = store(dir)
            for log in unfinished[...k] { _ = try s.save(log) }
            let path = s.journalPath(unfinished[k].table.id)
            let restored = try restore(dir)
            XCTAssertEqual(restored.moves, unfinished[k].moves.count)
            XCTAssertEqual(restored.hash, replay[restored.moves], "after write \(k)")
            XCTAssertFalse(restored.torn)
            // Killed in the middle of the next append: half of its bytes reached the file.
            guard k + 1 < unfinished.count, unfinished[k + 1].moves.count > unfinished[k].moves.count else { continue }
            let line = try GameJournal.Record.move(unfinished[k + 1].moves[unfinished[k].moves.count]).line()
            let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
            handle.seekToEndOfFile()
            handle.write(Data(line.prefix(line.count / 2)))
            try handle.close()
            let torn = try restore(dir)
            XCTAssertEqual(torn.moves, unfinished[k].moves.count, "a torn append restores the moves before it")
            XCTAssertEqual(torn.hash, replay[torn.moves])
            XCTAssertTrue(torn.torn)
        }
    }

    /// The state hash after each number of moves, from the logs themselves.
    func hashesByMoveCount(_ logs: [GameLog]) throws -> [Int: StateHash] {
        let last = try XCTUnwrap(logs.last)
        var byCount: [Int: StateHash] = [:]
        byCount[0] = last.initialHash.flatMap(StateHash.init(hex:))
        for m in last.moves { byCount[m.number + 1] = StateHash(hex: m.after) }
        return byCount
    }

    /// A restart that finds a torn journal writes it whole again before appending: the next append is not glued
    /// to the torn line.
    func testARestoredJournalIsRewrittenBeforeTheNextAppend() throws {
        let logs = try persistedLogs().filter { !$0.isComplete }
        let dir = temporaryStateDirectory()
        let s = store(dir)
        for log in logs[...10] { _ = try s.save(log) }
        let path = s.journalPath(logs[0].table.id)
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data(#"{"move":{"numb"#.utf8))
        try handle.close()
        let game = try XCTUnwrap(SavedGames.unfinished(stateDirectory: dir).games.first)
        XCTAssertTrue(game.tornTail)
        let again = store(dir)
        try again.start(game.log)
        for log in logs[11...] { _ = try again.save(log) }
        let read = try GameJournal.read(Array(try XCTUnwrap(FileManager.default.contents(atPath: path))))
        XCTAssertFalse(read.tornTail)
        XCTAssertEqual(read.log.moves, logs.last?.moves)
    }

    /// A crash after the complete log was written and before the journal was removed: the game is over, not
    /// restored, and the stale journal goes. A complete-format log of an unfinished game (written before journals)
    /// is still restored.
    func testACompleteLogWinsOverAStaleJournalAndOldLogsStillRestore() throws {
        let logs = try persistedLogs()
        let dir = temporaryStateDirectory()
        let s = store(dir)
        let id = logs[0].table.id
        for log in logs.dropLast() { _ = try s.save(log) }
        let journal = try XCTUnwrap(FileManager.default.contents(atPath: s.journalPath(id)))
        _ = try s.save(try XCTUnwrap(logs.last))
        try journal.write(to: URL(fileURLWithPath: s.journalPath(id)))
        XCTAssertTrue(SavedGames.unfinished(stateDirectory: dir).games.isEmpty)
        XCTAssertFalse(FileManager.default.fileExists(atPath: s.journalPath(id)))

        let old = temporaryStateDirectory()
        try FileManager.default.createDirectory(atPath: old + "/games", withIntermediateDirectories: true)
        let midGame = logs[logs.count / 2]
        try midGame.save(games: old + "/games", sync: false)
        let restored = try restore(old)
        XCTAssertEqual(restored.moves, midGame.moves.count)
    }
}
