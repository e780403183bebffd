import Foundation
import TavoloCore
import TavoloGames
import TavoloProtocol
import TavoloTestSupport
import XCTest

@testable import TavoloTable

/// Disk work runs off the table actor's executor (`TableDisk`), and the promises of PROTOCOL.md §9.9 still hold: a
/// move is in this node's journal before this node sends it or confirms it, and a game's end reaches clients only
/// once its log and record are written.
final class TableDiskOrderTests: XCTestCase {
    var dirs: [String] = []

    override func tearDown() {
        for d in dirs { try? FileManager.default.removeItem(atPath: d) }
        super.tearDown()
    }

    func stateDirectory() -> String {
        let dir = NSTemporaryDirectory() + "tavolo-disk-order-\(UUID().uuidString)"
        dirs.append(dir)
        return dir
    }

    // MARK: The queue alone

    func testEffectsAfterAPersistWaitForItsWriteAndLaterOnesQueueBehind() {
        let info = TableInfo(
            id: "t1", game: "othello", players: 2, host: node(0), hostName: "n0", phase: .playing, seats: [],
            revision: 0)
        let log = GameLog(table: info)
        var q = EffectQueue()
        q.append([.log(.debug, "a"), .persist(log), .log(.debug, "b")], about: nil)
        XCTAssertEqual(drain(&q), ["a", "persist"])
        XCTAssertTrue(q.writing)
        // Effects of a later input while the write is under way: held behind it, none handed out.
        q.append([.log(.debug, "c")], about: node(1))
        XCTAssertEqual(drain(&q), [])
        q.written()
        XCTAssertEqual(drain(&q), ["b", "c"])
        XCTAssertEqual(q.count, 0)
    }

    // MARK: A table shell on a disk that waits

    /// A node's own move goes out only once the disk has written it: held while the disk is closed.
    func testOwnMoveIsSentOnlyOnceItsJournalWriteIsDone() async throws {
        let (gate, dirs, net, nodes, logs, table, legal) = try await othelloOnAGatedDisk()
        let me = await nodes[0].me

        gate.close()
        try await nodes[0].move(table: table.id, move: legal)
        // `move` returned: every effect not held behind the write is carried out (the shell is synchronous).
        XCTAssertFalse(net.sent.contains { $0.from == me && $0.type == "table.move" }, "sent before written")
        XCTAssertNil(SavedGames.load(stateDirectory: dirs[0], table: table.id)?.moves.first, "written while closed")
        XCTAssertEqual(gate.waiting, 1)
        gate.open()
        // `settled` returns once the write is done and the effects held behind it are carried out: no polling.
        await nodes[0].settled()
        XCTAssertEqual(SavedGames.load(stateDirectory: dirs[0], table: table.id)?.moves.first?.number, 0)
        XCTAssertTrue(net.sent.contains { $0.from == me && $0.type == "table.move" }, "not sent once written")
        try await require { logs[1].first(.moved) != nil }
    }

    /// `state` as the control socket answers it (`settledState`) never shows a move whose journal append is still on
    /// the disk's thread: the plain read would (the chaos driver once counted such a move as lost after a kill); the
    /// settled one waits for the write, and the journal then holds every move it reports.
    func testSettledStateWaitsForTheJournalOfAMoveAppliedBeforeIt() async throws {
        let (gate, dirs, _, nodes, _, table, legal) = try await othelloOnAGatedDisk()

        gate.close()
        try await nodes[0].move(table: table.id, move: legal)
        let plain = try await nodes[0].state(table: table.id)
        XCTAssertEqual(plain.moveNumber, 1, "the plain read shows the move")
        XCTAssertNil(SavedGames.load(stateDirectory: dirs[0], table: table.id)?.moves.first, "written while closed")
        let answered = OrderLog()
        let answer = Task {
            let state = try await nodes[0].settledState(table: table.id)
            answered.add("answered")
            return state
        }
        try await Task.sleep(for: .milliseconds(200))
        XCTAssertEqual(answered.lines, [], "answered while the move's journal write was held")
        gate.open()
        let settled = try await answer.value
        let journaled = SavedGames.load(stateDirectory: dirs[0], table: table.id)?.moves.count ?? 0
        XCTAssertGreaterThanOrEqual(settled.moveNumber ?? 0, 1)
        XCTAssertGreaterThanOrEqual(journaled, settled.moveNumber ?? 0)
    }

