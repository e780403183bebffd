import TavoloNoise

/// A private circle as the mesh needs it (PROTOCOL.md §3.8): the name (for logs), the 32-byte Noise PSK derived from
/// the passphrase, and the public tag advertised in TXT `c`.
public struct MeshCircle: Sendable {
    public var name: String
    public var psk: [UInt8]
    public var tag: String

    /// Derives the PSK with scrypt: slow on purpose (about a second in a debug build).
    public init(name: String, passphrase: String) throws {
        self.name = name
        psk = try CircleKey.psk(passphrase: passphrase, circle: name)
        tag = CircleKey.tag(circle: name)
    }
}
