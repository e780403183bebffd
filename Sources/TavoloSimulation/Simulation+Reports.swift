import Foundation
import TavoloControl
import TavoloProtocol
import TavoloTable

/// What `tavolo simulate` is asked to do and what it reports: its options, each game's and node's figures, the run's.
extension Simulation {
    public struct Options: Sendable {
        public var peers: Int
        public var game: String
        public var games: Int = 1
        public var seed: UInt64?
        public var bot: String
        public var packetLogDirectory: String?
        public var daemonPath: String
        public var meshTimeout: Double = 30
        /// Each node in its own test host (`scripts/lan up N` makes tvh1…tvhN) instead of all on this one.
        public var onTestHosts = false
        public var gameTimeout: Double = 300
        /// Simultaneous games: the slowest bot's moves per second; seat i plays at pace × (1 + i/4), so the race
        /// has a clear order (bots at one pace with one solution would tie, and the ranking would be luck).
        public var racePace: Double?
        /// Test hook passed to every node: the share of received datagrams each drops on purpose.
        public var dropDatagrams: Double = 0
        /// More `tavolod` arguments for every node (e.g. `--no-log-fsync`).
        public var daemonArguments: [String] = []
        /// Host every table with a sealed deck (PROTOCOL.md §14): no node can read a hand it may not see, and each
        /// game ends with the audit's verdict.
        public var sealed = false

        public init(peers: Int, game: String, bot: String, daemonPath: String) {
            self.peers = peers
            self.game = game
            self.bot = bot
            self.daemonPath = daemonPath
        }
    }

    public struct GameReport: Codable, Sendable {
        public var table: String
        public var jointSeed: UInt64?
        public var moves: Int
        public var wallMs: Double
        public var finalHashes: [String: String]
        public var agree: Bool
        public var stopped: String?
        public var winners: [Int]?
        public var scores: [Int]?
        /// Simultaneous games: the agreed ranking (every node's must be equal for `agree`).
        public var ranking: [Int]?
        /// Simultaneous games: each node's live-progress datagram counts (PROTOCOL.md §10.4).
        public var live: [LiveStats]?
        /// Simultaneous games: when node 1 saw each seat complete, on its own clock (shown, not ranked).
        public var finishTimes: [SeatTime]?
        /// Milliseconds from a move's sending to the last node's confirmation, over every move of the game.
        public var latencyMs: [Double]
        /// Milliseconds per append to a node's game journal (one per move applied, PROTOCOL.md §9.9).
        public var logWriteMs: [Double] = []
        /// Sealed tables: the audit's verdict as every node gave it (`verdict(of:)`); nil for an open table.
        public var sealed: String?
        /// Sealed tables: every member some node's audit named as a cheater.
        public var cheaters: [String]?
    }

    public struct NodeReport: Codable, Sendable {
        public var name: String
        /// The test host the node ran in (nil: this host).
        public var host: String?
        /// The IP address the other nodes connected to this one at, as their `peers` list shows it.
        public var address: String?
        public var bytesSent: Int
        public var framesSent: Int
        /// Datagrams the test hook dropped on purpose at this node.
        public var datagramsDropped: Int?
        /// CPU seconds (user + system) the node used while the games ran; nil when `/proc` does not show it.
        public var cpuSeconds: Double?
    }

    public struct Report: Codable, Sendable {
        public var peers: Int
        public var game: String
        public var bot: String
        public var seed: UInt64?
        /// "lo" (every node on this host) or "test-hosts" (one node per test host, scripts/lan).
        public var network: String
        public var meshFormationMs: Double
        public var totalMoves: Int
        public var movesPerSecond: Double
        public var games: [GameReport]
        public var nodes: [NodeReport]
        public var allAgree: Bool
        /// Sealed tables: every game ended "verified" at every node; nil when the tables were open.
        public var allVerified: Bool?
        /// Per-move latency, send to the confirmation the mover waits for (every member's when it hosts, else the
        /// host's, which comes once the host applied it, PROTOCOL.md §9.4), over every game.
        public var latencyP50Ms: Double?
        public var latencyP99Ms: Double?
        /// Per game-journal append (every node, every move): what surviving a `kill -9` costs a move.
        public var logWriteP50Ms: Double?
        public var logWriteP99Ms: Double?
        /// Every node's `scores` (its leaderboards, from its records) is the same, once records have synced
        /// (waited for up to 20 s after the last game).
        public var scoresAgree: Bool?
        /// Reliable traffic while the games ran and until the records sync after the last one went quiet (from the
        /// first game's start, every message included: offers, seeding, deals, moves, confirmations, results,
        /// records and their signatures, heartbeats while the games ran), per node and per move, from
        /// the nodes' counters (`status`): frames as the protocol defines them, header and payload
        /// (PROTOCOL.md §3), and on the wire once sealed (16 more bytes per frame, §3.7).
        public var bytesPerNodePerMove: Double?
        public var sealedBytesPerNodePerMove: Double?
        public var framesPerNodePerMove: Double?
        /// The sealed bytes the node that sent the most sent, over the mean of all nodes (issue 31's goal: at most
        /// 1.5; a host sends every offer and every confirmation to a mover).
        public var sealedBytesBusiestNodeToMean: Double?
        /// CPU the nodes used while the games ran, per node and per move, in microseconds (user + system, from
        /// `/proc`; on test hosts too, `nsenter` execs the node), and the most any one node used: the host does more
        /// than a member.
        public var cpuMicrosecondsPerNodePerMove: Double?
        public var cpuMicrosecondsPerMoveBusiestNode: Double?
    }

    /// One sealed game's verdict from every node's end: "verified" only when each of the `peers` nodes finished
    /// and its audit found nothing; "cheated" when any node's audit named a cheater; otherwise "unverified" (a node
    /// stopped the table, a lie caught live among them, or never reported), which fails the run as a cheat does.
    static func verdict(of finished: [Int: TableResult], peers: Int) -> (sealed: String, cheaters: [String]?) {
        let named = Set(finished.values.flatMap { $0.cheaters ?? [] }).sorted()
        if finished.values.contains(where: { $0.sealed == "cheated" }) { return ("cheated", named) }
        let verified = finished.count == peers && finished.values.allSatisfy { $0.sealed == "verified" }
        return (verified ? "verified" : "unverified", named.isEmpty ? nil : named)
    }

    static func percentile(_ values: [Double], _ p: Double) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int((p * Double(sorted.count - 1)).rounded()))]
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        init(_ d: String) { description = d }
    }
}
