import Foundation
import NIOCore
import TavoloControl
import TavoloCore
import TavoloGames
import TavoloMesh
import TavoloProtocol
import TavoloTable

/// Sends table messages over the mesh, as messages of the tables service (PROTOCOL.md §3.9).
struct MeshTableTransport: TableTransport {
    let mesh: MeshNode
    func post(_ body: [UInt8], form: MessageForm, to nodes: [NodeID]) {
        mesh.post(body, service: .tables, form: form, to: nodes)
    }
    func postUnreliable(_ body: [UInt8], to nodes: [NodeID]) { mesh.postDatagram(body, service: .tables, to: nodes) }

    /// On the mesh's event loop, which is the table manager's executor.
    /// A scheduled callback, not `scheduleTask`: every move starts and cancels a timer or two, and a task's promise
    /// and future (failed with an error on cancel) showed in the per-move profile. Nil if the loop has shut down
    /// (the manager then sleeps in a task, which a stopping daemon cancels).
    func schedule(after delay: Duration, _ fire: @escaping @Sendable () -> Void) -> (any TableTimerHandle)? {
        guard let callback = try? mesh.eventLoop.scheduleCallback(in: delay.timeAmount, handler: Fire(fire: fire))
        else { return nil }
        return LoopTimer(callback: callback)
    }

    /// On the mesh's event loop, the table manager's executor.
    func hop(_ job: @escaping @Sendable () -> Void) -> Bool {
        mesh.eventLoop.execute(job)
        return true
    }

    struct Fire: NIOScheduledCallbackHandler, Sendable {
        let fire: @Sendable () -> Void
        func handleScheduledCallback(eventLoop: some EventLoop) { fire() }
    }

    struct LoopTimer: TableTimerHandle {
        let callback: NIOScheduledCallback
        func cancel() { callback.cancel() }
    }
}

extension NodeService {
    /// Answers one typed control request (PROTOCOL.md §7, §9.7): the tables', the records', chat's or the node's.
    func dispatch(_ id: Int?, _ request: ControlRequest) async -> ControlReply {
        // The tables' writes asked for so far done first: an answer never shows a game whose log or record is not
        // on disk yet (the shell writes them off the loop, `TableDisk`).
        await tables.settled()
        switch request {
        case .tables, .host, .join, .fill, .invite, .start, .move, .leave, .state, .events, .inject:
            do throws(TableError) { return try await answerTables(id, request) } catch {
                return .failure(ControlErrorCode(error.code), error.message, id: id)
            }
        case .history, .scores, .record: return answerRecords(id, request)
        case .chat(let room, let text):
            switch await sendChat(room: room, text: text) {
            case .success(let sent): return .ok(sent, id: id)
            case .failure(let f): return .failure(f, id: id)
            }
        case .chatLog(let room, let follow): return chatLog(id, room: room, follow: follow)
        case .peers, .acceptPeer, .status, .datagram, .games, .web, .discovery: return await answerNode(id, request)
        }
    }

    /// The table requests (PROTOCOL.md §9.7): the table shell answers, or refuses with a `TableError`.
    private func answerTables(_ id: Int?, _ request: ControlRequest) async throws(TableError) -> ControlReply {
        func ok<R: Codable & Sendable>(_ r: R) -> ControlReply { .ok(r, id: id) }
        switch request {
        case .tables: return ok(await tables.list())
        case .host(let game, let players, let grace, let takeoverBot, let sealed):
            return ok(
                try await tables.host(
                    game: game, players: players, grace: grace, takeoverBot: takeoverBot, sealed: sealed))
        case .join(let table, let game, let seat, let bot):
            return ok(JoinResult(table: try await tables.join(table: table, game: game, seat: seat, bot: bot)))
        case .fill(let table, let bot): return ok(try await tables.fill(table: table, bot: bot))
        case .invite(let table, let seat, let node):
            // To an identity, never to a name: the name resolves to exactly one connected peer whose identity is the
            // one known for it.
            switch await resolvePeer(node) {
            case .failure(let f): return .failure(f, id: id)
            case .success(let (target, name)):
                return ok(try await tables.invite(table: table, seat: seat, node: target, name: name))
            }
        case .start(let table): return ok(try await tables.start(table: table))
        case .move(let table, let move):
            try await tables.move(table: table, move: move)
            return ok(Empty())
        case .leave(let table):
            try await tables.leave(table: table)
            return ok(Empty())
        case .state(let table): return ok(try await tables.settledState(table: table))
        case .events(let kinds): return await eventStream(id, kinds: kinds)
        case .inject(let message):
            guard options.allowInjection else {
                return .failure(
                    .controlForbidden, "inject is for tests: start tavolod with --test-allow-injection", id: id)
            }
            await tables.inject(message)
            return ok(Empty())
        default: return .failure(.controlBadRequest, "not a table request", id: id)
        }
    }

