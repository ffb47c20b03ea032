import Glibc

/// Paths as the lint handles them: absolute and normalised for matching, relative for showing.
enum LintPaths {
    static func currentDirectory() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return "/" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `path` made absolute against `base` and normalised (no `.`, `..` or repeated `/`).
    static func absolute(_ path: String, base: String) -> String {
        normalize(path.hasPrefix("/") ? path : base + "/" + path)
    }

    static func normalize(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." {
                if !parts.isEmpty { parts.removeLast() }
                continue
            }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }

    /// `path` (absolute, normalised) relative to `root` (the same): `scenes/a.json`, or `../other/a.json`.
    static func relative(_ path: String, to root: String) -> String {
        let p = path.split(separator: "/")
        let r = root.split(separator: "/")
        var common = 0
        while common < p.count, common < r.count, p[common] == r[common] { common += 1 }
        let up = Array(repeating: "..", count: r.count - common)
        return (up + p[common...].map(String.init)).joined(separator: "/")
    }

    static func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// `path` as shown: without a leading `./`.
    static func display(_ path: String) -> String {
        var p = Substring(path)
        while p.hasPrefix("./") { p = p.dropFirst(2) }
        return p.isEmpty ? "." : String(p)
    }
}

/// A scene file to lint: the path shown, the absolute one, and the key the baseline and snapshots use; or, with a
/// `problem`, an entry that is not read (a name that is not UTF-8, a symbolic link out of the project), reported as
/// a file that cannot be read.
struct LintSource: Sendable, Equatable {
    var displayPath: String
    var absolutePath: String
    var key: String
    var problem: String? = nil

    /// A Swift source (`*.swift`), read with the SwiftUI bridge (docs/lint.md#swift) rather than as a scene file.
    var isSwift: Bool { problem == nil && absolutePath.hasSuffix(".swift") }

    /// Whether a file named `name` is one the lint reads from a directory: a scene file, or a Swift source when this
    /// build reads SwiftUI.
    static func isLintable(_ name: String) -> Bool {
        name.hasSuffix(".json") || (LintSwiftInput.isAvailable && name.hasSuffix(".swift"))
    }
}

/// How the scene files of a run are found: the project root keys are relative to, the repository root paths are
/// shown relative to, the directory no symbolic link may lead out of, and what to skip.
struct LintSearch {
    var root: String
    var repository: String?
    var boundary: String
    var skip: (_ absolute: String, _ key: String) -> Bool

    /// How a path is shown: relative to the repository root when it is inside it (what code scanning and
    /// annotations expect), else as named.
    func display(_ absolute: String, named: String) -> String {
        if let repository, LintRepository.isUnder(absolute, repository), absolute != repository {
            return LintPaths.relative(absolute, to: repository)
        }
        return LintPaths.display(named)
    }

    func source(_ absolute: String, named: String) -> LintSource {
        LintSource(
            displayPath: display(absolute, named: named), absolutePath: absolute,
            key: LintPaths.relative(absolute, to: root))
    }
}

/// File access of the lint: finding scene files, reading them with a size limit, writing reports atomically.
enum LintFileSystem {
    enum Kind { case file, directory, missing }

    static func kind(_ path: String) -> Kind {
        var st = stat()
        guard stat(path, &st) == 0 else { return .missing }
        return (st.st_mode & S_IFMT) == S_IFDIR ? .directory : .file
    }

    /// The scene files of `paths`: a file as named, a directory searched recursively for `*.json` and, when this build
    /// reads SwiftUI, `*.swift` (entries sorted by
    /// name, hidden ones skipped, and `skip` consulted for each path). Throws for a path that does not exist, a
    /// directory that cannot be read or that holds no scene file.
    static func sources(_ paths: [String], cwd: String, search: LintSearch) throws(CLIError) -> [LintSource] {
        var out: [LintSource] = []
        var visited: Set<[UInt64]> = []
        for path in paths {
            let absolute = LintPaths.absolute(path, base: cwd)
            let shown = LintEscaping.terminal(path)
            switch kind(absolute) {
            case .missing:
                let reason = CLIFiles.errnoText()
                var st = stat()
                if lstat(absolute, &st) == 0 {
                    out.append(linkProblem(search.source(absolute, named: path), "a symbolic link to nothing"))
                    continue
                }
                throw CLIError("cannot read \(shown): \(reason)")
            case .file:
                var source = search.source(absolute, named: path)
                if let problem = linkCheck(absolute, search: search) { source = linkProblem(source, problem) }
                out.append(source)
            case .directory:
                let before = out.count
                try walk(
                    display: search.display(absolute, named: path), absolute: absolute, search: search,
                    visited: &visited, into: &out)
                if out.count == before {
                    // Said apart: files the configuration skips (its exclude, its own files) are not missing.
                    var all: [LintSource] = []
                    var again: Set<[UInt64]> = []
                    var open = search
                    open.skip = { _, _ in false }
                    try walk(display: shown, absolute: absolute, search: open, visited: &again, into: &all)
                    let why = all.isEmpty ? "" : " (\(plural(all.count, "is", "are")) skipped by the configuration)"
                    throw CLIError(
                        "no scene files (*.json) in \(shown)\(why): name a scene file, or a directory that holds some")
                }
            }
        }
        return out
    }

