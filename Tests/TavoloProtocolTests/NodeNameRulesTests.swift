import TavoloProtocol
import XCTest

/// PROTOCOL.md §4.1: a node name with a hidden or direction-changing character is refused, as one with a control
/// character is; ordinary names of any script are not.
final class NodeNameRulesTests: XCTestCase {
    func testHiddenAndDirectionChangingCharactersAreRefusedInNames() {
        for bad in [
            "evil\u{202E}gnp.exe", "ann\u{200B}", "\u{2066}bob", "zoe\u{FEFF}", "x\u{061C}y", "t\u{E0041}ag",
            "soft\u{00AD}hyphen", "line\u{2028}sep", "tab\tname",
        ] {
            XCTAssertFalse(
                Handshake.isValidName(bad),
                bad.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " "))
            XCTAssertNotNil(Handshake(nodeId: NodeID.random(), name: bad, udpPort: 1, capabilities: []).violation)
        }
        for good in ["ann", "Ännchen", "аnn", "東京", "b0b", "node 1", "🎲 dice"] {
            XCTAssertTrue(Handshake.isValidName(good), good)
        }
    }
}
