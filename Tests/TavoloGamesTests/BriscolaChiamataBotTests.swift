import TavoloCore
import XCTest

@testable import TavoloGames

/// The strong bot in Briscola chiamata: it bids from its hand's value, and it reads the partner from the tricks.
final class BriscolaChiamataBotTests: XCTestCase {
    /// A deal where seat 0 (first to bid, dealer 4) holds `hand` and the other cards follow in card order.
    func deal(seat0 hand: [Card]) throws -> BriscolaState {
        var rest = Array(~CardSet(hand))
        var deck: [Card] = []
        for i in 0..<40 { deck.append(i % 5 == 0 ? hand[i / 5] : rest.removeFirst()) }
        return try BriscolaState(players: 5, seed: 0, deck: deck, dealer: 4)
    }

    func testItBidsAStrongHandAndPassesAWeakOne() throws {
        let strong = try deal(seat0: cards("1D 3D 10D 9D 8D 7D 1C 3C"))
        var bot = BriscolaStrongBot(rng: TavoloRNG(seed: 1))
        guard case .bid = bot.chooseMove(in: strong, seat: 0).action else { return XCTFail("passed a strong hand") }
        let weak = try deal(seat0: cards("2C 4C 5C 2S 4S 5S 2B 4B"))
        var other = BriscolaStrongBot(rng: TavoloRNG(seed: 1))
        XCTAssertEqual(other.chooseMove(in: weak, seat: 0), .pass)
    }

    func testItCallsTheSuitItIsStrongIn() throws {
        var s = try deal(seat0: cards("1D 3D 10D 9D 8D 7D 1C 3C"))
        try s.apply(.bid(ChiamataBid(wire: 6)!))
        for _ in 0..<4 { try s.apply(.pass) }
        var bot = BriscolaStrongBot(rng: TavoloRNG(seed: 2))
        let call = bot.chooseMove(in: s, seat: 0)
        XCTAssertEqual(call, .call(card("6D")), "six Denari in hand: Denari for trump")
    }

    /// A seat that loads points onto the declarer's trick weighs more as the partner; one that takes the
    /// declarer's trick weighs less.
    func testPartnerWeightsFollowTheTricks() throws {
        var obs = try BriscolaState(players: 5, seed: 3).observation(for: 4)
        obs.phase = .playing
        obs.declarer = 0
        obs.calledCard = card("3B")
        obs.hand = CardSet(cards("2C 4C"))
        obs.handCounts = [7, 7, 7, 7, 7]
        // Trump Bastoni. Seat 0 leads the Re di Coppe; seat 1 loads the Asso di Spade on it; seat 2 plays a liscio;
        // seat 3 takes it with a trump; seat 4 follows.
        obs.tricks = [BriscolaTrick(leader: 0, cards: cards("10C 1S 4D 2B 5D"))]
        obs.leader = 3
        obs.table = []
        let w = BriscolaStrongBot.partnerWeights(obs)
        XCTAssertEqual(w[4], 0, "this seat knows it is not the partner")
        XCTAssertGreaterThan(w[1], w[2], "points on the declarer's trick")
        XCTAssertLessThan(w[3], w[2], "took the declarer's trick")
        XCTAssertLessThan(w[0], w[2], "calling one's own card is rare")
        XCTAssertEqual(BriscolaStrongBot.partnerWeights(obs, reading: false)[1], w[2], "unread: all alike")
    }

    /// Against players who help their side (`teamChoice`), the reading puts more weight on the true partner than
    /// an unread guess does, by the fourth trick. Prints the shares.
    func testTheReadingFavoursTheTruePartner() throws {
        var read = 0.0
        var unread = 0.0
        var looks = 0
        for seed: UInt64 in 1...150 {
            var s = try BriscolaState(players: 5, seed: seed)
            var rng = TavoloRNG(seed: seed, stream: 11)
            try s.apply(.bid(.lowest))
            for _ in 0..<4 { try s.apply(.pass) }
            let declarer = try XCTUnwrap(s.chiamata?.declarer)
            let callable = s.legalMoves().filter { m in
                if case .call(let c) = m.action { return !s.hands[declarer].contains(c) }
                return false
            }
            try s.apply(callable[rng.below(callable.count)])
            while s.chiamata?.tricks.count ?? 0 < 3 { try s.apply(BriscolaMove(BriscolaStrongBot.teamChoice(s))) }
            guard let c = s.chiamata, !c.partnerRevealed, let partner = c.partner else { continue }
            for seat in 0..<5 where seat != declarer && seat != partner {
                let obs = s.observation(for: seat)
                let w = BriscolaStrongBot.partnerWeights(obs)
                let u = BriscolaStrongBot.partnerWeights(obs, reading: false)
                read += Double(w[partner]) / Double(w.reduce(0, +))
                unread += Double(u[partner]) / Double(u.reduce(0, +))
                looks += 1
            }
        }
        XCTAssertGreaterThan(looks, 100)
        print(
            "partner reading: the true partner's share \(read / Double(looks)) read, \(unread / Double(looks)) unread, \(looks) looks"
        )
        XCTAssertGreaterThan(read, unread * 1.2, "the reading does not find the partner better than a guess")
    }
}
