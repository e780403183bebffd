import Foundation
import TavoloCore
import TavoloProtocol
import TavoloRecordFormat

extension RecordSync {
    /// A `records.data`: each record not held is checked — signatures first, then the replay (§11.4) — and
    /// those that hold are stored in one transaction; a record held without every signature takes the valid
    /// signatures the copy brings (no replay: the id says it is the same body). Then `records.ack`.
    func dataArrived(_ records: [RecordMessage.WireRecord], from id: NodeID) {
        let ids = records.map(\.id)
        let known = (try? store.known(ids)) ?? []
        let verified = (try? store.verified(ids)) ?? []
        var fresh: [SignedRecord] = []
        var refusedIDs: [String] = []
        var deferred = 0
        var completed: [String] = []
        for w in records where !verified.contains(w.id) {
            guard admitPush(from: id) else {
                deferred += 1
                continue
            }
            let bytes = Array(w.body.utf8)
            if known.contains(w.id) {
                if case .success(let body) = verifier.decode(id: w.id, body: bytes),
                    addSignatures(
                        RecordSignature.check(w.signatures ?? [], recordID: w.id, body: body).valid, w.id, body: body)
                {
                    completed.append(w.id)
                }
                continue
            }
            switch verifier.verify(id: w.id, body: bytes, signatures: w.signatures ?? []) {
            case .success(var signed):
                signed.game = RecordedGame(body: bytes, startedAt: w.startedAt, endedAt: w.endedAt)
                fresh.append(signed)
            case .failure(let why):
                refusedIDs.append(w.id)
                stats.refused += 1
                stats.lastRefusal = "\(w.id.prefix(16))… from \(id.short): \(why)"
                logger.warning("record \(w.id.prefix(16))… from \(id.short) refused: \(why)")
            }
        }
        let room = storeRoom(for: id)
        if fresh.count > room {
            deferred += fresh.count - room
            fresh.removeLast(fresh.count - room)
            sayOver(id, "records kept from it (its share of the disk)")
        }
        var added = 0
        do { added = try store.insert(fresh, source: .peer, from: id.hex, address: peers[id]?.address) } catch {
            logger.error("cannot store records from \(id.short): \(error)")
        }
        stats.accepted += added
        kept(added, from: id)
        if deferred > 0 {
            stats.deferred += deferred
            sayOver(id, "records checked a minute")
        }
        logger.debug(
            "records: from \(id.short) \(records.count) came, \(added) stored, \(completed.count) completed, \(refusedIDs.count) refused, \(deferred) deferred"
        )
        send(.ack(accepted: added + completed.count, refused: refusedIDs.count, refusedIDs: refusedIDs), id)
        if added + completed.count > 0 { recordsAdded(fresh.map(\.game.id) + completed) }
    }

    /// Adds checked signatures to a held record; true when that completed it.
    func addSignatures(_ signatures: [RecordSignature], _ recordID: String, body: RecordBody? = nil) -> Bool {
        guard !signatures.isEmpty else { return false }
        do { return try store.addSignatures(signatures, recordID: recordID, body: body) } catch {
            logger.error("cannot store signatures of \(recordID.prefix(16))…: \(error)")
            return false
        }
    }

    /// A member's `records.signatures` (§11.7): kept with the record when this node holds it (and answered with
    /// this node's own when the sender lacked it), else held a short while for the record this node is writing.
    /// Each message counts against the sender's pushes a minute, like a record.
    func signaturesArrived(_ signatures: [RecordSignature], record: String, from id: NodeID) {
        guard admitPush(from: id) else {
            stats.deferred += 1
            return
        }
        guard let held = (try? store.records(ids: [record]))?.first else {
            pendingSignatures.hold(signatures.filter { $0.problem(recordID: record) == nil }, for: record)
            return
        }
        // Every member sends all it holds, so most of a message is signatures this node checked and stored already:
        // only the signers it lacks are checked (two Ed25519 checks each) — the store would ignore the others — and
        // a record complete here takes none (the profile of a six-node game spent 9% of its CPU re-checking them).
        let stored = (try? store.signatures(of: record)) ?? []
        let storedSigners = Set(stored.map(\.node))
        let fresh = signatures.filter { !storedSigners.contains($0.node) }
        if !fresh.isEmpty, (try? store.verified([record]))?.contains(record) == false,
            let body = recentBodies.body(of: record, held),
            addSignatures(RecordSignature.check(fresh, recordID: record, body: body).valid, record, body: body)
        {
            recordsAdded([record])
        }
        // The sender lacks this node's signature (it wrote its record first, or is a host without a seat): it gets
        // what this node holds, this node's own included, unless this node's signature already went to it on this
        // connection (it arrives in order: the sender wrote before it came). Its answer then holds this node's: no
        // echo.
        if let me = signer?.node, !signatures.contains(where: { $0.node == me }), storedSigners.contains(me),
            peers[id]?.signedFor.contains(record) == false, let mine = try? store.signatures(of: record)
        {
            sendSignatures(record, mine, to: id)
        }
    }

