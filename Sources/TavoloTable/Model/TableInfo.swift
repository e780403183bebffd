import TavoloCore
import TavoloProtocol

/// Where a table is in its life (PROTOCOL.md §9.2).
public enum TablePhase: String, Codable, Sendable {
    /// Seats being taken.
    case open
    /// Started: commitments and reveals of the joint seed.
    case seeding
    /// Moves being played.
    case playing
    /// A member was lost during play: no new move is played until it is back or a bot has its seats (§9.10).
    case paused
    /// Over, every node agreed on the result.
    case finished
    /// Stopped before the end (divergence, wrong deal, a member lost or left).
    case stopped

    /// Seeding or playing: the seats are fixed and the members are at work.
    public var isActive: Bool { self == .seeding || self == .playing || self == .paused }
    /// Finished or stopped: nothing more happens.
    public var isOver: Bool { self == .finished || self == .stopped }
}

/// One seat: who owns it and how it is played.
public struct SeatInfo: Codable, Sendable, Equatable {
    public var seat: Int
    /// The owning node, nil while free.
    public var owner: NodeID?
    public var ownerName: String?
    /// The bot kind playing the seat, or nil for a human at the owner's terminal.
    public var bot: String?
    /// The node the seat is reserved for by an invitation.
    public var invited: String?

    public init(seat: Int, owner: NodeID? = nil, ownerName: String? = nil, bot: String? = nil, invited: String? = nil) {
        self.seat = seat
        self.owner = owner
        self.ownerName = ownerName
        self.bot = bot
        self.invited = invited
    }
}

/// A table as the host announces it.
public struct TableInfo: Codable, Sendable, Equatable {
    public var id: TableID
    public var game: String
    public var players: Int
    public var host: NodeID
    public var hostName: String
    public var phase: TablePhase
    public var seats: [SeatInfo]
    /// Increases with every change, so an older offer never overwrites a newer one.
    public var revision: Int
    /// Seconds a member lost during play has to come back before a bot takes its seats (§9.10); absent in an offer
    /// means `defaultGrace`.
    public var grace: Int? = nil
    /// The bot kind that takes a lost or leaving member's seats (§9.12), the host's choice; absent means the
    /// game's default (strongest) bot.
    public var takeoverBot: String? = nil
    /// Dealt from a sealed deck (§14): `true`; absent means the open deck of §9.4.
    public var sealed: Bool? = nil
    public var isSealed: Bool { sealed == true }

    /// The grace period when the offer names none, and the range a host may choose.
    public static let defaultGrace = 120
    public static let graceRange = 1...86_400
    /// The grace period in force.
    public var graceSeconds: Int { grace ?? Self.defaultGrace }

    public var freeSeats: [Int] { seats.filter { $0.owner == nil }.map(\.seat) }

    /// The distinct seat owners, in the order of the first seat each owns: the order of nonces in the joint seed.
    public var participants: [NodeID] {
        var out: [NodeID] = []
        out.reserveCapacity(seats.count + 1)
        // Seats are kept in seat order (`seats[i].seat == i`, §9.1): no sorted copy for every message a machine
        // handles (this getter showed in the host's profile); only a value built otherwise is sorted.
        let ordered = seats.indices.allSatisfy { seats[$0].seat == $0 } ? seats : seats.sorted { $0.seat < $1.seat }
        for s in ordered {
            if let o = s.owner, !out.contains(o) { out.append(o) }
        }
        return out
    }

    /// Whether `node` takes part (hosts or owns a seat): `members.contains(node)` without building the array, asked
    /// several times for every message a machine handles.
    public func isMember(_ node: NodeID) -> Bool { host == node || seats.contains { $0.owner == node } }

    /// Every node taking part: the host and the seat owners.
    public var members: [NodeID] {
        var out = participants
        if !out.contains(host) { out.append(host) }
        return out
    }
}
