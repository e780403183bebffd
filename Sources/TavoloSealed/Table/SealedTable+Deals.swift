/// Each deal's shuffles in member order and its openings (PROTOCOL.md §14.8 steps 2, 3 and 5): who shuffles next,
/// which shares this node owes, and the cards of its seats once every other member's share is in.
extension SealedTable {
    /// Shuffles and shares a member may send ahead of their turn, per deal: one shuffle each, a few share messages.
    static let maxEarlyShares = 64

    /// How far ahead of this node's deal a step or shares may come and be kept: a member back from a long absence
    /// gets every deal's again from each member (§14.12), Spirits!' three rounds included.
    public static let maxDealsAhead = 3

    /// A message of a deal further ahead than that: nobody is to blame (`behind`, no member); this node cannot follow
    /// and stops its own copy.
    static func dealsBehind(_ number: Int) -> SealedFault {
        SealedFault(
            .behind, member: nil,
            "deal \(number) came while this node was at deal \(number - maxDealsAhead - 1) or before")
    }

    /// Begins the deal the game is at, if it has not (the start, each Spirits! round): member 0 shuffles at once.
    /// Messages to send; none before every key is in, or while the game is over.
    public mutating func beginDealIfDue() throws(SealedFault) -> [SealedMessage] {
        let number = common.dealNumber
        guard hasAllKeys, common.turn != .terminal, number > deals.count else { return [] }
        let publicKeys = keys.compactMap { $0 }
        var view = SealedDealView(
            deal: SealedDeal(context: context, number: number, cards: cards, publicKeys: publicKeys))
        for placement in common.sealedDealtPositions() {
            if let seat = placement.seat {
                view.holders[placement.position] = seat
            } else {
                view.openPositions.insert(placement.position)
            }
        }
        deals.append(view)
        return try shuffleIfMyTurn()
    }

    /// Member `member`'s step of deal `deal`; kept until its turn when it comes early (before the step of the member
    /// before it, or before this node reached the deal).
    public mutating func acceptShuffle(from member: Int, deal number: Int, input: [UInt8], deck: [UInt8])
        throws(SealedFault) -> [SealedMessage]
    {
        guard (0..<members).contains(member), member != me else { return [] }
        // The same step twice is a copy: sent again when a session came back (§14.12), or a leaver's own and its
        // heir's, both made from its secret (§14.11).
        if number >= 1, number <= deals.count, deals[number - 1].deal.holdsStep(of: member, input: input, deck: deck) {
            return []
        }
        guard number <= deals.count + Self.maxDealsAhead else { throw Self.dealsBehind(number) }
        guard number >= max(1, deals.count) else {
            throw SealedFault(.badDeck, member: member, "a shuffle of deal \(number), which is not the next one")
        }
        let next = number <= deals.count ? deals[number - 1].deal.nextShuffler : 0
        guard let next, member >= next else {
            throw SealedFault(.badDeck, member: member, "a second shuffle of deal \(number)")
        }
        guard member == next, number <= deals.count else {
            var waiting = early[number, default: SealedEarlyMessages()]
            if let kept = waiting.shuffles[member] {
                guard kept.input == input, kept.deck == deck else {
                    throw SealedFault(.badDeck, member: member, "a second shuffle of deal \(number)")
                }
                return []
            }
            waiting.shuffles[member] = (input, deck)
            early[number] = waiting
            return []
        }
        try deals[number - 1].deal.acceptShuffle(from: member, input: input, deck: deck)
        return try shuffleIfMyTurn()
    }

    /// This node's step when its turn has come (after the early steps of members before it), and its shares once the
    /// deck is final.
    mutating func shuffleIfMyTurn() throws(SealedFault) -> [SealedMessage] {
        guard let d = deals.indices.last else { return [] }
        var out: [SealedMessage] = []
        while let next = deals[d].deal.nextShuffler {
            if let mine = actingSecret(next) {
                var (input, deck) = deals[d].deal.shuffle(with: mine)
                // A false shuffle that no live check can see: two cards swapped after the re-randomisation, so the
                // step is no longer the one σ makes (§14.10 step 2 names it).
                if cheats.contains(.falseShuffle), next == me, deck.count > 1 { deck.swapAt(0, 1) }
                let bytes = SealedDeck.encode(deck)
                try deals[d].deal.acceptShuffle(from: next, input: input, deck: bytes)
                out.append(signed(next, .shuffle(table: context.tableId, deal: d + 1, input: input, deck: bytes)))
            } else if actors[next] == me {
                return out  // an heir's step waits for the secret it recovers (§14.11)
            } else if let step = early[d + 1]?.shuffles.removeValue(forKey: next) {
                try deals[d].deal.acceptShuffle(from: next, input: step.input, deck: step.deck)
            } else {
                return out
            }
        }
        out += try dealShares(d)
        return out
    }

    /// The deck is final: this node's shares for every position dealt to a seat it does not own and every position
    /// open to everyone (§14.8 step 3), then the shares that waited for the deck.
    mutating func dealShares(_ d: Int) throws(SealedFault) -> [SealedMessage] {
        let view = deals[d]
        var out = try shareOut(d, positions: (Array(view.holders.keys) + view.openPositions).sorted())
        if cheats.contains(.falseShare), case .shares(let t, let deal, var list)? = out.first, !list.isEmpty {
            let s = list[0].share
            list[0].share = DecryptionShare(share: s.share + .generator, proof: s.proof)
            out[0] = .shares(table: t, deal: deal, shares: list)
        }
        let waiting = early.removeValue(forKey: d + 1)?.shares ?? []
        for item in waiting { try acceptShares(from: item.member, deal: d + 1, item.shares) }
        _ = try openKnown(d)
        return out
    }

