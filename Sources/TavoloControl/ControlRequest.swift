import TavoloCore
import TavoloProtocol
import TavoloTable

/// One request of the control socket (PROTOCOL.md §7, §9.7): a line `{"id"?, "op", …params}`.
public enum ControlRequest: Sendable, Equatable {
    /// The node's peers.
    case peers
    /// Who this node is, and its counters.
    case status
    /// Known tables, open ones first.
    case tables
    /// Host a new open table; `players` may be left out for a game with one player count.
    case host(game: String, players: Int?, grace: Int? = nil, takeoverBot: String? = nil, sealed: Bool = false)
    /// Take a seat at `table`, or at the oldest open table of `game` (automatch).
    case join(table: TableID?, game: String?, seat: Int?, bot: String?)
    /// Host: every free seat gets a host bot.
    case fill(table: TableID, bot: String)
    /// Host: reserve `seat` for the connected node called `node`.
    case invite(table: TableID, seat: Int, node: String)
    /// Host: start a full table.
    case start(table: TableID)
    /// Play a move (the game's move as JSON) for this node's seat to play.
    case move(table: TableID, move: JSONValue)
    /// Free this node's seats, or abandon the game.
    case leave(table: TableID)
    /// What this node's seats can see of a table.
    case state(table: TableID)
    /// Stream events (only of `kinds`, when given) until the client closes.
    case events(kinds: [TableEvent.Kind]?)
    /// Test only (`tavolod --test-allow-injection`): send a raw table message as this node.
    case inject(TableMessage)
    /// Send `{"text": text}` to the connected peer `peer` (a name or an id) on the unreliable channel, so scripts
    /// and tests can check that datagrams flow between two machines (the receiver counts it in `status`).
    case datagram(peer: String, text: String)
    /// Recorded games, newest first, of `game` and with a seat named `player` when given (TavoloRecords).
    case history(game: String?, player: String?)
    /// Leaderboards and achievements, of `game` when given.
    case scores(game: String?)
    /// The stored records of a table (or of a record id), with their bodies, for `tavolo show`.
    case record(table: String)
    /// The games this node plays: players, bots, score (for a client's host form).
    case games
    /// The URL of this node's page (with its token), when `tavolod` serves one (PROTOCOL.md §12).
    case web
    /// Send a chat message to `room` (`lobby` or a table id) (PROTOCOL.md §12).
    case chat(room: String, text: String)
    /// The recent chat messages (of `room`, when given); with `follow`, then every new one as it comes.
    case chatLog(room: String?, follow: Bool)
    /// Trust the new identity of the peer called `name`, whose identity changed (PROTOCOL.md §7, known peers).
    case acceptPeer(name: String)
    /// The node's DNS-SD as it stands: its registration, its browse and every instance the browse sees, its own
    /// included (`tavolo doctor`).
    case discovery

    /// The request's op (its `op` string is the op's raw value).
    public var op: ControlOp {
        switch self {
        case .peers: .peers
        case .status: .status
        case .tables: .tables
        case .host: .host
        case .join: .join
        case .fill: .fill
        case .invite: .invite
        case .start: .start
        case .move: .move
        case .leave: .leave
        case .state: .state
        case .events: .events
        case .inject: .inject
        case .datagram: .datagram
        case .history: .history
        case .scores: .scores
        case .record: .record
        case .games: .games
        case .web: .web
        case .chat: .chat
        case .chatLog: .chatLog
        case .acceptPeer: .acceptPeer
        case .discovery: .discovery
        }
    }
}

/// The ops of the control socket, each once: their wire names, and the order `unknown op` lists them in.
public enum ControlOp: String, CaseIterable, Sendable {
    case peers
    case status
    case tables
    case host
    case join
    case fill
    case invite
    case start
    case move
    case leave
    case state
    case events
    case inject
    case datagram
    case history
    case scores
    case record
    case games
    case web
    case chat
    case chatLog = "chat-log"
    case acceptPeer = "accept-peer"
    case discovery
}

