import TavoloCore

/// A member's secret kept among the others so the game outlives it (PROTOCOL.md §14.11): each member's escrow at
/// seeding, the pieces the others release to an heir when a leaver's seats pass, and the heir's first steps as the
/// leaver once it holds its secret. With two members there is no escrow.
extension SealedTable {
    /// `table.sealed-escrow`: this node's secret in pieces, each sealed to one other member; nil with two members or
    /// before every key is in.
    public var escrowMessage: SealedMessage? {
        guard members >= 3, hasAllKeys, let secret else { return nil }
        let holders = (0..<members).filter { $0 != me }
        let pieces = SealedEscrow.seal(secret, holders: holders, holderKeys: holders.compactMap { keys[$0] })
        return .escrow(table: context.tableId, pieces: pieces)
    }

    /// Member `member`'s escrow: one piece for each other member, in member order, and this node's opens to its
    /// commitment. A second, different one is refused.
    public mutating func acceptEscrow(from member: Int, pieces: [SealedEscrow.SealedPiece]) throws(SealedFault) {
        guard (0..<members).contains(member), member != me, members >= 3 else { return }
        let size = SealedMemberSecret.byteCount
        guard pieces.map(\.holder) == (0..<members).filter({ $0 != member }),
            pieces.allSatisfy({ $0.sealed.count == size && $0.commitment.count == size })
        else { throw SealedFault(.badEscrow, member: member, "not one piece for each other member, in order") }
        if let known = escrows[member] {
            guard known == pieces else { throw SealedFault(.badEscrow, member: member, "a second, different escrow") }
            return
        }
        // An observer holds no piece: it keeps the escrow to know it came (§14.8 step 1), and opens nothing.
        guard let secret else {
            escrows[member] = pieces
            return
        }
        guard let mine = pieces.first(where: { $0.holder == me }),
            SealedEscrow.open(mine, owner: member, holder: secret) != nil
        else { throw SealedFault(.badEscrow, member: member, "this node's piece does not open to its commitment") }
        escrows[member] = pieces
    }

    /// Whether every other member's escrow is in (always, with two members).
    public var hasEveryEscrow: Bool {
        members < 3 || (0..<members).allSatisfy { $0 == me || escrows[$0] != nil }
    }

    /// The members `member` acts for: itself, unless its seats passed, and those whose seats it inherited.
    public func actedFor(by member: Int) -> [Int] { (0..<members).filter { actors[$0] == member } }

    /// Member `leaver` is out (§9.12), and member `heir` acts for it from now on, and for every member it acted for as
    /// an heir (§14.11: an heir out in turn): named when the takeover is agreed, and again when its seats pass if the
    /// heir changed meanwhile. This node's part: as the heir, it opens its own pieces and recovers each secret once its
    /// pieces are in; as another member, it releases its pieces to the heir (the messages returned go to the heir's node
    /// only): of each first escrow (`table.sealed-release`) and of each second one (`table.sealed-rerelease`).
    /// With two members, the leaver's secret came with its forfeit (its audit, §14.11): the heir takes it as it is.
    public mutating func pass(_ leaver: Int, to heir: Int) throws(SealedFault) -> [SealedMessage] {
        guard (0..<members).contains(leaver), (0..<members).contains(heir), leaver != heir, actors[leaver] != heir
        else { return [] }
        if members < 3 {
            // An observer (a seatless host) takes the steps and shares the heir sends as the leaver from now on.
            if isObserver { actors[leaver] = heir }
            guard heir == me, let seed = auditSecrets[leaver] else { return [] }
            let secret = SealedMemberSecret(seed: seed, context: context, member: leaver)
            guard secret.publicKey == keys[leaver] else {
                throw SealedFault(.badSecret, member: leaver, "the secret it left with does not derive its key")
            }
            actors[leaver] = heir
            inherited[leaver] = secret
            return try shuffleIfMyTurn()
        }
        // What it acted for goes along; named again (another heir at the seats' passing), what it took along moves too.
        let along = (0..<members).filter { o in
            o != leaver
                && (actors[o] == leaver || (carried[leaver]?.contains(o) == true && actors[o] == actors[leaver]))
        }
        let owners = [leaver] + along
        if !along.isEmpty { carried[leaver] = along }
        for owner in owners { actors[owner] = heir }
        if heir == me { return try recoverInherited() }
        guard !owners.contains(me) else { return [] }
        return owners.flatMap { owner in [release(of: owner), reRelease(of: owner)].compactMap { $0 } }
    }

    /// A restarted member's table (§14.12): member `leaver`'s seats passed to `heir` before the restart, as `pass`
    /// named them (with the members the leaver acted for). Nothing goes out again: this node released its pieces then.
    /// An heir here takes each moved member's secret from its journal (`secrets`, by member), which must derive that
    /// member's key.
    public mutating func resumePass(_ leaver: Int, to heir: Int, secrets: [Int: [UInt8]]) throws(SealedFault) {
        guard (0..<members).contains(leaver), (0..<members).contains(heir), leaver != heir else { return }
        let owners = [leaver] + (0..<members).filter { $0 != leaver && actors[$0] == leaver }
        if owners.count > 1 { carried[leaver] = Array(owners.dropFirst()) }
        for owner in owners { actors[owner] = heir }
        guard heir == me else { return }
        for owner in owners {
            guard let seed = secrets[owner], seed.count == SealedMemberSecret.byteCount else { continue }
            let secret = SealedMemberSecret(seed: seed, context: context, member: owner)
            guard secret.publicKey == keys[owner] else {
                throw SealedFault(.badSecret, member: owner, "the journaled secret does not derive its key")
            }
            inherited[owner] = secret
        }
    }

