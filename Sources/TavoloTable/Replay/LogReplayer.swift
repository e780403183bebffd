import TavoloCore
import TavoloProtocol

/// Replays a logged game through `MoveSequencer`, the rules live play uses: the one loop that applies a sequence
/// of moves outside live play. A restart rebuilds its tables with it (`TableMachine(restoring:)`, PROTOCOL.md
/// §9.11), a receiver checks a peer's record with it (§11.4), and `tavolo show` walks a record with it. A packet
/// log is replayed message by message through a `TableMachine` in the auditor role, which applies moves through the
/// same sequencer.
///
/// Turn-based logs hold moves in order; a simultaneous game's log holds each seat's moves in that seat's order,
/// interleaved in any way (a node's journal in the order it applied them, a record seat by seat).
public struct LogReplayer {
    /// One logged move. `number` absent (a record): the next of its seat. `before`/`after` absent: not checked.
    public struct Step: Sendable {
        public var seat: Int
        public var number: Int?
        public var move: JSONValue
        public var before: String?
        public var after: String?

        public init(seat: Int, number: Int? = nil, move: JSONValue, before: String? = nil, after: String? = nil) {
            self.seat = seat
            self.number = number
            self.move = move
            self.before = before
            self.after = after
        }
    }

    /// Why a log does not replay: the index of the step (or nil for the deals at the end) and the reason.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var index: Int?
        public var message: String
        public var description: String { index.map { "move \($0): \(message)" } ?? message }
    }

    public private(set) var sequencer: MoveSequencer
    /// The last deal checked against the seed (0 when none).
    public private(set) var verifiedDeal = 0
    /// Logged deals to check against the seed's shuffle; nil when the source holds none (a record: the engine deals
    /// from the seed itself, so there is nothing to check).
    let deals: [GameLog.LoggedDeal]?
    var applied = 0

    public init(game: any GameSession, deals: [GameLog.LoggedDeal]? = nil) {
        sequencer = MoveSequencer(game: game)
        self.deals = deals
    }

    /// A replayer of `game`'s first state for `players` and `seed`, from the catalog.
    public init(catalog: GameCatalog, game: String, players: Int, seed: UInt64, deals: [GameLog.LoggedDeal]? = nil)
        throws(Failure)
    {
        guard let entry = catalog[game] else { throw Failure(index: nil, message: "unknown game \(game)") }
        do { self.init(game: try entry.session(players: players, seed: seed), deals: deals) } catch {
            throw Failure(index: nil, message: "cannot set \(game) up: \(error.message)")
        }
    }

    public var game: any GameSession { sequencer.game }

    /// Checks and applies the next logged move. `beforeApply` runs first with the game as it stands (a restart
    /// moves its own bots' random streams on there).
    @discardableResult
    public mutating func apply(_ step: Step, beforeApply: (Step, any GameSession) -> Void = { _, _ in })
        throws(Failure) -> MoveSequencer.Applied
    {
        let index = applied
        try checkDeal()
        if deals != nil, sequencer.game.currentDeal != nil, verifiedDeal != sequencer.game.dealNumber {
            throw Failure(index: index, message: "comes before its deal \(sequencer.game.dealNumber)")
        }
        beforeApply(step, sequencer.game)
        let move: AnyGameMove
        do { move = try sequencer.game.decodeMove(step.move) } catch {
            throw Failure(index: index, message: error.message)
        }
        let number = step.number ?? sequencer.next(of: step.seat)
        if let before = step.before, before != sequencer.hashBefore(seat: step.seat).hex {
            throw Failure(index: index, message: "is made for another state than the one before it")
        }
        switch sequencer.apply(seat: step.seat, number: number, move: move, claimed: nil) {
        case .failure(let rejection):
            throw Failure(index: index, message: "\(rejection.code.rawValue): \(rejection.reason)")
        case .success(let done):
            if let after = step.after, after != done.after.hex {
                throw Failure(index: index, message: "ends at another hash than the log says")
            }
            applied += 1
            return done
        }
    }

    /// Checks the deal the game is on against the logged one, when the log holds it (a log may end before the
    /// host dealt again: the host deals it again after a restart).
    public mutating func checkDeal() throws(Failure) {
        guard let deals, let cards = sequencer.game.currentDeal, verifiedDeal < sequencer.game.dealNumber else {
            return
        }
        let number = sequencer.game.dealNumber
        guard let logged = deals.first(where: { $0.number == number }) else { return }
        guard logged.cards == cards else {
            throw Failure(index: nil, message: "deal \(number) is not the joint seed's shuffle")
        }
        verifiedDeal = number
    }
}
