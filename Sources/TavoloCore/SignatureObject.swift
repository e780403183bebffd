/// A signature object of PROTOCOL.md §11.7 as it travels: a node's signing key, that key's binding to its node
/// id, and the key's signature of a statement. The table layer only carries one (a member's signed forfeit,
/// §9.12) into its log and record; `TavoloRecords` checks it. Its members have fixed lengths, so it is bounded.
public struct SignatureObject: Codable, Sendable, Hashable {
    public var node: String
    public var identity: String
    public var identityEd: String
    public var key: String
    public var binding: String
    public var signature: String

    public init(node: String, identity: String, identityEd: String, key: String, binding: String, signature: String) {
        (self.node, self.identity, self.identityEd) = (node, identity, identityEd)
        (self.key, self.binding, self.signature) = (key, binding, signature)
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func hex(_ key: CodingKeys, bytes: Int) throws -> String {
            let s = try c.decode(String.self, forKey: key)
            guard s.utf8.count == bytes * 2,
                s.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
            else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: c, debugDescription: "not \(bytes) bytes of lower-case hex")
            }
            return s
        }
        self.init(
            node: try hex(.node, bytes: 16), identity: try hex(.identity, bytes: 32),
            identityEd: try hex(.identityEd, bytes: 32), key: try hex(.key, bytes: 32),
            binding: try hex(.binding, bytes: 64), signature: try hex(.signature, bytes: 64))
    }
}
