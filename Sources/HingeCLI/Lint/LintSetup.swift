import ArgumentScanning
import Glibc
import LayoutEngine
import Resolving
import Store

/// What a lint run reads from its process: the working directory, the environment, where it writes, whether standard
/// error is a terminal, and a clock (tests pass their own).
public struct LintEnvironment {
    public var currentDirectory: String
    public var variable: (String) -> String?
    public var stdout: LintOutput
    public var stderr: LintOutput
    public var stderrIsTerminal: Bool
    /// Monotonic nanoseconds.
    public var clock: () -> UInt64

    public init(
        currentDirectory: String, variable: @escaping (String) -> String?, stdout: LintOutput, stderr: LintOutput,
        stderrIsTerminal: Bool, clock: @escaping () -> UInt64
    ) {
        self.currentDirectory = currentDirectory
        self.variable = variable
        self.stdout = stdout
        self.stderr = stderr
        self.stderrIsTerminal = stderrIsTerminal
        self.clock = clock
    }

    /// The process's own: its directory, environment, standard output and error, and `CLOCK_MONOTONIC`.
    public static func process(variable: @escaping (String) -> String?) -> LintEnvironment {
        LintEnvironment(
            currentDirectory: LintPaths.currentDirectory(), variable: variable,
            stdout: .descriptor(1, name: "standard output"), stderr: .descriptor(2, name: "standard error"),
            stderrIsTerminal: isatty(2) == 1,
            clock: {
                var ts = timespec()
                clock_gettime(CLOCK_MONOTONIC, &ts)
                return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
            })
    }
}

extension LintSetup {
    /// The cache of Swift results (docs/lint.md#cache), nil when it is off: `--no-cache`, no cache directory in the
    /// environment, snapshots in use (their files are read and written by each run), or a database opened (its
    /// constant sets may change under an entry).
    func cache(_ o: LintOptions, env: LintEnvironment) -> LintCache? {
        guard !o.noCache, checker.snapshots == nil, store == nil,
            let directory = LintCache.directory(variable: env.variable)
        else { return nil }
        var salt = LintDigest()
        salt.add(Resolution.engineVersion)
        salt.add(LintCache.executableIdentity)
        if let path = config.path,
            case .bytes(let bytes) = LintFileSystem.read(path, limit: JSONParserLimits.configBytes)
        {
            bytes.withUnsafeBytes { salt.add($0) }
        }
        salt.add(config.directory)
        salt.add("\(o.matrix)")
        salt.add(o.rules.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ","))
        salt.add(checker.constants.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ","))
        salt.add("\(o.constantSet.map { "\($0)" } ?? "-")")
        salt.add("\(catalog.allProfiles())")
        return LintCache(directory: directory, salt: salt.hex)
    }
}

/// Everything a run needs before the first file: the configuration, the device catalog, the matrix checked against
/// it, the baseline, the snapshots and the reporters. Any problem here is a usage error (exit 2).
struct LintSetup {
    var config: LintConfig
    var catalog: any DeviceCatalog
    var store: Store?
    var checker: LintFileChecker
    var failOn: LintFailOn
    var baseline: LintBaseline?
    var excluded: (String, String) -> Bool
    var warnings: [String] = []
    /// The repository root (docs/lint.md#repository): reporters show paths relative to it.
    var repository: String?
    /// Nothing is written, and no scene symlink followed, outside it: the repository root, else the project root.
    var boundary: String
    /// Which configuration the run uses, or that it uses none, for standard error.
    var configNote: String

