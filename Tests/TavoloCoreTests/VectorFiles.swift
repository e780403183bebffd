import Foundation

/// Loads a JSON test vector file from `Protocol/vectors/` of this repository.
func loadVector(_ name: String, file: String = #filePath) throws -> [String: Any] {
    let root = URL(fileURLWithPath: file).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    let url = root.appendingPathComponent("Protocol/vectors/\(name)")
    let data = try Data(contentsOf: url)
    guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
        throw CocoaError(.fileReadCorruptFile)
    }
    return object
}
