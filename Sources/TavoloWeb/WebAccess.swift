import Foundation

/// Who may use a node's page: whoever holds the token (only the user: it is in the user's state directory and
/// reaches the browser in the URL `tavolo open` prints), from a page of this server's own origin. Pure checks,
/// so unit tests cover every refusal without a browser.
public struct WebAccess: Sendable {
    public let token: String
    public let port: Int

    public init(token: String, port: Int) {
        self.token = token
        self.port = port
    }

    /// The cookie that carries the token after the first visit. Cookies are per host, not per port: two nodes on
    /// one machine need two names, or each would overwrite the other's.
    public var cookieName: String { "tavolo-\(port)" }

    /// `Set-Cookie` value: only this server reads it (HttpOnly), never sent by another site's request (Strict).
    public var setCookie: String { "\(cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict" }

    /// The hosts this server answers as: a browser on this machine names it one of these. Anything else in
    /// `Host` is a DNS-rebinding page whose name resolves to 127.0.0.1.
    public var hosts: [String] { ["127.0.0.1:\(port)", "localhost:\(port)"] }

    /// The page's own origins: a WebSocket opened by any other page is refused (cross-site WebSocket hijacking).
    public var origins: [String] { hosts.map { "http://\($0)" } }

    /// Whether `host` (the `Host` header) names this server.
    public func allowsHost(_ host: String?) -> Bool {
        guard let host else { return false }
        return hosts.contains(host.lowercased())
    }

    /// Whether a request carries the token, in the query (`?token=`) or in the cookie.
    public func hasToken(query: String?, cookie: String?) -> Bool {
        Self.same(query, token) || Self.same(cookie, token)
    }

    /// Whether a WebSocket upgrade comes from the page itself: browsers always send `Origin` on a WebSocket, so a
    /// missing one is refused too.
    public func allowsOrigin(_ origin: String?) -> Bool {
        guard let origin else { return false }
        return origins.contains(origin.lowercased())
    }

    /// Compares in time independent of where the strings differ (the token is a secret).
    static func same(_ given: String?, _ secret: String) -> Bool {
        guard let given else { return false }
        let a = Array(given.utf8)
        let b = Array(secret.utf8)
        guard a.count == b.count else { return false }
        var diff: UInt8 = 0
        for i in a.indices { diff |= a[i] ^ b[i] }
        return diff == 0
    }
}

/// The token of a node's page: 32 random bytes in hex, made once and kept in the state directory (mode 0600) so a
/// bookmarked URL survives a restart of the node.
public enum WebToken {
    public static let fileName = "web-token"

    public static func loadOrCreate(stateDirectory: String) throws -> String {
        let path = (stateDirectory as NSString).appendingPathComponent(fileName)
        if let data = FileManager.default.contents(atPath: path),
            let text = String(data: data, encoding: .utf8)?.trimmingCharacters(in: .whitespacesAndNewlines),
            text.count == 64, text.allSatisfy(\.isHexDigit)
        {
            try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
            return text
        }
        try FileManager.default.createDirectory(
            atPath: stateDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        var generator = SystemRandomNumberGenerator()
        let token = (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
        guard
            FileManager.default.createFile(
                atPath: path, contents: Data((token + "\n").utf8), attributes: [.posixPermissions: 0o600])
        else { throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path]) }
        return token
    }
}

/// A refused request, answered as one line of plain text for the person who opened the URL (Hummingbird's own
/// `HTTPError` answers JSON, which a browser shows with its escapes: `{"error":{"message":"…\n"}}`).
struct PlainRefusal: Error, Sendable {
    let code: Int
    let text: String

    static func forbidden(_ text: String) -> PlainRefusal { PlainRefusal(code: 403, text: text) }

    /// The token is missing or wrong, or the page was opened under another name than 127.0.0.1 / localhost.
    static let noToken = forbidden(
        "Forbidden: this page needs its token. Open the URL that `tavolo open` prints (it carries the token).")
    /// A WebSocket not opened by the node's own page (another site's page, or no Origin).
    static let foreignOrigin = forbidden("Forbidden: only this node's own page may open its WebSocket.")
}
