import Foundation
import TavoloControl
import TavoloCore
import TavoloMesh
import TavoloProtocol
import TavoloTable

/// Sends table messages over the mesh's reliable channel.
struct MeshTableTransport: TableTransport {
    let mesh: MeshNode
    func post(_ body: [UInt8], to nodes: [NodeID]) { mesh.post(body, to: nodes) }
}

extension NodeService {
    /// Answers one typed control request (PROTOCOL.md §7, §9.7).
    func dispatch(_ id: Int?, _ request: ControlRequest) async -> ControlReply {
        func ok<R: Codable & Sendable>(_ r: R) -> ControlReply {
            .line((try? WireJSON.encode(ControlResponse(id: id, result: r))) ?? [])
        }
        func fail(_ code: String, _ message: String) -> ControlReply {
            .line(
                (try? WireJSON.encode(
                    ControlResponse<Empty>(id: id, error: ControlFailure(code: code, message: message)))) ?? [])
        }
        do throws(TableError) {
            switch request {
            case .peers: return ok(await mesh.peerList().map(PeerSummary.init))
            case .status:
                let peers = await mesh.peerList()
                return ok(
                    NodeStatus(
                        name: options.name, id: mesh.id.hex, tcpPort: mesh.tcpPort, udpPort: mesh.udpPort,
                        protocolVersion: Int(options.wireVersion),
                        connectedPeers: peers.filter { $0.state == .connected }.count,
                        stats: await mesh.statistics()))
            case .tables: return ok(await tables.list())
            case .host(let game, let players, let grace, let takeoverBot):
                return ok(
                    try await tables.host(game: game, players: players, grace: grace, takeoverBot: takeoverBot))
            case .join(let table, let game, let seat, let bot):
                return ok(JoinResult(table: try await tables.join(table: table, game: game, seat: seat, bot: bot)))
            case .fill(let table, let bot): return ok(try await tables.fill(table: table, bot: bot))
            case .invite(let table, let seat, let node):
                return ok(try await tables.invite(table: table, seat: seat, node: node))
            case .start(let table): return ok(try await tables.start(table: table))
            case .move(let table, let move):
                try await tables.move(table: table, move: move)
                return ok(Empty())
            case .leave(let table):
                try await tables.leave(table: table)
                return ok(Empty())
            case .state(let table): return ok(try await tables.state(table: table))
            case .events(let kinds):
                let stream = await tables.subscribe(kinds: kinds.map(Set.init))
                let lines = AsyncStream<[UInt8]> { continuation in
                    let task = Task {
                        for await e in stream { continuation.yield((try? WireJSON.encode(EventLine(event: e))) ?? []) }
                        continuation.finish()
                    }
                    continuation.onTermination = { _ in task.cancel() }
                }
                return .stream(
                    first: (try? WireJSON.encode(ControlResponse(id: id, result: Empty()))) ?? [], rest: lines)
            case .datagram(let peer, let text):
                let peers = await mesh.peerList()
                guard
                    let target = peers.first(where: { ($0.name == peer || $0.id.hex == peer) && $0.state == .connected }
                    )
                else { return fail("mesh/not-connected", "no connected peer named \(peer)") }
                do {
                    try await mesh.send(["text": text], to: target.id, on: .unreliable)
                    return ok(DatagramResult(sent: 1))
                } catch {
                    return fail("mesh/send-failed", "\(error)")
                }
            case .inject(let message):
                guard options.allowInjection else {
                    return fail("control/forbidden", "inject is for tests: start tavolod with --test-allow-injection")
                }
                await tables.inject(message)
                return ok(Empty())
            }
        } catch {
            return fail(error.code.rawValue, error.message)
        }
    }
}

extension PeerSummary {
    init(_ p: PeerInfo) {
        self.init(
            id: p.id, name: p.name, address: p.address, state: State(rawValue: p.state.rawValue) ?? .lost,
            rttMs: p.rttMs,
            reason: p.reason)
    }
}