    /// A whole bot game on real disks: every move and confirmation a node posts is already in its journal, and
    /// each node's record hook runs before its clients hear of the end.
    func testEveryMoveAndConfirmationIsJournaledBeforeItIsPosted() async throws {
        let dirs = [stateDirectory(), stateDirectory()]
        let order = OrderLog()
        let net = ShellLoopback()
        let ids = (0..<2).map(node)
        net.onPost = { from, form, body in
            guard let i = ids.firstIndex(of: from), let m = try? TableMessage.decode(body, form: form) else { return }
            let number: Int
            switch m {
            case .move(_, let n, _, _, _), .confirm(_, let n, _): number = n
            default: return
            }
            let journaled = SavedGames.load(stateDirectory: dirs[i], table: m.table)?.moves.contains {
                $0.number == number
            }
            if journaled != true { order.add("n\(i) posted \(m.typeName) \(number) before journaling it") }
        }
        let nodes = await net.makeNodes(2) { i in
            var o = TableManager.Options()
            o.stateDirectory = dirs[i]
            o.logFsync = false
            o.gameEnded = { _ in order.add("n\(i) recorded") }
            return o
        }
        for (n, id) in zip(nodes, ids) {
            let me = await n.me
            XCTAssertEqual(me, id)
        }
        let subscriptions = [
            await nodes[0].subscribe(kinds: [.finished]), await nodes[1].subscribe(kinds: [.finished]),
        ]
        for (i, stream) in subscriptions.enumerated() {
            Task { for await _ in stream { order.add("n\(i) finished") } }
        }
        let table = try await nodes[0].host(game: "othello", players: 2)
        try await require { await nodes[1].list().count == 1 }
        _ = try await nodes[0].join(table: table.id, game: nil, seat: 0, bot: "random")
        _ = try await nodes[1].join(table: table.id, game: nil, seat: 1, bot: "random")
        try await require { await nodes[0].list().first?.freeSeats.isEmpty == true }
        _ = try await nodes[0].start(table: table.id)
        try await require(30) { order.lines.filter { $0.hasSuffix("finished") }.count == 2 }
        let lines = order.lines
        XCTAssertEqual(lines.filter { $0.contains("before journaling") }, [])
        for i in 0..<2 {
            let recorded = try XCTUnwrap(lines.firstIndex(of: "n\(i) recorded"))
            let finished = try XCTUnwrap(lines.firstIndex(of: "n\(i) finished"))
            XCTAssertLessThan(recorded, finished, "n\(i) told its clients of the end before recording it")
        }
    }

    // MARK: Helpers

    /// Two shells on the loopback, n0's disk gated (open), an Othello table n0 hosts and plays seat 0 of against
    /// n1's random bot, started, n0 to move: its event logs and a legal move of n0's.
    func othelloOnAGatedDisk() async throws -> (
        gate: GatedDisk, dirs: [String], net: ShellLoopback, nodes: [TableManager], logs: [EventLog],
        table: TableInfo, legal: JSONValue
    ) {
        let gate = GatedDisk()
        let dirs = [stateDirectory(), stateDirectory()]
        let net = ShellLoopback()
        let nodes = await net.makeNodes(2) { i in
            var o = TableManager.Options()
            o.stateDirectory = dirs[i]
            o.logFsync = false
            if i == 0 { o.disk = gate }
            return o
        }
        let logs = [await EventLog(nodes[0]), await EventLog(nodes[1])]
        let table = try await nodes[0].host(game: "othello", players: 2)
        try await require { await nodes[1].list().count == 1 }
        _ = try await nodes[0].join(table: table.id, game: nil, seat: 0, bot: nil)
        _ = try await nodes[1].join(table: table.id, game: nil, seat: 1, bot: "random")
        try await require { await nodes[0].list().first?.freeSeats.isEmpty == true }
        _ = try await nodes[0].start(table: table.id)
        try await require { logs[0].first(.yourTurn) != nil }
        let state = try await nodes[0].state(table: table.id)
        return (gate, dirs, net, nodes, logs, table, try XCTUnwrap(state.legalMoves.first))
    }

    func node(_ i: Int) -> NodeID { NodeID(bytes: [UInt8](repeating: 0, count: 15) + [UInt8(i + 1)])! }

    private func drain(_ q: inout EffectQueue) -> [String] {
        var out: [String] = []
        while let item = q.next() {
            switch item.effect {
            case .log(_, let line): out.append(line)
            case .persist: out.append("persist")
            default: out.append("other")
            }
        }
        return out
    }
}

/// A disk that runs jobs in order on a queue of its own, or, closed, holds them until it is opened.
final class GatedDisk: TableDisk, @unchecked Sendable {
    private let queue = DispatchQueue(label: "test.gated-disk")
    private let lock = NSLock()
    private var closed = false
    private var held: [@Sendable () -> Void] = []

    var waiting: Int { lock.withLock { held.count } }

    func close() { lock.withLock { closed = true } }

    func open() {
        let jobs = lock.withLock {
            closed = false
            defer { held = [] }
            return held
        }
        for job in jobs { queue.async(execute: job) }
    }

    func submit(_ job: @escaping @Sendable () -> Void) {
        let run = lock.withLock {
            if closed { held.append(job) }
            return !closed
        }
        if run { queue.async(execute: job) }
    }
}

/// Lines from several threads, in the order they were added.
final class OrderLog: @unchecked Sendable {
    private let lock = NSLock()
    private var all: [String] = []
    func add(_ line: String) { lock.withLock { all.append(line) } }
    var lines: [String] { lock.withLock { all } }
}
