import TavoloCore
import TavoloProtocol

/// The event's JSON is flat, one object with `kind`, `table`, `game` and the fields of its kind (PROTOCOL.md §9.7).
extension TableEvent: Codable {
    private enum Key: String, CodingKey {
        case kind, table, game, message, seat, moveNumber, move, stateHash, jointSeed, winners, scores, finalHashes,
            code, number, ranking, members, since, seats, sealed, cheaters
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(kind, forKey: .kind)
        try c.encode(table, forKey: .table)
        try c.encode(game, forKey: .game)
        try c.encodeIfPresent(message, forKey: .message)
        switch detail {
        case .offered, .updated, .seatRefused, .started: break
        case .invited(let seat, _): try c.encode(seat, forKey: .seat)
        case .seeded(let hash): try c.encode(hash, forKey: .stateHash)
        case .dealt(let number, _): try c.encode(number, forKey: .number)
        case .yourTurn(let seat, let n):
            try c.encode(seat, forKey: .seat)
            try c.encode(n, forKey: .moveNumber)
        case .moved(let n, let seat, let move, let hash, _):
            try c.encode(n, forKey: .moveNumber)
            try c.encode(seat, forKey: .seat)
            try c.encode(move, forKey: .move)
            try c.encode(hash, forKey: .stateHash)
        case .rejected(let n, let code, _):
            try c.encode(n, forKey: .moveNumber)
            try c.encode(code, forKey: .code)
        case .finished(let r):
            try c.encode(r.winners, forKey: .winners)
            try c.encode(r.scores, forKey: .scores)
            try c.encode(r.finalHash, forKey: .stateHash)
            try c.encode(r.finalHashes, forKey: .finalHashes)
            try c.encode(r.jointSeed, forKey: .jointSeed)
            try c.encode(r.moves, forKey: .moveNumber)
            try c.encodeIfPresent(r.ranking, forKey: .ranking)
            try c.encodeIfPresent(r.sealed, forKey: .sealed)
            try c.encodeIfPresent(r.cheaters, forKey: .cheaters)
        case .stopped(let code, _): try c.encode(code, forKey: .code)
        case .paused(let members, let since, _):
            try c.encode(members, forKey: .members)
            try c.encodeIfPresent(since, forKey: .since)
        case .resumed: break
        case .takenOver(let seats, _): try c.encode(seats, forKey: .seats)
        }
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        table = try c.decode(TableID.self, forKey: .table)
        game = try c.decode(String.self, forKey: .game)
        let message = try c.decodeIfPresent(String.self, forKey: .message) ?? ""
        switch try c.decode(Kind.self, forKey: .kind) {
        case .offered: detail = .offered(message: message)
        case .updated: detail = .updated
        case .invited: detail = .invited(seat: try c.decode(Int.self, forKey: .seat), message: message)
        case .seatRefused: detail = .seatRefused(message: message)
        case .started: detail = .started(message: message)
        case .seeded:
            detail = .seeded(stateHash: try c.decode(StateHash.self, forKey: .stateHash))
        case .dealt: detail = .dealt(number: try c.decode(Int.self, forKey: .number), message: message)
        case .yourTurn:
            detail = .yourTurn(
                seat: try c.decode(Int.self, forKey: .seat), moveNumber: try c.decode(Int.self, forKey: .moveNumber))
        case .moved:
            detail = .moved(
                moveNumber: try c.decode(Int.self, forKey: .moveNumber), seat: try c.decode(Int.self, forKey: .seat),
                move: try c.decode(JSONValue.self, forKey: .move),
                stateHash: try c.decode(StateHash.self, forKey: .stateHash), text: message)
        case .rejected:
            detail = .rejected(
                moveNumber: try c.decode(Int.self, forKey: .moveNumber),
                code: try c.decode(MoveErrorCode.self, forKey: .code), message: message)
        case .finished:
            var result =
                TableResult(
                    winners: try c.decode([Int].self, forKey: .winners),
                    scores: try c.decode([Int].self, forKey: .scores),
                    finalHash: try c.decode(StateHash.self, forKey: .stateHash),
                    finalHashes: try c.decode([String: String].self, forKey: .finalHashes),
                    jointSeed: try c.decode(UInt64.self, forKey: .jointSeed),
                    moves: try c.decode(Int.self, forKey: .moveNumber))
            result.ranking = try c.decodeIfPresent([Int].self, forKey: .ranking)
            result.sealed = try c.decodeIfPresent(String.self, forKey: .sealed)
            result.cheaters = try c.decodeIfPresent([String].self, forKey: .cheaters)
            detail = .finished(result)
        case .stopped:
            detail = .stopped(code: try c.decode(StopCode.self, forKey: .code), message: message)
        case .paused:
            detail = .paused(
                members: try c.decode([String].self, forKey: .members),
                since: try c.decodeIfPresent(String.self, forKey: .since), message: message)
        case .resumed: detail = .resumed(message: message)
        case .takenOver: detail = .takenOver(seats: try c.decode([Int].self, forKey: .seats), message: message)
        }
    }
}
