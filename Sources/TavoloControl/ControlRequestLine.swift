import TavoloCore
import TavoloProtocol

/// One request line, from the control socket or the page's WebSocket (PROTOCOL.md §7, §12.2): decoded here, once,
/// for both, so both answer a bad line with the same code.
extension ControlRequestLine {
    /// The line's request, or the failure to answer it with; `id` is the line's when it has one, so even a request
    /// that does not decode gets an answer its client can match.
    ///
    /// Not one JSON object, or nested deeper than the wire allows (its decoding cost is cubic, §3.4):
    /// `control/bad-request`. An object with an unknown `op`: `control/unknown-op`. Any other object that is not a
    /// request (no `op`, a missing or mistyped parameter): `control/bad-params`.
    public static func decode(_ line: [UInt8]) -> (id: Int?, request: Result<ControlRequest, ControlFailure>) {
        guard JSONSyntax.isWellFormed(line) else { return (nil, .failure(notAnObject)) }
        let id = (try? WireJSON.decode(RequestID.self, line))?.id
        do {
            return (id, .success(try WireJSON.decode(ControlRequest.self, line)))
        } catch let known as ControlFailure {
            return (id, .failure(known))
        } catch {
            // Parsed again only when it failed: a good request is decoded once.
            guard case .object = try? JSONValue(json: line) else { return (id, .failure(notAnObject)) }
            return (
                id,
                .failure(
                    ControlFailure(code: .controlBadParams, message: "bad parameters: \(WireJSON.describe(error))"))
            )
        }
    }

    private static let notAnObject = ControlFailure(
        code: .controlBadRequest,
        message: "not a request object (one JSON object on one line, nested at most \(JSONSyntax.maxDepth) deep)")

    private struct RequestID: Decodable { var id: Int? }
}
