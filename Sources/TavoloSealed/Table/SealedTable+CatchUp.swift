import TavoloCore

/// A member that missed moves (cut off, restarted) takes them in a catch-up (§9.11); at a sealed table it needs
/// their cards' openings and the shares of the cards in play, which the member that sent them may no longer be there
/// to send (PROTOCOL.md §14.12). Every relayed share carries its proof; no shuffle is relayed (it carries none).
extension SealedTable {
    /// For the card moves from `first` on (of any deal), their openings; then, for each deal they play in and the deal
    /// under way, every share this node holds of that deal's cards in play (played from `first` on, held, open), as
    /// one `table.sealed-shares` per member carrying the member.
    public func relay(movesFrom first: Int) -> [SealedMessage] {
        let window = playedCards.filter { $0.key >= first }.sorted { $0.key < $1.key }
        var out: [SealedMessage] = window.compactMap { number, card in
            let d = card.deal - 1
            guard deals.indices.contains(d), let deck = deals[d].deal.finalDeck else { return nil }
            let share =
                deals[d].deal.shares[card.position]?[card.mover]
                ?? actingSecret(card.mover).map {
                    DecryptionShare.make(secret: $0, deal: d + 1, position: card.position, card: deck[card.position])
                }
            guard let share else { return nil }
            return .open(table: context.tableId, deal: d + 1, number: number, position: card.position, share: share)
        }
        // Shares of each deal the window plays in, and of the deal under way: the receiver keeps its own deal's.
        for d in Set(window.map { $0.value.deal - 1 } + [deals.count - 1]).sorted() where deals.indices.contains(d) {
            let view = deals[d]
            let played = window.filter { $0.value.deal == d + 1 }.map(\.value.position)
            let positions = Set(played).union(view.holders.keys).union(view.openPositions).sorted()
            for member in 0..<members {
                let list = positions.compactMap { p in
                    view.deal.shares[p]?[member].map { SealedMessage.PositionShare(position: p, share: $0) }
                }
                if !list.isEmpty {
                    out.append(.acting(member: member, .shares(table: context.tableId, deal: d + 1, shares: list)))
                }
            }
        }
        return out
    }
}

extension SealedTable {
    /// What this node said of every deal, for a member whose session came back: the steps and shares of every member
    /// it acts for, each as it was sent (a receiver keeps one copy of each, and ignores a deal it has left behind).
    /// A member behind by deals needs them all; shares a node sent as an heir carry the member.
    public func ownMessagesOfEveryDeal() -> [SealedMessage] {
        var out: [SealedMessage] = []
        for d in deals.indices {
            let deal = deals[d].deal
            for acting in actingSecrets where deal.steps.indices.contains(acting.member) {
                let m = acting.member
                let input = SealedDeck.hash(m == 0 ? SealedDeck.initial(deal.cards) : deal.steps[m - 1])
                out.append(
                    signed(
                        m,
                        .shuffle(
                            table: context.tableId, deal: d + 1, input: input,
                            deck: SealedDeck.encode(deal.steps[m]))))
            }
            for acting in actingSecrets {
                let list = deal.shares.keys.sorted().compactMap { p in
                    deal.shares[p]?[acting.member].map { SealedMessage.PositionShare(position: p, share: $0) }
                }
                if !list.isEmpty {
                    out.append(signed(acting.member, .shares(table: context.tableId, deal: d + 1, shares: list)))
                }
            }
        }
        return out
    }
}

extension SealedTable {
    /// Every deal's steps and shares `old` held from members this node does not act for, taken again as they came, and
    /// the messages kept for later, the audits and released pieces: a node that begins its sealed game again (moves
    /// played apart dropped, §14.12) keeps what the members sent it, which nobody sends again. The messages this node
    /// then sends (its own steps, made again from σ).
    public mutating func takeDeals(of old: SealedTable) throws(SealedFault) -> [SealedMessage] {
        var out: [SealedMessage] = []
        for d in old.deals.indices {
            let deal = old.deals[d].deal
            for m in deal.steps.indices where actingSecret(m) == nil {
                let input = SealedDeck.hash(m == 0 ? SealedDeck.initial(deal.cards) : deal.steps[m - 1])
                out += try acceptShuffle(from: m, deal: d + 1, input: input, deck: SealedDeck.encode(deal.steps[m]))
            }
            for m in 0..<members where actingSecret(m) == nil {
                let list = deal.shares.keys.sorted().compactMap { p in
                    deal.shares[p]?[m].map { SealedMessage.PositionShare(position: p, share: $0) }
                }
                if !list.isEmpty { _ = try acceptShares(from: m, deal: d + 1, list) }
            }
        }
        // What came for later deals, the audits and the pieces released to this node as an heir: sent once each.
        for (d, waiting) in old.early where early[d] == nil { early[d] = waiting }
        for (m, secret) in old.auditSecrets where auditSecrets[m] == nil { auditSecrets[m] = secret }
        for (owner, list) in old.reEscrows where reEscrows[owner] == nil { reEscrows[owner] = list }
        reEscrowedFor = old.reEscrowedFor
        carried = old.carried
        for (owner, pieces) in old.released where awaitsSecret(of: owner) {
            released[owner, default: [:]].merge(pieces) { kept, _ in kept }
        }
        return out + (try recoverInherited())
    }
}
