import TavoloCore

/// The last few finished tricks of a two-player game, newest first: who led, the two cards in play order, and
/// whether the players drew after it. Public (every card is played face up), and what a player remembers: a bot
/// reads from it which hands the other seat may hold (`BriscolaHandReading`).
///
/// Packed in one word so a state copied for a play-out allocates nothing (the search copies states thousands of
/// times a move). Not part of the canonical encoding nor of the JSON of a state or an observation: it follows
/// from the moves, and a state is rebuilt by replaying them.
public struct BriscolaRecentTricks: Hashable, Sendable {
    /// How many tricks are kept.
    public static let capacity = 4
    static let trickBits: UInt64 = 14

    /// Bits 0–55: up to four tricks of 14 bits (leader 1, first card 6, second card 6, drew 1), newest lowest;
    /// bits 56–58: how many.
    var bits: UInt64 = 0

    public init() {}

    /// One remembered trick.
    public struct Trick: Hashable, Sendable {
        public var leader: Int
        public var lead: Card
        public var reply: Card
        /// Whether both players drew a card after it (the pile was not empty).
        public var drew: Bool

        /// The card `seat` played in it.
        public func card(of seat: Int) -> Card { seat == leader ? lead : reply }
    }

    public var count: Int { Int(bits >> 56) }

    /// The trick `index` tricks back: 0 the newest.
    public subscript(index: Int) -> Trick {
        precondition(index < count)
        let t = (bits >> (UInt64(index) * Self.trickBits)) & ((1 << Self.trickBits) - 1)
        return Trick(
            leader: Int(t & 1), lead: Card(uncheckedID: UInt8((t >> 1) & 63)),
            reply: Card(uncheckedID: UInt8((t >> 7) & 63)), drew: t >> 13 != 0)
    }

    /// Remembers a finished trick; the oldest is forgotten once `capacity` are kept.
    mutating func push(leader: Int, lead: Card, reply: Card, drew: Bool) {
        let t =
            UInt64(leader & 1) | UInt64(lead.id) << 1 | UInt64(reply.id) << 7 | (drew ? 1 << 13 : 0)
        let kept = min(count + 1, Self.capacity)
        let tricks = ((bits << Self.trickBits) | t) & ((1 << (Self.trickBits * UInt64(Self.capacity))) - 1)
        bits = tricks | UInt64(kept) << 56
    }
}
