/// One browsed instance; also the callback context of its resolve ref. Loop thread only.
final class BrowsedInstance {
    let name: String
    let type: String
    let domain: String
    /// Weak: the session owns its instances, and the refs (which retain this object) must not keep it alive.
    weak var session: BrowseSession?
    var interfaces: Set<UInt32> = []
    var resolveRef: ServiceRef?
    /// Counts resolve attempts, so a time limit set for an earlier one is ignored.
    var attempt = 0
    /// A resolve has started and has not answered yet (it holds one of the session's slots).
    var answerPending = false
    var retryPending = false
    var failures = 0
    /// False once the consumer released it: answers are not waited for again until `refresh`.
    var wanted = true
    /// After `refresh`, the resolve keeps running (changes reported) until `release`, whatever `keepResolving`.
    var followChanges = false
    /// Removed from the browse.
    var gone = false
    var host: String?
    var port: Int?
    var txt: [String: String] = [:]
    var lastEmitted: ServiceRecord?

    init(name: String, type: String, domain: String, session: BrowseSession) {
        self.name = name
        self.type = type
        self.domain = domain
        self.session = session
    }
}