    static func make(_ o: LintOptions, env: LintEnvironment) throws(UsageError) -> LintSetup {
        let cwd = env.currentDirectory
        let repository = LintRepository.root(option: o.root, cwd: cwd, paths: o.paths)
        if let repository, LintFileSystem.kind(repository) != .directory {
            throw UsageError("--root \(LintEscaping.terminal(o.root ?? repository)): not a directory")
        }
        let (config, configNote) = try loadConfig(o, cwd: cwd, repository: repository)
        let boundary = Self.boundary(config: config, repository: repository)
        var warnings: [String] = []
        let (catalog, store) = try openCatalog(o, config: config, cwd: cwd, warnings: &warnings)
        do throws(UsageError) {
            try checkMatrices(o.matrix, config: config, catalog: catalog)
        } catch {
            store?.close()
            throw error
        }
        var constants = config.constants
        constants.merge(o.constants) { _, flag in flag }
        let baselinePath = o.baseline.map { LintPaths.absolute($0, base: cwd) } ?? config.baseline
        let snapshotDir = o.snapshots.map { LintPaths.absolute($0, base: cwd) } ?? config.snapshots
        let baseline: LintBaseline?
        do throws(UsageError) {
            baseline = try openBaseline(
                o, path: baselinePath, snapshots: snapshotDir, boundary: boundary, cwd: cwd, warnings: &warnings)
        } catch {
            store?.close()
            throw error
        }
        let snapshots = snapshotDir.map {
            LintSnapshots(
                directory: $0, tolerance: o.tolerance ?? config.tolerance ?? LintOptions.defaultTolerance,
                update: o.updateSnapshots, boundary: boundary)
        }
        var checker = LintFileChecker(
            catalog: catalog, config: config, matrix: o.matrix, rules: o.rules, constants: constants,
            snapshots: snapshots)
        checker.constantSets = ConstantSetContext(catalog: store?.constantSets, pin: o.constantSet)
        if let ref = o.constantSet, !ref.isDefault {
            guard case .found = store?.constantSets.lookup(ref, includeRetired: false) ?? .unknownSet else {
                store?.close()
                throw UsageError("--constant-set: the database (--db) has no constant set \(ref)")
            }
        }
        // The lint's own files are never scene files, nor is anything the configuration excludes.
        let own = Set(
            [config.path, baselinePath, o.devicesFile.map { LintPaths.absolute($0, base: cwd) }, config.devicesFile]
                .compactMap { $0 })
        let exclude = config.exclude
        let excluded: (String, String) -> Bool = { absolute, key in
            if own.contains(absolute) { return true }
            if let snapshotDir, absolute == snapshotDir || absolute.hasPrefix(snapshotDir + "/") { return true }
            return exclude.contains { $0.matches(key) }
        }
        return LintSetup(
            config: config, catalog: catalog, store: store, checker: checker,
            failOn: o.failOn ?? config.failOn ?? .warning, baseline: baseline, excluded: excluded, warnings: warnings,
            repository: repository, boundary: boundary, configNote: configNote)
    }

    /// The baseline, after checking that what `--update-baseline` and `--update-snapshots` would write is named and
    /// stays inside `boundary` (docs/lint.md#writes).
    private static func openBaseline(
        _ o: LintOptions, path baselinePath: String?, snapshots snapshotDir: String?, boundary: String, cwd: String,
        warnings: inout [String]
    ) throws(UsageError) -> LintBaseline? {
        if o.updateBaseline && baselinePath == nil {
            throw UsageError("--update-baseline needs a baseline file: --baseline FILE, or \"baseline\" in the config")
        }
        if o.updateSnapshots && snapshotDir == nil {
            throw UsageError("--update-snapshots needs a directory: --snapshots DIR, or \"snapshots\" in the config")
        }
        if o.updateBaseline, let baselinePath, !LintRepository.resolvesInside(baselinePath, boundary) {
            throw UsageError(Self.outside("the baseline", baselinePath, boundary: boundary, cwd: cwd))
        }
        if o.updateSnapshots, let snapshotDir, !LintRepository.resolvesInside(snapshotDir, boundary) {
            throw UsageError(Self.outside("the snapshot directory", snapshotDir, boundary: boundary, cwd: cwd))
        }
        guard let baselinePath else { return nil }
        let display = LintPaths.relative(baselinePath, to: cwd)
        var missing = false
        let baseline: LintBaseline
        do throws(CLIError) {
            baseline = try LintBaseline.load(baselinePath, display: display, missing: &missing)
        } catch {
            throw UsageError(error.message)
        }
        if missing && !o.updateBaseline {
            warnings.append("no baseline at \(display) yet: every finding is shown (--update-baseline writes it)")
        }
        return baseline
    }

    /// What nothing is written outside (docs/lint.md#writes): the repository root that holds the configuration (the
    /// run's, else the configuration's own), else the configuration's directory; without a configuration, the
    /// run's repository root, else the working directory.
    static func boundary(config: LintConfig, repository: String?) -> String {
        guard config.path != nil else { return repository ?? config.directory }
        if let repository, LintRepository.isUnder(config.directory, repository) { return repository }
        return LintRepository.root(containing: config.directory) ?? config.directory
    }

    static func outside(_ what: String, _ path: String, boundary: String, cwd: String) -> String {
        "\(what) \(LintEscaping.terminal(LintPaths.relative(path, to: cwd))) resolves outside the project root "
            + "\(LintEscaping.terminal(boundary)) (the repository, else the configuration's directory): nothing is "
            + "read or written there; name a path inside the project"
    }

