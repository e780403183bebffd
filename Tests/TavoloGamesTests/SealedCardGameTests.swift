import TavoloCore
import XCTest

@testable import TavoloGames

/// What these tests read of a game's hands, in card numbers: a Briscola card is its number; a Spirits! number is one
/// of the three copies of its kind, which a hand cannot tell apart, so hands are compared by kind (`cardClass`).
protocol SealedTestGame: SealedCardGame {
    /// The open game's own deal as card numbers (Spirits!: the copies of a kind numbered in the order dealt).
    var ownOrder: [Int] { get }
    /// What a hand can tell of card number `number`: the card (Briscola), its kind (Spirits!).
    static func cardClass(_ number: Int) -> Int
    /// The seat's hand: how many cards of each class.
    func handClasses(_ seat: Int) -> [Int: Int]
}

extension BriscolaState: SealedTestGame {
    var ownOrder: [Int] { dealtDeck.map { Int($0.id) } }
    static func cardClass(_ number: Int) -> Int { number }
    func handClasses(_ seat: Int) -> [Int: Int] {
        Dictionary(uniqueKeysWithValues: hands[seat].map { (Int($0.id), 1) })
    }
}

extension SpiritsState: SealedTestGame {
    var ownOrder: [Int] {
        var copiesSeen = [Int](repeating: 0, count: SpiritsCard.kinds)
        return dealtDeck.map { card in
            let kind = Int(card.rawValue)
            defer { copiesSeen[kind] += 1 }
            return kind * SpiritsCard.copies + copiesSeen[kind]
        }
    }
    static func cardClass(_ number: Int) -> Int { number / SpiritsCard.copies }
    func handClasses(_ seat: Int) -> [Int: Int] {
        var classes: [Int: Int] = [:]
        for card in hands[seat].cards { classes[Int(card.rawValue), default: 0] += 1 }
        return classes
    }
}

/// The sealed deck's engine side (PROTOCOL.md §14.3, §14.8 steps 3 and 5): deals replaced by an order, the positions
/// each deal and draw hands out, the cards a move shows, the moves a node checks of a hand it cannot see, and the
/// type-erased session a table runs on a completion.
final class SealedCardGameTests: XCTestCase {
    let seeds: ClosedRange<UInt64> = 1...20

    /// A uniformly random order of the deck's card numbers, from a stream of the test's own.
    func randomOrder<State: SealedCardGame>(_ type: State.Type, players: Int, rng: inout TavoloRNG) -> [Int] {
        var order = State.sealedCardNumbers(players: players)
        rng.shuffle(&order)
        return order
    }

    /// Every seat's random bot, as a table's would be made from the seed.
    func bots<State: GameState>(_ type: State.Type, players: Int, seed: UInt64) -> [RandomBot<State>] {
        (0..<players).map { RandomBot<State>(rng: botRNG(gameSeed: seed, seat: $0)) }
    }

    // MARK: The open game's own deal

    func testReplacingADealByItsOwnOrderChangesNothing() throws {
        try checkOwnOrder(BriscolaState.self)
        try checkOwnOrder(SpiritsState.self)
    }

    /// The open game and the same game with its deal replaced by its own order hash alike, and go on alike with
    /// every move of the open game's bots through `apply` there and `applySealed` here.
    func checkOwnOrder<State: SealedTestGame>(_ type: State.Type) throws {
        for players in State.playerCounts {
            for seed in seeds {
                let what = "\(State.gameName)/\(players)/\(seed)"
                var open = try State(players: players, seed: seed)
                var sealed = open
                try sealed.replaceSealedDeal(open.ownOrder)
                XCTAssertEqual(sealed.stateHash, open.stateHash, what)
                var bots = self.bots(State.self, players: players, seed: seed)
                while let seat = open.turn.seat {
                    let move = bots[seat].chooseMove(in: open, seat: seat)
                    try open.apply(move)
                    try sealed.applySealed(move)
                    XCTAssertEqual(sealed.stateHash, open.stateHash, "\(what) after move \(open.moveNumber)")
                }
                XCTAssertThrowsError(try sealed.replaceSealedDeal(open.ownOrder), "\(what): replaced after moves")
            }
        }
    }

    func testADealIsReplacedOnlyByThePermutationOfItsCards() throws {
        var briscola = try BriscolaState(players: 3, seed: 4)
        XCTAssertThrowsError(try briscola.replaceSealedDeal(Array(0..<39)), "card 1 is not in the game of three")
        XCTAssertThrowsError(try briscola.replaceSealedDeal(Array(0..<40)))
        try briscola.replaceSealedDeal([0] + Array(2..<40))
        XCTAssertEqual(briscola.dealer, try BriscolaState(players: 3, seed: 4).dealer, "the seed's dealer is kept")
        var spirits = try SpiritsState(players: 2, seed: 4)
        XCTAssertThrowsError(try spirits.replaceSealedDeal(Array(1..<55)))
        XCTAssertEqual(SpiritsState.sealedCardNumbers(players: 6), Array(0..<54))
        XCTAssertEqual(BriscolaState.sealedCardNumbers(players: 3), [0] + Array(2..<40))
    }

