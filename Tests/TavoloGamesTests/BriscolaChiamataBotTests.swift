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
}
