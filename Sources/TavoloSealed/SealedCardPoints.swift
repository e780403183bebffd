/// The public, fixed map from a card number to a group point (§14.3): `M_i = Hp("tavolo/sealed/card/v1" ‖ u16(i))`.
/// A game's deck is its card numbers in canonical order (Briscola with three players leaves out card 1). Decrypting
/// a sealed card yields a point; a node reads it by looking it up here, and a point outside the deck means a lie.
public struct SealedCardPoints: Sendable {
    public static let label = "tavolo/sealed/card/v1"

    /// The deck's card numbers, in canonical order.
    public let numbers: [Int]
    /// Point of each card of `numbers`, same order.
    public let points: [RistrettoPoint]
    private let numberByPoint: [RistrettoPoint: Int]

    public init(numbers: [Int]) {
        precondition(!numbers.isEmpty && Set(numbers).count == numbers.count)
        precondition(numbers.allSatisfy { (0...Int(UInt16.max)).contains($0) })
        self.numbers = numbers
        points = numbers.map { Self.point(card: $0) }
        numberByPoint = Dictionary(uniqueKeysWithValues: zip(points, numbers))
    }

    /// The deck `0 ..< count` (Spirits!' 54 cards, Briscola's 40).
    public init(count: Int) { self.init(numbers: Array(0..<count)) }

    public static func point(card i: Int) -> RistrettoPoint {
        var t = SealedTranscript(label: label)
        t.append(u16: UInt16(i))
        return RistrettoPoint.fromHash(t.sha512())
    }

    /// The card number a decrypted point stands for; nil for a point that is no card of this deck.
    public func card(of point: RistrettoPoint) -> Int? { numberByPoint[point] }

    public var count: Int { points.count }
}
