import Crypto
import Foundation
import TavoloProtocol

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The node's long-term X25519 key in its state directory (`node-key`: 64 hex digits of the private key, mode
/// 0600). The node id is derived from it (PROTOCOL.md §3.3). A key file that cannot be read or does not hold a key
/// is an error at start, never a silent new identity.
public enum NodeKeyFile {
    public static let fileName = "node-key"
    /// The v1 file of a random id, renamed to `node-id.v1` when a key replaces it.
    public static let legacyFileName = "node-id"

    public struct Identity {
        public var id: NodeID
        public var key: Curve25519.KeyAgreement.PrivateKey
        /// Set once, on the start that replaced a v1 random id by a key: the old id.
        public var migratedFrom: NodeID?
        public var created: Bool
    }

    public enum LoadError: Error, CustomStringConvertible {
        case unreadable(path: String, detail: String)
        case corrupt(path: String)

        public var description: String {
            switch self {
            case .unreadable(let p, let d): "cannot use node key file \(p): \(d)"
            case .corrupt(let p):
                "\(p) does not hold a node key (64 hex digits); it is this node's identity: restore it, or move it "
                    + "away to start as a new node"
            }
        }
    }

    public static func loadOrCreate(stateDirectory dir: String) throws -> Identity {
        let path = (dir as NSString).appendingPathComponent(fileName)
        let fm = FileManager.default
        if fm.fileExists(atPath: path) {
            guard let data = fm.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
                throw LoadError.unreadable(path: path, detail: "not readable")
            }
            guard let raw = hexBytes(text.trimmingCharacters(in: .whitespacesAndNewlines)), raw.count == 32,
                let key = try? Curve25519.KeyAgreement.PrivateKey(rawRepresentation: raw),
                let id = NodeID.derived(from: key.publicKey)
            else { throw LoadError.corrupt(path: path) }
            return Identity(id: id, key: key, migratedFrom: nil, created: false)
        }
        do {
            try fm.createDirectory(atPath: dir, withIntermediateDirectories: true)
        } catch {
            throw LoadError.unreadable(path: dir, detail: error.localizedDescription)
        }
        let legacyPath = (dir as NSString).appendingPathComponent(legacyFileName)
        let legacy = (try? String(contentsOfFile: legacyPath, encoding: .utf8)).flatMap {
            NodeID(hex: $0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        let key = Curve25519.KeyAgreement.PrivateKey()
        guard let id = NodeID.derived(from: key.publicKey) else { throw LoadError.corrupt(path: path) }
        try writePrivate(Array((hex(Array(key.rawRepresentation)) + "\n").utf8), to: path)
        if fm.fileExists(atPath: legacyPath) {
            _ = try? fm.moveItem(atPath: legacyPath, toPath: legacyPath + ".v1")
        }
        return Identity(id: id, key: key, migratedFrom: legacy, created: true)
    }

    /// Writes through a temporary file created 0600 (never readable by others, even for a moment), then renames.
    static func writePrivate(_ bytes: [UInt8], to path: String) throws {
        let temp = path + ".tmp"
        unlink(temp)
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard fd >= 0 else { throw LoadError.unreadable(path: temp, detail: String(cString: strerror(errno))) }
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        let synced = fsync(fd)
        close(fd)
        guard written == bytes.count, synced == 0, rename(temp, path) == 0 else {
            unlink(temp)
            throw LoadError.unreadable(path: path, detail: "cannot write the new key")
        }
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    static func hexBytes(_ text: String) -> [UInt8]? {
        let chars = Array(text.utf8)
        guard chars.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        for i in stride(from: 0, to: chars.count, by: 2) {
            guard let hi = digit(chars[i]), let lo = digit(chars[i + 1]) else { return nil }
            out.append(hi << 4 | lo)
        }
        return out
    }

    private static func digit(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
