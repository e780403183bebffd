import TavoloCore
import XCTest

@testable import TavoloGames

/// Issue 37 item 5: a bot never sees more than its seat may see. Every Spirits! and Briscola bot the catalog offers
/// (its own kinds and every level) is asked for a move in a state and in a twin built from that seat's observation
/// alone, with every card the seat cannot see dealt again (`init(sampling:)`): the same bot, made with the same
/// seed, must choose the same move in both, and that move must be legal in both. A bot that read another hand, the
/// pile's order or the game's generator (which deals the later rounds) would tell the twins apart.
final class BotHiddenCardsTests: XCTestCase {
    /// The searching kinds think long in a debug build: they are asked at some moves only.
    static let searching: Set<String> = ["search", "strong", "hard", "expert"]

    func testSpiritsBotsCannotTellARedealFromTheRealDeal() throws {
        let bots = try XCTUnwrap(GameCatalog.standard["spirits"]).bots.map(\.kind)
        let factories =
            [BotFactory<SpiritsState>.spiritsRandom, .spiritsHeuristic, .spiritsSearch]
            + BotFactory.spiritsLevels
        XCTAssertEqual(Set(factories.map(\.kind)), Set(bots), "the test covers every Spirits! bot")
        var compared = 0
        for (players, seed) in [(2, UInt64(3)), (4, 5), (6, 7)] {
            compared += try Self.compareTwins(
                try SpiritsState(players: players, seed: seed), seed: seed, factories: factories, searchEvery: 37
            ) { SpiritsState(sampling: $0, rng: &$1) }
        }
        XCTAssertGreaterThan(compared, 300)
    }

    func testBriscolaBotsCannotTellARedealFromTheRealDeal() throws {
        let bots = try XCTUnwrap(GameCatalog.standard["briscola"]).bots.map(\.kind)
        let factories = BotFactory.briscolaLevels(BotFactory.briscolaBots)
        XCTAssertEqual(Set(factories.map(\.kind)), Set(bots), "the test covers every Briscola bot")
        var compared = 0
        for players in [2, 3, 4] {
            let seed = UInt64(40 + players)
            compared += try Self.compareTwins(
                try BriscolaState(players: players, seed: seed), seed: seed, factories: factories, searchEvery: 11
            ) { BriscolaState(sampling: $0, rng: &$1) }
        }
        XCTAssertGreaterThan(compared, 100)
    }

    /// Plays `state` to its end with random moves; before each move, asks every bot of `factories` (a searching
    /// one every `searchEvery` moves only) for its move in the state and in a twin `redeal` builds from the seat's
    /// observation, and checks both answers are the same legal move. Returns how many were compared.
    static func compareTwins<S: GameState>(
        _ start: S, seed: UInt64, factories: [BotFactory<S>], searchEvery: Int,
        redeal: (S.Observation, inout TavoloRNG) -> S
    ) throws -> Int where S.Observation: Equatable {
        var state = start
        var rng = TavoloRNG(seed: seed, stream: 0x5C)
        var compared = 0
        while case .seat(let seat) = state.turn {
            let obs = state.observation(for: seat)
            let twin = redeal(obs, &rng)
            XCTAssertEqual(twin.observation(for: seat), obs)
            for f in factories where state.moveNumber % searchEvery == 0 || !searching.contains(f.kind) {
                var a = f.make(seed, seat)
                var b = f.make(seed, seat)
                let move = a.chooseMove(in: state, seat: seat)
                XCTAssertEqual(move, b.chooseMove(in: twin, seat: seat), "\(f.kind) seed \(seed)")
                XCTAssertTrue(
                    state.legalMoves().contains(move) && twin.legalMoves().contains(move), "\(f.kind) seed \(seed)")
                compared += 1
            }
            let legal = state.legalMoves()
            try state.apply(legal[rng.below(legal.count)])
        }
        return compared
    }

    /// The sampled Spirits! state holds exactly the seat's own hand, the other hands at their sizes and the draw
    /// pile, from the cards the seat cannot see; and it plays on to the game's end.
    func testSpiritsSamplingKeepsWhatTheSeatSees() throws {
        var state = try SpiritsState(players: 5, seed: 9)
        var rng = TavoloRNG(seed: 9, stream: 0x5C)
        for _ in 0..<40 {
            let legal = state.legalMoves()
            try state.apply(legal[rng.below(legal.count)])
        }
        let seat = try XCTUnwrap(state.turn.seat)
        let obs = state.observation(for: seat)
        var twin = SpiritsState(sampling: obs, rng: &rng)
        XCTAssertEqual(twin.hands[seat], state.hands[seat])
        var all = twin.pile
        all.formUnion(twin.removed)
        for s in 0..<5 { all.formUnion(twin.hands[s]) }
        all.formUnion(SpiritsCardCounts(twin.drawPile))
        XCTAssertEqual(all, SpiritsCardCounts.fullDeck)
        while case .seat = twin.turn {
            let legal = twin.legalMoves()
            try twin.apply(legal[rng.below(legal.count)])
        }
        XCTAssertNotNil(twin.outcome)
    }
}
