import ArgumentParser
import Foundation
import TavoloControl
import TavoloCore

/// `tavolo open`: the URL of the node's page, with its token; opened in the browser when one is at hand.
struct Open: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the URL of the page your node serves (lobby, tables, chat) and open it in a browser.",
        discussion: """
            The page is served by your own tavolod on 127.0.0.1 only. The URL carries a token that only you \
            get (it is kept in the node's state directory): keep it to yourself. Opens it with xdg-open when \
            there is one and a display; otherwise open the URL yourself.
            """)

    @OptionGroup var nodeOptions: NodeOptions

    @Flag(help: "Only print the URL; do not start a browser.")
    var printOnly = false

    @Flag(help: "Print {\"url\", \"port\"} as JSON (and open nothing).")
    var json = false

    func run() throws {
        let client = try nodeOptions.connect()
        let link: WebLinkInfo
        do { link = try client.call(.web) } catch {
            throw CleanExit.failure("\(error)")
        }
        if json {
            print(String(decoding: try CanonicalJSON.encode(link), as: UTF8.self))
            return
        }
        print(link.url)
        guard !printOnly else { return }
        let env = ProcessInfo.processInfo.environment
        let hasDisplay =
            env["DISPLAY"].map { !$0.isEmpty } == true || env["WAYLAND_DISPLAY"].map { !$0.isEmpty } == true
        guard hasDisplay, let opener = Self.find("xdg-open") else { return }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: opener)
        process.arguments = [link.url]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try? process.run()
    }

    static func find(_ program: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(program)" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }
}
