extension TableManager {
    /// A member agreed out (it left, or was voted out) is shown as such at once (`TableState.departures`), not
    /// when its seat's next move comes: clients redraw on this `updated`, the machine emits nothing until then.
    func announceDepartures(_ id: TableID, replacedBefore: Int) {
        guard let machine = directory.tables[id], machine.replaced.count > replacedBefore else { return }
        perform([.emit(TableEvent(table: id, game: machine.info.game, .updated))])
    }
}
