import Foundation
import TavoloCore
import TavoloProtocol

/// One table as this node sees it. Owned by `TableManager` (actor-confined).
final class TableRuntime {
    var info: TableInfo
    let isHost: Bool

    // Seeding.
    var myNonce: [UInt8]?
    var commitments: [NodeID: String] = [:]
    var reveals: [NodeID: [UInt8]] = [:]
    var jointSeed: UInt64?

    // Playing.
    var session: (any GameSession)?
    /// State hash after k moves, k = 0 … moveNumber.
    var hashes: [StateHash] = []
    var verifiedDeal = 0
    var dealsSent = 0
    var pendingDeals: [Int: [UInt8]] = [:]
    var pendingMoves: [Int: (from: NodeID, seat: Int, move: JSONValue, stateHash: String)] = [:]
    var confirms: [Int: [NodeID: String]] = [:]
    var results: [NodeID: String] = [:]
    var resultSent = false
    var yourTurnAnnounced = -1
    var log: GameLog

    // Measurements.
    var startedAt: ContinuousClock.Instant?
    var finishedAt: ContinuousClock.Instant?
    var moveSentAt: [Int: ContinuousClock.Instant] = [:]
    var confirmLatencies: [Double] = []

    /// Pending messages beyond which a sender is flooding the table.
    static let maxPending = 256

    init(info: TableInfo, isHost: Bool) {
        self.info = info
        self.isHost = isHost
        log = GameLog(table: info)
    }

    var isActive: Bool { info.phase == .seeding || info.phase == .playing }
}
