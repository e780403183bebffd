import TavoloCore
import XCTest

@testable import TavoloGames

/// The generic random-playout test for Briscola, plus its own invariants and the bots' fairness checks.
final class BriscolaPlayoutTests: XCTestCase {
    static func checkInvariants(_ s: BriscolaState) {
        var seen = CardSet()
        var total = 0
        func add(_ set: CardSet, _ what: String) {
            XCTAssertTrue((seen & set).isEmpty, "\(what) overlaps other cards")
            seen = seen | set
            total += set.count
        }
        for h in s.hands { add(h, "hand") }
        for c in s.captured { add(c, "captured") }
        add(CardSet(s.table), "table")
        add(CardSet((0..<s.pileCount).map { s.pileCard(s.drawn + $0) }), "pile")
        let deck = BriscolaState.deck(players: s.playerCount)
        XCTAssertEqual(total, deck.count, "all \(deck.count) cards accounted for once")
        XCTAssertEqual(seen, CardSet(deck))
        XCTAssertEqual(s.pileCount % s.playerCount, 0)
        let played = s.table.count
        for seat in 0..<s.playerCount {
            // Seats that already played to this trick hold one card fewer.
            let offset = (seat - s.leader + s.playerCount) % s.playerCount
            let dealt = BriscolaState.dealSize(players: s.playerCount)
            let expected = min(dealt, (deck.count - s.captured.reduce(0) { $0 + $1.count }) / s.playerCount)
            XCTAssertEqual(s.hands[seat].count, expected - (offset < played ? 1 : 0), "hand size of seat \(seat)")
        }
        XCTAssertEqual(s.captured.reduce(0) { $0 + $1.count } % s.playerCount, 0)
        if let o = s.outcome {
            XCTAssertEqual(s.capturedPoints.reduce(0, +), 120, "points total 120 at the end")
            XCTAssertTrue(s.hands.allSatisfy(\.isEmpty))
            XCTAssertEqual(o.scores, s.sidePoints)
            XCTAssertEqual(Self.sideTotal(s, o), 120)
        }
        if let c = s.chiamata { checkChiamata(s, c) }
    }

    /// The points of one seat per side, added: 120 for every player count.
    static func sideTotal(_ s: BriscolaState, _ o: GameOutcome) -> Int {
        switch s.playerCount {
        case 4: return o.scores[0] + o.scores[1]
        case 5:
            guard let d = s.chiamata?.declarer, let defender = (0..<5).first(where: { !s.sameSide($0, d) }) else {
                return o.scores.reduce(0, +)
            }
            return o.scores[d] + o.scores[defender]
        default: return o.scores.reduce(0, +)
        }
    }

    /// Chiamata: the call fixes trump and the partner (the holder of the called card, or the seat that played it).
    static func checkChiamata(_ s: BriscolaState, _ c: ChiamataPart) {
        XCTAssertNil(s.trumpCard)
        XCTAssertEqual(s.pileCount, 0)
        guard let called = c.calledCard else {
            XCTAssertNil(s.trumpSuit, "no trump before the call")
            XCTAssertTrue(s.captured.allSatisfy(\.isEmpty) && s.table.isEmpty, "no card is played before the call")
            return
        }
        XCTAssertEqual(c.phase, .playing)
        XCTAssertEqual(s.trumpSuit, called.suit)
        XCTAssertEqual(called.rank, c.highest?.bid.rank)
        XCTAssertEqual(c.declarer, c.highest?.seat)
        let played = s.table.contains(called) || s.captured.contains { $0.contains(called) }
        XCTAssertEqual(c.partnerRevealed, played)
        if !played, let p = c.partner {
            XCTAssertTrue(s.hands[p].contains(called), "the partner holds the called card")
        }
    }

    func harness() -> RandomPlayoutHarness<BriscolaState> {
        RandomPlayoutHarness<BriscolaState>(
            check: { Self.checkInvariants($0) },
            illegalMove: { s in
                s.turn.seat.flatMap { seat in Card.all.first { !s.hands[seat].contains($0) } }.map(BriscolaMove.init)
            },
            deepCheckEvery: 5)
    }

    func testRandomPlayoutsTwoPlayers() throws {
        let (_, moves) = try harness().run(players: 2, games: 2000, firstSeed: 1)
        XCTAssertEqual(moves, 2000 * 40)
    }

    func testRandomPlayoutsFourPlayers() throws {
        let (_, moves) = try harness().run(players: 4, games: 2000, firstSeed: 5000)
        XCTAssertEqual(moves, 2000 * 40)
    }

