import Crypto
import TavoloCore
import TavoloNoise
import TavoloRecordFormat

/// One member's signature of a record (PROTOCOL.md §11.7): its record-signing key, that key's binding to the
/// member's node id, and the signature of the record's id. Everything needed to check it travels with it, so a
/// node that never met the signer checks it as well as one that played with it.
public struct RecordSignature: Codable, Sendable, Hashable {
    /// The signer's node id (32 lower-case hex digits).
    public var node: String
    /// The signer's X25519 identity (Noise static) public key; `node` is derived from it (§3.3).
    public var identity: String
    /// The Edwards form of the identity key (`a·B`), under which `binding` is checked.
    public var identityEd: String
    /// The Ed25519 record-signing public key.
    public var key: String
    /// The identity key's signature of `"tavolo/signing-key/v1" ‖ identity ‖ key`.
    public var binding: String
    /// The signing key's signature of `"tavolo/record/v1" ‖ the record id's 32 bytes`.
    public var signature: String

    public init(node: String, identity: String, identityEd: String, key: String, binding: String, signature: String) {
        self.node = node
        self.identity = identity
        self.identityEd = identityEd
        self.key = key
        self.binding = binding
        self.signature = signature
    }

    static let bindingDomain = Array("tavolo/signing-key/v1".utf8)
    static let recordDomain = Array("tavolo/record/v1".utf8)

    static func bindingMessage(identity: [UInt8], key: [UInt8]) -> [UInt8] { bindingDomain + identity + key }
    static func recordMessage(id: [UInt8]) -> [UInt8] { recordDomain + id }

    /// Why this signature does not sign record `id` for `node`; nil when it does.
    public func problem(recordID id: String) -> String? {
        guard id.utf8.count == 64, RecordLimits.isLowerHex(id), let idBytes = [UInt8](hexString: id) else {
            return "a record id is not 64 lower-case hex digits"
        }
        return problem(signing: Self.recordMessage(id: idBytes), "this record")
    }

    /// Why this signature does not sign `message` (`what`, for the line said) for `node`; nil when it does.
    func problem(signing message: [UInt8], _ what: String) -> String? {
        func bytes(_ s: String, _ count: Int) -> [UInt8]? {
            guard s.utf8.count == count * 2, RecordLimits.isLowerHex(s) else { return nil }
            return [UInt8](hexString: s)
        }
        guard let identityBytes = bytes(identity, 32), let edBytes = bytes(identityEd, 32),
            let keyBytes = bytes(key, 32), let bindingBytes = bytes(binding, 64),
            let signatureBytes = bytes(signature, 64)
        else { return "a signature field is not lower-case hex of its length" }
        guard TavoloKeyDerivation.nodeIDBytes(staticPublicKey: identityBytes).hexString == node else {
            return "signature of \(node.prefix(8)): the identity key is not that node's"
        }
        guard
            IdentitySignature.verify(
                bindingBytes, of: Self.bindingMessage(identity: identityBytes, key: keyBytes), edwards: edBytes,
                x25519Public: identityBytes)
        else { return "signature of \(node.prefix(8)): the signing key is not bound to its identity" }
        guard let signingKey = try? Curve25519.Signing.PublicKey(rawRepresentation: keyBytes),
            signingKey.isValidSignature(signatureBytes, for: message)
        else { return "signature of \(node.prefix(8)): does not sign \(what)" }
        return nil
    }

    /// The nodes that must sign a record (§11.7): every owner at the end of a seat, a person's or a bot's. A member
    /// that left or was voted out owns none (its seats name its heir), nor does a host without a seat.
    public static func requiredSigners(of body: RecordBody) -> Set<String> {
        Set(body.seats.map(\.node))
    }

    /// Whether signatures of `signers` complete a record: every seat owner's. A game of one node's bots is complete
    /// with that node's signature; a node named at a seat, even a bot's, that never signed leaves it incomplete (else
    /// anyone could put a victim's bots at a made-up game, and on the victim's list of its own games).
    public static func isComplete(_ body: RecordBody, signers: Set<String>) -> Bool {
        requiredSigners(of: body).isSubset(of: signers)
    }

    /// The valid signatures among `signatures` from nodes `body` names (one per node; others are left out), and
    /// what is missing: nil when they complete the record.
    public static func check(_ signatures: [RecordSignature], recordID: String, body: RecordBody) -> (
        valid: [RecordSignature], missing: String?
    ) {
        // Seat owners, and members that left (whose signature lets their forfeit count, §11.7).
        let owners = Set(body.seats.map(\.node)).union((body.takeovers ?? []).map(\.member))
        var valid: [String: RecordSignature] = [:]
        var lastProblem: String?
        for s in signatures.prefix(RecordLimits.maxSignatures) where owners.contains(s.node) && valid[s.node] == nil {
            if let p = s.problem(recordID: recordID) { lastProblem = p } else { valid[s.node] = s }
        }
        let signers = Set(valid.keys)
        var missing: String?
        if let unsigned = requiredSigners(of: body).subtracting(signers).min() {
            missing = lastProblem ?? "seat owner \(unsigned.prefix(8)) did not sign it"
        }
        return (valid.keys.sorted().compactMap { valid[$0] }, missing)
    }
}

/// This node's signer: its identity and record-signing keys, the binding made once at start.
public struct RecordSigner: Sendable {
    public let node: String
    let identity: [UInt8]
    let identityEd: [UInt8]
    let binding: [UInt8]
    /// The signing key's raw bytes (swift-crypto's key type is not `Sendable`).
    let keyBytes: [UInt8]

    public init?(identity: Curve25519.KeyAgreement.PrivateKey, signingKey: Curve25519.Signing.PrivateKey) {
        let publicIdentity = Array(identity.publicKey.rawRepresentation)
        let message = RecordSignature.bindingMessage(
            identity: publicIdentity, key: Array(signingKey.publicKey.rawRepresentation))
        guard let (edwards, binding) = IdentitySignature.sign(message, privateKey: Array(identity.rawRepresentation))
        else { return nil }
        node = TavoloKeyDerivation.nodeIDBytes(staticPublicKey: publicIdentity).hexString
        self.identity = publicIdentity
        identityEd = edwards
        self.binding = binding
        keyBytes = Array(signingKey.rawRepresentation)
    }

    /// This node's signature of record `id` (64 hex digits).
    public func sign(recordID id: String) -> RecordSignature? {
        guard let idBytes = [UInt8](hexString: id), idBytes.count == 32 else { return nil }
        return sign(RecordSignature.recordMessage(id: idBytes))
    }

    /// This node's signature of a message of §11.7 (a record's, a forfeit's).
    func sign(_ message: [UInt8]) -> RecordSignature? {
        guard let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: keyBytes),
            let signature = try? key.signature(for: message)
        else { return nil }
        return RecordSignature(
            node: node, identity: identity.hexString, identityEd: identityEd.hexString,
            key: Array(key.publicKey.rawRepresentation).hexString, binding: binding.hexString,
            signature: Array(signature).hexString)
    }
}