    /// Why a symbolic link at `absolute` is not followed, nil when it is none or may be: a link must resolve inside
    /// the project (`search.boundary`) to a `*.json` file or a directory.
    static func linkCheck(_ absolute: String, search: LintSearch) -> String? {
        var st = stat()
        guard lstat(absolute, &st) == 0, (st.st_mode & S_IFMT) == S_IFLNK else { return nil }
        guard let target = LintRepository.realPath(absolute) else { return "a symbolic link to nothing" }
        guard LintRepository.resolvesInside(target, search.boundary) else {
            return "a symbolic link out of the project root (not followed)"
        }
        if kind(target) == .file && !LintSource.isLintable(target) {
            return "a symbolic link to a file that is not a scene file (*.json), not followed"
        }
        return nil
    }

    private static func linkProblem(_ source: LintSource, _ problem: String) -> LintSource {
        var s = source
        s.problem = "cannot read \(LintEscaping.terminal(source.displayPath)): \(problem)"
        return s
    }

    private static func walk(
        display: String, absolute: String, search: LintSearch, visited: inout Set<[UInt64]>,
        into out: inout [LintSource]
    ) throws(CLIError) {
        let shown = LintEscaping.terminal(display)
        var st = stat()
        guard stat(absolute, &st) == 0 else { throw CLIError("cannot read \(shown): \(CLIFiles.errnoText())") }
        // A directory reached twice (a symbolic link back up the tree) is searched once.
        guard visited.insert([UInt64(st.st_dev), UInt64(st.st_ino)]).inserted else { return }
        guard let dir = opendir(absolute) else { throw CLIError("cannot read \(shown): \(CLIFiles.errnoText())") }
        var names: [[UInt8]] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            if name.first != UInt8(ascii: ".") { names.append(name) }
        }
        closedir(dir)
        names.sort { $0.lexicographicallyPrecedes($1) }
        for bytes in names {
            let childDisplay = (display == "." ? "" : display + "/")
            guard LintEscaping.isUTF8(bytes) else {
                // Not UTF-8: never skipped in silence. A scene file or a directory is reported as unreadable.
                if bytes.reversed().starts(with: Array(".json".utf8).reversed()) || isDirectory(absolute, bytes) {
                    out.append(
                        LintSource(
                            displayPath: childDisplay + LintEscaping.bytes(bytes), absolutePath: "", key: "",
                            problem: "cannot read \(LintEscaping.terminal(childDisplay))\(LintEscaping.bytes(bytes)): "
                                + "its name is not UTF-8; rename it"))
                }
                continue
            }
            let name = String(decoding: bytes, as: UTF8.self)
            let childAbsolute = absolute + "/" + name
            let key = LintPaths.relative(childAbsolute, to: search.root)
            if search.skip(childAbsolute, key) { continue }
            let source = LintSource(displayPath: childDisplay + name, absolutePath: childAbsolute, key: key)
            if let problem = linkCheck(childAbsolute, search: search) {
                if LintSource.isLintable(name) || kind(childAbsolute) == .directory {
                    out.append(linkProblem(source, problem))
                }
                continue
            }
            switch kind(childAbsolute) {
            case .directory:
                try walk(
                    display: source.displayPath, absolute: childAbsolute, search: search, visited: &visited, into: &out
                )
            case .file where LintSource.isLintable(name):
                out.append(source)
            default: break
            }
        }
    }

    /// Whether the entry `name` (raw bytes) of the directory `parent` is a directory.
    private static func isDirectory(_ parent: String, _ name: [UInt8]) -> Bool {
        var path = Array(parent.utf8) + [UInt8(ascii: "/")] + name + [0]
        var st = stat()
        let ok = path.withUnsafeMutableBufferPointer { p in
            p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: p.count) { stat($0, &st) == 0 }
        }
        return ok && (st.st_mode & S_IFMT) == S_IFDIR
    }

    /// What reading a scene file gave.
    enum Read {
        case bytes([UInt8])
        /// Larger than `limit`: its size.
        case tooLarge(Int)
        case failed(String)
    }

    /// The bytes of `path`, unless it is larger than `limit` bytes.
    static func read(_ path: String, limit: Int) -> Read {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failed(CLIFiles.errnoText()) }
        defer { close(fd) }
        var st = stat()
        if fstat(fd, &st) == 0, Int(st.st_size) > limit { return .tooLarge(Int(st.st_size)) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n == 0 { return .bytes(out) }
            if n < 0 {
                if errno == EINTR { continue }
                return .failed(CLIFiles.errnoText())
            }
            out.append(contentsOf: chunk[0..<n])
            if out.count > limit { return .tooLarge(out.count) }
        }
    }

    /// Creates `path` and its missing parents.
    static func makeDirectories(_ path: String) throws(CLIError) {
        if kind(path) == .directory { return }
        let parent = LintPaths.parent(path)
        if parent != path && parent != "/" && parent != "." { try makeDirectories(parent) }
        if mkdir(path, 0o755) != 0 && errno != EEXIST {
            throw CLIError("cannot create the directory \(path): \(CLIFiles.errnoText())")
        }
    }

    /// Writes `bytes` to `path` through a temporary file renamed over it, so a reader never sees half a file.
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws(CLIError) {
        try makeDirectories(LintPaths.parent(path))
        let temporary = path + ".tmp-\(getpid())"
        unlink(temporary)  // a leftover, or a link planted there: never written through
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw CLIError("cannot write \(path): \(CLIFiles.errnoText())") }
        let written = CLIFiles.write(bytes, to: fd)
        close(fd)
        guard written, rename(temporary, path) == 0 else {
            let reason = CLIFiles.errnoText()
            unlink(temporary)
            throw CLIError("cannot write \(path): \(reason)")
        }
    }
}
