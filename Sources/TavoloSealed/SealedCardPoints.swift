/// The public, fixed map from a card's index in a game's canonical deck (0 ..< n) to a group point (§14.3):
/// `M_i = fromHash(SHA-512("tavolo/sealed/card/v1" ‖ u16(i)))`. Decrypting a sealed card yields a point; a node
/// reads it by looking it up here, and a point outside the table means a member cheated.
public struct SealedCardPoints: Sendable {
    public static let label = "tavolo/sealed/card/v1"

    /// Point of card `i`, in card order.
    public let points: [RistrettoPoint]
    private let indexByPoint: [RistrettoPoint: Int]

    public init(count: Int) {
        precondition(count > 0 && count <= Int(UInt16.max))
        points = (0..<count).map { Self.point(card: $0) }
        indexByPoint = Dictionary(uniqueKeysWithValues: points.enumerated().map { ($0.element, $0.offset) })
    }

    public static func point(card i: Int) -> RistrettoPoint {
        var t = SealedTranscript(label: label)
        t.append(u16: UInt16(i))
        return RistrettoPoint.fromHash(t.sha512())
    }

    /// The card a decrypted point stands for; nil for a point that is no card of this deck.
    public func card(of point: RistrettoPoint) -> Int? { indexByPoint[point] }

    public var count: Int { points.count }
}
