import Foundation
import Logging
import TavoloControl
import TavoloProtocol

/// A node's chat (PROTOCOL.md §12): what it received and sent, recent history for clients, and their streams.
/// Received messages are checked here: the sender is the connection, its name the handshake's, its rate bounded,
/// its text cleaned; a table room only from a member of that table.
public final class ChatHub: @unchecked Sendable {
    /// Entries kept for `chat-log` (all rooms together).
    static let historyLimit = 200

    private let lock = NSLock()
    private let me: NodeID
    private let myName: String
    private let logger: Logger
    private var names: [NodeID: String] = [:]
    private var history: [ChatEntry] = []
    private var rate = ChatRateLimit()
    /// Every key from one address, and every peer, share a bound too (§12): fresh keys get no more through.
    private var addressRate = ChatRateLimit(
        burst: ChatRateLimit.addressBurst, perSecond: ChatRateLimit.addressPerSecond)
    private var allRate = ChatRateLimit(burst: ChatRateLimit.allBurst, perSecond: ChatRateLimit.allPerSecond)
    private var addresses: [NodeID: String] = [:]
    private var subscribers: [UUID: (room: String?, continuation: AsyncStream<ChatEntry>.Continuation)] = [:]
    /// Messages dropped: malformed, too long, too fast, or for a table the sender is not a member of.
    private var dropped = 0

    init(me: NodeID, name: String, logger: Logger) {
        self.me = me
        myName = name
        self.logger = logger
    }

    func peerConnected(_ id: NodeID, name: String, address: String = "") {
        lock.withLock {
            names[id] = name
            // The host alone: every port of one machine is one address.
            addresses[id] = address.lastIndex(of: ":").map { String(address[..<$0]) } ?? address
        }
    }

    func peerLost(_ id: NodeID) {
        lock.withLock {
            rate.forget(id.hex)
            addresses[id] = nil
        }
    }

    /// Messages dropped so far (`status`'s `chatMessagesDropped`, PROTOCOL.md §12).
    var droppedMessages: Int { lock.withLock { dropped } }

    /// Handles a message of the chat service (PROTOCOL.md §3.9, §12): whatever its text says, it is read as chat
    /// and nothing else. `members` gives the members of a table this node knows (nil: unknown table).
    func received(_ body: [UInt8], from: NodeID, members: (String) -> [NodeID]?) {
        guard let message = try? WireJSON.decode(ChatMessage.self, body), message.type == "chat" else {
            lock.withLock { dropped += 1 }
            logger.debug("chat from \(from.short) dropped: not a chat message")
            return
        }
        let now = ProcessInfo.processInfo.systemUptime
        let accepted: ChatEntry? = lock.withLock {
            guard ChatMessage.isRoom(message.room), let text = ChatMessage.clean(message.text),
                let name = names[from], rate.allow(from.hex, now: now),
                addressRate.allow(addresses[from] ?? "", now: now), allRate.allow("", now: now)
            else { return nil }
            return ChatEntry(room: message.room, from: name, fromId: from, text: text, mine: false, at: Self.nowMs())
        }
        guard let entry = accepted else {
            lock.withLock { dropped += 1 }
            logger.debug("chat from \(from.short) dropped (malformed, too long or too fast)")
            return
        }
        if entry.room != ChatMessage.lobby {
            guard members(entry.room)?.contains(from) == true else {
                lock.withLock { dropped += 1 }
                logger.debug("chat from \(from.short) for table \(entry.room) dropped: not a member")
                return
            }
        }
        record(entry)
    }

    /// Checks and records a message of this node's user; returns the cleaned message to post, or why not.
    func outgoing(room: String, text: String) -> Result<ChatMessage, ControlFailure> {
        guard ChatMessage.isRoom(room) else {
            return .failure(
                ControlFailure(code: .chatBadRoom, message: "a room is 'lobby' or a table id, not '\(room)'"))
        }
        guard let clean = ChatMessage.clean(text) else {
            return .failure(
                ControlFailure(
                    code: .chatBadText,
                    message: "a message is 1 to \(ChatMessage.maxTextBytes) bytes of text (control characters removed)")
            )
        }
        let now = ProcessInfo.processInfo.systemUptime
        // The same bound as receivers apply: past it they would drop the message without a word.
        guard lock.withLock({ rate.allow(me.hex, now: now) }) else {
            return .failure(
                ControlFailure(
                    code: .chatTooFast,
                    message: "at most \(Int(ChatRateLimit.burst)) messages at once, then one a second: wait a moment"))
        }
        record(ChatEntry(room: room, from: myName, fromId: me, text: clean, mine: true, at: Self.nowMs()))
        return .success(ChatMessage(room: room, text: clean))
    }

    /// The recent messages, of `room` when given.
    func recent(room: String?) -> [ChatEntry] {
        lock.withLock { history.filter { room == nil || $0.room == room } }
    }

    /// Every message from now on, of `room` when given, until the stream is dropped.
    func follow(room: String?) -> AsyncStream<ChatEntry> {
        let (stream, continuation) = AsyncStream<ChatEntry>.makeStream(bufferingPolicy: .bufferingNewest(1000))
        let key = UUID()
        lock.withLock { subscribers[key] = (room, continuation) }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            _ = self.lock.withLock { self.subscribers.removeValue(forKey: key) }
        }
        return stream
    }

    private func record(_ entry: ChatEntry) {
        let targets = lock.withLock {
            history.append(entry)
            if history.count > Self.historyLimit { history.removeFirst(history.count - Self.historyLimit) }
            return subscribers.values.filter { $0.room == nil || $0.room == entry.room }.map(\.continuation)
        }
        for t in targets { t.yield(entry) }
    }

    static func nowMs() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }
}
