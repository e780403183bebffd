import TavoloCore

/// Field readers for `SealedMessage`'s decoder: each refuses what §14.2 and §14.7 refuse (upper-case or odd hex,
/// a wrong length, a non-canonical point or scalar, a number out of range).
extension SealedMessage {
    typealias Fields = KeyedDecodingContainer<Key>

    static func malformed(_ key: Key, _ c: Fields, _ expected: String) -> DecodingError {
        .dataCorruptedError(forKey: key, in: c, debugDescription: "expected \(expected)")
    }

    static func hex(_ key: Key, _ c: Fields, count: Int? = nil) throws -> [UInt8] {
        let text = try c.decode(String.self, forKey: key)
        guard let bytes = [UInt8](hexString: text), bytes.hexString == text, count.map({ bytes.count == $0 }) ?? true
        else { throw malformed(key, c, "lower-case hex" + (count.map { " of \($0) bytes" } ?? "")) }
        return bytes
    }

    static func value<T>(_ key: Key, _ c: Fields, _ count: Int, _ make: ([UInt8]) -> T?) throws -> T {
        guard let v = make(try hex(key, c, count: count)) else { throw malformed(key, c, "canonical encodings") }
        return v
    }

    static func point(_ key: Key, _ c: Fields) throws -> RistrettoPoint {
        try value(key, c, RistrettoPoint.byteCount, RistrettoPoint.init(bytes:))
    }

    static func number(_ key: Key, _ c: Fields, _ range: ClosedRange<Int>) throws -> Int {
        let n = try c.decode(Int.self, forKey: key)
        guard range.contains(n) else { throw malformed(key, c, "\(range)") }
        return n
    }

    static func member(_ key: Key, _ c: Fields) throws -> Int { try number(key, c, 0...maxMember) }
    static func deal(_ c: Fields) throws -> Int { try number(.deal, c, 1...maxDeal) }

    static func pieces(_ c: Fields) throws -> [SealedEscrow.SealedPiece] {
        var list = try c.nestedUnkeyedContainer(forKey: .pieces)
        var pieces: [SealedEscrow.SealedPiece] = []
        while !list.isAtEnd {
            let e = try list.nestedContainer(keyedBy: Key.self)
            pieces.append(
                SealedEscrow.SealedPiece(
                    holder: try member(.member, e), ephemeral: try point(.ephemeral, e),
                    sealed: try hex(.sealed, e, count: 32), commitment: try hex(.commitment, e, count: 32)))
        }
        guard (2...maxMember).contains(pieces.count) else { throw malformed(.pieces, c, "2-15 pieces") }
        return pieces
    }

    /// A release's pieces: 1 to 16 `{holder, piece}`.
    static func holderPieces(_ c: Fields) throws -> [HolderPiece] {
        var list = try c.nestedUnkeyedContainer(forKey: .pieces)
        var pieces: [HolderPiece] = []
        while !list.isAtEnd {
            let e = try list.nestedContainer(keyedBy: Key.self)
            pieces.append(HolderPiece(holder: try member(.holder, e), piece: try hex(.piece, e, count: 32)))
        }
        guard !pieces.isEmpty, pieces.count <= maxMember + 1 else { throw malformed(.pieces, c, "1-16") }
        return pieces
    }

    /// Shares in strictly ascending position, each a canonical point and proof.
    static func shares(_ c: Fields) throws -> [PositionShare] {
        var list = try c.nestedUnkeyedContainer(forKey: .shares)
        var shares: [PositionShare] = []
        while !list.isAtEnd {
            let e = try list.nestedContainer(keyedBy: Key.self)
            let position = try number(.position, e, 0...maxPosition)
            guard shares.last.map({ $0.position < position }) ?? true else {
                throw malformed(.position, e, "positions in ascending order")
            }
            let share = DecryptionShare(
                share: try point(.share, e), proof: try value(.proof, e, ShareProof.byteCount, ShareProof.init(bytes:)))
            shares.append(PositionShare(position: position, share: share))
        }
        guard !shares.isEmpty else { throw malformed(.shares, c, "at least one share") }
        return shares
    }
}