    // MARK: Positions, draws and cards played over whole games

    func testEveryPositionReachesTheSeatNamedExactlyOnce() throws {
        try checkPositions(BriscolaState.self)
        try checkPositions(SpiritsState.self)
    }

    /// Whole games by bots through `applySealed`, each deal replaced by a new random order: the deal's placements and
    /// every draw name each position once (an open position twice: at the deal, and when it is drawn), the card at
    /// each lands in the hand named, and what a move shows is the card it took out of the hand.
    func checkPositions<State: SealedTestGame>(_ type: State.Type) throws {
        for players in State.playerCounts {
            for seed in seeds {
                let what = "\(State.gameName)/\(players)/\(seed)"
                var rng = TavoloRNG(seed: seed, stream: 77)
                var state = try State(players: players, seed: seed)
                var order = randomOrder(State.self, players: players, rng: &rng)
                try state.replaceSealedDeal(order)
                var counts = try dealt(state, order, what)
                var bots = self.bots(State.self, players: players, seed: seed)
                while let seat = state.turn.seat {
                    let before = state
                    let move = bots[seat].chooseMove(in: state, seat: seat)
                    try state.applySealed(move)
                    if state.dealNumber != before.dealNumber {
                        checkEveryPosition(counts, state, order, what)
                        guard !state.isTerminal else { break }
                        order = randomOrder(State.self, players: players, rng: &rng)
                        try state.replaceSealedDeal(order)
                        counts = try dealt(state, order, what)
                        continue
                    }
                    let draws = state.sealedDraws(since: before)
                    for draw in draws {
                        counts[draw.position, default: 0] += 1
                        let drawer = try XCTUnwrap(draw.seat, "\(what): a draw goes to a seat")
                        XCTAssertGreaterThan(state.handClasses(drawer)[State.cardClass(order[draw.position])] ?? 0, 0)
                    }
                    // The move that ends a game of Spirits! discards every hand: nothing to compare then.
                    guard !state.isTerminal else { continue }
                    let ownDraws = draws.filter { $0.seat == seat }.map { order[$0.position] }
                    checkShown(move, before: before, after: state, seat: seat, drawn: ownDraws)
                }
                checkEveryPosition(counts, state, order, what)
            }
        }
    }

    /// Counts the deal's placements and checks each card is in the hand named.
    func dealt<State: SealedTestGame>(_ state: State, _ order: [Int], _ what: String) throws -> [Int: Int] {
        var counts: [Int: Int] = [:]
        for placement in state.sealedDealtPositions() {
            counts[placement.position, default: 0] += 1
            guard let seat = placement.seat else { continue }
            XCTAssertGreaterThan(state.handClasses(seat)[State.cardClass(order[placement.position])] ?? 0, 0, what)
        }
        return counts
    }

    /// Every position of the deal was handed out once; the open ones (trump) twice.
    func checkEveryPosition<State: SealedTestGame>(_ counts: [Int: Int], _ state: State, _ order: [Int], _ w: String) {
        let open = Set(state.sealedDealtPositions().filter { $0.seat == nil }.map(\.position))
        for position in order.indices {
            XCTAssertEqual(counts[position], open.contains(position) ? 2 : 1, "\(w): position \(position)")
        }
    }

    /// The classes the seat held before the move and its draws, less those it holds after: the card it played.
    func checkShown<State: SealedTestGame>(
        _ move: State.Move, before: State, after: State, seat: Int, drawn: [Int]
    ) {
        var taken = before.handClasses(seat)
        for number in drawn { taken[State.cardClass(number), default: 0] += 1 }
        for (cls, n) in after.handClasses(seat) { taken[cls, default: 0] -= n }
        let played = taken.filter { $0.value != 0 }
        guard let shown = before.sealedCardsPlayed(by: move) else {
            XCTAssertTrue(played.isEmpty, "\(move) shows no card but took \(played)")
            return
        }
        XCTAssertEqual(played.count, 1, "\(move)")
        XCTAssertEqual(played.first?.value, 1, "\(move)")
        XCTAssertEqual(Set(shown.map(State.cardClass)), Set(played.keys), "\(move) shows \(shown)")
    }

    // MARK: A flee at a sealed table

