/// The sealed deck's table messages (PROTOCOL.md §14.7), typed: a value of this type holds only canonical points,
/// proofs and scalars, so whatever decodes can go straight to `SealedDeal`'s checks. The table layer routes them by
/// `type` like the rest of §9 (not yet: §14.14).
public enum SealedMessage: Sendable, Equatable {
    /// While seeding, with `table.commit`: my public key and its proof of knowledge.
    case key(table: String, key: RistrettoPoint, proof: KeyProof)
    /// Once every key is in (three members or more): my secret's pieces, each sealed to its holder.
    case escrow(table: String, pieces: [SealedEscrow.SealedPiece])
    /// My step of deal `deal`: the hash of the deck I took and the deck I made (`n × 64` bytes, decoded by the deal,
    /// which knows `n`).
    case shuffle(table: String, deal: Int, input: [UInt8], deck: [UInt8])
    /// My shares for these positions of deal `deal`, ascending.
    case shares(table: String, deal: Int, shares: [PositionShare])
    /// The mover → table, right before its `table.move` of number `number` that plays a card from a hand (on the same
    /// connection, so it arrives first): the card's position in deal `deal` and the mover's share of it.
    case open(table: String, deal: Int, number: Int, position: Int, share: DecryptionShare)
    /// At the end: my secret, then any I recovered as an heir.
    case audit(table: String, secrets: [MemberSecret])
    /// To the heir only: my escrow pieces of member `member`'s secret, one for each member I act for (my own, and
    /// any whose secret I recovered as an heir) (§14.11).
    case release(table: String, member: Int, pieces: [HolderPiece])
    /// The heir → table: the secret of member `member`, which it recovered and acts for, split again among the members
    /// it does not act for, as at seeding (§14.11's second escrow): so that its own heir can recover both secrets.
    case reEscrow(table: String, member: Int, pieces: [SealedEscrow.SealedPiece])
    /// To the heir only: my pieces of the second escrows of member `member`'s secret, one for each holder I act for
    /// (§14.11).
    case reRelease(table: String, member: Int, pieces: [HolderPiece])
    /// A step or shares of member `member`, sent by the heir that acts for it since it left (§14.11): on the wire, the
    /// inner `table.sealed-shuffle` or `table.sealed-shares` with a `member` field.
    indirect case acting(member: Int, SealedMessage)

    public struct PositionShare: Sendable, Equatable {
        public var position: Int
        public var share: DecryptionShare
        public init(position: Int, share: DecryptionShare) {
            self.position = position
            self.share = share
        }
    }

    public struct MemberSecret: Sendable, Equatable {
        public var member: Int
        public var secret: [UInt8]
        public init(member: Int, secret: [UInt8]) {
            self.member = member
            self.secret = secret
        }
    }

    public struct HolderPiece: Sendable, Equatable {
        public var holder: Int
        public var piece: [UInt8]
        public init(holder: Int, piece: [UInt8]) {
            self.holder = holder
            self.piece = piece
        }
    }

    public var typeName: String {
        switch self {
        case .key: "table.sealed-key"
        case .escrow: "table.sealed-escrow"
        case .shuffle: "table.sealed-shuffle"
        case .shares: "table.sealed-shares"
        case .open: "table.sealed-open"
        case .audit: "table.sealed-audit"
        case .release: "table.sealed-release"
        case .reEscrow: "table.sealed-reescrow"
        case .reRelease: "table.sealed-rerelease"
        case .acting(_, let inner): inner.typeName
        }
    }

    public var table: String {
        switch self {
        case .key(let t, _, _), .escrow(let t, _), .shuffle(let t, _, _, _), .shares(let t, _, _),
            .open(let t, _, _, _, _), .audit(let t, _), .release(let t, _, _), .reEscrow(let t, _, _),
            .reRelease(let t, _, _):
            t
        case .acting(_, let inner): inner.table
        }
    }

    /// Members are participants (at most 6 seats, §9); positions index a deck of at most 54 cards; deals count
    /// Spirits!' three rounds. Generous bounds, so a future game fits, but nothing a receiver must loop over long.
    static let maxMember = 15
    static let maxPosition = 255
    static let maxDeal = 1_000
    /// A move number: far beyond any card game's length.
    static let maxMoveNumber = 100_000
    /// The largest deck a message may carry: 255 cards (6,912 bytes of hex for 54 stay far inside §9.1's limit).
    static let maxDeckBytes = (maxPosition + 1) * SealedCiphertext.byteCount
}
