import ArgumentScanning
import Glibc

/// `hinge lint`: finds the scene files, lints them on worker threads, and streams each file's findings, after the
/// baseline, to every reporter in order. Returns the exit status: 0 when no finding is at or above `--fail-on`, 1
/// when one is, 2 for a usage error, a bad configuration or a file that cannot be read or written.
public enum LintRunner {
    public static func run(_ options: LintOptions, environment env: LintEnvironment) -> Int32 {
        defer {
            env.stdout.flush()
            env.stderr.flush()
        }
        if options.listRules {
            env.stdout.write(rulesList())
            return 0
        }
        let setup: LintSetup
        do throws(UsageError) {
            setup = try LintSetup.make(options, env: env)
        } catch {
            env.error(error.message)
            return 2
        }
        defer { setup.store?.close() }
        env.error(setup.configNote)
        for w in setup.warnings { env.error("warning: \(w)") }
        let sources: [LintSource]
        let reporters: Reporters
        do throws(CLIError) {
            let search = LintSearch(
                root: setup.config.directory, repository: setup.repository, boundary: setup.boundary,
                skip: setup.excluded)
            sources = try LintFileSystem.sources(options.paths, cwd: env.currentDirectory, search: search)
            reporters = try Reporters.open(options, setup: setup, env: env)
        } catch {
            env.error(error.message)
            return 2
        }
        let checker = setup.checker
        let workers = options.jobs ?? min(8, max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))))
        let swift = sources.filter(\.isSwift)
        if !swift.isEmpty && !LintSwiftInput.isAvailable {
            env.error(
                "\(LintEscaping.terminal(swift[0].displayPath)): this hinge is built without SwiftUI reading "
                    + "(HINGE_SWIFTUI=off) and lints scene files (*.json) only")
            return 2
        }
        let cache = swift.isEmpty ? nil : setup.cache(options, env: env)
        let prepared = LintSwiftInput.prepare(swift, checker: checker, cache: cache, jobs: options.jobs ?? workers)
        if !swift.isEmpty { env.error(prepared.note) }
        var items: [LintItem] = []
        var owners: [String?] = []
        for source in sources {
            if source.isSwift {
                for item in prepared.items[source.absolutePath] ?? [] {
                    items.append(item)
                    owners.append(source.absolutePath)
                }
            } else {
                items.append(.file(source))
                owners.append(nil)
            }
        }
        let work = items
        var run = Run(setup: setup, options: options, env: env, reporters: reporters.all, total: items.count)
        var toCache: [(path: String, report: LintFileReport)] = []
        let keepForCache = prepared.cacheKey != nil
        LintPipeline.run(
            count: items.count, workers: workers, window: 4 * workers,
            work: {
                switch work[$0] {
                case .file(let source): return checker.check(source)
                case .work(let lint): return lint()
                case .done(let report): return report
                }
            },
            consume: { i, report in
                if keepForCache, let owner = owners[i] { toCache.append((owner, report)) }
                run.take(report, done: i + 1)
            })
        if let cache, let key = prepared.cacheKey { cache.store(key, toCache) }
        return run.finish(closing: reporters)
    }

    /// `hinge lint --list-rules`: id, default severity and documentation of every rule.
    static func rulesList() -> String {
        let width = LintRules.all.map(\.id.count).max() ?? 0
        var s = "RULE".padded(width) + "  SEVERITY  DOCUMENTATION\n"
        for r in LintRules.all {
            s += r.id.padded(width) + "  " + r.defaultSeverity.rawValue.padded(8) + "  " + r.documentation + "\n"
        }
        return s
    }
}

/// The reporters of a run and the files they write.
private struct Reporters {
    var all: [any LintReporter] = []
    var outputs: [LintOutput] = []

    static func open(_ o: LintOptions, setup: LintSetup, env: LintEnvironment) throws(CLIError) -> Reporters {
        var r = Reporters()
        // Links only to a stable address given once (docs/lint.md#docs-url), never to this machine's files.
        let docsURL = (o.docsURL ?? setup.config.docsURL)?.trimmingSlashes()
        for report in o.reports.isEmpty ? [.text(path: nil)] : o.reports {
            switch report {
            case .text(let path):
                r.all.append(LintTextReporter(try r.output(path, env: env)))
            case .junit(let path):
                r.all.append(LintJUnitReporter(try r.output(path, env: env), failOn: setup.failOn))
            case .sarif(let path):
                r.all.append(LintSARIFReporter(try r.output(path, env: env), docsURL: docsURL))
            case .github:
                var summary: LintOutput? = nil
                if let path = env.variable("GITHUB_STEP_SUMMARY"), !path.isEmpty {
                    let fd = Glibc.open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
                    guard fd >= 0 else { throw CLIError("cannot write \(path): \(CLIFiles.errnoText())") }
                    summary = LintOutput(.descriptor(fd, owned: true), name: path)
                    r.outputs.append(summary!)
                }
                r.all.append(LintGitHubReporter(env.stdout, stepSummary: summary, docsURL: docsURL))
            }
        }
        return r
    }

