import TavoloCore
import TavoloProtocol
import TavoloSealed

/// A sealed table in a capture (PROTOCOL.md §14.12). Nobody outside it can open a card before the audit, so the
/// capture is checked once every member's secret is in it: the joint seed from the commitments and reveals, each
/// secret against the key its member sent, every deal dealt again from the secrets (as a record is), every captured
/// move replayed on the public completion, and each hash a move, a confirmation or a result claims checked against it.
extension TableReplay {
    /// What a sealed table's capture holds, gathered in capture order.
    struct SealedCapture {
        var info: TableInfo?
        var commitments: [NodeID: String] = [:]
        var nonces: [NodeID: [UInt8]] = [:]
        var keys: [NodeID: RistrettoPoint] = [:]
        var secrets: [Int: [UInt8]] = [:]
        var moves: [Int: (seat: Int, move: JSONValue, claimed: StateHash)] = [:]
        var confirmations: [(number: Int, hash: StateHash)] = []
        var results: [StateHash] = []
        var problem: String?

        mutating func add(_ m: TableMessage, from sender: NodeID) {
            switch m {
            // The offer that started the table: its seats are the members' order (§14.1).
            case .offer(let offered) where commitments.isEmpty: info = offered
            case .commit(_, let c): commitments[sender] = c
            case .reveal(_, let hex): nonces[sender] = [UInt8](hexString: hex)
            case .sealed(_, .key(_, let key, _)): keys[sender] = key
            case .sealed(_, .audit(_, let list)):
                for entry in list {
                    if let known = secrets[entry.member], known != entry.secret {
                        problem = "two different secrets of member \(entry.member)"
                    }
                    secrets[entry.member] = entry.secret
                }
            case .move(_, let number, let seat, let move, let claimed):
                if moves[number] == nil { moves[number] = (seat, move, claimed) }
            case .catchUp(_, _, let relayed):
                for r in relayed where moves[r.number] == nil { moves[r.number] = (r.seat, r.move, r.stateHash) }
            case .confirm(_, let number, let hash): confirmations.append((number, hash))
            case .result(_, _, _, let hash, _): results.append(hash)
            default: break
            }
        }
    }

    func replaySealed(_ messages: [(Captured, TableMessage)], _ out: inout Outcome) {
        var capture = SealedCapture()
        for (c, m) in messages { if let sender = c.sender { capture.add(m, from: sender) } }
        guard let info = capture.info, let entry = catalog[info.game] else {
            out.problem = "no table.offer of a known game in the capture"
            return
        }
        out.game = info.game
        let members = info.participants
        let nonces = members.compactMap { capture.nonces[$0] }
        guard nonces.count == members.count,
            members.allSatisfy({ capture.nonces[$0].map(JointSeed.commitment(for:)) == capture.commitments[$0] })
        else { return out.problem = "the capture lacks a commitment or a reveal, or one does not match" }
        let seed = JointSeed.seed(nonces: nonces)
        out.jointSeed = seed
        if let problem = capture.problem { return out.problem = problem }
        guard (0..<members.count).allSatisfy({ capture.secrets[$0] != nil }) else {
            out.unverifiable =
                "a sealed game is checked once its audit is in the capture (every member's secret): this one is not"
            return
        }
        let secrets = (0..<members.count).compactMap { capture.secrets[$0] }
        let context = SealedContext(tableId: info.id.rawValue)
        for (j, node) in members.enumerated()
        where capture.keys[node] != SealedMemberSecret(seed: secrets[j], context: context, member: j).publicKey {
            return out.problem = "member \(j)'s secret does not derive the key it sent"
        }
        replaySealedMoves(capture, info: info, entry: entry, seed: seed, secrets: secrets, &out)
    }

    private func replaySealedMoves(
        _ capture: SealedCapture, info: TableInfo, entry: GameEntry, seed: UInt64, secrets: [[UInt8]],
        _ out: inout Outcome
    ) {
        let members = info.participants
        let seatMembers = info.seats.compactMap { $0.owner.flatMap(members.firstIndex(of:)) }
        var claimed: [StateHash] = []
        var after: [StateHash] = []
        do {
            guard let local = try entry.sealedSession(players: info.players, seed: seed),
                let common = try entry.sealedSession(players: info.players, seed: seed)
            else { return out.problem = "\(info.game) is not dealt sealed" }
            var moves: [(seat: Int, move: AnyGameMove)] = []
            for n in 0..<capture.moves.count {
                guard let m = capture.moves[n] else { return out.problem = "move \(n) is not in the capture" }
                moves.append((m.seat, try common.decodeMove(m.move)))
                claimed.append(m.claimed)
            }
            let table = try SealedTable.replaying(
                tableId: info.id.rawValue, secrets: secrets, seatMembers: seatMembers, local: local, common: common,
                moves: moves, after: { _, hash in after.append(hash) })
            out.movesReplayed = moves.count
            out.finalHash = table.common.stateHash
        } catch {
            return out.problem = "the sealed game does not deal again from its secrets: \(error)"
        }
        checkSealedHashes(capture, claimed: claimed, after: after, &out)
    }

    /// Move `n` claims the hash after move `n − 1` (the initial one for move 0 is not checked: the seed's own); a
    /// confirmation of `n`, the hash after it; a result, the final one.
    private func checkSealedHashes(
        _ capture: SealedCapture, claimed: [StateHash], after: [StateHash], _ out: inout Outcome
    ) {
        for n in claimed.indices.dropFirst() where !claimed[n].agrees(with: after[n - 1]) {
            return out.problem = "move \(n) claims another state than the replay's"
        }
        for c in capture.confirmations where after.indices.contains(c.number) {
            guard c.hash.agrees(with: after[c.number]) else {
                return out.problem = "a confirmation of move \(c.number) claims another state than the replay's"
            }
            out.hashesChecked += 1
        }
        for r in capture.results {
            guard let last = after.last, r.agrees(with: last) else {
                return out.problem = "a result claims another final state than the replay's"
            }
            out.hashesChecked += 1
        }
        out.hashesChecked += max(claimed.count - 1, 0)
    }
}
