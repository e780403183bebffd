import Foundation
import Logging
import TavoloCore
import TavoloProtocol

/// Sends table messages to other nodes, in order, without waiting (the mesh's reliable channel).
public protocol TableTransport: Sendable {
    func post(_ body: [UInt8], to nodes: [NodeID])
}

/// A failed table request from the local user (control socket): a stable code and a sentence.
public struct TableError: Error, Sendable, CustomStringConvertible {
    public let code: String
    public let message: String
    public init(_ code: String, _ message: String) {
        self.code = code
        self.message = message
    }
    public var description: String { "\(code): \(message)" }
}

/// Runs this node's side of every table: offers, seats, the joint seed, host-dealt decks checked against
/// it, lockstep moves checked by every node, confirmations, results and game logs (PROTOCOL.md §9).
public actor TableManager {
    public struct Options: Sendable {
        public var stateDirectory: String?
        /// Reproducible nonces (`tavolo simulate --seed`): derived from this seed and `nodeIndex`.
        public var nonceSeed: UInt64?
        public var nodeIndex: UInt64 = 0
        /// Test-only misbehaviour: the host deals a deck that is not the joint seed's shuffle.
        public var cheatDeal = false
        public init() {}
    }

    public let me: NodeID
    public let myName: String
    /// Where the actor runs: the mesh's event loop in the daemon, so table messages are handled where they
    /// arrive, with no thread hop (`assumeIsolated`), and sends are written in order at once.
    nonisolated let executor: any SerialExecutor
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    let transport: any TableTransport
    let catalog: GameCatalog
    let options: Options
    let logger: Logger

    var tables: [String: TableRuntime] = [:]
    var names: [NodeID: String] = [:]
    var connected: Set<NodeID> = []
    var nextTableNumber = 1
    var seededTables: UInt64 = 0
    var subscribers: [UUID: (kinds: Set<TableEvent.Kind>?, continuation: AsyncStream<TableEvent>.Continuation)] = [:]

    public init(
        me: NodeID, name: String, transport: any TableTransport, catalog: GameCatalog, options: Options, logger: Logger,
        executor: any SerialExecutor
    ) {
        self.me = me
        self.executor = executor
        myName = name
        self.transport = transport
        self.catalog = catalog
        self.options = options
        self.logger = logger
        names[me] = name
    }

    // MARK: Events

    /// Every table event from now on, or only those of `kinds`.
    public func subscribe(kinds: Set<TableEvent.Kind>? = nil) -> AsyncStream<TableEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: TableEvent.self)
        let id = UUID()
        subscribers[id] = (kinds, continuation)
        continuation.onTermination = { [weak self] _ in
            Task { await self?.unsubscribe(id) }
        }
        return stream
    }

    private func unsubscribe(_ id: UUID) { subscribers[id] = nil }

    func emit(_ event: TableEvent) {
        for s in subscribers.values where s.kinds?.contains(event.kind) ?? true { s.continuation.yield(event) }
    }

    func event(_ kind: TableEvent.Kind, _ t: TableRuntime, _ fill: (inout TableEvent) -> Void = { _ in }) {
        var e = TableEvent(kind: kind, table: t.info.id)
        e.game = t.info.game
        fill(&e)
        emit(e)
    }

    // MARK: Sending

    func send(_ message: TableMessage, to nodes: [NodeID]) {
        let targets = nodes.filter { $0 != me }
        guard !targets.isEmpty else { return }
        do { transport.post(try WireJSON.encode(message), to: targets) } catch {
            logger.error("cannot encode \(message.typeName): \(error)")
        }
    }

    func sendToTable(_ message: TableMessage, _ t: TableRuntime) { send(message, to: t.info.members) }

    // MARK: Mesh input

    /// A peer connected: learn its name and tell it about the tables this node hosts.
    public func peerConnected(_ id: NodeID, name: String) {
        names[id] = name
        connected.insert(id)
        for t in tables.values where t.isHost && t.info.phase != .finished && t.info.phase != .stopped {
            send(.offer(t.info), to: [id])
        }
    }

    /// A peer was lost: tables it takes part in cannot go on.
    public func peerLost(_ id: NodeID) {
        connected.remove(id)
        for t in tables.values {
            // Only a member stops a table; other nodes' tables are only listed here.
            if t.isActive && t.info.members.contains(id) && t.info.members.contains(me) {
                stopTable(t, code: "table/member-lost", reason: "\(names[id] ?? id.short) was lost", broadcast: true)
            } else if t.isHost && t.info.phase == .open && t.info.seats.contains(where: { $0.owner == id }) {
                freeSeats(of: id, in: t)
            } else if t.info.host == id && t.info.phase == .open {
                tables[t.info.id] = nil
            }
        }
    }

    /// A table message arrived from `from`.
    public func received(_ body: [UInt8], from: NodeID) {
        let message: TableMessage
        do { message = try WireJSON.decode(TableMessage.self, body) } catch {
            logger.warning("bad table message from \(names[from] ?? from.short): \(WireJSON.describe(error))")
            return
        }
        handle(message, from: from)
    }

    func handle(_ message: TableMessage, from: NodeID) {
        if case .offer(let info) = message {
            handleOffer(info, from: from)
            return
        }
        guard let t = tables[message.table] else {
            logger.debug("\(message.typeName) for unknown table \(message.table) from \(from.short)")
            return
        }
        switch message {
        case .offer: break
        case .seatRequest(_, let seat, let bot): handleSeatRequest(t, from: from, seat: seat, bot: bot)
        case .seatRefused(_, let reason): event(.seatRefused, t) { $0.message = reason }
        case .invite(_, let seat):
            guard from == t.info.host else { return }
            event(.invited, t) {
                $0.seat = seat
                $0.message = "\(self.names[from] ?? "a node") invites you to seat \(seat) of a \(t.info.game) table"
            }
        case .leave: handleLeave(t, from: from)
        case .commit(_, let commitment): handleCommit(t, from: from, commitment: commitment)
        case .reveal(_, let nonce): handleReveal(t, from: from, nonceHex: nonce)
        case .deal(_, let number, let cards): handleDeal(t, from: from, number: number, cards: cards)
        case .move(_, let number, let seat, let move, let hash):
            handleMove(t, from: from, number: number, seat: seat, move: move, stateHash: hash)
        case .confirm(_, let number, let hash): handleConfirm(t, from: from, number: number, hash: hash)
        case .reject(_, let number, let code, let reason):
            event(.rejected, t) {
                $0.moveNumber = number
                $0.code = code
                $0.message = "\(self.names[from] ?? from.short) rejected move \(number): \(reason)"
            }
        case .result(_, _, _, let hash): handleResult(t, from: from, finalHash: hash)
        case .stop(_, let code, let reason):
            guard t.info.members.contains(from), t.isActive || t.info.phase == .open else { return }
            stopTable(t, code: code, reason: "\(names[from] ?? from.short): \(reason)", broadcast: false)
        }
    }
}
