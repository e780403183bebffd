import Foundation
import Logging
import TavoloCore
import TavoloProtocol
import TavoloRecordFormat

/// Exchanges records with connected peers (PROTOCOL.md §11.3): a summary of 256 bucket digests on connecting,
/// the ids of every bucket that differs, then only the records the other side lacks, pushed in small
/// `records.data` messages, one at a time per peer (the next waits for the `records.ack` of the previous and a
/// short pause). So at most one small message of sync is ever queued on a connection ahead of a move, and a
/// slow receiver slows only its own sync. Received records are checked by replay (`RecordVerifier`) off the
/// mesh's event loop, in this actor.
public actor RecordSync {
    public typealias Send = @Sendable (RecordMessage, NodeID) -> Void

    /// Counters for `tavolo scores --json` and tests.
    public struct Stats: Codable, Sendable, Equatable {
        public var sent = 0
        public var accepted = 0
        public var refused = 0
        public var lastRefusal: String?
        /// Records left unchecked because their peer was over its pushes a minute.
        public var deferred = 0
        /// Bytes of `records.ids` the last summary compared was answered with, and of every answer so far.
        public var lastSummaryAnswerBytes = 0
        public var answeredBytes = 0
    }

    struct Peer {
        var outbox: [String] = []
        var queued = Set<String>()
        var inFlight = false
        var inFlightSince: ContinuousClock.Instant?
        var lastSummary: ContinuousClock.Instant?
        var pendingSummary: [String]?
        var summaryTask: Task<Void, Never>?
        /// A summary to send again once the games it has just played are no longer fresh (`idsArrived`).
        var recheckTask: Task<Void, Never>?
        /// Records this peer checked and refused (its `records.ack`): never offered to it again.
        var refusedByPeer = BoundedIDSet(limit: RecordSync.maxRememberedRefusals)
        /// The peer's host, as its connection gives it: the quotas' key for every key it makes (§11.3).
        var address = ""
        /// Records this peer sent that this node keeps (§11.3 step 5: a bounded share of the disk).
        var stored = 0
        /// The first bucket the next answer to its summary starts at: a bounded answer moves on each time.
        var nextBucket = 0
        /// When a message of this peer last went over a share: said once a minute.
        var overSaid: ContinuousClock.Instant?
        /// Records whose signature by this node went to this peer on this connection (the newest): the peer gets it
        /// in order, so a message of its that lacks it is not answered again (§11.3 step 7).
        var signedFor = BoundedIDSet(limit: RecordSync.maxRememberedSignedFor)
    }

    /// Records a peer may push in a minute; beyond it the rest of a `records.data` is left unchecked and unstored
    /// (not refused: the sender offers them again later). A node catching up with a large history is slowed, a
    /// flooding one is bounded.
    public static let defaultPushesPerMinute = 600
    /// Refusals remembered per peer: a forger making ever new records gets no more than this many remembered.
    static let maxRememberedRefusals = 4_096
    /// Records per peer whose signature this node remembers sending it on the connection.
    static let maxRememberedSignedFor = 64

    /// How long after a game ends its record is not pushed to a peer that had a seat at it: that peer records the
    /// game itself a moment after this node does, and the summaries they exchange in between would have the whole
    /// record (a few KiB per game) cross the link for nothing. After it, the peer is asked again.
    let freshness: Duration

    let store: RecordStore
    let verifier: RecordVerifier
    /// This node's signer: it answers a member's signatures of a game both played with its own (§11.7).
    let signer: RecordSigner?
    /// Members' signatures of records this node does not hold yet (it is still writing the game), by record id.
    var pendingSignatures = PendingSignatures()
    /// The bodies of the records whose signatures arrive now, decoded once (`RecentBodies`).
    var recentBodies = RecentBodies()
    let send: Send
    let logger: Logger
    /// Pause between two `records.data` to one peer, after the ack: bounds sync to a share of the link.
    let pause: Duration
    /// Records a peer may push in a minute (`defaultPushesPerMinute`).
    let pushesPerMinute: Int
    /// The shares of §11.3 (per peer, per address, all peers).
    var quotas: RecordQuotas
    /// Records stored that peers sent, all together (`RecordQuotas.Limits.storedFromPeers`).
    var storedFromPeers = 0
    /// Records stored that peers at each address sent (`RecordQuotas.Limits.storedPerAddress`), read lazily.
    var storedByAddress: [String: Int] = [:]
    var peers: [NodeID: Peer] = [:]
    var announceTask: Task<Void, Never>?
    /// The records stored since the last announcement (`recordsAdded`).
    var announcing = PendingAnnouncement()
    /// Announcements that left peers out, for `skipWindow` (`signerLost`).
    var skipped: [SkippedAnnouncement] = []
    public internal(set) var stats = Stats()

    /// What the mesh tells the sync, kept in the order it happened (separate `Task`s would not keep it: a
    /// peer's summary could overtake its connection).
    public enum Input: Sendable {
        case connected(NodeID, address: String = "")
        case lost(NodeID)
        case message([UInt8], from: NodeID)
    }

    nonisolated let inputs: AsyncStream<Input>.Continuation
    let inputStream: AsyncStream<Input>

    /// Messages posted and not yet handled: a peer that floods records messages faster than they are checked
    /// has the excess dropped here (on the mesh loop, before any decoding) instead of queued without bound.
    nonisolated let backlog = Backlog()
    // A summary answers with up to 256 `records.ids` at once: room for them, plus a few more.
    public static let maxBacklog = 300

    /// Queues an input from any thread without waiting; `run()` handles them in order.
    public nonisolated func post(_ input: Input) {
        if case .message = input, !backlog.enter(limit: Self.maxBacklog) { return }
        inputs.yield(input)
    }

    /// Handles posted inputs until the stream ends (`finish()`).
    public func run() async {
        for await input in inputStream {
            switch input {
            case .connected(let id, let address): peerConnected(id, address: address)
            case .lost(let id): peerLost(id)
            case .message(let body, let id):
                backlog.leave()
                received(body, from: id)
            }
        }
    }

    public nonisolated func finish() { inputs.finish() }

    public init(
        store: RecordStore, verifier: RecordVerifier, signer: RecordSigner? = nil, pause: Duration = .milliseconds(5),
        freshness: Duration = .seconds(10), pushesPerMinute: Int = RecordSync.defaultPushesPerMinute,
        limits: RecordQuotas.Limits = .init(), logger: Logger, send: @escaping Send
    ) {
        self.pushesPerMinute = pushesPerMinute
        var limits = limits
        limits.checksPerPeer = pushesPerMinute
        quotas = RecordQuotas(limits: limits)
        storedFromPeers = store.receivedCount(from: nil)
        self.store = store
        self.freshness = freshness
        self.verifier = verifier
        self.signer = signer
        self.send = send
        self.pause = pause
        self.logger = logger
        (inputStream, inputs) = AsyncStream.makeStream(of: Input.self)
    }

    // MARK: Peers

    public func peerConnected(_ id: NodeID, address: String = "") {
        var peer = Peer()
        peer.address = Self.host(of: address)
        peer.stored = store.receivedCount(from: id.hex)
        peers[id] = peer
        sendSummary(to: id)
        sendAwaitedSignatures(to: id)
    }

    public func peerLost(_ id: NodeID) {
        let peer = peers.removeValue(forKey: id)
        peer?.summaryTask?.cancel()
        peer?.recheckTask?.cancel()
        signerLost(id)
    }

    // MARK: Receiving

    /// A records message from a connected peer (the mesh's word for who sent it).
    public func received(_ body: [UInt8], from id: NodeID) {
        guard peers[id] != nil else { return }
        guard body.count <= RecordLimits.maxMessageBytes else {
            logger.warning("records message of \(body.count) bytes from \(id.short) dropped: over the limit")
            return
        }
        let message: RecordMessage
        do { message = try CanonicalJSON.decode(RecordMessage.self, body) } catch {
            logger.warning("bad records message from \(id.short): \(error)")
            return
        }
        if let problem = message.limitProblem {
            logger.warning("records message from \(id.short) dropped: \(problem)")
            return
        }
        logger.trace("\(message.typeName) from \(id.short)")
        switch message {
        case .summary(_, let buckets): summaryArrived(buckets, from: id)
        case .ids(let bucket, let theirs): idsArrived(bucket: bucket, theirs, from: id)
        case .data(let records): dataArrived(records, from: id)
        case .signatures(let record, let signatures): signaturesArrived(signatures, record: record, from: id)
        case .ack(_, _, let refusedIDs):
            for r in refusedIDs { peers[id]?.refusedByPeer.insert(r) }
            peers[id]?.inFlight = false
            peers[id]?.inFlightSince = nil
            Task {
                try? await Task.sleep(for: pause)
                self.pump(id)
            }
        }
    }

    /// At most one summary per peer every 2 s is compared (each costs a read of every id); a later one waits,
    /// and only the newest is kept.
    func summaryArrived(_ buckets: [String], from id: NodeID) {
        let now = ContinuousClock.now
        if let last = peers[id]?.lastSummary, now - last < .seconds(2) {
            peers[id]?.pendingSummary = buckets
            guard peers[id]?.summaryTask == nil else { return }
            peers[id]?.summaryTask = Task {
                try? await Task.sleep(until: last + .seconds(2))
                self.pendingSummaryDue(id)
            }
            return
        }
        peers[id]?.lastSummary = now
        compare(buckets, with: id)
    }

    func pendingSummaryDue(_ id: NodeID) {
        peers[id]?.summaryTask = nil
        guard let buckets = peers[id]?.pendingSummary else { return }
        peers[id]?.pendingSummary = nil
        peers[id]?.lastSummary = .now
        compare(buckets, with: id)
    }

    /// Every bucket whose digest differs gets this node's ids for it (even none): the peer then pushes what
    /// this node lacks, as this node does when the peer's ids arrive.
    /// The answer is bounded (§11.3 step 2): at most `idsBytesPerSummary` bytes of ids, within the peer's, its
    /// address's and everyone's bytes a minute; the next summary's answer goes on from the bucket this one stopped at.
    func compare(_ theirs: [String], with id: NodeID) {
        guard let mine = try? store.bucketDigests(), let start = peers[id]?.nextBucket else { return }
        var left = quotas.limits.idsBytesPerSummary
        var answered = 0
        for k in 0..<RecordLimits.bucketCount {
            let b = (start + k) % RecordLimits.bucketCount
            guard mine[b] != theirs[b] else { continue }
            let ids = Array(((try? store.ids(inBucket: b)) ?? []).prefix(RecordLimits.maxIDsPerMessage))
            let cost = Self.idsMessageBytes(ids.count)
            guard cost <= left, admitAnswer(cost, to: id) else {
                peers[id]?.nextBucket = b
                sayOver(id, "answers to its summaries")
                break
            }
            left -= cost
            answered += cost
            send(.ids(bucket: b, ids: ids), id)
        }
        stats.lastSummaryAnswerBytes = answered
        stats.answeredBytes += answered
        logger.debug("records: summary of \(id.short) compared: \(answered) bytes of ids answered")
    }

    func idsArrived(bucket: Int, _ theirs: [String], from id: NodeID) {
        guard var peer = peers[id], let mine = try? store.ids(inBucket: bucket) else { return }
        let theirSet = Set(theirs)
        let lacking = mine.filter {
            !theirSet.contains($0) && !peer.queued.contains($0) && !peer.refusedByPeer.contains($0)
        }
        // Games the peer has just played are left to it for a while (`freshness`), then it is asked again.
        let since = Int64(Date().timeIntervalSince1970 * 1000 - freshness / .milliseconds(1))
        let fresh = (try? store.playedRecently(lacking, by: id.hex, since: since)) ?? []
        for r in lacking where !fresh.contains(r) {
            peer.outbox.append(r)
            peer.queued.insert(r)
        }
        if !fresh.isEmpty, peer.recheckTask == nil {
            let wait = freshness
            peer.recheckTask = Task {
                try? await Task.sleep(for: wait)
                self.recheck(id)
            }
        }
        peers[id] = peer
        logger.debug("records: \(id.short) lacks \(lacking.count) of bucket \(bucket), \(fresh.count) fresh")
        pump(id)
    }

    /// The fresh games' time is over: the peer compares again, and asks for whatever it still lacks.
    func recheck(_ id: NodeID) {
        guard peers[id] != nil else { return }
        peers[id]?.recheckTask = nil
        sendSummary(to: id)
    }

    /// Sends the next `records.data` to `id` if none is waiting for its ack (or the ack is 30 s late).
    func pump(_ id: NodeID) {
        // `peer` is a copy: written back only when the batch goes (or records it named are gone).
        guard var peer = peers[id], !peer.outbox.isEmpty else { return }
        if peer.inFlight, let since = peer.inFlightSince, ContinuousClock.now - since < .seconds(30) { return }
        var batch: [RecordMessage.WireRecord] = []
        var size = 64
        while let next = peer.outbox.first, batch.count < RecordLimits.maxRecordsPerMessage {
            guard let r = (try? store.records(ids: [next]))?.first else {
                peer.outbox.removeFirst()
                continue
            }
            let w = RecordMessage.WireRecord(r, signatures: (try? store.signatures(of: r.id)) ?? [])
            // The body travels as a JSON string: quotes and backslashes double at most; a signature is ~560 bytes.
            let cost = w.body.utf8.count * 2 + 200 + (w.signatures?.count ?? 0) * 600
            if !batch.isEmpty && size + cost > RecordLimits.maxDataBytes { break }
            batch.append(w)
            size += cost
            peer.outbox.removeFirst()
            peer.queued.remove(next)
        }
        if !batch.isEmpty {
            guard admitAnswer(size, to: id) else {
                sayOver(id, "records sent to it")
                Task {
                    try? await Task.sleep(for: .seconds(5))
                    self.pump(id)
                }
                return
            }
            stats.answeredBytes += size
            peer.inFlight = true
            peer.inFlightSince = .now
            stats.sent += batch.count
            logger.debug("records: \(batch.count) sent to \(id.short)")
            send(.data(batch), id)
            // A peer that never acks is given up on after 30 s, and the sync goes on.
            Task {
                try? await Task.sleep(for: .seconds(30.1))
                self.pump(id)
            }
        }
        peers[id] = peer
    }
}

/// Ids kept up to a bound, the oldest forgotten first.
struct BoundedIDSet {
    let limit: Int
    private var order: [String] = []
    private var members: Set<String> = []

    init(limit: Int) { self.limit = limit }

    func contains(_ id: String) -> Bool { members.contains(id) }

    mutating func insert(_ id: String) {
        guard members.insert(id).inserted else { return }
        order.append(id)
        if order.count > limit { members.remove(order.removeFirst()) }
    }
}

/// A counter shared by the mesh loop (which adds) and the sync actor (which removes).
final class Backlog: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    private(set) var dropped = 0

    func enter(limit: Int) -> Bool {
        lock.withLock {
            guard count < limit else {
                dropped += 1
                return false
            }
            count += 1
            return true
        }
    }

    func leave() { lock.withLock { count -= 1 } }
}