    /// A flee while holding a playable card: `apply` refuses it, `applySealed` takes it (the audit will name it); a
    /// flee opening a card not held is refused by both, and so is a flee where there is no pile to flee.
    func testASealedFleeIsCheckedOnlyForTheCardShown() throws {
        var found = 0
        for players in SpiritsState.playerCounts {
            for seed in seeds {
                var state = try SpiritsState(players: players, seed: seed)
                var open = SpiritsMove.flee(open: try XCTUnwrap(state.hands[state.turnSeat].cards.first))
                XCTAssertThrowsError(try state.applySealed(open), "no flee onto an empty pile")
                try state.apply(try XCTUnwrap(state.legalMoves().first))
                while state.phase == .follow, state.playableKinds.isEmpty { try state.apply(state.legalMoves()[0]) }
                guard state.phase == .follow else { continue }
                let hand = state.hands[state.turnSeat]
                let held = try XCTUnwrap(hand.cards.first)
                open = .flee(open: held)
                var sealed = state
                XCTAssertThrowsError(try state.apply(open), "the open game refuses a false flee")
                try sealed.applySealed(open)
                XCTAssertEqual(sealed.ghosts[state.turnSeat], state.ghosts[state.turnSeat] + 1)
                let missing = try XCTUnwrap(SpiritsCardCounts.fullDeck.cards.first { hand.count(of: $0) == 0 })
                XCTAssertThrowsError(try state.applySealed(.flee(open: missing)), "a card not held")
                found += 1
            }
        }
        XCTAssertGreaterThan(found, 50)
    }

    // MARK: The type-erased session

    func testTheCatalogKnowsWhichGamesAreSealable() throws {
        let catalog = GameCatalog.standard
        XCTAssertEqual(catalog["spirits"]?.isSealable, true)
        XCTAssertEqual(catalog["briscola"]?.isSealable, true)
        XCTAssertEqual(catalog["othello"]?.isSealable, false)
        XCTAssertNil(try catalog["othello"]?.sealedSession(players: 2, seed: 1))
        for entry in catalog.entries where entry.name.hasPrefix("fifteen") { XCTAssertFalse(entry.isSealable) }
    }

    /// Whole games in sealed sessions, each deal installed by a rebuild as the table would once the shuffle is done;
    /// every few moves a new session rebuilt from the deals and moves is the same game with the same last draws, and
    /// a session rebuilt in place goes on with its bots where they were (a copy that never rebuilt agrees).
    func testARebuildIsTheSameGameAndKeepsTheBots() throws {
        for name in ["briscola", "spirits"] {
            let entry = try XCTUnwrap(GameCatalog.standard[name])
            for players in entry.playerCounts {
                for seed in UInt64(1)...5 { try checkRebuilds(entry, players: players, seed: seed) }
            }
        }
    }

    func checkRebuilds(_ entry: GameEntry, players: Int, seed: UInt64) throws {
        let what = "\(entry.name)/\(players)/\(seed)"
        let session = try XCTUnwrap(try entry.sealedSession(players: players, seed: seed))
        var rng = TavoloRNG(seed: seed, stream: 78)
        func newOrder() -> [Int] {
            var order = session.sealedCardNumbers
            rng.shuffle(&order)
            return order
        }
        var deals = [newOrder()]
        var moves: [AnyGameMove] = []
        try session.sealedRebuild(deals: deals, moves: moves)
        XCTAssertNil(session.currentDeal, what)
        while session.outcome == nil {
            let deal = session.dealNumber
            let move = try session.botMove(kind: "random")
            try session.apply(move)
            moves.append(move)
            if session.dealNumber != deal, session.outcome == nil {
                deals.append(newOrder())
                try session.sealedRebuild(deals: deals, moves: moves)
                XCTAssertEqual(session.sealedLastDraws, [], "\(what): a new deal draws nothing")
            }
            guard moves.count % 7 == 0 else { continue }
            let rebuilt = try XCTUnwrap(try entry.sealedSession(players: players, seed: seed))
            try rebuilt.sealedRebuild(deals: deals, moves: moves)
            XCTAssertEqual(rebuilt.stateHash, session.stateHash, "\(what) at move \(moves.count)")
            XCTAssertEqual(rebuilt.sealedLastDraws, session.sealedLastDraws, "\(what) at move \(moves.count)")
            guard moves.count == 14 else { continue }
            // Two copies with the session's bots: one rebuilt in place, one never; their bots must go on alike.
            let twin = try XCTUnwrap(session.copy() as? any SealedGameSession, "\(what): a copy stays sealed")
            let inPlace = try XCTUnwrap(session.copy() as? any SealedGameSession, what)
            try inPlace.sealedRebuild(deals: deals, moves: moves)
            for _ in 0..<5 where twin.outcome == nil {
                let (a, b) = (try inPlace.botMove(kind: "random"), try twin.botMove(kind: "random"))
                XCTAssertEqual(a, b, "\(what): the rebuild reset a bot")
                try inPlace.apply(a)
                try twin.apply(b)
                XCTAssertEqual(inPlace.stateHash, twin.stateHash, what)
            }
        }
    }