    private mutating func output(_ path: String?, env: LintEnvironment) throws(CLIError) -> LintOutput {
        guard let path else { return env.stdout }
        let out = try LintOutput.file(LintPaths.absolute(path, base: env.currentDirectory), stdout: env.stdout)
        outputs.append(out)
        return out
    }
}

/// The consuming side of a run: the baseline, the summary, the reporters and the progress line.
private struct Run {
    let setup: LintSetup
    let options: LintOptions
    let env: LintEnvironment
    let reporters: [any LintReporter]
    var summary: LintSummary
    var progress: LintProgress
    var failed = false

    init(setup: LintSetup, options: LintOptions, env: LintEnvironment, reporters: [any LintReporter], total: Int) {
        self.setup = setup
        self.options = options
        self.env = env
        self.reporters = reporters
        summary = LintSummary(failOn: setup.failOn)
        progress = LintProgress(total: total, isTerminal: env.stderrIsTerminal, clock: env.clock, out: env.stderr)
    }

    mutating func take(_ report: LintFileReport, done: Int) {
        var report = report
        if let message = report.unreadable ?? report.snapshotError {
            progress.clear()
            env.error(message)
            failed = true
        }
        if let baseline = setup.baseline {
            summary.hidden += baseline.filter(&report, updating: options.updateBaseline)
            if !options.updateBaseline {
                let rules = setup.checker.ruleSettings(for: report.key)
                summary.addFixed(baseline.fixed(in: report.key) { rules[$0] == .off })
            }
        }
        summary.snapshotsWritten += report.snapshotsWritten
        summary.add(report)
        for r in reporters { r.file(report) }
        progress.update(done)
    }

    mutating func finish(closing r: Reporters) -> Int32 {
        progress.clear()
        if options.updateBaseline, let baseline = setup.baseline {
            do throws(CLIError) {
                summary.baselineWritten = try baseline.write()
                // What the new baseline holds is not hidden by it: it is the whole of this run's findings.
                summary.hidden = 0
            } catch {
                env.error(error.message)
                failed = true
            }
        }
        for reporter in reporters { reporter.finish(summary) }
        for out in r.outputs { out.close() }
        env.stdout.flush()
        for out in r.outputs + [env.stdout] {
            if let failure = out.failure {
                env.error(failure)
                failed = true
            }
        }
        if failed { return 2 }
        return summary.failing > 0 ? 1 : 0
    }
}

extension LintEnvironment {
    /// `hinge lint: MESSAGE` on standard error, each line escaped for a terminal (docs/lint.md#escaping).
    func error(_ message: String) {
        stderr.write("hinge lint: " + LintEscaping.terminalLines(message) + "\n")
    }
}

/// `linted 120/1000 files` on standard error, rewritten in place: only on a terminal, only once the run has taken a
/// second, at most ten times a second.
struct LintProgress {
    let total: Int
    let isTerminal: Bool
    let clock: () -> UInt64
    let out: LintOutput
    let start: UInt64
    private var last: UInt64 = 0
    private(set) var shown = false

    static let delay: UInt64 = 1_000_000_000
    static let interval: UInt64 = 100_000_000

    init(total: Int, isTerminal: Bool, clock: @escaping () -> UInt64, out: LintOutput) {
        self.total = total
        self.isTerminal = isTerminal
        self.clock = clock
        self.out = out
        start = isTerminal ? clock() : 0
    }

    mutating func update(_ done: Int) {
        guard isTerminal else { return }
        let now = clock()
        guard now &- start >= Self.delay, !shown || now &- last >= Self.interval || done == total else { return }
        last = now
        shown = true
        out.write("\rlinted \(done)/\(total) files")
        out.flush()
    }

    mutating func clear() {
        guard shown else { return }
        out.write("\r\u{1B}[K")
        out.flush()
        shown = false
    }
}

extension String {
    fileprivate func padded(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }

    fileprivate func trimmingSlashes() -> String {
        var s = Substring(self)
        while s.hasSuffix("/") { s = s.dropLast() }
        return String(s)
    }
}
