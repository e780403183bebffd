// What a node reports to clients besides peers and status: chat messages, the page's URL, the games it plays.
import TavoloProtocol

/// One chat message as a node shows it to its clients (`chat-log`, and the `{"chat": …}` lines of its stream).
public struct ChatEntry: Codable, Sendable, Equatable {
    /// `lobby` or a table id.
    public var room: String
    /// The writer's node name (from its handshake), and id.
    public var from: String
    public var fromId: NodeID
    /// Plain text, control characters removed: show it as text, never as markup.
    public var text: String
    /// Written at this node.
    public var mine: Bool
    /// Milliseconds since 1970 when this node sent or received it.
    public var at: Int64

    public init(room: String, from: String, fromId: NodeID, text: String, mine: Bool, at: Int64) {
        self.room = room
        self.from = from
        self.fromId = fromId
        self.text = text
        self.mine = mine
        self.at = at
    }
}

/// A streamed chat line: `{"chat": {...}}`.
public struct ChatLine: Codable, Sendable {
    public var chat: ChatEntry
    public init(chat: ChatEntry) { self.chat = chat }
}

/// The `chat` result: how many nodes the message was written to.
public struct ChatSent: Codable, Sendable {
    public var sent: Int
    public init(sent: Int) { self.sent = sent }
}

/// The `web` result: where the node's page is.
public struct WebLinkInfo: Codable, Sendable, Equatable {
    /// The page with its token: only for this node's user.
    public var url: String
    public var port: Int
    public init(url: String, port: Int) {
        self.url = url
        self.port = port
    }
}

/// The `games` result: one game a node plays.
public struct GameSummary: Codable, Sendable, Equatable {
    public var name: String
    public var summary: String
    public var playerCounts: [Int]
    public var bots: [String]
    public var defaultBot: String
    public var scoreName: String
    public var lowerScoreIsBetter: Bool
    /// Whether a table of it may be dealt from a sealed deck (PROTOCOL.md §14): a game with hidden cards.
    public var sealable: Bool? = nil

    public init(
        name: String, summary: String, playerCounts: [Int], bots: [String], defaultBot: String, scoreName: String,
        lowerScoreIsBetter: Bool
    ) {
        self.name = name
        self.summary = summary
        self.playerCounts = playerCounts
        self.bots = bots
        self.defaultBot = defaultBot
        self.scoreName = scoreName
        self.lowerScoreIsBetter = lowerScoreIsBetter
    }
}
