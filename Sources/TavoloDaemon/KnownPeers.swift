import Foundation
import NIOConcurrencyHelpers
import TavoloControl
import TavoloProtocol

/// The identity (node id, so public key: PROTOCOL.md §3.3) of every peer name this node has connected to, like
/// SSH's known hosts. A name that comes back with another identity is `identity changed`: not trusted as the old
/// one (no invitation, no seat by that name) until the user accepts it (`tavolo peers --accept NAME`).
public struct KnownPeers: Codable, Equatable, Sendable {
    public struct Entry: Codable, Equatable, Sendable {
        /// The identity trusted for this name.
        public var id: NodeID
        /// Another identity that connected with this name and is not accepted (the newest one seen).
        public var changedTo: NodeID?
        /// When the name last connected (milliseconds since 1970, to the hour: a reconnect within the hour does not
        /// rewrite the book); absent in books written before it, which count as the longest unseen.
        public var lastSeen: Int64?
    }

    /// Names kept: past it, the longest unseen are forgotten first, so identity churn (every key a new name) keeps
    /// the book, and each rewrite of it, bounded.
    public static let limit = 1_000

    public var peers: [String: Entry] = [:]

    public init() {}

    public enum Verdict: Equatable, Sendable {
        /// First connection with this name: its identity is now the name's.
        case new
        /// The name's known identity.
        case trusted
        /// Another identity than the one known for this name.
        case changed(trusted: NodeID)
    }

    /// Records that `id` connected under `name` at `now` (milliseconds since 1970).
    public mutating func observe(name: String, id: NodeID, now: Int64 = Self.nowMs()) -> Verdict {
        guard var entry = peers[name] else {
            peers[name] = Entry(id: id, lastSeen: now)
            forgetLongestUnseen(keeping: name)
            return .new
        }
        if (entry.lastSeen ?? 0) < now - 3_600_000 { entry.lastSeen = now }
        defer { peers[name] = entry }
        if entry.id == id { return .trusted }
        entry.changedTo = id
        return .changed(trusted: entry.id)
    }

    /// Past `limit`, drops the longest-unseen names down to 90% of it (never `name`, just seen): one sort per
    /// hundred new names, not one per name.
    mutating func forgetLongestUnseen(keeping name: String) {
        guard peers.count > Self.limit else { return }
        let oldest = peers.filter { $0.key != name }.sorted {
            ($0.value.lastSeen ?? 0, $0.key) < ($1.value.lastSeen ?? 0, $1.key)
        }
        for (old, _) in oldest.prefix(peers.count - Self.limit * 9 / 10) { peers[old] = nil }
    }

    public static func nowMs() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    /// Whether `id` uses a name known for another identity.
    public func isChanged(name: String, id: NodeID) -> Bool {
        guard let entry = peers[name] else { return false }
        return entry.id != id
    }

    /// Makes the changed identity seen for `name` the trusted one; returns it, nil when there is none.
    public mutating func accept(name: String) -> NodeID? {
        guard var entry = peers[name], let newID = entry.changedTo else { return nil }
        entry.id = newID
        entry.changedTo = nil
        peers[name] = entry
        return newID
    }

    /// The connected peer a user means by `nameOrID` (a name, or an id's 32 hex digits), as an identity, or why
    /// there is none: no such peer, several connected under that name, or a name whose identity changed.
    public func resolve(_ nameOrID: String, connected: [(name: String, id: NodeID)]) -> Result<NodeID, ControlFailure> {
        if let id = NodeID(hex: nameOrID) {
            guard connected.contains(where: { $0.id == id }) else {
                return .failure(ControlFailure(code: .meshNotConnected, message: "no connected peer \(id.hex)"))
            }
            return .success(id)
        }
        let named = connected.filter { $0.name == nameOrID }
        guard let first = named.first else {
            return .failure(
                ControlFailure(code: .meshNotConnected, message: "no connected peer called '\(nameOrID)'"))
        }
        guard named.count == 1 else {
            let ids = named.map { $0.id.short }.joined(separator: ", ")
            return .failure(
                ControlFailure(
                    code: .peerAmbiguous,
                    message: "\(named.count) connected peers are called '\(nameOrID)' (ids \(ids)): name one by its id")
            )
        }
        if isChanged(name: nameOrID, id: first.id), let known = peers[nameOrID] {
            return .failure(
                ControlFailure(
                    code: .peerIdentityChanged,
                    message: "'\(nameOrID)' has another identity (\(first.id.short)) than the one known "
                        + "(\(known.id.short)): check it, then accept it with tavolo peers --accept \(nameOrID)"))
        }
        return .success(first.id)
    }
}

/// The known peers of one node, kept in `<state directory>/known-peers.json` (rewritten whole, at most
/// `KnownPeers.limit` names, through a temporary file at each change). Shared by the mesh's event handler and the
/// control socket.
final class KnownPeerBook: Sendable {
    let path: String
    private let state: NIOLockedValueBox<KnownPeers>
    /// The file is written here, never on the mesh's event loop where a peer's connection updates the book; in the
    /// order of the changes, as each is queued under the book's lock.
    private let disk = DispatchQueue(label: "tavolo.known-peers", qos: .utility)

    /// Loads the file; a missing file is an empty book, an unreadable one an error (never silently forgotten: a
    /// forgotten book would trust a changed identity as new).
    init(stateDirectory: String) throws {
        path = (stateDirectory as NSString).appendingPathComponent("known-peers.json")
        var book = KnownPeers()
        if FileManager.default.fileExists(atPath: path) {
            do {
                book = try JSONDecoder().decode(KnownPeers.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
            } catch {
                throw NodeService.StartError(
                    "known peers file \(path) cannot be read (\(error.localizedDescription)): fix or remove it")
            }
        }
        state = NIOLockedValueBox(book)
    }

    var snapshot: KnownPeers { state.withLockedValue { $0 } }

    /// Runs `change` on the book and, if it changed, queues a save of it; returns what `change` returned.
    func update<R>(_ change: (inout KnownPeers) -> R) -> R {
        state.withLockedValue { book -> R in
            let before = book
            let r = change(&book)
            if book != before {
                let changed = book
                disk.async { self.save(changed) }
            }
            return r
        }
    }

    /// Waits for the saves queued so far (tests, shutdown).
    func saved() { disk.sync {} }

    private func save(_ book: KnownPeers) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        guard let data = try? encoder.encode(book) else { return }
        // A temporary file renamed over the old one, so a crash never leaves half a book; removed when it cannot be
        // written whole (a full disk), and any left by a crash are removed at start (`StateDirectory.cleanTemporaries`).
        let temporary = path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        let written = data.withUnsafeBytes { write(fd, $0.baseAddress, data.count) }
        close(fd)
        guard written == data.count, rename(temporary, path) == 0 else {
            unlink(temporary)
            return
        }
    }
}
