import TavoloCore

extension GameCatalog {
    /// Every game this build of Tavolo offers.
    public static let standard = GameCatalog([
    ])
}
