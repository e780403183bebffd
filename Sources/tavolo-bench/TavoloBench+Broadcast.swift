import Foundation
import NIOConcurrencyHelpers
import TavoloMesh
import TavoloProtocol

/// Broadcast throughput in a mesh of in-process nodes: through the async API, and on the nodes' event loops.
extension TavoloBench {
    /// Every node broadcasts `each` messages at once; returns the messages received by all nodes and the time taken.
    static func broadcastThroughput(nodes count: Int, each: Int) async throws -> (Int, Double) {
        let nodes = try await makeNodes(count, prefix: "bc")
        let expected = count * (count - 1) * each
        let received = Counter()
        let counters = nodes.map { n in
            Task {
                for await event in n.events {
                    if case .message = event {
                        if received.add(1) == expected { return }
                    }
                }
            }
        }
        let start = DispatchTime.now().uptimeNanoseconds
        try await withThrowingTaskGroup(of: Void.self) { group in
            for n in nodes {
                group.addTask {
                    for i in 0..<each { try await n.broadcast(Ping(seq: i, pad: "broadcast"), service: .tables) }
                }
            }
            try await group.waitForAll()
        }
        let deadline = Date().addingTimeInterval(60)
        while received.value < expected && Date() < deadline { try await Task.sleep(for: .milliseconds(1)) }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        for c in counters { c.cancel() }
        for n in nodes { await n.shutdown() }
        return (received.value, seconds)
    }

    /// The broadcast as tables send (`post` on each node's event loop, events by `setEventHandler`): every node
    /// posts `each` pre-encoded messages to all the others, 64 per turn of its loop so that reads interleave, and
    /// counts what it receives on its loop. Returns the messages received by all nodes and the time taken.
    static func loopBroadcastThroughput(nodes count: Int, each: Int) async throws -> (Int, Double) {
        let nodes = try await makeNodes(count, prefix: "bcl")
        let expected = count * (count - 1) * each
        let body = try WireJSON.encode(Ping(seq: each - 1, pad: "broadcast"))
        final class Tally: @unchecked Sendable {  // `total` locked; `done` set before the first send
            let total = NIOLockedValueBox(0)
            var done: CheckedContinuation<Void, Never>?
        }
        let tally = Tally()
        for n in nodes {
            final class Received: @unchecked Sendable { var count = 0 }
            let received = Received()
            n.setEventHandler { event in
                guard case .message = event else { return }
                received.count += 1
                // Counted into the total 64 at a time: one lock per batch, not per message.
                if received.count % 64 == 0 || received.count == (count - 1) * each {
                    let add = received.count % 64 == 0 ? 64 : received.count % 64
                    let total = tally.total.withLockedValue { t -> Int in
                        t += add
                        return t
                    }
                    if total == expected { tally.done?.resume() }
                }
            }
            // Every handler in place before any node sends: a message that came first would go to the stream.
            try await n.eventLoop.submit {}.get()
        }
        let start = DispatchTime.now().uptimeNanoseconds
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            tally.done = continuation
            for n in nodes {
                let peers = nodes.filter { $0 !== n }.map(\.id)
                @Sendable func send(from i: Int) {
                    for _ in i..<min(i + 64, each) { n.post(body, service: .tables, to: peers) }
                    if i + 64 < each { n.eventLoop.execute { send(from: i + 64) } }
                }
                n.eventLoop.execute { send(from: 0) }
            }
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        for n in nodes { await n.shutdown() }
        return (expected, seconds)
    }
}
