import TavoloCore
import TavoloGames
import TavoloSealed
import XCTest

/// Whole sealed games between in-memory members (`SealedTableHarness`): every member ends on the same public state,
/// sees exactly its own seats' cards, and the audit verifies the deck; then each lie of the issue, caught and named.
final class SealedTableGameTests: XCTestCase {
    /// Plays one game and checks what every honest game must give.
    @discardableResult
    func playHonestly(_ game: String, seatMembers: [Int], seed: UInt64) throws -> SealedTableHarness {
        var h = try SealedTableHarness(game: game, seatMembers: seatMembers, seed: seed)
        h.run()
        let label = "\(game) \(seatMembers) seed \(seed)"
        for (j, m) in h.members.enumerated() {
            XCTAssertNil(m.fault, "\(label): member \(j) stopped: \(String(describing: m.fault))")
            XCTAssertEqual(m.table.common.turn, .terminal, "\(label): member \(j) did not reach the end")
            XCTAssertEqual(m.hashes, h.members[0].hashes, "\(label): member \(j)'s public states differ")
            XCTAssertTrue(m.table.hasEveryAudit, "\(label): member \(j) lacks an audit")
            let verdict = m.table.verdict()
            XCTAssertTrue(verdict.verified, "\(label): member \(j): \(verdict.faults)")
        }
        try checkEachSawOnlyItsOwn(h, label)
        return h
    }

    /// Every card a member saw privately is the card the audit opens there, at a position its seats held; and no
    /// member can open a card another member's seat still holds (one share, the owner's, is missing).
    func checkEachSawOnlyItsOwn(_ h: SealedTableHarness, _ label: String) throws {
        let first = h.members[0].table
        var secrets = h.members.map { Optional($0.table.secret!.seed) }
        secrets[0] = first.secret!.seed
        let truth = SealedAudit.run(secrets: secrets, deals: first.deals.map(\.deal))
        for (j, m) in h.members.enumerated() {
            for (d, view) in m.table.deals.enumerated() {
                let order = try XCTUnwrap(truth.orders[d], "\(label): deal \(d + 1) does not open")
                for (p, card) in view.knownCards {
                    XCTAssertEqual(card, order[p], "\(label): member \(j), deal \(d + 1)")
                }
                for (p, seat) in view.holders where !m.table.owns(seat: seat) {
                    var deal = view.deal
                    XCTAssertNil(try deal.open(p, with: m.table.secret!), "\(label): member \(j) opened position \(p)")
                    XCTAssertNil(view.privateCards[p], "\(label): member \(j) knows position \(p) of seat \(seat)")
                }
            }
        }
    }

    /// More seeds on demand (`TAVOLO_SEALED_SEEDS=N`): every player count of both games, N seeds each.
    func testManySeedsWhenAsked() throws {
        let count = ProcessInfo.processInfo.environment["TAVOLO_SEALED_SEEDS"].flatMap { UInt64($0) } ?? 0
        try XCTSkipIf(count == 0, "set TAVOLO_SEALED_SEEDS to play more seeds")
        for seed in 100..<(100 + count) {
            try playHonestly("briscola", seatMembers: Array(0..<Int(2 + seed % 4)), seed: seed)
            try playHonestly("spirits", seatMembers: Array(0..<Int(2 + seed % 5)), seed: seed)
            try playHonestly("spirits", seatMembers: [0, 1, 0, 2, 1], seed: seed)
        }
    }

    func testBriscolaForTwoThreeFourAndFivePlaysOutAndVerifies() throws {
        for seed: UInt64 in 1...3 {
            try playHonestly("briscola", seatMembers: [0, 1], seed: seed)
            try playHonestly("briscola", seatMembers: [0, 1, 2], seed: seed)
            try playHonestly("briscola", seatMembers: [0, 1, 2, 3], seed: seed)
        }
        try playHonestly("briscola", seatMembers: [0, 1, 2, 3, 4], seed: 4)
    }

    func testSpiritsForTwoToSixPlaysEveryRoundAndVerifies() throws {
        for players in 2...6 {
            let h = try playHonestly("spirits", seatMembers: Array(0..<players), seed: UInt64(players))
            XCTAssertEqual(
                h.members[0].table.deals.count, SpiritsState.rounds, "spirits for \(players): one deal a round")
        }
    }

