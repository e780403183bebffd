/// What `tavolo --version` and `tavolod --version` print: the release and the wire protocol it speaks (§3.6), so a
/// person comparing two machines that do not see each other can tell a version mismatch at a glance.
public enum TavoloVersion {
    /// The release, raised with every change a user or a peer can see.
    public static let release = "0.10.0"

    /// `0.10.0 (protocol 3)`.
    public static var line: String { "\(release) (protocol \(ProtocolVersion.network))" }
}
