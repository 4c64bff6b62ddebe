import Rules

/// The `files done / total` line on a terminal's standard error. It appears only once a run
/// has taken a second (short runs stay quiet) and never when standard error is not a
/// terminal, so logs and pipes get no control characters.
final class ProgressIndicator: @unchecked Sendable {
    private let sink: any OutputSink
    /// Nil while the files are still being found.
    private var total: Int?
    private let phase: String
    private let clock = ContinuousClock()
    private let started: ContinuousClock.Instant
    private let lock = PThreadLock()
    private var done = 0
    private var lastDrawn: ContinuousClock.Instant?
    private var isShowing = false
    private let delay: Duration

    static let redrawInterval = Duration.milliseconds(100)

    /// Nil when `sink` is not a terminal, or there are no files. Nothing is drawn before
    /// `delay` has passed since `started` (the start of the run, so a later phase shows at
    /// once in a long run). A nil `total` (files still being found) is given by `setTotal`.
    init?(
        sink: any OutputSink, total: Int?, phase: String,
        started: ContinuousClock.Instant = ContinuousClock.now, delay: Duration = .seconds(1)
    ) {
        guard sink.isTerminal, total != 0 else { return nil }
        self.delay = delay
        self.sink = sink
        self.total = total
        self.phase = phase
        self.started = started
    }

    func fileFinished() {
        lock.withLock {
            done += 1
            let now = clock.now
            guard now - started >= delay else { return }
            if let lastDrawn, now - lastDrawn < Self.redrawInterval, done != total { return }
            lastDrawn = now
            isShowing = true
            sink.write("\r\u{1B}[K\(phase): \(done)\(total.map { "/\($0)" } ?? "") files")
        }
    }

    /// The number of files, once they are all found.
    func setTotal(_ total: Int) {
        lock.withLock { self.total = total }
    }

    /// Erases the line, so that what follows starts on a clean line.
    func finish() {
        lock.withLock {
            if isShowing { sink.write("\r\u{1B}[K") }
            isShowing = false
        }
    }
}
