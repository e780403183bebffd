import TavoloSealed
import XCTest

/// Several nodes, each with its own `SealedDeal`, passing one another the messages of §14.8 in order: an honest
/// deal, then each lie the issue names, caught live or at the audit and pinned on the liar.
final class SealedDealFlowTests: XCTestCase {
    let table = SealedContext(tableId: "5eed0001-3-4")
    let cards = SealedCardPoints(count: 40)

    struct Table {
        var secrets: [SealedMemberSecret]
        var nodes: [SealedDeal]
        /// Hand positions of member j: j, j + m, j + 2m (three cards each, as Briscola deals).
        func hand(_ j: Int) -> [Int] { (0..<3).map { j + $0 * secrets.count } }
    }

    func makeTable(members m: Int) -> Table {
        let secrets = (0..<m).map { j in
            SealedMemberSecret(seed: [UInt8](repeating: UInt8(0x30 + j), count: 32), context: table, member: j)
        }
        let node = SealedDeal(context: table, number: 1, cards: cards, publicKeys: secrets.map(\.publicKey))
        return Table(secrets: secrets, nodes: Array(repeating: node, count: m))
    }

    /// Every member shuffles in turn; `cheat` replaces a member's output before it is sent.
    func shuffleAll(_ t: inout Table, cheat: (Int, [SealedCiphertext]) -> [SealedCiphertext] = { $1 }) throws {
        for j in 0..<t.secrets.count {
            let (input, deck) = t.nodes[j].shuffle(with: t.secrets[j])
            let sent = SealedDeck.encode(cheat(j, deck))
            for n in t.nodes.indices { try t.nodes[n].acceptShuffle(from: j, input: input, deck: sent) }
        }
    }

    /// Every member sends its shares of every other member's hand to everyone, and keeps them itself as it keeps
    /// anyone's (it needs them to open a card when it is played).
    func shareHands(_ t: inout Table) throws {
        let m = t.secrets.count
        for j in 0..<m {
            let mine = t.nodes[j].shares(of: t.secrets[j], positions: (0..<m).filter { $0 != j }.flatMap(t.hand))
            for n in 0..<m { try t.nodes[n].acceptShares(from: j, mine) }
        }
    }

    func testAnHonestDealOpensEachHandToItsOwnerOnlyAndTheAuditAgrees() throws {
        var t = makeTable(members: 3)
        try shuffleAll(&t)
        try shareHands(&t)
        var hands: [[Int]] = []
        for j in 0..<3 {
            hands.append(try t.hand(j).map { try XCTUnwrap(try t.nodes[j].open($0, with: t.secrets[j])) })
            for other in 0..<3 where other != j {
                for p in t.hand(other) {
                    XCTAssertNil(try t.nodes[j].open(p), "member \(j) read member \(other)'s card")
                }
            }
        }
        XCTAssertEqual(Set(hands.joined()).count, 9)
        // Member 0 plays its first card: everyone sees it, and it is the card its owner was dealt.
        let p = t.hand(0)[0]
        let share = t.nodes[0].shares(of: t.secrets[0], positions: [p])[0].share
        for n in 1..<3 { try t.nodes[n].acceptPlay(from: 0, position: p, card: hands[0][0], share: share) }
        let audit = SealedAudit.run(secrets: t.secrets.map(\.seed), deals: t.nodes)
        XCTAssertTrue(audit.verified, "\(audit.faults)")
        XCTAssertEqual(audit.orders.first??.count, 40)
        for j in 0..<3 { XCTAssertEqual(t.hand(j).map { audit.orders[0]?[$0] }, hands[j]) }
    }

    func testAWrongShareIsRefusedAndNamesItsSender() throws {
        var t = makeTable(members: 3)
        try shuffleAll(&t)
        var shares = t.nodes[2].shares(of: t.secrets[2], positions: t.hand(0))
        shares[1] = (
            shares[1].position, DecryptionShare(share: shares[1].share.share + .generator, proof: shares[1].share.proof)
        )
        XCTAssertThrowsError(try t.nodes[0].acceptShares(from: 2, shares)) { error in
            XCTAssertEqual(
                error as? SealedFault, SealedFault(.badShare, member: 2, "share for position 3 does not verify"))
        }
    }

