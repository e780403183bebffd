import TavoloCore
import TavoloProtocol
import TavoloRecordFormat
import TavoloTable

/// A control request with the type of its answer (PROTOCOL.md §7, §9.7): each op names what it returns, so a
/// caller writes `try client.call(.state(table: id))` and gets a `TableState`, never a type of its choosing.
/// The members mirror `ControlRequest`'s cases, with the same labels.
public struct ControlCall<Response: Codable & Sendable>: Sendable {
    public let request: ControlRequest

    init(_ request: ControlRequest) { self.request = request }
}

extension ControlCall where Response == [PeerSummary] {
    public static var peers: Self { .init(.peers) }
}

extension ControlCall where Response == NodeStatus {
    public static var status: Self { .init(.status) }
}

extension ControlCall where Response == [TableInfo] {
    public static var tables: Self { .init(.tables) }
}

extension ControlCall where Response == TableInfo {
    public static func host(
        game: String, players: Int?, grace: Int? = nil, takeoverBot: String? = nil, sealed: Bool = false
    ) -> Self {
        .init(.host(game: game, players: players, grace: grace, takeoverBot: takeoverBot, sealed: sealed))
    }
    public static func fill(table: TableID, bot: String) -> Self { .init(.fill(table: table, bot: bot)) }
    public static func invite(table: TableID, seat: Int, node: String) -> Self {
        .init(.invite(table: table, seat: seat, node: node))
    }
    public static func start(table: TableID) -> Self { .init(.start(table: table)) }
}

extension ControlCall where Response == JoinResult {
    public static func join(table: TableID?, game: String?, seat: Int?, bot: String?) -> Self {
        .init(.join(table: table, game: game, seat: seat, bot: bot))
    }
}

extension ControlCall where Response == TableState {
    public static func state(table: TableID) -> Self { .init(.state(table: table)) }
}

/// Requests answered with nothing but success.
extension ControlCall where Response == Empty {
    public static func move(table: TableID, move: JSONValue) -> Self { .init(.move(table: table, move: move)) }
    public static func leave(table: TableID) -> Self { .init(.leave(table: table)) }
    /// The first line of the stream; the events follow (`ControlClient.subscribe`, `nextEvent`).
    public static func events(kinds: [TableEvent.Kind]?) -> Self { .init(.events(kinds: kinds)) }
    public static func inject(_ message: TableMessage) -> Self { .init(.inject(message)) }
    public static func acceptPeer(name: String) -> Self { .init(.acceptPeer(name: name)) }
}

extension ControlCall where Response == DatagramResult {
    public static func datagram(peer: String, text: String) -> Self { .init(.datagram(peer: peer, text: text)) }
}

extension ControlCall where Response == [RecordSummary] {
    public static func history(game: String?, player: String?) -> Self { .init(.history(game: game, player: player)) }
}

extension ControlCall where Response == ScoreBoard {
    public static func scores(game: String?) -> Self { .init(.scores(game: game)) }
}

extension ControlCall where Response == [StoredRecord] {
    public static func record(table: String) -> Self { .init(.record(table: table)) }
}

extension ControlCall where Response == [GameSummary] {
    public static var games: Self { .init(.games) }
}

extension ControlCall where Response == WebLinkInfo {
    public static var web: Self { .init(.web) }
}

extension ControlCall where Response == ChatSent {
    public static func chat(room: String, text: String) -> Self { .init(.chat(room: room, text: text)) }
}

/// The first line of `chat-log`: the recent messages (with `follow`, new ones follow as `ChatLine`s).
extension ControlCall where Response == [ChatEntry] {
    public static func chatLog(room: String?, follow: Bool) -> Self { .init(.chatLog(room: room, follow: follow)) }
}

extension ControlCall where Response == DiscoveryReport {
    public static var discovery: Self { .init(.discovery) }
}
