import TavoloCore
import TavoloProtocol

/// Why a table stopped before its end (PROTOCOL.md §9.5); the raw values travel in `table.stop`.
public enum StopCode: String, Codable, Sendable, CaseIterable {
    /// A participant's commitment is not 64 hex digits.
    case badCommit = "seed/bad-commit"
    /// A nonce does not hash to its sender's commitment.
    case badReveal = "seed/bad-reveal"
    /// A nonce came before its sender's commitment.
    case earlyReveal = "seed/early-reveal"
    /// A participant sent a second, different commitment.
    case recommit = "seed/recommit"
    /// The host's deal is not the shuffle of the joint seed.
    case dealMismatch = "deal/mismatch"
    /// A node that is not the host dealt.
    case dealNotHost = "deal/not-host"
    /// A member's hash after a move differs from this node's.
    case hashMismatch = "hash/mismatch"
    /// A member's final hash differs from this node's.
    case finalHashMismatch = "hash/final-mismatch"
    /// A member was lost from the mesh during the game.
    case memberLost = "table/member-lost"
    /// A member left the game.
    case memberLeft = "table/member-left"
    /// A bot could not choose a move.
    case botFailed = "table/bot-failed"
    /// The game could not be set up from the table's parameters.
    case setup = "table/setup"
    /// A participant's commitment or nonce, or a member's result, did not come in time (PROTOCOL.md §9.8).
    case timeout = "table/timeout"
    /// The grace period passed and no bot could be voted in (no majority could ever form): the remaining member
    /// ended the game (§9.13).
    case abandoned = "table/abandoned"
    /// Sealed tables (§14.9): a key, deck, share or card that does not verify, named by the member it names.
    case sealedBadKey = "sealed/bad-key"
    case sealedBadDeck = "sealed/bad-deck"
    case sealedBadShare = "sealed/bad-share"
    case sealedBadCard = "sealed/bad-card"
    case sealedWrongCard = "sealed/wrong-card"
    case sealedBadEscrow = "sealed/bad-escrow"
    /// What a sealed table cannot do yet (§14.14): resume after a restart, pass an heir's seats on again.
    case sealedUnsupported = "sealed/unsupported"
}

/// Why a local request on a table failed (control socket, PROTOCOL.md §9.7).
public enum TableErrorCode: String, Codable, Sendable, CaseIterable {
    case unknown = "table/unknown"
    case unknownGame = "table/unknown-game"
    case badPlayers = "table/bad-players"
    case noneOpen = "table/none-open"
    case notHost = "table/not-host"
    case started = "table/started"
    case notFull = "table/not-full"
    case seatRefused = "table/seat-refused"
    case seatTaken = "table/seat-taken"
    case unknownNode = "table/unknown-node"
    case notPlaying = "table/not-playing"
    case paused = "table/paused"
    case badRequest = "table/bad-request"
    case illegal = "move/illegal"
    case notYourTurn = "move/not-your-turn"
    case gameOver = "move/game-over"
    case malformed = "move/malformed"

    init(_ move: MoveErrorCode) {
        switch move {
        case .illegal: self = .illegal
        case .notYourTurn, .stale: self = .notYourTurn
        case .gameOver: self = .gameOver
        case .malformed: self = .malformed
        }
    }
}

/// A failed table request from the local user: a stable code and a sentence for a person.
public struct TableError: Error, Sendable, Equatable, CustomStringConvertible {
    public let code: TableErrorCode
    public let message: String

    public init(_ code: TableErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(message) [\(code.rawValue)]" }
}

extension StopCode {
    /// Whether a member may stop a table in `phase` with this code (PROTOCOL.md §9.5): each code names a fault a
    /// member can see at that stage — a seed's faults while seeding, a deal's, a hash's, a lost member's, a bot's or
    /// a deadline's during the game. A member leaves a game under way with `table.forfeit` (a bot plays on), never
    /// by stopping it for everyone with `table/member-left`, which only a leave while seeding gives.
    public func memberMaySend(during phase: TablePhase) -> Bool {
        switch self {
        case .badCommit, .badReveal, .earlyReveal, .recommit, .memberLeft: phase == .open || phase == .seeding
        case .setup: phase == .open || phase == .seeding || phase == .playing
        case .dealMismatch, .dealNotHost, .hashMismatch, .finalHashMismatch, .memberLost, .botFailed, .timeout,
            .abandoned, .sealedBadKey, .sealedBadDeck, .sealedBadShare, .sealedBadCard, .sealedWrongCard,
            .sealedBadEscrow,
            .sealedUnsupported:
            phase.isActive
        }
    }
}
