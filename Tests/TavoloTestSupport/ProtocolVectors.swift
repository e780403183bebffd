import Foundation

/// The protocol's test vectors (`Protocol/vectors/*.json`, written by the independent generators there): the one
/// loader every test target uses.
public enum ProtocolVectors {
    /// The repository's root, found from this file's place in it (`Tests/TavoloTestSupport/`).
    public static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The file `name` of `Protocol/vectors/`.
    public static func url(_ name: String) -> URL {
        repositoryRoot.appendingPathComponent("Protocol/vectors").appendingPathComponent(name)
    }

    /// The bytes of `Protocol/vectors/<name>`.
    public static func data(_ name: String) throws -> Data { try Data(contentsOf: url(name)) }

    /// `Protocol/vectors/<name>` as a JSON object.
    public static func object(_ name: String) throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: data(name)) as? [String: Any] else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: url(name).path])
        }
        return object
    }
}
