import TavoloCore

/// A sealed game dealt again from its record (PROTOCOL.md §14.12): with every member's secret, one table acts for
/// every member — it makes each member's shuffle of each deal (the same bytes the member made: a step is a function of
/// σ and its input), opens every card, and plays the recorded moves, each card from the position its mover would have
/// opened (the first its seat held). Its `common` is the public completion every member hashed, so its hash is the
/// record's; its verdict is the audit every member ran.
extension SealedTable {
    /// Why a sealed record does not deal again to what it claims.
    public struct ReplayFailure: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// `secrets` are σ in member order; `seatMembers` the member whose seat each was when play began; `local` and
    /// `common` two fresh sessions of the game at the joint seed; `moves` in order, each with the seat that played it;
    /// `after` is told the public state's hash right after each move (what a sequencer stores, §14.9).
    public static func replaying(
        tableId: String, secrets: [[UInt8]], seatMembers: [Int], local: any SealedGameSession,
        common: any SealedGameSession, moves: [(seat: Int, move: AnyGameMove)],
        after: (Int, StateHash) -> Void = { _, _ in }
    ) throws(ReplayFailure) -> SealedTable {
        let context = SealedContext(tableId: tableId)
        guard !secrets.isEmpty, secrets.allSatisfy({ $0.count == SealedMemberSecret.byteCount }),
            seatMembers.count == common.playerCount, seatMembers.allSatisfy({ (0..<secrets.count).contains($0) })
        else { throw ReplayFailure(description: "secrets and seats do not match") }
        let all = secrets.enumerated().map { SealedMemberSecret(seed: $1, context: context, member: $0) }
        var table = SealedTable(
            context: context, secret: all[0], seatMembers: seatMembers, members: all.count, local: local,
            common: common)
        for other in all.dropFirst() {
            table.keys[other.member] = other.publicKey
            table.inherited[other.member] = other
            table.actors[other.member] = 0
        }
        do {
            _ = try table.beginDealIfDue()
            for (n, (seat, move)) in moves.enumerated() {
                guard seat == table.common.turn.seat else {
                    throw ReplayFailure(description: "move \(n): seat \(seat) does not play now")
                }
                let opening = try table.opening(seat: seat, move: move)
                guard try table.openPlay(seat: seat, move: move, opening: opening) else {
                    throw ReplayFailure(description: "move \(n): its card does not open")
                }
                do { try table.common.apply(move) } catch {
                    throw ReplayFailure(description: "move \(n): \(error.message)")
                }
                after(n, table.common.stateHash)
                _ = try table.applied(move)
            }
        } catch let fault as SealedFault {
            throw ReplayFailure(description: fault.description)
        } catch let failure as ReplayFailure {
            throw failure
        } catch {
            throw ReplayFailure(description: "\(error)")
        }
        return table
    }

    /// Each begun deal's final deck hash, in order.
    public var deckHashes: [[UInt8]] { deals.compactMap { $0.deal.finalDeck.map(SealedDeck.hash) } }
}
