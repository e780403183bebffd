import TavoloCore

/// An escrow of member `owner`'s secret made by `actor`: the owner's own at seeding (`actor` = the owner), or a second
/// one by the heir acting for it (PROTOCOL.md §14.11), whose holders are the members that heir does not act for.
public struct SealedReEscrow: Sendable, Equatable {
    public var actor: Int
    public var pieces: [SealedEscrow.SealedPiece]

    public init(actor: Int, pieces: [SealedEscrow.SealedPiece]) {
        self.actor = actor
        self.pieces = pieces
    }
}

/// The second escrow (§14.11). An heir that recovered a leaver's secret holds the only copy of it, and a piece of its
/// own secret is sealed to the leaver: if the heir left in turn, its own heir would need each secret to open the
/// other's piece. So the heir splits each secret it recovered again, as at seeding, among the members it does not act
/// for; those members together (or their heirs) can then give the next heir that secret, and with it the piece of the
/// heir's own.
extension SealedTable {
    /// The members an heir acting for `actor`'s set holds no piece for: itself and every member it acts for.
    func secondHolders(of actor: Int) -> [Int] { (0..<members).filter { actors[$0] != actor } }

    /// The holders this node's second escrows go to now, and the secrets it recovered and acts for, by owner; nil when
    /// it makes none: fewer than three members, an observer, keys missing, or fewer than two holders (with one, that
    /// member would hold the secret whole).
    private func reEscrowPlan() -> (holders: [Int], secrets: [(owner: Int, secret: SealedMemberSecret)])? {
        guard members >= 3, !isObserver, hasAllKeys else { return nil }
        let holders = secondHolders(of: me)
        guard holders.count >= 2 else { return nil }
        let secrets = inherited.sorted { $0.key < $1.key }.filter { actors[$0.key] == me }
        return (holders, secrets.map { (owner: $0.key, secret: $0.value) })
    }

    /// `table.sealed-reescrow` for each secret this node recovered and acts for whose holders changed since it last
    /// split it (at first: never). The same bytes each time for the same holders: the pieces and their seals derive
    /// from the secret.
    public mutating func reEscrowMessages() -> [SealedMessage] {
        guard let plan = reEscrowPlan() else { return [] }
        var out: [SealedMessage] = []
        for (owner, secret) in plan.secrets where reEscrowedFor[owner] != plan.holders {
            reEscrowedFor[owner] = plan.holders
            out.append(reEscrow(secret, holders: plan.holders))
        }
        return out
    }

    /// Every second escrow this node would send now, for a member whose session comes back (§14.12).
    public func currentReEscrows() -> [SealedMessage] {
        guard let plan = reEscrowPlan() else { return [] }
        return plan.secrets.map { reEscrow($0.secret, holders: plan.holders) }
    }

    func reEscrow(_ secret: SealedMemberSecret, holders: [Int]) -> SealedMessage {
        let pieces = SealedEscrow.seal(secret, holders: holders, holderKeys: holders.compactMap { keys[$0] })
        return .reEscrow(table: context.tableId, member: secret.member, pieces: pieces)
    }

    /// A second escrow of member `owner`'s secret from member `actor`, which acts for `owner` here: one piece for each
    /// of two members or more, in member order, neither `owner` nor `actor` among them; each piece this node holds (for
    /// itself, or for a member whose secret it recovered) opens to its commitment. Kept once; at most one per holder set.
    /// `journaled`: taken again from this node's journal after a restart, where the heir that made it may have passed
    /// the secret on since.
    public mutating func acceptReEscrow(
        from actor: Int, of owner: Int, pieces: [SealedEscrow.SealedPiece], journaled: Bool = false
    ) throws(SealedFault) {
        guard members >= 3, (0..<members).contains(owner), (0..<members).contains(actor), actor != me, owner != me,
            journaled || actors[owner] == actor
        else { return }
        let holders = pieces.map(\.holder)
        let size = SealedMemberSecret.byteCount
        guard holders.count >= 2, zip(holders, holders.dropFirst()).allSatisfy({ $0 < $1 }),
            holders.allSatisfy({ (0..<members).contains($0) && $0 != owner && $0 != actor }),
            pieces.allSatisfy({ $0.sealed.count == size && $0.commitment.count == size })
        else {
            throw SealedFault(
                .badEscrow, member: actor, "a second escrow of member \(owner)'s secret with other holders")
        }
        let escrow = SealedReEscrow(actor: actor, pieces: pieces)
        var known = reEscrows[owner] ?? []
        // Holder sets only shrink as an heir inherits more: a few per secret at most.
        guard known.count < members else { return }
        if let same = known.first(where: { $0.pieces.map(\.holder) == holders }) {
            guard same == escrow else {
                throw SealedFault(.badEscrow, member: actor, "a second, different escrow of member \(owner)'s secret")
            }
            return
        }
        for sealed in pieces {
            guard let holder = actingSecret(sealed.holder) else { continue }
            guard SealedEscrow.open(sealed, owner: owner, holder: holder) != nil else {
                throw SealedFault(
                    .badEscrow, member: actor, "this node's piece of member \(owner)'s second escrow does not open")
            }
        }
        known.append(escrow)
        reEscrows[owner] = known
    }

    /// This node's pieces of the second escrows of member `owner`'s secret: one for each holder it acts for (§14.11).
    func reRelease(of owner: Int) -> SealedMessage? {
        var pieces: [SealedMessage.HolderPiece] = []
        for escrow in reEscrows[owner] ?? [] {
            for holder in actingSecrets where holder.member != owner {
                guard let sealed = escrow.pieces.first(where: { $0.holder == holder.member }),
                    let piece = SealedEscrow.open(sealed, owner: owner, holder: holder)
                else { continue }
                let p = SealedMessage.HolderPiece(holder: holder.member, piece: piece)
                if !pieces.contains(p) { pieces.append(p) }
            }
        }
        return pieces.isEmpty
            ? nil : .reRelease(table: context.tableId, member: owner, pieces: Array(pieces.prefix(16)))
    }

    /// The members whose secrets member `heir` acted for besides its own: those it acts for now, or, once its seats
    /// passed on, those it took along.
    public func inheritedBy(_ heir: Int) -> [Int] {
        carried[heir] ?? (0..<members).filter { $0 != heir && actors[$0] == heir }
    }

    /// Whether member `heir`'s seats may pass although it acts for members out before it (an heir out in turn): each
    /// of their secrets has a second escrow here whose holders leave out the heir and the members it acts for.
    /// At the heir's own copy (it left and follows the game): yes, it made them itself (and the others stop the table
    /// if they lack them).
    public func secondEscrowsCover(_ heir: Int) -> Bool {
        guard heir != me else { return true }
        let inheritedOwners = inheritedBy(heir)
        let excluded = Set(inheritedOwners + [heir])
        return inheritedOwners.allSatisfy { owner in
            (reEscrows[owner] ?? []).contains { escrow in escrow.pieces.allSatisfy { !excluded.contains($0.holder) } }
        }
    }
}
