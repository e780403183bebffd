import TavoloControl
import XCTest

@testable import TavoloDoctor

/// `avahi-browse --parsable --resolve` output as Avahi 0.8 prints it, and the configuration file of the user's node.
final class AvahiBrowseParseTests: XCTestCase {
    func testResolvedIPv4LinesBecomeSightingsWithTheirInterfaceAndId() {
        let output = """
            +;eth0;IPv4;alice;_tavolo._tcp;local
            +;lo;IPv4;alice;_tavolo._tcp;local
            =;eth0;IPv4;alice;_tavolo._tcp;local;tvh1.local;10.77.0.1;7878;"c=" "u=7878" "v=3" "id=abcd"
            =;lo;IPv4;alice;_tavolo._tcp;local;tvh1.local;127.0.0.1;7878;"v=3" "id=abcd"
            =;eth0;IPv6;alice;_tavolo._tcp;local;tvh1.local;fe80::1;7878;"id=abcd"
            =;eth0;IPv4;my\\032node\\059x;_tavolo._tcp;local;b.local;10.77.0.2;4000;
            garbage
            """
        let sightings = AvahiBrowse.parse(output)
        XCTAssertEqual(sightings.count, 3)
        XCTAssertEqual(
            sightings[0],
            AvahiSighting(
                interface: "eth0", name: "alice", host: "tvh1.local", address: "10.77.0.1", port: 7878, id: "abcd"))
        XCTAssertEqual(sightings[1].interface, "lo")
        XCTAssertEqual(sightings[2].name, "my node;x")
        XCTAssertNil(sightings[2].id)
    }

    func testTheConfigurationFileReadsNameAndPortAndRefusesTypos() throws {
        let config = try NodeConfig.parse("# mine\nname = alice   # the name\n\nport=7878\n", path: "t.conf")
        XCTAssertEqual(config, NodeConfig(name: "alice", port: 7878))
        XCTAssertEqual(try NodeConfig.parse("", path: "t.conf").nodeName, NodeName.loginName)
        XCTAssertThrowsError(try NodeConfig.parse("nmae = bob\n", path: "t.conf")) { error in
            XCTAssertTrue("\(error)".contains("t.conf line 1: unknown key 'nmae'"), "\(error)")
        }
        XCTAssertThrowsError(try NodeConfig.parse("port = 70000", path: "t.conf"))
        XCTAssertThrowsError(try NodeConfig.parse("name = a/b", path: "t.conf"))
        XCTAssertThrowsError(try NodeConfig.parse("just words", path: "t.conf"))
    }
}
