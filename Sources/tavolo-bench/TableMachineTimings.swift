// swift-format-ignore-file: NeverForceUnwrap

// (ids made from 16 literal bytes, and nodes looked up by the ids the benchmark itself made)
import Foundation
import TavoloCore
import TavoloGames
import TavoloProtocol
import TavoloTable

/// `tavolo-bench --profile table [--nodes N]`: N-player Spirits! (six by default) played by N table directories in one process, messages
/// encoded as a node sends them and decoded by each receiver, delivered in order with no sockets, no event loop,
/// no clock and no disk. What a move costs the table layer itself (every node's checks, application, hashes and
/// log), set against the CPU a node spends per move over the real mesh (`scripts/bench table`), tells how much of
/// that is the table layer and how much the transport, the daemon and the kernel. Deterministic and free of
/// threads, so it also runs under `valgrind --tool=callgrind` for instruction counts.
enum TableMachineTimings {
    struct Result {
        var games = 0
        var moves = 0
        var messages = 0
        var seconds = 0.0
    }

    static func run(games: Int, players: Int = 6) throws -> Result {
        var result = Result()
        let start = DispatchTime.now().uptimeNanoseconds
        for g in 0..<games {
            var mesh = Mesh(players, seed: UInt64(g + 1))
            let moves = try mesh.playOneGame(players: players)
            result.games += 1
            result.moves += moves
            result.messages += mesh.delivered
        }
        result.seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return result
    }

    /// Six directories and the messages between them, delivered in order.
    struct Mesh {
        var nodes: [NodeID: TableDirectory] = [:]
        var order: [NodeID] = []
        var queue: [(from: NodeID, to: NodeID, wire: (form: MessageForm, bytes: [UInt8]))] = []
        var delivered = 0
        var finished: Set<NodeID> = []

        init(_ count: Int, seed: UInt64) {
            for i in 0..<count {
                let id = NodeID(bytes: [UInt8](repeating: 0, count: 15) + [UInt8(i + 1)])!
                let context = TableContext(me: id, myName: "n\(i)", catalog: .standard)
                nodes[id] = TableDirectory(context: context, nonces: .reproducible(seed: seed, nodeIndex: UInt64(i)))
                order.append(id)
            }
            for a in order {
                for b in order where a != b {
                    apply(a, nodes[a]!.peerConnected(b, name: "n\(order.firstIndex(of: b)!)"))
                }
            }
            run()
        }

        mutating func apply(_ node: NodeID, _ effects: [TableEffect]) {
            for e in effects {
                switch e {
                case .send(let m, let to):
                    // Encoded once, as a node posts one frame to every recipient.
                    guard let wire = try? m.wire() else { continue }
                    for t in to { queue.append((node, t, wire)) }
                case .emit(let event): if event.kind == .finished { finished.insert(node) }
                default: break
                }
            }
        }

        mutating func run() {
            var next = 0
            while next < queue.count {
                let (from, to, wire) = queue[next]
                next += 1
                delivered += 1
                guard let message = try? TableMessage.decode(wire.bytes, form: wire.form), var d = nodes[to] else {
                    continue
                }
                nodes[to] = nil  // unique, so the directory is changed in place
                let effects = d.received(message, from: from)
                nodes[to] = d
                apply(to, effects)
                if next > 4096 {
                    queue.removeFirst(next)
                    next = 0
                }
            }
            queue.removeAll(keepingCapacity: true)
        }

        mutating func request(
            _ i: Int, _ r: (inout TableDirectory) -> (Swift.Result<TableInfo, TableError>, [TableEffect])
        )
            throws -> TableInfo
        {
            var d = nodes[order[i]]!
            let (result, effects) = r(&d)
            nodes[order[i]] = d
            apply(order[i], effects)
            run()
            return try result.get()
        }

        /// Hosts, seats a heuristic bot at every seat, starts and plays to the end; returns the moves played.
        mutating func playOneGame(players: Int) throws -> Int {
            let info = try request(0) { $0.host(game: "spirits", players: players) }
            for i in 0..<players { _ = try request(i) { $0.request(info.id, .join(seat: i, bot: "heuristic")) } }
            _ = try request(0) { $0.request(info.id, .start) }
            guard finished.count == players, let moves = nodes[order[0]]?.tables[info.id]?.session?.moveNumber else {
                throw BenchError("the in-process table did not finish at every node")
            }
            return moves
        }
    }
}
