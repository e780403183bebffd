import Foundation
import TavoloTestSupport

/// Loads a JSON test vector file from `Protocol/vectors/` of this repository (`ProtocolVectors`).
func loadVector(_ name: String) throws -> [String: Any] { try ProtocolVectors.object(name) }