    /// This node's shares for `positions` of deal `d + 1`, kept in its own deal too (a card opens with every member's).
    /// Each member's shares go out for the positions of seats not its own (an open position is everyone's), so an heir
    /// sends the leaver's for the cards of its own seats and its own for the leaver's (§14.11): nobody else holds
    /// the other share, so neither opens a card to anyone else.
    mutating func shareOut(_ d: Int, positions: [Int]) throws(SealedFault) -> [SealedMessage] {
        var out: [SealedMessage] = []
        for acting in actingSecrets {
            let view = deals[d]
            let owed = Set(positions).sorted().filter {
                view.openPositions.contains($0) || view.holders[$0].map { seatMembers[$0] != acting.member } == true
            }
            guard !owed.isEmpty else { continue }
            let made = deals[d].deal.shares(of: acting, positions: owed)
            try deals[d].deal.acceptShares(from: acting.member, made, verify: false)
            let list = made.map { SealedMessage.PositionShare(position: $0.position, share: $0.share) }
            out.append(signed(acting.member, .shares(table: context.tableId, deal: d + 1, shares: list)))
        }
        return out
    }

    /// A message of member `member`: as it is from this node's own, tagged with the member when sent as its heir.
    func signed(_ member: Int, _ message: SealedMessage) -> SealedMessage {
        member == me ? message : .acting(member: member, message)
    }

    /// Member `member`'s shares of deal `deal`. Those this node relies on (its seats' cards, the open ones) are checked
    /// now; the rest are kept. Returns whether this node learned a card (its game is then rebuilt).
    /// A relayed list (`relayed`: sent by a node that neither is the member nor acts for it, §14.12) is checked whole
    /// before anything is kept, and only for the deal under way: a relayer must not slip in a share that would later
    /// name the member it claims to be from.
    @discardableResult
    public mutating func acceptShares(
        from member: Int, deal number: Int, _ list: [SealedMessage.PositionShare], relayed: Bool = false
    ) throws(SealedFault) -> Bool {
        guard (0..<members).contains(member), member != me else { return false }
        // Shares of a deal this node has left behind: sent again when a session came back; nothing opens with them.
        if number >= 1, number < deals.count { return false }
        if relayed {
            guard number == deals.count, var deal = deals.last?.deal, deal.finalDeck != nil else { return false }
            try deal.acceptShares(from: member, list.map { ($0.position, $0.share) }, verify: true)
            deals[number - 1].deal = deal
            return try openKnown(number - 1)
        }
        guard number <= deals.count + Self.maxDealsAhead else { throw Self.dealsBehind(number) }
        guard number >= max(1, deals.count) else {
            throw SealedFault(.badShare, member: member, "shares of deal \(number), which is not the next one")
        }
        let d = number - 1
        guard number <= deals.count, deals[d].deal.finalDeck != nil else {
            var waiting = early[number, default: SealedEarlyMessages()]
            guard waiting.shares.count < Self.maxEarlyShares else {
                throw SealedFault(.badShare, member: member, "too many shares before the deck was final")
            }
            waiting.shares.append((member, list))
            early[number] = waiting
            return false
        }
        for item in list {
            let mine = deals[d].holders[item.position].map(owns(seat:)) ?? false
            let relied = mine || deals[d].openPositions.contains(item.position)
            try deals[d].deal.acceptShares(from: member, [(item.position, item.share)], verify: relied)
        }
        return try openKnown(d)
    }

    /// Opens every card of this node's seats and every open position whose shares are all in; true when one opened
    /// (and `local` was rebuilt with it; `common` too when a card opened to everyone).
    mutating func openKnown(_ d: Int) throws(SealedFault) -> Bool {
        var learned = false
        var learnedPublic = false
        for (p, seat) in deals[d].holders.sorted(by: { $0.key < $1.key })
        where owns(seat: seat) && deals[d].privateCards[p] == nil && deals[d].publicCards[p] == nil {
            if let card = try deals[d].deal.open(p, with: actingSecrets) {
                deals[d].privateCards[p] = card
                learned = true
            }
        }
        for p in deals[d].openPositions.sorted() where deals[d].publicCards[p] == nil {
            if let card = try deals[d].deal.open(p) {
                deals[d].publicCards[p] = card
                learnedPublic = true
            }
        }
        if cheats.contains(.peek) { peekAtOthers(d) }
        // A card only this node saw changes its own game, not the public one.
        if learnedPublic { try rebuildCommon() }
        if learned || learnedPublic { try rebuildLocal() }
        return learned || learnedPublic
    }

    /// Whether every card this node needs now is open: its seats' and the open positions of the current deal. Its seats
    /// move only then, and no move of the deal is applied before the open positions are known.
    /// An heir's inherited seat is ready only once it holds the leaver's secret: a card of that seat may be known
    /// already (opened to everyone by a move of the leaver the table did not take), but playing it needs the leaver's
    /// share (§14.11).
    public var isReady: Bool {
        guard let view = current, view.deal.finalDeck != nil else { return false }
        let mine = view.holders.filter { owns(seat: $0.value) }
        return mine.allSatisfy { view.knownCards[$0.key] != nil && actingSecret(seatMembers[$0.value]) != nil }
            && view.openPositions.allSatisfy {
                view.publicCards[$0] != nil
            }
    }

    /// `peek`: every card of another seat tried with the shares this node holds and its own key.
    mutating func peekAtOthers(_ d: Int) {
        guard let secret else { return }
        for (p, seat) in deals[d].holders where !owns(seat: seat) && deals[d].publicCards[p] == nil {
            var copy = deals[d].deal
            peekAttempts += 1
            if (try? copy.open(p, with: secret)) ?? nil != nil { peeked += 1 }
        }
    }
}
