import Foundation
import XCTest

@testable import TavoloCore
@testable import TavoloGames

/// Privacy by construction: a text about a move, or a seat's observation, must not change when the cards that seat
/// cannot see are dealt differently. For every move of many seeded games, and for every seat, the hidden cards are
/// redealt (the mover keeps the card it plays, which is public once played) and the description and the seat's
/// observation must come out byte for byte the same.
final class PrivacyTests: XCTestCase {
    func testSpiritsDescriptionsAndObservationsDependOnlyOnWhatTheSeatSees() throws {
        var fleesCompared = 0
        for players in 2...6 {
            for seed: UInt64 in 1...12 {
                var state = try SpiritsState(players: players, seed: seed &* 7919 &+ UInt64(players))
                var rng = TavoloRNG(seed: seed)
                while let mover = state.turn.seat {
                    let legal = state.legalMoves()
                    let move = legal[rng.below(legal.count)]
                    let text = state.describe(move)
                    for seat in 0..<players {
                        // A flee is legal only while the mover holds no legal card: redeal until that still holds.
                        for _ in 0..<30 {
                            let other = Self.redeal(state, hiddenFrom: seat, keeping: move.card, of: mover, rng: &rng)
                            XCTAssertEqual(
                                try Self.json(other.observation(for: seat)),
                                try Self.json(state.observation(for: seat)),
                                "spirits seed \(seed) move \(state.moveNumber): seat \(seat)'s observation")
                            guard other.isLegal(move) else { continue }
                            if move.isFlee && seat != mover { fleesCompared += 1 }
                            XCTAssertEqual(
                                other.describe(move), text,
                                "spirits seed \(seed) move \(state.moveNumber): the text depends on cards seat \(seat) cannot see"
                            )
                            break
                        }
                    }
                    try state.apply(move)
                }
            }
        }
        XCTAssertGreaterThan(fleesCompared, 0, "no flee was compared: the test would miss a flee that lists a hand")
    }

    func testBriscolaDescriptionsAndObservationsDependOnlyOnWhatTheSeatSees() throws {
        for players in [2, 3, 4, 5] {
            for seed: UInt64 in 1...40 {
                var state = try BriscolaState(players: players, seed: seed &* 104_729 &+ UInt64(players))
                var rng = TavoloRNG(seed: seed)
                while let mover = state.turn.seat {
                    let legal = state.legalMoves()
                    let move = legal[rng.below(legal.count)]
                    let text = state.describe(move)
                    for seat in 0..<players {
                        let other = try Self.redeal(state, hiddenFrom: seat, keeping: move.card, of: mover, rng: &rng)
                        XCTAssertEqual(other.hands[mover].count, state.hands[mover].count)
                        XCTAssertEqual(
                            other.describe(move), text,
                            "briscola \(players) seed \(seed) move \(state.moveNumber): the text depends on cards seat \(seat) cannot see"
                        )
                        XCTAssertEqual(
                            try Self.json(other.observation(for: seat)), try Self.json(state.observation(for: seat)),
                            "briscola \(players) seed \(seed) move \(state.moveNumber): seat \(seat)'s observation")
                    }
                    try state.apply(move)
                }
            }
        }
    }

    /// Briscola chiamata: the secret partner is in no observation but the partner's own until the called card is
    /// played, and in every one after. Checked against the state, so the test fails if the observation leaks it.
    func testTheChiamataPartnerIsShownOnlyToThePartnerUntilRevealed() throws {
        var hiddenChecks = 0
        for seed: UInt64 in 1...60 {
            var state = try BriscolaState(players: 5, seed: seed)
            var rng = TavoloRNG(seed: seed, stream: 3)
            while state.turn.seat != nil {
                if let c = state.chiamata, let partner = c.partner {
                    for seat in 0..<5 {
                        let shown = state.observation(for: seat).partner
                        if c.partnerRevealed || seat == partner {
                            XCTAssertEqual(shown, partner, "seed \(seed): seat \(seat) should see the partner")
                        } else {
                            XCTAssertNil(shown, "seed \(seed) move \(state.moveNumber): seat \(seat) sees the partner")
                            hiddenChecks += 1
                        }
                    }
                }
                let legal = state.legalMoves()
                try state.apply(legal[rng.below(legal.count)])
            }
        }
        XCTAssertGreaterThan(hiddenChecks, 0, "the partner was never hidden: the test would miss a leak")
    }