extension ControlRequest: Codable {
    enum Key: String, CodingKey {
        case op, game, players, table, seat, bot, node, move, kinds, message, peer, text, name
        case grace, takeoverBot, sealed
        case player
        case room, follow
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        let name = try c.decode(String.self, forKey: .op)
        guard let op = ControlOp(rawValue: name) else { throw ControlFailure.unknownOp(name) }
        switch op {
        case .peers: self = .peers
        case .status: self = .status
        case .tables: self = .tables
        case .host:
            self = .host(
                game: try c.decode(String.self, forKey: .game),
                players: try c.decodeIfPresent(Int.self, forKey: .players),
                grace: try c.decodeIfPresent(Int.self, forKey: .grace),
                takeoverBot: try c.decodeIfPresent(String.self, forKey: .takeoverBot),
                sealed: try c.decodeIfPresent(Bool.self, forKey: .sealed) ?? false)
        case .join:
            self = .join(
                table: try c.decodeIfPresent(TableID.self, forKey: .table),
                game: try c.decodeIfPresent(String.self, forKey: .game),
                seat: try c.decodeIfPresent(Int.self, forKey: .seat),
                bot: try c.decodeIfPresent(String.self, forKey: .bot))
        case .fill:
            self = .fill(
                table: try c.decode(TableID.self, forKey: .table), bot: try c.decode(String.self, forKey: .bot))
        case .invite:
            self = .invite(
                table: try c.decode(TableID.self, forKey: .table), seat: try c.decode(Int.self, forKey: .seat),
                node: try c.decode(String.self, forKey: .node))
        case .start: self = .start(table: try c.decode(TableID.self, forKey: .table))
        case .move:
            self = .move(
                table: try c.decode(TableID.self, forKey: .table), move: try c.decode(JSONValue.self, forKey: .move))
        case .leave: self = .leave(table: try c.decode(TableID.self, forKey: .table))
        case .state: self = .state(table: try c.decode(TableID.self, forKey: .table))
        case .events: self = .events(kinds: try c.decodeIfPresent([TableEvent.Kind].self, forKey: .kinds))
        case .inject: self = .inject(try c.decode(TableMessage.self, forKey: .message))
        case .datagram:
            self = .datagram(
                peer: try c.decode(String.self, forKey: .peer), text: try c.decode(String.self, forKey: .text))
        case .history:
            self = .history(
                game: try c.decodeIfPresent(String.self, forKey: .game),
                player: try c.decodeIfPresent(String.self, forKey: .player))
        case .scores: self = .scores(game: try c.decodeIfPresent(String.self, forKey: .game))
        case .record: self = .record(table: try c.decode(String.self, forKey: .table))
        case .games: self = .games
        case .web: self = .web
        case .chat:
            self = .chat(room: try c.decode(String.self, forKey: .room), text: try c.decode(String.self, forKey: .text))
        case .chatLog:
            self = .chatLog(
                room: try c.decodeIfPresent(String.self, forKey: .room),
                follow: try c.decodeIfPresent(Bool.self, forKey: .follow) ?? false)
        case .acceptPeer: self = .acceptPeer(name: try c.decode(String.self, forKey: .name))
        case .discovery: self = .discovery
        }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(op.rawValue, forKey: .op)
        switch self {
        case .peers, .status, .tables, .games, .web, .discovery: break
        case .chat(let room, let text):
            try c.encode(room, forKey: .room)
            try c.encode(text, forKey: .text)
        case .chatLog(let room, let follow):
            try c.encodeIfPresent(room, forKey: .room)
            if follow { try c.encode(follow, forKey: .follow) }
        case .host(let game, let players, let grace, let takeoverBot, let sealed):
            try c.encode(game, forKey: .game)
            try c.encodeIfPresent(players, forKey: .players)
            try c.encodeIfPresent(grace, forKey: .grace)
            try c.encodeIfPresent(takeoverBot, forKey: .takeoverBot)
            if sealed { try c.encode(sealed, forKey: .sealed) }
        case .join(let table, let game, let seat, let bot):
            try c.encodeIfPresent(table, forKey: .table)
            try c.encodeIfPresent(game, forKey: .game)
            try c.encodeIfPresent(seat, forKey: .seat)
            try c.encodeIfPresent(bot, forKey: .bot)
        case .fill(let table, let bot):
            try c.encode(table, forKey: .table)
            try c.encode(bot, forKey: .bot)
        case .invite(let table, let seat, let node):
            try c.encode(table, forKey: .table)
            try c.encode(seat, forKey: .seat)
            try c.encode(node, forKey: .node)
        case .start(let table), .leave(let table), .state(let table): try c.encode(table, forKey: .table)
        case .move(let table, let move):
            try c.encode(table, forKey: .table)
            try c.encode(move, forKey: .move)
        case .events(let kinds): try c.encodeIfPresent(kinds, forKey: .kinds)
        case .inject(let message): try c.encode(message, forKey: .message)
        case .datagram(let peer, let text):
            try c.encode(peer, forKey: .peer)
            try c.encode(text, forKey: .text)
        case .history(let game, let player):
            try c.encodeIfPresent(game, forKey: .game)
            try c.encodeIfPresent(player, forKey: .player)
        case .scores(let game): try c.encodeIfPresent(game, forKey: .game)
        case .record(let table): try c.encode(table, forKey: .table)
        case .acceptPeer(let name): try c.encode(name, forKey: .name)
        }
    }
}

/// A request line: the optional `id` echoed in the response, and the request.
public struct ControlRequestLine: Codable, Sendable {
    public var id: Int?
    public var request: ControlRequest

    public init(id: Int?, request: ControlRequest) {
        self.id = id
        self.request = request
    }

    enum Key: String, CodingKey { case id }

    public init(from decoder: Decoder) throws {
        id = try decoder.container(keyedBy: Key.self).decodeIfPresent(Int.self, forKey: .id)
        request = try ControlRequest(from: decoder)
    }

    public func encode(to encoder: Encoder) throws {
        try request.encode(to: encoder)
        var c = encoder.container(keyedBy: Key.self)
        try c.encodeIfPresent(id, forKey: .id)
    }
}
