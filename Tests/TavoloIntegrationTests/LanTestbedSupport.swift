import Foundation
import TavoloDaemon
import TavoloSimulation
import TavoloTestSupport
import XCTest

/// The scripts/lan testbed for one test: takes a machine-wide lock (tests run in parallel processes, and the
/// testbed's names are fixed), makes `count` test hosts, and removes them in `down()`.
final class LanTestbedHarness {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let script = packageRoot.appendingPathComponent("scripts/lan").path
    let count: Int
    private var lockFD: Int32 = -1

    /// Skips (or under CI=true fails) where network namespaces cannot be made; otherwise a failing
    /// `scripts/lan up` is a test failure. `routed`: two subnets, a router and a DNS server (`scripts/lan`).
    init(hosts count: Int, routed: Bool = false) throws {
        self.count = count
        try Self.requireNamespaces()
        lockFD = open("/tmp/tavolo-lan-tests.lock", O_CREAT | O_RDWR, 0o644)
        guard lockFD >= 0 else { throw HarnessError("cannot open /tmp/tavolo-lan-tests.lock") }
        // Bounded: another test may hold the testbed; wait for it, up to five minutes.
        let deadline = Date().addingTimeInterval(300)
        while flock(lockFD, LOCK_EX | LOCK_NB) != 0 {
            guard Date() < deadline else {
                close(lockFD)
                throw HarnessError("the LAN testbed stayed locked by another test for 5 minutes")
            }
            usleep(100_000)
        }
        let up = Self.lan(["up", String(count)] + (routed ? ["--routed"] : []))
        guard up.status == 0 else {
            down()
            XCTFail("scripts/lan up \(count) failed: \(up.output)")
            throw HarnessError("scripts/lan up \(count) failed: \(up.output)")
        }
    }

    /// Removes the test hosts and releases the lock. Idempotent.
    func down() {
        guard lockFD >= 0 else { return }
        _ = Self.lan(["down"])
        flock(lockFD, LOCK_UN)
        close(lockFD)
        lockFD = -1
    }

    deinit { down() }

    func name(_ index: Int) -> String { "tvh\(index)" }
    func address(_ index: Int) -> String { "10.77.0.\(index)" }
    func holder(_ index: Int) throws -> pid_t { try LanTestbed.holderPID(host: name(index)) }

    /// Runs `scripts/lan ARGS…`; returns its status and output (stdout and stderr).
    @discardableResult
    static func lan(_ arguments: [String]) -> (status: Int32, output: String) {
        // posix_spawn and waitpid, output to a file: Foundation's Process never saw `scripts/lan up` end here
        // (the daemons it starts outlive it).
        let out = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tavolo-lan-\(UInt32.random(in: 0...UInt32.max)).out"
        ).path
        defer { unlink(out) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = (["/bin/bash", script] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, "/bin/bash", &actions, nil, argv, environ) == 0 else {
            return (-1, "cannot run \(script)")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let output = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
        return ((status & 0x7f) == 0 ? (status >> 8) & 0xff : -1, output)
    }

    /// `scripts/lan ARGS…` that must succeed.
    func lan(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let r = Self.lan(arguments)
        guard r.status == 0 else {
            XCTFail("scripts/lan \(arguments.joined(separator: " ")): \(r.output)", file: file, line: line)
            throw HarnessError(r.output)
        }
    }

    /// Network namespaces need root and a kernel that allows them; containers may forbid them.
    static func requireNamespaces() throws {
        let probe = try? runProcess("/usr/bin/unshare", ["-n", "-m", "true"])
        if geteuid() == 0, probe?.status == 0 { return }
        let why =
            geteuid() != 0
            ? "the LAN testbed needs root (network namespaces, a bridge)"
            : "network namespaces cannot be created here (unshare -n: \(probe?.combined ?? "missing"))"
        if ProcessInfo.processInfo.environment["CI"] == "true" {
            XCTFail("CI=true: the LAN tests must run. " + why)
            throw HarnessError(why)
        }
        throw XCTSkip("Skipping LAN test: " + why + ". Under CI=true this is a failure.")
    }
}
