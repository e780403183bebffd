#if canImport(Glibc)
    import Foundation
    import Glibc

    /// Gives back the code pages `tavolod` mapped while starting and no longer runs (issue 19: idle memory).
    ///
    /// Most of an idle node's resident memory is not its own data but file-backed pages of code — its binary, the
    /// Swift runtime, Foundation, ICU — and most of those were mapped by the kernel's fault-around (a fault maps up
    /// to 16 neighbouring pages already in the page cache), or ran once at start-up (argument parsing, the records
    /// migration, the first handshakes). Once started, for every executable, never-written mapping of a file, this
    /// tells the kernel not to map neighbours (`MADV_RANDOM`) and drops the pages mapped so far (`MADV_DONTNEED`):
    /// they stay in the page cache, and the ones still used map again at their next use, one page at a time.
    /// Only executable mappings are dropped: their pages are the file's own, never written (a written private page —
    /// relocations, data — would be lost, so nothing writable or merely readable is touched).
    enum CodePageTrim {
        /// The bytes of code mappings dropped (what they had resident is what RSS goes down by, at most).
        @discardableResult
        static func run() -> Int {
            // smaps, not maps: it says whether a mapping has private copies of pages (`Anonymous`), which one written
            // after loading would (text relocations, a debugger's breakpoints): those are left alone. Read to the
            // end: a /proc file has no size, and a reader that trusts `stat` stops after the first page.
            guard let file = FileHandle(forReadingAtPath: "/proc/self/smaps"), let data = try? file.readToEnd() else {
                return 0
            }
            try? file.close()
            var dropped = 0
            var candidate: (address: UnsafeMutableRawPointer, length: Int)?
            var written = false
            for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                if let first = fields.first, first.contains("-"), fields.count >= 5 {
                    // A mapping's first line: start-end perms offset dev inode [path]
                    candidate = nil
                    written = false
                    let range = first.split(separator: "-")
                    guard fields[1] == "r-xp", fields.count >= 6, fields[5].hasPrefix("/"), range.count == 2,
                        let start = UInt(range[0], radix: 16), let end = UInt(range[1], radix: 16), end > start,
                        let address = UnsafeMutableRawPointer(bitPattern: start)
                    else { continue }
                    candidate = (address, Int(end - start))
                } else if fields.first == "Anonymous:", fields.count >= 2, fields[1] != "0" {
                    written = true
                } else if fields.first == "VmFlags:", let (address, length) = candidate, !written {
                    // The mapping's last line: its page counts are all read.
                    _ = madvise(address, length, MADV_RANDOM)
                    if madvise(address, length, MADV_DONTNEED) == 0 { dropped += length }
                    candidate = nil
                }
            }
            return dropped
        }
    }
#else
    enum CodePageTrim {
        @discardableResult static func run() -> Int { 0 }
    }
#endif
