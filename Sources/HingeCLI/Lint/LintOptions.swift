import ArgumentScanning
import JSON
import LayoutEngine
import Resolving
import Store

/// Options of `hinge lint [options] PATH…` (docs/lint.md).
public struct LintOptions: Sendable {
    /// A reporter and where it writes (docs/lint.md#reporters).
    public enum Report: Sendable, Equatable {
        /// `text` (standard output) or `text=PATH`.
        case text(path: String?)
        case junit(path: String)
        case sarif(path: String)
        /// Workflow commands on standard output, and a summary appended to `$GITHUB_STEP_SUMMARY` when it is set.
        case github
    }

    public var paths: [String] = []
    /// `--config FILE`; without it `hinge-lint.json` is looked for in the current directory and its parents.
    public var config: String?
    /// `--no-config`: no configuration file, even when one is found.
    public var noConfig = false
    /// `--devices`, `--postures`, `--orientations`, `--layout-directions`: win over the configuration's.
    public var matrix = LintMatrix()
    /// `--constant KEY=VALUE`: set in every scene's `constants`, over the scene's own values.
    public var constants: [String: Double] = [:]
    /// `--constant-set NAME[@N]`: every scene resolved with this constant set of the database instead of its own
    /// `constantSet` (docs/api.md#constant-sets); `--constant` values still apply on top.
    public var constantSet: ConstantSetReference?
    /// `--rule ID=SEVERITY`: wins over the configuration's `rules`.
    public var rules: [String: LintRuleSetting] = [:]
    public var failOn: LintFailOn?
    /// `--db`: set only when given (else `HINGE_DB`, else `./hinge.sqlite` when it exists).
    public var db: String?
    public var environmentDB: String?
    public var devicesFile: String?
    public var baseline: String?
    public var updateBaseline = false
    public var snapshots: String?
    public var updateSnapshots = false
    public var tolerance: Double?
    public var reports: [Report] = []
    public var docsURL: String?
    /// `--root DIR`: the repository root paths are shown relative to and the configuration is looked for up to
    /// (default: the nearest directory holding `.git`).
    public var root: String?
    /// `--jobs N`: worker threads (default: the online processors, at most 8).
    public var jobs: Int?
    public var listRules = false

    public init() {}

    public static let defaultTolerance = 0.01
    static let maxTolerance = 1000.0
    static let maxJobs = 64

    public static let usage = """
        USAGE: hinge lint [options] PATH...

        Checks scene files (the body of POST /v1/resolve) with the engine, in-process: every diagnostic of every
        combination is a finding with its rule id, severity, file, line and column. A PATH is a scene file or a
        directory searched recursively for *.json files. Configuration: --config FILE, else hinge-lint.json
        found from the paths linted up to the repository root (docs/lint.md#config).

        MATRIX (comma lists, the vocabulary of POST /v1/resolve/matrix; a dimension not given keeps the scene's own):
          --devices IDS|all          device ids, or every profile of the catalog
          --postures LIST            flat, halfOpened, closed (devices that fold; others are checked flat)
          --orientations LIST        portrait, landscape
          --layout-directions LIST   ltr, rtl
          --constant KEY=VALUE       set a constant in every scene (repeatable; GET /v1/constants lists them)
          --constant-set NAME[@N]    resolve every scene with this constant set of the database (--db)

        DEVICES:
          --db PATH                  custom profiles of a database, as for hinge resolve (HINGE_DB, default
                                     ./hinge.sqlite when it exists)
          --devices-file FILE        custom profiles from a JSON list of profiles (the API's shape)

        FINDINGS:
          --fail-on LEVEL            error, warning (default), info, never: exit 1 when a finding is at or above it
          --rule ID=SEVERITY         error, warning, info or off for one rule (repeatable; wins over the config)
          --baseline FILE            hide the findings recorded in FILE; report the ones it no longer matches
          --update-baseline          write the current findings to the baseline file
          --snapshots DIR            compare each scene's placements with its snapshot (placement-changed)
          --update-snapshots         write the snapshots
          --tolerance PT             largest difference of a number that is not a change (default 0.01)

        REPORTS (several in one run; default: text):
          --report text[=PATH]       file:line:col: severity: message [rule] (combination), and a summary
          --report junit=PATH        JUnit XML: a testsuite per scene file, a testcase per combination
          --report sarif=PATH        SARIF 2.1.0
          --report github            GitHub Actions annotations, and a summary in $GITHUB_STEP_SUMMARY
          --docs-url URL             where docs/ is published, for SARIF helpUri and summary links (none without)

        OTHER:
          --config FILE              the configuration file; --no-config reads none
          --root DIR                 the repository root: paths are shown relative to it, the configuration is
                                     looked for up to it, nothing is written outside it (default: git's top level)
          --jobs N                   worker threads (default: the processors, at most 8)
          --list-rules               print every rule id, its default severity and its documentation
          -h, --help                 show this help

        EXIT STATUS:
          0  no finding at or above --fail-on
          1  a finding at or above --fail-on
          2  usage error, a path or file that cannot be read or written, an invalid configuration
        """

