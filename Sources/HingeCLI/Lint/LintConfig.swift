import ArgumentScanning
import JSON
import LayoutEngine
import Resolving

/// `hinge-lint.json` (docs/lint.md#config): the matrix, rule severities, `failOn`, the baseline and the snapshots, for
/// every scene or per path pattern. Paths in it are relative to its directory, which is also the project root the
/// baseline and the snapshots key scene files by. Every problem is reported at its JSON pointer; an unknown key is
/// an error, with the known key it is probably a typo of.
public struct LintConfig: Sendable {
    public static let fileName = "hinge-lint.json"

    /// The file read (absolute), nil when there is none.
    public var path: String?
    /// The project root: the configuration's directory, else the current directory.
    public var directory: String
    public var failOn: LintFailOn?
    public var matrix = LintMatrix()
    public var rules: [String: LintRuleSetting] = [:]
    public var baseline: String?
    public var snapshots: String?
    public var tolerance: Double?
    public var devicesFile: String?
    public var constants: [String: Double] = [:]
    public var docsURL: String?
    public var exclude: [LintGlob] = []
    public var overrides: [Override] = []

    /// Settings for the scene files a pattern matches; later entries win over earlier ones and over the top level.
    public struct Override: Sendable {
        public var files: [LintGlob]
        public var matrix: LintMatrix
        public var rules: [String: LintRuleSetting]
    }

    public init(directory: String) { self.directory = directory }

    static let keys = [
        "failOn", "devices", "postures", "orientations", "layoutDirections", "dynamicTypeSizes", "rules", "baseline",
        "snapshots",
        "tolerance", "devicesFile", "constants", "docsUrl", "exclude", "overrides",
    ]
    static let overrideKeys = [
        "files", "devices", "postures", "orientations", "layoutDirections", "dynamicTypeSizes", "rules",
    ]

    /// The configuration in `bytes`, read from `path` (absolute); throws every problem, one per line.
    static func decode(_ bytes: [UInt8], path: String) throws(UsageError) -> LintConfig {
        let name = LintPaths.display(path)
        let value: JSONValue
        do throws(JSONParseError) {
            value = try JSONParser.parse(bytes)
        } catch {
            throw UsageError(LintEscaping.terminal("\(name) is not JSON: \(error.message)"))
        }
        let directory = LintPaths.parent(path)
        var reader = ConfigReader()
        var config = LintConfig(directory: directory)
        config.path = path
        guard let top = reader.object(value, at: "") else { throw reader.failure(name) }
        reader.checkKeys(top, allowed: keys, at: "")
        config.failOn = reader.choice(top["failOn"], at: "/failOn", LintFailOn.self)
        config.matrix = reader.matrix(top, at: "")
        config.rules = reader.rules(top["rules"], at: "/rules")
        config.baseline = reader.path(top["baseline"], at: "/baseline", directory: directory)
        config.snapshots = reader.path(top["snapshots"], at: "/snapshots", directory: directory)
        config.devicesFile = reader.path(top["devicesFile"], at: "/devicesFile", directory: directory)
        config.docsURL = reader.string(top["docsUrl"], at: "/docsUrl")
        if let t = top["tolerance"] { config.tolerance = reader.tolerance(t, at: "/tolerance") }
        config.constants = reader.constants(top["constants"], at: "/constants")
        config.exclude = reader.globs(top["exclude"], at: "/exclude")
        for (i, item) in reader.array(top["overrides"], at: "/overrides").enumerated() {
            let at = "/overrides/\(i)"
            guard let o = reader.object(item, at: at) else { continue }
            reader.checkKeys(o, allowed: overrideKeys, at: at)
            if o["files"] == nil { reader.problem(at, "needs \"files\": a pattern or a list of them") }
            config.overrides.append(
                Override(
                    files: reader.globs(o["files"], at: at + "/files"), matrix: reader.matrix(o, at: at),
                    rules: reader.rules(o["rules"], at: at + "/rules")))
        }
        if !reader.problems.isEmpty { throw reader.failure(name) }
        return config
    }

    /// The first of `directories` (nearest first) that holds `hinge-lint.json`.
    static func find(in directories: [String]) -> String? {
        for dir in directories {
            let candidate = (dir == "/" ? "" : dir) + "/" + fileName
            if LintFileSystem.kind(candidate) == .file { return candidate }
        }
        return nil
    }

    /// The matrix and the rule settings for the scene at `key` (relative to the project root).
    func settings(for key: String) -> (matrix: LintMatrix, rules: [String: LintRuleSetting]) {
        var matrix = self.matrix
        var rules = self.rules
        for o in overrides where o.files.contains(where: { $0.matches(key) }) {
            matrix = matrix.overlaid(by: o.matrix)
            rules.merge(o.rules) { _, new in new }
        }
        return (matrix, rules)
    }
}

/// Reads the configuration's values, collecting every problem with its pointer.
private struct ConfigReader {
    var problems: [String] = []

    /// A problem, escaped for a terminal here (docs/lint.md#escaping): its pointer and message quote the file's keys.
    mutating func problem(_ pointer: String, _ message: String) {
        problems.append(LintEscaping.terminal("\(pointer.isEmpty ? "/" : pointer): \(message)"))
    }

    func failure(_ name: String) -> UsageError {
        let name = LintEscaping.terminal(name)
        return UsageError("\(name) is invalid:\n" + problems.map { "  \(name): \($0)" }.joined(separator: "\n"))
    }

