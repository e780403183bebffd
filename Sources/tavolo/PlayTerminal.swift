import Foundation

/// The terminal in raw mode on the alternate screen, for the full-screen table. Restored by `restore()`, and on
/// SIGINT, SIGTERM and SIGHUP by a handler that puts the saved settings back before the process ends.
final class RawTerminal {
    private var restored = false

    /// Raw mode on stdin (no echo, no line editing, Ctrl-C still interrupts), alternate screen, cursor hidden.
    init() throws {
        var t = termios()
        guard tcgetattr(STDIN_FILENO, &t) == 0 else { throw CleanExit.failure("stdin is not a terminal") }
        savedTermios = t
        haveSavedTermios = true
        t.c_lflag &= ~tcflag_t(ICANON | ECHO | IEXTEN)
        t.c_iflag &= ~tcflag_t(IXON | ICRNL)
        withUnsafeMutableBytes(of: &t.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &t)
        for sig in [SIGINT, SIGTERM, SIGHUP] { signal(sig, restoreAndExit) }
        Self.write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[H\u{1B}[2J")
    }

    /// Columns and rows (80×24 if the terminal does not say).
    var size: (width: Int, height: Int) {
        var w = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &w) == 0, w.ws_col > 0, w.ws_row > 0 else { return (80, 24) }
        return (Int(w.ws_col), Int(w.ws_row))
    }

    func restore() {
        guard !restored else { return }
        restored = true
        Self.write(leaveScreen)
        var t = savedTermios
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &t)
        for sig in [SIGINT, SIGTERM, SIGHUP] { signal(sig, SIG_DFL) }
    }

    deinit { restore() }

    /// What a signal's way out says on stderr once the terminal is back.
    static var farewell: String {
        get { String(cString: farewellBytes) }
        set { farewellBytes = newValue.utf8CString.map { $0 } }
    }

    static func write(_ s: String) {
        let bytes = Array(s.utf8)
        var off = 0
        while off < bytes.count {
            let n = bytes.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return Glibc.write(STDOUT_FILENO, base + off, raw.count - off)
            }
            guard n > 0 else { return }
            off += n
        }
    }

    /// Reads what the keyboard sent (blocking); nil at end of input.
    static func readKeys() -> [UInt8]? {
        var buf = [UInt8](repeating: 0, count: 64)
        let n = buf.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
        return n > 0 ? Array(buf[..<n]) : nil
    }
}

private let leaveScreen = "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"
/// The bytes the signal handler writes after restoring the terminal: made before, since a handler may not allocate.
nonisolated(unsafe) private var farewellBytes: [CChar] = [0]
nonisolated(unsafe) private var savedTermios = termios()
nonisolated(unsafe) private var haveSavedTermios = false

/// Signal handler: only async-signal-safe calls (write, tcsetattr, _exit).
private func restoreAndExit(_ sig: Int32) {
    if haveSavedTermios {
        leaveScreen.utf8CString.withUnsafeBufferPointer { p in
            _ = Glibc.write(STDOUT_FILENO, p.baseAddress, p.count - 1)
        }
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &savedTermios)
        farewellBytes.withUnsafeBufferPointer { p in
            _ = Glibc.write(STDERR_FILENO, p.baseAddress, p.count - 1)
        }
    }
    _exit(128 + sig)
}
