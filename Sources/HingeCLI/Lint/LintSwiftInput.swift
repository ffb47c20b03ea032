import ArgumentScanning
import JSON

/// One unit of a lint run's pipeline: a scene file to read and lint, a scene read from Swift to lint, or a report
/// already known (a Swift file that cannot be read, a result of the cache).
enum LintItem: Sendable {
    case file(LintSource)
    case work(@Sendable () -> LintFileReport)
    case done(LintFileReport)
}

/// The Swift sources of a run, read (docs/lint.md#swift): each source's items by absolute path, what to store in
/// the cache afterwards, and the line that tells standard error how many files were parsed.
struct LintSwiftPrepared {
    var items: [String: [LintItem]] = [:]
    /// The cache key to store this run's Swift reports under, nil when they came from the cache or it is off.
    var cacheKey: String?
    var note: String
    /// Files handed to the parser (those that can present, and those their presented content needs).
    var parsedFiles = 0
}

#if HINGE_SWIFTUI
    import SwiftUIBridge

    enum LintSwiftInput {
        static let isAvailable = true
        /// The most bytes read from one Swift file (as `hinge scenes` reads).
        static let maxFileBytes = 16 * 1024 * 1024

        /// Reads `sources` (Swift files): from the cache when it holds them, else with the SwiftUI bridge on `jobs`
        /// threads (only files that can present are parsed), each extracted scene an item the checker lints.
        static func prepare(
            _ sources: [LintSource], checker: LintFileChecker, cache: LintCache?, jobs: Int
        ) -> LintSwiftPrepared {
            var files: [SwiftSourceFile] = []
            var readSources: [String: LintSource] = [:]
            var prepared = LintSwiftPrepared(note: "")
            var parts: [String] = []
            for source in sources {
                switch LintFileSystem.read(source.absolutePath, limit: maxFileBytes) {
                case .bytes(let bytes):
                    files.append(SwiftSourceFile(path: source.key, bytes: bytes))
                    readSources[source.key] = source
                    if cache != nil {
                        parts.append(source.absolutePath + "\0" + source.displayPath + "\0" + LintDigest.of(bytes))
                    }
                case .failed(let reason):
                    var r = LintFileReport(displayPath: source.displayPath, key: source.key)
                    r.unreadable = "cannot read \(LintEscaping.terminal(source.displayPath)): \(reason)"
                    prepared.items[source.absolutePath, default: []].append(.done(r))
                    parts.append(source.absolutePath + "\0unreadable")
                case .tooLarge(let size):
                    var r = LintFileReport(displayPath: source.displayPath, key: source.key)
                    r.unreadable =
                        "cannot read \(LintEscaping.terminal(source.displayPath)): \(size) bytes, at most "
                        + "\(maxFileBytes) are read from a Swift file"
                    prepared.items[source.absolutePath, default: []].append(.done(r))
                    parts.append(source.absolutePath + "\0unreadable")
                }
            }
            let key = cache?.key(parts)
            if let cache, let key, let stored = cache.load(key) {
                var items: [String: [LintItem]] = [:]
                for (path, report) in stored { items[path, default: []].append(.done(report)) }
                prepared.items = items
                prepared.note =
                    "Swift sources: \(sources.count) files, 0 parsed, \(stored.count) results from the cache"
                return prepared
            }
            let report = SwiftUIReader.read(files, jobs: jobs)
            for scene in report.scenes {
                guard let source = readSources[scene.source.path] else { continue }
                let display = source.displayPath
                prepared.items[source.absolutePath, default: []].append(
                    .work { checker.check(scene: scene, displayPath: display) })
            }
            prepared.cacheKey = key
            prepared.parsedFiles = report.parsedFiles
            prepared.note =
                "Swift sources: \(sources.count) files, \(report.parsedFiles) parsed, \(report.scenes.count) scenes"
            return prepared
        }

        /// `pointer` with a presentation's index replaced by its id (`/presentations/1/presentedFrom` →
        /// `/presentations/confirmsSignOut/presentedFrom`, the id escaped as a JSON pointer's token): what the baseline
        /// matches by, so an entry holds while presentations are added before it or reordered.
        static func pointer(_ pointer: String, ids: [String]) -> String {
            let prefix = "/presentations/"
            guard pointer.hasPrefix(prefix) else { return pointer }
            let rest = pointer.dropFirst(prefix.count)
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            guard let n = Int(digits), ids.indices.contains(n) else { return pointer }
            let token = ids[n].replacing("~", with: "~0").replacing("/", with: "~1")
            return prefix + token + rest.dropFirst(digits.count)
        }
    }

    extension LintFileChecker {
        /// Lints a scene read from Swift as a scene file is linted (the same matrix, rules and snapshots), each finding
        /// at the line and column of the member its pointer points at; adds the bridge's own findings
        /// (`present-by-item`) and what it could not resolve (`unresolved`), outside any combination.
        func check(scene: ExtractedScene, displayPath: String) -> LintFileReport {
            var report = LintFileReport(displayPath: displayPath, key: scene.id)
            let settings = config.settings(for: scene.id)
            var findings = LintFindingBuilder(rules: settings.rules.merging(rules) { _, flag in flag })
            for f in scene.findings {
                findings.add(
                    f.code, LintSeverity(rawValue: f.severity) ?? .warning, pointer: "", at: Self.position(f.position),
                    combination: nil, message: f.message)
            }
            for u in scene.unresolved {
                findings.add(
                    LintRules.unresolved, .info, pointer: "", at: Self.position(u.position), combination: nil,
                    message: u.message)
            }
            let body = JSONWriter.encode(scene.scene.json(context: .standard))
            do throws(JSONParseError) {
                let document = try JSONParser.document(body)
                resolveCombinations(
                    document, body: body, positions: .swift { Self.position(scene.position(of: $0)) },
                    settings: settings.matrix, findings: &findings, report: &report)
            } catch {
                findings.add(
                    LintRules.invalidScene, .error, pointer: "", at: Self.position(scene.source), combination: nil,
                    message: error.message)
            }
            let ids = scene.scene.presentations.map(\.id)
            report.findings = findings.findings.map { f in
                var f = f
                f.pointer = LintSwiftInput.pointer(f.pointer, ids: ids)
                return f
            }
            report.render()
            return report
        }

        private static func position(_ p: SwiftUIBridge.SourcePosition) -> SourcePosition {
            SourcePosition(line: p.line, column: p.column)
        }
    }
#else
    enum LintSwiftInput {
        static let isAvailable = false

        /// This build reads no SwiftUI (`HINGE_SWIFTUI=off`): a Swift file named is a usage error.
        static func prepare(
            _ sources: [LintSource], checker: LintFileChecker, cache: LintCache?, jobs: Int
        ) -> LintSwiftPrepared {
            LintSwiftPrepared(note: "")
        }
    }
#endif
