import Foundation
import Logging
import NIOPosix
import TavoloCore
import TavoloGames
import TavoloProtocol
import TavoloTable
import TavoloTestSupport
import XCTest

/// Table shells (`TableManager`) wired back to back, for the tests of the shell itself: the order of its disk writes
/// and sends (`TableDiskOrderTests`). Each node's messages reach each target in order, at once; nothing is lost,
/// delayed or cut. The rules between nodes, with faults and a virtual clock, are tested on `InMemoryTableNetwork`.
final class ShellLoopback: @unchecked Sendable {
    private let lock = NSLock()
    private var managers: [NodeID: TableManager] = [:]
    private var queues: [NodeID: AsyncStream<(NodeID, MessageForm, [UInt8])>.Continuation] = [:]
    private var tasks: [Task<Void, Never>] = []
    /// Messages seen on the wire, for assertions.
    private(set) var sent: [(from: NodeID, to: NodeID, type: String)] = []
    /// Called with every message as its sender posts it, on the sender's executor (before it is delivered).
    var onPost: (@Sendable (NodeID, MessageForm, [UInt8]) -> Void)?

    struct Endpoint: TableTransport {
        let network: ShellLoopback
        let me: NodeID
        func post(_ body: [UInt8], form: MessageForm, to nodes: [NodeID]) {
            network.deliver(body, form: form, from: me, to: nodes)
        }
    }

    func deliver(_ body: [UInt8], form: MessageForm = .json, from: NodeID, to nodes: [NodeID]) {
        let type =
            form == .compact
            ? ((try? CompactMessage.decode(body))?.kind.typeName ?? "?")
            : (try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])?["type"] as? String ?? "?"
        onPost?(from, form, body)
        lock.withLock {
            for n in nodes {
                sent.append((from, n, type))
                queues[n]?.yield((from, form, body))
            }
        }
    }

    /// Adds `count` nodes named n0, n1, … that all know each other.
    func makeNodes(_ count: Int, options: (Int) -> TableManager.Options = { _ in TableManager.Options() }) async
        -> [TableManager]
    {
        var made: [TableManager] = []
        for i in 0..<count {
            let id = NodeID(bytes: [UInt8](repeating: 0, count: 15) + [UInt8(i + 1)])!
            var logger = Logger(label: "table.n\(i)")
            logger.logLevel = .critical
            let m = TableManager(
                me: id, name: "n\(i)", transport: Endpoint(network: self, me: id), catalog: .standard,
                options: options(i),
                logger: logger, executor: MultiThreadedEventLoopGroup.singleton.next().executor)
            let (stream, continuation) = AsyncStream.makeStream(of: (NodeID, MessageForm, [UInt8]).self)
            lock.withLock {
                managers[id] = m
                queues[id] = continuation
            }
            tasks.append(
                Task { for await (from, form, body) in stream { await m.received(body, form: form, from: from) } })
            made.append(m)
        }
        for a in made {
            for b in made where a !== b { await a.peerConnected(b.me, name: b.myName) }
        }
        return made
    }

    deinit { for t in tasks { t.cancel() } }
}

/// Collects a manager's events.
final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [TableEvent] = []
    private var task: Task<Void, Never>?

    init(_ manager: TableManager) async {
        let stream = await manager.subscribe()
        task = Task { [weak self] in for await e in stream { self?.append(e) } }
    }

    private func append(_ e: TableEvent) { lock.withLock { events.append(e) } }
    var all: [TableEvent] { lock.withLock { events } }
    func first(_ kind: TableEvent.Kind) -> TableEvent? { all.first { $0.kind == kind } }
    deinit { task?.cancel() }
}

/// Waits for `condition` (`TavoloTestSupport.eventually`): on time-out fails the test where it was called and
/// throws, so a wait can never be silently ignored.
func require(
    _ seconds: Double = 10, file: StaticString = #filePath, line: UInt = #line, _ condition: () async -> Bool
) async throws {
    try await TavoloTestSupport.eventually("the condition", within: seconds, file: file, line: line, condition)
}
