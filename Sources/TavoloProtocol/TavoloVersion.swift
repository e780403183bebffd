import CTavoloBuild

/// What `tavolo --version` and `tavolod --version` print: the release and the wire protocol it speaks (§3.6), so a
/// person comparing two machines that do not see each other can tell a version mismatch at a glance; and, in a
/// build that was told it (`scripts/package`), the commit it was built from.
public enum TavoloVersion {
    /// The release, raised with every change a user or a peer can see.
    public static let release = "0.10.0"

    /// The commit the binary was built from (`tavolo_build_commit.h`, see `CTavoloBuild`), or nil in a plain build.
    public static let commit: String? = {
        let text = String(cString: tavolo_build_commit())
        return text.isEmpty ? nil : text
    }()

    /// `0.10.0 (protocol 3, commit 1a2b3c4)`, or `0.10.0 (protocol 3)` when the commit is not known.
    public static var line: String {
        "\(release) (protocol \(ProtocolVersion.network)\(commit.map { ", commit \($0)" } ?? ""))"
    }
}
