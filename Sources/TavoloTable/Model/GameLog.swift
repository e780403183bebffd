import Foundation
import TavoloCore
import TavoloProtocol

/// Everything needed to replay a table's game, kept in the node's state directory as
/// `games/<table>.json` (PROTOCOL.md §9.6).
public struct GameLog: Codable, Sendable {
    public struct Participant: Codable, Sendable {
        public var node: NodeID
        public var name: String
        public var commitment: String
        public var nonce: String?
    }

    public struct LoggedMove: Codable, Sendable {
        public var number: Int
        public var seat: Int
        public var move: JSONValue
        public var text: String
        /// State hash before and after the move.
        public var before: String
        public var after: String
    }

    public struct LoggedDeal: Codable, Sendable {
        public var number: Int
        public var cards: [UInt8]
    }

    public var table: TableInfo
    public var participants: [Participant] = []
    public var jointSeed: UInt64?
    public var initialHash: String?
    public var deals: [LoggedDeal] = []
    public var moves: [LoggedMove] = []
    public var winners: [Int]?
    /// Simultaneous games: the agreed ranking of the seats that completed (§10.3).
    public var ranking: [Int]?
    public var scores: [Int]?
    public var finalHash: String?
    /// Every member's final hash, by node name.
    public var finalHashes: [String: String] = [:]
    public var stopped: String?

    public init(table: TableInfo) { self.table = table }

    /// Writes `<dir>/games/<table>.json` atomically; returns an error line instead of throwing.
    func save(stateDirectory dir: String) -> String? {
        let games = (dir as NSString).appendingPathComponent("games")
        do {
            try FileManager.default.createDirectory(atPath: games, withIntermediateDirectories: true)
            // Table ids are letters, digits and '-' only (TableID), so the id is a safe file name.
            try CanonicalJSON.encodePretty(self).write(
                to: URL(fileURLWithPath: "\(games)/\(table.id).json"), options: .atomic)
            return nil
        } catch {
            return "cannot write the game log of table \(table.id): \(error.localizedDescription)"
        }
    }
}
