import TavoloCore
import TavoloProtocol
import TavoloSealed

/// What a table machine asks its shell to do. The machine itself does no I/O and reads no clock.
public enum TableEffect: Sendable {
    /// Send a table message to these nodes (never to this node itself).
    case send(TableMessage, to: [NodeID])
    /// Tell local clients (the control socket's event stream).
    case emit(TableEvent)
    /// Write the table's game log (PROTOCOL.md §9.6).
    case persist(GameLog)
    /// Call back with `.timer(timer)` after `delay`; a timer started again replaces the earlier one.
    case startTimer(TableTimer, after: Duration)
    /// What a timer waited for came: the shell may forget it (it would fire to no effect).
    case cancelTimer(TableTimer)
    /// A log line for the node's operator.
    case log(TableLogLevel, String)
    /// A table message `from` had no right to send was dropped, never acted on (PROTOCOL.md §9.1): the shell
    /// counts it and logs it at a bounded rate per peer.
    case refused(String, from: NodeID)
    /// This node sent move `number` (the shell times it).
    case moveSent(TableID, number: Int)
    /// Every member confirmed move `number` that this node sent.
    case moveConfirmed(TableID, number: Int)
}

/// How loud a `TableEffect.log` line is.
public enum TableLogLevel: Sendable {
    case debug, notice, warning, error
}

/// What a table machine knows of the node it runs on and of the mesh around it.
public struct TableContext: Sendable {
    public var me: NodeID
    public var myName: String
    /// Names of the nodes seen, by id (this node's too).
    public var names: [NodeID: String]
    /// Peers with an established session.
    public var connected: Set<NodeID>
    public var catalog: GameCatalog
    /// How long a finished or stopped table stays listed.
    public var overTableLifetime: Duration = .seconds(600)
    /// How long a peer may take with a reply a node sends without a user (commitment, reveal, confirmation,
    /// result): PROTOCOL.md §9.8.
    public var peerReplyTimeout: Duration = .seconds(30)
    /// How long the host may take to answer a seat request (§9.8).
    public var seatRequestTimeout: Duration = .seconds(10)
    /// Moves per second of a bot in a simultaneous game whose kind names no pace (§10.5).
    public var raceBotPace: Double = 5
    /// Signs this node's forfeit statement (§11.7: table, joint seed, move count); nil signs nothing. Ed25519 is
    /// deterministic, so the machine stays a function of its inputs.
    public var signForfeit: (@Sendable (TableID, UInt64, Int) -> SignatureObject?)?
    /// Tests only (`tavolod --test-sealed-cheat`): the lies this node tells at sealed tables.
    public var sealedCheats: Set<SealedCheat> = []

    public init(me: NodeID, myName: String, catalog: GameCatalog) {
        self.me = me
        self.myName = myName
        self.catalog = catalog
        names = [me: myName]
        connected = []
    }

    func name(_ node: NodeID) -> String { names[node] ?? node.short }
}