    /// `events`: the response line, then one line per table event of `kinds` (all when nil) until the client goes.
    private func eventStream(_ id: Int?, kinds: [TableEvent.Kind]?) async -> ControlReply {
        let stream = await tables.subscribe(kinds: kinds.map(Set.init))
        let lines = AsyncStream<[UInt8]> { continuation in
            let task = Task {
                for await e in stream { continuation.yield((try? WireJSON.encode(EventLine(event: e))) ?? []) }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
        return .stream(first: (try? WireJSON.encode(ControlResponse(id: id, result: Empty()))) ?? [], rest: lines)
    }

    /// The node's own requests: its peers and their identities, its status, a probe datagram, its games, its page.
    private func answerNode(_ id: Int?, _ request: ControlRequest) async -> ControlReply {
        func ok<R: Codable & Sendable>(_ r: R) -> ControlReply { .ok(r, id: id) }
        switch request {
        case .peers:
            let book = knownPeers.snapshot
            return ok(
                await mesh.peerList().map { p in
                    var summary = PeerSummary(p)
                    if book.isChanged(name: p.name, id: p.id) { summary.trust = .identityChanged }
                    return summary
                })
        case .acceptPeer(let name):
            guard let accepted = knownPeers.update({ $0.accept(name: name) }) else {
                return .failure(.peerNothingToAccept, "no changed identity to accept for '\(name)'", id: id)
            }
            logger.notice("identity \(accepted.hex) accepted for peer \(name)")
            return ok(Empty())
        case .status: return ok(await nodeStatus())
        case .datagram(let peer, let text): return await sendDatagram(id, to: peer, text: text)
        case .games:
            return ok(
                GameCatalog.standard.entries.map {
                    var game = GameSummary(
                        name: $0.name, summary: $0.summary, playerCounts: $0.playerCounts, bots: $0.bots.map(\.kind),
                        defaultBot: $0.defaultBot, scoreName: $0.scoreName, lowerScoreIsBetter: $0.lowerScoreIsBetter)
                    game.sealable = $0.isSealable ? true : nil
                    return game
                })
        case .web:
            guard let link = webLink else {
                return .failure(.webOff, "this node serves no page (tavolod was started with --no-web)", id: id)
            }
            return ok(link)
        case .discovery: return ok(discoveryReport())
        default: return .failure(.controlBadRequest, "not a request of the node", id: id)
        }
    }

    private func nodeStatus() async -> NodeStatus {
        let peers = await mesh.peerList()
        return NodeStatus(
            name: options.name, id: mesh.id.hex, tcpPort: mesh.tcpPort, udpPort: mesh.udpPort,
            protocolVersion: Int(options.wireVersion), connectedPeers: peers.filter { $0.state == .connected }.count,
            stats: await mesh.statistics(), tableMessagesRefused: await tables.refusedMessages,
            unroutedMessages: router.unroutedMessages, chatMessagesDropped: chat.droppedMessages)
    }

    /// `datagram`: a probe between hosts, to the tables service, which counts the datagram received and ignores it
    /// (not a `table.progress`, §10.4); an unassigned service would count it as unrouted, an error.
    private func sendDatagram(_ id: Int?, to peer: String, text: String) async -> ControlReply {
        switch await resolvePeer(peer) {
        case .failure(let f): return .failure(f, id: id)
        case .success(let (target, _)):
            do {
                try await mesh.send(["text": text], service: .tables, to: target, on: .unreliable)
                return .ok(DatagramResult(sent: 1), id: id)
            } catch {
                return .failure(.meshSendFailed, "\(error)", id: id)
            }
        }
    }
}

extension NodeService {
    /// The connected peer a user names (a name or an id), as an identity and its name (`KnownPeers.resolve`).
    func resolvePeer(_ nameOrID: String) async -> Result<(NodeID, String), ControlFailure> {
        let connected = await mesh.peerList().filter { $0.state == .connected }
        return knownPeers.snapshot.resolve(nameOrID, connected: connected.map { ($0.name, $0.id) }).map { id in
            (id, connected.first { $0.id == id }?.name ?? nameOrID)
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
