import Crypto
import Foundation

/// The node's Ed25519 record-signing key in its state directory (`signing-key`: 64 hex digits of the seed, mode
/// 0600), beside `node-key`. It signs the records of the games this node played (PROTOCOL.md §11.7); the node's
/// identity key binds it to the node id once (`TavoloRecords.RecordSigner`), so losing it only means a new one.
public enum SigningKeyFile {
    public static let fileName = "signing-key"

    /// Reads `<dir>/signing-key`, creating it on first use. A file that does not hold a key is an error (one line,
    /// with the way out), never silently replaced.
    public static func loadOrCreate(stateDirectory dir: String) throws -> Curve25519.Signing.PrivateKey {
        let path = (dir as NSString).appendingPathComponent(fileName)
        let fm = FileManager.default
        if fm.fileExists(atPath: path) {
            guard let data = fm.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
                throw NodeKeyFile.LoadError.unreadable(path: path, detail: "not readable")
            }
            guard let raw = NodeKeyFile.hexBytes(text.trimmingCharacters(in: .whitespacesAndNewlines)), raw.count == 32,
                let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: raw)
            else {
                throw NodeKeyFile.LoadError.unreadable(
                    path: path, detail: "it does not hold a signing key (64 hex digits); move it away for a new one")
            }
            return key
        }
        let key = Curve25519.Signing.PrivateKey()
        try NodeKeyFile.writePrivate(Array((NodeKeyFile.hex(Array(key.rawRepresentation)) + "\n").utf8), to: path)
        return key
    }
}