    func testRandomPlayoutsThreePlayers() throws {
        let (_, moves) = try harness().run(players: 3, games: 2000, firstSeed: 9000)
        XCTAssertEqual(moves, 2000 * 39)
    }

    /// Every card is played, after an auction of at least one bid and a call.
    func testRandomPlayoutsFivePlayers() throws {
        let (_, moves) = try harness().run(players: 5, games: 2000, firstSeed: 13000)
        XCTAssertGreaterThanOrEqual(moves, 2000 * (40 + 2))
    }

    func testSameSeedsSameTranscript() throws {
        try harness().runTwiceAndCompare(players: 4, games: 50, firstSeed: 77)
    }

    /// A bot must decide from its observation only: states that look the same to its seat (hidden cards
    /// dealt differently) must get the same move from equal bots.
    func testBotsDecideFromTheObservationOnly() throws {
        for players in [2, 3, 4, 5] {
            for seed: UInt64 in 1...12 {
                var s = try BriscolaState(players: players, seed: seed)
                var driver = RandomBot<BriscolaState>(rng: TavoloRNG(seed: seed, stream: 9))
                var resample = TavoloRNG(seed: seed, stream: 0x5A)
                while case .seat(let seat) = s.turn {
                    let twin = BriscolaState(sampling: s.observation(for: seat), rng: &resample)
                    XCTAssertEqual(twin.observation(for: seat), s.observation(for: seat))
                    var e1 = BriscolaEmulatorBot()
                    var e2 = BriscolaEmulatorBot()
                    XCTAssertEqual(e1.chooseMove(in: s, seat: seat), e2.chooseMove(in: twin, seat: seat))
                    if s.moveNumber % 7 == 0 || (s.chiamata.map { $0.phase != .playing } ?? false) {
                        var b1 = BriscolaStrongBot(rng: botRNG(gameSeed: seed, seat: seat), worlds: 4)
                        var b2 = BriscolaStrongBot(rng: botRNG(gameSeed: seed, seat: seat), worlds: 4)
                        XCTAssertEqual(b1.chooseMove(in: s, seat: seat), b2.chooseMove(in: twin, seat: seat))
                        var r1 = RandomBot<BriscolaState>(rng: botRNG(gameSeed: seed, seat: seat))
                        var r2 = RandomBot<BriscolaState>(rng: botRNG(gameSeed: seed, seat: seat))
                        XCTAssertEqual(r1.chooseMove(in: s, seat: seat), r2.chooseMove(in: twin, seat: seat))
                    }
                    try s.apply(driver.chooseMove(in: s, seat: seat))
                }
            }
        }
    }

    func testSampledStatesAreConsistentAndPlayable() throws {
        var s = try BriscolaState(players: 2, seed: 3)
        var driver = BriscolaEmulatorBot()
        var rng = TavoloRNG(seed: 1)
        while case .seat(let seat) = s.turn {
            var twin = BriscolaState(sampling: s.observation(for: 1 - seat), rng: &rng)
            Self.checkInvariants(twin)
            XCTAssertEqual(twin.hands[1 - seat], s.hands[1 - seat])
            BriscolaStrongBot.rollout(&twin)
            XCTAssertNotNil(twin.outcome)
            try s.apply(driver.chooseMove(in: s, seat: seat))
        }
    }

    func testBotsAreDeterministicThroughTheCatalog() throws {
        guard let entry = GameCatalog.standard["briscola"] else { return XCTFail("briscola not registered") }
        let request = PlayoutRequest(players: 2, games: 6, seed: 40, bots: ["strong", "emulator"])
        XCTAssertEqual(try entry.playout(request).transcript, try entry.playout(request).transcript)
        let four = PlayoutRequest(players: 4, games: 3, seed: 40, bots: ["strong", "emulator", "strong", "random"])
        XCTAssertEqual(try entry.playout(four).transcript, try entry.playout(four).transcript)
    }

    func testTranscriptReadsForAPerson() throws {
        guard let entry = GameCatalog.standard["briscola"] else { return XCTFail("briscola not registered") }
        let lines = try entry.transcript(players: 2, seed: 3, bots: ["emulator", "emulator"])
        XCTAssertTrue(lines[1].contains("briscola"), lines[1])
        XCTAssertTrue(lines.contains { $0.contains("trick to seat") })
        XCTAssertTrue(lines.contains { $0.contains("is drawn last") })
        XCTAssertTrue(lines.contains { $0.hasPrefix("end: ") })
    }
}
