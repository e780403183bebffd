import TavoloCore

extension SignatureObject {
    /// The statement a member signs when it leaves a game during play (§9.12, §11.7): `"tavolo/forfeit/v1" ‖
    /// u64(jointSeed) ‖ u64(number) ‖ the table id's UTF-8 bytes`, both numbers big-endian. The joint seed and the
    /// table id name one game; the number is the move count it left at.
    public static func forfeitStatement(table: TableID, jointSeed: UInt64, number: Int) -> [UInt8] {
        func u64(_ v: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: v >> (56 - 8 * $0)) } }
        return Array("tavolo/forfeit/v1".utf8) + u64(jointSeed) + u64(UInt64(max(number, 0)))
            + Array(table.rawValue.utf8)
    }
}
