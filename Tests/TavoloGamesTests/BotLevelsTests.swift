import TavoloCore
import XCTest

@testable import TavoloGames

/// `easy` … `expert` for every game: registered, legal, and deciding from what their seat sees.
final class BotLevelsTests: XCTestCase {
    func testEveryGameOffersEveryLevelAndKeepsItsOwnKinds() throws {
        let ownKinds = [
            "spirits": ["random", "heuristic", "search"], "othello": ["random", "greedy", "alphabeta"],
            "briscola": ["random", "emulator", "strong", "search"],
            "fifteen": ["solver", "optimal", "reduce", "random"],
        ]
        for entry in GameCatalog.standard.entries {
            let kinds = entry.bots.map(\.kind)
            for level in BotLevel.allCases {
                XCTAssertTrue(kinds.contains(level.rawValue), "\(entry.name) lacks \(level)")
            }
            for kind in ownKinds[entry.name] ?? [] { XCTAssertTrue(kinds.contains(kind), "\(entry.name) lost \(kind)") }
            XCTAssertEqual(Set(kinds).count, kinds.count, "\(entry.name) registers a kind twice")
            let section = try XCTUnwrap(GameRules.botsSection(for: entry.name))
            for bot in entry.bots { XCTAssertTrue(section.contains("- `\(bot.kind)`: \(bot.summary)"), entry.name) }
        }
    }

    /// Each level against itself: the playout stops at the first illegal move.
    func testEveryLevelPlaysLegalMoves() throws {
        for entry in GameCatalog.standard.entries {
            for level in BotLevel.allCases {
                // Othello's searches have their own test; in a debug build a whole game of them is slow.
                if entry.name == "othello" && [.hard, .expert].contains(level) { continue }
                if entry.name.hasPrefix("fifteen") && level == .expert { continue }
                // Nor a whole game of the card games' searches (their moves are checked in `BotHiddenCardsTests`).
                if ["spirits", "briscola"].contains(entry.name) && level == .expert { continue }
                let players = entry.playerCounts.contains(3) ? 3 : entry.playerCounts[0]
                let bots = Array(repeating: level.rawValue, count: players)
                let report = try entry.playout(PlayoutRequest(players: players, games: 1, seed: 11, bots: bots))
                XCTAssertEqual(report.games, 1, "\(entry.name) \(level)")
            }
        }
    }

    /// A level with mistakes plays worse than the bot it weakens, and draws its mistakes from its own stream.
    func testMistakesWeakenABot() throws {
        let entry = try XCTUnwrap(GameCatalog.standard["spirits"])
        let report = try entry.playout(
            PlayoutRequest(players: 2, games: 400, seed: 3, bots: ["medium", "hard"]))
        let medium = try XCTUnwrap(report.bots.first { $0.bot == "medium" })
        XCTAssertLessThan(medium.winRate, 0.5)
    }

    /// Spirits! levels decide from the observation only: a twin state with every hidden card redealt gets the
    /// same move from equal bots (their streams copied), and that move is legal there.
    func testSpiritsLevelsDecideFromTheObservationOnly() throws {
        let factories =
            [BotFactory<SpiritsState>.spiritsRandom, .spiritsHeuristic, .spiritsSearch] + BotFactory.spiritsLevels
        var rng = TavoloRNG(seed: 17)
        for seed: UInt64 in 1...10 {
            var state = try SpiritsState(players: 4, seed: seed)
            while case .seat(let seat) = state.turn {
                var twin = state
                // The seat's own hand stays as it is (`of: seat` keeps nothing else back).
                for _ in 0..<5 {
                    guard let own = state.hands[seat].cards.first else { break }
                    twin = PrivacyTests.redeal(state, hiddenFrom: seat, keeping: own, of: seat, rng: &rng)
                    if twin.canonicalBytes != state.canonicalBytes { break }
                }
                XCTAssertEqual(twin.observation(for: seat), state.observation(for: seat))
                // The search (and `expert`, which is it) plays out thousands of rounds a move, too slow for every move
                // of ten debug games: `BotHiddenCardsTests` asks it at some moves of its own games.
                for f in factories where !["search", "expert"].contains(f.kind) {
                    var a = f.make(seed, seat)
                    var b = f.make(seed, seat)
                    let move = a.chooseMove(in: state, seat: seat)
                    XCTAssertEqual(move, b.chooseMove(in: twin, seat: seat), "\(f.kind) seed \(seed)")
                    XCTAssertTrue(twin.isLegal(move))
                }
                let legal = state.legalMoves()
                try state.apply(legal[rng.below(legal.count)])
            }
        }
    }

    /// The same for Briscola's levels, with twins sampled from the seat's observation.
    func testBriscolaLevelsDecideFromTheObservationOnly() throws {
        let factories = BotFactory.briscolaLevels(BotFactory.briscolaBots)
        for players in [2, 4] {
            for seed: UInt64 in 1...2 {
                var state = try BriscolaState(players: players, seed: seed)
                var resample = TavoloRNG(seed: seed, stream: 0x5B)
                while case .seat(let seat) = state.turn {
                    let twin = BriscolaState(sampling: state.observation(for: seat), rng: &resample)
                    // The strong bot and the levels built on it search: every fifth move is enough (debug builds are slow).
                    // `search` and `expert` sample sixteen times as much: `BotHiddenCardsTests` asks them.
                    let searching: Set<String> = ["strong", "hard"]
                    for f in factories
                    where !["search", "expert"].contains(f.kind)
                        && (state.moveNumber % 5 == 0 || !searching.contains(f.kind))
                    {
                        var a = f.make(seed, seat)
                        var b = f.make(seed, seat)
                        let move = a.chooseMove(in: state, seat: seat)
                        XCTAssertEqual(move, b.chooseMove(in: twin, seat: seat), "\(f.kind) seed \(seed)")
                        XCTAssertTrue(twin.legalMoves().contains(move))
                    }
                    let legal = state.legalMoves()
                    try state.apply(legal[resample.below(legal.count)])
                }
            }
        }
    }
}