    /// This node's pieces of member `owner`'s secret: one for each member it acts for but `owner`.
    func release(of owner: Int) -> SealedMessage? {
        guard let escrow = escrows[owner] else { return nil }
        let pieces = actingSecrets.filter { $0.member != owner }.compactMap { holder -> SealedMessage.HolderPiece? in
            guard let sealed = escrow.first(where: { $0.holder == holder.member }),
                let piece = SealedEscrow.open(sealed, owner: owner, holder: holder)
            else { return nil }
            return SealedMessage.HolderPiece(holder: holder.member, piece: piece)
        }
        return pieces.isEmpty ? nil : .release(table: context.tableId, member: owner, pieces: pieces)
    }

    /// Whether member `owner`'s secret is one this node, its heir, still waits for.
    public func awaitsSecret(of owner: Int) -> Bool {
        (0..<members).contains(owner) && owner != me && actors[owner] == me && inherited[owner] == nil
    }

    /// Every escrow of member `owner`'s secret this node holds, each with the member that made it: the owner's own,
    /// then the second ones its heirs made (§14.11).
    func escrowsOf(_ owner: Int) -> [SealedReEscrow] {
        (escrows[owner].map { [SealedReEscrow(actor: owner, pieces: $0)] } ?? []) + (reEscrows[owner] ?? [])
    }

    /// The holders of an escrow of `owner`'s secret whose pieces this node, as its heir, still lacks: neither released to
    /// it nor sealed to a member whose secret it holds.
    func missingHolders(_ escrow: SealedReEscrow, of owner: Int) -> [Int] {
        escrow.pieces.filter { sealed in
            released[owner]?[sealed.commitment] == nil && actingSecret(sealed.holder) == nil
        }.map(\.holder)
    }

    /// The secrets this node awaits as an heir that can never come: for each, every escrow lacks a piece held by a member
    /// whose own secret it also awaits (two members out together, each holding a piece of the other's, §14.11).
    /// Empty while a piece may still come from a member still there.
    public var unrecoverable: [Int] {
        let awaited = (0..<members).filter(awaitsSecret(of:))
        for owner in awaited {
            for escrow in escrowsOf(owner) {
                let missing = missingHolders(escrow, of: owner)
                if missing.isEmpty || !missing.allSatisfy(awaited.contains) { return [] }
            }
        }
        return awaited
    }

    /// Member `member`'s pieces of member `owner`'s secret, at its heir: each must be a piece committed to for its
    /// holder in one of the escrows of that secret, whoever sends it (the commitment binds it; a member voted out still
    /// holds its own piece). The messages this node then sends as the heir, once it holds the secret.
    public mutating func acceptRelease(
        from member: Int, of owner: Int, pieces: [SealedMessage.HolderPiece]
    ) throws(SealedFault) -> [SealedMessage] {
        guard awaitsSecret(of: owner) else { return [] }
        let escrows = escrowsOf(owner)
        guard !escrows.isEmpty else { return [] }
        for p in pieces {
            let commitment = SealedEscrow.commitment(context: context, owner: owner, holder: p.holder, piece: p.piece)
            guard
                escrows.contains(where: { $0.pieces.contains { $0.holder == p.holder && $0.commitment == commitment } })
            else {
                throw SealedFault(.badEscrow, member: member, "a piece of member \(owner)'s secret not as committed")
            }
            released[owner, default: [:]][commitment] = p.piece
        }
        return try recoverInherited()
    }

    /// Recovers every secret this node awaits for which some escrow's pieces are all here (its own opened from the
    /// escrow, and those sealed to a member whose secret it recovered meanwhile: one secret may open the way to the
    /// next), and then acts as the leavers: its shuffle when the deal waits for it, its shares of the deal's cards, the
    /// leavers' seats' cards opened. A secret an escrow's pieces do not give names the escrow's maker: it lied.
    mutating func recoverInherited() throws(SealedFault) -> [SealedMessage] {
        var recovered = false
        var progress = true
        while progress {
            progress = false
            for owner in 0..<members where awaitsSecret(of: owner) {
                guard let key = keys[owner] else { continue }
                for escrow in escrowsOf(owner) where missingHolders(escrow, of: owner).isEmpty {
                    let pieces = escrow.pieces.compactMap { sealed in
                        released[owner]?[sealed.commitment]
                            ?? actingSecret(sealed.holder).flatMap {
                                SealedEscrow.open(sealed, owner: owner, holder: $0)
                            }
                    }
                    guard pieces.count == escrow.pieces.count,
                        let secret = SealedEscrow.recover(
                            pieces: pieces, context: context, member: owner, publicKey: key)
                    else {
                        throw SealedFault(
                            .badEscrow, member: escrow.actor, "its escrow's pieces do not give member \(owner)'s secret"
                        )
                    }
                    inherited[owner] = secret
                    released[owner] = nil
                    (recovered, progress) = (true, true)
                    break
                }
            }
        }
        // Its shuffle if the deal waits for it, else (the deck final) the deal's shares again, the leaver's among them:
        // copies of those it sent already are the same bytes (§14.6's nonce is derived), and a receiver keeps one.
        return recovered ? try shuffleIfMyTurn() : []
    }
}
