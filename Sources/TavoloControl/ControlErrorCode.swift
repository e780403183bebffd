import TavoloTable

/// Every error code a control response carries (PROTOCOL.md §7), on the socket and the page alike: `tavolod` answers
/// with these, `tavolo` and the tests compare with these, and the page reads the same list (`/js/codes.js`, made
/// from `allCases` by `TavoloWeb`). The table's own refusals are `TableErrorCode`'s, under the same names.
public enum ControlErrorCode: String, Codable, Sendable, CaseIterable {
    /// The line is not one JSON object (or is nested deeper than the wire allows).
    case controlBadRequest = "control/bad-request"
    /// An object that is not a request: no `op`, or a parameter missing or of the wrong type.
    case controlBadParams = "control/bad-params"
    /// An `op` this node does not know.
    case controlUnknownOp = "control/unknown-op"
    /// Not for this client: another user's connection, `inject` without `--test-allow-injection`, `inject` from the page.
    case controlForbidden = "control/forbidden"
    /// The node is stopping.
    case controlStopping = "control/stopping"
    /// No connected peer by that name or id.
    case meshNotConnected = "mesh/not-connected"
    /// The datagram could not be sent.
    case meshSendFailed = "mesh/send-failed"
    /// Several connected peers have that name: name one by its id.
    case peerAmbiguous = "peer/ambiguous"
    /// The name is known with another identity: accept the new one first.
    case peerIdentityChanged = "peer/identity-changed"
    /// No changed identity to accept for that name.
    case peerNothingToAccept = "peer/nothing-to-accept"
    /// A room is `lobby` or a table id.
    case chatBadRoom = "chat/bad-room"
    /// A chat line that is empty, too long or not text.
    case chatBadText = "chat/bad-text"
    /// Only a table's members chat in its room.
    case chatNotMember = "chat/not-member"
    /// More chat lines than the rate allows.
    case chatTooFast = "chat/too-fast"
    /// No recorded game of that table.
    case recordsUnknown = "records/unknown"
    /// The records database failed.
    case recordsFailed = "records/failed"
    /// The node serves no page (`--no-web`).
    case webOff = "web/off"
    /// The page has as many event streams open as it may.
    case webTooManyStreams = "web/too-many-streams"
    // A table request the table refused (`TableErrorCode`, §9).
    case tableUnknown = "table/unknown"
    case tableUnknownGame = "table/unknown-game"
    case tableBadPlayers = "table/bad-players"
    case tableNoneOpen = "table/none-open"
    case tableNotHost = "table/not-host"
    case tableStarted = "table/started"
    case tableNotFull = "table/not-full"
    case tableSeatRefused = "table/seat-refused"
    case tableSeatTaken = "table/seat-taken"
    case tableUnknownNode = "table/unknown-node"
    case tableNotPlaying = "table/not-playing"
    case tablePaused = "table/paused"
    case tableBadRequest = "table/bad-request"
    case moveIllegal = "move/illegal"
    case moveNotYourTurn = "move/not-your-turn"
    case moveGameOver = "move/game-over"
    case moveMalformed = "move/malformed"
}

extension ControlErrorCode {
    /// The table's refusal as a control code: every `TableErrorCode` is one (`ControlErrorCodeTests`).
    public init(_ code: TableErrorCode) { self = ControlErrorCode(rawValue: code.rawValue) ?? .tableBadRequest }
}