    public static func parse(_ arguments: [String], environment: (String) -> String?) throws(UsageError) -> LintOptions
    {
        var o = LintOptions()
        o.environmentDB = environment("HINGE_DB").flatMap { $0.isEmpty ? nil : $0 }
        var scanner = CommandArguments(arguments, command: "lint")
        while let token = scanner.next() {
            switch token {
            case .positional(let p): o.paths.append(p)
            case .option(let name, let inline):
                if ["--update-baseline", "--update-snapshots", "--list-rules", "--no-config"].contains(name) {
                    guard inline == nil else { throw UsageError("\(name) takes no value") }
                    o.setFlag(name)
                } else {
                    try o.set(name, try scanner.value(of: name, inline: inline), scanner: scanner)
                }
            }
        }
        if o.paths.isEmpty && !o.listRules { throw UsageError("missing PATH (a scene file or a directory)") }
        if o.db != nil && o.devicesFile != nil { throw UsageError("--db and --devices-file cannot be used together") }
        if o.config != nil && o.noConfig { throw UsageError("--config and --no-config cannot be used together") }
        return o
    }

    private mutating func setFlag(_ name: String) {
        switch name {
        case "--update-baseline": updateBaseline = true
        case "--update-snapshots": updateSnapshots = true
        case "--no-config": noConfig = true
        default: listRules = true
        }
    }

    private mutating func set(_ name: String, _ value: String, scanner: CommandArguments) throws(UsageError) {
        let list = CommandArguments.commaSeparated(value)
        switch name {
        case "--devices": matrix.devices = try LintMatrix.devices(list, name: name)
        case "--postures": matrix.postures = try LintMatrix.dimension(list, name: name, Posture.self)
        case "--orientations": matrix.orientations = try LintMatrix.dimension(list, name: name, Orientation.self)
        case "--layout-directions":
            matrix.layoutDirections = try LintMatrix.dimension(list, name: name, LayoutDirection.self)
        case "--constant":
            let (key, text) = try Self.pair(value, name: name)
            constants[key] = try Self.constant(key, Double(text), text: "\"\(text)\"")
        case "--rule":
            let (id, text) = try Self.pair(value, name: name)
            guard LintRules.index(of: id) != nil else {
                let hint = NameSuggestion.suggestion(for: id, among: LintRules.ids).map { ": did you mean \"\($0)\"?" }
                throw UsageError("--rule: unknown rule \"\(id)\"" + (hint ?? " (hinge lint --list-rules)"))
            }
            guard let setting = LintRuleSetting(name: text) else {
                throw UsageError("--rule \(id) must be one of \(LintRuleSetting.names.joined(separator: ", "))")
            }
            rules[id] = setting
        case "--fail-on": failOn = try CommandArguments.choice(value, name, LintFailOn.self)
        case "--config": config = try Self.nonEmpty(value, name)
        case "--db": db = try CLIDefaults.database(Self.nonEmpty(value, name))
        case "--constant-set":
            guard let ref = ConstantSetReference(value) else {
                throw UsageError("--constant-set needs a set's name, name@version or default, not \"\(value)\"")
            }
            constantSet = ref
        case "--devices-file": devicesFile = try Self.nonEmpty(value, name)
        case "--baseline": baseline = try Self.nonEmpty(value, name)
        case "--snapshots": snapshots = try Self.nonEmpty(value, name)
        case "--docs-url": docsURL = try Self.nonEmpty(value, name)
        case "--root": root = try Self.nonEmpty(value, name)
        case "--tolerance":
            guard let t = Double(value), t >= 0, t <= Self.maxTolerance else {
                throw UsageError("--tolerance must be a number of points from 0 to \(Int(Self.maxTolerance))")
            }
            tolerance = t
        case "--jobs":
            guard let n = Int(value), n >= 1, n <= Self.maxJobs else {
                throw UsageError("--jobs must be a whole number from 1 to \(Self.maxJobs)")
            }
            jobs = n
        case "--report": reports.append(try Self.report(value))
        default: throw scanner.unknownOption(name)
        }
    }

