import TavoloCore
import TavoloRecordFormat
import TavoloSealed
import TavoloTable

/// A sealed game's record (PROTOCOL.md §14.12): its deals are not the joint seed's, so the receiver deals them again
/// from the members' secrets — every member's shuffle of every deal, each deck checked against the record's hash —
/// opens every card, plays the moves on the public completion the members hashed, and runs the audit again: the
/// final hash, the result and the members named must be the record's.
extension RecordVerifier {
    /// `sealed` and `cheaters`: well formed, and only together.
    func sealedFieldProblem(_ b: RecordBody) -> String? {
        guard let sealed = b.sealed else { return b.cheaters == nil ? nil : "cheaters without sealed" }
        let hex64 = { (s: String) in s.utf8.count == 64 && RecordLimits.isLowerHex(s) }
        // Not a range of `players`: a hostile body may claim 0 players, and `1...0` would trap.
        guard sealed.secrets.count >= 1, sealed.secrets.count <= b.players, sealed.secrets.allSatisfy(hex64) else {
            return "sealed.secrets: one 64-digit hex secret per member"
        }
        guard (1...RecordLimits.maxSealedDeals).contains(sealed.deckHashes.count), sealed.deckHashes.allSatisfy(hex64)
        else { return "sealed.deckHashes: 1 to \(RecordLimits.maxSealedDeals) 64-digit hex hashes" }
        if let cheaters = b.cheaters, cheaters.isEmpty || !cheaters.allSatisfy(RecordLimits.isNodeID) {
            return "cheaters: node ids, absent when none"
        }
        return nil
    }

    func sealedReplay(_ b: RecordBody, _ sealed: RecordBody.Sealed, entry: GameEntry, seed: UInt64) -> Result<
        Void, Refusal
    > {
        let (members, seatMembers) = b.sealedMembers
        guard members.count == sealed.secrets.count else { return .failure(.init("sealed: one secret per member")) }
        let secrets = sealed.secrets.compactMap { [UInt8](hexString: $0) }
        let table: SealedTable
        do {
            guard let local = try entry.sealedSession(players: b.players, seed: seed),
                let common = try entry.sealedSession(players: b.players, seed: seed)
            else { return .failure(.init("\(b.game) is not dealt sealed")) }
            var moves: [(seat: Int, move: AnyGameMove)] = []
            for (n, m) in b.moves.enumerated() {
                do { moves.append((m.seat, try common.decodeMove(m.move))) } catch {
                    return .failure(.init("move \(n): \(error.message)"))
                }
            }
            table = try SealedTable.replaying(
                tableId: b.table, secrets: secrets, seatMembers: seatMembers, local: local, common: common,
                moves: moves)
        } catch let failure as SealedTable.ReplayFailure {
            return .failure(.init("sealed: \(failure.description)"))
        } catch {
            return .failure(.init("cannot start \(b.game): \(error)"))
        }
        return sealedOutcomeProblem(b, sealed, table, members: members).map { .failure(.init($0)) } ?? .success(())
    }

    func sealedOutcomeProblem(_ b: RecordBody, _ sealed: RecordBody.Sealed, _ table: SealedTable, members: [String])
        -> String?
    {
        let game = table.common
        guard table.deckHashes.map(\.hexString) == sealed.deckHashes else {
            return "sealed: the secrets deal other decks than the deck hashes claimed"
        }
        guard game.stateHash.hex == b.finalHash else {
            return "the moves reach \(game.stateHash.hex.prefix(16))…, not the final hash claimed"
        }
        if b.outcome == .finished, game.outcome == nil {
            return "finished, but the game is not over after \(b.moves.count) moves"
        }
        if let problem = turnOutcomeProblem(b, game.outcome) { return problem }
        let named = table.verdict().cheaters.map { members[$0] }.sorted()
        guard named == (b.cheaters ?? []).sorted() else { return "cheaters are not the ones the audit names" }
        return nil
    }
}
