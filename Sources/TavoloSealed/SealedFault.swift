/// A lie or a broken rule at a sealed table (PROTOCOL.md §14.9–§14.10), with the member it names. The codes are the
/// stop codes and audit verdicts the spec lists, shared by the wire, the logs and the tests.
public struct SealedFault: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Code: String, Sendable {
        /// A key whose proof does not verify.
        case badKey = "sealed/bad-key"
        /// An escrow piece that does not open to its commitment.
        case badEscrow = "sealed/bad-escrow"
        /// A shuffle out of turn, on another input than this node holds, or malformed.
        case badDeck = "sealed/bad-deck"
        /// A decryption share whose proof does not verify, or a second, different share for the same card.
        case badShare = "sealed/bad-share"
        /// A card that opens to no card of the deck, or to one already opened in the deal: a false shuffle somewhere.
        case badCard = "sealed/bad-card"
        /// A card played that is not the card at the position it names, or a position the seat does not hold.
        case wrongCard = "sealed/wrong-card"
        /// A member that did not open its secret at the audit.
        case noAudit = "sealed/no-audit"
        /// A secret that does not derive the member's public key.
        case badSecret = "sealed/bad-secret"
        /// A shuffle that the member's revealed secret does not reproduce.
        case badShuffle = "sealed/bad-shuffle"
        /// A claim that depended on a hidden hand, false once every hand is known (Spirits!' `flee` with a legal card).
        case falseFlee = "sealed/false-flee"
        /// Not a lie: this node missed a whole deal and cannot follow (§14.12); it stops its own copy only.
        case behind = "sealed/unsupported"
    }

    public let code: Code
    /// The member (index among the participants) the fault names; nil until the audit can tell (`badCard`).
    public let member: Int?
    public let detail: String

    public init(_ code: Code, member: Int?, _ detail: String) {
        self.code = code
        self.member = member
        self.detail = detail
    }

    public var description: String {
        "\(code.rawValue)" + (member.map { " (member \($0))" } ?? "") + ": \(detail)"
    }
}
