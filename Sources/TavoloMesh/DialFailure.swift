import Foundation
import NIOCore
import NIOPosix

/// Why a dial failed, in words for people (`tavolo peers`, the page's lobby): what happened and what it likely
/// means. The library's own text (type names, targets, errno numbers) stays in the debug log.
enum DialFailure {
    static func text(_ error: Error, address: String, port: Int) -> String {
        "cannot connect to \(address):\(port): " + cause(error) + "; retrying"
    }

    static func cause(_ error: Error) -> String {
        if let e = error as? NIOConnectionError {
            if let first = e.connectionErrors.first { return cause(first.error) }
            if e.dnsAError != nil || e.dnsAAAAError != nil { return "its address did not resolve" }
            return "no address to try"
        }
        if let e = error as? IOError { return errnoText(e.errnoCode) }
        if let e = error as? ChannelError, case .connectTimeout = e {
            return "no answer (the node may be unreachable, or a firewall drops the connection)"
        }
        return "the connection failed"
    }

    static func errnoText(_ code: Int32) -> String {
        switch code {
        case ECONNREFUSED: "nothing listens there (the node may have stopped or restarted on another port)"
        case ETIMEDOUT: "no answer (the node may be unreachable, or a firewall drops the connection)"
        case EHOSTUNREACH, ENETUNREACH: "no route to that address (another network?)"
        case ECONNRESET: "the connection was reset"
        default: String(cString: strerror(code)).lowercased()
        }
    }
}
