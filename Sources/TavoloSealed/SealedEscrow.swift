/// A member's secret split among the other members so the game can go on without it (§14.11): XOR pieces of σ,
/// one per other member, each sealed to its holder's public key, with a public hash commitment to each. The pieces of all
/// the others together give σ back; fewer give nothing. With two members there is no escrow: the only other member
/// would hold σ whole and could read every card of its opponent.
public enum SealedEscrow {
    public static let pieceLabel = "tavolo/sealed/escrow-piece/v1"
    public static let commitmentLabel = "tavolo/sealed/escrow/v1"

    /// The pieces of `secret` for `holders` (the other members' indices, ascending): every piece but the last is
    /// derived from σ; the last is σ XOR all the others.
    public static func pieces(of secret: SealedMemberSecret, holders: [Int]) -> [[UInt8]] {
        precondition(holders.count >= 2, "escrow needs at least two holders")
        var pieces = holders.dropLast().map { holder -> [UInt8] in
            var t = SealedMemberSecret.derive(pieceLabel, secret.seed, secret.context)
            t.append(u8: UInt8(holder))
            return t.sha256()
        }
        pieces.append(pieces.reduce(secret.seed, xor))
        return pieces
    }

    /// The public commitment to the piece of member `owner`'s secret that `holder` keeps.
    public static func commitment(context: SealedContext, owner: Int, holder: Int, piece: [UInt8]) -> [UInt8] {
        var t = context.transcript(commitmentLabel)
        t.append(u8: UInt8(owner))
        t.append(u8: UInt8(holder))
        t.append(piece)
        return t.sha256()
    }

    /// σ from every holder's piece, or nil when the result is not the secret of `publicKey`.
    public static func recover(
        pieces: [[UInt8]], context: SealedContext, member: Int, publicKey: RistrettoPoint
    ) -> SealedMemberSecret? {
        guard pieces.allSatisfy({ $0.count == SealedMemberSecret.byteCount }) else { return nil }
        let seed = pieces.reduce([UInt8](repeating: 0, count: SealedMemberSecret.byteCount), xor)
        let secret = SealedMemberSecret(seed: seed, context: context, member: member)
        return secret.publicKey == publicKey ? secret : nil
    }

    /// One piece as `table.sealed-escrow` carries it: sealed to the holder's key, with its commitment.
    public struct SealedPiece: Hashable, Sendable {
        public let holder: Int
        /// `E = e·G`.
        public let ephemeral: RistrettoPoint
        /// The piece XOR a pad only the holder (or whoever recovers the holder's secret) can compute.
        public let sealed: [UInt8]
        public let commitment: [UInt8]

        public init(holder: Int, ephemeral: RistrettoPoint, sealed: [UInt8], commitment: [UInt8]) {
            self.holder = holder
            self.ephemeral = ephemeral
            self.sealed = sealed
            self.commitment = commitment
        }
    }

    /// Every piece of `secret` for `holders`, sealed to `holderKeys` (one per holder, same order).
    public static func seal(_ secret: SealedMemberSecret, holders: [Int], holderKeys: [RistrettoPoint]) -> [SealedPiece]
    {
        precondition(holders.count == holderKeys.count)
        return zip(zip(holders, holderKeys), pieces(of: secret, holders: holders)).map { holderAndKey, piece in
            let (holder, key) = holderAndKey
            var t = SealedMemberSecret.derive("tavolo/sealed/escrow-ephemeral/v1", secret.seed, secret.context)
            t.append(u8: UInt8(holder))
            let e = t.scalar()
            let pad = self.pad(context: secret.context, owner: secret.member, holder: holder, shared: key.times(e))
            return SealedPiece(
                holder: holder, ephemeral: .base(times: e), sealed: xor(piece, pad),
                commitment: commitment(context: secret.context, owner: secret.member, holder: holder, piece: piece))
        }
    }

    /// The holder's piece from `sealed`, or nil when it does not open to its commitment (the owner lied).
    public static func open(_ sealed: SealedPiece, owner: Int, holder: SealedMemberSecret) -> [UInt8]? {
        guard sealed.sealed.count == SealedMemberSecret.byteCount, sealed.holder == holder.member else { return nil }
        let pad = pad(
            context: holder.context, owner: owner, holder: holder.member, shared: sealed.ephemeral.times(holder.key))
        let piece = xor(sealed.sealed, pad)
        let expected = commitment(context: holder.context, owner: owner, holder: holder.member, piece: piece)
        return expected == sealed.commitment ? piece : nil
    }

    static func pad(context: SealedContext, owner: Int, holder: Int, shared: RistrettoPoint) -> [UInt8] {
        var t = context.transcript("tavolo/sealed/escrow-pad/v1")
        t.append(u8: UInt8(owner))
        t.append(u8: UInt8(holder))
        t.append(shared)
        return t.sha256()
    }

    static func xor(_ x: [UInt8], _ y: [UInt8]) -> [UInt8] { zip(x, y).map { $0 ^ $1 } }
}