    /// Refuses an argument that is not UTF-8 (the process's raw `argv`), which the decoded arguments could only
    /// show as another name: such a file is linted, or reported, through the directory that holds it.
    public static func checkRawArguments(_ raw: [[UInt8]]) throws(UsageError) {
        for bytes in raw where !LintEscaping.isUTF8(bytes) {
            throw UsageError(
                "the argument \(LintEscaping.bytes(bytes)) is not UTF-8, and a file can be named only by a UTF-8 "
                    + "path: lint the directory that holds it, which reports a scene file whose name is not UTF-8")
        }
    }

    static func report(_ value: String) throws(UsageError) -> Report {
        let (kind, path) =
            value.firstIndex(of: "=").map { (String(value[..<$0]), String(value[value.index(after: $0)...])) }
            ?? (value, nil)
        if let path, path.isEmpty { throw UsageError("--report \(kind)= needs a path") }
        switch (kind, path) {
        case ("text", _): return .text(path: path)
        case ("github", nil): return .github
        case ("junit", let p?): return .junit(path: p)
        case ("sarif", let p?): return .sarif(path: p)
        case ("junit", nil), ("sarif", nil): throw UsageError("--report \(kind) needs a path: --report \(kind)=PATH")
        case ("github", _): throw UsageError("--report github writes to standard output and takes no path")
        default:
            throw UsageError("--report must be text[=PATH], junit=PATH, sarif=PATH or github, got '\(value)'")
        }
    }

    /// A constant's value checked against its definition (docs/rules.md#constants).
    static func constant(_ key: String, _ value: Double?, text: String) throws(UsageError) -> Double {
        let keys = Constants.definitions.map(\.key)
        guard let definition = Constants.definitions.first(where: { $0.key == key }) else {
            let hint = NameSuggestion.suggestion(for: key, among: keys).map { ": did you mean \"\($0)\"?" }
            throw UsageError("unknown constant \"\(key)\"" + (hint ?? " (GET /v1/constants lists them)"))
        }
        guard let value, value.isFinite, definition.range.contains(value) else {
            throw UsageError(
                "constant \"\(key)\" must be a number from \(definition.range.lowerBound) to "
                    + "\(definition.range.upperBound), got \(text)")
        }
        return value
    }

    private static func pair(_ value: String, name: String) throws(UsageError) -> (String, String) {
        guard let eq = value.firstIndex(of: "="), eq != value.startIndex, value.index(after: eq) != value.endIndex
        else {
            throw UsageError("\(name) needs KEY=VALUE, got '\(value)'")
        }
        return (String(value[..<eq]), String(value[value.index(after: eq)...]))
    }

    private static func nonEmpty(_ value: String, _ name: String) throws(UsageError) -> String {
        guard !value.isEmpty else { throw UsageError("\(name) needs a value") }
        return value
    }
}