    /// The configuration: `--config`, else `hinge-lint.json` found from the linted paths up to the repository root
    /// (docs/lint.md#config); several paths must find the same one. Returns it and the line that says which.
    private static func loadConfig(_ o: LintOptions, cwd: String, repository: String?) throws(UsageError) -> (
        LintConfig, String
    ) {
        if o.noConfig { return (LintConfig(directory: cwd), "no configuration (--no-config)") }
        let path: String
        if let named = o.config {
            path = LintPaths.absolute(named, base: cwd)
        } else {
            var found: [String] = []
            for p in o.paths {
                let absolute = LintPaths.absolute(p, base: cwd)
                let dirs = LintRepository.configSearch(for: absolute, cwd: cwd, repository: repository)
                if let f = LintConfig.find(in: dirs), !found.contains(f) { found.append(f) }
            }
            if found.count > 1 {
                throw UsageError(
                    "the paths linted have different configurations ("
                        + found.map { LintEscaping.terminal(LintPaths.relative($0, to: cwd)) }.joined(separator: ", ")
                        + "): lint them in separate runs, or name one with --config")
            }
            guard let first = found.first else {
                let top =
                    repository.map { "the repository root \(LintEscaping.terminal($0))" } ?? "the working directory"
                return (
                    LintConfig(directory: cwd),
                    "no configuration: no \(LintConfig.fileName) from the paths linted up to \(top)"
                )
            }
            path = first
        }
        let display = o.config ?? LintPaths.relative(path, to: cwd)
        let shown = LintEscaping.terminal(display)
        switch LintFileSystem.read(path, limit: JSONParserLimits.configBytes) {
        case .failed(let reason): throw UsageError("cannot read the configuration \(shown): \(reason)")
        case .tooLarge(let size): throw UsageError("the configuration \(shown) is \(size) bytes: too large")
        case .bytes(let bytes):
            var config = try LintConfig.decode(bytes, path: path)
            config.path = path
            return (config, "configuration: \(shown)")
        }
    }

    /// The built-ins and the custom profiles: of `--db`, else of a devices file (flag, then config), else of
    /// `HINGE_DB` or `./hinge.sqlite` as for `hinge resolve`.
    private static func openCatalog(_ o: LintOptions, config: LintConfig, cwd: String, warnings: inout [String])
        throws(UsageError) -> (any DeviceCatalog, Store?)
    {
        let file = o.db == nil ? (o.devicesFile.map { LintPaths.absolute($0, base: cwd) } ?? config.devicesFile) : nil
        if let file {
            do throws(CLIError) {
                let loaded = try LintDevices.load(file, display: o.devicesFile ?? LintPaths.relative(file, to: cwd))
                warnings += loaded.warnings
                return (StaticDeviceCatalog(BuiltInDevices.all + loaded.profiles), nil)
            } catch {
                throw UsageError(error.message)
            }
        }
        do throws(CLIError) {
            let opened = try CLIFiles.catalog(db: o.db ?? o.environmentDB ?? CLIDefaults.db)
            return (opened.catalog, opened.store)
        } catch {
            throw UsageError(error.message)
        }
    }

    /// Every device the flags and the configuration name exists, and no scene gets more combinations than
    /// `POST /v1/resolve/matrix` allows.
    private static func checkMatrices(_ flags: LintMatrix, config: LintConfig, catalog: any DeviceCatalog)
        throws(UsageError)
    {
        var problems: [String] = []
        let name = config.path.map { LintPaths.display($0) } ?? "the configuration"
        problems += flags.unknownDevices(in: catalog).map { "--devices: \($0)" }
        problems += config.matrix.unknownDevices(in: catalog).map { "\(name): /devices: \($0)" }
        for (i, o) in config.overrides.enumerated() {
            problems += o.matrix.unknownDevices(in: catalog).map { "\(name): /overrides/\(i)/devices: \($0)" }
        }
        let matrices = [config.matrix] + config.overrides.map { config.matrix.overlaid(by: $0.matrix) }
        for m in matrices {
            let n = m.overlaid(by: flags).maxCombinations(catalog: catalog)
            if n > LintMatrix.limit {
                problems.append(
                    "the matrix asks for up to \(n) combinations of a scene, at most \(LintMatrix.limit) are allowed: "
                        + "name fewer devices, postures, orientations or layout directions")
                break
            }
        }
        if !problems.isEmpty { throw UsageError(problems.joined(separator: "\n")) }
    }
}

enum JSONParserLimits {
    static let configBytes = 1 << 20
}
