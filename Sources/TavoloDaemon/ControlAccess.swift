import Foundation
import NIOCore

/// Who may use the control socket (PROTOCOL.md §7, "Access"): only processes of the user the daemon runs as.
/// Three fences, each enough on its own against another local user: the socket's directory is the user's and no
/// one else can write to it (so no one can swap the socket), the socket file is mode 0600, and every accepted
/// connection's uid, as the kernel reports it (`SO_PEERCRED`), must be the daemon's.
public enum ControlAccess {
    /// Why a connecting process is refused; nil when it may talk.
    public static func refusal(peerUID: uid_t?, daemonUID: uid_t) -> String? {
        guard let peerUID else { return "the connecting process's uid could not be read (SO_PEERCRED)" }
        guard peerUID == daemonUID else {
            return "uid \(peerUID) may not use this node's control socket (it belongs to uid \(daemonUID))"
        }
        return nil
    }

    /// Why the directory at `path` (as `stat` describes it) is unsafe for the socket; nil when it is safe.
    public static func directoryProblem(path: String, ownerUID: uid_t, mode: mode_t, daemonUID: uid_t) -> String? {
        if ownerUID != daemonUID {
            return "control socket directory \(path) belongs to uid \(ownerUID), not to this user (uid \(daemonUID))"
        }
        if mode & 0o022 != 0 {
            return "control socket directory \(path) is writable by others (mode \(String(mode & 0o7777, radix: 8)));"
                + " make it 0700 (chmod 700 \(path)) or choose another --control path"
        }
        return nil
    }

    public struct Unsafe: Error, CustomStringConvertible {
        public let description: String
    }

    /// Creates the socket's directory with mode 0700 if it does not exist; refuses one that another user owns or
    /// others can write to (they could replace the socket with theirs).
    public static func prepareDirectory(forSocket path: String) throws {
        let dir = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(
                atPath: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw Unsafe(description: "cannot create control socket directory \(dir): \(error.localizedDescription)")
        }
        var st = stat()
        guard lstat(dir, &st) == 0 else {
            throw Unsafe(
                description: "cannot inspect control socket directory \(dir): \(String(cString: strerror(errno)))")
        }
        guard st.st_mode & S_IFMT == S_IFDIR else {
            throw Unsafe(description: "control socket directory \(dir) is not a directory (a symbolic link?)")
        }
        if let problem = directoryProblem(path: dir, ownerUID: st.st_uid, mode: st.st_mode, daemonUID: geteuid()) {
            throw Unsafe(description: problem)
        }
    }

    /// The uid of the process at the other end of an accepted Unix-domain connection, from the kernel.
    static func peerUID(of channel: Channel) -> EventLoopFuture<uid_t?> {
        guard let provider = channel as? SocketOptionProvider else { return channel.eventLoop.makeSucceededFuture(nil) }
        let future: EventLoopFuture<PeerCredentials> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED))
        return future.map { Optional($0.uid) }.recover { _ in nil }
    }
}

/// `struct ucred` of <sys/socket.h> (Linux): what `getsockopt(SO_PEERCRED)` fills in.
struct PeerCredentials: Sendable {
    var pid: pid_t = 0
    var uid: uid_t = 0
    var gid: gid_t = 0
}
