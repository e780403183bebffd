import Foundation
import TavoloCore
import TavoloProtocol

/// Rebuilds tables from captured table messages (a packet log) and re-runs their games through the same
/// `TableMachine` live nodes run, as an auditor: it checks the joint seed against the commitments, every deal
/// against the seed, and every captured state hash (the hash each move claims to apply to, every confirmation,
/// every result) against the replay, and names the frame of the first mismatch.
public struct TableReplay {
    /// One captured table message.
    public struct Captured: Sendable {
        /// Frame number in the capture, for reports.
        public var frame: Int
        /// The node that sent it, when known.
        public var sender: NodeID?
        public var body: [UInt8]

        public init(frame: Int, sender: NodeID?, body: [UInt8]) {
            self.frame = frame
            self.sender = sender
            self.body = body
        }
    }

    public struct Outcome: Codable, Sendable {
        public var table: TableID
        public var game: String?
        public var jointSeed: UInt64?
        public var movesReplayed: Int = 0
        public var dealsChecked: Int = 0
        public var hashesChecked: Int = 0
        public var finalHash: StateHash?
        /// Nil when everything matched; otherwise the first mismatch or what prevents the rebuild.
        public var problem: String?
        /// The capture starts after the table's joint seed was drawn (no commitment or reveal of it is in the file):
        /// there is no state to check its moves from, and nothing it holds disagrees. Says why; nil otherwise.
        public var unverifiable: String?
        /// Table messages of the table in the capture.
        public var messages = 0
        public var confirmed: Bool { problem == nil && unverifiable == nil }
        /// Nothing in the capture disagrees (confirmed, or not checkable at all).
        public var agrees: Bool { problem == nil }
    }

    let catalog: GameCatalog

    public init(catalog: GameCatalog) { self.catalog = catalog }

    /// The auditor's own id: no node's (ids are random 128-bit values), so it is never a member.
    // swift-format-ignore: NeverForceUnwrap
    // (16 literal bytes: always a node id)
    static let auditor = NodeID(bytes: [UInt8](repeating: 0, count: 16))!

    /// Replays every table found in `messages` (capture order); non-table messages are ignored, and so are tables
    /// the capture holds only offers of (other nodes' tables this node listed but took no part in).
    public func run(_ messages: [Captured]) -> [Outcome] {
        var byTable: [TableID: [(Captured, TableMessage)]] = [:]
        var order: [TableID] = []
        for c in messages {
            guard let m = try? TableMessage.decode(wire: c.body) else { continue }  // JSON or compact (§13)
            if byTable[m.table] == nil { order.append(m.table) }
            byTable[m.table, default: []].append((c, m))
        }
        return order.compactMap { id in
            guard let table = byTable[id], table.contains(where: { if case .offer = $0.1 { false } else { true } })
            else { return nil }
            return replay(table: id, table)
        }
    }

    func replay(table id: TableID, _ messages: [(Captured, TableMessage)]) -> Outcome {
        var out = Outcome(table: id)
        out.messages = messages.count
        if let unverifiable = Self.startsMidGame(messages) {
            out.game = messages.lazy.compactMap { if case .offer(let info) = $0.1 { info.game } else { nil } }.first
            out.unverifiable = unverifiable
            return out
        }
        // A sealed table's cards open only with its members' secrets: checked from the audit on (§14.12).
        if messages.contains(where: { if case .offer(let info) = $0.1 { info.isSealed } else { false } }) {
            replaySealed(messages, &out)
            return out
        }
        guard let table = audit(messages, &out) else {
            if out.problem == nil { out.problem = "no table.offer for \(id) in the capture: game and seats unknown" }
            return out
        }
        conclude(table, &out)
        return out
    }

    /// A capture started mid-game (a packet log turned on late, a node restarted with one) has no seeding: no state
    /// to replay from. Said as such, not as a mismatch.
    static func startsMidGame(_ messages: [(Captured, TableMessage)]) -> String? {
        let seeded = messages.contains {
            switch $0.1 {
            case .commit, .reveal: true
            default: false
            }
        }
        guard !seeded, messages.contains(where: { if case .offer = $0.1 { false } else { true } }) else { return nil }
        return "the capture starts after the joint seed was drawn (no commitment or reveal of this table in it): "
            + "its \(messages.count) messages cannot be checked against a state, and none disagrees"
    }

    /// Feeds every message to a machine in the auditor role, from the first offer on, until one stops the table.
    private func audit(_ messages: [(Captured, TableMessage)], _ out: inout Outcome) -> TableMachine? {
        var context = TableContext(me: Self.auditor, myName: "replay", catalog: catalog)
        var nonces = NonceSource.reproducible(seed: 0, nodeIndex: 0)  // never drawn: an auditor commits nothing
        var machine: TableMachine?
        // A message sent to several peers is captured once per connection: each is checked once.
        var seen = Set<[UInt8]>()
        for (c, m) in messages {
            guard let sender = c.sender, seen.insert(sender.bytes + c.body).inserted else { continue }
            if case .offer(let info) = m {
                context.names[info.host] = info.hostName
                for s in info.seats { if let o = s.owner, let n = s.ownerName { context.names[o] = n } }
                if machine == nil {
                    guard catalog[info.game] != nil else {
                        out.problem = "unknown game \(info.game)"
                        return nil
                    }
                    machine = TableMachine(offered: info, role: .auditor, context)
                }
            }
            guard machine != nil else { continue }
            _ = machine?.handle(.message(m, from: sender), context, nonces: &nonces)
            if let (code, reason) = machine?.stopReason {
                out.problem = "frame \(c.frame): \(reason) [\(code.rawValue)]"
                break
            }
        }
        return machine
    }

    /// What the audit established: the seed, the checks, and the final state, or why it has none.
    private func conclude(_ table: TableMachine, _ out: inout Outcome) {
        out.game = table.info.game
        out.jointSeed = table.jointSeed
        out.dealsChecked = table.dealsChecked
        out.hashesChecked = table.hashesChecked
        out.movesReplayed = table.session?.moveNumber ?? 0
        guard out.problem == nil else { return }
        guard let session = table.session else {
            let missing = table.info.participants.filter { table.reveals[$0] == nil }
            out.problem =
                missing.isEmpty
                ? "the table never started in the capture"
                : "no reveal from \(missing.map(\.short).joined(separator: ", ")) in the capture: the joint seed cannot be rebuilt"
            return
        }
        if !table.results.isEmpty, session.turn != .terminal {
            out.problem =
                "the capture has results but the replay stops after \(counted(session.moveNumber, "move")) (moves missing)"
            return
        }
        out.finalHash = session.stateHash
    }
}