    func testANodeWithSeveralSeatsSeesAllOfThemAndNoOthers() throws {
        try playHonestly("spirits", seatMembers: [0, 0, 1, 2], seed: 7)
        try playHonestly("briscola", seatMembers: [0, 1, 1], seed: 8)
    }

    // MARK: Lies

    func testAFalseShareOfADealIsCaughtByTheSeatItOpensAndNamesItsSender() throws {
        var h = try SealedTableHarness(game: "briscola", seatMembers: [0, 1, 2], seed: 11)
        h.cheat = { member, envelope in
            guard member == 2, case .sealed(.shares(let t, let deal, var list)) = envelope, !list.isEmpty else {
                return envelope
            }
            let s = list[0].share
            list[0].share = DecryptionShare(share: s.share + .generator, proof: s.proof)
            return .sealed(.shares(table: t, deal: deal, shares: list))
        }
        h.run()
        let faults = h.members.compactMap(\.fault)
        XCTAssertFalse(faults.isEmpty, "nobody caught the false share")
        for fault in faults { XCTAssertEqual(fault.member, 2, "\(fault)") }
        XCTAssertTrue(faults.contains { $0.code == .badShare }, "\(faults)")
    }

    func testACardPlayedFromAPositionThatHoldsAnotherCardNamesTheMover() throws {
        var h = try SealedTableHarness(game: "briscola", seatMembers: [0, 1], seed: 12)
        // Member 1 names the card of its first move but opens another position it holds, with a true share of it.
        h.opensAnotherCard = 1
        h.run()
        XCTAssertEqual(h.members[0].fault?.member, 1, "\(String(describing: h.members[0].fault))")
        XCTAssertEqual(h.members[0].fault?.code, .wrongCard)
    }

    func testAFalseShuffleIsNamedByTheAudit() throws {
        var h = try SealedTableHarness(game: "briscola", seatMembers: [0, 1, 2], seed: 13)
        // Member 1 swaps two cards after its shuffle: its step is a permutation of valid ciphertexts, so nobody can
        // tell live, but it is not the step its secret makes.
        h.members[1].table.cheats = [.falseShuffle]
        h.run()
        // The liar's own node trusts its own shuffle; every other member names it.
        for (j, m) in h.members.enumerated() where j != 1 {
            XCTAssertNil(m.fault, "member \(j): a swap is a valid shuffle live")
            let verdict = m.table.verdict()
            XCTAssertEqual(verdict.cheaters, [1], "member \(j): \(verdict.faults)")
            XCTAssertEqual(verdict.faults.first?.code, .badShuffle)
        }
    }

    func testAFleeWithALegalCardInHandIsNamedByTheAudit() throws {
        // Member 1 flees whenever the pile is open to follow and it could have followed: live nobody can tell.
        for seed: UInt64 in 20...30 {
            var h = try SealedTableHarness(game: "spirits", seatMembers: [0, 1, 2], seed: seed)
            var fled = false
            h.chooseMove = { member, move, game in
                // A flee the public rules take (the pile is open to follow, the card is in the hand) while the hand
                // holds a card that may follow.
                let flees = game.legalMoves().compactMap { m -> AnyGameMove? in
                    guard case .object(let o) = m.json, let card = o["play"] else { return nil }
                    return try? game.decodeMove(.object(["flee": card]))
                }
                guard member == 1, !fled,
                    let flee = flees.first(where: { f in
                        let trial = game.copy()
                        return (try? trial.apply(f)) != nil
                    })
                else { return move }
                fled = true
                return flee
            }
            h.run()
            guard fled else { continue }
            for (j, m) in h.members.enumerated() {
                XCTAssertNil(m.fault, "member \(j): a false flee is not seen live")
                let verdict = m.table.verdict()
                XCTAssertEqual(verdict.cheaters, [1], "member \(j): \(verdict.faults)")
                XCTAssertEqual(verdict.faults.first?.code, .falseFlee)
            }
            return
        }
        XCTFail("no seed gave member 1 a chance to flee falsely")
    }
}