    /// The omniscient transcript still names hands: the redeal above would catch it, so the test can fail.
    func testTheRedealCatchesATextThatNamesAHand() throws {
        let state = try BriscolaState(players: 2, seed: 5)
        var rng = TavoloRNG(seed: 1)
        guard let mover = state.turn.seat, let move = state.legalMoves().first else { return XCTFail("no move") }
        let other = try Self.redeal(state, hiddenFrom: 1 - mover, keeping: move.card, of: mover, rng: &rng)
        XCTAssertNotEqual(other.transcriptLine(move), state.transcriptLine(move))
        XCTAssertEqual(other.describe(move), state.describe(move))
    }

    // MARK: Redealing what a seat cannot see

    /// The same Spirits! state with every card `seat` cannot see (other hands, the draw pile) shuffled among those
    /// places; the mover keeps `card`.
    static func redeal(
        _ s: SpiritsState, hiddenFrom seat: Int, keeping card: SpiritsCard, of mover: Int, rng: inout TavoloRNG
    ) -> SpiritsState {
        var out = s
        var pool: [SpiritsCard] = []
        var sizes = [Int](repeating: 0, count: s.playerCount)
        for o in 0..<s.playerCount where o != seat {
            var h = s.hands[o]
            if o == mover { h.remove(card) }
            pool += h.cards
            sizes[o] = h.total
        }
        pool += s.drawPile
        rng.shuffle(&pool)
        var next = 0
        for o in 0..<s.playerCount where o != seat {
            var h = SpiritsCardCounts(pool[next..<(next + sizes[o])])
            next += sizes[o]
            if o == mover { h.insert(card) }
            out.hands[o] = h
        }
        out.dealtDeck = Array(s.dealtDeck[..<s.drawIndex]) + pool[next...]
        return out
    }

    /// The same Briscola state with every card `seat` cannot see (other hands, the face-down pile) shuffled among
    /// those places; the mover keeps `card`, and a face-up trump already drawn stays with the seat that drew it. In
    /// chiamata the called card moves too when `seat` cannot see it, and the partner with it.
    static func redeal(
        _ s: BriscolaState, hiddenFrom seat: Int, keeping card: Card?, of mover: Int, rng: inout TavoloRNG
    ) throws -> BriscolaState {
        let p = s.playerCount
        let firstPile = BriscolaState.handSize * p + 1
        let pileSlots = s.pileCount > 0 ? Array((firstPile + s.drawn)..<s.dealtDeck.count) : []
        var fixed = CardSet(card.map { [$0] } ?? [])
        if let t = s.trumpCard, !s.trumpFaceUp { fixed.insert(t) }
        var pool: [Card] = []
        for o in 0..<p where o != seat { pool += s.hands[o].filter { !fixed.contains($0) } }
        pool += pileSlots.map { s.dealtDeck[$0] }
        rng.shuffle(&pool)
        var hands = s.hands
        var next = 0
        for o in 0..<p where o != seat {
            let keep = s.hands[o].filter { fixed.contains($0) }
            let n = s.hands[o].count - keep.count
            hands[o] = CardSet(keep + pool[next..<(next + n)])
            next += n
        }
        // The deck: any order for the cards already dealt or drawn, the face-up trump in its place, then the pile.
        let pile = Array(pool[next...])
        let deck = BriscolaState.sampledDeck(players: p, trumpCard: s.trumpCard, pile: pile)
        var out = try BriscolaState(players: p, seed: s.seed, deck: deck, dealer: s.dealer)
        out.hands = hands
        out.captured = s.captured
        out.table = s.table
        out.leader = s.leader
        out.drawn = s.drawn
        out.trumpDrawnBy = s.trumpDrawnBy
        out.trumpSuit = s.trumpSuit
        out.current = s.current
        out.moveNumber = s.moveNumber
        out.isOver = s.isOver
        if var c = s.chiamata {
            if let called = c.calledCard, !c.partnerRevealed {
                c.partner = (0..<p).first { hands[$0].contains(called) }
            }
            out.chiamata = c
        }
        return out
    }

    static func json<T: Encodable>(_ value: T) throws -> String {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        return String(decoding: try e.encode(value), as: UTF8.self)
    }
}
