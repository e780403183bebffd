import Foundation
import TavoloMesh
import TavoloProtocol
import TavoloTable

/// Sends table messages over the mesh's reliable channel.
struct MeshTableTransport: TableTransport {
    let mesh: MeshNode
    func post(_ body: [UInt8], to nodes: [NodeID]) { mesh.post(body, to: nodes) }
}

/// Parameters of the table ops of the control socket (PROTOCOL.md §7).
struct HostParams: Codable { var game: String; var players: Int }
struct JoinParams: Codable { var table: String?; var game: String?; var seat: Int?; var bot: String? }
struct FillParams: Codable { var table: String; var bot: String }
struct InviteParams: Codable { var table: String; var seat: Int; var node: String }
struct TableParams: Codable { var table: String }
struct MoveParams: Codable { var table: String; var move: JSONValue }
struct InjectParams: Codable { var message: TableMessage }
struct EventsParams: Codable { var kinds: [TableEvent.Kind]? }
/// The `join` result: the table asked.
public struct JoinResult: Codable, Sendable { public var table: String }

/// A streamed control event line: `{"event": {...}}`.
public struct EventLine: Codable, Sendable { public var event: TableEvent }

extension NodeService {
    /// Answers the table ops; nil when `op` is not one of them.
    func dispatchTable(_ request: ControlRequest, _ line: [UInt8]) async -> ControlReply? {
        func ok<R: Codable & Sendable>(_ r: R) -> ControlReply {
            .line((try? WireJSON.encode(ControlResponse(id: request.id, result: r))) ?? [])
        }
        func fail(_ code: String, _ message: String) -> ControlReply {
            .line(
                (try? WireJSON.encode(
                    ControlResponse<Empty>(id: request.id, error: ControlFailure(code: code, message: message)))) ?? [])
        }
        func params<P: Decodable>(_ type: P.Type) throws -> P { try WireJSON.decode(type, line) }
        do {
            switch request.op {
            case "tables": return ok(await tables.list())
            case "host":
                let p = try params(HostParams.self)
                return ok(try await tables.host(game: p.game, players: p.players))
            case "join":
                let p = try params(JoinParams.self)
                return ok(
                    JoinResult(table: try await tables.join(table: p.table, game: p.game, seat: p.seat, bot: p.bot)))
            case "fill":
                let p = try params(FillParams.self)
                return ok(try await tables.fill(table: p.table, bot: p.bot))
            case "invite":
                let p = try params(InviteParams.self)
                return ok(try await tables.invite(table: p.table, seat: p.seat, node: p.node))
            case "start":
                return ok(try await tables.start(table: try params(TableParams.self).table))
            case "move":
                let p = try params(MoveParams.self)
                try await tables.move(table: p.table, move: p.move)
                return ok(Empty())
            case "leave":
                try await tables.leave(table: try params(TableParams.self).table)
                return ok(Empty())
            case "state":
                return ok(try await tables.state(table: try params(TableParams.self).table))
            case "events":
                let stream = await tables.subscribe(kinds: try params(EventsParams.self).kinds.map(Set.init))
                let lines = AsyncStream<[UInt8]> { continuation in
                    let task = Task {
                        for await e in stream { continuation.yield((try? WireJSON.encode(EventLine(event: e))) ?? []) }
                        continuation.finish()
                    }
                    continuation.onTermination = { _ in task.cancel() }
                }
                return .stream(
                    first: (try? WireJSON.encode(ControlResponse(id: request.id, result: Empty()))) ?? [], rest: lines)
            case "inject":
                guard options.allowInjection else {
                    return fail("control/forbidden", "inject is for tests: start tavolod with --test-allow-injection")
                }
                await tables.inject(try params(InjectParams.self).message)
                return ok(Empty())
            default:
                return nil
            }
        } catch let e as TableError {
            return fail(e.code, e.message)
        } catch {
            return fail("control/bad-params", "bad parameters for '\(request.op)': \(WireJSON.describe(error))")
        }
    }
}
