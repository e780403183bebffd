import Foundation
import TavoloCore
import TavoloProtocol

/// Rebuilds tables from captured table messages (a packet log) and re-runs their games, checking the joint
/// seed against the commitments, every deal against the seed, and every captured state hash (the hash each
/// move claims to apply to, every confirmation, every result) against the replay.
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
        public var table: String
        public var game: String?
        public var jointSeed: UInt64?
        public var movesReplayed: Int = 0
        public var dealsChecked: Int = 0
        public var hashesChecked: Int = 0
        public var finalHash: String?
        /// Nil when everything matched; otherwise the first mismatch or what prevents the rebuild.
        public var problem: String?
        public var confirmed: Bool { problem == nil }
    }

    let catalog: GameCatalog

    public init(catalog: GameCatalog) { self.catalog = catalog }

    /// Replays every table found in `messages` (capture order); non-table messages are ignored.
    public func run(_ messages: [Captured]) -> [Outcome] {
        var byTable: [String: [(Captured, TableMessage)]] = [:]
        var order: [String] = []
        for c in messages {
            guard let m = try? WireJSON.decode(TableMessage.self, c.body) else { continue }
            if byTable[m.table] == nil { order.append(m.table) }
            byTable[m.table, default: []].append((c, m))
        }
        return order.compactMap { id in byTable[id].map { replay(table: id, $0) } }
    }

    func replay(table id: String, _ messages: [(Captured, TableMessage)]) -> Outcome {
        var out = Outcome(table: id)
        var info: TableInfo?
        var commitments: [NodeID: String] = [:]
        var nonces: [NodeID: [UInt8]] = [:]
        var deals: [Int: (Int, [UInt8])] = [:]
        var moves: [Int: (Int, Int, JSONValue, String)] = [:]
        var confirms: [Int: [(Int, NodeID?, String)]] = [:]
        var results: [(Int, NodeID?, String)] = []
        for (c, m) in messages {
            switch m {
            case .offer(let i):
                if info == nil || i.revision >= (info?.revision ?? 0) { info = i }
            case .commit(_, let commitment): if let s = c.sender { commitments[s] = commitment }
            case .reveal(_, let nonce): if let s = c.sender, let n = [UInt8](hexString: nonce) { nonces[s] = n }
            case .deal(_, let number, let cards): if deals[number] == nil { deals[number] = (c.frame, cards) }
            case .move(_, let number, let seat, let move, let hash):
                if moves[number] == nil { moves[number] = (c.frame, seat, move, hash) }
            case .confirm(_, let number, let hash): confirms[number, default: []].append((c.frame, c.sender, hash))
            case .result(_, _, _, let hash): results.append((c.frame, c.sender, hash))
            default: break
            }
        }
        guard let info else {
            out.problem = "no table.offer for \(id) in the capture: game and seats unknown"
            return out
        }
        out.game = info.game
        guard let entry = catalog[info.game] else {
            out.problem = "unknown game \(info.game)"
            return out
        }
        var ordered: [[UInt8]] = []
        for p in info.participants {
            guard let n = nonces[p] else {
                out.problem = "no reveal from \(p.short) in the capture: the joint seed cannot be rebuilt"
                return out
            }
            if let c = commitments[p], c != JointSeed.commitment(for: n) {
                out.problem = "\(p.short)'s nonce does not match its commitment"
                return out
            }
            ordered.append(n)
        }
        let seed = JointSeed.seed(nonces: ordered)
        out.jointSeed = seed
        let session: any GameSession
        do { session = try entry.session(players: info.players, seed: seed) } catch {
            out.problem = error.message
            return out
        }
        func check(_ frame: Int, _ what: String, _ claimed: String) -> Bool {
            out.hashesChecked += 1
            guard claimed == session.stateHash.hex else {
                out.problem =
                    "frame \(frame): \(what) has state hash \(claimed.prefix(16))…, the replay has \(session.stateHash.hex.prefix(16))…"
                return false
            }
            return true
        }
        var checkedDeal = 0
        while true {
            if let cards = session.currentDeal, session.dealNumber > checkedDeal,
                let (frame, dealt) = deals[session.dealNumber]
            {
                guard dealt == cards else {
                    out.problem = "frame \(frame): deal \(session.dealNumber) is not the shuffle of joint seed \(seed)"
                    return out
                }
                checkedDeal = session.dealNumber
                out.dealsChecked += 1
            }
            let n = session.moveNumber
            guard let (frame, seat, move, before) = moves[n] else { break }
            guard session.turn.seat == seat else {
                out.problem =
                    "frame \(frame): move \(n) is for seat \(seat), but seat \(session.turn.seat.map(String.init) ?? "none") is to play"
                return out
            }
            guard check(frame, "move \(n)", before) else { return out }
            do { try session.apply(json: move.jsonBytes) } catch {
                out.problem = "frame \(frame): move \(n) does not apply: \(error)"
                return out
            }
            out.movesReplayed += 1
            for (f, _, hash) in confirms[n] ?? [] where !check(f, "the confirmation of move \(n)", hash) { return out }
        }
        if !results.isEmpty, session.turn != .terminal {
            out.problem =
                "the capture has results but the replay stops after \(session.moveNumber) moves (moves missing)"
            return out
        }
        for (f, _, hash) in results where !check(f, "a result", hash) { return out }
        out.finalHash = session.stateHash.hex
        return out
    }
}