    mutating func object(_ v: JSONValue?, at pointer: String) -> JSONObject? {
        guard let v else { return nil }
        guard case .object(let o) = v else {
            problem(pointer, "expected an object, found \(v.typeName)")
            return nil
        }
        return o
    }

    mutating func array(_ v: JSONValue?, at pointer: String) -> [JSONValue] {
        guard let v else { return [] }
        guard case .array(let a) = v else {
            problem(pointer, "expected a list, found \(v.typeName)")
            return []
        }
        return a
    }

    mutating func checkKeys(_ o: JSONObject, allowed: [String], at pointer: String) {
        for key in o.keys where !allowed.contains(key) {
            let hint = NameSuggestion.suggestion(for: key, among: allowed).map { "did you mean \"\($0)\"?" }
            problem(
                pointer + "/" + key,
                "unknown key \"\(key)\": " + (hint ?? "the known keys are \(allowed.joined(separator: ", "))"))
        }
    }

    mutating func string(_ v: JSONValue?, at pointer: String) -> String? {
        guard let v else { return nil }
        guard let s = v.stringValue, !s.isEmpty else {
            problem(pointer, "expected a non-empty string, found \(v.typeName)")
            return nil
        }
        return s
    }

    mutating func path(_ v: JSONValue?, at pointer: String, directory: String) -> String? {
        string(v, at: pointer).map { LintPaths.absolute($0, base: directory) }
    }

    mutating func strings(_ v: JSONValue?, at pointer: String) -> [String]? {
        guard let v else { return nil }
        if let s = v.stringValue { return [s] }
        var out: [String] = []
        for (i, item) in array(v, at: pointer).enumerated() {
            if let s = item.stringValue { out.append(s) } else { problem("\(pointer)/\(i)", "expected a string") }
        }
        return out
    }

    mutating func choice<E: RawRepresentable & CaseIterable>(_ v: JSONValue?, at pointer: String, _: E.Type) -> E?
    where E.RawValue == String {
        guard let v else { return nil }
        guard let s = v.stringValue, let e = E(rawValue: s) else {
            problem(pointer, "must be one of \(E.allCases.map(\.rawValue).joined(separator: ", "))")
            return nil
        }
        return e
    }

    mutating func matrix(_ o: JSONObject, at pointer: String) -> LintMatrix {
        var m = LintMatrix()
        func read<T>(_ key: String, _ parse: ([String], String) throws(UsageError) -> T) -> T? {
            guard let values = strings(o[key], at: pointer + "/" + key) else { return nil }
            do throws(UsageError) { return try parse(values, key) } catch {
                problem(pointer + "/" + key, error.message)
                return nil
            }
        }
        m.devices = read("devices") { (v, n) throws(UsageError) in try LintMatrix.devices(v, name: n) }
        m.postures = read("postures") { (v, n) throws(UsageError) in try LintMatrix.dimension(v, name: n, Posture.self)
        }
        m.orientations = read("orientations") { (v, n) throws(UsageError) in
            try LintMatrix.dimension(v, name: n, Orientation.self)
        }
        m.layoutDirections = read("layoutDirections") { (v, n) throws(UsageError) in
            try LintMatrix.dimension(v, name: n, LayoutDirection.self)
        }
        m.dynamicTypeSizes = read("dynamicTypeSizes") { (v, n) throws(UsageError) in
            try LintMatrix.dimension(v, name: n, DynamicTypeSize.self)
        }
        return m
    }

    mutating func rules(_ v: JSONValue?, at pointer: String) -> [String: LintRuleSetting] {
        guard let o = object(v, at: pointer) else { return [:] }
        var out: [String: LintRuleSetting] = [:]
        for m in o.members {
            guard LintRules.index(of: m.key) != nil else {
                let hint = NameSuggestion.suggestion(for: m.key, among: LintRules.ids).map {
                    ": did you mean \"\($0)\"?"
                }
                problem(pointer + "/" + m.key, "unknown rule \"\(m.key)\"" + (hint ?? " (hinge lint --list-rules)"))
                continue
            }
            guard let name = m.value.stringValue, let setting = LintRuleSetting(name: name) else {
                problem(pointer + "/" + m.key, "must be one of \(LintRuleSetting.names.joined(separator: ", "))")
                continue
            }
            out[m.key] = setting
        }
        return out
    }

    mutating func tolerance(_ v: JSONValue, at pointer: String) -> Double? {
        guard let d = v.doubleValue, d >= 0, d <= LintOptions.maxTolerance else {
            problem(pointer, "must be a number of points from 0 to \(Int(LintOptions.maxTolerance))")
            return nil
        }
        return d
    }

    mutating func constants(_ v: JSONValue?, at pointer: String) -> [String: Double] {
        guard let o = object(v, at: pointer) else { return [:] }
        var out: [String: Double] = [:]
        for m in o.members {
            do throws(UsageError) {
                out[m.key] = try LintOptions.constant(m.key, m.value.doubleValue, text: m.value.typeName)
            } catch {
                problem(pointer + "/" + m.key, error.message)
            }
        }
        return out
    }

    mutating func globs(_ v: JSONValue?, at pointer: String) -> [LintGlob] {
        (strings(v, at: pointer) ?? []).map(LintGlob.init)
    }
}
