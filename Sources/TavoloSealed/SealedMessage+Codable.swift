import TavoloCore

/// The JSON of §14.7: every binary field lower-case hex; a field of the wrong form makes the message malformed
/// (the receiver drops it and counts it, §9.1), never a crash.
extension SealedMessage: Codable {
    enum Key: String, CodingKey {
        case type, table, key, proof, pieces, deal, input, deck, shares, secrets, member
        case position, share, ephemeral, sealed, commitment, secret, holder, piece, number
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        let table = try c.decode(String.self, forKey: .table)
        guard (1...64).contains(table.utf8.count) else { throw Self.malformed(.table, c, "a table id of 1-64 bytes") }
        switch try c.decode(String.self, forKey: .type) {
        case "table.sealed-key":
            self = .key(
                table: table, key: try Self.point(.key, c),
                proof: try Self.value(.proof, c, KeyProof.byteCount, KeyProof.init(bytes:)))
        case "table.sealed-escrow":
            self = .escrow(table: table, pieces: try Self.pieces(c))
        case "table.sealed-shuffle":
            let deck = try Self.hex(.deck, c)
            guard !deck.isEmpty, deck.count % SealedCiphertext.byteCount == 0, deck.count <= Self.maxDeckBytes else {
                throw Self.malformed(.deck, c, "whole ciphertexts")
            }
            self = .shuffle(table: table, deal: try Self.deal(c), input: try Self.hex(.input, c, count: 32), deck: deck)
            self = try Self.acting(self, c)
        case "table.sealed-shares":
            self = .shares(table: table, deal: try Self.deal(c), shares: try Self.shares(c))
            self = try Self.acting(self, c)
        case "table.sealed-open":
            let share = DecryptionShare(
                share: try Self.point(.share, c),
                proof: try Self.value(.proof, c, ShareProof.byteCount, ShareProof.init(bytes:)))
            self = .open(
                table: table, deal: try Self.deal(c), number: try Self.number(.number, c, 0...Self.maxMoveNumber),
                position: try Self.number(.position, c, 0...Self.maxPosition), share: share)
        case "table.sealed-audit":
            var list = try c.nestedUnkeyedContainer(forKey: .secrets)
            var secrets: [MemberSecret] = []
            while !list.isAtEnd {
                let e = try list.nestedContainer(keyedBy: Key.self)
                secrets.append(
                    MemberSecret(member: try Self.member(.member, e), secret: try Self.hex(.secret, e, count: 32)))
            }
            guard !secrets.isEmpty, secrets.count <= Self.maxMember + 1 else {
                throw Self.malformed(.secrets, c, "1-16")
            }
            self = .audit(table: table, secrets: secrets)
        case "table.sealed-release":
            self = .release(table: table, member: try Self.member(.member, c), pieces: try Self.holderPieces(c))
        case "table.sealed-reescrow":
            self = .reEscrow(table: table, member: try Self.member(.member, c), pieces: try Self.pieces(c))
        case "table.sealed-rerelease":
            self = .reRelease(table: table, member: try Self.member(.member, c), pieces: try Self.holderPieces(c))
        default:
            throw Self.malformed(.type, c, "a sealed message type")
        }
    }

    public func encode(to encoder: Encoder) throws {
        if case .acting(let member, let inner) = self {
            try inner.encode(to: encoder)
            var c = encoder.container(keyedBy: Key.self)
            return try c.encode(member, forKey: .member)
        }
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(typeName, forKey: .type)
        try c.encode(table, forKey: .table)
        switch self {
        case .key(_, let key, let proof):
            try c.encode(key.bytes.hexString, forKey: .key)
            try c.encode(proof.bytes.hexString, forKey: .proof)
        case .escrow(_, let pieces), .reEscrow(_, _, let pieces):
            if case .reEscrow(_, let member, _) = self { try c.encode(member, forKey: .member) }
            var list = c.nestedUnkeyedContainer(forKey: .pieces)
            for p in pieces {
                var e = list.nestedContainer(keyedBy: Key.self)
                try e.encode(p.holder, forKey: .member)
                try e.encode(p.ephemeral.bytes.hexString, forKey: .ephemeral)
                try e.encode(p.sealed.hexString, forKey: .sealed)
                try e.encode(p.commitment.hexString, forKey: .commitment)
            }
        case .shuffle(_, let deal, let input, let deck):
            try c.encode(deal, forKey: .deal)
            try c.encode(input.hexString, forKey: .input)
            try c.encode(deck.hexString, forKey: .deck)
        case .shares(_, let deal, let shares):
            try c.encode(deal, forKey: .deal)
            var list = c.nestedUnkeyedContainer(forKey: .shares)
            for s in shares {
                var e = list.nestedContainer(keyedBy: Key.self)
                try e.encode(s.position, forKey: .position)
                try e.encode(s.share.share.bytes.hexString, forKey: .share)
                try e.encode(s.share.proof.bytes.hexString, forKey: .proof)
            }
        case .open(_, let deal, let number, let position, let share):
            try c.encode(deal, forKey: .deal)
            try c.encode(number, forKey: .number)
            try c.encode(position, forKey: .position)
            try c.encode(share.share.bytes.hexString, forKey: .share)
            try c.encode(share.proof.bytes.hexString, forKey: .proof)
        case .audit(_, let secrets):
            var list = c.nestedUnkeyedContainer(forKey: .secrets)
            for s in secrets {
                var e = list.nestedContainer(keyedBy: Key.self)
                try e.encode(s.member, forKey: .member)
                try e.encode(s.secret.hexString, forKey: .secret)
            }
        case .release(_, let member, let pieces), .reRelease(_, let member, let pieces):
            try c.encode(member, forKey: .member)
            var list = c.nestedUnkeyedContainer(forKey: .pieces)
            for p in pieces {
                var e = list.nestedContainer(keyedBy: Key.self)
                try e.encode(p.holder, forKey: .holder)
                try e.encode(p.piece.hexString, forKey: .piece)
            }
        case .acting: break
        }
    }

    /// A shuffle or shares with a `member` field: sent by the heir acting for that member (§14.11).
    static func acting(_ message: SealedMessage, _ c: KeyedDecodingContainer<Key>) throws -> SealedMessage {
        guard c.contains(.member) else { return message }
        return .acting(member: try member(.member, c), message)
    }
}
