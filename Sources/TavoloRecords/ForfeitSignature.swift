import TavoloCore
import TavoloProtocol
import TavoloRecordFormat
import TavoloTable

/// A member that leaves a game during play signs its forfeit (PROTOCOL.md §11.7): the statement names the game
/// (table id and joint seed) and the move count it left at. Carried in `table.forfeit`, the game log and the
/// record, it lets the loss count for that member on every node, without the member signing a record it never sees
/// the end of — and nobody else can charge it with one.
extension RecordSigner {
    public func signForfeit(table: TableID, jointSeed: UInt64, number: Int) -> SignatureObject? {
        sign(SignatureObject.forfeitStatement(table: table, jointSeed: jointSeed, number: number)).map(
            SignatureObject.init)
    }
}

extension SignatureObject {
    init(_ s: RecordSignature) {
        self.init(
            node: s.node, identity: s.identity, identityEd: s.identityEd, key: s.key, binding: s.binding,
            signature: s.signature)
    }
}

extension RecordSignature {
    init(_ o: SignatureObject) {
        self.init(
            node: o.node, identity: o.identity, identityEd: o.identityEd, key: o.key, binding: o.binding,
            signature: o.signature)
    }

    /// The members whose forfeit in `body` carries their own valid signature of it: those the loss counts for
    /// without their record signature.
    public static func signedForfeits(of body: RecordBody) -> Set<String> {
        guard let seed = body.seed, let table = TableID(body.table) else { return [] }
        var out = Set<String>()
        for t in body.takeovers ?? [] where t.forfeit {
            guard let o = t.signature,
                forfeitProblem(o, member: t.member, table: table, jointSeed: seed, number: t.number) == nil
            else { continue }
            out.insert(t.member)
        }
        return out
    }

    /// Why `o` is not `member`'s signature of its forfeit of `table` at move count `number`; nil when it is.
    public static func forfeitProblem(
        _ o: SignatureObject, member: String, table: TableID, jointSeed: UInt64, number: Int
    ) -> String? {
        guard o.node == member else { return "the forfeit of \(member.prefix(8)) is signed by \(o.node.prefix(8))" }
        let statement = SignatureObject.forfeitStatement(table: table, jointSeed: jointSeed, number: number)
        return RecordSignature(o).problem(signing: statement, "this forfeit")
    }
}
