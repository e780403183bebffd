import Foundation
import TavoloCore
import TavoloProtocol

/// The summary sent to every peer after new records are stored (§11.3 step 1), and the peers it can leave out.
///
/// After a game every member stores the same record, signed by every seat owner; a summary to a member then tells it
/// nothing it lacks, yet it cost each node up to 256 digests per peer per game (about 5 KB once a store holds a few
/// hundred records: more than the game's own moves). A peer that signed every record an announcement is about holds
/// them (a node signs only the record it stored), so it is left out, when every signer is connected here. What it may
/// lack is a signature: a signer lost right after the game may have sent its own to this node and not to that peer.
/// So while `skipWindow` lasts, a signer lost here has the peers left out told after all.
extension RecordSync {
    /// How long after an announcement that left peers out a signer's loss still has them told.
    static let skipWindow: Duration = .seconds(60)
    /// Announcements that left peers out, remembered at most.
    static let maxSkipped = 64

    /// Records were stored here (a game this node played, records or signatures from a peer): the peers are told
    /// once the burst is over (a batch of games ends close together). `ids`, when given, are the records stored
    /// or completed; without them every peer is told.
    public func recordsAdded(_ ids: [String]? = nil) {
        if let ids { announcing.ids.formUnion(ids) } else { announcing.everyPeer = true }
        guard announceTask == nil else { return }
        announceTask = Task {
            try? await Task.sleep(for: .seconds(1))
            self.announce()
        }
    }

    func announce() {
        announceTask = nil
        let pending = announcing
        announcing = PendingAnnouncement()
        guard !pending.everyPeer, let signed = try? store.verified(Array(pending.ids)) else {
            for id in peers.keys { sendSummary(to: id) }
            return
        }
        // A summary covers signed records only (step 6): one still waiting for a signature changes nothing in it.
        guard !signed.isEmpty else { return }
        let signers = signed.map { id in Set(((try? store.signatures(of: id)) ?? []).map(\.node)) }
        let allSigners = signers.reduce(into: Set<String>()) { $0.formUnion($1) }
        let everySignerHere = allSigners.allSatisfy { node in
            node == signer?.node || NodeID(hex: node).map { peers[$0] != nil } == true
        }
        var left = Set<NodeID>()
        for id in peers.keys {
            if everySignerHere && signers.allSatisfy({ $0.contains(id.hex) }) {
                left.insert(id)
            } else {
                sendSummary(to: id)
            }
        }
        guard !left.isEmpty else { return }
        skipped.removeAll { ContinuousClock.now - $0.at > Self.skipWindow }
        skipped.append(SkippedAnnouncement(at: .now, signers: allSigners, peers: left))
        if skipped.count > Self.maxSkipped { skipped.removeFirst() }
    }

    /// A peer was lost: the peers an announcement left out because it signed are told now if it was a signer.
    func signerLost(_ id: NodeID) {
        skipped.removeAll { ContinuousClock.now - $0.at > Self.skipWindow }
        var told = Set<NodeID>()
        skipped.removeAll { entry in
            guard entry.signers.contains(id.hex) else { return false }
            told.formUnion(entry.peers)
            return true
        }
        for peer in told where peers[peer] != nil { sendSummary(to: peer) }
    }

    func sendSummary(to id: NodeID) {
        guard let buckets = try? store.bucketDigests() else { return }
        send(.summary(count: store.verifiedCount, buckets: buckets), id)
    }
}

/// What the next announcement is about (`RecordSync.recordsAdded`).
struct PendingAnnouncement {
    var ids = Set<String>()
    /// A caller that did not say which records: every peer is told.
    var everyPeer = false
}

/// An announcement that left `peers` out: they signed every record in it, whose signers were `signers`.
struct SkippedAnnouncement {
    var at: ContinuousClock.Instant
    var signers: Set<String>
    var peers: Set<NodeID>
}
