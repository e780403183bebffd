import TavoloCore
import TavoloProtocol

/// The messages of a game that survives a lost member (§9.10–9.12), decoded and encoded apart from the others.
extension TableMessage {
    static func decodeResilience(_ type: String, table t: TableID, _ c: KeyedDecodingContainer<Key>) throws
        -> TableMessage?
    {
        switch type {
        case "table.sync":
            return .sync(
                table: t, moves: try c.decode(Int.self, forKey: .moves),
                stateHash: try c.decode(StateHash.self, forKey: .stateHash))
        case "table.catch-up":
            return .catchUp(
                table: t, deals: try c.decode([RelayedDeal].self, forKey: .deals),
                moves: try c.decode([RelayedMove].self, forKey: .moves))
        case "table.takeover":
            let voters = try c.decodeIfPresent([NodeID].self, forKey: .voters)
            guard (voters?.count ?? 0) <= 16 else {
                throw DecodingError.dataCorruptedError(forKey: .voters, in: c, debugDescription: "over 16 voters")
            }
            return .takeover(
                table: t, member: try c.decode(NodeID.self, forKey: .member),
                number: try c.decode(Int.self, forKey: .number), voters: voters)
        case "table.forfeit":
            let seatMoves = try c.decodeIfPresent([Int].self, forKey: .seatMoves)
            guard (seatMoves?.count ?? 0) <= 16 else {
                throw DecodingError.dataCorruptedError(forKey: .seatMoves, in: c, debugDescription: "over 16 seats")
            }
            return .forfeit(
                table: t, number: try c.decode(Int.self, forKey: .number),
                signature: try c.decodeIfPresent(SignatureObject.self, forKey: .signature), seatMoves: seatMoves)
        default: return nil
        }
    }

    func encodeResilience(_ c: inout KeyedEncodingContainer<Key>) throws {
        switch self {
        case .sync(_, let moves, let hash):
            try c.encode(moves, forKey: .moves)
            try c.encode(hash, forKey: .stateHash)
        case .catchUp(_, let deals, let moves):
            try c.encode(deals, forKey: .deals)
            try c.encode(moves, forKey: .moves)
        case .takeover(_, let member, let number, let voters):
            try c.encode(member, forKey: .member)
            try c.encode(number, forKey: .number)
            try c.encodeIfPresent(voters, forKey: .voters)
        case .forfeit(_, let number, let signature, let seatMoves):
            try c.encode(number, forKey: .number)
            try c.encodeIfPresent(signature, forKey: .signature)
            try c.encodeIfPresent(seatMoves, forKey: .seatMoves)
        default: break
        }
    }
}