    // MARK: The public completion

    /// A game in a sealed session on the true deals, and what was seen of it: per deal, the positions opened to
    /// everyone (the trump, each card played) with their cards, and the positions each seat got (dealt or drawn).
    struct Sightings {
        var truth: any SealedGameSession
        var deals: [[Int]] = []
        var moves: [AnyGameMove] = []
        var shared: [[Int: Int]] = []
        var got: [[Int: Set<Int>]] = []
    }

    /// Up to `count` moves of random bots, each deal a new random order, played cards located as a table would: the
    /// first position the seat holds whose card is one the move may show.
    func playSealed(_ entry: GameEntry, players: Int, seed: UInt64, count: Int) throws -> Sightings {
        var s = Sightings(truth: try XCTUnwrap(try entry.sealedSession(players: players, seed: seed)))
        var rng = TavoloRNG(seed: seed, stream: 79)
        var held: [Int: [Int]] = [:]
        func place(_ p: SealedPlacement) {
            let d = s.deals.count - 1
            guard let seat = p.seat else {
                s.shared[d][p.position] = s.deals[d][p.position]
                return
            }
            held[seat, default: []].append(p.position)
            s.got[d][seat, default: []].insert(p.position)
        }
        func newDeal() throws {
            var order = s.truth.sealedCardNumbers
            rng.shuffle(&order)
            (held, s.deals, s.shared, s.got) = ([:], s.deals + [order], s.shared + [[:]], s.got + [[:]])
            try s.truth.sealedRebuild(deals: s.deals, moves: s.moves)
            s.truth.sealedDealtPositions().forEach(place)
        }
        try newDeal()
        while s.truth.outcome == nil, s.moves.count < count {
            let (deal, seat, d) = (s.truth.dealNumber, try XCTUnwrap(s.truth.turn.seat), s.deals.count - 1)
            let move = try s.truth.botMove(kind: "random")
            if let shown = s.truth.sealedCardsPlayed(by: move) {
                let i = try XCTUnwrap(held[seat]?.firstIndex { shown.contains(s.deals[d][$0]) }, "not held: \(move)")
                let position = held[seat]?.remove(at: i) ?? -1
                s.shared[d][position] = s.deals[d][position]
            }
            try s.truth.apply(move)
            s.moves.append(move)
            s.truth.sealedLastDraws.forEach(place)
            if s.truth.dealNumber != deal, s.truth.outcome == nil { try newDeal() }
        }
        return s
    }

    /// Nodes 0 and 1 each know their own seat's cards besides what everyone saw: their own completions differ, their
    /// public ones are the same game with the same hash, and a node's own completion shows its seat what the true
    /// game shows it.
    func testThePublicCompletionIsTheSameAtEveryNode() throws {
        var privateHashesDiffer = 0
        for name in ["briscola", "spirits"] {
            let entry = try XCTUnwrap(GameCatalog.standard[name])
            for players in entry.playerCounts {
                for seed in seeds {
                    let seen = try playSealed(entry, players: players, seed: seed, count: Int(seed) * 6)
                    let nodes = try (0..<2).map { try completions(entry, players, seed, seen, node: $0) }
                    XCTAssertEqual(nodes[0].shared.stateHash, nodes[1].shared.stateHash, "\(name)/\(players)/\(seed)")
                    for node in 0..<2 {
                        XCTAssertEqual(nodes[node].mine.observation(for: node), seen.truth.observation(for: node))
                    }
                    if nodes[0].mine.stateHash != nodes[1].mine.stateHash { privateHashesDiffer += 1 }
                }
            }
        }
        XCTAssertGreaterThan(privateHashesDiffer, 0, "the nodes' own completions were never different")
    }

    /// One node's sessions rebuilt on its public completion of every deal and on its own.
    func completions(_ entry: GameEntry, _ players: Int, _ seed: UInt64, _ seen: Sightings, node: Int) throws
        -> (shared: any SealedGameSession, mine: any SealedGameSession)
    {
        var sessions: [any SealedGameSession] = []
        for withOwnCards in [false, true] {
            let deals = seen.deals.indices.map { d in
                var known = seen.shared[d]
                for p in withOwnCards ? seen.got[d][node] ?? [] : [] { known[p] = seen.deals[d][p] }
                return SealedCompletion.order(cardNumbers: seen.truth.sealedCardNumbers, known: known)
            }
            let session = try XCTUnwrap(try entry.sealedSession(players: players, seed: seed))
            try session.sealedRebuild(deals: deals, moves: seen.moves)
            sessions.append(session)
        }
        return (sessions[0], sessions[1])
    }
}
