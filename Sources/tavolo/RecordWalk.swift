import TavoloCore
import TavoloRecordFormat
import TavoloSealed
import TavoloTable

/// A record's game walked move by move, for `tavolo show`: the game as it stands after each move, every hand in
/// sight (a finished game hides nothing any more), and the state hash its members agreed on there. An open deck
/// replays from the joint seed through `LogReplayer`, as a node does. A sealed deck's deals are not the seed's: the
/// walk deals them again from the members' secrets, as the verifier does (PROTOCOL.md §14.12), and plays the moves on
/// every deal's true order; the hashes are those of the public completion the members hashed.
struct RecordWalk {
    struct Failure: Error, Sendable, CustomStringConvertible {
        var description: String
    }

    private enum Deck {
        case open(LogReplayer)
        /// Every deal's true order, the moves, and the members' hash after each.
        case sealed(orders: [[Int]], moves: [AnyGameMove], hashes: [String])
    }

    private var deck: Deck
    private let recorded: [RecordBody.Move]
    /// The game as it stands: the next move not yet applied.
    private(set) var game: any GameSession
    /// The state hash the members agreed on as the game stands.
    private(set) var hash: String
    /// How many moves were applied.
    private(set) var applied = 0

    init(_ b: RecordBody, catalog: GameCatalog) throws(Failure) {
        guard let seed = b.seed, let entry = catalog[b.game] else {
            throw Failure(description: "this build cannot replay \(b.game)")
        }
        recorded = b.moves
        guard let sealed = b.sealed else {
            let replayer: LogReplayer
            do { replayer = try LogReplayer(catalog: catalog, game: b.game, players: b.players, seed: seed) } catch {
                throw Failure(description: "this build cannot replay \(b.game): \(error.message)")
            }
            deck = .open(replayer)
            game = replayer.game
            hash = replayer.game.stateHash.hex
            return
        }
        (deck, game, hash) = try Self.sealedDeck(b, sealed, entry: entry, seed: seed)
    }

    /// Deals a sealed record again and keeps what the walk needs: the true orders, the moves, the members' hashes.
    private static func sealedDeck(_ b: RecordBody, _ sealed: RecordBody.Sealed, entry: GameEntry, seed: UInt64)
        throws(Failure) -> (Deck, any GameSession, String)
    {
        let seatMembers = b.sealedMembers.seatMembers
        let secrets = sealed.secrets.compactMap { [UInt8](hexString: $0) }
        do {
            guard let local = try entry.sealedSession(players: b.players, seed: seed),
                let common = try entry.sealedSession(players: b.players, seed: seed),
                let walked = try entry.sealedSession(players: b.players, seed: seed)
            else { throw Failure(description: "\(b.game) is not dealt sealed") }
            let start = common.stateHash.hex
            var moves: [(seat: Int, move: AnyGameMove)] = []
            for (n, m) in b.moves.enumerated() {
                do { moves.append((m.seat, try common.decodeMove(m.move))) } catch {
                    throw Failure(description: "move \(n) does not decode: \(error.message)")
                }
            }
            var hashes: [String] = [start]
            let table = try SealedTable.replaying(
                tableId: b.table, secrets: secrets, seatMembers: seatMembers, local: local, common: common,
                moves: moves, after: { _, hash in hashes.append(hash.hex) })
            guard let orders = table.trueOrders else {
                throw Failure(description: "the secrets do not open every deal")
            }
            try walked.sealedRebuild(deals: orders, moves: [])
            return (.sealed(orders: orders, moves: moves.map(\.move), hashes: hashes), walked, start)
        } catch let failure as Failure {
            throw failure
        } catch let failure as SealedTable.ReplayFailure {
            throw Failure(description: "the sealed deal does not replay: \(failure.description)")
        } catch {
            throw Failure(description: "cannot replay \(b.game): \(error)")
        }
    }

    /// Applies the next recorded move; returns it in words.
    mutating func applyNext() throws(Failure) -> String {
        let n = applied
        guard n < recorded.count else { throw Failure(description: "move \(n) is not recorded") }
        let text: String
        switch deck {
        case .open(var replayer):
            // The same replay a node runs (a race's moves each applied to their own seat's board).
            let step = LogReplayer.Step(seat: recorded[n].seat, move: recorded[n].move)
            do { text = try replayer.apply(step).text } catch {
                throw Failure(description: "move \(n) does not replay: \(error.message)")
            }
            deck = .open(replayer)
            hash = replayer.game.stateHash.hex
        case .sealed(let orders, let moves, let hashes):
            text = game.describe(moves[n], seat: recorded[n].seat)
            // From the seed each time: a sealed session installs each deal's order as the game reaches it.
            do { try (game as? any SealedGameSession)?.sealedRebuild(deals: orders, moves: Array(moves[...n])) } catch {
                throw Failure(description: "move \(n) does not replay: \(error.message)")
            }
            hash = hashes[n + 1]
        }
        applied += 1
        return text
    }
}