    func testACardNotDealtToTheSeatIsCaughtAsItIsPlayed() throws {
        var t = makeTable(members: 3)
        try shuffleAll(&t)
        try shareHands(&t)
        let mine = try t.hand(1).map { try XCTUnwrap(try t.nodes[1].open($0, with: t.secrets[1])) }
        let wanted = try XCTUnwrap((0..<40).first { !mine.contains($0) })
        let p = t.hand(1)[0]
        let share = t.nodes[1].shares(of: t.secrets[1], positions: [p])[0].share
        XCTAssertThrowsError(try t.nodes[0].acceptPlay(from: 1, position: p, card: wanted, share: share)) { error in
            XCTAssertEqual((error as? SealedFault)?.code, .wrongCard)
            XCTAssertEqual((error as? SealedFault)?.member, 1)
        }
        // The same lie with a share forged for the card it wants: the proof fails, and names it too.
        let forged = DecryptionShare(
            share: t.nodes[0].finalDeck![p].b - SealedCardPoints.point(card: wanted), proof: share.proof)
        XCTAssertThrowsError(try t.nodes[2].acceptPlay(from: 1, position: p, card: wanted, share: forged)) { error in
            XCTAssertEqual((error as? SealedFault)?.code, .wrongCard)
            XCTAssertEqual((error as? SealedFault)?.member, 1)
        }
    }

    /// Node 0 keeps the shares of member 1's cards unchecked (it relies on none of them). A plainly false one from
    /// member 2 makes member 1's card fail to open when played: node 0 then checks them and names member 2, not the
    /// honest mover.
    func testAFalseShareKeptUncheckedIsNamedWhenItsCardFailsToOpen() throws {
        var t = makeTable(members: 3)
        try shuffleAll(&t)
        let p = t.hand(1)[0]
        try t.nodes[0].acceptShares(from: 0, t.nodes[0].shares(of: t.secrets[0], positions: [p]), verify: false)
        let honest = t.nodes[2].shares(of: t.secrets[2], positions: [p])[0].share
        let bent = DecryptionShare(share: honest.share + .generator, proof: honest.proof)
        try t.nodes[0].acceptShares(from: 2, [(p, bent)], verify: false)
        try t.nodes[1].acceptShares(from: 2, [(p, honest)])
        try t.nodes[1].acceptShares(from: 0, t.nodes[0].shares(of: t.secrets[0], positions: [p]))
        let card = try XCTUnwrap(try t.nodes[1].open(p, with: t.secrets[1]))
        let own = t.nodes[1].shares(of: t.secrets[1], positions: [p])[0].share
        XCTAssertThrowsError(try t.nodes[0].acceptPlay(from: 1, position: p, card: card, share: own)) { error in
            XCTAssertEqual((error as? SealedFault)?.code, .badShare)
            XCTAssertEqual((error as? SealedFault)?.member, 2)
        }
    }

    /// Members 1 and 2 collude: 2's share of 1's card is off by exactly what turns it into a card 1 wants, so the
    /// play opens to the claim at node 0, which checked only the mover's proof. The audit checks every share kept.
    func testACollusionThroughAnUncheckedShareIsNamedAtTheAudit() throws {
        var t = makeTable(members: 3)
        try shuffleAll(&t)
        try shareHands(&t)
        let p = t.hand(1)[0]
        let real = try XCTUnwrap(try t.nodes[1].open(p, with: t.secrets[1]))
        let held = Set(try t.hand(1).map { try XCTUnwrap(try t.nodes[1].open($0, with: t.secrets[1])) })
        let wanted = try XCTUnwrap((0..<40).first { !held.contains($0) })
        var liar = makeTable(members: 3)
        try shuffleAll(&liar)
        let honest = t.nodes[2].shares(of: t.secrets[2], positions: [p])[0].share
        let offset = SealedCardPoints.point(card: real) - SealedCardPoints.point(card: wanted)
        let forged = DecryptionShare(share: honest.share + offset, proof: honest.proof)
        try liar.nodes[0].acceptShares(from: 0, liar.nodes[0].shares(of: t.secrets[0], positions: [p]), verify: false)
        try liar.nodes[0].acceptShares(from: 2, [(p, forged)], verify: false)
        let own = liar.nodes[1].shares(of: t.secrets[1], positions: [p])[0].share
        try liar.nodes[0].acceptPlay(from: 1, position: p, card: wanted, share: own)
        let audit = SealedAudit.run(secrets: t.secrets.map(\.seed), deals: [liar.nodes[0]])
        XCTAssertEqual(audit.faults.map(\.code), [.badShare])
        XCTAssertEqual(audit.cheaters, [2])
    }