    /// Sends what this node holds of `record`'s signatures (its own among them) to a peer, and remembers it did.
    func sendSignatures(_ record: String, _ held: [RecordSignature], to id: NodeID) {
        let sent = Array(held.prefix(RecordLimits.maxSignatures))
        send(.signatures(id: record, signatures: sent), id)
        if let me = signer?.node, sent.contains(where: { $0.node == me }) {
            peers[id]?.signedFor.insert(record)
        }
    }

    /// A record of a game this node played was stored with this node's signature: the signatures members sent
    /// before it was written are added, and every other seat owner connected now is sent this node's own (unless it
    /// went to it already). Only its own: every seat owner sends its own to the others when the game ends, so the
    /// others' signatures would reach each peer twice (they were half the bytes of a six-player game's records); a
    /// peer that missed one gets every signature held when it connects or answers (§11.3 step 7).
    public func ownRecordStored(_ record: String, seatOwners: Set<String>) {
        let early = pendingSignatures.take(record)
        if !early.isEmpty, let held = (try? store.records(ids: [record]))?.first, let body = try? held.decodedBody(),
            addSignatures(RecordSignature.check(early, recordID: record, body: body).valid, record, body: body)
        {
            recordsAdded([record])
        }
        guard let me = signer?.node, let held = try? store.signatures(of: record) else { return }
        let mine = held.filter { $0.node == me }
        guard !mine.isEmpty else { return }
        // A peer whose message this node already answered with its own signature (it came before this call) has it.
        for (peer, state) in peers where seatOwners.contains(peer.hex) && !state.signedFor.contains(record) {
            sendSignatures(record, mine, to: peer)
        }
    }

    /// Records sent again to a seat owner that connects, at most (§11.3 step 7).
    static let maxAwaitedSignatures = 32

    /// A seat owner connected: the records this node signed that still lack that owner's signature are sent again
    /// (what this node holds of each). It was not connected when the game ended here (a crash, a dropped
    /// connection), or this node signed them at start: without this, neither side's record would ever complete.
    func sendAwaitedSignatures(to id: NodeID) {
        guard signer != nil, let ids = try? store.awaitingSignature(of: id.hex, limit: Self.maxAwaitedSignatures)
        else { return }
        for record in ids {
            guard let held = try? store.signatures(of: record), !held.isEmpty else { continue }
            sendSignatures(record, held, to: id)
        }
    }
}

/// Signatures that arrived before their record was written here, a bounded number of records' worth (the oldest
/// forgotten first): a member's record is written a moment before or after this node's.
struct PendingSignatures {
    static let limit = 64
    private var order: [String] = []
    private var byRecord: [String: [RecordSignature]] = [:]

    mutating func hold(_ signatures: [RecordSignature], for record: String) {
        guard !signatures.isEmpty else { return }
        if byRecord[record] == nil {
            order.append(record)
            if order.count > Self.limit { byRecord.removeValue(forKey: order.removeFirst()) }
        }
        byRecord[record] = Array(((byRecord[record] ?? []) + signatures).suffix(RecordLimits.maxSignatures))
    }

    mutating func take(_ record: String) -> [RecordSignature] {
        guard let held = byRecord.removeValue(forKey: record) else { return [] }
        order.removeAll { $0 == record }
        return held
    }
}

/// The last few record bodies decoded for their signatures. After a game every member sends its signatures to every
/// other as they come in, so one record's body is needed several times in a row; decoding it (a few KiB of JSON) each
/// time was most of what a signature's arrival cost. A record's id is the hash of its body, so a body kept under its
/// id is never stale.
struct RecentBodies {
    static let limit = 8
    private var bodies: [(id: String, body: RecordBody)] = []

    mutating func body(of id: String, _ held: RecordedGame) -> RecordBody? {
        if let kept = bodies.first(where: { $0.id == id }) { return kept.body }
        guard let body = try? held.decodedBody() else { return nil }
        bodies.append((id, body))
        if bodies.count > Self.limit { bodies.removeFirst() }
        return body
    }
}
