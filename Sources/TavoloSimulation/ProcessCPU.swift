import Foundation

/// CPU time a node process has used (user + system), from `/proc/<pid>/stat` (Linux): what a move costs each
/// node, so `scripts/bench table` shows where a moves/s goal stands without `perf` (issue 19).
enum ProcessCPU {
    /// Seconds of CPU `pid` has used; nil when `/proc` has no such process or it is not `tavolod` itself (any
    /// wrapper that did not exec the node).
    static func seconds(_ pid: pid_t) -> Double? {
        guard let comm = try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8),
            comm.hasPrefix("tavolod"),
            let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        // After "pid (comm) ": state is field 3, utime 14 and stime 15, in clock ticks.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