    func testAShuffleOutOfTurnOrOnAnotherDeckNamesItsSender() throws {
        var t = makeTable(members: 3)
        let (input, deck) = t.nodes[1].shuffle(with: t.secrets[1])
        XCTAssertThrowsError(try t.nodes[0].acceptShuffle(from: 1, input: input, deck: SealedDeck.encode(deck))) {
            XCTAssertEqual(($0 as? SealedFault)?.member, 1)
        }
        let (input0, deck0) = t.nodes[0].shuffle(with: t.secrets[0])
        try t.nodes[2].acceptShuffle(from: 0, input: input0, deck: SealedDeck.encode(deck0))
        XCTAssertThrowsError(try t.nodes[2].acceptShuffle(from: 1, input: input, deck: SealedDeck.encode(deck))) {
            XCTAssertEqual(
                $0 as? SealedFault, SealedFault(.badDeck, member: 1, "shuffled another deck than the one before it"))
        }
    }

    /// The last shuffler stacks the deck: it replaces the first cards by ones it sealed itself, so it knows them.
    /// Nothing shows at the deal; the audit recomputes its shuffle from its secret and names it.
    func testAStackedDeckIsNamedAtTheAudit() throws {
        var t = makeTable(members: 3)
        let jointKey = t.nodes[0].jointKey
        try shuffleAll(&t) { j, deck in
            guard j == 2 else { return deck }
            var stacked = deck
            for p in 0..<3 {
                stacked[p] = SealedCiphertext.open(self.cards.points[p]).rerandomised(by: .one, jointKey: jointKey)
            }
            return stacked
        }
        let audit = SealedAudit.run(secrets: t.secrets.map(\.seed), deals: t.nodes)
        XCTAssertEqual(audit.cheaters, [2])
        XCTAssertEqual(audit.faults.first?.code, .badShuffle)
        XCTAssertNil(audit.orders[0] ?? nil, "three cards are now twice in the deck")
    }

    /// A middle member swaps two cards after its shuffle. The audit's fast path (every card followed through every
    /// step) sees a difference and gives up; each step is then replayed on its own input, so only the liar is named,
    /// not the honest member after it whose input was the false deck. Its own audit, trusting itself, names it too.
    func testAFalseShuffleInTheMiddleNamesOnlyItsMember() throws {
        var t = makeTable(members: 3)
        try shuffleAll(&t) { j, deck in j == 1 ? [deck[1], deck[0]] + deck.dropFirst(2) : deck }
        for me in [nil, 0, 2] {
            let audit = SealedAudit.run(secrets: t.secrets.map(\.seed), deals: t.nodes, trusting: me)
            XCTAssertEqual(audit.faults.map(\.code), [.badShuffle], "auditing as \(String(describing: me))")
            XCTAssertEqual(audit.cheaters, [1])
            XCTAssertEqual(audit.orders[0]?.count, 40, "a swap keeps every card once")
        }
        var honest = makeTable(members: 3)
        try shuffleAll(&honest)
        let orders = SealedAudit.run(secrets: honest.secrets.map(\.seed), deals: honest.nodes).orders
        XCTAssertEqual(
            SealedAudit.run(secrets: honest.secrets.map(\.seed), deals: honest.nodes, trusting: 1).orders, orders)
    }

    func testAFalseOrMissingSecretIsNamedAtTheAudit() throws {
        var t = makeTable(members: 3)
        try shuffleAll(&t)
        var secrets: [[UInt8]?] = t.secrets.map(\.seed)
        secrets[0] = [UInt8](repeating: 0x77, count: 32)
        secrets[2] = nil
        let audit = SealedAudit.run(secrets: secrets, deals: t.nodes)
        XCTAssertEqual(audit.faults.map(\.code), [.badSecret, .noAudit])
        XCTAssertEqual(audit.cheaters, [0, 2])
    }

    /// Briscola with three players: 39 cards, card 1 left out, and a point outside the deck reads as no card.
    func testADeckOfChosenCardNumbersOpensToThoseNumbers() throws {
        let deck = SealedCardPoints(numbers: [0] + Array(2..<40))
        XCTAssertEqual(deck.count, 39)
        XCTAssertNil(deck.card(of: SealedCardPoints.point(card: 1)))
        XCTAssertEqual(deck.card(of: SealedCardPoints.point(card: 39)), 39)
    }
}
