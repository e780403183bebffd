import Foundation
import Synchronization

/// Plays `count` independent games on `jobs` threads and gives their results in game order, so a match's figures do
/// not depend on `jobs`: each game is fixed by its index (its deal and the bots' random streams come from it), and
/// CPU per move is each thread's own time. A line on standard error every tenth of the games shows progress.
func playGames<R: Sendable>(
    _ count: Int, jobs: Int, _ game: @Sendable (Int) throws -> R
) throws -> [R] {
    let jobs = max(1, min(jobs, count))
    let state = Mutex<(results: [R?], done: Int, error: (any Error)?)>(
        (Array(repeating: nil, count: count), 0, nil))
    let step = max(1, count / 10)
    DispatchQueue.concurrentPerform(iterations: jobs) { job in
        for g in stride(from: job, to: count, by: jobs) {
            guard state.withLock({ $0.error == nil }) else { return }
            let result: R
            do { result = try game(g) } catch {
                state.withLock { $0.error = $0.error ?? error }
                return
            }
            let done = state.withLock { s in
                s.results[g] = result
                s.done += 1
                return s.done
            }
            if done % step == 0 || done == count {
                FileHandle.standardError.write(Data("  \(done)/\(count) games\n".utf8))
            }
        }
    }
    return try state.withLock { s in
        if let error = s.error { throw error }
        let all = s.results.compactMap { $0 }
        precondition(all.count == count, "a game without a result")
        return all
    }
}
