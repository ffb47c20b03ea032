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
    /// `--no-cache`: Swift sources are read again, and nothing is stored (docs/lint.md#cache).
    public var noCache = false
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

    public static var usage: String { table.usage }

    public static func parse(_ arguments: [String], environment: (String) -> String?) throws(UsageError) -> LintOptions
    {
        var o = LintOptions()
        var paths: [String] = []
        try table.parse(arguments, into: &o, environment: environment) { path in paths.append(path) }
        o.paths = paths
        if o.paths.isEmpty && !o.listRules { throw UsageError("missing PATH (a scene file or a directory)") }
        if o.db != nil && o.devicesFile != nil { throw UsageError("--db and --devices-file cannot be used together") }
        if o.config != nil && o.noConfig { throw UsageError("--config and --no-config cannot be used together") }
        return o
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

    static func pair(_ value: String, name: String) throws(UsageError) -> (String, String) {
        guard let eq = value.firstIndex(of: "="), eq != value.startIndex, value.index(after: eq) != value.endIndex
        else {
            throw UsageError("\(name) needs KEY=VALUE, got '\(value)'")
        }
        return (String(value[..<eq]), String(value[value.index(after: eq)...]))
    }

    static func nonEmpty(_ value: String, _ name: String) throws(UsageError) -> String {
        guard !value.isEmpty else { throw UsageError("\(name) needs a value") }
        return value
    }
}
